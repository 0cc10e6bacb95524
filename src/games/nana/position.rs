//! The nana shogi position: pieces with their states, hands, side to move, incremental hash; SFEN and
//! move text.

use super::attacks::{GEOMETRY, TABLES};
use super::types::{Hand, Kind, Piece, State};
use crate::core::bitboard::Bitboard;
use crate::core::color::{ByColor, Color};
use crate::core::game::Position;
use crate::core::moves::{Move, MoveList};
use crate::core::repetition::HistoryEntry;
use crate::core::rules::{RuleOptions, Verdict};
pub(super) use crate::core::sfen::color_name;
use crate::core::sfen::{self, SfenBoard};
use crate::core::square::{Geometry, Square};
use crate::core::zobrist::ZOBRIST;
use crate::error::{MoveError, SfenError};
use crate::mate::MateGame;

/// Number of squares of the 3×3 board.
pub(crate) const SQUARES: usize = 9;

/// The start position: an empty board, each player holding his king and both cubes.
/// The game's name as `USI_Variant` spells it.
pub const NAME: &str = "nanashogi";

/// The start position.
pub const START_SFEN: &str = "3/3/3 b KRBkrb 1";

/// A nana shogi position.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Nana {
    pub(super) squares: [Piece; SQUARES],
    pub(super) by_color: ByColor<Bitboard>,
    pub(super) hands: ByColor<Hand>,
    pub(super) kings: ByColor<Option<Square>>,
    pub(super) side: Color,
    pub(super) checkers: Bitboard,
    pub(super) key: u64,
    pub(super) move_number: u32,
}

/// A square as text, such as `2b`.
pub(super) fn square_text(sq: Square) -> String {
    GEOMETRY.square_name(sq).iter().collect()
}

impl Nana {
    fn empty() -> Nana {
        Nana {
            squares: [Piece::NONE; SQUARES],
            by_color: ByColor::default(),
            hands: ByColor::default(),
            kings: ByColor([None, None]),
            side: Color::Black,
            checkers: Bitboard::EMPTY,
            key: 0,
            move_number: 1,
        }
    }

    /// The position with `squares` (indexed by square), `hands` and `side` to move, move number 1;
    /// the caller guarantees at most one king per player (the tablebase builds positions this way).
    pub(crate) fn from_parts(squares: [Piece; SQUARES], hands: ByColor<Hand>, side: Color) -> Nana {
        let mut pos = Nana::empty();
        for (i, &p) in squares.iter().enumerate() {
            if !p.is_none() {
                pos.put(Square(i as u8), p);
            }
        }
        for c in Color::ALL {
            for k in Kind::ALL {
                for _ in 0..hands[c].count(k) {
                    pos.add_hand(c, k);
                }
            }
        }
        pos.side = side;
        if side == Color::White {
            pos.key ^= ZOBRIST.side;
        }
        pos.checkers = pos.compute_checkers();
        pos
    }

    /// True when the side to move cannot capture the enemy king (the test SFEN input must pass).
    pub fn enemy_king_safe(&self) -> bool {
        self.kings[!self.side]
            .is_none_or(|k| self.attackers_to(k, self.side, self.occupied()).is_empty())
    }

    /// The piece on `sq` (possibly [`Piece::NONE`]).
    #[inline(always)]
    pub fn piece_at(&self, sq: Square) -> Piece {
        self.squares[sq.index()]
    }

    /// Every occupied square.
    #[inline(always)]
    pub fn occupied(&self) -> Bitboard {
        self.by_color.0[0] | self.by_color.0[1]
    }

    /// The squares of `color`'s pieces.
    #[inline(always)]
    pub fn color_bb(&self, color: Color) -> Bitboard {
        self.by_color[color]
    }

    /// What `color` holds in hand.
    #[inline(always)]
    pub fn hand(&self, color: Color) -> Hand {
        self.hands[color]
    }

    /// The square of `color`'s king, or `None` while it is still in hand.
    #[inline(always)]
    pub fn king(&self, color: Color) -> Option<Square> {
        self.kings[color]
    }

    /// Pieces giving check to the side to move.
    #[inline(always)]
    pub fn checkers(&self) -> Bitboard {
        self.checkers
    }

    /// The move number from the SFEN, advanced by every move played.
    pub fn move_number(&self) -> u32 {
        self.move_number
    }

    /// Pieces of `color` standing on `occ` that attack `sq` when the occupied squares are `occ`.
    ///
    /// Leaving a piece's square out of `occ` both removes it as an attacker and lets sliders pass it.
    #[inline(always)]
    pub fn attackers_to(&self, sq: Square, color: Color, occ: Bitboard) -> Bitboard {
        self.attackers_among(sq, color, self.by_color[color] & occ, occ)
    }

