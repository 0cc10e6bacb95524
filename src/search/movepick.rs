//! Move ordering: every legal move gets a score once, then moves are taken best first — by
//! selection for the first few (most nodes cut off early), then from one sort of the rest.
//!
//! Captures are first scored as if they won their exchange; the static exchange evaluation runs
//! only when such a capture is about to be taken (or before the sort), and demotes it to the bad
//! captures when it fails. The order is the same as scoring every capture up front, but the
//! exchanges of captures never reached (most of them, at cut nodes) are not evaluated.

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

/// Ordering scores at or above this mark captures that do not lose material by static exchange.
pub const GOOD_CAPTURE_MARK: i32 = GOOD_CAPTURE;

/// The moves of one node, each packed with its score as `score << 16 | move` so that comparing
/// the packed values orders by score. Each search thread keeps one picker per ply and refills it
/// at every node, so that no move list is copied around.
pub struct MovePicker {
    entries: ArrayVec<i64, MAX_MOVES>,
    next: usize,
    sorted: bool,
}

impl Default for MovePicker {
    fn default() -> Self {
        MovePicker {
            entries: ArrayVec::new(),
            next: 0,
            sorted: false,
        }
    }
}

impl MovePicker {
    /// Fills the picker with the legal moves of `pos` (all of them, or only tactical ones for
    /// quiescence) and their ordering scores.
    #[allow(clippy::too_many_arguments)]
    pub fn fill<G: SearchGame>(
        &mut self,
        pos: &G,
        tt_move: Move,
        history: &History,
        ply: usize,
        previous: Move,
        tactical_only: bool,
        promotions: bool,
    ) {
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
        let entries = &mut self.entries;
        entries.clear();
        self.next = 0;
        self.sorted = false;
        for &mv in &moves {
            let score = if mv == tt_move {
                TT_MOVE
            } else if pos.is_capture(mv) {
                // Optimistic until verified: see `verify`.
                GOOD_CAPTURE + pos.captured_value(mv) * 8 + mv.is_promotion() as i32
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
    }

    /// True when there is no move at all.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }
}

/// True when the packed entry is a capture still scored as winning its exchange: among the
/// moves not yet taken, every capture scored that way is unverified (a verified one is taken at
/// once).
#[inline(always)]
fn unverified(entry: i64) -> bool {
    let score = (entry >> 16) as i32;
    (GOOD_CAPTURE..TT_MOVE).contains(&score)
}

/// Runs the static exchange evaluation of an unverified capture; when it loses material, returns
/// the entry rescored as a bad capture.
#[inline]
fn verify<G: SearchGame>(pos: &G, entry: i64) -> Option<i64> {
    let mv = Move(entry as u16);
    if pos.see_ge(mv, 0) {
        return None;
    }
    let score = (entry >> 16) as i32;
    let victim_part = score - GOOD_CAPTURE - (score & 1);
    Some(((BAD_CAPTURE + victim_part) as i64) << 16 | mv.0 as i64)
}

impl MovePicker {
    /// The best remaining move of `pos` (the position the picker was filled from) with its
    /// ordering score.
    pub fn next_move<G: SearchGame>(&mut self, pos: &G) -> Option<(Move, i32)> {
        let n = self.entries.len();
        if self.next >= n {
            return None;
        }
        if !self.sorted {
            if self.next < SELECTION_PICKS {
                loop {
                    let mut best = self.next;
                    for i in self.next + 1..n {
                        if self.entries[i] > self.entries[best] {
                            best = i;
                        }
                    }
                    match unverified(self.entries[best])
                        .then(|| verify(pos, self.entries[best]))
                        .flatten()
                    {
                        Some(demoted) => self.entries[best] = demoted,
                        None => {
                            self.entries.swap(self.next, best);
                            break;
                        }
                    }
                }
            } else {
                for e in &mut self.entries[self.next..] {
                    if unverified(*e)
                        && let Some(demoted) = verify(pos, *e)
                    {
                        *e = demoted;
                    }
                }
                self.entries[self.next..].sort_unstable_by(|a, b| b.cmp(a));
                self.sorted = true;
            }
        }
        let e = self.entries[self.next];
        self.next += 1;
        Some((Move(e as u16), (e >> 16) as i32))
    }
}
