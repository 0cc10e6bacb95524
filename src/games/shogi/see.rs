//! Static exchange evaluation for the shogi family: does a move win at least a given amount of
//! material once every capture on its destination square has been played out, cheapest first?

use super::Variant;
use super::position::Board;
use super::types::{Kind, PASS};
use crate::core::bitboard::Bitboard;
use crate::core::color::Color;
use crate::core::moves::Move;
use crate::core::square::Square;

/// Kinds in the order of increasing value, for picking the least valuable attacker.
const CHEAPEST_FIRST: [Kind; 14] = [
    Kind::Pawn,
    Kind::Lance,
    Kind::Knight,
    Kind::ProPawn,
    Kind::ProLance,
    Kind::ProKnight,
    Kind::Silver,
    Kind::ProSilver,
    Kind::Gold,
    Kind::Bishop,
    Kind::Rook,
    Kind::Horse,
    Kind::Dragon,
    Kind::King,
];

impl<V: Variant> Board<V> {
    /// True when `mv` wins at least `threshold` centipawns of material by static exchange.
    pub fn see_ge(&self, mv: Move, threshold: i32) -> bool {
        if mv == PASS {
            return threshold <= 0;
        }
        let to = mv.to();
        let mut occ = self.occupied();
        let (captured, moved) = if mv.is_drop() {
            (0, Kind::from_code(mv.drop_piece()))
        } else {
            let moving = self.piece_at(mv.from()).kind();
            occ = occ.without(mv.from());
            let target = self.piece_at(to);
            let captured = if target.is_none() {
                0
            } else {
                Self::piece_value(target.kind())
            };
            let after = if mv.is_promotion() {
                moving.promoted()
            } else {
                moving
            };
            (captured, after)
        };
        let mut swap = captured - threshold;
        if mv.is_promotion() {
            swap += Self::piece_value(moved) - Self::piece_value(moved.unpromoted());
        }
        if swap < 0 {
            return false;
        }
        swap = Self::piece_value(moved) - swap;
        if swap <= 0 {
            return true;
        }
        occ = occ.with(to);
        let mut side = self.side;
        let mut result = true;
        // Nothing of the opponent's takes back: the move keeps what it won (the usual case of
        // a quiet move, found without tracing our own attackers).
        let replies = self.attackers_to(to, !side, occ);
        if replies.is_empty() {
            return true;
        }
        // Attackers of both sides, kept up to date as the exchange uncovers sliders behind.
        let mut attackers = replies | self.attackers_to(to, side, occ);
        loop {
            side = !side;
            let mine = attackers & occ & self.by_color[side];
            if mine.is_empty() {
                break;
            }
            result = !result;
            let (kind, from) = self.cheapest(mine, side);
            if kind == Kind::King {
                // The king may only take if nothing defends the square any more.
                if (attackers & occ & self.by_color[!side]).any() {
                    result = !result;
                }
                break;
            }
            swap = Self::piece_value(kind) - swap;
            if swap < result as i32 {
                break;
            }
            occ = occ.without(from);
            // Only a piece on a line through the square can uncover a slider behind it.
            let t = V::tables();
            if t.bishop_empty[to.index()].has(from) {
                let k = &self.by_kind;
                attackers |= t.bishop(to, occ) & (k[Kind::Bishop.index()] | k[Kind::Horse.index()]);
            } else if t.rook_empty[to.index()].has(from) {
                attackers |= self.rook_line_attackers(to, occ);
            }
        }
        result
    }

    /// Rooks, dragons and lances of both sides attacking `sq` along its rank and file.
    #[inline]
    fn rook_line_attackers(&self, sq: Square, occ: Bitboard) -> Bitboard {
        let t = V::tables();
        let k = &self.by_kind;
        let lances = k[Kind::Lance.index()];
        (t.rook(sq, occ) & (k[Kind::Rook.index()] | k[Kind::Dragon.index()]))
            | (t.lance(Color::White, sq, occ) & lances & self.by_color[Color::Black])
            | (t.lance(Color::Black, sq, occ) & lances & self.by_color[Color::White])
    }

