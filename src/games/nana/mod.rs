//! Nana shogi (3×3), Georg Dunkel's game as docs/rules.md §4 fixes it.
//!
//! Each player owns a king and two cubes, an orthogonal one (R → C → W → I) and a diagonal one
//! (B → T → M → D); a cube turns to its next state after every board move. The game opens with both
//! king drops, pieces are dropped anywhere but the centre and never with check, and a move may not
//! checkmate while its player holds a piece in hand (see [`movegen`] for the nested judgement).

pub mod attacks;
pub mod eval;
pub mod movegen;
pub mod nnue;
pub mod position;
pub mod rules;
pub mod tablebase;
pub mod types;

pub use movegen::MATE_RULE_LEVELS;
pub use position::{Nana, START_SFEN};
pub use rules::{repetition_draw, repetition_verdict};

use std::sync::{Arc, LazyLock};

use crate::nnue::network::Network;

/// Nana shogi's registry entry.
pub const INFO: super::GameInfo = super::GameInfo {
    aliases: &["nana"],
    title: "nana shogi",
    ranks: 3,
    embedded_network,
    bench_depth: 9,
    bench_perft_depth: 6,
};

/// The nana shogi network built into the binary, trained on the solved table (how it was made:
/// `docs/nnue.md`).
static EMBEDDED: LazyLock<Arc<Network>> = LazyLock::new(|| {
    crate::nnue::built_in(
        include_bytes!("nanashogi.nnue"),
        position::NAME,
        nnue::FEATURES,
    )
});

/// The nana shogi network built into the binary.
fn embedded_network() -> Option<Arc<Network>> {
    Some(Arc::clone(&EMBEDDED))
}
