//! The perfect index of the tablebase: a bijection between `0..INDEXER.size` and the nana positions
//! with Black to move and both kings on the board (kings on distinct, non-adjacent squares), with
//! any placement of zero to two cubes of each kind (on a free square with owner and state, in
//! either hand, or out of the game — "in the box", for set-ups that leave cubes out).
//!
//! A White-to-move position is looked up as its colour flip (board turned by 180°, colours and hands
//! swapped), which plays identically; positions with a king still in hand are solved by a search of
//! at most two plies into the table (see [`super::Tablebase::probe`]).
//!
//! # Layout
//!
//! `index = king_pair × PER_KING_PAIR + ortho_offset[ortho_rank] + diag_rank`:
//!
//! - `king_pair` (0–31) numbers the ordered pairs (Black king, White king) of non-adjacent squares;
//! - the other seven squares, in square order, are the *free* squares `0..7`;
//! - a cube's *value* over `F` free squares is 0 (Black's hand), 1 (White's hand), 2 (box) or
//!   `3 + 8·f + 4·owner + face` (on free square `f`, `face` its state within its kind's cycle);
//! - the two orthogonal cubes are one unordered pair of values over the 7 free squares
//!   (two cubes never share a square); `ortho_rank` ranks it;
//! - the diagonal cubes are an unordered pair over the `F = 7 − k` free squares the orthogonal
//!   cubes leave (`k` of them on the board), renumbered in order; `diag_rank` ranks it among the
//!   pairs for that `F`, and `ortho_offset` sums the counts of the orthogonal pairs before.

use std::sync::LazyLock;

use super::super::position::{Nana, SQUARES};
use super::super::types::{Hand, Kind, Piece, State};
use crate::core::color::{ByColor, Color};

/// Values a cube may take that are not on the board: Black's hand, White's hand, the box.
const OFF_BOARD: usize = 3;
/// The box value (a cube out of the game).
const BOX: u8 = 2;
/// Free squares when both kings stand on the board.
const FREE: usize = SQUARES - 2;

/// The ranks of unordered pairs of cube values over `F` free squares.
struct PairTable {
    /// Number of values: `3 + 8F`.
    values: usize,
    /// `rank[a * values + b]` for `a ≤ b`; `u32::MAX` for pairs sharing a square.
    rank: Vec<u32>,
    /// The pair of each rank.
    unrank: Vec<(u8, u8)>,
}

impl PairTable {
    fn new(free: usize) -> PairTable {
        let values = OFF_BOARD + 8 * free;
        let mut rank = vec![u32::MAX; values * values];
        let mut unrank = Vec::new();
        for a in 0..values {
            for b in a..values {
                if a >= OFF_BOARD && b >= OFF_BOARD && (a - OFF_BOARD) / 8 == (b - OFF_BOARD) / 8 {
                    continue;
                }
                rank[a * values + b] = unrank.len() as u32;
                unrank.push((a as u8, b as u8));
            }
        }
        PairTable {
            values,
            rank,
            unrank,
        }
    }

    #[inline(always)]
    fn rank(&self, a: u8, b: u8) -> u32 {
        let (a, b) = if a <= b { (a, b) } else { (b, a) };
        self.rank[a as usize * self.values + b as usize]
    }
}

/// The ranking tables (built once; see the module documentation).
pub struct Indexer {
    king_pairs: Vec<(u8, u8)>,
    king_pair_of: [[u8; SQUARES]; SQUARES],
    /// Pair tables for 0..=7 free squares.
    pairs: Vec<PairTable>,
    /// Start of each orthogonal pair's block of diagonal pairs; one more entry holds the total.
    ortho_offset: Vec<u32>,
    /// Cube placements per king pair.
    pub per_king_pair: u32,
    /// Number of indices.
    pub size: u32,
}

/// How many of a value pair stand on the board.
fn on_board(a: u8, b: u8) -> usize {
    (a as usize >= OFF_BOARD) as usize + (b as usize >= OFF_BOARD) as usize
}

/// The free square of a board value.
fn free_square(v: u8) -> usize {
    (v as usize - OFF_BOARD) / 8
}

