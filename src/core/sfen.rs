//! The game-independent part of SFEN: splitting the four fields and reading the side to move and
//! the move number. Each game parses its own board and hand fields.

use super::color::Color;
use crate::error::SfenError;

/// The fields of an SFEN string.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SfenFields<'a> {
    /// The board field, ranks separated by `/`.
    pub board: &'a str,
    /// The side to move.
    pub side: Color,
    /// The hand field (`-` when both hands are empty).
    pub hand: &'a str,
    /// The move number (1 when absent).
    pub move_number: u32,
}

/// Splits `sfen` into its fields: board, side, hand are required, the move number is optional,
/// nothing may follow it.
pub fn split(sfen: &str) -> Result<SfenFields<'_>, SfenError> {
    let mut fields = sfen.split_ascii_whitespace();
    let board = fields.next().ok_or(SfenError::MissingField("board"))?;
    let side = match fields
        .next()
        .ok_or(SfenError::MissingField("side to move"))?
    {
        "b" => Color::Black,
        "w" => Color::White,
        other => return Err(SfenError::Side(other.to_string())),
    };
    let hand = fields.next().ok_or(SfenError::MissingField("hand"))?;
    let move_number = match fields.next() {
        Some(n) => n
            .parse::<u32>()
            .ok()
            .filter(|&n| n > 0)
            .ok_or_else(|| SfenError::MoveNumber(n.to_string()))?,
        None => 1,
    };
    let rest: Vec<&str> = fields.collect();
    if !rest.is_empty() {
        return Err(SfenError::Trailing(rest.join(" ")));
    }
    Ok(SfenFields {
        board,
        side,
        hand,
        move_number,
    })
}
