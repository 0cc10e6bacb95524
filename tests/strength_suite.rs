//! Strength regression suite: positions from games lost to YaneuraOu-material at equal nodes,
//! where tsubame played a move that YaneuraOu (2,000,000 nodes) shows to lose at least 300
//! centipawns (`engine-tests/data/strength-shogi.tsv`; the diagnosis is in `docs/strength.md`).
//!
//! Each position is searched with one thread, a fresh table and a fixed node count (so the result
//! does not depend on the machine's speed), and the test counts the positions where the search
//! avoids the move that lost. The search of 27f8462 avoided 9 of the 17, the search with
//! continuation history and singular extensions 13; the floor below keeps that gain from
//! slipping back, with one position of room for changes of the tree that trade one position
//! for another.

mod common;

use tsubame::core::game::Position;
use tsubame::games::shogi::Shogi;
use tsubame::search::Limits;
use tsubame::search::tt::TranspositionTable;

/// Nodes per position: what the lost games gave each move.
const NODES: u64 = 100_000;
/// Positions out of 17 where the losing move must be avoided.
const MIN_AVOIDED: usize = 12;

#[test]
fn losing_moves_of_lost_games_are_avoided() {
    let rows = common::tsv("strength-shogi.tsv");
    assert_eq!(rows.len(), 17);
    let tt = TranspositionTable::new(64);
    let mut avoided = 0;
    let mut report = Vec::new();
    for row in &rows {
        let (sfen, good, bad) = (&row[0], &row[1], &row[2]);
        let pos = Shogi::from_sfen(sfen).unwrap();
        let limits = Limits {
            nodes: Some(NODES),
            multipv: 1,
            ..Limits::default()
        };
        let played = common::best_move(&pos, limits, &tt);
        assert!(
            pos.parse_move(bad).is_ok(),
            "{sfen}: the listed bad move {bad} is not legal"
        );
        let ok = &played != bad;
        avoided += ok as usize;
        report.push(format!(
            "{} {sfen}: played {played}, lost with {bad}, good {good}",
            if ok { "ok  " } else { "MISS" }
        ));
    }
    assert!(
        avoided >= MIN_AVOIDED,
        "avoided {avoided} of {} losing moves (at least {MIN_AVOIDED} expected):\n{}",
        rows.len(),
        report.join("\n")
    );
}
