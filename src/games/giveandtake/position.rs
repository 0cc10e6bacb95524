//! The Give and Take position: men and kings of both players, the side to move, the square where
//! the last move ended (it decides the capture obligation) and the move number; its text form
//! (NOTATION.md: ranks 8 to 1, `M`/`K` White, `m`/`k` Black, then `w`/`b`, the last-moved square
//! or `-`, the move number) and making a move.
//!
//! Squares are numbered `file + 8 · rank` from a1 = 0 (White's left corner) to h8 = 63. The
//! players are [`Color::White`] and [`Color::Black`] as the game names them; **White moves
//! first**, up the board (towards rank 8).

use crate::core::color::Color;
use crate::error::SfenError;

use super::movegen::GtMove;

/// The start position (the Turkish draughts start).
pub const START_FEN: &str = "8/mmmmmmmm/mmmmmmmm/8/8/MMMMMMMM/MMMMMMMM/8 w - 1";

/// The bit of square `sq`.
#[inline(always)]
pub(super) const fn bit(sq: u8) -> u64 {
    1u64 << sq
}

/// The name of square `sq` (`a1` … `h8`).
pub fn square_name(sq: u8) -> String {
    format!("{}{}", (b'a' + sq % 8) as char, sq / 8 + 1)
}

/// The square named by the two bytes `text` (`a1` … `h8`).
pub fn parse_square(text: &[u8]) -> Option<u8> {
    match text {
        [f @ b'a'..=b'h', r @ b'1'..=b'8'] => Some((f - b'a') + 8 * (r - b'1')),
        _ => None,
    }
}

/// A Give and Take position.
#[derive(Clone, PartialEq, Eq, Debug, Hash)]
pub struct GiveAndTake {
    /// Each player's pieces, men and kings, indexed by [`Color::index`].
    pub(super) pieces: [u64; 2],
    /// The kings of both players.
    pub(super) kings: u64,
    /// The player to move.
    pub(super) side: Color,
    /// The square where the last move ended, when a piece of the player not to move stands on it.
    pub(super) last: Option<u8>,
    /// The move number: 1 at the start, one more after each of Black's moves.
    pub(super) move_number: u32,
    /// The Zobrist key: the pieces, the side to move and, while it obliges a capture, the
    /// square of the piece just moved.
    pub(super) key: u64,
}

impl GiveAndTake {
    /// The start position.
    pub fn startpos() -> GiveAndTake {
        GiveAndTake::from_fen(START_FEN).expect("the start position parses")
    }

    /// The pieces of `color` (men and kings).
    #[inline(always)]
    pub fn pieces(&self, color: Color) -> u64 {
        self.pieces[color.index()]
    }

    /// The kings of both players.
    #[inline(always)]
    pub fn kings(&self) -> u64 {
        self.kings
    }

    /// Every occupied square.
    #[inline(always)]
    pub fn occupied(&self) -> u64 {
        self.pieces[0] | self.pieces[1]
    }

    /// The player to move.
    #[inline(always)]
    pub fn side_to_move(&self) -> Color {
        self.side
    }

    /// The square where the last move ended, while the piece that made it still stands there.
    #[inline(always)]
    pub fn last_moved(&self) -> Option<u8> {
        self.last
    }

    /// The move number.
    pub fn move_number(&self) -> u32 {
        self.move_number
    }

