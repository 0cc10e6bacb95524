//! Attack tables of the shogi family for one board geometry (9×9 shogi, 5×5 minishogi).

use crate::core::bitboard::Bitboard;
use crate::core::color::Color;
use crate::core::square::{Delta, Geometry, Lines, MAX_SQUARES, Square};

use super::eval::{EvalWeights, placement_value};
use super::types::{KIND_COUNT, Kind};

/// Step patterns from Black's point of view (rank delta −1 is forward); White's are mirrored.
const PAWN_STEPS: [Delta; 1] = [(0, -1)];
const KNIGHT_STEPS: [Delta; 2] = [(1, -2), (-1, -2)];
const SILVER_STEPS: [Delta; 5] = [(0, -1), (1, -1), (-1, -1), (1, 1), (-1, 1)];
const GOLD_STEPS: [Delta; 6] = [(0, -1), (1, -1), (-1, -1), (1, 0), (-1, 0), (0, 1)];
const KING_STEPS: [Delta; 8] = [
    (0, -1),
    (1, -1),
    (-1, -1),
    (1, 0),
    (-1, 0),
    (0, 1),
    (1, 1),
    (-1, 1),
];

/// Precomputed attacks and masks of one shogi-family board.
pub struct Tables {
    /// The board's shape.
    pub geo: Geometry,
    /// Rays and between-squares for the sliders.
    pub lines: Lines,
    /// Pawn attacks, `[color][square]`.
    pub pawn: [[Bitboard; MAX_SQUARES]; 2],
    /// Knight attacks, `[color][square]`.
    pub knight: [[Bitboard; MAX_SQUARES]; 2],
    /// Silver attacks, `[color][square]`.
    pub silver: [[Bitboard; MAX_SQUARES]; 2],
    /// Gold (and promoted minor piece) attacks, `[color][square]`.
    pub gold: [[Bitboard; MAX_SQUARES]; 2],
    /// King attacks, `[square]`.
    pub king: [Bitboard; MAX_SQUARES],
    /// Rook attacks on an empty board, `[square]`.
    pub rook_empty: [Bitboard; MAX_SQUARES],
    /// Bishop attacks on an empty board, `[square]`.
    pub bishop_empty: [Bitboard; MAX_SQUARES],
    /// Every square of the board.
    pub board: Bitboard,
    /// Each player's promotion zone.
    pub zone: [Bitboard; 2],
    /// Each player's promotion zone grown by one rank towards him (where a promotion threatens).
    pub near_zone: [Bitboard; 2],
    /// The squares within two king steps of each square.
    pub king_zone: [Bitboard; MAX_SQUARES],
    /// Where a piece can stand to attack a square next to a given one, on an empty board.
    pub near_reach: NearReach,
    /// Each player's last rank (no pawn or lance may stand there unpromoted).
    pub last_rank: [Bitboard; 2],
    /// Each player's last two ranks (no knight may stand there unpromoted).
    pub last_two: [Bitboard; 2],
    /// `forced[color][kind]`: destinations where that unpromoted kind must promote.
    pub forced: [[Bitboard; 8]; 2],
    /// Each file's squares, by zero-based file.
    pub files: [Bitboard; 9],
    /// `placement[color][kind][square]`: what a piece earns its owner by standing there (material,
    /// advance, promotion threat), kept up to date in the position as pieces move.
    pub placement: [[[i32; MAX_SQUARES]; KIND_COUNT]; 2],
}

/// For each square, the squares from which a piece attacks a square next to it on an empty
/// board, by the kind of move (stepping pieces other than the knight stand within two king steps:
/// [`Tables::king_zone`]); what the mate-in-one test reads to pick the pieces that can cover a
/// king's neighbours.
pub struct NearReach {
    /// `knight[color][sq]`: where a knight of `color` stands.
    pub knight: [[Bitboard; MAX_SQUARES]; 2],
    /// `lance[color][sq]`: where a lance of `color` stands.
    pub lance: [[Bitboard; MAX_SQUARES]; 2],
    /// `rook[sq]`: where a rook (or dragon) stands.
    pub rook: [Bitboard; MAX_SQUARES],
    /// `bishop[sq]`: where a bishop (or horse) stands.
    pub bishop: [Bitboard; MAX_SQUARES],
}

fn mirrored(steps: &[Delta], color: Color) -> Vec<Delta> {
    steps
        .iter()
        .map(|&(f, r)| match color {
            Color::Black => (f, r),
            Color::White => (-f, -r),
        })
        .collect()
}

