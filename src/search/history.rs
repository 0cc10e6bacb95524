//! Move-ordering memory of one search thread: butterfly history, killers and counter-moves.

use super::params::{HISTORY_MAX, MAX_PLY};
use crate::core::color::Color;
use crate::core::moves::Move;

/// Number of distinct move codes (a [`Move`] is 16 bits).
const MOVE_CODES: usize = 1 << 16;

/// History tables indexed by the raw move code.
pub struct History {
    butterfly: Box<[[i16; MOVE_CODES]; 2]>,
    counter: Box<[Move; MOVE_CODES]>,
    killers: [[Move; 2]; MAX_PLY + 4],
}

impl Default for History {
    fn default() -> Self {
        History {
            butterfly: vec![[0i16; MOVE_CODES]; 2]
                .into_boxed_slice()
                .try_into()
                .expect("two rows"),
            counter: vec![Move::NONE; MOVE_CODES]
                .into_boxed_slice()
                .try_into()
                .expect("one row per move code"),
            killers: [[Move::NONE; 2]; MAX_PLY + 4],
        }
    }
}

impl History {
    /// The history score of a quiet move by `color`.
    #[inline(always)]
    pub fn score(&self, color: Color, mv: Move) -> i32 {
        self.butterfly[color.index()][mv.0 as usize] as i32
    }

    /// Rewards (positive `bonus`) or punishes a quiet move, with gravity towards zero.
    #[inline(always)]
    pub fn update(&mut self, color: Color, mv: Move, bonus: i32) {
        let e = &mut self.butterfly[color.index()][mv.0 as usize];
        let b = bonus.clamp(-HISTORY_MAX, HISTORY_MAX);
        let v = *e as i32 + b - *e as i32 * b.abs() / HISTORY_MAX;
        *e = v.clamp(-HISTORY_MAX, HISTORY_MAX) as i16;
    }

    /// The two killer moves of `ply`.
    #[inline(always)]
    pub fn killers(&self, ply: usize) -> [Move; 2] {
        self.killers[ply]
    }

    /// Records a quiet move that caused a cutoff at `ply`.
    #[inline(always)]
    pub fn add_killer(&mut self, ply: usize, mv: Move) {
        let k = &mut self.killers[ply];
        if k[0] != mv {
            k[1] = k[0];
            k[0] = mv;
        }
    }

    /// Forgets the killers of `ply` (before searching its children afresh).
    #[inline(always)]
    pub fn clear_killers(&mut self, ply: usize) {
        self.killers[ply] = [Move::NONE; 2];
    }

    /// The move that last refuted `previous`.
    #[inline(always)]
    pub fn counter(&self, previous: Move) -> Move {
        self.counter[previous.0 as usize]
    }

    /// Records `mv` as the refutation of `previous`.
    #[inline(always)]
    pub fn set_counter(&mut self, previous: Move, mv: Move) {
        self.counter[previous.0 as usize] = mv;
    }
}
