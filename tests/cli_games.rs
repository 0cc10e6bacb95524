//! Every subcommand covers every game of the registry: each test runs the `tsubame` binary and
//! checks its output against the registry (`tsubame::games::GameId`), so that a game added there
//! and forgotten in a subcommand fails here. Work is bounded by depth and nodes, never by time.

mod common;

use common::{stdout, tsubame};
use tsubame::games::GameId;

#[test]
fn help_names_every_game() {
    let o = tsubame(&["--help"]);
    assert!(o.status.success());
    let text = stdout(&o);
    for id in GameId::ALL {
        assert!(text.contains(id.info().title), "{text}");
    }
    // And every subcommand that takes a game lists every name.
    let o = tsubame(&["perft", "--help"]);
    let text = stdout(&o);
    for id in GameId::ALL {
        assert!(text.contains(id.name()), "{text}");
    }
}

#[test]
fn bench_perft_counts_every_game() {
    let o = tsubame(&["bench", "perft", "--depth", "2", "--runs", "1"]);
    assert!(o.status.success());
    let text = stdout(&o);
    for id in GameId::ALL {
        let d = id.info().bench_perft_depth + 2 - GameId::Shogi.info().bench_perft_depth;
        assert!(
            text.lines()
                .any(|l| l.starts_with(&format!("{id} perft {d}: best"))),
            "{id} at depth {d}:\n{text}"
        );
    }
}

#[test]
fn perft_takes_every_game_and_its_aliases() {
    for id in GameId::ALL {
        for name in std::iter::once(id.name()).chain(id.info().aliases.iter().copied()) {
            let o = tsubame(&["perft", "--variant", &name.to_uppercase(), "1"]);
            assert!(o.status.success(), "{name}");
            assert!(stdout(&o).contains("Nodes searched:"), "{name}");
        }
    }
    let o = tsubame(&["perft", "--variant", "chess", "1"]);
    assert!(!o.status.success());
}

/// The README's Give and Take mate, solved by `tsubame mate` with the game named, and with the
/// game told by the board's eight ranks.
#[test]
fn mate_solves_give_and_take() {
    let sfen = "K7/1m6/1m6/8/m7/m7/8/KK6 b - 1";
    for args in [
        vec![
            "mate",
            "--nodes",
            "100000",
            "--variant",
            "giveandtake",
            sfen,
        ],
        vec!["mate", "--nodes", "100000", sfen],
    ] {
        let o = tsubame(&args);
        assert!(o.status.success(), "{args:?}");
        let text = stdout(&o);
        assert!(
            text.contains("checkmate b6-a6 a8:a5 b7-b6 b1:b7 a3-a2 a1:a3 a4:a1:a7:c7"),
            "{text}"
        );
        assert!(text.contains("length 7 plies (exact)"), "{text}");
    }
}