impl Tables {
    /// Builds the tables of a `geo` board whose promotion zone is `zone_ranks` deep, with the
    /// piece placement values of `weights`.
    pub fn new(geo: Geometry, zone_ranks: u8, weights: &EvalWeights) -> Tables {
        let empty = [Bitboard::EMPTY; MAX_SQUARES];
        let mut t = Tables {
            geo,
            lines: Lines::new(geo),
            pawn: [empty; 2],
            knight: [empty; 2],
            silver: [empty; 2],
            gold: [empty; 2],
            king: empty,
            rook_empty: empty,
            bishop_empty: empty,
            board: geo.all(),
            zone: [Bitboard::EMPTY; 2],
            near_zone: [Bitboard::EMPTY; 2],
            king_zone: empty,
            near_reach: NearReach {
                knight: [empty; 2],
                lance: [empty; 2],
                rook: empty,
                bishop: empty,
            },
            last_rank: [Bitboard::EMPTY; 2],
            last_two: [Bitboard::EMPTY; 2],
            forced: [[Bitboard::EMPTY; 8]; 2],
            files: [Bitboard::EMPTY; 9],
            placement: [[[0; MAX_SQUARES]; KIND_COUNT]; 2],
        };
        for c in Color::ALL {
            let ci = c.index();
            for s in 0..geo.square_count() as u8 {
                let sq = Square(s);
                let i = sq.index();
                t.pawn[ci][i] = geo.steps(sq, &mirrored(&PAWN_STEPS, c));
                t.knight[ci][i] = geo.steps(sq, &mirrored(&KNIGHT_STEPS, c));
                t.silver[ci][i] = geo.steps(sq, &mirrored(&SILVER_STEPS, c));
                t.gold[ci][i] = geo.steps(sq, &mirrored(&GOLD_STEPS, c));
            }
            let far = |n: u8| -> Bitboard {
                (0..n).fold(Bitboard::EMPTY, |b, k| {
                    let rank = match c {
                        Color::Black => k,
                        Color::White => geo.ranks - 1 - k,
                    };
                    b | geo.rank_mask(rank)
                })
            };
            t.zone[ci] = far(zone_ranks);
            t.near_zone[ci] = far(zone_ranks + 1);
            t.last_rank[ci] = far(1);
            t.last_two[ci] = far(2);
            t.forced[ci][Kind::Pawn.index()] = t.last_rank[ci];
            t.forced[ci][Kind::Lance.index()] = t.last_rank[ci];
            t.forced[ci][Kind::Knight.index()] = t.last_two[ci];
        }
        for s in 0..geo.square_count() as u8 {
            let sq = Square(s);
            let i = sq.index();
            t.king[i] = geo.steps(sq, &KING_STEPS);
            t.rook_empty[i] = (0..4).fold(Bitboard::EMPTY, |b, d| b | t.lines.rays[d][i]);
            t.bishop_empty[i] = (4..8).fold(Bitboard::EMPTY, |b, d| b | t.lines.rays[d][i]);
        }
        for s in 0..geo.square_count() {
            t.king_zone[s] = t.king[s];
            for n in t.king[s] {
                t.king_zone[s] |= t.king[n.index()];
            }
        }
        for s in 0..geo.square_count() {
            let r = &mut t.near_reach;
            for n in t.king[s] {
                let i = n.index();
                for c in Color::ALL {
                    // A piece of `c` attacks `n` from where the opponent's same piece would be
                    // attacked by one on `n`.
                    let (ci, oi) = (c.index(), (!c).index());
                    r.knight[ci][s] |= t.knight[oi][i];
                    r.lance[ci][s] |= t.lines.rays[oi][i];
                }
                r.rook[s] |= t.rook_empty[i];
                r.bishop[s] |= t.bishop_empty[i];
            }
        }
        for f in 0..geo.files {
            t.files[f as usize] = geo.file_mask(f);
        }
        for c in Color::ALL {
            for kind in Kind::ALL {
                for s in 0..geo.square_count() as u8 {
                    t.placement[c.index()][kind.index()][s as usize] =
                        placement_value(weights, geo, t.near_zone[c.index()], c, kind, Square(s));
                }
            }
        }
        t
    }

    /// Lance attacks of `color` from `sq` with occupancy `occ`.
    #[inline(always)]
    pub fn lance(&self, color: Color, sq: Square, occ: Bitboard) -> Bitboard {
        self.lines.slide(color.index(), sq, occ)
    }

    /// Bishop attacks from `sq` with occupancy `occ`.
    #[inline(always)]
    pub fn bishop(&self, sq: Square, occ: Bitboard) -> Bitboard {
        self.lines.slide(4, sq, occ)
            | self.lines.slide(5, sq, occ)
            | self.lines.slide(6, sq, occ)
            | self.lines.slide(7, sq, occ)
    }

    /// Rook attacks from `sq` with occupancy `occ`.
    #[inline(always)]
    pub fn rook(&self, sq: Square, occ: Bitboard) -> Bitboard {
        self.lines.slide(0, sq, occ)
            | self.lines.slide(1, sq, occ)
            | self.lines.slide(2, sq, occ)
            | self.lines.slide(3, sq, occ)
    }

    /// Attacks of a piece of `kind` and `color` standing on `sq`, with occupancy `occ`.
    #[inline(always)]
    pub fn attacks(&self, kind: Kind, color: Color, sq: Square, occ: Bitboard) -> Bitboard {
        let c = color.index();
        let i = sq.index();
        match kind {
            Kind::Pawn => self.pawn[c][i],
            Kind::Lance => self.lance(color, sq, occ),
            Kind::Knight => self.knight[c][i],
            Kind::Silver => self.silver[c][i],
            Kind::Gold | Kind::ProPawn | Kind::ProLance | Kind::ProKnight | Kind::ProSilver => {
                self.gold[c][i]
            }
            Kind::King => self.king[i],
            Kind::Bishop => self.bishop(sq, occ),
            Kind::Rook => self.rook(sq, occ),
            Kind::Horse => self.bishop(sq, occ) | self.king[i],
            Kind::Dragon => self.rook(sq, occ) | self.king[i],
        }
    }
}
