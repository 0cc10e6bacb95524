//! Hostile or careless input to the engine binary (issue #12): bytes that are not UTF-8, table
//! sizes the machine cannot give, perft that would never end, devices given as table files, huge
//! lines. Each must be answered (`info string error:` or the normal reply) without ending or
//! hanging the engine. Waits are generous: only a hang fails, never a slow machine.

use std::io::Write;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::Receiver;
use std::time::{Duration, Instant};

mod common;

/// Long enough for any loaded machine; a hang is what fails.
const WAIT: Duration = Duration::from_secs(20);

struct Engine {
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
}

impl Engine {
    fn start() -> Engine {
        let (child, stdin, rx) = common::start_engine_lines();
        Engine {
            child,
            stdin,
            lines: rx,
        }
    }

    fn send_bytes(&mut self, bytes: &[u8]) {
        self.stdin.write_all(bytes).expect("the engine reads");
        self.stdin.flush().unwrap();
    }

    fn send(&mut self, text: &str) {
        self.send_bytes(format!("{text}\n").as_bytes());
    }

    /// The lines up to and including the first that starts with `prefix`.
    fn until(&mut self, prefix: &str) -> Vec<String> {
        let deadline = Instant::now() + WAIT;
        let mut got = Vec::new();
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.lines.recv_timeout(left) {
                Ok(l) => {
                    let done = l.starts_with(prefix);
                    got.push(l);
                    if done {
                        return got;
                    }
                }
                Err(e) => panic!("waiting for '{prefix}': {e}; got {got:?}"),
            }
        }
    }

    /// Sends `quit` and checks that the engine exits within `limit`.
    fn quit_within(mut self, limit: Duration) {
        self.send("quit");
        let start = Instant::now();
        while self.child.try_wait().unwrap().is_none() {
            assert!(start.elapsed() < limit, "the engine did not quit");
            std::thread::sleep(Duration::from_millis(5));
        }
    }
}

fn has(lines: &[String], needle: &str) -> bool {
    lines.iter().any(|l| l.contains(needle))
}

#[test]
fn a_line_that_is_not_utf8_is_answered_and_the_engine_goes_on() {
    let mut e = Engine::start();
    e.send_bytes(b"\xff\n");
    e.send_bytes(b"isready\xfe\xfd\r\n");
    e.send("isready");
    let got = e.until("readyok");
    let errors: Vec<&String> = got
        .iter()
        .filter(|l| l.starts_with("info string error:") && l.contains("not valid UTF-8"))
        .collect();
    assert_eq!(errors.len(), 2, "{got:?}");
    assert!(got.iter().all(|l| l.is_ascii()), "{got:?}");
    e.quit_within(WAIT);
}

/// MemTotal plus SwapTotal in GiB (0 when unknown).
fn memory_gib() -> u64 {
    let text = std::fs::read_to_string("/proc/meminfo").unwrap_or_default();
    let kib: u64 = text
        .lines()
        .filter(|l| l.starts_with("MemTotal:") || l.starts_with("SwapTotal:"))
        .filter_map(|l| l.split_whitespace().nth(1)?.parse::<u64>().ok())
        .sum();
    kib >> 20
}

#[test]
fn a_hash_size_that_cannot_be_had_is_refused_not_aborted() {
    if memory_gib() == 0 || memory_gib() >= 60 {
        println!("skipped: this machine may really have 64 GiB to give");
        return;
    }
    let mut e = Engine::start();
    e.send("setoption name USI_Hash value 65536");
    e.send("position sfen 4k4/9/4P4/9/9/9/9/9/9 b G2r2b3g4s4n4l17p 1");
    e.send("go mate 5000");
    let got = e.until("checkmate");
    assert!(
        has(&got, "info string error: USI_Hash 65536") && has(&got, "kept 64 MiB"),
        "{got:?}"
    );
    assert_eq!(got.last().unwrap(), "checkmate G*5b");
    e.send("setoption name USI_Hash value 65536");
    e.send("isready");
    let got = e.until("readyok");
    assert!(has(&got, "info string error: USI_Hash 65536"), "{got:?}");
    e.send("go depth 1");
    e.until("bestmove");
    e.quit_within(WAIT);
}

