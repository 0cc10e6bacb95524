//! Move-ordering memory of one search thread: butterfly history, continuation history, capture
//! history, killers and counter-moves.
//!
//! Continuation and capture histories are indexed by a move's *piece-to* code,
//! `piece index · 81 + destination` (see [`piece_to`]): a quiet move is judged by what moved where,
//! in the light of the one or two moves before it, which is what a drop-rich game needs (the
//! same drop square is good after one reply and useless after another).
//!
//! The tables outlive a search: a [`HistoryPool`] keeps each thread's for the next move.

use std::any::Any;
use std::sync::Mutex;

use super::params::{CORRECTION_GRAIN, CORRECTION_MAX, HISTORY_MAX, MAX_PLY};
use crate::core::color::Color;
use crate::core::moves::GameMove;
use crate::core::square::MAX_SQUARES;

/// Number of distinct move codes ([`GameMove::code`] is 16 bits).
const MOVE_CODES: usize = 1 << 16;
/// Number of piece indices a game may use (every game's pieces index below 32).
const PIECE_CODES: usize = 32;
/// Number of piece-to codes.
pub const PIECE_TO: usize = PIECE_CODES * MAX_SQUARES;
/// Captured-piece kinds told apart by the capture history (a piece index modulo 16).
const CAPTURED_KINDS: usize = 16;

/// Entries of each side's evaluation-correction table.
const CORRECTION_SIZE: usize = 1 << 14;

/// The piece-to code of a move of the piece with index `piece` to `mv`'s destination. Code 0
/// (no piece, square 0) stands for "no move" (the root's parent, a null move).
#[inline(always)]
pub fn piece_to<M: GameMove>(piece: usize, mv: M) -> u16 {
    (piece * MAX_SQUARES + mv.to_index()) as u16
}

/// Adds `bonus` to a history entry with gravity towards zero, keeping it within ±[`HISTORY_MAX`].
#[inline(always)]
fn apply(entry: &mut i16, bonus: i32) {
    let b = bonus.clamp(-HISTORY_MAX, HISTORY_MAX);
    let v = *entry as i32 + b - *entry as i32 * b.abs() / HISTORY_MAX;
    *entry = v.clamp(-HISTORY_MAX, HISTORY_MAX) as i16;
}

/// Allocates a zeroed boxed array without building it on the stack.
fn zeroed_box<T: Copy + Default, const N: usize>(rows: usize) -> Box<[[T; N]]> {
    vec![[T::default(); N]; rows].into_boxed_slice()
}

/// History tables indexed by the move code or by piece-to codes. Killers and counter-moves
/// are kept as move codes; the move picker turns them back into moves through the position.
pub struct History {
    butterfly: Box<[[i16; MOVE_CODES]]>,
    continuation: Box<[[i16; PIECE_TO]]>,
    capture: Box<[[i16; CAPTURED_KINDS]]>,
    counter: Box<[u16]>,
    killers: [[u16; 2]; MAX_PLY + 4],
    correction: Box<[[i16; CORRECTION_SIZE]]>,
}

impl Default for History {
    fn default() -> Self {
        History {
            butterfly: zeroed_box(2),
            continuation: zeroed_box(PIECE_TO),
            capture: zeroed_box(PIECE_TO),
            counter: vec![0; MOVE_CODES].into_boxed_slice(),
            killers: [[0; 2]; MAX_PLY + 4],
            correction: zeroed_box(2),
        }
    }
}

/// Each search thread's history tables, kept from one search to the next (the moves of one
/// game), as engines keep them: a search then starts with the ordering the last one learned, and
/// does not make and fill tables of several megabytes anew at every move. Emptied for a new game.
/// The pool also keeps each thread's per-ply buffers (move pickers, accumulators), across games.
#[derive(Default)]
pub struct HistoryPool(Mutex<Vec<PoolSlot>>);

