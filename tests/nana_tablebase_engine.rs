//! The engine with `NanaTablebase`: `go` and `go mate` answered from the table with exact scores, and
//! a corrupted or mismatched file refused with `info string error:` (the engine then searches).
//!
//! The table here is the one material class with a single cube of each kind in play (built in
//! seconds); positions outside it are not in that file and are searched.

use std::io::Write;
use std::path::PathBuf;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use tsubame::core::game::Position;
use tsubame::games::nana::Nana;
use tsubame::games::nana::tablebase::index::INDEXER;
use tsubame::games::nana::tablebase::{Tablebase, TbValue, build};
use tsubame::usi::{Output, Usi as Engine};

/// Captures what the engine prints.
#[derive(Clone, Default)]
struct Capture(Arc<Mutex<Vec<u8>>>);

impl Write for Capture {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0.lock().unwrap().extend_from_slice(buf);
        Ok(buf.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

impl Capture {
    fn take(&self) -> String {
        String::from_utf8(std::mem::take(&mut *self.0.lock().unwrap())).unwrap()
    }
}

struct Harness {
    engine: Engine,
    out: Capture,
}

impl Harness {
    fn new() -> Harness {
        let out = Capture::default();
        let engine = Engine::new(Output::new(Box::new(out.clone())));
        Harness { engine, out }
    }

    /// Sends `lines` and returns what was printed, waiting for a `bestmove` or `checkmate` line
    /// when the last command is a `go`.
    fn send(&mut self, lines: &[&str]) -> String {
        for l in lines {
            self.engine.handle(l);
        }
        let mut text = String::new();
        let waits = lines.last().is_some_and(|l| l.starts_with("go"));
        let start = Instant::now();
        loop {
            text.push_str(&self.out.take());
            let done = text.contains("bestmove") || text.contains("checkmate");
            if !waits || done || start.elapsed() > Duration::from_secs(60) {
                return text;
            }
            std::thread::sleep(Duration::from_millis(5));
        }
    }
}

fn temp_file(name: &str) -> PathBuf {
    std::env::temp_dir().join(format!("tsubame-{}-{name}", std::process::id()))
}

/// A position of the class held by `tb` with value `want`.
fn find(tb: &Tablebase, want: impl Fn(TbValue) -> bool) -> Nana {
    (0..INDEXER.size)
        .step_by(7)
        .find(|&i| INDEXER.material(i) == (1, 1) && tb.value_at(i).is_some_and(&want))
        .map(|i| INDEXER.unrank(i))
        .expect("such a position")
}

#[test]
fn go_and_go_mate_come_from_the_table_and_bad_files_are_refused() {
    let tb = build(Some((1, 1)), false);
    let path = temp_file("class11.tb");
    tb.save(&path).unwrap();

    let mut h = Harness::new();
    let setup = format!("setoption name NanaTablebase value {}", path.display());
    let text = h.send(&[
        "setoption name USI_Variant value nanashogi",
        &setup,
        "isready",
    ]);
    assert!(
        text.contains("readyok") && !text.contains("error"),
        "{text}"
    );

    // A win in 3: exact score, the mating line, a best move that keeps the win.
    let win = find(&tb, |v| v == TbValue::Win(3));
    let text = h.send(&[
        &format!("position sfen {}", win.to_sfen()),
        "go btime 0 wtime 0",
    ]);
    assert!(text.contains("score mate 3 "), "{text}");
    let best = text
        .lines()
        .find_map(|l| l.strip_prefix("bestmove "))
        .and_then(|l| l.split_whitespace().next())
        .expect("bestmove");
    let mut after = win.clone();
    after.play(after.parse_move(best).unwrap());
    assert_eq!(tb.probe(&after), Some(TbValue::Loss(2)), "{text}");
    let text = h.send(&["go mate 1000"]);
    let line = text.lines().find(|l| l.starts_with("checkmate")).unwrap();
    assert_eq!(line.split_whitespace().count(), 4, "{text}");

    // A lost and a drawn position.
    let lost = find(&tb, |v| v == TbValue::Loss(4));
    let text = h.send(&[&format!("position sfen {}", lost.to_sfen()), "go depth 3"]);
    assert!(text.contains("score mate -4 "), "{text}");
    assert_eq!(h.send(&["go mate infinite"]).trim(), "checkmate nomate");
    let draw = find(&tb, |v| v == TbValue::Draw);
    let text = h.send(&[&format!("position sfen {}", draw.to_sfen()), "go depth 3"]);
    assert!(
        text.contains("score cp 0 ") && text.contains("bestmove"),
        "{text}"
    );

    // A corrupted file: refused by its checksum, and the engine searches.
    let mut bytes = std::fs::read(&path).unwrap();
    let last = bytes.len() - 1;
    bytes[last] ^= 1;
    let bad = temp_file("corrupt.tb");
    std::fs::write(&bad, &bytes).unwrap();
    let text = h.send(&[
        &format!("setoption name NanaTablebase value {}", bad.display()),
        "isready",
    ]);
    assert!(
        text.contains("info string error:") && text.contains("checksum"),
        "{text}"
    );
    assert!(text.contains("readyok"), "{text}");
    let text = h.send(&[&format!("position sfen {}", win.to_sfen()), "go depth 4"]);
    assert!(
        text.contains("bestmove") && text.contains("nodes"),
        "{text}"
    );

    // A mismatched file (another format version) and a missing one.
    bytes[last] ^= 1;
    bytes[8] ^= 0x40;
    std::fs::write(&bad, &bytes).unwrap();
    let text = h.send(&[
        &format!("setoption name NanaTablebase value {}", path.display()),
        "isready",
        &format!("setoption name NanaTablebase value {}", bad.display()),
        "isready",
    ]);
    assert!(text.contains("mismatched"), "{text}");
    let text = h.send(&[
        "setoption name NanaTablebase value /nonexistent/nana.tb",
        "isready",
    ]);
    assert!(text.contains("info string error:"), "{text}");

    // The empty value: no table.
    let text = h.send(&["setoption name NanaTablebase value <empty>", "isready"]);
    assert!(!text.contains("error"), "{text}");
    let _ = std::fs::remove_file(&path);
    let _ = std::fs::remove_file(&bad);
}