#[test]
fn the_mate_command_refuses_a_table_it_cannot_have() {
    let out = Command::new(env!("CARGO_BIN_EXE_tsubame"))
        .args([
            "mate",
            "--hash",
            "1000000000000",
            "4k4/9/4P4/9/9/9/9/9/9",
            "b",
            "G",
            "1",
        ])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1), "{out:?}");
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("cannot allocate"), "{err}");
}

#[test]
fn perft_runs_in_the_background_and_stops() {
    let mut e = Engine::start();
    e.send("go perft 1000");
    let got = e.until("info string error:");
    assert!(has(&got, "above the maximum 64"), "{got:?}");
    e.send("go perft -1");
    let got = e.until("info string error:");
    assert!(has(&got, "go perft needs a number of 0 or more"), "{got:?}");
    e.send("go perft 0");
    assert_eq!(
        e.until("Nodes searched").last().unwrap(),
        "Nodes searched: 1"
    );
    // Depth 12 would take years: isready and stop must still be served.
    e.send("go perft 12");
    e.send("isready");
    e.until("readyok");
    e.send("stop");
    let got = e.until("info string perft 12 stopped");
    assert!(!has(&got, "Nodes searched"), "{got:?}");
    e.send("go perft 12");
    e.send("isready");
    e.until("readyok");
    e.quit_within(Duration::from_secs(5));
}

#[test]
fn a_device_is_not_read_as_the_nana_table() {
    let mut e = Engine::start();
    e.send("usi");
    let got = e.until("usiok");
    assert!(
        has(
            &got,
            "option name NanaTablebase type filename default <empty>"
        ),
        "{got:?}"
    );
    for device in ["/dev/stdin", "/proc/self/fd/0", "/dev/zero", "/dev/urandom"] {
        if !std::path::Path::new(device).exists() {
            continue;
        }
        e.send(&format!("setoption name NanaTablebase value {device}"));
        e.send("isready");
        let got = e.until("readyok");
        assert!(has(&got, "is not a regular file"), "{device}: {got:?}");
    }
    e.quit_within(WAIT);
}

#[test]
fn careless_input_gets_clear_errors() {
    let mut e = Engine::start();
    let cases = [
        ("go depth -1", "go depth needs a number of 0 or more"),
        ("go nodes -1", "go nodes needs a number of 0 or more"),
        ("go mate -1", "go mate needs a number of 0 or more"),
        (
            "setoption name USI_Hash value",
            "USI_Hash: the value is missing",
        ),
        ("setoption name USI_Hash", "USI_Hash: the value is missing"),
        ("position startpos moves1g1f", "unexpected 'moves1g1f'"),
        (
            "position sfen 4k4/9/9/9/9/9/9/9/4K4 b - 4294967295",
            "move number must be",
        ),
    ];
    for (command, error) in cases {
        e.send(command);
        let got = e.until("info string error:");
        assert!(has(&got, error), "{command}: {got:?}");
    }
    // Tabs separate words in `position` as in `go`.
    e.send("position\tstartpos\tmoves\t7g7f\t3c3d");
    e.send("d");
    let got = e.until("SFEN:");
    assert!(
        got.last().unwrap().contains("/2P6/") && !has(&got, "error"),
        "{got:?}"
    );
    // A huge unknown command is echoed only in part.
    e.send(&"x".repeat(1 << 20));
    let got = e.until("info string error:");
    let line = got.last().unwrap();
    assert!(
        line.len() < 300 && line.contains("xxx..."),
        "{} bytes",
        line.len()
    );
    e.send("isready");
    e.until("readyok");
    e.quit_within(WAIT);
}

