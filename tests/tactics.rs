//! Tactical sanity: in every position of `tactics.tsv` (mates and winning captures) the search,
//! limited to the listed depth with one thread, plays the listed move.

mod common;

use tsubame::core::game::Position;
use tsubame::games::shogi::Shogi;
use tsubame::search::Limits;
use tsubame::search::tt::TranspositionTable;

#[test]
fn every_tactic_is_found_within_its_depth() {
    let tt = TranspositionTable::new(16);
    let mut misses = Vec::new();
    let rows = common::tsv("tactics.tsv");
    assert!(rows.len() >= 40);
    for row in &rows {
        let (sfen, best, depth) = (&row[0], &row[1], row[2].parse::<i32>().unwrap());
        let pos = Shogi::from_sfen(sfen).unwrap();
        let limits = Limits {
            depth: Some(depth),
            multipv: 1,
            ..Limits::default()
        };
        let got = common::best_move(&pos, limits, &tt);
        if &got != best {
            misses.push(format!(
                "{sfen}: expected {best}, played {got} ({})",
                row[3]
            ));
        }
    }
    assert!(misses.is_empty(), "{}", misses.join("\n"));
}
