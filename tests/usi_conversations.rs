//! Scripted USI conversations with the built engine (`engine-tests/usi/*.usi`, format in its
//! README), plus conversations generated here: a 10,000-move game, many stops, quit mid-search.

use std::io::Write;
use std::path::PathBuf;
use std::process::{Child, ChildStdin};
use std::sync::mpsc::{Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

mod common;

use tsubame::core::moves::{ListStore, MoveList};
use tsubame::core::rules::RuleOptions;
use tsubame::engine::{Session, Start};
use tsubame::games::giveandtake::GiveAndTake;
use tsubame::games::minishogi::Minishogi;
use tsubame::games::nana::Nana;
use tsubame::games::shogi::Shogi;
use tsubame::games::{EveryGameRules, Game};

/// The engine process with its output arriving line by line on a channel.
struct Engine {
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
    /// Every line received so far.
    log: Vec<String>,
}

impl Engine {
    fn start() -> Engine {
        let (child, stdin, rx) = common::start_engine_lines();
        Engine {
            child,
            stdin,
            lines: rx,
            log: Vec::new(),
        }
    }

    fn send(&mut self, text: &str) {
        writeln!(self.stdin, "{text}").expect("the engine reads its input");
        self.stdin.flush().unwrap();
    }

    /// Waits for a line satisfying `want`; returns it and the lines skipped before it.
    fn wait(&mut self, want: &dyn Fn(&str) -> bool, timeout: Duration) -> Result<String, String> {
        let deadline = Instant::now() + timeout;
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.lines.recv_timeout(left) {
                Ok(line) => {
                    self.log.push(line.clone());
                    if want(&line) {
                        return Ok(line);
                    }
                }
                Err(RecvTimeoutError::Timeout) => return Err("timed out".into()),
                Err(RecvTimeoutError::Disconnected) => return Err("the engine exited".into()),
            }
        }
    }

    /// Collects whatever has arrived without waiting.
    fn drain(&mut self) -> Vec<String> {
        let mut got = Vec::new();
        while let Ok(l) = self.lines.try_recv() {
            self.log.push(l.clone());
            got.push(l);
        }
        got
    }

    /// Sends quit and checks that the process ends promptly.
    fn quit(mut self) -> Vec<String> {
        self.send("quit");
        let deadline = Instant::now() + Duration::from_secs(5);
        loop {
            if let Some(status) = self.child.try_wait().unwrap() {
                assert!(status.success(), "exit status {status}");
                break;
            }
            assert!(Instant::now() < deadline, "the engine did not quit");
            std::thread::sleep(Duration::from_millis(10));
        }
        while let Ok(l) = self.lines.recv_timeout(Duration::from_millis(200)) {
            self.log.push(l);
        }
        self.log
    }
}

/// Turns `\xNN` escapes into bytes (for control characters in scripts).
fn unescape(text: &str) -> String {
    let mut out = String::new();
    let mut rest = text;
    while let Some(i) = rest.find("\\x") {
        out.push_str(&rest[..i]);
        let hex = rest.get(i + 2..i + 4).unwrap_or("");
        match u8::from_str_radix(hex, 16) {
            Ok(b) => {
                out.push(b as char);
                rest = &rest[i + 4..];
            }
            Err(_) => {
                out.push_str("\\x");
                rest = &rest[i + 2..];
            }
        }
    }
    out.push_str(rest);
    out
}

/// The game state the runner tracks to judge each bestmove.
#[derive(Clone)]
struct Tracked {
    variant: &'static str,
    position: String,
    /// `MinishogiExtraMoves`.
    extra_moves: u8,
}

fn legal_in<P: Game>(position: &str, extra_moves: u8, reply: &str) -> Result<(), String> {
    let mut rules = EveryGameRules::default();
    rules
        .set("MinishogiExtraMoves", &extra_moves.to_string())
        .expect("a value the engine took");
    let mut s: Session<P> = Session::new();
    let args = position.strip_prefix("position ").unwrap_or("startpos");
    let words: Vec<&str> = args.split_ascii_whitespace().collect();
    let (setup, moves) = match words.iter().position(|&w| w == "moves") {
        Some(i) => (&words[..i], &words[i + 1..]),
        None => (&words[..], &[][..]),
    };
    let start = match setup {
        ["sfen", fields @ ..] => Start::Sfen(fields.join(" ")),
        _ => Start::StartPos,
    };
    let _ = s.set_position(&start, moves, &rules.of::<P>().game);
    let pos = s.position();
    let mut list = MoveList::<P::Move>::new();
    pos.legal_moves(&mut list);
    match reply {
        "resign" if list.is_empty() => Ok(()),
        "resign" => Err("resigned with legal moves".into()),
        "win" if pos.can_declare(&RuleOptions::default()) => Ok(()),
        "win" => Err("declared without the right".into()),
        mv => pos.parse_move(mv).map(|_| ()).map_err(|e| e.to_string()),
    }
}

