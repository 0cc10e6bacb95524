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

/// `tsubame games --json`, the one list of the games that the scripts of `tools/` read
/// (tools/tsubame_tools.py): every game of the registry in its order, with its names, start,
/// first mover, records and the tools' settings; and the table names every game too.
#[test]
fn games_json_lists_every_game_of_the_registry() {
    let o = tsubame(&["games", "--json"]);
    assert!(o.status.success());
    let doc: serde_json::Value = serde_json::from_str(&stdout(&o)).expect("one JSON document");
    assert_eq!(doc["default"], GameId::DEFAULT.name());
    let games = doc["games"].as_array().expect("a list of games");
    assert_eq!(games.len(), GameId::ALL.len());
    for (id, g) in GameId::ALL.into_iter().zip(games) {
        let info = id.info();
        assert_eq!(g["name"], id.name());
        assert_eq!(g["title"], info.title);
        assert_eq!(g["aliases"], serde_json::json!(info.aliases));
        assert_eq!(g["startpos"], id.start_sfen());
        assert_eq!(g["first"], info.page.first, "{id}");
        assert_eq!(
            g["startpos"].as_str().unwrap().split(' ').nth(1),
            g["first"].as_str(),
            "{id}: the start's side to move"
        );
        let records: Vec<&str> = info.records.iter().map(|f| f.name).collect();
        let listed: Vec<&str> = g["records"]
            .as_array()
            .unwrap()
            .iter()
            .map(|r| r["name"].as_str().unwrap())
            .collect();
        assert_eq!(listed, records, "{id}");
        assert_eq!(g["network"], id.has_network(), "{id}");
        assert_eq!(g["datagen"], id.has_training_data(), "{id}");
        assert_eq!(g["exact_table"].is_null(), info.exact.is_none(), "{id}");
        assert_eq!(g["tools"]["random_plies"], info.tools.random_plies, "{id}");
        assert_eq!(
            g["tools"]["marathon_max_plies"],
            info.tools.marathon_max_plies
        );
        assert_eq!(
            g["tools"]["soak_max_plies"], info.tools.soak_max_plies,
            "{id}"
        );
        assert_eq!(g["weights"].is_null(), info.tools.weights.is_none(), "{id}");
    }
    let o = tsubame(&["games"]);
    assert!(o.status.success());
    let text = stdout(&o);
    for id in GameId::ALL {
        assert!(
            text.lines().any(|l| l.starts_with(&format!("{id} "))),
            "{id}: {text}"
        );
        assert!(text.contains(&id.start_sfen()), "{id}: {text}");
    }
}
