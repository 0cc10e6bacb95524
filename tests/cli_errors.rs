//! The command line refuses what it cannot do right, with a message on standard error and a
//! non-zero exit, instead of answering something wrong: each test runs the `tsubame` binary.
//! Nothing here searches by time: solver runs are node-limited and searches never start.

mod common;

use std::path::PathBuf;

use common::{stderr, stdout, tsubame};

/// A private temporary file path for this test process.
fn temp(name: &str) -> PathBuf {
    std::env::temp_dir().join(format!("tsubame-cli-{}-{name}", std::process::id()))
}

/// A suite of the first `n` minishogi tsume rows, written to a temporary file.
fn minishogi_suite(name: &str, n: usize) -> PathBuf {
    let rows = common::tsv("tsume-minishogi.tsv");
    let mut text = String::from("sfen\tplies\tconvention\n");
    for row in rows.iter().take(n) {
        text.push_str(&format!("{}\t{}\t{}\n", row[0], row[1], row[2]));
    }
    let path = temp(name);
    std::fs::write(&path, text).unwrap();
    path
}

#[test]
fn mate_suite_without_variant_is_read_as_the_game_of_its_board() {
    let file = minishogi_suite("suite-inferred.tsv", 3);
    let o = tsubame(&[
        "mate",
        "--nodes",
        "200000",
        "--file",
        file.to_str().unwrap(),
    ]);
    let _ = std::fs::remove_file(&file);
    assert!(o.status.success(), "{}{}", stdout(&o), stderr(&o));
    assert!(
        stdout(&o).contains("summary: solved 3, wrong length 0, unsolved 0, bad SFEN 0"),
        "{}",
        stdout(&o)
    );
}

#[test]
fn mate_suite_of_another_game_fails_and_names_variant() {
    let file = minishogi_suite("suite-wrong.tsv", 2);
    let o = tsubame(&[
        "mate",
        "--variant",
        "shogi",
        "--nodes",
        "1000",
        "--file",
        file.to_str().unwrap(),
    ]);
    let _ = std::fs::remove_file(&file);
    assert!(!o.status.success(), "{}", stdout(&o));
    assert!(stdout(&o).contains("bad SFEN 2"), "{}", stdout(&o));
    let err = stderr(&o);
    assert!(err.contains("2 of the rows"), "{err}");
    assert!(err.contains("--variant"), "{err}");
}

#[test]
fn mate_position_without_variant_is_read_as_the_game_of_its_board() {
    let row = &common::tsv("tsume-minishogi.tsv")[0];
    let mut args = vec!["mate", "--nodes", "100000"];
    args.extend(row[0].split_whitespace());
    let o = tsubame(&args);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(
        stdout(&o).contains("length 1 ply (exact)"),
        "{}",
        stdout(&o)
    );
    // A board of no known size: the message says how to choose the game.
    let o = tsubame(&["mate", "4/4/4/4", "b", "-", "1"]);
    assert!(!o.status.success());
    assert!(stderr(&o).contains("give --variant"), "{}", stderr(&o));
}

#[test]
fn solve_refuses_an_unwritable_table_file_before_computing() {
    let o = tsubame(&["solve", "nanashogi", "--out", "/nonexistent/dir/x.tb"]);
    assert!(!o.status.success());
    let err = stderr(&o);
    assert!(
        err.contains("cannot write /nonexistent/dir/x.tb") && err.contains("nothing computed"),
        "{err}"
    );
    assert!(stdout(&o).is_empty(), "{}", stdout(&o));
}

#[test]
fn selfplay_refuses_zero_games_and_zero_threads() {
    for args in [
        ["selfplay", "--games", "0"],
        ["selfplay", "--threads-a", "0"],
        ["selfplay", "--threads-b", "0"],
        ["selfplay", "--threads-a", "257"],
    ] {
        let o = tsubame(&args);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {}", stdout(&o));
        assert!(stderr(&o).contains("invalid value"), "{}", stderr(&o));
        assert!(stdout(&o).is_empty(), "{args:?}: {}", stdout(&o));
    }
}

