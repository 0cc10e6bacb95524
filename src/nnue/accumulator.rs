//! The accumulators of the search: one per ply, each the first layer's output for both
//! perspectives, brought up to date lazily from the nearest computed ply by the feature changes
//! of the moves in between.

use super::network::{MAX_HIDDEN, Network};
use super::simd;
use crate::core::color::Color;
use crate::core::search_game::MoveDelta;

/// The first layer's output for both perspectives of one position.
#[derive(Clone)]
#[repr(C, align(64))]
pub struct Accumulator {
    /// Black's and White's accumulators (the first `hidden` values are used).
    pub values: [[i16; MAX_HIDDEN]; 2],
    /// False while the values are stale (the move into this ply not yet applied).
    pub computed: bool,
}

impl Default for Accumulator {
    fn default() -> Self {
        Accumulator {
            values: [[0; MAX_HIDDEN]; 2],
            computed: false,
        }
    }
}

impl Accumulator {
    /// Computes both perspectives from scratch: `active[p]` are the features of perspective `p`.
    pub fn refresh(&mut self, net: &Network, active: [&[u16]; 2]) {
        for (values, feats) in self.values.iter_mut().zip(active) {
            net.accumulate_into(&mut values[..net.hidden], feats);
        }
        self.computed = true;
    }

    /// Sets `self` to `parent` changed by `delta`.
    #[inline]
    pub fn update_from(&mut self, parent: &Accumulator, net: &Network, delta: &MoveDelta) {
        let h = net.hidden;
        let row = |f: u16| &net.ft_weights[f as usize * h..][..h];
        for p in 0..2 {
            let (nr, na) = delta.len[p];
            let subs = [row(delta.removed[p][0]), row(delta.removed[p][1])];
            let adds = [row(delta.added[p][0]), row(delta.added[p][1])];
            simd::update(
                &mut self.values[p][..h],
                &parent.values[p][..h],
                &subs[..nr as usize],
                &adds[..na as usize],
            );
        }
        self.computed = true;
    }

    /// The network's evaluation in centipawns for `side_to_move`.
    pub fn evaluate(&self, net: &Network, side_to_move: Color) -> i32 {
        let h = net.hidden;
        let us = &self.values[side_to_move.index()][..h];
        let them = &self.values[(!side_to_move).index()][..h];
        net.output(us, them)
    }
}
