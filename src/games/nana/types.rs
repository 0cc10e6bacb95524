//! Pieces of nana shogi: the king and the two cubes with their states, pieces on the board, and hands.

use crate::core::color::Color;

/// What a piece on the board currently is: the king, or one face (state) of a cube.
///
/// The orthogonal cube cycles R → C → W → I → R and the diagonal cube B → T → M → D → B; the code of a
/// state is also the piece code a drop carries in a [`crate::core::moves::Move`].
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
#[repr(u8)]
pub enum State {
    /// `K` king: one step in the eight directions; never changes.
    King = 0,
    /// `R` rook: one step orthogonally.
    Rook = 1,
    /// `C` chariot: slides straight forward or straight backward.
    Chariot = 2,
    /// `W` swallow's wings: one step left or right.
    Wings = 3,
    /// `I` go-between: one step straight forward or straight backward.
    GoBetween = 4,
    /// `B` bishop: slides diagonally.
    Bishop = 5,
    /// `T` tile general: one step diagonally forward, or straight backward.
    Tile = 6,
    /// `M` cat's sword: one step in each diagonal direction.
    CatSword = 7,
    /// `D` dog: one step straight forward, or diagonally backward.
    Dog = 8,
}

/// Number of states (the king included).
pub const STATE_COUNT: usize = 9;

impl State {
    /// Every state, in code order.
    pub const ALL: [State; STATE_COUNT] = [
        State::King,
        State::Rook,
        State::Chariot,
        State::Wings,
        State::GoBetween,
        State::Bishop,
        State::Tile,
        State::CatSword,
        State::Dog,
    ];

    /// The state with code `c` (0–8).
    #[inline(always)]
    pub const fn from_code(c: u8) -> State {
        State::ALL[c as usize]
    }

    /// The state's code, an index 0–8.
    #[inline(always)]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The kind of piece showing this state.
    #[inline(always)]
    pub const fn kind(self) -> Kind {
        match self as u8 {
            0 => Kind::King,
            1..=4 => Kind::Orthogonal,
            _ => Kind::Diagonal,
        }
    }

    /// The state a piece shows after a board move: the next face of a cube's cycle; a king stays a king.
    #[inline(always)]
    pub const fn next(self) -> State {
        match self {
            State::King => State::King,
            State::Rook => State::Chariot,
            State::Chariot => State::Wings,
            State::Wings => State::GoBetween,
            State::GoBetween => State::Rook,
            State::Bishop => State::Tile,
            State::Tile => State::CatSword,
            State::CatSword => State::Dog,
            State::Dog => State::Bishop,
        }
    }

    /// The SFEN letter of the state, uppercase.
    pub const fn letter(self) -> char {
        match self {
            State::King => 'K',
            State::Rook => 'R',
            State::Chariot => 'C',
            State::Wings => 'W',
            State::GoBetween => 'I',
            State::Bishop => 'B',
            State::Tile => 'T',
            State::CatSword => 'M',
            State::Dog => 'D',
        }
    }

    /// The state written with `letter` (either case).
    pub fn from_letter(letter: char) -> Option<State> {
        Some(match letter.to_ascii_uppercase() {
            'K' => State::King,
            'R' => State::Rook,
            'C' => State::Chariot,
            'W' => State::Wings,
            'I' => State::GoBetween,
            'B' => State::Bishop,
            'T' => State::Tile,
            'M' => State::CatSword,
            'D' => State::Dog,
            _ => return None,
        })
    }
}

/// A kind of piece, as held in hand: a cube in hand has no state.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
#[repr(u8)]
pub enum Kind {
    /// The king (in hand only before it is dropped at the start).
    King = 0,
    /// The orthogonal cube (R C W I), written `R` in hand.
    Orthogonal = 1,
    /// The diagonal cube (B T M D), written `B` in hand.
    Diagonal = 2,
}

/// Number of kinds.
pub const KIND_COUNT: usize = 3;

impl Kind {
    /// Every kind, in SFEN hand order.
    pub const ALL: [Kind; KIND_COUNT] = [Kind::King, Kind::Orthogonal, Kind::Diagonal];

    /// The kind as an index 0–2 (also its hand key index in the Zobrist tables).
    #[inline(always)]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The letter of the kind in a hand, uppercase: `K`, `R` or `B`.
    pub const fn letter(self) -> char {
        match self {
            Kind::King => 'K',
            Kind::Orthogonal => 'R',
            Kind::Diagonal => 'B',
        }
    }

    /// The kind's name in the plural, for messages.
    pub const fn plural(self) -> &'static str {
        match self {
            Kind::King => "kings",
            Kind::Orthogonal => "orthogonal cubes",
            Kind::Diagonal => "diagonal cubes",
        }
    }

    /// The kind written with `letter` (either case) in a hand; state letters other than R and B are not.
    pub fn from_hand_letter(letter: char) -> Option<Kind> {
        Some(match letter.to_ascii_uppercase() {
            'K' => Kind::King,
            'R' => Kind::Orthogonal,
            'B' => Kind::Diagonal,
            _ => return None,
        })
    }

    /// The four states a cube of this kind may be dropped in (the king has only itself).
    pub const fn states(self) -> &'static [State] {
        match self {
            Kind::King => &[State::King],
            Kind::Orthogonal => &[State::Rook, State::Chariot, State::Wings, State::GoBetween],
            Kind::Diagonal => &[State::Bishop, State::Tile, State::CatSword, State::Dog],
        }
    }

    /// How many pieces of this kind the whole set holds (both players together).
    pub const fn in_set(self) -> u8 {
        2
    }
}

/// A piece on the board: a state and an owner, packed as `color << 4 | (state + 1)`; 0 is no piece.
///
/// Codes stay below 32, the number of piece codes the shared Zobrist table has.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
pub struct Piece(pub u8);

impl Piece {
    /// An empty square.
    pub const NONE: Piece = Piece(0);

    /// The piece of `color` showing `state`.
    #[inline(always)]
    pub const fn new(color: Color, state: State) -> Piece {
        Piece((color as u8) << 4 | (state as u8 + 1))
    }

    /// True for an empty square.
    #[inline(always)]
    pub const fn is_none(self) -> bool {
        self.0 == 0
    }

    /// The state of a real piece.
    #[inline(always)]
    pub const fn state(self) -> State {
        State::from_code((self.0 & 15) - 1)
    }

    /// The owner of a real piece.
    #[inline(always)]
    pub const fn color(self) -> Color {
        if self.0 >> 4 == 0 {
            Color::Black
        } else {
            Color::White
        }
    }

    /// The piece as an index below 32 (for hashing tables).
    #[inline(always)]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// The SFEN letter of the piece: its state's letter, uppercase for Black.
    pub const fn letter(self) -> char {
        let l = self.state().letter();
        match self.color() {
            Color::Black => l,
            Color::White => l.to_ascii_lowercase(),
        }
    }
}

/// The pieces one player holds: a count per [`Kind`] (king, orthogonal cube, diagonal cube).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
pub struct Hand(pub [u8; KIND_COUNT]);

impl Hand {
    /// How many pieces of `kind` are held.
    #[inline(always)]
    pub const fn count(self, kind: Kind) -> u8 {
        self.0[kind as usize]
    }

    /// True when nothing is held.
    #[inline(always)]
    pub const fn is_empty(self) -> bool {
        self.0[0] == 0 && self.0[1] == 0 && self.0[2] == 0
    }

    /// Total number of pieces held.
    pub fn total(self) -> u32 {
        self.0.iter().map(|&c| c as u32).sum()
    }
}
