//! How games end: the verdict types shared by every game, and the rule options (USI options) that
//! change them.

/// The result of a finished game from the point of view of the side to move in its final position.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
pub enum Outcome {
    /// The side to move has won.
    Win,
    /// The side to move has lost.
    Loss,
    /// Nobody won.
    Draw,
}

impl Outcome {
    /// The same result seen by the other player.
    pub fn flip(self) -> Outcome {
        match self {
            Outcome::Win => Outcome::Loss,
            Outcome::Loss => Outcome::Win,
            Outcome::Draw => Outcome::Draw,
        }
    }
}

/// Why a game ended.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
pub enum EndReason {
    /// The side to move has no legal move (checkmate or stalemate: a loss in every game here).
    NoLegalMove,
    /// The same position occurred the number of times the rule asks for.
    Repetition,
    /// A repetition in which one player checked with every move: he loses.
    PerpetualCheck,
    /// Minishogi: both kings reached their last rank (jishogi).
    Jishogi,
    /// The `MaxMovesToDraw` limit was reached.
    MoveLimit,
}

/// A game-end verdict: who won (from the side to move's view) and why.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
pub struct Verdict {
    /// The result for the side to move.
    pub outcome: Outcome,
    /// What ended the game.
    pub reason: EndReason,
}

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

/// The rule options of all games; each game reads the ones that concern it.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default, Hash)]
pub struct RuleOptions {
    /// Shogi: entering-king declaration rule.
    pub entering_king: EnteringKingRule,
    /// Plies after which the game is drawn (0: no limit).
    pub max_moves_to_draw: u32,
    /// Minishogi: repetition rule.
    pub minishogi_repetition: MiniRepetition,
    /// Minishogi: jishogi rule.
    pub minishogi_jishogi: MiniJishogi,
    /// Minishogi: moves Black makes in a row at the start of a game (0: none; 2 or 3 for the
    /// handicap levels 2 and 6), the giver passing in between.
    pub minishogi_extra_moves: u8,
}

/// Reads a combo value from a list of `(name, value)` pairs, ignoring case.
pub fn parse_choice<T: Copy>(text: &str, choices: &[(&str, T)]) -> Option<T> {
    choices
        .iter()
        .find(|(name, _)| name.eq_ignore_ascii_case(text))
        .map(|&(_, v)| v)
}

/// The values of `EnteringKingRule`.
pub const ENTERING_KING_CHOICES: [(&str, EnteringKingRule); 3] = [
    ("CSARule27", EnteringKingRule::CsaRule27),
    ("CSARule24", EnteringKingRule::CsaRule24),
    ("NoEnteringKing", EnteringKingRule::NoEnteringKing),
];

/// The values of `MinishogiRepetition`.
pub const MINI_REPETITION_CHOICES: [(&str, MiniRepetition); 3] = [
    ("initiator", MiniRepetition::Initiator),
    ("sente-loses", MiniRepetition::SenteLoses),
    ("first-mover-loses", MiniRepetition::FirstMoverLoses),
];

/// The values of `MinishogiExtraMoves`.
pub const MINI_EXTRA_MOVES_CHOICES: [(&str, u8); 3] = [("0", 0), ("2", 2), ("3", 3)];

/// The values of `MinishogiJishogi`.
pub const MINI_JISHOGI_CHOICES: [(&str, MiniJishogi); 2] =
    [("draw", MiniJishogi::Draw), ("count", MiniJishogi::Count)];
