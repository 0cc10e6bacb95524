//! tsubame: a USI engine for shogi, minishogi and nana shogi.
//!
//! The rules live in [`core`] (game-generic pieces) and [`games`] (one folder per game); [`usi`] speaks
//! the protocol.

pub mod analyse;
pub mod bench;
pub mod core;
pub mod datagen;
pub mod error;
pub mod games;
pub mod mate;
pub mod nnue;
pub mod progress;
pub mod rng;
pub mod search;
pub mod selfplay;
pub mod serve;
pub mod usi;
