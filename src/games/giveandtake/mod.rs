//! Give and Take, Christopher Elis's draughts game (docs/rules.md, from `RULES.md` §4): 8×8,
//! sixteen men a side on the Turkish draughts start, men stepping and capturing forward or
//! sideways, rook-like kings whose multiple captures may turn and reverse, and a capture
//! obligation that applies only against the piece just moved.
//!
//! The position and its text form ([`position`]), the legal moves with their full capture routes
//! and perft ([`movegen`]), the evaluation ([`eval`]) and the game on the shared core ([`game`]). A
//! capture is a route, not a from–to pair, so the game's move ([`movegen::GtMove`], its
//! `Position::Move`) lists its stops.

pub mod eval;
pub mod game;
pub mod movegen;
pub mod pack;
pub mod position;

pub use movegen::GtMove;
pub use position::{GiveAndTake, START_FEN};

/// Give and Take's registry entry (no network: a tuned linear evaluation, [`eval`]).
pub const INFO: super::GameInfo = super::GameInfo {
    aliases: &[],
    title: "Give and Take",
    ranks: 8,
    embedded_network: || None,
    bench_depth: 8,
    bench_perft_depth: 7,
};
