//! Helpers shared by the integration tests: reading the reference tables in `engine-tests/data/`.

#![allow(dead_code)] // each test binary uses a different subset of these helpers

use std::path::PathBuf;

/// The rows of a tab-separated reference file in `engine-tests/data/`, header skipped.
pub fn tsv(name: &str) -> Vec<Vec<String>> {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("engine-tests/data")
        .join(name);
    let text = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
    text.lines()
        .skip(1)
        .filter(|l| !l.trim().is_empty())
        .map(|l| l.split('\t').map(str::to_string).collect())
        .collect()
}

/// A tiny deterministic random generator (64-bit LCG) for random play in tests.
pub struct Lcg(pub u64);

impl Lcg {
    /// A number below `n` (n > 0).
    pub fn below(&mut self, n: usize) -> usize {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        ((self.0 >> 33) % n as u64) as usize
    }
}
