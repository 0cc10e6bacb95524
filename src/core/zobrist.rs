//! Zobrist hashing keys from a fixed-seed generator, shared by every game.

use rand::{RngExt, SeedableRng, rngs::StdRng};

use super::square::MAX_SQUARES;

/// Number of distinct piece codes a game may place on a square.
pub const PIECE_CODES: usize = 32;
/// Number of distinct hand-piece kinds a game may use.
pub const HAND_KINDS: usize = 8;

/// Random keys: one per (piece code, square), one per (colour, hand kind) added once per piece held,
/// and one for White to move.
pub struct Zobrist {
    /// `board[piece_code][square]`.
    pub board: [[u64; MAX_SQUARES]; PIECE_CODES],
    /// `hand[color][kind]`, added (wrapping) once for every piece of that kind held.
    pub hand: [[u64; HAND_KINDS]; 2],
    /// Toggled when White is to move.
    pub side: u64,
}

impl Zobrist {
    fn new() -> Zobrist {
        let mut rng = StdRng::seed_from_u64(0x7375_6261_6d65);
        let mut z = Zobrist {
            board: [[0; MAX_SQUARES]; PIECE_CODES],
            hand: [[0; HAND_KINDS]; 2],
            side: 0,
        };
        for row in z.board.iter_mut() {
            for k in row.iter_mut() {
                *k = rng.random();
            }
        }
        for row in z.hand.iter_mut() {
            for k in row.iter_mut() {
                *k = rng.random();
            }
        }
        z.side = rng.random();
        z
    }
}

/// The keys, built on first use.
pub static ZOBRIST: std::sync::LazyLock<Zobrist> = std::sync::LazyLock::new(Zobrist::new);
