//! The network's two hot loops, in AVX2 where the processor has it (checked once, at run time)
//! and in plain Rust everywhere else: bringing an accumulator up to date by adding and
//! subtracting feature rows, and the output layer's SCReLU dot product.
//!
//! Both paths compute the same integers: the accumulators wrap on overflow in both, and the dot
//! product is exact (the network loader keeps output weights within ±[`MAX_OUT_WEIGHT`] so that
//! `a · w` fits in 16 bits for `0 ≤ a ≤ QA`).

use super::network::QA;

/// Largest output weight magnitude the engine accepts: with `a ≤ QA = 255`, `a · w` fits in an
/// `i16`, which the AVX2 dot product relies on.
pub const MAX_OUT_WEIGHT: i16 = 127;

/// Values of one AVX2 register of `i16`; the AVX2 path needs lengths that are multiples of it.
#[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]
const LANES: usize = 16;

/// True when the AVX2 path can run on this processor for vectors of `len` values (asked only on
/// x86-64).
#[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]
#[inline(always)]
fn use_avx2(len: usize) -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        len.is_multiple_of(LANES) && std::arch::is_x86_feature_detected!("avx2")
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        let _ = len;
        false
    }
}

/// Sets `dst` to `src` minus the rows of `subs` plus the rows of `adds` (wrapping, as the
/// accumulators do).
///
/// # Panics
/// When a slice's length differs from `dst`'s: the AVX2 path reads every row to `dst`'s length,
/// so the check stands in every build (it costs a compare per row, next to the row's loads).
#[inline]
pub fn update(dst: &mut [i16], src: &[i16], subs: &[&[i16]], adds: &[&[i16]]) {
    assert!(
        src.len() == dst.len() && subs.iter().chain(adds).all(|r| r.len() == dst.len()),
        "accumulator rows of unequal lengths"
    );
    #[cfg(target_arch = "x86_64")]
    if use_avx2(dst.len()) {
        // SAFETY: AVX2 is present (checked above) and every slice has dst's length, a
        // multiple of LANES.
        unsafe { avx2::update(dst, src, subs, adds) };
        return;
    }
    scalar::update(dst, src, subs, adds);
}

/// Adds the rows of `adds` to `acc` in place.
#[inline]
pub fn add_rows(acc: &mut [i16], adds: &[&[i16]]) {
    for chunk in adds.chunks(8) {
        let mut tmp = [0i16; super::network::MAX_HIDDEN];
        let src = &mut tmp[..acc.len()];
        src.copy_from_slice(acc);
        update(acc, src, &[], chunk);
    }
}

/// `Σ clamp(a, 0, QA)² · w` over the pairs of `acc` and `weights`.
///
/// # Panics
/// When the two lengths differ (the AVX2 path reads both to `acc`'s length).
#[inline]
pub fn screlu_dot(acc: &[i16], weights: &[i16]) -> i64 {
    assert_eq!(
        acc.len(),
        weights.len(),
        "SCReLU operands of unequal lengths"
    );
    #[cfg(target_arch = "x86_64")]
    if use_avx2(acc.len()) {
        // SAFETY: AVX2 is present (checked above); both slices have the same length, a
        // multiple of LANES; the weights are within ±MAX_OUT_WEIGHT (the loader's check).
        return unsafe { avx2::screlu_dot(acc, weights) };
    }
    scalar::screlu_dot(acc, weights)
}

/// The portable path, and the reference for the AVX2 one.
pub(crate) mod scalar {
    use super::QA;

    /// See [`super::update`].
    pub fn update(dst: &mut [i16], src: &[i16], subs: &[&[i16]], adds: &[&[i16]]) {
        dst.copy_from_slice(src);
        for row in subs {
            for (a, w) in dst.iter_mut().zip(*row) {
                *a = a.wrapping_sub(*w);
            }
        }
        for row in adds {
            for (a, w) in dst.iter_mut().zip(*row) {
                *a = a.wrapping_add(*w);
            }
        }
    }