    /// Parses the position string of NOTATION.md; errors say what is wrong and where.
    pub fn from_fen(text: &str) -> Result<GiveAndTake, SfenError> {
        let mut fields = text.split_whitespace();
        let board = fields.next().ok_or(SfenError::MissingField("board"))?;
        let side = fields
            .next()
            .ok_or(SfenError::MissingField("side to move"))?;
        let last = fields
            .next()
            .ok_or(SfenError::MissingField("last-moved square"))?;
        let number = fields
            .next()
            .ok_or(SfenError::MissingField("move number"))?;
        if let Some(extra) = fields.next() {
            return Err(SfenError::Trailing(extra.to_string()));
        }
        let mut pos = GiveAndTake {
            pieces: [0; 2],
            kings: 0,
            side: Color::White,
            last: None,
            move_number: 1,
            key: 0,
        };
        let ranks: Vec<&str> = board.split('/').collect();
        if ranks.len() != 8 {
            return Err(SfenError::Board(format!(
                "{} ranks, 8 expected (ranks 8 to 1 joined by '/')",
                ranks.len()
            )));
        }
        for (i, rank_text) in ranks.iter().enumerate() {
            let rank = 7 - i as u8;
            let mut file = 0u8;
            for c in rank_text.chars() {
                if let Some(d) = c.to_digit(10).filter(|d| (1..=8).contains(d)) {
                    file += d as u8;
                } else {
                    let (color, king) = match c {
                        'M' => (Color::White, false),
                        'K' => (Color::White, true),
                        'm' => (Color::Black, false),
                        'k' => (Color::Black, true),
                        _ => {
                            return Err(SfenError::Board(format!(
                                "'{c}' on rank {} is not a piece (M, K, m, k) or a count 1-8",
                                rank + 1
                            )));
                        }
                    };
                    if file < 8 {
                        let sq = file + 8 * rank;
                        pos.pieces[color.index()] |= bit(sq);
                        if king {
                            pos.kings |= bit(sq);
                        }
                    }
                    file += 1;
                }
                if file > 8 {
                    break;
                }
            }
            if file != 8 {
                return Err(SfenError::Board(format!(
                    "rank {} covers {file} squares, 8 expected",
                    rank + 1
                )));
            }
        }
        pos.side = match side {
            "w" => Color::White,
            "b" => Color::Black,
            other => return Err(SfenError::Side(other.to_string())),
        };
        for (color, name) in [(Color::White, "White"), (Color::Black, "Black")] {
            if pos.pieces(color).count_ones() > 16 {
                return Err(SfenError::Illegal(format!(
                    "{name} has {} men and kings on the board, but the set has 16 per player",
                    pos.pieces(color).count_ones()
                )));
            }
        }
        if pos.pieces(!pos.side) == 0 {
            return Err(SfenError::Illegal(
                "the player not to move has no piece: the game ended before this move".into(),
            ));
        }
        if last != "-" {
            let sq = parse_square(last.as_bytes()).ok_or_else(|| {
                SfenError::Illegal(format!(
                    "the last-moved square '{last}' is neither a square a1-h8 nor '-'"
                ))
            })?;
            // Only an enemy piece on it can oblige a capture; anything else means nothing.
            if pos.pieces(!pos.side) & bit(sq) != 0 {
                pos.last = Some(sq);
            }
        }
        pos.move_number = number
            .parse::<u32>()
            .ok()
            .filter(|n| (1..=crate::core::sfen::MAX_MOVE_NUMBER).contains(n))
            .ok_or_else(|| SfenError::MoveNumber(number.to_string()))?;
        pos.key = pos.compute_key();
        Ok(pos)
    }

    /// The position string of NOTATION.md.
    pub fn to_fen(&self) -> String {
        let mut out = String::new();
        for rank in (0..8u8).rev() {
            let mut empty = 0;
            for file in 0..8u8 {
                let sq = file + 8 * rank;
                let letter = if self.pieces[Color::White.index()] & bit(sq) != 0 {
                    Some('M')
                } else if self.pieces[Color::Black.index()] & bit(sq) != 0 {
                    Some('m')
                } else {
                    None
                };
                match letter {
                    None => empty += 1,
                    Some(l) => {
                        if empty > 0 {
                            out.push((b'0' + empty) as char);
                            empty = 0;
                        }
                        let l = if self.kings & bit(sq) != 0 {
                            (l as u8 - b'M' + b'K') as char
                        } else {
                            l
                        };
                        out.push(l);
                    }
                }
            }
            if empty > 0 {
                out.push((b'0' + empty) as char);
            }
            if rank > 0 {
                out.push('/');
            }
        }
        let side = match self.side {
            Color::White => 'w',
            Color::Black => 'b',
        };
        let last = self.last.map_or("-".to_string(), square_name);
        // At most the largest number an SFEN may give, so that it reads back (see `core::sfen`).
        let number = self.move_number.min(crate::core::sfen::MAX_MOVE_NUMBER);
        format!("{out} {side} {last} {number}")
    }

