//! Move ordering: every legal move gets a score once, then moves are taken best first — by
//! selection for the first few (most nodes cut off early), then from one sort of the rest.

use arrayvec::ArrayVec;

use super::SearchGame;
use super::history::History;
use crate::core::moves::{MAX_MOVES, Move, MoveList};

const TT_MOVE: i32 = 1 << 30;
const GOOD_CAPTURE: i32 = 1 << 24;
const PROMOTION: i32 = 1 << 22;
const KILLER: i32 = 1 << 21;
const COUNTER: i32 = 1 << 20;
const BAD_CAPTURE: i32 = -(1 << 24);

/// Moves taken by selection before the rest is sorted once.
const SELECTION_PICKS: usize = 3;

/// The moves of one node, each packed with its score as `score << 16 | move` so that comparing
/// the packed values orders by score.
pub struct MovePicker {
    entries: ArrayVec<i64, MAX_MOVES>,
    next: usize,
    sorted: bool,
}

impl MovePicker {
    /// Orders the legal moves of `pos` (all of them, or only tactical ones for quiescence).
    pub fn new<G: SearchGame>(
        pos: &G,
        tt_move: Move,
        history: &History,
        ply: usize,
        previous: Move,
        tactical_only: bool,
        promotions: bool,
    ) -> MovePicker {
        let mut moves = MoveList::new();
        if tactical_only {
            pos.tactical_moves(&mut moves, promotions);
        } else {
            pos.legal_moves(&mut moves);
        }
        let killers = history.killers(ply);
        let counter = if previous == Move::NONE {
            Move::NONE
        } else {
            history.counter(previous)
        };
        let us = pos.side_to_move();
        let mut entries = ArrayVec::new();
        for &mv in &moves {
            let score = if mv == tt_move {
                TT_MOVE
            } else if pos.is_capture(mv) {
                let victim = pos.captured_value(mv);
                if pos.see_ge(mv, 0) {
                    GOOD_CAPTURE + victim * 8 + mv.is_promotion() as i32
                } else {
                    BAD_CAPTURE + victim * 8
                }
            } else if mv.is_promotion() {
                PROMOTION
            } else if mv == killers[0] {
                KILLER + 1
            } else if mv == killers[1] {
                KILLER
            } else if mv == counter {
                COUNTER
            } else {
                history.score(us, mv)
            };
            entries.push((score as i64) << 16 | mv.0 as i64);
        }
        MovePicker {
            entries,
            next: 0,
            sorted: false,
        }
    }

    /// True when there is no move at all.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }
}

impl Iterator for MovePicker {
    type Item = Move;

    /// The best remaining move.
    fn next(&mut self) -> Option<Move> {
        let n = self.entries.len();
        if self.next >= n {
            return None;
        }
        if !self.sorted {
            if self.next < SELECTION_PICKS {
                let mut best = self.next;
                for i in self.next + 1..n {
                    if self.entries[i] > self.entries[best] {
                        best = i;
                    }
                }
                self.entries.swap(self.next, best);
            } else {
                self.entries[self.next..].sort_unstable_by(|a, b| b.cmp(a));
                self.sorted = true;
            }
        }
        let e = self.entries[self.next];
        self.next += 1;
        Some(Move(e as u16))
    }
}