#[test]
fn analyse_reads_positions_as_usi_does() {
    // An illegal move is refused after the position was read, before any search: the message
    // shows that `startpos` and `sfen …` were accepted.
    let start = "sfen rbsgk/4p/5/P4/KGSBR b - 1";
    for sfen in ["startpos", start, &start[5..]] {
        let o = tsubame(&[
            "analyse",
            "--variant",
            "minishogi",
            "--sfen",
            sfen,
            "--moves",
            "5e5a",
        ]);
        assert!(!o.status.success(), "{sfen}");
        assert!(
            stderr(&o).contains("'5e5a' is illegal here"),
            "{sfen}: {}",
            stderr(&o)
        );
    }
    let o = tsubame(&["analyse", "--variant", "minishogi", "--sfen", "start"]);
    assert!(!o.status.success());
    let err = stderr(&o);
    assert!(err.contains("expected `startpos`"), "{err}");
    assert!(err.contains("rbsgk/4p/5/P4/KGSBR b - 1"), "{err}");
}

#[test]
fn perft_counts_depth_zero_and_reads_positions_as_usi_does() {
    let o = tsubame(&["perft", "0"]);
    assert!(o.status.success());
    assert_eq!(stdout(&o).trim(), "Nodes searched: 1");
    let plain = tsubame(&["perft", "--variant", "minishogi", "1"]);
    let worded = tsubame(&[
        "perft",
        "--variant",
        "minishogi",
        "--sfen",
        "sfen rbsgk/4p/5/P4/KGSBR b - 1",
        "1",
    ]);
    let start = tsubame(&["perft", "--variant", "minishogi", "--sfen", "startpos", "1"]);
    assert!(
        stdout(&plain).contains("Nodes searched: 14"),
        "{}",
        stdout(&plain)
    );
    assert_eq!(stdout(&plain), stdout(&worded));
    assert_eq!(stdout(&plain), stdout(&start));
    // Moves after the position are played before counting, as USI's `position` does.
    let after = tsubame(&[
        "perft",
        "--variant",
        "nanashogi",
        "--sfen",
        "startpos moves K*1b K*3b C*2c",
        "1",
    ]);
    let direct = tsubame(&[
        "perft",
        "--variant",
        "nanashogi",
        "--sfen",
        "3/k1K/1C1 w Brb 4",
        "1",
    ]);
    assert!(after.status.success(), "{}", stderr(&after));
    assert_eq!(stdout(&after), stdout(&direct));
    assert!(
        !stdout(&after).contains("Nodes searched: 8\n"),
        "{}",
        stdout(&after)
    );
    let bad = tsubame(&["perft", "--sfen", "startpos moves 7g7f 7g7f", "1"]);
    assert!(!bad.status.success());
    assert!(
        stderr(&bad).contains("'7g7f' is illegal here"),
        "{}",
        stderr(&bad)
    );
}

#[test]
fn datagen_refuses_a_network_it_cannot_play_with() {
    let out = temp("datagen.bin");
    let out_s = out.to_str().unwrap();
    let net =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src/games/minishogi/minishogi.nnue");
    let net_s = net.to_str().unwrap();
    // A game with no training data is refused by the command line, which lists those that have.
    let o = tsubame(&[
        "datagen",
        "--games",
        "1",
        "--out",
        out_s,
        "--variant",
        "nanashogi",
    ]);
    assert_eq!(o.status.code(), Some(2), "{}", stdout(&o));
    assert!(
        stderr(&o).contains("invalid value 'nanashogi'")
            && stderr(&o).contains("[possible values: shogi, minishogi, giveandtake]"),
        "{}",
        stderr(&o)
    );
    assert!(!out.exists());
    for (args, says) in [
        (
            vec![
                "--variant",
                "minishogi",
                "--eval",
                "hce",
                "--eval-file",
                net_s,
            ],
            "--eval-file goes with --eval nnue",
        ),
        (
            vec!["--variant", "shogi", "--eval-file", net_s],
            "is a minishogi network, not a shogi one",
        ),
    ] {
        let mut all = vec!["datagen", "--games", "1", "--nodes", "50", "--out", out_s];
        all.extend(args);
        let o = tsubame(&all);
        assert_eq!(o.status.code(), Some(1), "{all:?}: {}", stdout(&o));
        assert!(stderr(&o).contains(says), "{all:?}: {}", stderr(&o));
        assert!(!out.exists(), "{all:?} wrote {}", out.display());
    }
    // The embedded network is the default where the game has one, and --eval-file replaces it.
    for (args, says) in [
        (vec![], "embedded network"),
        (vec!["--eval-file", net_s], "network "),
        (vec!["--eval", "hce"], "hand-written"),
    ] {
        let mut all = vec![
            "datagen",
            "--variant",
            "minishogi",
            "--games",
            "1",
            "--nodes",
            "50",
            "--out",
            out_s,
        ];
        all.extend(args);
        let o = tsubame(&all);
        assert_eq!(o.status.code(), Some(0), "{all:?}: {}", stderr(&o));
        assert!(stderr(&o).contains(says), "{all:?}: {}", stderr(&o));
        let _ = std::fs::remove_file(&out);
    }
}

