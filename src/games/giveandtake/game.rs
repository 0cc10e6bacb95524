//! Give and Take on the shared core: its move as a [`GameMove`], the [`Position`] rules the
//! engine, the match runner and perft use, and what the search needs ([`SearchGame`]) with the
//! evaluation of [`super::eval`].

use std::fmt::Write;

use super::eval::{KING, MAN, WEIGHTS, weights_of, with_weights};
use super::movegen::GtMove;
use super::position::{GiveAndTake, START_FEN, bit, square_name};
use crate::core::color::Color;
use crate::core::game::Position;
use crate::core::moves::{GameMove, MoveList};
use crate::core::search_game::SearchGame;
use crate::core::search_params::SearchParams;
use crate::error::{MoveError, SfenError};
use crate::mate::MateGame;

impl GameMove for GtMove {
    const NONE: GtMove = GtMove::NONE;
    /// Capture routes are not bounded by a small number (one king against fourteen men has a
    /// position with 21,617), so the list grows past its 64 places on the stack.
    type List<T: Copy + std::fmt::Debug + Send> = smallvec::SmallVec<[T; 64]>;

    /// A step is coded exactly (`1 + from · 64 + to`, below 4,097); a capture by a hash of its
    /// route with the top bit set. Code 0 is no move.
    #[inline]
    fn code(self) -> u16 {
        if self == GtMove::NONE {
            return 0;
        }
        if !self.is_capture() {
            return 1 + self.from() as u16 * 64 + self.to() as u16;
        }
        let mut h = (self.from() as u64 + 1).wrapping_mul(0x9e37_79b9_7f4a_7c15);
        for &s in self.stops() {
            h = (h ^ s as u64).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        }
        h ^= self.captured();
        h = h.wrapping_mul(0x94d0_49bb_1331_11eb);
        0x8000 | (h >> 49) as u16
    }

    #[inline(always)]
    fn to_index(self) -> usize {
        self.to() as usize
    }

    /// A man reaching the far rank by a step is the game's non-capturing tactical move.
    #[inline(always)]
    fn is_promotion(self) -> bool {
        self.crowns() && !self.is_capture()
    }

    #[inline(always)]
    fn is_drop(self) -> bool {
        false
    }
}

impl GiveAndTake {
    /// The value of the piece on `sq` (a man or a king), 0 for an empty square, by the built-in
    /// weights: move ordering, static exchange and delta pruning keep these values whatever
    /// weights the evaluation is given.
    fn piece_value(&self, sq: u8) -> i32 {
        if self.occupied() & bit(sq) == 0 {
            0
        } else if self.kings() & bit(sq) != 0 {
            WEIGHTS[KING]
        } else {
            WEIGHTS[MAN]
        }
    }
}

/// The game's name as `USI_Variant` spells it.
pub const NAME: &str = "giveandtake";

impl Position for GiveAndTake {
    const NAME: &'static str = NAME;
    type Move = GtMove;
    type Rules = ();
    /// The rules contract's convention: the third occurrence of a position is a draw.
    const REPETITION_OCCURRENCES: usize = 3;

    fn startpos() -> Self {
        GiveAndTake::from_fen(START_FEN).expect("the start position parses")
    }

    fn from_sfen(sfen: &str) -> Result<Self, SfenError> {
        GiveAndTake::from_fen(sfen)
    }

    fn to_sfen(&self) -> String {
        self.to_fen()
    }

    fn side_to_move(&self) -> Color {
        self.side
    }

    fn key(&self) -> u64 {
        self.key
    }

    /// Draughts has no check; its counterpart is the obligation: the piece just moved can be
    /// taken, so the side to move must take it (no quiet move, no standing pat in quiescence).
    fn in_check(&self) -> bool {
        self.capture_obliged()
    }

    fn legal_moves(&self, list: &mut MoveList<GtMove>) {
        if list.is_empty() {
            self.generate(list);
        } else {
            let mut mine = MoveList::<GtMove>::new();
            self.generate(&mut mine);
            list.extend(mine);
        }
    }

    fn play(&mut self, mv: GtMove) {
        self.apply(&mv);
    }

    fn move_to_usi(&self, mv: GtMove) -> String {
        mv.text()
    }

    /// A capture's route is checked against the legal routes, which say why a route is not
    /// one (stopping short of a further capture, ignoring the obligation).
    fn parse_move(&self, text: &str) -> Result<GtMove, MoveError> {
        GtMove::parse_squares(text).map_err(|e| MoveError::Syntax(text.to_string(), e))?;
        self.parse_text(text)
            .map_err(|e| MoveError::Illegal(text.to_string(), e))
    }

