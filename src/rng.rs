//! The one seeded random generator of the engine, its tests and its tools: a thin wrapper around
//! rand's [`StdRng`], so that a seed names the same numbers on every machine.
//!
//! The stream of a seed is fixed by the rand version in `Cargo.lock`; a new major version of rand
//! may change it (and with it the Zobrist keys, random openings and test games drawn from seeds).
//! The search draws random numbers only where a limited strength chooses its move
//! ([`crate::search::skill`]).

use rand::distr::uniform::{SampleRange, SampleUniform};
use rand::seq::SliceRandom;
use rand::{Rng as _, RngExt, SeedableRng, rngs::StdRng};

/// A seeded stream of random numbers.
#[derive(Debug)]
pub struct Rng(StdRng);

impl Rng {
    /// The stream of `seed`.
    pub fn new(seed: u64) -> Rng {
        Rng(StdRng::seed_from_u64(seed))
    }

    /// Stream number `stream` of `seed`: streams of one seed are independent of each other, so that
    /// work split into numbered parts (the games of a run, say) draws the same numbers however the
    /// parts are scheduled.
    pub fn stream(seed: u64, stream: u64) -> Rng {
        let mut key = [0u8; 32];
        key[..8].copy_from_slice(&seed.to_le_bytes());
        key[8..16].copy_from_slice(&stream.to_le_bytes());
        Rng(StdRng::from_seed(key))
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0.next_u64()
    }

    /// A number in `0..n`, uniformly, of `n`'s type (an index for a `usize`); `n` must be positive.
    pub fn below<T: SampleUniform + PartialOrd + Default>(&mut self, n: T) -> T {
        self.0.random_range(T::default()..n)
    }

    /// A number in `range` (such as `3..=5` or `-60..60`), uniformly; the range must not be empty.
    pub fn range<T: SampleUniform, R: SampleRange<T>>(&mut self, range: R) -> T {
        self.0.random_range(range)
    }

    /// True with probability `percent` / 100 (`percent` at most 100).
    pub fn chance(&mut self, percent: u32) -> bool {
        self.0.random_ratio(percent, 100)
    }

    /// An element of the non-empty slice `items`, each as likely.
    pub fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.below(items.len())]
    }

    /// Puts `items` in a random order, each order as likely.
    pub fn shuffle<T>(&mut self, items: &mut [T]) {
        items.shuffle(&mut self.0);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_seed_repeats_and_ranges_hold() {
        let (mut a, mut b) = (Rng::new(7), Rng::new(7));
        let xs: Vec<u64> = (0..10).map(|_| a.next_u64()).collect();
        let ys: Vec<u64> = (0..10).map(|_| b.next_u64()).collect();
        assert_eq!(xs, ys);
        assert_ne!(Rng::new(8).next_u64(), xs[0]);
        for _ in 0..1000 {
            assert!((3..=5).contains(&a.range(3u64..=5)));
            assert!(a.below(7) < 7);
        }
        assert!(a.chance(100) && !a.chance(0));
    }

    #[test]
    fn streams_differ_from_each_other_and_repeat() {
        let first = |seed, stream| Rng::stream(seed, stream).next_u64();
        assert_eq!(first(1, 2), first(1, 2));
        assert_ne!(first(1, 2), first(1, 3));
        assert_ne!(first(1, 2), first(2, 1));
    }

    #[test]
    fn shuffling_keeps_the_elements() {
        let mut v: Vec<u32> = (0..50).collect();
        Rng::new(3).shuffle(&mut v);
        assert_ne!(v, (0..50).collect::<Vec<u32>>());
        v.sort_unstable();
        assert_eq!(v, (0..50).collect::<Vec<u32>>());
    }
}