    /// See [`super::screlu_dot`].
    pub fn screlu_dot(acc: &[i16], weights: &[i16]) -> i64 {
        acc.iter()
            .zip(weights)
            .map(|(&a, &w)| {
                let a = (a as i64).clamp(0, QA as i64);
                a * a * w as i64
            })
            .sum()
    }
}

/// The AVX2 path.
#[cfg(target_arch = "x86_64")]
pub(crate) mod avx2 {
    use super::{LANES, QA};
    use std::arch::x86_64::*;

    /// See [`super::update`].
    ///
    /// # Safety
    /// The processor has AVX2; every slice has `dst`'s length, a multiple of 16.
    #[target_feature(enable = "avx2")]
    pub unsafe fn update(dst: &mut [i16], src: &[i16], subs: &[&[i16]], adds: &[&[i16]]) {
        // The counts of a move's changes (one off and one on: a quiet move or a drop; two and
        // two: a capture) as constants, so that the loop over the rows unrolls.
        match (subs, adds) {
            ([s0], [a0]) => unsafe { update_rows(dst, src, [*s0], [*a0]) },
            ([s0, s1], [a0, a1]) => unsafe { update_rows(dst, src, [*s0, *s1], [*a0, *a1]) },
            _ => unsafe { update_rows(dst, src, subs, adds) },
        }
    }