fn adjacent(a: usize, b: usize) -> bool {
    let (fa, ra, fb, rb) = (a / 3, a % 3, b / 3, b % 3);
    fa.abs_diff(fb) <= 1 && ra.abs_diff(rb) <= 1
}

impl Indexer {
    fn new() -> Indexer {
        let mut king_pairs = Vec::new();
        let mut king_pair_of = [[u8::MAX; SQUARES]; SQUARES];
        for (b, row) in king_pair_of.iter_mut().enumerate() {
            for (w, slot) in row.iter_mut().enumerate() {
                if !adjacent(b, w) {
                    *slot = king_pairs.len() as u8;
                    king_pairs.push((b as u8, w as u8));
                }
            }
        }
        let pairs: Vec<PairTable> = (0..=FREE).map(PairTable::new).collect();
        let mut ortho_offset = Vec::with_capacity(pairs[FREE].unrank.len() + 1);
        let mut total = 0u32;
        for &(a, b) in &pairs[FREE].unrank {
            ortho_offset.push(total);
            total += pairs[FREE - on_board(a, b)].unrank.len() as u32;
        }
        ortho_offset.push(total);
        let size = u32::try_from(king_pairs.len() as u64 * total as u64).expect("index fits u32");
        Indexer {
            king_pairs,
            king_pair_of,
            pairs,
            ortho_offset,
            per_king_pair: total,
            size,
        }
    }

    /// The index of `pos`, which must have Black to move and both kings on the board.
    pub fn rank(&self, pos: &Nana) -> u32 {
        debug_assert!(pos.side == Color::Black);
        let bk = pos.kings[Color::Black]
            .expect("Black's king on the board")
            .index();
        let wk = pos.kings[Color::White]
            .expect("White's king on the board")
            .index();
        let kp = self.king_pair_of[bk][wk];
        debug_assert!(kp != u8::MAX, "kings side by side");
        let mut ortho = [BOX; 2];
        let mut diag = [BOX; 2];
        let (mut no, mut nd) = (0, 0);
        let mut diag_board = [(0usize, 0u8); 2];
        let mut ortho_mask = 0u32;
        let mut f = 0usize;
        for s in 0..SQUARES {
            if s == bk || s == wk {
                continue;
            }
            let p = pos.squares[s];
            if !p.is_none() {
                let st = p.state();
                let face = cube_face(st);
                let code = (4 * p.color().index() + face) as u8;
                if st.kind() == Kind::Orthogonal {
                    ortho[no] = (OFF_BOARD + 8 * f) as u8 + code;
                    no += 1;
                    ortho_mask |= 1 << f;
                } else {
                    diag_board[nd] = (f, code);
                    nd += 1;
                }
            }
            f += 1;
        }
        let mut nd_board = 0;
        for (slot, &(f, code)) in diag_board.iter().take(nd).enumerate() {
            let g = f - (ortho_mask & ((1 << f) - 1)).count_ones() as usize;
            diag[slot] = (OFF_BOARD + 8 * g) as u8 + code;
            nd_board += 1;
        }
        let mut nd = nd_board;
        for c in Color::ALL {
            let h = pos.hands[c];
            for _ in 0..h.count(Kind::Orthogonal) {
                ortho[no] = c.index() as u8;
                no += 1;
            }
            for _ in 0..h.count(Kind::Diagonal) {
                diag[nd] = c.index() as u8;
                nd += 1;
            }
        }
        let free = FREE - ortho_mask.count_ones() as usize;
        let orank = self.pairs[FREE].rank(ortho[0], ortho[1]);
        let drank = self.pairs[free].rank(diag[0], diag[1]);
        debug_assert!(orank != u32::MAX && drank != u32::MAX);
        kp as u32 * self.per_king_pair + self.ortho_offset[orank as usize] + drank
    }

    /// The position of index `idx` (Black to move).
    pub fn unrank(&self, idx: u32) -> Nana {
        let (squares, hands) = self.unrank_parts(idx);
        Nana::from_parts(squares, hands, Color::Black)
    }

