//! What the mate solver needs from a game beyond its rules: the attacker's moves, and the keys and
//! hands of its table's hand dominance. A game implements it in its own folder, with the defaults
//! where they suit it.

use crate::core::color::Color;
use crate::core::game::Position;
use crate::core::moves::{GameMove, ListStore, MoveList};

/// A game the mate solver can solve (`go mate`, `tsubame mate`).
pub trait MateGame: Position {
    /// True when a forced win (`go mate`) must check with every attacker move (tsume shogi);
    /// false where it is any forced win that leaves the opponent without a legal move (Give
    /// and Take: every enemy piece taken or blocked), whose attacker may play any move
    /// ([`MateGame::checking_moves`] then gives them all).
    const MATE_BY_CHECKS: bool = true;

    /// Appends the legal moves that give check (the attacker's moves in a mate search). The default
    /// plays every legal move and keeps those after which the opponent is in check.
    fn checking_moves(&self, list: &mut MoveList<Self::Move>) {
        let mut all = MoveList::<Self::Move>::new();
        self.legal_moves(&mut all);
        for &mv in all.iter() {
            let mut next = self.clone();
            next.play(mv);
            if next.in_check() {
                list.push(mv);
            }
        }
    }

    /// The position's key without either hand (board and side to move), for the mate solver's hand
    /// dominance. Must equal [`Position::key`] in games whose [`MateGame::packed_hand`] is always 0.
    fn board_key(&self) -> u64 {
        self.key()
    }

    /// `color`'s hand packed one byte per kind (each count below 128), for the mate solver's hand
    /// dominance: with the same board, a player holding at least the pieces of another hand is at
    /// least as well off. The default 0 (no dominance) suits games where that does not hold (nana
    /// shogi: mating with pieces in hand is illegal).
    fn packed_hand(&self, _color: Color) -> u64 {
        0
    }

    /// True when the side to move is in check from a distance, so that a drop could block it. The
    /// mate solver's proof pieces use it; the default `true` is always safe.
    fn check_is_interposable(&self) -> bool {
        true
    }

    /// The number of legal moves, counting all drops onto one square as one move: the mate
    /// solver's first estimate of how hard a check is to prove (interpositions are much alike).
    fn count_replies_merging_drops(&self) -> usize {
        let mut list = MoveList::<Self::Move>::new();
        self.legal_moves(&mut list);
        let mut squares = 0u128;
        let mut n = 0;
        for mv in list.iter() {
            if mv.is_drop() {
                let bit = 1u128 << (mv.to_index() & 127);
                if squares & bit == 0 {
                    squares |= bit;
                    n += 1;
                }
            } else {
                n += 1;
            }
        }
        n
    }
}
