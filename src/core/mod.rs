//! Game-generic building blocks: colours, squares, bitboards, moves, hashing, repetition, and the
//! [`game::Position`] trait that each game implements; the clock and the threads of work
//! ([`clock`], [`job`]), which differ in the browser build.

pub mod bitboard;
pub mod clock;
pub mod color;
pub mod cpu;
pub mod game;
pub mod job;
pub mod memory;
pub mod moves;
pub mod pack;
pub mod perft;
pub mod repetition;
pub mod rules;
pub mod search_game;
pub mod search_params;
pub mod sfen;
pub mod square;
pub mod text;
pub mod zeroed;
pub mod zobrist;
