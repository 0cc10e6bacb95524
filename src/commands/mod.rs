//! The subcommands of `tsubame` besides the USI loop ([`crate::usi`]) and the page's server
//! ([`crate::serve`]): each searches through the engine's one constructor of a search
//! ([`crate::engine::search_setup`]) and names no game, reaching each through the registry.

pub mod analyse;
pub mod bench;
pub mod datagen;
pub mod games;
pub mod mate;
pub mod perft;
pub mod record;
pub mod selfplay;
pub mod solve;
