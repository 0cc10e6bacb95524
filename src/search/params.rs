//! The search's structural numbers: stack depth, table limits, polling. The tuned numbers are
//! run-time data, [`SearchParams`](crate::core::search_params::SearchParams).

/// Deepest ply the search reaches (stack sizes).
pub const MAX_PLY: usize = 128;
/// History bonus cap (the gravity formula keeps entries within ±this).
pub const HISTORY_MAX: i32 = 16384;
/// Nodes between two checks of the clock and the node limit (the stop flag is read at every node).
pub const CHECK_INTERVAL: u64 = 1024;
/// Evaluation-correction entries hold this many units per centipawn.
pub const CORRECTION_GRAIN: i32 = 16;
/// Evaluation-correction entries stay within ±this (±256 cp at [`CORRECTION_GRAIN`]).
pub const CORRECTION_MAX: i32 = 4096;
