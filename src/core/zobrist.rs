//! Zobrist hashing keys from a fixed-seed generator, shared by every game.

use crate::rng::Rng;

use super::square::MAX_SQUARES;

/// Number of distinct piece codes a game may place on a square.
pub const PIECE_CODES: usize = 32;
/// Number of distinct hand-piece kinds a game may use.
pub const HAND_KINDS: usize = 8;

/// Larger than any count of one kind a hand can reach: a hand starts with at most a full set of a
/// kind (18 pawns) and can only gain the at most 81 pieces on the board.
pub const MAX_HAND_COUNT: usize = 127;

/// Random keys: one per (piece code, square); per (colour, hand kind) one for each count, so that
/// holding `n` pieces contributes the keys of counts 1 to `n`; and one for White to move. Every key is
/// combined by XOR, so the order of updates never matters.
pub struct Zobrist {
    /// `board[piece_code][square]`.
    pub board: [[u64; MAX_SQUARES]; PIECE_CODES],
    /// `hand[color][kind][n]`: toggled when the count of that kind goes from `n − 1` to `n` or back.
    pub hand: [[[u64; MAX_HAND_COUNT + 1]; HAND_KINDS]; 2],
    /// Toggled when White is to move.
    pub side: u64,
}

impl Zobrist {
    fn new() -> Zobrist {
        let mut rng = Self::generator();
        let mut z = Zobrist {
            board: [[0; MAX_SQUARES]; PIECE_CODES],
            hand: [[[0; MAX_HAND_COUNT + 1]; HAND_KINDS]; 2],
            side: 0,
        };
        for row in z.board.iter_mut() {
            for k in row.iter_mut() {
                *k = rng.next_u64();
            }
        }
        for row in z.hand.iter_mut().flatten() {
            for k in row.iter_mut() {
                *k = rng.next_u64();
            }
        }
        z.side = rng.next_u64();
        z
    }

    /// `N` more keys for state of a game's own (a handicap, say), drawn from the same generator
    /// after the shared keys, so that they differ from every one of them.
    pub fn extension_keys<const N: usize>() -> [u64; N] {
        let mut rng = Self::generator();
        let shared = PIECE_CODES * MAX_SQUARES + 2 * HAND_KINDS * (MAX_HAND_COUNT + 1) + 1;
        for _ in 0..shared {
            rng.next_u64();
        }
        std::array::from_fn(|_| rng.next_u64())
    }

    /// The fixed-seed generator of every key.
    fn generator() -> Rng {
        Rng::new(0x7375_6261_6d65)
    }
}

/// The keys, built on first use.
pub static ZOBRIST: std::sync::LazyLock<Zobrist> = std::sync::LazyLock::new(Zobrist::new);