/// What one search thread left in the pool.
#[derive(Default)]
struct PoolSlot {
    history: Option<History>,
    /// The thread's per-ply buffers (of the search's type, hence `Any`).
    buffers: Option<Box<dyn Any + Send>>,
}

impl HistoryPool {
    /// The tables thread `id` left at the end of the last search (its killers emptied: their
    /// plies were counted from another root), or empty ones.
    pub fn take(&self, id: usize) -> History {
        let kept = self
            .0
            .lock()
            .ok()
            .and_then(|mut slots| slots.get_mut(id).and_then(|s| s.history.take()));
        match kept {
            Some(mut h) => {
                h.killers.fill([0; 2]);
                h
            }
            None => History::default(),
        }
    }

    /// The buffers of type `T` thread `id` left at the end of the last search, if any: reusing
    /// them spares a search allocating its per-ply buffers and the system supplying fresh pages
    /// for them, which costs a short search (as `datagen`'s) a good part of its time.
    pub fn take_buffers<T: Any>(&self, id: usize) -> Option<Box<T>> {
        let kept = self
            .0
            .lock()
            .ok()
            .and_then(|mut slots| slots.get_mut(id).and_then(|s| s.buffers.take()))?;
        kept.downcast().ok()
    }

    /// Keeps thread `id`'s tables and per-ply buffers for the next search.
    pub fn put(&self, id: usize, history: History, buffers: Box<dyn Any + Send>) {
        if let Ok(mut slots) = self.0.lock() {
            if slots.len() <= id {
                slots.resize_with(id + 1, PoolSlot::default);
            }
            slots[id] = PoolSlot {
                history: Some(history),
                buffers: Some(buffers),
            };
        }
    }

    /// Forgets every thread's tables (a new game); the buffers, which hold nothing a search
    /// reads before writing it, stay.
    pub fn clear(&self) {
        if let Ok(mut slots) = self.0.lock() {
            for slot in slots.iter_mut() {
                slot.history = None;
            }
        }
    }
}

impl History {
    /// The butterfly history score of a quiet move by `color`.
    #[inline(always)]
    pub fn score<M: GameMove>(&self, color: Color, mv: M) -> i32 {
        self.butterfly[color.index()][mv.code() as usize] as i32
    }

    /// The quiet-move score: butterfly history plus the continuation histories of the move's
    /// piece-to code `pt` after the moves with codes `context` (one and two plies back).
    #[inline(always)]
    pub fn quiet_score<M: GameMove>(&self, color: Color, mv: M, pt: u16, context: [u16; 2]) -> i32 {
        self.score(color, mv)
            + self.continuation[context[0] as usize][pt as usize] as i32
            + self.continuation[context[1] as usize][pt as usize] as i32
    }

    /// Rewards (positive `bonus`) or punishes a quiet move in the butterfly and continuation
    /// tables.
    #[inline(always)]
    pub fn update_quiet<M: GameMove>(
        &mut self,
        color: Color,
        mv: M,
        pt: u16,
        context: [u16; 2],
        bonus: i32,
    ) {
        apply(
            &mut self.butterfly[color.index()][mv.code() as usize],
            bonus,
        );
        for c in context {
            if c != 0 {
                apply(&mut self.continuation[c as usize][pt as usize], bonus);
            }
        }
    }

    /// The capture history of capturing a piece with index `captured` by the move with piece-to
    /// code `pt`.
    #[inline(always)]
    pub fn capture_score(&self, pt: u16, captured: usize) -> i32 {
        self.capture[pt as usize][captured % CAPTURED_KINDS] as i32
    }

    /// Rewards or punishes a capture.
    #[inline(always)]
    pub fn update_capture(&mut self, pt: u16, captured: usize, bonus: i32) {
        apply(
            &mut self.capture[pt as usize][captured % CAPTURED_KINDS],
            bonus,
        );
    }

    /// The codes of the two killer moves of `ply` (0: none).
    #[inline(always)]
    pub fn killers(&self, ply: usize) -> [u16; 2] {
        self.killers[ply]
    }