    /// Only the form can be checked without the position's routes; the legal move comes from
    /// [`Position::parse_move`].
    fn parse_move_syntax(&self, text: &str) -> Result<GtMove, MoveError> {
        let (_, squares) =
            GtMove::parse_squares(text).map_err(|e| MoveError::Syntax(text.to_string(), e))?;
        Ok(GtMove::step(squares[0], squares[squares.len() - 1]))
    }

    fn explain_illegal(&self, mv: GtMove) -> String {
        self.parse_text(&mv.text())
            .err()
            .unwrap_or_else(|| "it is legal".into())
    }

    fn diagram(&self) -> String {
        let mut s = String::new();
        for rank in (0..8u8).rev() {
            let _ = write!(s, "{} ", rank + 1);
            for file in 0..8u8 {
                let sq = file + 8 * rank;
                let c = if self.pieces(Color::White) & bit(sq) != 0 {
                    if self.kings() & bit(sq) != 0 {
                        'K'
                    } else {
                        'M'
                    }
                } else if self.pieces(Color::Black) & bit(sq) != 0 {
                    if self.kings() & bit(sq) != 0 {
                        'k'
                    } else {
                        'm'
                    }
                } else {
                    '.'
                };
                s.push(' ');
                s.push(c);
            }
            s.push('\n');
        }
        s.push_str("   a b c d e f g h\n");
        let side = match self.side {
            Color::White => "White",
            Color::Black => "Black",
        };
        let _ = writeln!(
            s,
            "{side} to move; last move ended on {}{}",
            self.last.map_or("-".into(), square_name),
            if self.capture_obliged() {
                " (that piece must be taken)"
            } else {
                ""
            }
        );
        s
    }
}

impl MateGame for GiveAndTake {
    const MATE_BY_CHECKS: bool = false;

    /// A forced win may begin with any move: the attacker's moves of `go mate` are all of them.
    fn checking_moves(&self, list: &mut MoveList<GtMove>) {
        self.legal_moves(list);
    }
}

impl SearchGame for GiveAndTake {
    const BENCH_SFENS: &'static [&'static str] = &[
        START_FEN,
        "8/1m3m2/mm1mm1mm/2m5/1M3M2/M1MM2MM/1M2MM1M/8 w - 10",
        "8/4m3/8/4K3/8/4m3/2m3m1/8 w - 1",
    ];

    type CheckInfo = ();

    fn check_info(&self) {}

    /// True when the move obliges the opponent to take the piece that made it (see
    /// [`Position::in_check`]): the search extends such forcing moves and never prunes them.
    fn gives_check(&self, _: &(), mv: GtMove) -> bool {
        let mut next = self.clone();
        next.apply(&mv);
        next.capture_obliged()
    }

    fn evaluate(&self, params: &SearchParams) -> i32 {
        self.weighed(&weights_of(params))
    }

    /// The search's defaults, with the evaluation's built-in [`WEIGHTS`].
    fn default_params() -> SearchParams {
        with_weights(SearchParams::default(), WEIGHTS)
    }

    fn is_capture(&self, mv: GtMove) -> bool {
        mv.is_capture()
    }

    fn captured_value(&self, mv: GtMove) -> i32 {
        let mut taken = mv.captured();
        let mut value = 0;
        while taken != 0 {
            value += self.piece_value(taken.trailing_zeros() as u8);
            taken &= taken - 1;
        }
        value
    }

    /// 1 White man, 2 White king, 3 Black man, 4 Black king.
    fn moved_piece(&self, mv: GtMove) -> usize {
        let black = (self.side == Color::Black) as usize;
        1 + 2 * black + (self.kings() & bit(mv.from()) != 0) as usize
    }

    fn captured_piece(&self, mv: GtMove) -> usize {
        if !mv.is_capture() {
            return 0;
        }
        let first = mv.captured().trailing_zeros() as u8;
        let black = (self.side == Color::White) as usize;
        1 + 2 * black + (self.kings() & bit(first) != 0) as usize
    }

    /// The material a capture wins, ignoring the reply (draughts exchanges are forced chains
    /// that the search follows instead).
    fn see_ge(&self, mv: GtMove, threshold: i32) -> bool {
        self.captured_value(mv) >= threshold
    }

    fn tactical_moves(&self, list: &mut MoveList<GtMove>, promotions: bool) {
        let mut all = MoveList::<GtMove>::new();
        self.generate(&mut all);
        list.extend(
            all.into_iter()
                .filter(|m| m.is_capture() || promotions && m.crowns()),
        );
    }

    /// Positions full of obligations and zugzwang: no null moves.
    fn null_move(&self) -> Option<Self> {
        None
    }
}