#[test]
fn stop_after_a_found_mate_and_with_many_threads_is_answered() {
    let mut e = Engine::start();
    e.send("usi");
    let got = e.until("usiok");
    let max: u64 = got
        .iter()
        .find(|l| l.starts_with("option name Threads "))
        .and_then(|l| l.split_whitespace().last()?.parse().ok())
        .unwrap();
    assert!((2..=256).contains(&max), "{got:?}");
    e.send(&format!("setoption name Threads value {max}"));
    e.send(&format!("setoption name Threads value {}", max + 1));
    e.until("info string error: Threads");
    e.send("isready");
    e.until("readyok");
    for position in [
        "position sfen 4k4/9/4P4/9/9/9/9/9/9 b G2r2b3g4s4n4l17p 1",
        "position startpos",
    ] {
        e.send(position);
        e.send("go infinite");
        std::thread::sleep(Duration::from_millis(300));
        let start = Instant::now();
        e.send("stop");
        e.until("bestmove");
        // A sanity bound only: the precise latency is measured by the fuzzer.
        assert!(start.elapsed() < Duration::from_secs(2), "{position}");
    }
    e.quit_within(WAIT);
}

/// A malformed `go ponder` (or `go infinite`) still holds its bestmove back until `stop`, as the
/// GUI that sent it expects; a clock value too large for a signed number is still a number.
#[test]
fn a_malformed_ponder_is_still_held_until_stop() {
    let mut e = Engine::start();
    e.send("position startpos");
    e.send("go btime x ponder");
    e.until("info string error:");
    // Nothing but info lines until the stop: a bestmove here would come before it.
    e.send("isready");
    let got = e.until("readyok");
    assert!(!has(&got, "bestmove"), "{got:?}");
    e.send("stop");
    e.until("bestmove");
    e.send("go binc 18446744073709551615 ponder");
    e.send("isready");
    let got = e.until("readyok");
    assert!(!has(&got, "error") && !has(&got, "bestmove"), "{got:?}");
    e.send("stop");
    e.until("bestmove");
    e.quit_within(WAIT);
}

/// `go ponder` with a node limit keeps its bestmove until `ponderhit` or `stop`, although the
/// search itself ends at once.
#[test]
fn a_ponder_with_a_node_limit_waits_for_ponderhit() {
    let mut e = Engine::start();
    e.send("position startpos");
    e.send("go btime -1 ponder nodes 7");
    e.send("isready");
    let got = e.until("readyok");
    assert!(!has(&got, "bestmove"), "{got:?}");
    e.send("ponderhit");
    e.until("bestmove");
    e.quit_within(WAIT);
}

#[test]
fn eval_file_refuses_a_bad_file_and_goes_back_to_the_embedded_network() {
    let bad = std::env::temp_dir().join(format!("tsubame-bad-{}.nnue", std::process::id()));
    std::fs::write(&bad, b"TSUBNNUE but nothing after").unwrap();
    let mut e = Engine::start();
    e.send("setoption name USI_Variant value minishogi");
    e.send(&format!("setoption name EvalFile value {}", bad.display()));
    e.send("isready");
    let lines = e.until("readyok");
    assert!(has(&lines, "info string error: EvalFile"), "{lines:?}");
    e.send("setoption name EvalFile value <empty>");
    e.send("isready");
    let lines = e.until("readyok");
    assert!(has(&lines, "embedded networks are in use"), "{lines:?}");
    e.send("position startpos");
    e.send("go depth 4");
    let lines = e.until("bestmove");
    assert!(!has(&lines, "error"), "{lines:?}");
    e.quit_within(WAIT);
    let _ = std::fs::remove_file(bad);
}

/// A position with more pieces of a kind than the set has is answered with an error, and the last
/// good position stays.
#[test]
fn a_position_beyond_the_piece_set_is_refused_and_the_last_one_kept() {
    let mut e = Engine::start();
    let good = "4k4/9/9/9/9/9/9/9/4K4 b 2P 1";
    e.send(&format!("position sfen {good}"));
    e.send("position sfen lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b P 1");
    let got = e.until("info string error:");
    let want = "19 pawns on the board and in hand, but the shogi set has 18";
    assert!(has(&got, want), "{got:?}");
    e.send("d");
    let got = e.until("SFEN:");
    assert!(got.last().unwrap().contains(good), "{got:?}");
    e.quit_within(WAIT);
}
