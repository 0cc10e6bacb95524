//! Typed errors for untrusted input: positions and moves.

use thiserror::Error;

/// Why an SFEN string was refused.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum SfenError {
    /// A required field is absent.
    #[error("missing {0} field")]
    MissingField(&'static str),
    /// The board field is malformed; the text says where.
    #[error("board: {0}")]
    Board(String),
    /// The side-to-move field is neither `b` nor `w`.
    #[error("side to move must be 'b' or 'w', found '{0}'")]
    Side(String),
    /// The hand field is malformed.
    #[error("hand: {0}")]
    Hand(String),
    /// The move number is not a number from 1 to [`crate::core::sfen::MAX_MOVE_NUMBER`].
    #[error("move number must be a whole number from 1 to 1000000000, found '{0}'")]
    MoveNumber(String),
    /// Text follows the last field.
    #[error("unexpected text after the move number: '{0}'")]
    Trailing(String),
    /// Well-formed, but not a position of the game.
    #[error("illegal position: {0}")]
    Illegal(String),
}

/// Why a move string was refused.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum MoveError {
    /// The text is not a move of this game's notation.
    #[error("'{0}' is not a move: {1}")]
    Syntax(String, String),
    /// Well-formed, but not legal in the position.
    #[error("'{0}' is illegal here: {1}")]
    Illegal(String, String),
}
