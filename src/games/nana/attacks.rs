//! Attack tables of nana shogi's 3×3 board, per state and colour.

use std::sync::LazyLock;

use crate::core::bitboard::Bitboard;
use crate::core::color::Color;
use crate::core::square::{Delta, Geometry, Lines, MAX_SQUARES, Square};

use super::types::{STATE_COUNT, State};

/// The board's shape: three files and three ranks.
pub const GEOMETRY: Geometry = Geometry { files: 3, ranks: 3 };

/// The centre square `2b` (file 2, rank b), where nothing may be dropped.
pub const CENTRE: Square = GEOMETRY.square(1, 1);

/// Step patterns from Black's point of view (rank delta −1 is forward, file delta +1 is Black's left);
/// White's are mirrored. The sliders (chariot, bishop) list their directions for the empty-board table.
const KING_STEPS: &[Delta] = &[
    (0, -1),
    (1, -1),
    (-1, -1),
    (1, 0),
    (-1, 0),
    (0, 1),
    (1, 1),
    (-1, 1),
];
const ROOK_STEPS: &[Delta] = &[(0, -1), (0, 1), (1, 0), (-1, 0)];
const WINGS_STEPS: &[Delta] = &[(1, 0), (-1, 0)];
const GO_BETWEEN_STEPS: &[Delta] = &[(0, -1), (0, 1)];
const TILE_STEPS: &[Delta] = &[(1, -1), (-1, -1), (0, 1)];
const CAT_SWORD_STEPS: &[Delta] = &[(1, -1), (-1, -1), (1, 1), (-1, 1)];
const DOG_STEPS: &[Delta] = &[(0, -1), (1, 1), (-1, 1)];

/// The step pattern of `state` for Black; for the sliders, the one-step form of their directions.
const fn steps_of(state: State) -> &'static [Delta] {
    match state {
        State::King => KING_STEPS,
        State::Rook => ROOK_STEPS,
        State::Chariot | State::GoBetween => GO_BETWEEN_STEPS,
        State::Wings => WINGS_STEPS,
        State::Bishop | State::CatSword => CAT_SWORD_STEPS,
        State::Tile => TILE_STEPS,
        State::Dog => DOG_STEPS,
    }
}

/// Precomputed attacks of the 3×3 board.
pub struct Tables {
    /// Rays and between-squares for the two sliders.
    pub lines: Lines,
    /// `empty[color][state][square]`: attacks on an empty board (the sliders' full lines).
    pub empty: [[[Bitboard; MAX_SQUARES]; STATE_COUNT]; 2],
    /// Every square of the board.
    pub board: Bitboard,
    /// Every square where a piece may be dropped (all but the centre).
    pub drop_squares: Bitboard,
}

impl Tables {
    fn new() -> Tables {
        let geo = GEOMETRY;
        let lines = Lines::new(geo);
        let mut empty = [[[Bitboard::EMPTY; MAX_SQUARES]; STATE_COUNT]; 2];
        for c in Color::ALL {
            for state in State::ALL {
                for s in 0..geo.square_count() as u8 {
                    let sq = Square(s);
                    empty[c.index()][state.index()][sq.index()] = match state {
                        State::Chariot => lines.rays[0][sq.index()] | lines.rays[1][sq.index()],
                        State::Bishop => {
                            (4..8).fold(Bitboard::EMPTY, |b, d| b | lines.rays[d][sq.index()])
                        }
                        _ => {
                            let mirror = |&(f, r): &Delta| match c {
                                Color::Black => (f, r),
                                Color::White => (-f, -r),
                            };
                            let deltas: Vec<Delta> = steps_of(state).iter().map(mirror).collect();
                            geo.steps(sq, &deltas)
                        }
                    };
                }
            }
        }
        Tables {
            lines,
            empty,
            board: geo.all(),
            drop_squares: geo.all().without(CENTRE),
        }
    }

    /// Attacks of a piece of `color` showing `state` on `sq`, with the occupied squares `occ`.
    #[inline(always)]
    pub fn attacks(&self, state: State, color: Color, sq: Square, occ: Bitboard) -> Bitboard {
        match state {
            State::Chariot => self.lines.slide(0, sq, occ) | self.lines.slide(1, sq, occ),
            State::Bishop => {
                self.lines.slide(4, sq, occ)
                    | self.lines.slide(5, sq, occ)
                    | self.lines.slide(6, sq, occ)
                    | self.lines.slide(7, sq, occ)
            }
            _ => self.empty[color.index()][state.index()][sq.index()],
        }
    }
}

/// The tables, built on first use.
pub static TABLES: LazyLock<Tables> = LazyLock::new(Tables::new);
