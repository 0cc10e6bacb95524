//! The game-independent part of SFEN: splitting the four fields and reading the side to move and
//! the move number; and, for the games with hands, reading and writing the board and hand fields,
//! the text diagram and the count of each kind against the game's set, generic over the game's
//! pieces ([`SfenBoard`]).

use std::fmt::Write;

use super::color::Color;
use super::square::{Geometry, Square};
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

/// What the board-and-hands helpers of this module need of a game with hands: its board, its piece
/// letters and its hand kinds. The helpers handle the ranks and runs of empty squares, the colour
/// given by a letter's case (uppercase Black), the `+` of a promoted piece, hand counts, one king per
/// player and the count of each kind against the set; the game names its letters and kinds.
pub(crate) trait SfenBoard {
    /// A piece on the board, with its owner.
    type Piece: Copy;
    /// A kind of piece a player can hold, which is also the unit the set counts.
    type HandKind: Copy + PartialEq + 'static;
    /// The game's name in messages ("the shogi set has 18").
    const GAME: &'static str;
    /// The board's shape.
    const GEOMETRY: Geometry;
    /// Whether a `+` may precede a piece letter on the board.
    const PROMOTION: bool;
    /// The hand kinds in the order SFEN writes them (the diagram uses it too).
    const HAND_ORDER: &'static [Self::HandKind];

    /// The board piece `color` owns written `letter` (after a `+` when `promoted`), or what is
    /// wrong with it (the message follows "rank a: ").
    fn board_piece(color: Color, letter: char, promoted: bool) -> Result<Self::Piece, String>;
    /// True for a king (a player may have one).
    fn is_king(piece: Self::Piece) -> bool;
    /// The kind the set counts `piece` as (a promoted piece counts as its unpromoted kind); `None`
    /// for a piece the set does not count by kind (a shogi king, one per player).
    fn counted_as(piece: Self::Piece) -> Option<Self::HandKind>;
    /// Appends `piece` as SFEN writes it (`+P`, `k`).
    fn write_piece(piece: Self::Piece, out: &mut String);
    /// The hand kind written `letter` (either case), or why it cannot be held.
    fn hand_kind(letter: char) -> Result<Self::HandKind, String>;
    /// The uppercase letter of a hand kind.
    fn hand_letter(kind: Self::HandKind) -> char;
    /// The plural name of a kind in messages ("pawns", "orthogonal cubes").
    fn kind_name(kind: Self::HandKind) -> &'static str;
    /// How many pieces of `kind` the game's set has, both players together.
    fn in_set(kind: Self::HandKind) -> u32;

    /// The piece on `sq`, if any.
    fn piece_on(&self, sq: Square) -> Option<Self::Piece>;
    /// How many pieces of `kind` `color` holds.
    fn held(&self, color: Color, kind: Self::HandKind) -> u32;
}

/// The English name of a colour, for messages and diagrams.
pub fn color_name(c: Color) -> &'static str {
    match c {
        Color::Black => "Black",
        Color::White => "White",
    }
}

/// The colour a piece letter's case gives: uppercase Black, lowercase White.
fn color_of(letter: char) -> Color {
    if letter.is_ascii_uppercase() {
        Color::Black
    } else {
        Color::White
    }
}

