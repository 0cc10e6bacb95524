//! How games end: the verdict types shared by every game, and the generic frame of the rule
//! options (USI options) that change them. Each game owns its own rule options (a [`GameRules`]
//! type in its folder); core only knows the move limit that applies to every game.

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
    /// An ending of the game's own rules that the position alone decides, under the name the game
    /// gives it ([`crate::core::game::Position::special_end`]).
    Special(&'static str),
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

/// How a rule option is declared to a GUI (`option name … type …` in the `usi` answer).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum OptionKind {
    /// `type combo`: one of `choices`.
    Combo {
        /// The values, as the GUI shows and sends them.
        choices: &'static [&'static str],
    },
    /// `type spin`: a whole number from `min` to `max`.
    Spin {
        /// The smallest value.
        min: u64,
        /// The largest value.
        max: u64,
    },
}

/// A game's rule option as the USI `usi` answer declares it.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct RuleOption {
    /// The option's name (`setoption name …`).
    pub name: &'static str,
    /// Its default value, as text.
    pub default: &'static str,
    /// Its type and values.
    pub kind: OptionKind,
}

impl RuleOption {
    /// The option's `option name …` line for the `usi` answer.
    pub fn declaration(&self) -> String {
        let (name, default) = (self.name, self.default);
        match self.kind {
            OptionKind::Combo { choices } => {
                let vars: String = choices.iter().map(|v| format!(" var {v}")).collect();
                format!("option name {name} type combo default {default}{vars}")
            }
            OptionKind::Spin { min, max } => {
                format!("option name {name} type spin default {default} min {min} max {max}")
            }
        }
    }
}

/// The rule options of one game: a small value the game reads when it judges a position
/// ([`crate::core::game::Position::Rules`]). A game without options uses `()`.
pub trait GameRules:
    Copy + Default + std::fmt::Debug + PartialEq + Eq + Send + Sync + 'static
{
    /// The game's rule options, as the `usi` answer declares them.
    const OPTIONS: &'static [RuleOption] = &[];

    /// Sets the option `name` (any case) to `value`: `Ok(true)` when it is one of the game's
    /// options, `Ok(false)` when it is not (nothing changes), `Err(why)` for a bad or missing
    /// value (nothing changes).
    fn set(&mut self, _name: &str, _value: &str) -> Result<bool, String> {
        Ok(false)
    }
}

impl GameRules for () {}

/// The rule options of a game: the move limit every game has, and the game's own (`R`).
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default, Hash)]
pub struct RuleOptions<R> {
    /// Plies after which the game is drawn (`MaxMovesToDraw`; 0: no limit).
    pub max_moves_to_draw: u32,
    /// The game's own rule options.
    pub game: R,
}

/// Reads a combo value from a list of `(name, value)` pairs, ignoring case.
pub fn parse_choice<T: Copy>(text: &str, choices: &[(&str, T)]) -> Option<T> {
    choices
        .iter()
        .find(|(name, _)| name.eq_ignore_ascii_case(text))
        .map(|&(_, v)| v)
}

/// Reads the value of the combo option `name` from `(name, value)` pairs for `setoption`, with
/// the error messages of the USI options: a missing value, or a value not among the choices.
pub fn choice<T: Copy>(name: &str, value: &str, choices: &[(&str, T)]) -> Result<T, String> {
    if value.trim().is_empty() {
        return Err(format!("{name}: the value is missing"));
    }
    parse_choice(value.trim(), choices).ok_or_else(|| {
        let names: Vec<&str> = choices.iter().map(|(n, _)| *n).collect();
        format!("{name} must be one of {}, got '{value}'", names.join(", "))
    })
}