    /// The board and hands of index `idx`.
    pub fn unrank_parts(&self, idx: u32) -> ([Piece; SQUARES], ByColor<Hand>) {
        let kp = (idx / self.per_king_pair) as usize;
        let rest = idx % self.per_king_pair;
        let orank = self.ortho_offset.partition_point(|&o| o <= rest) - 1;
        let drank = rest - self.ortho_offset[orank];
        let (bk, wk) = self.king_pairs[kp];
        let mut squares = [Piece::NONE; SQUARES];
        squares[bk as usize] = Piece::new(Color::Black, State::King);
        squares[wk as usize] = Piece::new(Color::White, State::King);
        let mut free_squares = [0usize; FREE];
        let mut n = 0;
        for s in 0..SQUARES {
            if s != bk as usize && s != wk as usize {
                free_squares[n] = s;
                n += 1;
            }
        }
        let mut hands: ByColor<Hand> = ByColor::default();
        let (oa, ob) = self.pairs[FREE].unrank[orank];
        let mut ortho_mask = 0u32;
        for v in [oa, ob] {
            if v as usize >= OFF_BOARD {
                ortho_mask |= 1 << free_square(v);
            }
        }
        // The free squares the orthogonal cubes leave, in order.
        let rest_squares: Vec<usize> = (0..FREE)
            .filter(|f| ortho_mask & (1 << f) == 0)
            .map(|f| free_squares[f])
            .collect();
        let free = rest_squares.len();
        let (da, db) = self.pairs[free].unrank[drank as usize];
        let mut place = |v: u8, kind: Kind, squares_of: &[usize]| {
            if (v as usize) < OFF_BOARD {
                if v != BOX {
                    hands.0[v as usize].0[kind.index()] += 1;
                }
            } else {
                let code = (v as usize - OFF_BOARD) % 8;
                let color = if code >= 4 {
                    Color::White
                } else {
                    Color::Black
                };
                let state = kind.states()[code % 4];
                squares[squares_of[free_square(v)]] = Piece::new(color, state);
            }
        };
        place(oa, Kind::Orthogonal, &free_squares);
        place(ob, Kind::Orthogonal, &free_squares);
        place(da, Kind::Diagonal, &rest_squares);
        place(db, Kind::Diagonal, &rest_squares);
        (squares, hands)
    }

    /// How many cubes of each kind (orthogonal, diagonal) are in play — on the board or in a hand —
    /// at index `idx`: the material class, which no move changes.
    pub fn material(&self, idx: u32) -> (u8, u8) {
        let rest = idx % self.per_king_pair;
        let orank = self.ortho_offset.partition_point(|&o| o <= rest) - 1;
        let drank = rest - self.ortho_offset[orank];
        let (oa, ob) = self.pairs[FREE].unrank[orank];
        let free = FREE - on_board(oa, ob);
        let (da, db) = self.pairs[free].unrank[drank as usize];
        let count = |a: u8, b: u8| (a != BOX) as u8 + (b != BOX) as u8;
        (count(oa, ob), count(da, db))
    }
}

/// The position of a cube face within its kind's cycle (0–3).
#[inline(always)]
fn cube_face(st: State) -> usize {
    match st.kind() {
        Kind::Orthogonal => st as usize - State::Rook as usize,
        _ => st as usize - State::Bishop as usize,
    }
}

/// The colour flip of `pos`: the board turned by 180°, colours and hands swapped, the other side to
/// move. It plays exactly as `pos` does with the players' roles exchanged.
pub fn flip(pos: &Nana) -> Nana {
    let mut squares = [Piece::NONE; SQUARES];
    for (s, &p) in pos.squares.iter().enumerate() {
        if !p.is_none() {
            squares[SQUARES - 1 - s] = Piece::new(!p.color(), p.state());
        }
    }
    let hands = ByColor([pos.hands[Color::White], pos.hands[Color::Black]]);
    Nana::from_parts(squares, hands, !pos.side)
}

/// The position as the table stores it: itself with Black to move, its flip with White to move.
pub fn oriented(pos: &Nana) -> Nana {
    match pos.side {
        Color::Black => pos.clone(),
        Color::White => flip(pos),
    }
}

/// The ranking tables, built on first use.
pub static INDEXER: LazyLock<Indexer> = LazyLock::new(Indexer::new);
