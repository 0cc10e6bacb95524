//! The accumulators of the search: one per ply, each the first layer's output for both
//! perspectives, brought up to date lazily from the nearest computed ply by the feature changes
//! of the moves in between, or refreshed from the [`AccumulatorCache`] where a move changed every
//! feature of a perspective (a king entering another bucket).

use super::network::{MAX_HIDDEN, Network};
use super::simd;
use crate::core::color::Color;
use crate::core::search_game::MoveDelta;
use arrayvec::ArrayVec;

/// The first layer's output for both perspectives of one position.
#[derive(Clone)]
#[repr(C, align(64))]
pub struct Accumulator {
    /// Black's and White's accumulators (the first `hidden` values are used).
    pub values: [[i16; MAX_HIDDEN]; 2],
    /// Per perspective: false while its values are stale.
    pub computed: [bool; 2],
}

impl Default for Accumulator {
    fn default() -> Self {
        Accumulator {
            values: [[0; MAX_HIDDEN]; 2],
            computed: [false; 2],
        }
    }
}

impl Accumulator {
    /// Computes both perspectives from scratch: `active[p]` are the features of perspective `p`.
    pub fn refresh(&mut self, net: &Network, active: [&[u16]; 2]) {
        for (values, feats) in self.values.iter_mut().zip(active) {
            net.accumulate_into(&mut values[..net.hidden], feats);
        }
        self.computed = [true; 2];
    }

    /// Sets perspective `p` of `self` to that of `parent` changed by `delta` (which must not
    /// ask `p` for a refresh).
    #[inline]
    pub fn update_from(
        &mut self,
        parent: &Accumulator,
        net: &Network,
        delta: &MoveDelta,
        p: usize,
    ) {
        debug_assert!(!delta.refresh[p]);
        let h = net.hidden;
        let row = |f: u16| &net.ft_weights[f as usize * h..][..h];
        let (nr, na) = delta.len[p];
        let subs = [row(delta.removed[p][0]), row(delta.removed[p][1])];
        let adds = [row(delta.added[p][0]), row(delta.added[p][1])];
        simd::update(
            &mut self.values[p][..h],
            &parent.values[p][..h],
            &subs[..nr as usize],
            &adds[..na as usize],
        );
        self.computed[p] = true;
    }

    /// The network's evaluation in centipawns for `side_to_move`.
    pub fn evaluate(&self, net: &Network, side_to_move: Color) -> i32 {
        let h = net.hidden;
        let us = &self.values[side_to_move.index()][..h];
        let them = &self.values[(!side_to_move).index()][..h];
        net.output(us, them)
    }
}

/// Most features one perspective of a position may have (a shogi position has at most 40 on
/// the board and 38 in hand).
pub const MAX_ACTIVE: usize = 128;

/// One cached accumulator: its values and where its features lie.
#[derive(Clone)]
#[repr(C, align(64))]
struct CacheEntry {
    values: [i16; MAX_HIDDEN],
    /// The first feature of the block of `width` features that its features lie in.
    base: usize,
}

/// The accumulator cache ("finny table") of one search thread: per perspective and refresh
/// slot ([`crate::core::search_game::SearchGame::nnue_slot`]), the last accumulator computed
/// there and its features. A refresh then adds and subtracts only the features that differ
/// from that accumulator's (a few pieces moved since), instead of summing every feature.
///
/// The features of one slot lie in one block of `width` consecutive features (a king bucket's
/// or region's copy of the plain features), so that each entry keeps its features as a bitset
/// of `width` bits: the difference of two sets is then a few word operations, with no sorting.
pub struct AccumulatorCache {
    entries: Vec<CacheEntry>,
    /// Per entry, as many words as `fresh` has: bit `i` is set when feature `base + i` is
    /// active.
    bits: Vec<u64>,
    /// The bitset of the features being refreshed (`width` bits).
    fresh: Vec<u64>,
    slots: usize,
    width: usize,
}

impl AccumulatorCache {
    /// A cache of `slots` slots per perspective for `net`, each starting as the accumulator of
    /// no features (the biases); the features of one slot lie in one block of `width`.
    pub fn new(net: &Network, slots: usize, width: usize) -> AccumulatorCache {
        let mut empty = CacheEntry {
            values: [0; MAX_HIDDEN],
            base: 0,
        };
        empty.values[..net.hidden].copy_from_slice(&net.ft_bias);
        let words = width.div_ceil(64);
        AccumulatorCache {
            entries: vec![empty; 2 * slots],
            bits: vec![0; 2 * slots * words],
            fresh: vec![0; words],
            slots,
            width,
        }
    }