    /// The pieces of `color` on the squares `among` (each showing its current state) that attack `sq`
    /// when the occupied squares are `occ`.
    #[inline(always)]
    pub(super) fn attackers_among(
        &self,
        sq: Square,
        color: Color,
        among: Bitboard,
        occ: Bitboard,
    ) -> Bitboard {
        let t = &*TABLES;
        let mut att = Bitboard::EMPTY;
        for from in among {
            if t.attacks(self.squares[from.index()].state(), color, from, occ)
                .has(sq)
            {
                att = att.with(from);
            }
        }
        att
    }

    fn put(&mut self, sq: Square, piece: Piece) {
        self.squares[sq.index()] = piece;
        self.by_color[piece.color()] |= Bitboard::from_square(sq);
        self.key ^= ZOBRIST.board[piece.index()][sq.index()];
        if piece.state() == State::King {
            self.kings[piece.color()] = Some(sq);
        }
    }

    fn remove(&mut self, sq: Square) -> Piece {
        let piece = self.squares[sq.index()];
        self.squares[sq.index()] = Piece::NONE;
        self.by_color[piece.color()] ^= Bitboard::from_square(sq);
        self.key ^= ZOBRIST.board[piece.index()][sq.index()];
        piece
    }

    fn add_hand(&mut self, color: Color, kind: Kind) {
        // Hand keys are per count and combined by XOR (see core::zobrist).
        let n = &mut self.hands[color].0[kind.index()];
        *n += 1;
        self.key ^= ZOBRIST.hand[color.index()][kind.index()][*n as usize];
    }

    fn take_hand(&mut self, color: Color, kind: Kind) {
        let n = &mut self.hands[color].0[kind.index()];
        self.key ^= ZOBRIST.hand[color.index()][kind.index()][*n as usize];
        *n -= 1;
    }

    fn compute_checkers(&self) -> Bitboard {
        match self.kings[self.side] {
            Some(k) => self.attackers_to(k, !self.side, self.occupied()),
            None => Bitboard::EMPTY,
        }
    }

    /// Checks what a well-formed SFEN may still get wrong: at most one king per player (on the
    /// board or in hand; RULES.md §0 lets a position, a mate problem say, leave out one side's
    /// king), at most two cubes of each kind, and the enemy king left capturable.
    fn validate(&self) -> Result<(), SfenError> {
        for c in Color::ALL {
            let held = self.hands[c].count(Kind::King);
            match (self.kings[c].is_some(), held) {
                (true, 0) | (false, 0) | (false, 1) => {}
                (true, _) => {
                    return Err(SfenError::Illegal(format!(
                        "{} has a king on the board and another in hand",
                        color_name(c)
                    )));
                }
                (false, _) => {
                    return Err(SfenError::Illegal(format!(
                        "{} holds {held} kings",
                        color_name(c)
                    )));
                }
            }
        }
        sfen::check_piece_set(self)?;
        if let Some(k) = self.kings[!self.side]
            && self.attackers_to(k, self.side, self.occupied()).any()
        {
            return Err(SfenError::Illegal(
                "the side to move could capture the enemy king".into(),
            ));
        }
        Ok(())
    }
}

/// Nana shogi's pieces as SFEN writes them, for the shared board-and-hands helpers.
impl SfenBoard for Nana {
    type Piece = Piece;
    type HandKind = Kind;
    const GAME: &'static str = "nana shogi";
    const GEOMETRY: Geometry = GEOMETRY;
    const PROMOTION: bool = false;
    const HAND_ORDER: &'static [Kind] = &Kind::ALL;

    fn board_piece(color: Color, letter: char, _promoted: bool) -> Result<Piece, String> {
        State::from_letter(letter)
            .map(|state| Piece::new(color, state))
            .ok_or_else(|| format!("unknown piece letter '{letter}' (K R C W I B T M D)"))
    }

    fn is_king(piece: Piece) -> bool {
        piece.state() == State::King
    }

    fn counted_as(piece: Piece) -> Option<Kind> {
        Some(piece.state().kind())
    }

    fn write_piece(piece: Piece, out: &mut String) {
        out.push(piece.letter());
    }

    fn hand_kind(letter: char) -> Result<Kind, String> {
        Kind::from_hand_letter(letter).ok_or_else(|| {
            if State::from_letter(letter).is_some() {
                format!(
                    "'{letter}' is a cube state; a cube in hand has none and is written R \
                     (orthogonal) or B (diagonal)"
                )
            } else {
                format!("unknown piece letter '{letter}' (K R B)")
            }
        })
    }

    fn hand_letter(kind: Kind) -> char {
        kind.letter()
    }

    fn kind_name(kind: Kind) -> &'static str {
        kind.plural()
    }

    fn in_set(kind: Kind) -> u32 {
        kind.in_set() as u32
    }

    fn piece_on(&self, sq: Square) -> Option<Piece> {
        Some(self.piece_at(sq)).filter(|p| !p.is_none())
    }

    fn held(&self, color: Color, kind: Kind) -> u32 {
        self.hands[color].count(kind) as u32
    }
}