#[test]
fn mate_takes_positions_as_perft_does_and_says_what_it_needs() {
    // Nothing to solve: the message says what to give, not that the game cannot be told.
    let o = tsubame(&["mate"]);
    assert!(!o.status.success());
    assert!(
        stderr(&o).contains("give a position to solve"),
        "{}",
        stderr(&o)
    );
    // `sfen …` and moves, as perft --sfen and USI's position take them.
    let o = tsubame(&[
        "mate",
        "--nodes",
        "100000",
        "sfen",
        "4k4/9/9/4P4/9/9/9/9/9",
        "b",
        "G2r2b3g4s4n4l17p",
        "1",
        "moves",
        "5d5c",
        "P*1c",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stdout(&o).contains("checkmate G*5b"), "{}", stdout(&o));
    assert!(
        stdout(&o).contains("length 1 ply (exact)"),
        "{}",
        stdout(&o)
    );
    // After the progress lines (which may end with the disproof of a shorter mate) the answer
    // is said plainly.
    assert!(
        stderr(&o).contains("info string mate in 1 ply, proven shortest"),
        "{}",
        stderr(&o)
    );
    // `startpos` is the default game's start.
    let o = tsubame(&["mate", "--nodes", "2000", "startpos"]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(
        stdout(&o).contains("checkmate nomate") || stdout(&o).contains("checkmate timeout"),
        "{}",
        stdout(&o)
    );
}

#[test]
fn mate_refuses_a_position_without_the_defenders_king_instead_of_saying_nomate() {
    // Black to move mates; White, the defender, has no king: nothing the solver can answer.
    let o = tsubame(&[
        "mate",
        "--nodes",
        "1000",
        "9/9/9/9/9/9/9/9/4K4 b G2r2b3g4s4n4l17p 1",
    ]);
    assert!(!o.status.success(), "{}", stdout(&o));
    assert!(!stdout(&o).contains("checkmate"), "{}", stdout(&o));
    assert!(
        stderr(&o).contains("error: cannot solve this position: the defender"),
        "{}",
        stderr(&o)
    );
}

#[test]
fn mate_help_shows_the_position_forms_and_the_table_line_its_size() {
    let o = tsubame(&["mate", "--help"]);
    assert!(o.status.success());
    for words in ["startpos", "sfen <SFEN>", "moves <m1> <m2>"] {
        assert!(stdout(&o).contains(words), "{words}: {}", stdout(&o));
    }
    // The first table of a single problem is 16 MiB, and the memory line says 16, not 15.
    let o = tsubame(&["mate", "--nodes", "1000", "startpos", "moves", "7g7f"]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(
        stdout(&o).contains("memory (MiB: table used/table/process peak) 0/16/"),
        "{}",
        stdout(&o)
    );
}

#[test]
fn help_says_what_no_subcommand_does_and_lists_only_the_games_a_command_takes() {
    let o = tsubame(&["--help"]);
    assert!(
        stdout(&o).contains("Without a subcommand it speaks USI"),
        "{}",
        stdout(&o)
    );
    let o = tsubame(&["solve", "--help"]);
    assert!(
        stdout(&o).contains("[possible values: nanashogi]"),
        "{}",
        stdout(&o)
    );
    let o = tsubame(&["datagen", "--help"]);
    assert!(
        stdout(&o).contains("[possible values: shogi, minishogi, giveandtake]"),
        "{}",
        stdout(&o)
    );
    // A thread count above what Threads allows is refused before anything runs.
    let o = tsubame(&["bench", "smp", "--threads", "300"]);
    assert_eq!(o.status.code(), Some(2), "{}", stdout(&o));
    assert!(stderr(&o).contains("300 is not in"), "{}", stderr(&o));
}