/// Checks that `bestmove <reply>` is legal in the tracked position.
fn check_bestmove(t: &Tracked, line: &str) -> Result<(), String> {
    let reply = line.split_whitespace().nth(1).unwrap_or("");
    let r = match t.variant {
        "minishogi" => legal_in::<Minishogi>(&t.position, t.extra_moves, reply),
        "nanashogi" => legal_in::<Nana>(&t.position, t.extra_moves, reply),
        "giveandtake" => legal_in::<GiveAndTake>(&t.position, t.extra_moves, reply),
        _ => legal_in::<Shogi>(&t.position, t.extra_moves, reply),
    };
    r.map_err(|e| format!("{line} in {} ({}): {e}", t.position, t.variant))
}

/// Runs one script; returns a description of the first failure.
fn run_script(name: &str, text: &str) -> Result<(), String> {
    let mut engine = Engine::start();
    let mut timeout = Duration::from_secs(10);
    let mut tracked = Tracked {
        variant: "shogi",
        position: "position startpos".into(),
        extra_moves: 0,
    };
    let mut searches: Vec<Tracked> = Vec::new();
    let mut since_wait: Vec<String> = Vec::new();
    for (n, raw) in text.lines().enumerate() {
        let line = raw.trim_end();
        let at = format!("{name}:{}", n + 1);
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        if let Some(cmd) = line.strip_prefix("> ") {
            let cmd = unescape(cmd);
            if let Some(v) = cmd.split(" value ").nth(1)
                && (cmd.contains("USI_Variant") || cmd.contains("UCI_Variant"))
            {
                match v.trim().to_ascii_lowercase().as_str() {
                    "shogi" => tracked.variant = "shogi",
                    "minishogi" => tracked.variant = "minishogi",
                    "nanashogi" | "nana" => tracked.variant = "nanashogi",
                    "giveandtake" => tracked.variant = "giveandtake",
                    _ => {}
                }
                if ["shogi", "minishogi", "nanashogi", "nana", "giveandtake"]
                    .contains(&v.trim().to_ascii_lowercase().as_str())
                {
                    tracked.position = "position startpos".into();
                }
            }
            if let Some(v) = cmd.split(" value ").nth(1)
                && cmd.contains("MinishogiExtraMoves")
                && let Ok(n) = v.trim().parse()
                && [0, 2, 3].contains(&n)
            {
                tracked.extra_moves = n;
            }
            if cmd.starts_with("position ") {
                tracked.position = cmd.clone();
            }
            if cmd.starts_with("go") && !cmd.contains("perft") && !cmd.contains("mate") {
                searches.push(tracked.clone());
            }
            engine.send(&cmd);
        } else if let Some(ms) = line.strip_prefix("sleep ") {
            std::thread::sleep(Duration::from_millis(ms.parse().unwrap()));
        } else if let Some(ms) = line.strip_prefix("timeout ") {
            timeout = Duration::from_millis(ms.parse().unwrap());
        } else if let Some(p) = line.strip_prefix("!< ") {
            since_wait.extend(engine.drain());
            if let Some(l) = since_wait.iter().find(|l| l.starts_with(p)) {
                return Err(format!("{at}: unexpected line '{l}'"));
            }
        } else if let Some(p) = line.strip_prefix("<= ") {
            engine
                .wait(&|l| l == p, timeout)
                .map_err(|e| format!("{at}: waiting for '{p}': {e}; got {:?}", engine.log))?;
            since_wait.clear();
        } else if let Some(p) = line.strip_prefix("< ") {
            engine
                .wait(&|l| l.starts_with(p), timeout)
                .map_err(|e| format!("{at}: waiting for '{p}…': {e}; got {:?}", engine.log))?;
            since_wait.clear();
        } else {
            return Err(format!("{at}: bad script line '{line}'"));
        }
    }
    // Give a search still running a chance to end, then quit.
    engine.send("stop");
    let log = engine.quit();
    let bestmoves: Vec<&String> = log.iter().filter(|l| l.starts_with("bestmove")).collect();
    if bestmoves.len() != searches.len() {
        return Err(format!(
            "{name}: {} go commands but {} bestmove lines: {log:?}",
            searches.len(),
            bestmoves.len()
        ));
    }
    for (t, b) in searches.iter().zip(bestmoves) {
        check_bestmove(t, b).map_err(|e| format!("{name}: {e}"))?;
    }
    for l in &log {
        if !l.is_ascii() {
            return Err(format!("{name}: non-ASCII output '{l}'"));
        }
    }
    Ok(())
}

