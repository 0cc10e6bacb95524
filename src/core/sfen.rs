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

/// The largest move number an SFEN may give. Playing on adds one per move, so a bound far below
/// `u32::MAX` keeps the count from wrapping around in any real game.
pub const MAX_MOVE_NUMBER: u32 = 1_000_000_000;

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
            .filter(|&n| (1..=MAX_MOVE_NUMBER).contains(&n))
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn move_numbers_out_of_range_are_refused() {
        let sfen = |n: &str| format!("4k4/9/9/9/9/9/9/9/4K4 b - {n}");
        assert_eq!(
            split(&sfen("1000000000")).unwrap().move_number,
            MAX_MOVE_NUMBER
        );
        for bad in ["0", "1000000001", "4294967295", "4294967296", "-1"] {
            assert!(
                matches!(split(&sfen(bad)), Err(SfenError::MoveNumber(_))),
                "{bad}"
            );
        }
    }
}
