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

/// The engine's whole output for `input` given as piped standard input that then ends, and
/// whether it exited by itself (a hang guard, not a timing).
fn piped(input: &str) -> Vec<String> {
    let mut child = common::start_engine();
    let mut stdin = child.stdin.take().unwrap();
    stdin.write_all(input.as_bytes()).unwrap();
    drop(stdin);
    let (tx, rx) = std::sync::mpsc::channel();
    let pid = child.id();
    std::thread::spawn(move || {
        let _ = tx.send(child.wait_with_output());
    });
    let out = rx
        .recv_timeout(Duration::from_secs(60))
        .unwrap_or_else(|_| panic!("the engine (pid {pid}) did not exit at the end of input"))
        .unwrap();
    assert!(out.status.success(), "{:?}", out.status);
    String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(str::to_string)
        .collect()
}

#[test]
fn at_the_end_of_input_the_running_command_finishes_and_answers() {
    let got = piped("usi\nisready\nposition startpos\ngo depth 8\n");
    assert!(has(&got, "info depth 8 "), "{got:?}");
    assert!(got.last().unwrap().starts_with("bestmove "), "{got:?}");
    let got = piped("position startpos\ngo nodes 20000\n");
    let last_info = got.iter().rfind(|l| l.starts_with("info depth")).unwrap();
    assert!(got.last().unwrap().starts_with("bestmove "), "{got:?}");
    assert!(last_info.contains(" pv "), "{got:?}");
    let got = piped("position sfen 4k4/9/4P4/9/9/9/9/9/9 b G2r2b3g4s4n4l17p 1\ngo mate 10000\n");
    assert_eq!(got.last().unwrap(), "checkmate G*5b", "{got:?}");
    // The README's Give and Take session.
    let got = piped(
        "setoption name USI_Variant value giveandtake\n\
         position sfen K7/1m6/1m6/8/m7/m7/8/KK6 b - 1\ngo mate 10000\n",
    );
    assert_eq!(
        got.last().unwrap(),
        "checkmate b6-a6 a8:a5 b7-b6 b1:b7 a3-a2 a1:a3 a4:a1:a7:c7",
        "{got:?}"
    );
    let got = piped("position startpos\ngo perft 3\n");
    assert_eq!(got.last().unwrap(), "Nodes searched: 25470", "{got:?}");
}

#[test]
fn at_the_end_of_input_a_search_only_stop_would_end_is_stopped() {
    for go in [
        "go infinite",
        "go ponder",
        "go",
        "go infinite depth 3",
        "go ponder nodes 100",
    ] {
        let got = piped(&format!("position startpos\n{go}\n"));
        assert!(
            got.last().unwrap().starts_with("bestmove "),
            "{go}: {got:?}"
        );
        assert_eq!(got.iter().filter(|l| l.starts_with("bestmove")).count(), 1);
    }
    let got = piped("position startpos\ngo mate infinite\n");
    assert!(got.last().unwrap().starts_with("checkmate "), "{got:?}");
}

#[test]
fn quit_still_ends_a_long_search_at_once() {
    let mut e = Engine::start();
    e.send("position startpos");
    e.send("go depth 100");
    e.quit_within(WAIT);
}

#[test]
fn eval_file_reads_only_a_regular_file_of_the_size_its_header_gives() {
    let mut e = Engine::start();
    e.send("isready");
    e.until("readyok");
    for device in ["/dev/stdin", "/proc/self/fd/0", "/dev/zero", "/dev/urandom"] {
        if !std::path::Path::new(device).exists() {
            continue;
        }
        e.send(&format!("setoption name EvalFile value {device}"));
        e.send("isready");
        let got = e.until("readyok");
        assert!(
            has(&got, "info string error: EvalFile") && has(&got, "is not a regular file"),
            "{device}: {got:?}"
        );
    }
    // A shogi header followed by 16 GiB (a sparse file: no disk used): refused from its size
    // alone, without reading or allocating it.
    let huge = std::env::temp_dir().join(format!("tsubame-huge-{}.nnue", std::process::id()));
    let mut header = b"TSUBNNUE".to_vec();
    header.extend_from_slice(&1u16.to_le_bytes());
    let mut name = [0u8; 20];
    name[..5].copy_from_slice(b"shogi");
    header.extend_from_slice(&name);
    header.extend_from_slice(&u32::MAX.to_le_bytes());
    header.extend_from_slice(&256u32.to_le_bytes());
    let file = std::fs::File::create(&huge).unwrap();
    (&file).write_all(&header).unwrap();
    file.set_len(16 << 30).unwrap();
    let pid = e.child.id();
    let memory = || peak_memory_kib(pid);
    let before = memory();
    e.send(&format!("setoption name EvalFile value {}", huge.display()));
    e.send("isready");
    let got = e.until("readyok");
    assert!(
        has(
            &got,
            "bytes, a shogi network (plain features) of hidden size 256 has"
        ),
        "{got:?}"
    );
    if let (Some(before), Some(after)) = (before, memory()) {
        assert!(after < before + 64 * 1024, "{before} KiB, then {after} KiB");
    }
    let _ = std::fs::remove_file(huge);
    e.send("position startpos");
    e.send("go depth 3");
    let got = e.until("bestmove");
    assert!(!has(&got, "error"), "{got:?}");
    e.quit_within(WAIT);
}

