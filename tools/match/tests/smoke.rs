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
