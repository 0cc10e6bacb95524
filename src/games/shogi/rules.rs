//! Game-end rules of standard shogi: fourfold repetition with perpetual check, and the
//! entering-king declaration with its rule option (`EnteringKingRule`).

use super::Variant;
use super::position::Board;
use super::types::Kind;
use crate::core::color::Color;
use crate::core::game::Position;
use crate::core::repetition::{HistoryEntry, Repetition, examine};
use crate::core::rules::{EndReason, GameRules, OptionKind, Outcome, RuleOption, Verdict, choice};

/// `EnteringKingRule`: when a shogi player may declare a win with `bestmove win`.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default, Hash)]
pub enum EnteringKingRule {
    /// CSA 27-point rule: 28 points for Black, 27 for White.
    #[default]
    CsaRule27,
    /// CSA 24-point rule as docs/rules.md fixes it: 31 points for either side to declare.
    CsaRule24,
    /// No declaration.
    NoEnteringKing,
}

/// The values of `EnteringKingRule`.
pub const ENTERING_KING_CHOICES: [(&str, EnteringKingRule); 3] = [
    ("CSARule27", EnteringKingRule::CsaRule27),
    ("CSARule24", EnteringKingRule::CsaRule24),
    ("NoEnteringKing", EnteringKingRule::NoEnteringKing),
];

/// Standard shogi's rule options.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default, Hash)]
pub struct ShogiRules {
    /// `EnteringKingRule`: the entering-king declaration rule.
    pub entering_king: EnteringKingRule,
}

impl GameRules for ShogiRules {
    const OPTIONS: &'static [RuleOption] = &[RuleOption {
        name: "EnteringKingRule",
        default: ENTERING_KING_CHOICES[0].0,
        kind: OptionKind::Combo {
            choices: &[
                ENTERING_KING_CHOICES[0].0,
                ENTERING_KING_CHOICES[1].0,
                ENTERING_KING_CHOICES[2].0,
            ],
        },
    }];

    fn set(&mut self, name: &str, value: &str) -> Result<bool, String> {
        if !name.eq_ignore_ascii_case("EnteringKingRule") {
            return Ok(false);
        }
        self.entering_king = choice(name, value, &ENTERING_KING_CHOICES)?;
        Ok(true)
    }
}

/// Judges a repetition of a shogi-family game: if the current position has occurred `occurrences`
/// times, a player who checked with every move of the cycle loses; otherwise `quiet` gives the
/// verdict (for the side to move).
pub fn judge_repetition(
    history: &[HistoryEntry],
    occurrences: usize,
    quiet: impl FnOnce(&Repetition) -> Outcome,
) -> Option<Verdict> {
    let rep = examine(history, occurrences);
    if rep.occurrences < occurrences {
        return None;
    }
    Some(if rep.mover_checked_throughout {
        Verdict {
            outcome: Outcome::Win,
            reason: EndReason::PerpetualCheck,
        }
    } else if rep.side_to_move_checked_throughout {
        Verdict {
            outcome: Outcome::Loss,
            reason: EndReason::PerpetualCheck,
        }
    } else {
        Verdict {
            outcome: quiet(&rep),
            reason: EndReason::Repetition,
        }
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
    pub fn declaration_allowed(&self, rule: EnteringKingRule) -> bool {
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