    /// Plays a legal move: the piece ends on the move's last square, the pieces it took leave the
    /// board, a man ending on the far rank is crowned, and a player left with one piece that is
    /// a man has it crowned at once.
    pub(super) fn apply(&mut self, mv: &GtMove) {
        let us = self.side.index();
        let them = 1 - us;
        let (from, to) = (mv.from(), mv.to());
        let was_king = self.kings & bit(from) != 0;
        self.pieces[us] &= !bit(from);
        self.kings &= !bit(from);
        self.pieces[them] &= !mv.captured();
        self.kings &= !mv.captured();
        self.pieces[us] |= bit(to);
        if was_king || to / 8 == super::movegen::far_rank(self.side) {
            self.kings |= bit(to);
        }
        for p in self.pieces {
            if p.count_ones() == 1 {
                self.kings |= p;
            }
        }
        if self.side == Color::Black {
            self.move_number = self.move_number.saturating_add(1);
        }
        self.side = !self.side;
        self.last = Some(to);
        self.key = self.compute_key();
    }

    /// The Zobrist key from scratch (see [`GiveAndTake::key`]).
    fn compute_key(&self) -> u64 {
        let z = &*crate::core::zobrist::ZOBRIST;
        let mut key = 0;
        for (color, code) in [(Color::White, 1), (Color::Black, 3)] {
            let mut pieces = self.pieces(color);
            while pieces != 0 {
                let sq = pieces.trailing_zeros() as usize;
                pieces &= pieces - 1;
                let king = (self.kings >> sq & 1) as usize;
                key ^= z.board[code + king][sq];
            }
        }
        if self.side == Color::Black {
            key ^= z.side;
        }
        if let Some(sq) = self.last.filter(|_| self.capture_obliged()) {
            key ^= z.board[5][sq as usize];
        }
        key
    }

    /// The Zobrist key (pieces, side to move, and the square of a piece that must be taken).
    #[inline(always)]
    pub fn key(&self) -> u64 {
        self.key
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn position_strings_survive_a_round_trip() {
        for fen in [
            START_FEN,
            "K7/1m6/1m6/8/m7/m7/8/KK6 b - 1",
            "8/3m4/m6m/2mm1M1m/2m1m3/2MM3M/m1M2MM1/8 w - 1",
            "8/8/8/4k3/8/8/8/8 w - 20",
        ] {
            assert_eq!(GiveAndTake::from_fen(fen).unwrap().to_fen(), fen);
        }
        // A last-moved square keeps only an enemy piece: empty or own squares mean nothing.
        let p = GiveAndTake::from_fen("8/8/8/2m5/2M5/8/8/8 w c5 3").unwrap();
        assert_eq!(p.last_moved(), parse_square(b"c5"));
        let p = GiveAndTake::from_fen("8/8/8/2m5/2M5/8/8/8 w c4 3").unwrap();
        assert_eq!(p.last_moved(), None);
        assert_eq!(p.to_fen(), "8/8/8/2m5/2M5/8/8/8 w - 3");
    }

    #[test]
    fn malformed_position_strings_are_refused_with_the_reason() {
        for (fen, says) in [
            ("8/8/8/8/8/8/8 w - 1", "7 ranks"),
            ("9/8/8/8/8/8/8/8 w - 1", "not a piece"),
            ("7/8/8/8/8/8/8/8 w - 1", "covers 7"),
            ("8/8/8/8/8/8/8/8x w - 1", "not a piece"),
            ("8/8/8/8/8/8/8/k7 x - 1", "side to move"),
            ("8/8/8/8/8/8/8/k7 w i9 1", "neither a square"),
            ("8/8/8/8/8/8/8/k7 w - 0", "move number"),
            ("8/8/8/8/8/8/8/8 w -", "missing"),
            ("8/8/8/8/8/8/8/8 w - 1 x", "unexpected"),
            ("8/8/8/8/8/8/8/K7 w - 1", "not to move has no piece"),
            ("mmmmmmmm/mmmmmmmm/m7/8/8/8/8/K7 w - 1", "17 men and kings"),
        ] {
            let e = GiveAndTake::from_fen(fen).unwrap_err().to_string();
            assert!(e.contains(says), "{fen}: {e}");
        }
    }
}
