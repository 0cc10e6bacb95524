//! Every tuned number of the search, named, with the reason it has its value.

/// Deepest ply the search reaches (stack sizes).
pub const MAX_PLY: usize = 128;
/// Half-width of the first aspiration window around the previous iteration's value.
pub const ASPIRATION_WINDOW: i32 = 40;
/// Aspiration starts from this depth; shallower iterations are too unstable to profit.
pub const ASPIRATION_MIN_DEPTH: i32 = 5;
/// Reverse futility: a node whose static evaluation beats beta by this much per ply is cut.
pub const RFP_MARGIN: i32 = 90;
/// Reverse futility applies up to this depth.
pub const RFP_MAX_DEPTH: i32 = 6;
/// Null-move pruning needs at least this depth.
pub const NMP_MIN_DEPTH: i32 = 3;
/// Base null-move reduction; grows by one every `NMP_DEPTH_DIVISOR` plies.
pub const NMP_BASE_REDUCTION: i32 = 3;
/// See [`NMP_BASE_REDUCTION`].
pub const NMP_DEPTH_DIVISOR: i32 = 4;
/// Futility pruning of quiet moves: margin per ply of remaining depth.
pub const FUTILITY_MARGIN: i32 = 110;
/// Futility pruning applies up to this depth.
pub const FUTILITY_MAX_DEPTH: i32 = 7;
/// Late-move pruning: quiet moves after `LMP_BASE + depth²` are skipped at shallow depth.
pub const LMP_BASE: usize = 4;
/// Late-move pruning applies up to this depth.
pub const LMP_MAX_DEPTH: i32 = 6;
/// Captures losing more than this per ply of depth (static exchange) are skipped at low depth.
pub const SEE_CAPTURE_MARGIN: i32 = 100;
/// Quiet moves losing more than this per ply (static exchange) are skipped at low depth.
pub const SEE_QUIET_MARGIN: i32 = 60;
/// Late-move reduction formula: `LMR_BASE + ln(depth) · ln(moves) / LMR_DIVISOR`.
pub const LMR_BASE: f64 = 0.75;
/// See [`LMR_BASE`].
pub const LMR_DIVISOR: f64 = 2.25;
/// Late-move reductions shrink by one ply per this much quiet-move history (butterfly plus two
/// continuation tables, each within ±`HISTORY_MAX`).
pub const LMR_HISTORY_DIVISOR: i32 = 12288;
/// Singular extensions are tried from this depth on.
pub const SE_MIN_DEPTH: i32 = 7;
/// Singular extension: the other moves must fail low by `SE_MARGIN · depth / 8` below the table
/// value for the table move to be extended.
pub const SE_MARGIN: i32 = 16;
/// Quiescence: margin over the captured piece's value before a capture is considered hopeless.
pub const DELTA_MARGIN: i32 = 200;
/// Quiescence considers non-capturing promotions only this many plies deep.
pub const QS_PROMOTION_PLIES: i32 = 1;
/// History bonus cap (the gravity formula keeps entries within ±this).
pub const HISTORY_MAX: i32 = 16384;
/// Nodes between two checks of the clock and the node limit (the stop flag is read at every node).
pub const CHECK_INTERVAL: u64 = 1024;
/// Evaluation-correction entries hold this many units per centipawn.
pub const CORRECTION_GRAIN: i32 = 16;
/// Evaluation-correction entries stay within ±this (±256 cp at [`CORRECTION_GRAIN`]).
pub const CORRECTION_MAX: i32 = 4096;
