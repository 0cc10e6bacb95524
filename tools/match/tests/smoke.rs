//! Smoke test: tsubame against itself in each game at a fast time control.
//!
//! Needs the engine binary next to the runner's (`cargo build --release --workspace`, or
//! `cargo test --profile fast-test --workspace` as tools/test-all runs it, which builds it next
//! to the runner).

use std::path::PathBuf;
use std::process::Command;

fn tsubame() -> PathBuf {
    let runner = PathBuf::from(env!("CARGO_BIN_EXE_tsubame-match"));
    let engine = runner.with_file_name(format!("tsubame{}", std::env::consts::EXE_SUFFIX));
    assert!(
        engine.exists(),
        "{} is missing: build it first with `cargo build --release --workspace`",
        engine.display()
    );
    engine
}

fn self_play(game: &str) {
    let out =
        std::env::temp_dir().join(format!("tsubame-match-smoke-{}-{game}", std::process::id()));
    let _ = std::fs::remove_dir_all(&out);
    let engine = format!("cmd={}", tsubame().display());
    let output = Command::new(env!("CARGO_BIN_EXE_tsubame-match"))
        .args(["--game", game, "--engine", &engine, "--engine", &engine])
        .args([
            "--games",
            "4",
            "--byoyomi",
            "100",
            "--grace",
            "1000",
            "--concurrency",
            "2",
        ])
        .args(["--random-plies", "4", "--seed", "7", "--max-plies", "300"])
        .arg("--out")
        .arg(&out)
        .output()
        .expect("runs");
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(
        output.status.success(),
        "{stdout}\n{}",
        String::from_utf8_lossy(&output.stderr)
    );
    assert!(
        stdout.contains("4 games finished, 0 unfinished"),
        "{stdout}"
    );
    let results = std::fs::read_to_string(out.join("results.tsv")).unwrap();
    assert_eq!(results.lines().count(), 5, "{results}");
    for line in results.lines().skip(1) {
        let f: Vec<&str> = line.split('\t').collect();
        // The engine must never be at fault: only game-rule endings are acceptable.
        assert!(
            [
                "checkmate",
                "no legal move",
                "repetition",
                "perpetual check",
                "jishogi",
                "max plies",
                "declaration",
                "resignation"
            ]
            .contains(&f[5]),
            "{line}"
        );
        assert!(f[8].starts_with("position startpos moves "), "{line}");
    }
    let csa_dir = out.join("csa");
    if game == "shogi" {
        let n = std::fs::read_dir(&csa_dir).unwrap().count();
        assert_eq!(n, 4);
    } else {
        assert!(!csa_dir.exists());
    }
}

#[test]
fn tsubame_self_play_shogi() {
    self_play("shogi");
}

#[test]
fn tsubame_self_play_minishogi() {
    self_play("minishogi");
}

#[test]
fn tsubame_self_play_nanashogi() {
    self_play("nanashogi");
}

/// From a mate-in-one opening both colours' Black mates at once: checkmate, recorded as %TSUMI.
#[test]
fn tsubame_mates_in_one() {
    for (game, sfen) in [
        ("shogi", "4k4/9/4G4/9/9/9/9/9/4K4 b G 1"),
        ("minishogi", "2k2/5/2G2/5/2K2 b G 1"),
    ] {
        let out =
            std::env::temp_dir().join(format!("tsubame-match-mate-{}-{game}", std::process::id()));
        let _ = std::fs::remove_dir_all(&out);
        std::fs::create_dir_all(&out).unwrap();
        let openings = out.join("openings.txt");
        std::fs::write(&openings, format!("sfen {sfen}\n")).unwrap();
        let engine = format!("cmd={}", tsubame().display());
        let output = Command::new(env!("CARGO_BIN_EXE_tsubame-match"))
            .args(["--game", game, "--engine", &engine, "--engine", &engine])
            .args(["--games", "2", "--byoyomi", "200", "--grace", "1000"])
            .arg("--openings")
            .arg(&openings)
            .arg("--out")
            .arg(&out)
            .output()
            .expect("runs");
        assert!(output.status.success());
        let results = std::fs::read_to_string(out.join("results.tsv")).unwrap();
        for line in results.lines().skip(1) {
            let f: Vec<&str> = line.split('\t').collect();
            assert_eq!((f[4], f[5], f[6]), ("1-0", "checkmate", "1"), "{line}");
        }
        if game == "shogi" {
            let csa = std::fs::read_to_string(out.join("csa/game-00001.csa")).unwrap();
            assert!(csa.contains("P+00KI\n+\n+0052KI\nT0\n%TSUMI\n"), "{csa}");
        }
    }
}

