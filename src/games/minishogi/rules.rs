//! Minishogi's rule options: who loses a repetition (`MinishogiRepetition`), what jishogi gives
//! (`MinishogiJishogi`), and the extra-move handicaps (`MinishogiExtraMoves`).

use crate::core::rules::{GameRules, OptionKind, RuleOption, choice};

/// `MinishogiRepetition`: who loses a minishogi repetition without perpetual check.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default, Hash)]
pub enum MiniRepetition {
    /// The player to move in the repeated position loses (he started the cycle).
    #[default]
    Initiator,
    /// Black loses.
    SenteLoses,
    /// The player who made the first move of the game loses.
    FirstMoverLoses,
}

/// `MinishogiJishogi`: what happens when both minishogi kings stand on their last rank.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default, Hash)]
pub enum MiniJishogi {
    /// A draw.
    #[default]
    Draw,
    /// Piece points decide: fewer than 11 loses, 11–11 draws.
    Count,
}

/// The values of `MinishogiRepetition`.
pub const MINI_REPETITION_CHOICES: [(&str, MiniRepetition); 3] = [
    ("initiator", MiniRepetition::Initiator),
    ("sente-loses", MiniRepetition::SenteLoses),
    ("first-mover-loses", MiniRepetition::FirstMoverLoses),
];

/// The values of `MinishogiJishogi`.
pub const MINI_JISHOGI_CHOICES: [(&str, MiniJishogi); 2] =
    [("draw", MiniJishogi::Draw), ("count", MiniJishogi::Count)];

/// The values of `MinishogiExtraMoves`.
pub const MINI_EXTRA_MOVES_CHOICES: [(&str, u8); 3] = [("0", 0), ("2", 2), ("3", 3)];

/// Minishogi's rule options.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default, Hash)]
pub struct MiniRules {
    /// `MinishogiRepetition`: the repetition rule.
    pub repetition: MiniRepetition,
    /// `MinishogiJishogi`: the jishogi rule.
    pub jishogi: MiniJishogi,
    /// `MinishogiExtraMoves`: moves Black makes in a row at the start of a game (0: none; 2 or 3
    /// for the handicap levels 2 and 6), the giver passing in between.
    pub extra_moves: u8,
}

impl GameRules for MiniRules {
    const OPTIONS: &'static [RuleOption] = &[
        RuleOption {
            name: "MinishogiRepetition",
            default: MINI_REPETITION_CHOICES[0].0,
            kind: OptionKind::Combo {
                choices: &[
                    MINI_REPETITION_CHOICES[0].0,
                    MINI_REPETITION_CHOICES[1].0,
                    MINI_REPETITION_CHOICES[2].0,
                ],
            },
        },
        RuleOption {
            name: "MinishogiJishogi",
            default: MINI_JISHOGI_CHOICES[0].0,
            kind: OptionKind::Combo {
                choices: &[MINI_JISHOGI_CHOICES[0].0, MINI_JISHOGI_CHOICES[1].0],
            },
        },
        RuleOption {
            name: "MinishogiExtraMoves",
            default: MINI_EXTRA_MOVES_CHOICES[0].0,
            kind: OptionKind::Combo {
                choices: &[
                    MINI_EXTRA_MOVES_CHOICES[0].0,
                    MINI_EXTRA_MOVES_CHOICES[1].0,
                    MINI_EXTRA_MOVES_CHOICES[2].0,
                ],
            },
        },
    ];

    fn set(&mut self, name: &str, value: &str) -> Result<bool, String> {
        match name.to_ascii_lowercase().as_str() {
            "minishogirepetition" => {
                self.repetition = choice(name, value, &MINI_REPETITION_CHOICES)?
            }
            "minishogijishogi" => self.jishogi = choice(name, value, &MINI_JISHOGI_CHOICES)?,
            "minishogiextramoves" => {
                self.extra_moves = choice(name, value, &MINI_EXTRA_MOVES_CHOICES)?
            }
            _ => return Ok(false),
        }
        Ok(true)
    }
}
