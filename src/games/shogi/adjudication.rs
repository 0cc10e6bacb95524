//! What a match runner asks of the shogi games beyond their rules ([`MatchSupport`]): CSA
//! notation (standard shogi), a material balance for random openings, and the 24-point impasse.

use super::position::Board;
use super::record;
use super::types::Kind;
use super::{Shogi, Standard, Variant};
use crate::core::color::Color;
use crate::core::game::Position;
use crate::core::moves::Move;
use crate::games::info::MatchSupport;

/// Piece values in pawns for the opening balance check (promoted pieces as their base piece).
fn value(kind: Kind) -> i32 {
    match kind.unpromoted() {
        Kind::Pawn => 1,
        Kind::Lance => 3,
        Kind::Knight => 4,
        Kind::Silver => 5,
        Kind::Gold => 6,
        Kind::Bishop => 8,
        Kind::Rook => 10,
        _ => 0,
    }
}

/// Material of the side to move minus the opponent's, board and hand, in pawns.
pub fn material_balance<V: Variant>(pos: &Board<V>) -> i32 {
    let us = pos.side_to_move();
    pos.piece_sum(us, value) - pos.piece_sum(!us, value)
}

impl MatchSupport for Shogi {
    fn csa_position(&self) -> Option<String> {
        Some(record::csa_position(self))
    }

    fn csa_move(&self, mv: Move) -> Option<String> {
        Some(record::csa_move(self, mv))
    }

    fn material_balance(&self) -> Option<i32> {
        Some(material_balance::<Standard>(self))
    }

    fn impasse_24(&self) -> Option<Option<Color>> {
        let geo = Standard::GEOMETRY;
        let bk = self.king(Color::Black)?;
        let wk = self.king(Color::White)?;
        if geo.rank(bk) > 2 || geo.rank(wk) < 6 {
            return None;
        }
        let b = self.declaration_points(Color::Black).0;
        let w = self.declaration_points(Color::White).0;
        Some(match (b >= 24, w >= 24) {
            (true, false) => Some(Color::Black),
            (false, true) => Some(Color::White),
            _ => None,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::minishogi::Minishogi;

    #[test]
    fn balance_and_impasse() {
        assert_eq!(Shogi::startpos().material_balance(), Some(0));
        assert_eq!(Minishogi::startpos().material_balance(), Some(0));
        assert_eq!(Shogi::startpos().impasse_24(), None);
        let p = Shogi::from_sfen("4K4/9/9/9/9/9/9/9/4k4 b RB2G2S2N2L9Prb2g2s2n2l9p 1").unwrap();
        // Black: hand R B 5+5, 2G 2S 2N 2L 9P = 17: 27 points; White the same: a draw.
        assert_eq!(p.impasse_24(), Some(None));
        let p = Shogi::from_sfen("4K4/9/9/9/9/9/9/9/4k4 b 2R2B2G2S2N2L9P2g2s2n2l9p 1").unwrap();
        assert_eq!(p.impasse_24(), Some(Some(Color::Black)));
    }
}