#[test]
fn scripted_conversations() {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("engine-tests/usi");
    let mut scripts: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "usi"))
        .collect();
    scripts.sort();
    assert!(scripts.len() >= 6, "scripts missing in {}", dir.display());
    let failures: Vec<String> = scripts
        .iter()
        .filter_map(|p| {
            let name = p.file_name().unwrap().to_string_lossy().to_string();
            run_script(&name, &std::fs::read_to_string(p).unwrap()).err()
        })
        .collect();
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

#[test]
fn ten_thousand_move_game_then_ready_and_legal_move() {
    let moves = "5i5h 5a5b 5h5i 5b5a ".repeat(2500);
    let script = format!(
        "> position startpos moves {moves}\n> isready\n<= readyok\n> go depth 3\n< bestmove\n\
         > position startpos moves {moves}7g7f\n> go depth 2\n< bestmove\n"
    );
    run_script("ten-thousand", &script).unwrap();
}

/// `stop` ends a search promptly at any point; the latency is printed (the benchmark figure),
/// and only a hang fails the test.
#[test]
fn many_stops_are_answered() {
    let mut engine = Engine::start();
    engine.send("isready");
    engine
        .wait(&|l| l == "readyok", Duration::from_secs(10))
        .unwrap();
    let mut worst = Duration::ZERO;
    let sfens = [
        "position startpos",
        "position startpos moves 7g7f 3c3d 8h2b+ 3a2b",
        "position sfen l6nl/5+P1gk/2np1S3/p1p4Pp/3P2Sp1/1PPb2P1P/P5GS1/R8/LN4bKL w RGgsn5p 1",
    ];
    for i in 0..30u64 {
        engine.send(sfens[i as usize % sfens.len()]);
        engine.send("go infinite");
        std::thread::sleep(Duration::from_millis(5 + (i * 37) % 150));
        let t = Instant::now();
        engine.send("stop");
        engine
            .wait(&|l| l.starts_with("bestmove"), Duration::from_secs(2))
            .unwrap();
        worst = worst.max(t.elapsed());
    }
    println!(
        "slowest stop-to-bestmove over 30 stops: {} ms",
        worst.as_millis()
    );
    engine.quit();
}

#[test]
fn quit_ends_a_running_search() {
    let mut engine = Engine::start();
    engine.send("position startpos");
    engine.send("go infinite");
    std::thread::sleep(Duration::from_millis(200));
    let log = engine.quit();
    assert_eq!(log.iter().filter(|l| l.starts_with("bestmove")).count(), 1);
}

#[test]
fn end_of_input_ends_the_engine() {
    let mut engine = Engine::start();
    engine.send("isready");
    engine
        .wait(&|l| l == "readyok", Duration::from_secs(10))
        .unwrap();
    drop(engine.stdin);
    let deadline = Instant::now() + Duration::from_secs(5);
    while engine.child.try_wait().unwrap().is_none() {
        assert!(
            Instant::now() < deadline,
            "the engine did not exit at end of input"
        );
        std::thread::sleep(Duration::from_millis(10));
    }
}

/// A minishogi game (Fairy-Stockfish against tsubame, lost by tsubame as Black by repetition)
/// in which the position after `… 2e1e 1d3b` has occurred three times: there `2e1e 1d3b` makes it
/// the fourth, which loses for Black under each of the three repetition rules. The search must
/// see that ending although the earlier occurrences all lie before the root.
const RETURNING_CYCLE: &str = "position startpos moves 1e1d 2a2b 3e2d 1a2a 1d1e 4a3b 2e3d \
    3a4b 4e4d 5a4a 1e4e 4a5a 4e2e 3b1d 2e3e 1d3b 3e1e 2a1a 1e2e 3b1d 2e1e 1d3b 1e2e 3b1d 2e1e \
    1d3b 1e2e 3b1d";

#[test]
fn a_repetition_completed_by_the_game_before_the_root_is_seen() {
    for rule in ["initiator", "sente-loses", "first-mover-loses"] {
        let mut engine = Engine::start();
        engine.send("setoption name USI_Variant value minishogi");
        engine.send(&format!("setoption name MinishogiRepetition value {rule}"));
        engine.send(RETURNING_CYCLE);
        engine.send("go depth 8 searchmoves 2e1e");
        engine
            .wait(&|l| l.starts_with("bestmove"), Duration::from_secs(60))
            .unwrap();
        let last = engine
            .log
            .iter()
            .rfind(|l| l.contains(" score "))
            .expect("an info line with a score")
            .clone();
        assert!(
            last.contains(" score mate -2 ") && last.ends_with(" pv 2e1e 1d3b"),
            "{rule}: 2e1e should lose at once by repetition: {last}"
        );
        engine.send("go depth 8");
        let best = engine
            .wait(&|l| l.starts_with("bestmove"), Duration::from_secs(60))
            .unwrap();
        assert!(
            !best.starts_with("bestmove 2e1e"),
            "{rule}: played into the lost repetition: {best}"
        );
        engine.quit();
    }
}
