//! Search values: centipawns, and mate scores counted in plies from the root.

/// The value of delivering mate now; "mate in n plies" is `MATE - n`.
pub const MATE: i32 = 30000;
/// Values beyond this bound (in absolute value) are mate scores.
pub const MATE_BOUND: i32 = MATE - 1000;
/// Larger than any value.
pub const INFINITE: i32 = 31000;
/// A draw.
pub const DRAW: i32 = 0;

/// True for a mate (or mated) score.
#[inline(always)]
pub fn is_mate_score(v: i32) -> bool {
    v.abs() >= MATE_BOUND
}

/// The value of mating at `ply` from the root.
#[inline(always)]
pub fn mate_in(ply: usize) -> i32 {
    MATE - ply as i32
}

/// The value of being mated at `ply` from the root.
#[inline(always)]
pub fn mated_in(ply: usize) -> i32 {
    -MATE + ply as i32
}

/// The USI score text of a value: `cp X` or `mate N` (plies, negative when being mated).
pub fn usi_score(v: i32) -> String {
    if is_mate_score(v) {
        if v > 0 {
            format!("mate {}", MATE - v)
        } else {
            format!("mate -{}", MATE + v)
        }
    } else {
        format!("cp {v}")
    }
}
