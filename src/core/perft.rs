//! Perft: counting the leaves of the legal move tree, the standard check of a move generator.

use super::game::Position;
use super::moves::{Move, MoveList};

/// Number of legal move sequences of length `depth` from `pos` (bulk-counted at the last ply).
pub fn perft<P: Position>(pos: &P, depth: u32) -> u64 {
    match depth {
        0 => 1,
        1 => pos.count_legal_moves() as u64,
        _ => {
            let mut list = MoveList::new();
            pos.legal_moves(&mut list);
            list.iter()
                .map(|&mv| {
                    let mut next = pos.clone();
                    next.play(mv);
                    perft(&next, depth - 1)
                })
                .sum()
        }
    }
}

/// Perft split by root move: each legal move with the leaf count below it (`depth` ≥ 1).
pub fn divide<P: Position>(pos: &P, depth: u32) -> Vec<(Move, u64)> {
    let mut list = MoveList::new();
    pos.legal_moves(&mut list);
    list.iter()
        .map(|&mv| {
            let mut next = pos.clone();
            next.play(mv);
            (mv, perft(&next, depth.saturating_sub(1)))
        })
        .collect()
}
