//! Perft: counting the leaves of the legal move tree, the standard check of a move generator.

use std::sync::atomic::{AtomicBool, Ordering};

use super::game::Position;
use super::moves::{ListStore, MoveList};

/// The deepest perft the engine accepts (`go perft`, `tsubame perft`): deeper is refused, not
/// capped. Perft of depth 10 already takes days; the cap only bounds the recursion.
pub const MAX_PERFT_DEPTH: u32 = 64;

/// Number of legal move sequences of length `depth` from `pos` (bulk-counted at the last ply).
pub fn perft<P: Position>(pos: &P, depth: u32) -> u64 {
    match depth {
        0 => 1,
        1 => pos.count_legal_moves() as u64,
        _ => {
            let mut list = MoveList::<P::Move>::new();
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
pub fn divide<P: Position>(pos: &P, depth: u32) -> Vec<(P::Move, u64)> {
    let mut list = MoveList::<P::Move>::new();
    pos.legal_moves(&mut list);
    list.iter()
        .map(|&mv| {
            let mut next = pos.clone();
            next.play(mv);
            (mv, perft(&next, depth.saturating_sub(1)))
        })
        .collect()
}

/// [`perft`] that gives up as soon as `stop` is set (checked at every interior node): `None` when
/// stopped. Kept apart from [`perft`] so that the timed perft bench is not slowed by the check.
pub fn perft_until<P: Position>(pos: &P, depth: u32, stop: &AtomicBool) -> Option<u64> {
    match depth {
        0 => Some(1),
        1 => Some(pos.count_legal_moves() as u64),
        _ => {
            if stop.load(Ordering::Relaxed) {
                return None;
            }
            let mut list = MoveList::<P::Move>::new();
            pos.legal_moves(&mut list);
            let mut total = 0;
            for &mv in list.iter() {
                let mut next = pos.clone();
                next.play(mv);
                total += perft_until(&next, depth - 1, stop)?;
            }
            Some(total)
        }
    }
}

/// How a [`divide_report`] ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DivideEnd {
    /// Every root move was counted: the total.
    Done(u64),
    /// `stop` was set: `counted` root moves of `moves` were counted fully, below them `leaves`.
    Stopped {
        /// Root moves counted fully.
        counted: usize,
        /// Legal root moves.
        moves: usize,
        /// Leaves below the root moves counted fully.
        leaves: u64,
    },
}

/// Perft split by root move, reported as it goes: `each` receives every root move with its count as
/// soon as that move is done; the end says whether `stop` cut it short. Depth 0 counts the position
/// itself (total 1, no root moves).
pub fn divide_report<P: Position>(
    pos: &P,
    depth: u32,
    stop: &AtomicBool,
    each: &mut dyn FnMut(P::Move, u64),
) -> DivideEnd {
    if depth == 0 {
        return DivideEnd::Done(1);
    }
    let mut list = MoveList::<P::Move>::new();
    pos.legal_moves(&mut list);
    let mut leaves = 0;
    for (i, &mv) in list.iter().enumerate() {
        let mut next = pos.clone();
        next.play(mv);
        match perft_until(&next, depth - 1, stop) {
            Some(n) => {
                leaves += n;
                each(mv, n);
            }
            None => {
                return DivideEnd::Stopped {
                    counted: i,
                    moves: list.len(),
                    leaves,
                };
            }
        }
    }
    DivideEnd::Done(leaves)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::minishogi::Minishogi;

    #[test]
    fn stoppable_perft_counts_like_perft_and_stops() {
        let pos = Minishogi::startpos();
        let go = AtomicBool::new(false);
        assert_eq!(perft_until(&pos, 3, &go), Some(perft(&pos, 3)));
        assert_eq!(perft_until(&pos, 0, &go), Some(1));
        let mut seen = 0;
        let end = divide_report(&pos, 2, &go, &mut |_, _| seen += 1);
        assert_eq!(end, DivideEnd::Done(perft(&pos, 2)));
        assert_eq!(seen, pos.count_legal_moves());
        assert_eq!(
            divide_report(&pos, 0, &go, &mut |_, _| {}),
            DivideEnd::Done(1)
        );
        let stopped = AtomicBool::new(true);
        assert_eq!(perft_until(&pos, 3, &stopped), None);
        let end = divide_report(&pos, 3, &stopped, &mut |_, _| panic!("nothing is counted"));
        assert_eq!(
            end,
            DivideEnd::Stopped {
                counted: 0,
                moves: pos.count_legal_moves(),
                leaves: 0
            }
        );
    }
}
