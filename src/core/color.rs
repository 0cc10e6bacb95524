//! The two players and per-player storage.

use std::ops::{Index, IndexMut, Not};

/// A player: Black (sente) moves first and sits at the bottom of the board.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
#[repr(u8)]
pub enum Color {
    /// Sente, the first player; uppercase letters in SFEN.
    Black = 0,
    /// Gote, the second player; lowercase letters in SFEN.
    White = 1,
}

impl Color {
    /// Both colours, Black first.
    pub const ALL: [Color; 2] = [Color::Black, Color::White];

    /// The colour as an array index (Black 0, White 1).
    #[inline(always)]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The SFEN side-to-move letter.
    pub const fn sfen_char(self) -> char {
        match self {
            Color::Black => 'b',
            Color::White => 'w',
        }
    }
}

impl Not for Color {
    type Output = Color;
    #[inline(always)]
    fn not(self) -> Color {
        match self {
            Color::Black => Color::White,
            Color::White => Color::Black,
        }
    }
}

/// One value per colour, indexed by [`Color`].
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
pub struct ByColor<T>(pub [T; 2]);

impl<T> Index<Color> for ByColor<T> {
    type Output = T;
    #[inline(always)]
    fn index(&self, c: Color) -> &T {
        &self.0[c.index()]
    }
}

impl<T> IndexMut<Color> for ByColor<T> {
    #[inline(always)]
    fn index_mut(&mut self, c: Color) -> &mut T {
        &mut self.0[c.index()]
    }
}
