//! The nana shogi position: pieces with their states, hands, side to move, incremental hash; SFEN and
//! move text.

use std::fmt::Write;

use super::attacks::{GEOMETRY, TABLES};
use super::types::{Hand, KIND_COUNT, Kind, Piece, State};
use crate::core::bitboard::Bitboard;
use crate::core::color::{ByColor, Color};
use crate::core::game::Position;
use crate::core::moves::{Move, MoveList};
use crate::core::repetition::HistoryEntry;
use crate::core::rules::{RuleOptions, Verdict};
use crate::core::square::Square;
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

/// The English name of a colour, for messages.
pub(super) fn color_name(c: Color) -> &'static str {
    match c {
        Color::Black => "Black",
        Color::White => "White",
    }
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

    fn parse_board(&mut self, text: &str) -> Result<(), SfenError> {
        let geo = GEOMETRY;
        let rows: Vec<&str> = text.split('/').collect();
        if rows.len() != geo.ranks as usize {
            return Err(SfenError::Board(format!(
                "{} ranks given, {} expected",
                rows.len(),
                geo.ranks
            )));
        }
        for (r, row) in rows.iter().enumerate() {
            let rank_name = (b'a' + r as u8) as char;
            let too_long = || {
                SfenError::Board(format!(
                    "rank {rank_name} has more than {} squares",
                    geo.files
                ))
            };
            let mut file = geo.files as i32; // next file to fill, counting down to 1
            for ch in row.chars() {
                if let Some(d) = ch.to_digit(10) {
                    if d == 0 {
                        return Err(SfenError::Board(format!(
                            "rank {rank_name}: empty run of 0"
                        )));
                    }
                    file -= d as i32;
                    if file < 0 {
                        return Err(too_long());
                    }
                    continue;
                }
                if ch == '+' {
                    return Err(SfenError::Board(format!(
                        "rank {rank_name}: nana shogi has no promoted pieces ('+')"
                    )));
                }
                let state = State::from_letter(ch).ok_or_else(|| {
                    SfenError::Board(format!(
                        "rank {rank_name}: unknown piece letter '{ch}' (K R C W I B T M D)"
                    ))
                })?;
                if file < 1 {
                    return Err(too_long());
                }
                let color = if ch.is_ascii_uppercase() {
                    Color::Black
                } else {
                    Color::White
                };
                if state == State::King && self.kings[color].is_some() {
                    return Err(SfenError::Illegal(format!(
                        "two {} kings",
                        color_name(color)
                    )));
                }
                self.put(
                    geo.square(file as u8 - 1, r as u8),
                    Piece::new(color, state),
                );
                file -= 1;
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

    fn parse_hand(&mut self, text: &str) -> Result<(), SfenError> {
        if text == "-" {
            return Ok(());
        }
        let mut count: Option<u32> = None;
        let mut seen = [[false; KIND_COUNT]; 2];
        for ch in text.chars() {
            if let Some(d) = ch.to_digit(10) {
                let c = count.unwrap_or(0) * 10 + d;
                if c > 99 {
                    return Err(SfenError::Hand(format!("count too large in '{text}'")));
                }
                count = Some(c);
                continue;
            }
            let kind = Kind::from_hand_letter(ch).ok_or_else(|| {
                SfenError::Hand(if State::from_letter(ch).is_some() {
                    format!(
                        "'{ch}' is a cube state; a cube in hand has none and is written R \
                         (orthogonal) or B (diagonal)"
                    )
                } else {
                    format!("unknown piece letter '{ch}' (K R B)")
                })
            })?;
            let color = if ch.is_ascii_uppercase() {
                Color::Black
            } else {
                Color::White
            };
            let n = count.take().unwrap_or(1);
            if n == 0 {
                return Err(SfenError::Hand(format!("zero count before '{ch}'")));
            }
            if std::mem::replace(&mut seen[color.index()][kind.index()], true) {
                return Err(SfenError::Hand(format!("'{ch}' appears twice")));
            }
            if n > kind.in_set() as u32 {
                return Err(SfenError::Hand(format!(
                    "{n} of '{ch}' but the set has {}",
                    kind.in_set()
                )));
            }
            for _ in 0..n {
                self.add_hand(color, kind);
            }
        }
        if count.is_some() {
            return Err(SfenError::Hand(format!("'{text}' ends with a count")));
        }
        Ok(())
    }

    /// Checks what a well-formed SFEN may still get wrong: one king per player (on the board or in
    /// hand), at most two cubes of each kind, and the enemy king left capturable.
    fn validate(&self) -> Result<(), SfenError> {
        for c in Color::ALL {
            let held = self.hands[c].count(Kind::King);
            match (self.kings[c].is_some(), held) {
                (true, 0) | (false, 1) => {}
                (false, 0) => {
                    return Err(SfenError::Illegal(format!(
                        "{} has no king, neither on the board nor in hand",
                        color_name(c)
                    )));
                }
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
        let mut totals = [0u32; KIND_COUNT];
        for sq in self.occupied() {
            totals[self.piece_at(sq).state().kind().index()] += 1;
        }
        for c in Color::ALL {
            for k in Kind::ALL {
                totals[k.index()] += self.hands[c].count(k) as u32;
            }
        }
        for k in [Kind::Orthogonal, Kind::Diagonal] {
            if totals[k.index()] > k.in_set() as u32 {
                return Err(SfenError::Illegal(format!(
                    "{} {} cubes but the set has {}",
                    totals[k.index()],
                    match k {
                        Kind::Orthogonal => "orthogonal",
                        _ => "diagonal",
                    },
                    k.in_set()
                )));
            }
        }
        if let Some(k) = self.kings[!self.side]
            && self.attackers_to(k, self.side, self.occupied()).any()
        {
            return Err(SfenError::Illegal(
                "the side to move could capture the enemy king".into(),
            ));
        }
        Ok(())
    }

    fn hand_sfen(&self) -> String {
        let mut s = String::new();
        for c in Color::ALL {
            for k in Kind::ALL {
                let n = self.hands[c].count(k);
                if n > 1 {
                    let _ = write!(s, "{n}");
                }
                if n > 0 {
                    s.push(match c {
                        Color::Black => k.letter(),
                        Color::White => k.letter().to_ascii_lowercase(),
                    });
                }
            }
        }
        if s.is_empty() {
            s.push('-');
        }
        s
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
        let fields = crate::core::sfen::split(sfen)?;
        let mut pos = Nana::empty();
        pos.parse_board(fields.board)?;
        pos.side = fields.side;
        if pos.side == Color::White {
            pos.key ^= ZOBRIST.side;
        }
        pos.parse_hand(fields.hand)?;
        pos.move_number = fields.move_number;
        pos.validate()?;
        pos.checkers = pos.compute_checkers();
        Ok(pos)
    }

    fn to_sfen(&self) -> String {
        let geo = GEOMETRY;
        let mut s = String::new();
        for r in 0..geo.ranks {
            if r > 0 {
                s.push('/');
            }
            let mut run = 0;
            for f in (0..geo.files).rev() {
                let p = self.piece_at(geo.square(f, r));
                if p.is_none() {
                    run += 1;
                } else {
                    if run > 0 {
                        let _ = write!(s, "{run}");
                        run = 0;
                    }
                    s.push(p.letter());
                }
            }
            if run > 0 {
                let _ = write!(s, "{run}");
            }
        }
        let _ = write!(
            s,
            " {} {} {}",
            self.side.sfen_char(),
            self.hand_sfen(),
            self.move_number
        );
        s
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
        let geo = GEOMETRY;
        let mut s = String::new();
        let hand_line = |c: Color| -> String {
            let h = self.hands[c];
            let parts: Vec<String> = Kind::ALL
                .iter()
                .filter(|&&k| h.count(k) > 0)
                .map(|&k| format!("{}{}", k.letter(), h.count(k)))
                .collect();
            if parts.is_empty() {
                "-".into()
            } else {
                parts.join(" ")
            }
        };
        let _ = writeln!(s, "White hand: {}", hand_line(Color::White));
        let files: String = (0..geo.files)
            .rev()
            .map(|f| format!("  {}", f + 1))
            .collect();
        let _ = writeln!(s, "{files}");
        for r in 0..geo.ranks {
            let mut line = String::new();
            for f in (0..geo.files).rev() {
                let p = self.piece_at(geo.square(f, r));
                if p.is_none() {
                    line.push_str("  .");
                } else {
                    let _ = write!(line, "  {}", p.letter());
                }
            }
            let _ = writeln!(s, "{line}  {}", (b'a' + r) as char);
        }
        let _ = writeln!(s, "Black hand: {}", hand_line(Color::Black));
        let _ = write!(s, "Side to move: {}", color_name(self.side));
        s
    }
}

/// The mate solver's defaults: no hand dominance (mating with pieces in hand is illegal).
impl MateGame for Nana {}
