//! Squares and board geometry for rectangular boards of up to 9×9.
//!
//! A square is numbered file-major: `index = file * ranks + rank`, with file 0 being file `1` (Black's
//! right) and rank 0 being rank `a` (White's back rank). One step "up" the board (towards rank `a`,
//! Black's forward) is index − 1.

use super::bitboard::Bitboard;

/// A square index on some board; its meaning depends on the board's [`Geometry`].
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default, PartialOrd, Ord)]
pub struct Square(pub u8);

impl Square {
    /// The square as an array index.
    #[inline(always)]
    pub const fn index(self) -> usize {
        self.0 as usize
    }
}

/// Largest number of squares any game here uses (9×9).
pub const MAX_SQUARES: usize = 81;

/// A step on the board: file delta (towards Black's left is +1) and rank delta (towards Black is +1).
pub type Delta = (i8, i8);

/// The eight line directions. Indices 0–3 are orthogonal, 4–7 diagonal. Direction 0 is Black's forward.
pub const DIRECTIONS: [Delta; 8] = [
    (0, -1),
    (0, 1),
    (1, 0),
    (-1, 0),
    (1, -1),
    (-1, -1),
    (1, 1),
    (-1, 1),
];

/// The shape of a rectangular board.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Geometry {
    /// Number of files (columns), numbered 1.. from Black's right.
    pub files: u8,
    /// Number of ranks (rows), lettered a.. from White's side.
    pub ranks: u8,
}

impl Geometry {
    /// Number of squares on the board.
    pub const fn square_count(self) -> usize {
        self.files as usize * self.ranks as usize
    }

    /// The square at zero-based `file` and `rank`.
    #[inline(always)]
    pub const fn square(self, file: u8, rank: u8) -> Square {
        Square(file * self.ranks + rank)
    }

    /// Zero-based file of `sq`.
    #[inline(always)]
    pub const fn file(self, sq: Square) -> u8 {
        sq.0 / self.ranks
    }

    /// Zero-based rank of `sq`.
    #[inline(always)]
    pub const fn rank(self, sq: Square) -> u8 {
        sq.0 % self.ranks
    }

    /// The square reached from `sq` by `d`, if it is on the board.
    pub fn offset(self, sq: Square, d: Delta) -> Option<Square> {
        let f = self.file(sq) as i8 + d.0;
        let r = self.rank(sq) as i8 + d.1;
        if f < 0 || r < 0 || f >= self.files as i8 || r >= self.ranks as i8 {
            None
        } else {
            Some(self.square(f as u8, r as u8))
        }
    }

    /// Every square of the board.
    pub fn all(self) -> Bitboard {
        Bitboard((1u128 << self.square_count()) - 1)
    }

    /// Every square on the given zero-based rank.
    pub fn rank_mask(self, rank: u8) -> Bitboard {
        (0..self.files).fold(Bitboard::EMPTY, |b, f| b.with(self.square(f, rank)))
    }

    /// Every square on the given zero-based file.
    pub fn file_mask(self, file: u8) -> Bitboard {
        (0..self.ranks).fold(Bitboard::EMPTY, |b, r| b.with(self.square(file, r)))
    }

    /// Parses a square such as `7f`; `None` when malformed or off this board.
    pub fn parse_square(self, s: &[u8]) -> Option<Square> {
        if s.len() != 2 {
            return None;
        }
        let file = s[0].checked_sub(b'1')?;
        let rank = s[1].checked_sub(b'a')?;
        (file < self.files && rank < self.ranks).then(|| self.square(file, rank))
    }

    /// Writes `sq` as `<file digit><rank letter>`.
    pub fn square_name(self, sq: Square) -> [char; 2] {
        [
            (b'1' + self.file(sq)) as char,
            (b'a' + self.rank(sq)) as char,
        ]
    }

    /// The squares reached from `sq` by each of `deltas` (one step each).
    pub fn steps(self, sq: Square, deltas: &[Delta]) -> Bitboard {
        deltas
            .iter()
            .filter_map(|&d| self.offset(sq, d))
            .fold(Bitboard::EMPTY, Bitboard::with)
    }

    /// The squares from `sq` in direction `d`, up to the edge, excluding `sq` itself.
    pub fn ray(self, sq: Square, d: Delta) -> Bitboard {
        let mut b = Bitboard::EMPTY;
        let mut cur = sq;
        while let Some(next) = self.offset(cur, d) {
            b = b.with(next);
            cur = next;
        }
        b
    }
}

/// Line tables for sliding pieces on one geometry: rays per direction and the squares between two squares.
pub struct Lines {
    /// `rays[d][sq]`: squares from `sq` in direction [`DIRECTIONS`]`[d]`, excluding `sq`.
    pub rays: [[Bitboard; MAX_SQUARES]; 8],
    /// `between[a * MAX_SQUARES + b]`: squares strictly between `a` and `b` when they share a line.
    between: Vec<Bitboard>,
}

impl Lines {
    /// Builds the tables for `geo`.
    pub fn new(geo: Geometry) -> Lines {
        let mut rays = [[Bitboard::EMPTY; MAX_SQUARES]; 8];
        let mut between = vec![Bitboard::EMPTY; MAX_SQUARES * MAX_SQUARES];
        for s in 0..geo.square_count() as u8 {
            let sq = Square(s);
            for (d, &delta) in DIRECTIONS.iter().enumerate() {
                rays[d][s as usize] = geo.ray(sq, delta);
                let mut cur = sq;
                let mut acc = Bitboard::EMPTY;
                while let Some(next) = geo.offset(cur, delta) {
                    between[s as usize * MAX_SQUARES + next.index()] = acc;
                    acc = acc.with(next);
                    cur = next;
                }
            }
        }
        Lines { rays, between }
    }

    /// Squares strictly between `a` and `b` (empty when they are not on one line or adjacent).
    #[inline(always)]
    pub fn between(&self, a: Square, b: Square) -> Bitboard {
        // SAFETY-free indexing: both squares are below MAX_SQUARES by construction.
        self.between[a.index() * MAX_SQUARES + b.index()]
    }

    /// Attacks of a slider moving in direction `d` from `sq` given the occupied squares `occ`:
    /// every square up to and including the first occupied one.
    #[inline(always)]
    pub fn slide(&self, d: usize, sq: Square, occ: Bitboard) -> Bitboard {
        let ray = self.rays[d][sq.index()];
        let blockers = ray & occ;
        // Without a branch on an empty ray: a sentinel square whose ray in direction `d` is
        // empty stands in for "no blocker" (square 0 for the directions whose index step is
        // negative, the last square for the others; neither can lie inside a ray of `d`
        // before another blocker).
        // Directions whose index step is positive: down (0,1), left (1,0), and the two leftward diagonals.
        let first = if matches!(d, 1 | 2 | 4 | 6) {
            (blockers | Bitboard::from_square(Square(MAX_SQUARES as u8 - 1))).lsb()
        } else {
            (blockers | Bitboard::from_square(Square(0))).msb()
        };
        ray ^ self.rays[d][first.index()]
    }
}