/// The peak resident memory of process `pid` in KiB (Linux), if known.
fn peak_memory_kib(pid: u32) -> Option<u64> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

/// The lines the engine answers to `command` followed by `isready`, `readyok` left out.
fn answer(e: &mut Engine, command: &str) -> Vec<String> {
    e.send(command);
    e.send("isready");
    let mut got = e.until("readyok");
    got.pop();
    got
}

/// The `info string error:` lines among `lines`.
fn errors(lines: &[String]) -> Vec<&String> {
    lines
        .iter()
        .filter(|l| l.starts_with("info string error:"))
        .collect()
}

#[test]
fn every_malformed_command_gets_one_error_and_still_does_its_job() {
    let mut e = Engine::start();
    let cases = [
        ("gameover", "gameover needs win, lose or draw; got nothing"),
        ("gameover 3", "gameover needs win, lose or draw; got '3'"),
        ("gameover foo bar", "got 'foo bar'"),
        ("stop *2!Gc", "'stop' takes no arguments; ignored '*2!Gc'"),
        ("ponderhit *2!Gc", "ponderhit: unknown go parameter '*2!Gc'"),
        ("ponderhit depth 3", "ponderhit takes only the clock"),
        (
            "usinewgame x",
            "'usinewgame' takes no arguments; ignored 'x'",
        ),
        (
            "go perft 4294967297",
            "perft depth 4294967297 is above the maximum 64",
        ),
        (
            "go perft 18446744073709551616",
            "go perft needs a number of 0 or more, got '18446744073709551616'",
        ),
    ];
    for (command, error) in cases {
        let got = answer(&mut e, command);
        let errs = errors(&got);
        assert_eq!(errs.len(), 1, "{command}: {got:?}");
        assert!(errs[0].contains(error), "{command}: {got:?}");
    }
    for command in ["gameover win", "gameover lose", "gameover draw", "stop"] {
        let got = answer(&mut e, command);
        assert!(got.is_empty(), "{command}: {got:?}");
    }
    // A command with extra words still answers.
    e.send("isready now");
    let got = e.until("readyok");
    assert_eq!(errors(&got).len(), 1, "{got:?}");
    assert!(has(&got, "'isready' takes no arguments; ignored 'now'"));
    e.send("usi please");
    let got = e.until("usiok");
    assert!(has(&got, "'usi' takes no arguments"), "{got:?}");
    e.send("d now");
    let got = e.until("SFEN:");
    assert!(has(&got, "'d' takes no arguments"), "{got:?}");
    e.quit_within(WAIT);
}

#[test]
fn a_malformed_go_mate_searches_without_a_limit_and_answers_truly() {
    let mut e = Engine::start();
    e.send("position sfen 4k4/9/4P4/9/9/9/9/9/9 b G2r2b3g4s4n4l17p 1");
    for command in ["go mate", "go mate -1", "go mate soon"] {
        e.send(command);
        let got = e.until("checkmate");
        assert_eq!(errors(&got).len(), 1, "{command}: {got:?}");
        assert!(has(&got, "as 'go mate infinite'"), "{command}: {got:?}");
        assert_eq!(got.last().unwrap(), "checkmate G*5b", "{command}: {got:?}");
    }
    // With a mate far too long to find before `stop` (411 plies, row 5 of the long tsume set,
    // unproven after 150 million nodes), it runs until `stop`, which it answers without claiming
    // a result. (The start position would not do: no move checks, so it is disproven at once.)
    e.send("position sfen 3pl3p/1+Pn3pk1/2+p6/4+pG3/1K3p2P/+B5l1+B/+p3pS1+ll/p+p2PN3/3S1+sSPN b 2R2P3gn2p 1");
    e.send("go mate");
    e.send("stop");
    let got = e.until("checkmate");
    assert_eq!(got.last().unwrap(), "checkmate timeout", "{got:?}");
    e.quit_within(WAIT);
}