/// Reads the board field of game `B`, handing each piece and its square to `place`: the ranks from
/// `a`, each from the highest file down to file 1; at most one king per player.
pub(crate) fn parse_board<B: SfenBoard>(
    text: &str,
    mut place: impl FnMut(Square, B::Piece),
) -> Result<(), SfenError> {
    let geo = B::GEOMETRY;
    let rows: Vec<&str> = text.split('/').collect();
    if rows.len() != geo.ranks as usize {
        return Err(SfenError::Board(format!(
            "{} ranks given, {} expected",
            rows.len(),
            geo.ranks
        )));
    }
    let mut kings = [false; 2];
    for (r, row) in rows.iter().enumerate() {
        let rank_name = (b'a' + r as u8) as char;
        let bad = |why: String| SfenError::Board(format!("rank {rank_name}: {why}"));
        let too_long = || {
            SfenError::Board(format!(
                "rank {rank_name} has more than {} squares",
                geo.files
            ))
        };
        let mut file = geo.files as i32; // next file to fill, counting down to 1
        let mut promoted = false;
        for ch in row.chars() {
            if let Some(d) = ch.to_digit(10) {
                if promoted {
                    return Err(bad("'+' must be followed by a piece letter".into()));
                }
                if d == 0 {
                    return Err(bad("empty run of 0".into()));
                }
                file -= d as i32;
                if file < 0 {
                    return Err(too_long());
                }
                continue;
            }
            if ch == '+' {
                if !B::PROMOTION {
                    return Err(bad(format!("{} has no promoted pieces ('+')", B::GAME)));
                }
                if promoted {
                    return Err(bad("'++'".into()));
                }
                promoted = true;
                continue;
            }
            let color = color_of(ch);
            let piece = B::board_piece(color, ch, promoted).map_err(bad)?;
            promoted = false;
            if file < 1 {
                return Err(too_long());
            }
            if B::is_king(piece) && std::mem::replace(&mut kings[color.index()], true) {
                return Err(SfenError::Illegal(format!(
                    "two {} kings",
                    color_name(color)
                )));
            }
            place(geo.square(file as u8 - 1, r as u8), piece);
            file -= 1;
        }
        if promoted {
            return Err(SfenError::Board(format!("rank {rank_name} ends with '+'")));
        }
        if file != 0 {
            return Err(SfenError::Board(format!(
                "rank {rank_name} has {} squares, {} expected",
                geo.files as i32 - file,
                geo.files
            )));
        }
    }
    Ok(())
}

/// Reads the hand field of game `B`, calling `add` once for each piece held: `-`, or counts and
/// letters such as `2Pb`; each letter at most once per player, no count of 0 or above the set's.
pub(crate) fn parse_hand<B: SfenBoard>(
    text: &str,
    mut add: impl FnMut(Color, B::HandKind),
) -> Result<(), SfenError> {
    if text == "-" {
        return Ok(());
    }
    let mut count: Option<u32> = None;
    let mut seen: [Vec<B::HandKind>; 2] = [Vec::new(), Vec::new()];
    for ch in text.chars() {
        if let Some(d) = ch.to_digit(10) {
            let c = count.unwrap_or(0) * 10 + d;
            if c > 99 {
                return Err(SfenError::Hand(format!("count too large in '{text}'")));
            }
            count = Some(c);
            continue;
        }
        let kind = B::hand_kind(ch).map_err(SfenError::Hand)?;
        let color = color_of(ch);
        let n = count.take().unwrap_or(1);
        if n == 0 {
            return Err(SfenError::Hand(format!("zero count before '{ch}'")));
        }
        let seen = &mut seen[color.index()];
        if seen.contains(&kind) {
            return Err(SfenError::Hand(format!("'{ch}' appears twice")));
        }
        seen.push(kind);
        let max = B::in_set(kind);
        if n > max {
            return Err(SfenError::Hand(format!(
                "{n} '{ch}' in hand, but the {} set has {max}",
                B::GAME
            )));
        }
        for _ in 0..n {
            add(color, kind);
        }
    }
    if count.is_some() {
        return Err(SfenError::Hand(format!("'{text}' ends with a count")));
    }
    Ok(())
}

