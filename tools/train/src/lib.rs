//! tsubame's NNUE trainer: loads `tsubame datagen` files, fits the float network on CPU with Adam
//! (all cores through rayon), and writes checkpoints and the quantised network the engine reads.
//! It also fits Give and Take's linear evaluation ([`linear`]).
//!
//! Written here rather than taken from a crate: bullet, the usual Rust NNUE trainer, is
//! distributed from git only (its crates.io release is yanked) and its CPU backend is a
//! single-threaded reference; the network here is one sparse layer and one output, which a few
//! hundred lines train on both cores.

pub mod data;
pub mod linear;
pub mod net;
pub mod train;