    /// Sets `out` (`hidden` values) to the accumulator of the features `active` (distinct, all
    /// in one block of `width`, in any order) through slot `slot` of perspective `p`, which
    /// then holds it.
    pub fn refresh(
        &mut self,
        net: &Network,
        p: usize,
        slot: usize,
        active: &[u16],
        out: &mut [i16],
    ) {
        let h = net.hidden;
        let index = p * self.slots + slot;
        let entry = &mut self.entries[index];
        let words = self.fresh.len();
        let old = &mut self.bits[index * words..][..words];
        let base = active
            .first()
            .map_or(entry.base, |&f| f as usize / self.width * self.width);
        debug_assert!(base == entry.base || old.iter().all(|&w| w == 0));
        self.fresh.fill(0);
        for &f in active {
            let bit = f as usize - base;
            debug_assert!(bit < self.width, "feature {f} outside the slot's block");
            self.fresh[bit / 64] |= 1 << (bit % 64);
        }
        let (mut removed, mut added) = (
            ArrayVec::<u16, MAX_ACTIVE>::new(),
            ArrayVec::<u16, MAX_ACTIVE>::new(),
        );
        for (w, (was, now)) in old.iter_mut().zip(&self.fresh).enumerate() {
            let feature = |bit: u32| (base + w * 64 + bit as usize) as u16;
            let (mut gone, mut new) = (*was & !now, *now & !*was);
            while gone != 0 {
                removed.push(feature(gone.trailing_zeros()));
                gone &= gone - 1;
            }
            while new != 0 {
                added.push(feature(new.trailing_zeros()));
                new &= new - 1;
            }
            *was = *now;
        }
        entry.base = base;
        let row = |f: u16| &net.ft_weights[f as usize * h..][..h];
        let out = &mut out[..h];
        out.copy_from_slice(&entry.values[..h]);
        let (mut r, mut a) = (removed.as_slice(), added.as_slice());
        while !r.is_empty() || !a.is_empty() {
            let (rn, an) = (r.len().min(8), a.len().min(8));
            let mut subs: [&[i16]; 8] = [&[]; 8];
            let mut adds: [&[i16]; 8] = [&[]; 8];
            for (s, &f) in subs.iter_mut().zip(&r[..rn]) {
                *s = row(f);
            }
            for (s, &f) in adds.iter_mut().zip(&a[..an]) {
                *s = row(f);
            }
            simd::update(&mut entry.values[..h], out, &subs[..rn], &adds[..an]);
            out.copy_from_slice(&entry.values[..h]);
            (r, a) = (&r[rn..], &a[an..]);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::search_game::FeatureSet;
    use crate::rng::Rng;

    #[test]
    fn a_cached_refresh_gives_the_sum_of_the_features() {
        let (features, hidden) = (300, 32);
        let mut rng = Rng::new(7);
        let net = Network {
            game: "testgame".into(),
            feature_set: FeatureSet::Plain,
            features,
            hidden,
            ft_weights: (0..features * hidden)
                .map(|_| rng.below(201) as i16 - 100)
                .collect(),
            ft_bias: (0..hidden).map(|i| i as i16).collect(),
            out_weights: (0..2 * hidden).map(|_| 1).collect(),
            out_bias: 0,
        };
        // Three blocks of 100 features, block k through slot k (as king buckets would).
        let (slots, width) = (3, 100);
        let mut cache = AccumulatorCache::new(&net, slots, width);
        let mut out = [0i16; MAX_HIDDEN];
        // Random feature sets of up to 100 features, through random slots: each refresh must
        // equal the sum from scratch, whatever the slot held before.
        for _ in 0..300 {
            let (p, slot) = (rng.below(2), rng.below(slots));
            let n = rng.below(width);
            let mut active: Vec<u16> = (0..n)
                .map(|_| (slot * width + rng.below(width)) as u16)
                .collect();
            active.sort_unstable();
            active.dedup();
            let want = net.accumulate(&active);
            active.reverse();
            cache.refresh(&net, p, slot, &active, &mut out);
            assert_eq!(&out[..hidden], want.as_slice());
        }
    }
}