/// Refuses a position holding more pieces of a kind, on the board and in both hands together
/// (promoted pieces counted as their unpromoted kind), than the game's set has. Fewer is fine:
/// a tsume problem leaves most pieces out.
pub(crate) fn check_piece_set<B: SfenBoard>(pos: &B) -> Result<(), SfenError> {
    let geo = B::GEOMETRY;
    for &kind in B::HAND_ORDER {
        let on_board = (0..geo.square_count())
            .filter_map(|i| pos.piece_on(Square(i as u8)))
            .filter(|&p| B::counted_as(p) == Some(kind))
            .count() as u32;
        let total = on_board + pos.held(Color::Black, kind) + pos.held(Color::White, kind);
        let max = B::in_set(kind);
        if total > max {
            return Err(SfenError::Illegal(format!(
                "{total} {} on the board and in hand, but the {} set has {max}",
                B::kind_name(kind),
                B::GAME
            )));
        }
    }
    Ok(())
}

/// The board field of `pos`.
fn board_text<B: SfenBoard>(pos: &B, out: &mut String) {
    let geo = B::GEOMETRY;
    for r in 0..geo.ranks {
        if r > 0 {
            out.push('/');
        }
        let mut run = 0;
        for f in (0..geo.files).rev() {
            match pos.piece_on(geo.square(f, r)) {
                None => run += 1,
                Some(p) => {
                    if run > 0 {
                        let _ = write!(out, "{run}");
                        run = 0;
                    }
                    B::write_piece(p, out);
                }
            }
        }
        if run > 0 {
            let _ = write!(out, "{run}");
        }
    }
}

/// The hand field of `pos` (`-` when both hands are empty).
fn hand_text<B: SfenBoard>(pos: &B) -> String {
    let mut s = String::new();
    for c in Color::ALL {
        for &k in B::HAND_ORDER {
            let n = pos.held(c, k);
            if n > 1 {
                let _ = write!(s, "{n}");
            }
            if n > 0 {
                s.push(match c {
                    Color::Black => B::hand_letter(k),
                    Color::White => B::hand_letter(k).to_ascii_lowercase(),
                });
            }
        }
    }
    if s.is_empty() {
        s.push('-');
    }
    s
}

/// The SFEN of `pos` with `side` to move at `move_number` (written as at most
/// [`MAX_MOVE_NUMBER`], so that every SFEN written reads back: a game set up at that number and
/// played on counts beyond it).
pub(crate) fn to_sfen<B: SfenBoard>(pos: &B, side: Color, move_number: u32) -> String {
    let mut s = String::new();
    board_text(pos, &mut s);
    let number = move_number.min(MAX_MOVE_NUMBER);
    let _ = write!(s, " {} {} {number}", side.sfen_char(), hand_text(pos));
    s
}

/// A text picture of `pos` with `side` to move: White's hand, the board with file numbers above
/// and rank letters on the right, Black's hand.
pub(crate) fn diagram<B: SfenBoard>(pos: &B, side: Color) -> String {
    let geo = B::GEOMETRY;
    let hand_line = |c: Color| -> String {
        let parts: Vec<String> = B::HAND_ORDER
            .iter()
            .filter(|&&k| pos.held(c, k) > 0)
            .map(|&k| format!("{}{}", B::hand_letter(k), pos.held(c, k)))
            .collect();
        if parts.is_empty() {
            "-".into()
        } else {
            parts.join(" ")
        }
    };
    let mut s = String::new();
    let _ = writeln!(s, "White hand: {}", hand_line(Color::White));
    let files: String = (0..geo.files)
        .rev()
        .map(|f| format!("  {}", f + 1))
        .collect();
    let _ = writeln!(s, "{files}");
    for r in 0..geo.ranks {
        let mut line = String::new();
        for f in (0..geo.files).rev() {
            match pos.piece_on(geo.square(f, r)) {
                None => line.push_str("  ."),
                Some(p) => {
                    let mut text = String::new();
                    B::write_piece(p, &mut text);
                    let _ = write!(line, "{text:>3}");
                }
            }
        }
        let _ = writeln!(s, "{line}  {}", (b'a' + r) as char);
    }
    let _ = writeln!(s, "Black hand: {}", hand_line(Color::Black));
    let _ = write!(s, "Side to move: {}", color_name(side));
    s
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
