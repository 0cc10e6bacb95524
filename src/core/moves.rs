//! Compact moves shared by every game: a board move (with an optional promotion) or a drop.

use arrayvec::ArrayVec;
use smallvec::SmallVec;

use super::square::Square;

/// A move packed in 16 bits.
///
/// | bits  | meaning                                                    |
/// |-------|------------------------------------------------------------|
/// | 0–6   | destination square                                         |
/// | 7–13  | origin square, or for a drop the game's code of the piece  |
/// | 14    | promotes                                                   |
/// | 15    | is a drop                                                  |
///
/// The value 0 (from 1a to 1a) is never a legal move and serves as [`Move::NONE`].
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
pub struct Move(pub u16);

const DROP: u16 = 1 << 15;
const PROMOTE: u16 = 1 << 14;

impl Move {
    /// No move.
    pub const NONE: Move = Move(0);

    /// A board move from `from` to `to`, promoting when `promote`.
    #[inline(always)]
    pub const fn normal(from: Square, to: Square, promote: bool) -> Move {
        Move(to.0 as u16 | (from.0 as u16) << 7 | if promote { PROMOTE } else { 0 })
    }

    /// A drop of the piece the game encodes as `piece` onto `to`.
    #[inline(always)]
    pub const fn drop(piece: u8, to: Square) -> Move {
        Move(to.0 as u16 | (piece as u16) << 7 | DROP)
    }

    /// Destination square.
    #[inline(always)]
    pub const fn to(self) -> Square {
        Square((self.0 & 0x7f) as u8)
    }

    /// Origin square of a board move.
    #[inline(always)]
    pub const fn from(self) -> Square {
        Square((self.0 >> 7 & 0x7f) as u8)
    }

    /// The game's code of the dropped piece, for a drop.
    #[inline(always)]
    pub const fn drop_piece(self) -> u8 {
        (self.0 >> 7 & 0x7f) as u8
    }

    /// True for a drop.
    #[inline(always)]
    pub const fn is_drop(self) -> bool {
        self.0 & DROP != 0
    }

    /// True for a promoting board move.
    #[inline(always)]
    pub const fn is_promotion(self) -> bool {
        self.0 & PROMOTE != 0
    }
}

/// What the game-independent code (perft, search, mate solver, USI, match runner) needs of a
/// game's move type. The shogi games use the packed [`Move`]; a game whose moves do not fit in
/// 16 bits (a draughts capture is a route) brings its own type.
pub trait GameMove: Copy + Eq + std::hash::Hash + std::fmt::Debug + Send + Sync + 'static {
    /// No move.
    const NONE: Self;
    /// The list that holds every legal move of a position of the game ([`MoveList`]), or one
    /// value per move (the move picker's scores): a fixed array on the stack where the game's
    /// moves are bounded (the shogi games), a list that can grow where they are not (Give and
    /// Take's capture routes).
    type List<T: Copy + std::fmt::Debug + Send>: ListStore<T> + Send;
    /// A 16-bit code of the move for the search's tables (history, counter moves, table
    /// entries): the same move always has the same code, and a code is turned back into a move
    /// only through the position (`SearchGame::move_from_code`), which checks it.
    fn code(self) -> u16;
    /// The index of the square the move ends on.
    fn to_index(self) -> usize;
    /// True for a move that promotes (counted with the captures as a tactical move).
    fn is_promotion(self) -> bool;
    /// True for a drop.
    fn is_drop(self) -> bool;
    /// The same move without promoting (the move itself when it does not promote): the mate
    /// solver tries a piece's non-promotion only after its promotion failed.
    fn unpromoted(self) -> Self {
        self
    }
}

impl GameMove for Move {
    const NONE: Move = Move::NONE;
    type List<T: Copy + std::fmt::Debug + Send> = ArrayVec<T, MAX_MOVES>;

    #[inline(always)]
    fn code(self) -> u16 {
        self.0
    }

    #[inline(always)]
    fn to_index(self) -> usize {
        self.to().index()
    }

    #[inline(always)]
    fn is_promotion(self) -> bool {
        Move::is_promotion(self)
    }

    #[inline(always)]
    fn is_drop(self) -> bool {
        Move::is_drop(self)
    }

    #[inline(always)]
    fn unpromoted(self) -> Self {
        Move(self.0 & !PROMOTE)
    }
}

/// Enough room for every legal move of any position of the shogi games (shogi's maximum is
/// 593).
pub const MAX_MOVES: usize = 600;

/// The list of moves of game move type `M` ([`GameMove::List`]).
pub type MoveList<M = Move> = <M as GameMove>::List<M>;

/// What the engine does with a list of moves (or of values beside them): a slice, plus pushing
/// and clearing. Implemented by the fixed [`ArrayVec`] and the
/// growable [`SmallVec`].
pub trait ListStore<T>:
    Default
    + std::fmt::Debug
    + std::ops::Deref<Target = [T]>
    + std::ops::DerefMut
    + Extend<T>
    + FromIterator<T>
    + IntoIterator<Item = T>
{
    /// An empty list.
    fn new() -> Self {
        Self::default()
    }
    /// Appends `item` (a fixed list panics when full: its capacity is the game's bound).
    fn push(&mut self, item: T);
    /// Removes every item.
    fn clear(&mut self);
}

impl<T: Copy + std::fmt::Debug, const N: usize> ListStore<T> for ArrayVec<T, N> {
    #[inline(always)]
    fn push(&mut self, item: T) {
        ArrayVec::push(self, item)
    }
    #[inline(always)]
    fn clear(&mut self) {
        ArrayVec::clear(self)
    }
}

impl<T: Copy + std::fmt::Debug, const N: usize> ListStore<T> for SmallVec<[T; N]> {
    #[inline(always)]
    fn push(&mut self, item: T) {
        SmallVec::push(self, item)
    }
    #[inline(always)]
    fn clear(&mut self) {
        SmallVec::clear(self)
    }
}
