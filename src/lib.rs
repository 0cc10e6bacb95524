//! tsubame: a USI engine for a family of shogi-like games, each in its own folder under
//! [`games`].
//!
//! The layers, each importing only those below it: [`core`] (the game-generic pieces and the
//! traits a game implements); [`nnue`] and [`mate`] (the network and the mate solver, generic);
//! [`search`] and the game folders under [`games`], whose registry lists the games once;
//! [`engine`], the typed API that owns the engine's state; [`page`], the page's side of the
//! engine whatever carries its messages; and the faces that adapt them: [`usi`] (the protocol),
//! [`serve`] (the page's server) and [`commands`] (the other subcommands).

// The browser build (wasm32-unknown-unknown, the `web/` crate) is the engine behind the USI
// face and the page's side: the page's server needs sockets and an async runtime, and the
// subcommands need files and a terminal, none of which a Web Worker has. Everything else builds for it; the work
// that natively runs on threads runs there on the caller's thread (`core::job`), timed by the
// host's clock (`core::clock`).
#[cfg(not(target_arch = "wasm32"))]
pub mod commands;
pub mod core;
pub mod engine;
pub mod error;
pub mod games;
pub mod mate;
pub mod nnue;
pub mod page;
pub mod progress;
pub mod rng;
pub mod search;
#[cfg(not(target_arch = "wasm32"))]
pub mod serve;
pub mod usi;
