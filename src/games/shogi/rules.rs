//! Game-end rules of standard shogi: fourfold repetition with perpetual check, entering-king
//! declaration, and the move limit.

use super::Variant;
use super::position::Board;
use super::types::Kind;
use crate::core::color::Color;
use crate::core::game::Position;
use crate::core::repetition::{HistoryEntry, examine};

/// The `EnteringKingRule` option: when a player may declare a win with `bestmove win`.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub enum EnteringKingRule {
    /// CSA 27-point rule: 28 points for Black, 27 for White.
    #[default]
    CsaRule27,
    /// CSA 24-point rule as RULES.md fixes it: 31 points for either side to declare.
    CsaRule24,
    /// No declaration.
    NoEnteringKing,
}

impl EnteringKingRule {
    /// Parses the option value (case-insensitive).
    pub fn parse(s: &str) -> Option<EnteringKingRule> {
        match s.to_ascii_lowercase().as_str() {
            "csarule27" => Some(EnteringKingRule::CsaRule27),
            "csarule24" => Some(EnteringKingRule::CsaRule24),
            "noenteringking" => Some(EnteringKingRule::NoEnteringKing),
            _ => None,
        }
    }

    /// The option value as USI spells it.
    pub fn name(self) -> &'static str {
        match self {
            EnteringKingRule::CsaRule27 => "CSARule27",
            EnteringKingRule::CsaRule24 => "CSARule24",
            EnteringKingRule::NoEnteringKing => "NoEnteringKing",
        }
    }
}

/// How a game ended, from the point of view of the side to move in the final position.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Outcome {
    /// The game is drawn.
    Draw,
    /// The side to move has won.
    Win,
    /// The side to move has lost.
    Loss,
}

/// Judges the fourfold-repetition rule of standard shogi on a history whose last entry is the current
/// position: `None` when the position has not occurred four times.
pub fn sennichite(history: &[HistoryEntry]) -> Option<Outcome> {
    repetition_outcome(history, 4)
}

/// The repetition verdict once the current position has occurred `occurrences` times (4 for the game
/// rule; a search may judge at 2): a draw, unless one player checked with every move of the cycle,
/// in which case he loses. `None` when the position has occurred fewer times.
pub fn repetition_outcome(history: &[HistoryEntry], occurrences: usize) -> Option<Outcome> {
    let rep = examine(history, occurrences);
    if rep.occurrences < occurrences {
        return None;
    }
    Some(if rep.mover_checked_throughout {
        Outcome::Win
    } else if rep.side_to_move_checked_throughout {
        Outcome::Loss
    } else {
        Outcome::Draw
    })
}

impl<V: Variant> Board<V> {
    /// Declaration points of `color`: pieces in hand plus pieces in the enemy camp, king excluded;
    /// rook and bishop (promoted or not) 5, others 1. Also returns how many such pieces stand in camp.
    pub fn declaration_points(&self, color: Color) -> (u32, u32) {
        let t = V::tables();
        let camp = t.zone[color.index()] & self.color_bb(color);
        let big = |k: Kind| matches!(k.unpromoted(), Kind::Rook | Kind::Bishop);
        let mut points = 0;
        let mut in_camp = 0;
        for sq in camp {
            let k = self.piece_at(sq).kind();
            if k == Kind::King {
                continue;
            }
            in_camp += 1;
            points += if big(k) { 5 } else { 1 };
        }
        let hand = self.hand(color);
        for k in Kind::HAND {
            points += hand.count(k) as u32 * if big(k) { 5 } else { 1 };
        }
        (points, in_camp)
    }

    /// True when the side to move may declare a win under `rule`: king in the enemy camp and not in
    /// check, at least 10 other pieces in the camp, and enough points.
    pub fn can_declare(&self, rule: EnteringKingRule) -> bool {
        let us = self.side_to_move();
        let needed = match (rule, us) {
            (EnteringKingRule::NoEnteringKing, _) => return false,
            (EnteringKingRule::CsaRule27, Color::Black) => 28,
            (EnteringKingRule::CsaRule27, Color::White) => 27,
            (EnteringKingRule::CsaRule24, _) => 31,
        };
        let Some(k) = self.king(us) else {
            return false;
        };
        if !V::tables().zone[us.index()].has(k) || self.in_check() {
            return false;
        }
        let (points, in_camp) = self.declaration_points(us);
        in_camp >= 10 && points >= needed
    }
}
