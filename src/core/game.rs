//! The interface every game implements, so that perft, search, the mate solver and the match runner are
//! written once and monomorphized per game.

use super::color::Color;
use super::moves::{GameMove, MoveList};
use super::repetition::HistoryEntry;
use super::rules::{EndReason, GameRules, Outcome, RuleOptions, Verdict};
use crate::core::moves::ListStore;
use crate::error::{MoveError, SfenError};

/// A position of one game, with the rules needed to generate and play legal moves.
///
/// Positions are copied to make a move (`clone` then [`Position::play`]); they are small, plain data.
pub trait Position: Clone + Send + Sync + Sized + 'static {
    /// The game's name as `USI_Variant` spells it.
    const NAME: &'static str;

    /// The game's move: the packed [`crate::core::moves::Move`] for the shogi games.
    type Move: GameMove;

    /// The game's own rule options (`()` for a game without any).
    type Rules: GameRules;

    /// The occurrence of a position that ends the game by repetition under the game's rules
    /// (the shogi games: the fourth).
    const REPETITION_OCCURRENCES: usize = 4;

    /// The game's start position.
    fn startpos() -> Self;

    /// Parses an SFEN (board, side, hand, optional move number); errors say what is wrong and where.
    fn from_sfen(sfen: &str) -> Result<Self, SfenError>;

    /// Formats the position as SFEN.
    fn to_sfen(&self) -> String;

    /// The player to move.
    fn side_to_move(&self) -> Color;

    /// The Zobrist key of the position (board, hands, side to move).
    fn key(&self) -> u64;

    /// True when the side to move is in check.
    fn in_check(&self) -> bool;

    /// Appends every legal move to `list`.
    fn legal_moves(&self, list: &mut MoveList<Self::Move>);

    /// Counts the legal moves (bulk counting for perft); may be faster than generating them.
    fn count_legal_moves(&self) -> usize {
        let mut list = MoveList::<Self::Move>::new();
        self.legal_moves(&mut list);
        list.len()
    }

    /// Plays a move known to be legal. Callers holding untrusted input use [`Position::parse_move`].
    fn play(&mut self, mv: Self::Move);

    /// Formats a move in the game's USI notation.
    fn move_to_usi(&self, mv: Self::Move) -> String;

    /// Applies the rules that change a game's first position (a handicap of the game's rule
    /// options, say), to the position a game starts from; games without such rules ignore it.
    fn begin_game(&mut self, _rules: &Self::Rules) {}

    /// Parses a USI move string and checks that it is legal here.
    fn parse_move(&self, text: &str) -> Result<Self::Move, MoveError> {
        let mv = self.parse_move_syntax(text)?;
        let mut list = MoveList::<Self::Move>::new();
        self.legal_moves(&mut list);
        if list.contains(&mv) {
            Ok(mv)
        } else {
            Err(MoveError::Illegal(
                text.to_string(),
                self.explain_illegal(mv),
            ))
        }
    }

    /// Parses a USI move string into a move without checking legality (only its form and squares).
    fn parse_move_syntax(&self, text: &str) -> Result<Self::Move, MoveError>;

    /// A short reason why a well-formed `mv` is not legal here.
    fn explain_illegal(&self, mv: Self::Move) -> String;

    /// The board drawn in text, with hands and side to move, for people.
    fn diagram(&self) -> String;

    /// The repetition verdict once the current position (the last entry of `history`, which holds
    /// the game's positions in order) has occurred `occurrences` times; `None` if it has not yet.
    /// The game rule asks at 4; a search may ask at 2. By default a repetition is a plain draw
    /// (nana shogi); the shogi family adds perpetual check and minishogi's own verdicts.
    fn repetition(
        &self,
        history: &[HistoryEntry],
        occurrences: usize,
        _rules: &RuleOptions<Self::Rules>,
    ) -> Option<Verdict> {
        (super::repetition::examine(history, occurrences).occurrences >= occurrences).then_some(
            Verdict {
                outcome: Outcome::Draw,
                reason: EndReason::Repetition,
            },
        )
    }

    /// True when `color` has a king on the board (the default assumes it does).
    fn has_king(&self, _color: Color) -> bool {
        true
    }

    /// True when the player not to move is in check (an invalid position: his king could be taken).
    fn opponent_in_check(&self) -> bool {
        false
    }

    /// An ending particular to the game that the position alone decides (reported as [`EndReason::Special`] with the ending's name).
    fn special_end(&self, _rules: &RuleOptions<Self::Rules>) -> Option<Verdict> {
        None
    }

    /// True when the side to move may declare a win now (a declaration rule of the game's own).
    fn can_declare(&self, _rules: &RuleOptions<Self::Rules>) -> bool {
        false
    }

    /// Whether the game is over in the current position, which is the last entry of `history`:
    /// no legal move, repetition, the game's own endings, or the move limit.
    fn verdict(
        &self,
        history: &[HistoryEntry],
        rules: &RuleOptions<Self::Rules>,
    ) -> Option<Verdict> {
        if self.count_legal_moves() == 0 {
            return Some(Verdict {
                outcome: Outcome::Loss,
                reason: EndReason::NoLegalMove,
            });
        }
        if let Some(v) = self.repetition(history, Self::REPETITION_OCCURRENCES, rules) {
            return Some(v);
        }
        if let Some(v) = self.special_end(rules) {
            return Some(v);
        }
        let plies = history.len().saturating_sub(1);
        if rules.max_moves_to_draw > 0 && plies >= rules.max_moves_to_draw as usize {
            return Some(Verdict {
                outcome: Outcome::Draw,
                reason: EndReason::MoveLimit,
            });
        }
        None
    }
}