impl Position for Nana {
    const NAME: &'static str = NAME;
    type Move = Move;
    type Rules = ();

    fn startpos() -> Self {
        Self::from_sfen(START_SFEN).expect("the start SFEN is valid")
    }

    fn from_sfen(sfen: &str) -> Result<Self, SfenError> {
        let fields = sfen::split(sfen)?;
        let mut pos = Nana::empty();
        sfen::parse_board::<Self>(fields.board, |sq, piece| pos.put(sq, piece))?;
        pos.side = fields.side;
        if pos.side == Color::White {
            pos.key ^= ZOBRIST.side;
        }
        sfen::parse_hand::<Self>(fields.hand, |color, kind| pos.add_hand(color, kind))?;
        pos.move_number = fields.move_number;
        pos.validate()?;
        pos.checkers = pos.compute_checkers();
        Ok(pos)
    }

    fn to_sfen(&self) -> String {
        sfen::to_sfen(self, self.side, self.move_number)
    }

    #[inline(always)]
    fn side_to_move(&self) -> Color {
        self.side
    }

    #[inline(always)]
    fn key(&self) -> u64 {
        self.key
    }

    #[inline(always)]
    fn in_check(&self) -> bool {
        self.checkers.any()
    }

    fn legal_moves(&self, list: &mut MoveList) {
        self.generate(1, list);
    }

    fn count_legal_moves(&self) -> usize {
        let mut n = 0usize;
        self.generate(1, &mut n);
        n
    }

    fn play(&mut self, mv: Move) {
        let us = self.side;
        let to = mv.to();
        if mv.is_drop() {
            let state = State::from_code(mv.drop_piece());
            self.take_hand(us, state.kind());
            self.put(to, Piece::new(us, state));
        } else {
            let piece = self.remove(mv.from());
            debug_assert!(!piece.is_none() && piece.color() == us);
            if !self.piece_at(to).is_none() {
                let captured = self.remove(to);
                debug_assert!(captured.color() != us && captured.state() != State::King);
                self.add_hand(us, captured.state().kind());
            }
            self.put(to, Piece::new(us, piece.state().next()));
        }
        self.side = !us;
        self.key ^= ZOBRIST.side;
        self.move_number += 1;
        self.checkers = self.compute_checkers();
    }

    fn move_to_usi(&self, mv: Move) -> String {
        if mv.is_drop() {
            format!(
                "{}*{}",
                State::from_code(mv.drop_piece()).letter(),
                square_text(mv.to())
            )
        } else {
            format!("{}{}", square_text(mv.from()), square_text(mv.to()))
        }
    }

    fn parse_move_syntax(&self, text: &str) -> Result<Move, MoveError> {
        let geo = GEOMETRY;
        let bad = |why: &str| MoveError::Syntax(text.to_string(), why.to_string());
        let b = text.as_bytes();
        if b.len() == 4 && b[1] == b'*' {
            let state = State::from_letter(b[0] as char)
                .filter(|_| b[0].is_ascii_uppercase())
                .ok_or_else(|| {
                    bad("a drop starts with an uppercase letter of K R C W I B T M D")
                })?;
            let to = geo
                .parse_square(&b[2..4])
                .ok_or_else(|| bad("bad destination square (1a-3c)"))?;
            return Ok(Move::drop(state as u8, to));
        }
        if b.len() == 5 && b[4] == b'+' {
            return Err(bad(
                "nana shogi has no promotion: a board move has no '+' (the cube turns by itself)",
            ));
        }
        if b.len() == 4 {
            let from = geo
                .parse_square(&b[0..2])
                .ok_or_else(|| bad("bad origin square (1a-3c)"))?;
            let to = geo
                .parse_square(&b[2..4])
                .ok_or_else(|| bad("bad destination square (1a-3c)"))?;
            if from == to {
                return Err(bad("origin and destination are the same square"));
            }
            return Ok(Move::normal(from, to, false));
        }
        Err(bad(
            "expected <from><to> such as 1c1b, or <state>*<to> such as C*1b or K*3c",
        ))
    }

    fn explain_illegal(&self, mv: Move) -> String {
        self.illegal_reason(mv)
    }

    fn repetition(
        &self,
        history: &[HistoryEntry],
        occurrences: usize,
        _rules: &RuleOptions<()>,
    ) -> Option<Verdict> {
        super::rules::repetition_verdict(history, occurrences)
    }

    fn diagram(&self) -> String {
        sfen::diagram(self, self.side)
    }
}

/// The mate solver's defaults: no hand dominance (mating with pieces in hand is illegal).
impl MateGame for Nana {}
