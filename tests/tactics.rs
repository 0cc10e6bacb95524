//! Tactical sanity: in every position of `tactics.tsv` (mates and winning captures) the search,
//! limited to the listed depth with one thread, plays the listed move.

mod common;

use tsubame::core::game::Position;
use tsubame::games::shogi::Shogi;
use tsubame::search::tt::TranspositionTable;
use tsubame::search::{Limits, Shared, search_position};

#[test]
fn every_tactic_is_found_within_its_depth() {
    let tt = TranspositionTable::new(16);
    let mut misses = Vec::new();
    let rows = common::tsv("tactics.tsv");
    assert!(rows.len() >= 40);
    for row in &rows {
        let (sfen, best, depth) = (&row[0], &row[1], row[2].parse::<i32>().unwrap());
        let pos = Shogi::from_sfen(sfen).unwrap();
        tt.clear();
        let shared = Shared::default();
        let limits = Limits {
            depth: Some(depth),
            multipv: 1,
            ..Limits::default()
        };
        let result = search_position(&pos, limits, 1, &tt, &shared);
        let got = result.best.map(|m| pos.move_to_usi(m)).unwrap_or_default();
        if &got != best {
            misses.push(format!(
                "{sfen}: expected {best}, played {got} ({})",
                row[3]
            ));
        }
    }
    assert!(misses.is_empty(), "{}", misses.join("\n"));
}
