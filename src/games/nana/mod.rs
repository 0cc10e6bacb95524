//! Nana shogi (3×3), Georg Dunkel's game as docs/rules.md §4 fixes it.
//!
//! Each player owns a king and two cubes, an orthogonal one (R → C → W → I) and a diagonal one
//! (B → T → M → D); a cube turns to its next state after every board move. The game opens with both
//! king drops, pieces are dropped anywhere but the centre and never with check, and a move may not
//! checkmate while its player holds a piece in hand (see [`movegen`] for the nested judgement).

pub mod attacks;
pub mod eval;
pub mod movegen;
pub mod position;
pub mod rules;
pub mod tablebase;
pub mod types;

pub use movegen::MATE_RULE_LEVELS;
pub use position::{Nana, START_SFEN};
pub use rules::{repetition_draw, repetition_verdict};