#[test]
fn help_lists_the_commands() {
    let mut e = Engine::start();
    let got = answer(&mut e, "help");
    assert!(errors(&got).is_empty(), "{got:?}");
    let text = got.join("\n");
    for command in [
        "usi",
        "isready",
        "setoption",
        "usinewgame",
        "position",
        "go mate",
        "go perft",
        "stop",
        "ponderhit",
        "gameover",
        "quit",
        "d (",
        "bench",
        "help",
    ] {
        assert!(text.contains(command), "{command}: {text}");
    }
    let got = answer(&mut e, "hlep");
    assert!(has(&got, "'help' lists the commands"), "{got:?}");
    e.quit_within(WAIT);
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

/// `go mate` reports its progress as a GUI shows it: `info time … nodes … nps … hashfull … pv …`
/// with the line being searched, then `info string root pn … dn …`; and `stop` ends it at once.
/// The problem (`tsume-long.tsv`, 411 plies) is far beyond half a second, so a report comes
/// before any answer on every machine.
#[test]
fn go_mate_reports_nodes_root_numbers_and_the_line_being_searched() {
    use tsubame::core::game::Position;
    use tsubame::core::moves::{Move, MoveList};
    use tsubame::games::shogi::Shogi;
    use tsubame::mate::MateGame;

    let sfen = &common::tsv("tsume-long.tsv")[4][0];
    let mut e = Engine::start();
    e.send("setoption name USI_Hash value 64");
    e.send(&format!("position sfen {sfen}"));
    e.send("go mate infinite");
    let got = e.until("info string root pn");
    let numbers: Vec<u64> = got
        .last()
        .unwrap()
        .split_whitespace()
        .filter_map(|w| w.parse().ok())
        .collect();
    assert!(
        numbers.len() == 2 && numbers.iter().all(|&n| n > 0),
        "{got:?}"
    );
    let report = &got[got.len() - 2];
    let words: Vec<&str> = report.split_whitespace().collect();
    for key in ["time", "nodes", "nps", "hashfull"] {
        let at = words.iter().position(|w| *w == key);
        assert!(
            at.is_some_and(|i| words.get(i + 1).is_some_and(|v| v.parse::<u64>().is_ok())),
            "{key} in {report}"
        );
    }
    let pv = words.iter().position(|w| *w == "pv").expect(report);
    let pos = Shogi::from_sfen(sfen).unwrap();
    let mut checks = MoveList::<Move>::new();
    pos.checking_moves(&mut checks);
    assert!(
        checks.iter().any(|&m| pos.move_to_usi(m) == words[pv + 1]),
        "the line starts with a check: {report}"
    );
    e.send("stop");
    let got = e.until("checkmate");
    assert_eq!(got.last().unwrap(), "checkmate timeout", "{got:?}");
    e.quit_within(WAIT);
}

/// A position set up at the largest move number an SFEN may give and played on (found by the
/// million-line fuzz: `d` showed move 1000000001, which no SFEN may give): every game writes an
/// SFEN that it reads back, the move number held at the bound.
#[test]
fn a_game_played_on_from_the_largest_move_number_writes_an_sfen_it_reads() {
    use tsubame::core::game::Position;
    use tsubame::core::moves::MoveList;
    use tsubame::core::sfen::MAX_MOVE_NUMBER;
    use tsubame::games::GameId;

    for id in GameId::ALL {
        tsubame::dispatch!(id, G => {
            let start = G::startpos().to_sfen();
            let (head, _) = start.rsplit_once(' ').unwrap();
            let sfen = format!("{head} {MAX_MOVE_NUMBER}");
            let mut pos = G::from_sfen(&sfen).unwrap();
            for _ in 0..2 {
                let mut list = MoveList::<<G as Position>::Move>::new();
                pos.legal_moves(&mut list);
                pos.play(list[0]);
                let written = pos.to_sfen();
                assert!(written.ends_with(&format!(" {MAX_MOVE_NUMBER}")), "{id:?}: {written}");
                let back = G::from_sfen(&written)
                    .unwrap_or_else(|e| panic!("{id:?}: {written} was refused: {e}"));
                assert_eq!(back.to_sfen(), written, "{id:?}");
            }
        })
    }
}