/// Both engines ponder (`ponder=on`): each is sent `go ponder` on the reply it expects, then
/// `ponderhit` when it comes or `stop` when another move is played, and the games still end by
/// the rules, with no time forfeit.
#[test]
fn tsubame_ponders_on_the_opponents_time() {
    let out = std::env::temp_dir().join(format!("tsubame-match-ponder-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&out);
    let engine = format!("cmd={}", tsubame().display());
    let output = Command::new(env!("CARGO_BIN_EXE_tsubame-match"))
        .args(["--game", "minishogi", "--engine", &engine, "ponder=on"])
        .args(["--engine", &engine, "ponder=on", "--games", "2"])
        .args(["--time", "2000", "--byoyomi", "100", "--grace", "1000"])
        .args(["--concurrency", "1", "--random-plies", "4", "--seed", "3"])
        .arg("--out")
        .arg(&out)
        .arg("--log")
        .arg(out.join("protocol.log"))
        .output()
        .expect("runs");
    assert!(output.status.success(), "{output:?}");
    let results = std::fs::read_to_string(out.join("results.tsv")).unwrap();
    for line in results.lines().skip(1) {
        let f: Vec<&str> = line.split('\t').collect();
        assert!(
            ["checkmate", "repetition", "jishogi", "max plies"].contains(&f[5]),
            "{line}"
        );
    }
    let log = std::fs::read_to_string(out.join("protocol.log")).unwrap();
    let sent = |what: &str| log.lines().filter(|l| l.contains(what)).count();
    assert!(sent("> setoption name USI_Ponder value true") >= 2, "{log}");
    assert!(sent("> go ponder btime") > 10, "{log}");
    assert!(sent("> ponderhit") > 0, "{log}");
    // Every ponder search ends in a ponderhit or a stop (misses and the end of the game).
    assert!(
        sent("> ponderhit") + sent("> stop") >= sent("> go ponder"),
        "{log}"
    );
}

/// Plays two minishogi games of tsubame against itself, the engines started through a wrapper
/// that notes their process ids, and sends `signal` (with `kill`) to the first engine once six
/// moves have been asked for (on a loaded machine the first game may be over by then). Checks
/// that exactly one game was lost by the engine signalled, for one of `faults`, that the others
/// ended by the rules, and that the engine was started again when a game followed; returns the
/// runner's exit status.
#[cfg(unix)]
fn signal_an_engine_mid_game(test: &str, signal: &str, faults: &[&str]) -> bool {
    use std::os::unix::fs::PermissionsExt;
    use std::time::{Duration, Instant};
    let out = std::env::temp_dir().join(format!("tsubame-match-{test}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&out);
    std::fs::create_dir_all(&out).unwrap();
    let pids = out.join("pids");
    let wrapper = out.join("engine.sh");
    std::fs::write(
        &wrapper,
        format!(
            "#!/bin/sh\necho $$ >> '{}'\nexec '{}'\n",
            pids.display(),
            tsubame().display()
        ),
    )
    .unwrap();
    std::fs::set_permissions(&wrapper, std::fs::Permissions::from_mode(0o755)).unwrap();
    let engine = format!("cmd={}", wrapper.display());
    let log = out.join("protocol.log");
    let mut child = Command::new(env!("CARGO_BIN_EXE_tsubame-match"))
        .args([
            "--game",
            "minishogi",
            "--engine",
            &engine,
            "--engine",
            &engine,
        ])
        .args(["--games", "2", "--byoyomi", "300", "--grace", "500"])
        .args(["--concurrency", "1", "--random-plies", "2", "--quiet"])
        .arg("--out")
        .arg(&out)
        .arg("--log")
        .arg(&log)
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .expect("runs");
    // Wait for the sixth move of the first game, then signal the engine started first for the
    // games (the runner starts each engine once before the match to check it: two ids before).
    let start = Instant::now();
    loop {
        let text = std::fs::read_to_string(&log).unwrap_or_default();
        if text.matches("> go btime").count() >= 6 {
            break;
        }
        assert!(start.elapsed() < Duration::from_secs(60), "{text}");
        std::thread::sleep(Duration::from_millis(20));
    }
    let first = std::fs::read_to_string(&pids).unwrap();
    let pid = first.lines().nth(2).unwrap().trim().to_string();
    let killed = Command::new("kill")
        .args([&format!("-{signal}"), &pid])
        .status()
        .unwrap();
    assert!(killed.success());
    let status = child.wait().unwrap();
    if signal == "STOP" {
        // The stopped process is the runner's to end; make sure it is gone either way.
        let _ = Command::new("kill").args(["-9", &pid]).status();
    }
    let results = std::fs::read_to_string(out.join("results.tsv")).unwrap();
    let rows: Vec<Vec<&str>> = results
        .lines()
        .skip(1)
        .map(|l| l.split('\t').collect())
        .collect();
    assert_eq!(rows.len(), 2, "{results}");
    let faulty: Vec<usize> = (0..rows.len())
        .filter(|&i| !RULE_ENDINGS.contains(&rows[i][5]))
        .collect();
    assert_eq!(faulty.len(), 1, "{results}");
    assert!(faults.contains(&rows[faulty[0]][5]), "{results}");
    // Ids: two engines checked before the match, two playing, and one started again when a
    // game followed the one lost.
    let started = std::fs::read_to_string(&pids).unwrap().lines().count();
    let expected = if faulty[0] + 1 < rows.len() { 5 } else { 4 };
    assert_eq!(started, expected, "{results}");
    status.success()
}

/// The endings a game between two sound engines may have.
const RULE_ENDINGS: [&str; 4] = ["checkmate", "repetition", "jishogi", "max plies"];

/// An engine killed with SIGKILL in the middle of a game loses it as a crash; the runner starts
/// it again and the match goes on to its end.
#[cfg(unix)]
#[test]
fn an_engine_killed_mid_game_loses_and_the_match_goes_on() {
    assert!(signal_an_engine_mid_game("kill9", "9", &["crash"]));
}

/// An engine that stops answering (SIGSTOP) mid-game loses on time; the runner asks it for its
/// move once more, then replaces it, and the match goes on.
#[cfg(unix)]
#[test]
fn an_engine_that_stops_answering_loses_on_time_and_is_replaced() {
    // Stopped while thinking: a time forfeit; between games: no answer to `isready`.
    assert!(signal_an_engine_mid_game(
        "sigstop",
        "STOP",
        &["time forfeit", "unresponsive"]
    ));
}