    /// [`update`] over rows given as arrays (their count a constant, so the loop over them
    /// unrolls) or as slices.
    ///
    /// # Safety
    /// As [`update`].
    #[target_feature(enable = "avx2")]
    unsafe fn update_rows<'r, S: AsRef<[&'r [i16]]>, A: AsRef<[&'r [i16]]>>(
        dst: &mut [i16],
        src: &[i16],
        subs: S,
        adds: A,
    ) {
        for i in (0..dst.len()).step_by(LANES) {
            // SAFETY: i + 16 ≤ len for every slice (the caller's promise); unaligned loads.
            unsafe {
                let mut v = _mm256_loadu_si256(src.as_ptr().add(i).cast());
                for row in subs.as_ref() {
                    v = _mm256_sub_epi16(v, _mm256_loadu_si256(row.as_ptr().add(i).cast()));
                }
                for row in adds.as_ref() {
                    v = _mm256_add_epi16(v, _mm256_loadu_si256(row.as_ptr().add(i).cast()));
                }
                _mm256_storeu_si256(dst.as_mut_ptr().add(i).cast(), v);
            }
        }
    }

    /// See [`super::screlu_dot`].
    ///
    /// # Safety
    /// The processor has AVX2; both slices have the same length, a multiple of 16; every weight
    /// is within ±127.
    #[target_feature(enable = "avx2")]
    pub unsafe fn screlu_dot(acc: &[i16], weights: &[i16]) -> i64 {
        let zero = _mm256_setzero_si256();
        let top = _mm256_set1_epi16(QA as i16);
        let mut sum = _mm256_setzero_si256();
        for i in (0..acc.len()).step_by(LANES) {
            // SAFETY: i + 16 ≤ len for both slices (the caller's promise); unaligned loads.
            let (a, w) = unsafe {
                (
                    _mm256_loadu_si256(acc.as_ptr().add(i).cast()),
                    _mm256_loadu_si256(weights.as_ptr().add(i).cast()),
                )
            };
            let a = _mm256_min_epi16(_mm256_max_epi16(a, zero), top);
            // a · w fits in 16 bits (|w| ≤ 127, a ≤ 255); madd multiplies by a again and adds
            // neighbouring pairs into 32 bits. Each 32-bit lane gathers len / 8 products of at
            // most 255² · 127, far from overflow for the widths the engine accepts.
            sum = _mm256_add_epi32(sum, _mm256_madd_epi16(_mm256_mullo_epi16(a, w), a));
        }
        let mut lanes = [0i32; 8];
        // SAFETY: lanes holds 32 bytes.
        unsafe { _mm256_storeu_si256(lanes.as_mut_ptr().cast(), sum) };
        lanes.iter().map(|&x| x as i64).sum()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::Rng;

    fn random(rng: &mut Rng, n: usize, lo: i16, hi: i16) -> Vec<i16> {
        (0..n).map(|_| rng.range(lo..=hi)).collect()
    }

    #[test]
    fn both_paths_compute_the_same_integers() {
        let mut rng = Rng::new(7);
        for n in [16, 64, 256, 512, 24] {
            for _ in 0..50 {
                // Accumulators that go below zero and above QA, and rows that make them wrap.
                let src = random(&mut rng, n, -600, 600);
                let rows: Vec<Vec<i16>> = (0..4)
                    .map(|_| random(&mut rng, n, i16::MIN, i16::MAX))
                    .collect();
                let (subs, adds): (Vec<&[i16]>, Vec<&[i16]>) = (
                    rows[..2].iter().map(|r| r.as_slice()).collect(),
                    rows[2..].iter().map(|r| r.as_slice()).collect(),
                );
                let mut want = vec![0; n];
                scalar::update(&mut want, &src, &subs, &adds);
                let mut got = vec![0; n];
                update(&mut got, &src, &subs, &adds);
                assert_eq!(got, want);

                let weights = random(&mut rng, n, -MAX_OUT_WEIGHT, MAX_OUT_WEIGHT);
                assert_eq!(
                    screlu_dot(&src, &weights),
                    scalar::screlu_dot(&src, &weights)
                );

                let mut acc = src.clone();
                add_rows(&mut acc, &adds);
                let mut want = vec![0; n];
                scalar::update(&mut want, &src, &[], &adds);
                assert_eq!(acc, want);
            }
        }
    }

    #[cfg(target_arch = "x86_64")]
    #[test]
    fn the_avx2_path_matches_the_scalar_one_where_the_processor_has_it() {
        if !std::arch::is_x86_feature_detected!("avx2") {
            eprintln!("no AVX2 on this processor: only the scalar path is tested");
            return;
        }
        let mut rng = Rng::new(11);
        for n in [16, 128, 512] {
            let src = random(&mut rng, n, i16::MIN, i16::MAX);
            let row = random(&mut rng, n, i16::MIN, i16::MAX);
            let weights = random(&mut rng, n, -MAX_OUT_WEIGHT, MAX_OUT_WEIGHT);
            let (mut a, mut b) = (vec![0; n], vec![0; n]);
            scalar::update(&mut a, &src, &[&row], &[&row, &src]);
            // SAFETY: AVX2 checked above; lengths are multiples of 16.
            unsafe { avx2::update(&mut b, &src, &[&row], &[&row, &src]) };
            assert_eq!(a, b);
            // One row off and one on (a quiet move's change, the unrolled path).
            scalar::update(&mut a, &src, &[&row], &[&weights]);
            // SAFETY: as above.
            unsafe { avx2::update(&mut b, &src, &[&row], &[&weights]) };
            assert_eq!(a, b);
            // SAFETY: as above; weights within ±127.
            let fast = unsafe { avx2::screlu_dot(&src, &weights) };
            assert_eq!(fast, scalar::screlu_dot(&src, &weights));
        }
    }

    /// Rows shorter than the accumulator are refused in every build, before any vector load
    /// could read past them.
    #[test]
    fn slices_of_unequal_lengths_are_refused() {
        let src = vec![1i16; 32];
        let short = vec![1i16; 16];
        let caught = std::panic::catch_unwind(|| {
            let mut dst = vec![0i16; 32];
            update(&mut dst, &src, &[&short], &[&src]);
        });
        assert!(caught.is_err());
        let caught = std::panic::catch_unwind(|| {
            let mut dst = vec![0i16; 32];
            update(&mut dst, &short, &[], &[]);
        });
        assert!(caught.is_err());
        assert!(std::panic::catch_unwind(|| screlu_dot(&src, &short)).is_err());
    }
}
