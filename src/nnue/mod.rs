//! The learned evaluation (NNUE), generic over the game: the quantised network file with its
//! reference evaluation ([`network`]), the accumulators of the search ([`accumulator`]) and their
//! SIMD kernels ([`simd`]). Each game's input features live with the game (`games/*/nnue.rs`),
//! and the registry (`games`) says which network a game embeds. The trainer (`tools/train`)
//! uses the same features and writes the same file.

pub mod accumulator;
pub mod network;
pub mod simd;

use std::sync::Arc;

pub use crate::core::search_game::FeatureSet;
use arrayvec::ArrayVec;
use network::Network;

/// Reads a network built into the binary for `game`, whose feature count for each set
/// `features` tells; the files are part of the source, and the tests check that each loads.
pub fn built_in(bytes: &[u8], game: &str, features: impl Fn(FeatureSet) -> usize) -> Arc<Network> {
    let net = Network::from_bytes(bytes, game, features, None);
    Arc::new(net.unwrap_or_else(|e| panic!("the embedded {game} network is unsound: {e}")))
}

/// The features a move turns off and on in one perspective: at most two of each (a capture
/// removes the mover from its square and the victim from its; it adds the mover on the
/// destination and one more piece in hand). A move that changes every feature of the
/// perspective (a king entering another bucket) has no `Delta`: the accumulator is refreshed.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Delta {
    /// Features that go off.
    pub removed: ArrayVec<u16, 2>,
    /// Features that come on.
    pub added: ArrayVec<u16, 2>,
}
