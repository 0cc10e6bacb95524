//! tsubame: a USI engine for a family of shogi-like games, each in its own folder under
//! [`games`].
//!
//! The layers, each importing only those below it: [`core`] (the game-generic pieces and the
//! traits a game implements); [`nnue`] and [`mate`] (the network and the mate solver, generic);
//! [`search`] and the game folders under [`games`], whose registry lists the games once;
//! [`engine`], the typed API that owns the engine's state; and the faces that adapt it: [`usi`]
//! (the protocol), [`serve`] (the page) and [`commands`] (the other subcommands).

pub mod commands;
pub mod core;
pub mod engine;
pub mod error;
pub mod games;
pub mod mate;
pub mod nnue;
pub mod progress;
pub mod rng;
pub mod search;
pub mod serve;
pub mod usi;