    /// Records a quiet move that caused a cutoff at `ply`.
    #[inline(always)]
    pub fn add_killer<M: GameMove>(&mut self, ply: usize, mv: M) {
        let k = &mut self.killers[ply];
        let code = mv.code();
        if k[0] != code {
            k[1] = k[0];
            k[0] = code;
        }
    }

    /// Forgets the killers of `ply` (before searching its children afresh).
    #[inline(always)]
    pub fn clear_killers(&mut self, ply: usize) {
        self.killers[ply] = [0; 2];
    }

    /// The code of the move that last refuted `previous` (0: none).
    #[inline(always)]
    pub fn counter<M: GameMove>(&self, previous: M) -> u16 {
        self.counter[previous.code() as usize]
    }

    /// Records `mv` as the refutation of `previous`.
    #[inline(always)]
    pub fn set_counter<M: GameMove>(&mut self, previous: M, mv: M) {
        self.counter[previous.code() as usize] = mv.code();
    }

    /// The static evaluation `eval` of `color` to move, corrected by what searches of positions
    /// with the same correction key found.
    #[inline(always)]
    pub fn corrected_eval(&self, color: Color, key: u64, eval: i32) -> i32 {
        eval + self.correction[color.index()][key as usize % CORRECTION_SIZE] as i32
            / CORRECTION_GRAIN
    }

    /// Moves the correction of `key` towards `diff` (search value minus static evaluation)
    /// found at `depth`.
    #[inline(always)]
    pub fn update_correction(&mut self, color: Color, key: u64, diff: i32, depth: i32) {
        let bonus =
            (diff * CORRECTION_GRAIN * depth / 8).clamp(-CORRECTION_MAX / 4, CORRECTION_MAX / 4);
        let entry = &mut self.correction[color.index()][key as usize % CORRECTION_SIZE];
        let v = *entry as i32 + bonus - *entry as i32 * bonus.abs() / CORRECTION_MAX;
        *entry = v.clamp(-CORRECTION_MAX, CORRECTION_MAX) as i16;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::moves::Move;
    use crate::core::square::Square;

    #[test]
    fn the_pool_keeps_each_threads_tables_but_not_their_killers() {
        let pool = HistoryPool::default();
        let mv = Move::normal(Square(10), Square(20), false);
        let mut h = pool.take(1);
        assert_eq!(h.score(Color::Black, mv), 0);
        h.update_quiet(Color::Black, mv, 5, [7, 0], 400);
        h.update_capture(9, 3, -300);
        h.add_killer(4, mv);
        pool.put(1, h, Box::new(()));
        // Another thread's slot is empty.
        assert_eq!(pool.take(0).score(Color::Black, mv), 0);
        let h = pool.take(1);
        assert!(h.score(Color::Black, mv) > 0);
        assert!(h.capture_score(9, 3) < 0);
        assert_eq!(h.killers(4), [0, 0]);
        pool.put(1, h, Box::new(()));
        pool.clear();
        assert_eq!(pool.take(1).score(Color::Black, mv), 0);
    }

    #[test]
    fn the_pool_keeps_each_threads_buffers_across_games() {
        let pool = HistoryPool::default();
        assert!(pool.take_buffers::<Vec<u8>>(0).is_none());
        pool.put(0, History::default(), Box::new(vec![1u8, 2, 3]));
        pool.put(1, History::default(), Box::new(vec![4u8]));
        // A new game forgets the tables, not the buffers.
        pool.clear();
        assert_eq!(
            pool.take_buffers::<Vec<u8>>(0).as_deref(),
            Some(&vec![1, 2, 3])
        );
        // Taken once: the slot is empty until the thread puts them back.
        assert!(pool.take_buffers::<Vec<u8>>(0).is_none());
        // Buffers of another type (another game's moves) are not handed out.
        assert!(pool.take_buffers::<Vec<u16>>(1).is_none());
    }
}