    fn cheapest(&self, attackers: Bitboard, side: Color) -> (Kind, Square) {
        for kind in CHEAPEST_FIRST {
            let b = attackers & self.pieces(side, kind);
            if b.any() {
                return (kind, b.lsb());
            }
        }
        unreachable!("attackers is not empty")
    }
}

/// What the side to move needs to tell at once whether a move gives check.
#[derive(Clone, Copy, Debug)]
pub struct CheckInfo {
    /// The enemy king, if there is one.
    king: Option<Square>,
    /// `squares[kind]`: where a piece of that kind (of the side to move) would attack the king.
    squares: [Bitboard; super::types::KIND_COUNT],
    /// Pieces of the side to move whose departure uncovers an attack on the king.
    discoverers: Bitboard,
}

impl<V: Variant> Board<V> {
    /// The check information of the side to move.
    pub fn check_info(&self) -> CheckInfo {
        let us = self.side;
        let them = !us;
        let mut ci = CheckInfo {
            king: self.king(them),
            squares: [Bitboard::EMPTY; super::types::KIND_COUNT],
            discoverers: Bitboard::EMPTY,
        };
        let Some(ek) = ci.king else {
            return ci;
        };
        let t = V::tables();
        let occ = self.occupied();
        let (c, k) = (them.index(), ek.index());
        let bishop = t.bishop(ek, occ);
        let rook = t.rook(ek, occ);
        let gold = t.gold[c][k];
        let sq = &mut ci.squares;
        sq[Kind::Pawn.index()] = t.pawn[c][k];
        sq[Kind::Lance.index()] = t.lance(them, ek, occ);
        sq[Kind::Knight.index()] = t.knight[c][k];
        sq[Kind::Silver.index()] = t.silver[c][k];
        sq[Kind::Bishop.index()] = bishop;
        sq[Kind::Rook.index()] = rook;
        for kind in [
            Kind::Gold,
            Kind::ProPawn,
            Kind::ProLance,
            Kind::ProKnight,
            Kind::ProSilver,
        ] {
            sq[kind.index()] = gold;
        }
        sq[Kind::Horse.index()] = bishop | t.king[k];
        sq[Kind::Dragon.index()] = rook | t.king[k];
        let snipers = (t.rook_empty[k]
            & (self.pieces(us, Kind::Rook) | self.pieces(us, Kind::Dragon)))
            | (t.bishop_empty[k] & (self.pieces(us, Kind::Bishop) | self.pieces(us, Kind::Horse)))
            | (t.lines.rays[them.index()][k] & self.pieces(us, Kind::Lance));
        for s in snipers {
            let blockers = t.lines.between(ek, s) & occ;
            if blockers.any() && !blockers.more_than_one() {
                ci.discoverers |= blockers & self.color_bb(us);
            }
        }
        ci
    }

    /// True when the legal move `mv` gives check (directly or by discovery).
    pub fn gives_check(&self, ci: &CheckInfo, mv: Move) -> bool {
        let Some(ek) = ci.king else {
            return false;
        };
        if mv == PASS {
            return false;
        }
        let to = mv.to();
        if mv.is_drop() {
            return ci.squares[mv.drop_piece() as usize].has(to);
        }
        let from = mv.from();
        let kind = self.piece_at(from).kind();
        let kind = if mv.is_promotion() {
            kind.promoted()
        } else {
            kind
        };
        if ci.squares[kind.index()].has(to) {
            return true;
        }
        if ci.discoverers.has(from) {
            let lines = &V::tables().lines;
            let aligned = lines.between(ek, to).has(from)
                || lines.between(ek, from).has(to)
                || lines.between(from, to).has(ek);
            return !aligned;
        }
        false
    }
}
