//! The shogi-family position: pieces, hands, side to move, incremental hash; SFEN and move text.

use std::marker::PhantomData;

use super::Variant;
use super::types::{Hand, KIND_COUNT, Kind, PASS, Piece};
use crate::core::bitboard::Bitboard;
use crate::core::color::{ByColor, Color};
use crate::core::game::Position;
use crate::core::moves::{Move, MoveList};
use crate::core::repetition::HistoryEntry;
use crate::core::rules::{RuleOptions, Verdict};
use crate::core::sfen::{self, SfenBoard};
use crate::core::square::{Geometry, MAX_SQUARES, Square};
use crate::core::zobrist::{ZOBRIST, Zobrist};
use crate::error::{MoveError, SfenError};
use crate::mate::MateGame;

/// `EXTRA_KEYS[n]`: the shogi family's own Zobrist keys, toggled while Black still has `n` moves
/// of an extra-move handicap to make (`EXTRA_KEYS[0]` is 0).
static EXTRA_KEYS: std::sync::LazyLock<[u64; 4]> = std::sync::LazyLock::new(|| {
    let [one, two, three] = Zobrist::extension_keys::<3>();
    [0, one, two, three]
});

/// A position of a shogi-family game `V`.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Board<V: Variant> {
    pub(super) squares: [Piece; MAX_SQUARES],
    pub(super) by_color: ByColor<Bitboard>,
    pub(super) by_kind: [Bitboard; KIND_COUNT],
    pub(super) hands: ByColor<Hand>,
    pub(super) kings: ByColor<Option<Square>>,
    pub(super) side: Color,
    pub(super) checkers: Bitboard,
    pub(super) key: u64,
    /// The hands' share of `key` (the Zobrist keys of the pieces held), kept beside it so that
    /// the mate solver's key of the board alone is `key` without it at no cost.
    hand_key: u64,
    /// Placement score (material, advance, promotion threats, hands), Black's minus White's.
    pub(super) material: i32,
    /// Moves Black still makes in a row under an extra-move handicap (White passes meanwhile).
    pub(super) extra_moves: u8,
    pub(super) move_number: u32,
    variant: PhantomData<V>,
}

impl<V: Variant> Board<V> {
    fn empty() -> Board<V> {
        Board {
            squares: [Piece::NONE; MAX_SQUARES],
            by_color: ByColor::default(),
            by_kind: [Bitboard::EMPTY; KIND_COUNT],
            hands: ByColor::default(),
            kings: ByColor([None, None]),
            side: Color::Black,
            checkers: Bitboard::EMPTY,
            key: 0,
            hand_key: 0,
            material: 0,
            extra_moves: 0,
            move_number: 1,
            variant: PhantomData,
        }
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

    /// The squares of `color`'s pieces of `kind`.
    #[inline(always)]
    pub fn pieces(&self, color: Color, kind: Kind) -> Bitboard {
        self.by_kind[kind.index()] & self.by_color[color]
    }

    /// The squares of `color`'s gold and gold-moving promoted pieces.
    #[inline(always)]
    pub fn golds(&self, color: Color) -> Bitboard {
        (self.by_kind[Kind::Gold.index()]
            | self.by_kind[Kind::ProPawn.index()]
            | self.by_kind[Kind::ProLance.index()]
            | self.by_kind[Kind::ProKnight.index()]
            | self.by_kind[Kind::ProSilver.index()])
            & self.by_color[color]
    }

    /// What `color` holds in hand.
    #[inline(always)]
    pub fn hand(&self, color: Color) -> Hand {
        self.hands[color]
    }

    /// The sum of `value` over `color`'s pieces, on the board and in hand (each piece in hand
    /// counted as often as it is held).
    pub fn piece_sum(&self, color: Color, value: impl Fn(Kind) -> i32) -> i32 {
        let board: i32 = self
            .color_bb(color)
            .map(|sq| value(self.piece_at(sq).kind()))
            .sum();
        let hand = self.hand(color);
        board
            + Kind::HAND
                .iter()
                .map(|&k| hand.count(k) as i32 * value(k))
                .sum::<i32>()
    }

    /// The square of `color`'s king, if it has one (tsume problems often leave out the attacker's).
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

    /// Pieces of `color` attacking `sq` when the occupied squares are `occ`.
    #[inline(always)]
    pub fn attackers_to(&self, sq: Square, color: Color, occ: Bitboard) -> Bitboard {
        (self.steppers_to(sq, color) & self.by_color[color])
            | self.slider_attackers_to(sq, color, occ)
    }

    /// Pieces of `color` attacking `sq` along a line (lances, bishops, rooks and their promoted
    /// forms) when the occupied squares are `occ`.
    #[inline(always)]
    pub(super) fn slider_attackers_to(&self, sq: Square, color: Color, occ: Bitboard) -> Bitboard {
        let t = V::tables();
        let them = (!color).index();
        let i = sq.index();
        let k = &self.by_kind;
        let mine = self.by_color[color];
        let mut att = Bitboard::EMPTY;
        // Sliders: a line is only traced when a slider of that kind stands on it.
        let lances = k[Kind::Lance.index()] & mine & t.lines.rays[them][i];
        if lances.any() {
            att |= t.lance(!color, sq, occ) & lances;
        }
        // Bishops and rooks: each of the four directions only where such a slider lies on it.
        let bishops = (k[Kind::Bishop.index()] | k[Kind::Horse.index()]) & mine;
        if (bishops & t.bishop_empty[i]).any() {
            att |= Self::traced(4..8, sq, occ, bishops);
        }
        let rooks = (k[Kind::Rook.index()] | k[Kind::Dragon.index()]) & mine;
        if (rooks & t.rook_empty[i]).any() {
            att |= Self::traced(0..4, sq, occ, rooks);
        }
        att & mine
    }

    /// The `sliders` that reach `sq` along the line directions `dirs` (indices of
    /// [`crate::core::square::DIRECTIONS`]), each direction traced only when one of them lies on it.
    #[inline(always)]
    fn traced(
        dirs: std::ops::Range<usize>,
        sq: Square,
        occ: Bitboard,
        sliders: Bitboard,
    ) -> Bitboard {
        let lines = &V::tables().lines;
        let mut att = Bitboard::EMPTY;
        for d in dirs {
            if (lines.rays[d][sq.index()] & sliders).any() {
                att |= lines.slide(d, sq, occ) & sliders;
            }
        }
        att
    }

    /// True when a piece of `color` attacks `sq` with occupancy `occ`: [`Board::attackers_to`]
    /// asked only whether there is one, so that no line is traced when a step attacks (and the
    /// steps are not looked at twice when none does).
    #[inline(always)]
    pub fn is_attacked(&self, sq: Square, color: Color, occ: Bitboard) -> bool {
        (self.steppers_to(sq, color) & self.by_color[color]).any()
            || self.slider_attackers_to(sq, color, occ).any()
    }

    /// Pieces of either color standing where a piece of that kind of `color` would attack `sq`
    /// by a step or a knight's jump (the horse's and dragon's steps included); masked with
    /// `color`'s pieces, the attackers by a step.
    #[inline(always)]
    fn steppers_to(&self, sq: Square, color: Color) -> Bitboard {
        let t = V::tables();
        let them = (!color).index();
        let i = sq.index();
        let k = &self.by_kind;
        let hd = k[Kind::Horse.index()] | k[Kind::Dragon.index()];
        (t.pawn[them][i] & k[Kind::Pawn.index()])
            | (t.knight[them][i] & k[Kind::Knight.index()])
            | (t.silver[them][i] & k[Kind::Silver.index()])
            | (t.gold[them][i]
                & (k[Kind::Gold.index()]
                    | k[Kind::ProPawn.index()]
                    | k[Kind::ProLance.index()]
                    | k[Kind::ProKnight.index()]
                    | k[Kind::ProSilver.index()]))
            | (t.king[i] & (k[Kind::King.index()] | hd))
    }

    /// Plays the legal move `mv` but leaves [`Board::checkers`] to the caller: [`Position::play`]
    /// computes them, and the search sets them at no cost for a move it knows not to check.
    fn make(&mut self, mv: Move) {
        let us = self.side;
        let to = mv.to();
        if V::EXTRA_MOVES && self.extra_moves > 0 {
            if mv == PASS {
                self.side = !us;
                self.key ^= ZOBRIST.side;
                self.move_number += 1;
                return;
            }
            self.key ^= EXTRA_KEYS[self.extra_moves as usize];
            self.extra_moves -= 1;
            self.key ^= EXTRA_KEYS[self.extra_moves as usize];
        }
        if mv.is_drop() {
            let kind = Kind::from_code(mv.drop_piece());
            self.take_hand(us, kind);
            self.put(to, Piece::new(us, kind));
        } else {
            let piece = self.remove(mv.from());
            debug_assert!(!piece.is_none() && piece.color() == us);
            if !self.piece_at(to).is_none() {
                let captured = self.remove(to);
                debug_assert!(captured.color() != us && captured.kind() != Kind::King);
                self.add_hand(us, captured.kind().unpromoted());
            }
            let kind = if mv.is_promotion() {
                piece.kind().promoted()
            } else {
                piece.kind()
            };
            self.put(to, Piece::new(us, kind));
        }
        self.side = !us;
        self.key ^= ZOBRIST.side;
        self.move_number += 1;
    }

    /// Plays the legal move `mv`, known to give check or not as `gives_check` says, without
    /// looking for the checkers of a move that gives none.
    #[inline]
    pub fn play_known_check(&mut self, mv: Move, gives_check: bool) {
        self.make(mv);
        self.checkers = if gives_check {
            self.compute_checkers()
        } else {
            Bitboard::EMPTY
        };
        debug_assert_eq!(self.checkers, self.compute_checkers());
    }

    /// The key of the position after the legal move `mv`, without playing it (the same key
    /// [`Position::play`] computes), so that the search can fetch the child's table entry early.
    #[inline]
    pub fn key_after(&self, mv: Move) -> u64 {
        let us = self.side;
        let z = &*ZOBRIST;
        let mut key = self.key ^ z.side;
        if V::EXTRA_MOVES && self.extra_moves > 0 {
            if mv == PASS {
                return key;
            }
            let n = self.extra_moves as usize;
            key ^= EXTRA_KEYS[n] ^ EXTRA_KEYS[n - 1];
        }
        let to = mv.to();
        if mv.is_drop() {
            let kind = Kind::from_code(mv.drop_piece());
            let held = self.hands[us].0[kind.index()] as usize;
            return key
                ^ z.hand[us.index()][kind.index()][held]
                ^ z.board[Piece::new(us, kind).index()][to.index()];
        }
        let piece = self.piece_at(mv.from());
        let captured = self.piece_at(to);
        if !captured.is_none() {
            let kind = captured.kind().unpromoted();
            let held = self.hands[us].0[kind.index()] as usize;
            key ^=
                z.board[captured.index()][to.index()] ^ z.hand[us.index()][kind.index()][held + 1];
        }
        let placed = if mv.is_promotion() {
            Piece::new(us, piece.kind().promoted())
        } else {
            piece
        };
        key ^ z.board[piece.index()][mv.from().index()] ^ z.board[placed.index()][to.index()]
    }

    fn put(&mut self, sq: Square, piece: Piece) {
        self.squares[sq.index()] = piece;
        self.by_color[piece.color()] |= Bitboard::from_square(sq);
        self.by_kind[piece.kind().index()] |= Bitboard::from_square(sq);
        self.key ^= ZOBRIST.board[piece.index()][sq.index()];
        self.material += Self::signed_placement(piece, sq);
        if piece.kind() == Kind::King {
            self.kings[piece.color()] = Some(sq);
        }
    }

    fn remove(&mut self, sq: Square) -> Piece {
        let piece = self.squares[sq.index()];
        self.squares[sq.index()] = Piece::NONE;
        self.by_color[piece.color()] ^= Bitboard::from_square(sq);
        self.by_kind[piece.kind().index()] ^= Bitboard::from_square(sq);
        self.key ^= ZOBRIST.board[piece.index()][sq.index()];
        self.material -= Self::signed_placement(piece, sq);
        piece
    }

    /// The placement value of `piece` on `sq`, from Black's point of view.
    #[inline(always)]
    fn signed_placement(piece: Piece, sq: Square) -> i32 {
        let c = piece.color();
        let v = V::tables().placement[c.index()][piece.kind().index()][sq.index()];
        match c {
            Color::Black => v,
            Color::White => -v,
        }
    }

    /// The value of a piece of `kind` in `color`'s hand, from Black's point of view.
    #[inline(always)]
    fn signed_hand_value(color: Color, kind: Kind) -> i32 {
        let v = V::EVAL.hand[kind.index()];
        match color {
            Color::Black => v,
            Color::White => -v,
        }
    }

    fn add_hand(&mut self, color: Color, kind: Kind) {
        let n = &mut self.hands[color].0[kind.index()];
        *n += 1;
        let h = ZOBRIST.hand[color.index()][kind.index()][*n as usize];
        self.key ^= h;
        self.hand_key ^= h;
        self.material += Self::signed_hand_value(color, kind);
    }

    fn take_hand(&mut self, color: Color, kind: Kind) {
        let n = &mut self.hands[color].0[kind.index()];
        let h = ZOBRIST.hand[color.index()][kind.index()][*n as usize];
        self.key ^= h;
        self.hand_key ^= h;
        *n -= 1;
        self.material -= Self::signed_hand_value(color, kind);
    }

    /// Moves Black still has to make in a row under an extra-move handicap (0 when none).
    pub fn extra_moves(&self) -> u8 {
        self.extra_moves
    }

    /// The same position with the other side to move (a null move, for the search); the side to
    /// move must not be in check.
    pub fn with_turn_passed(&self) -> Board<V> {
        let mut next = self.clone();
        next.side = !self.side;
        next.key ^= ZOBRIST.side;
        next.checkers = next.compute_checkers();
        next
    }

    fn compute_checkers(&self) -> Bitboard {
        match self.kings[self.side] {
            Some(k) => self.attackers_to(k, !self.side, self.occupied()),
            None => Bitboard::EMPTY,
        }
    }

    /// Checks what a well-formed SFEN may still get wrong: kinds the game lacks, more pieces of a
    /// kind than the set has, dead pieces, nifu, and a king left in check by the player who just
    /// moved.
    fn validate(&self) -> Result<(), SfenError> {
        let t = V::tables();
        // A piece kind the game does not have is refused by name, then a kind with more pieces on
        // the board and in hand than the set has.
        for sq in self.occupied() {
            let k = self.piece_at(sq).kind().unpromoted();
            if V::PIECE_SET[k.index()] == 0 {
                return Err(SfenError::Illegal(format!(
                    "{} has no '{}' piece",
                    V::NAME,
                    k.letter()
                )));
            }
        }
        sfen::check_piece_set(self)?;
        for c in Color::ALL {
            let ci = c.index();
            let dead = (self.pieces(c, Kind::Pawn) & t.last_rank[ci])
                | (self.pieces(c, Kind::Lance) & t.last_rank[ci])
                | (self.pieces(c, Kind::Knight) & t.last_two[ci]);
            if dead.any() {
                let sq = dead.lsb();
                let n = V::GEOMETRY.square_name(sq);
                return Err(SfenError::Illegal(format!(
                    "{} on {}{} can never move",
                    self.piece_at(sq).sfen(),
                    n[0],
                    n[1]
                )));
            }
            for f in 0..V::GEOMETRY.files {
                if (self.pieces(c, Kind::Pawn) & t.files[f as usize]).more_than_one() {
                    return Err(SfenError::Illegal(format!(
                        "two unpromoted pawns of one player on file {} (nifu)",
                        f + 1
                    )));
                }
            }
        }
        if let Some(k) = self.kings[!self.side]
            && self.is_attacked(k, self.side, self.occupied())
        {
            return Err(SfenError::Illegal(
                "the side to move could capture the enemy king".into(),
            ));
        }
        Ok(())
    }

    fn square_text(sq: Square) -> String {
        V::GEOMETRY.square_name(sq).iter().collect()
    }

    /// Begins an extra-move handicap (minishogi's `MinishogiExtraMoves`): Black makes his next `moves` moves in a row, none a capture, and White answers
    /// each with `pass` (also before Black's first when White is to move). Only at a game's first
    /// position (move number 1) and with `moves` ≥ 2, in a variant that knows such handicaps
    /// ([`Variant::EXTRA_MOVES`]); otherwise nothing changes.
    pub fn begin_extra_moves(&mut self, moves: u8) {
        if !V::EXTRA_MOVES || moves < 2 || self.move_number != 1 {
            return;
        }
        let moves = moves.min(3);
        self.key ^= EXTRA_KEYS[self.extra_moves as usize];
        self.extra_moves = moves;
        self.key ^= EXTRA_KEYS[moves as usize];
    }
}

/// Shogi's pieces as SFEN writes them, for the shared board-and-hands helpers.
impl<V: Variant> SfenBoard for Board<V> {
    type Piece = Piece;
    type HandKind = Kind;
    const GAME: &'static str = V::NAME;
    const GEOMETRY: Geometry = V::GEOMETRY;
    const PROMOTION: bool = true;
    const HAND_ORDER: &'static [Kind] = &Kind::HAND_WRITING_ORDER;

    fn board_piece(color: Color, letter: char, promoted: bool) -> Result<Piece, String> {
        let kind =
            Kind::from_letter(letter).ok_or_else(|| format!("unknown piece letter '{letter}'"))?;
        if !promoted {
            Ok(Piece::new(color, kind))
        } else if kind.can_promote() {
            Ok(Piece::new(color, kind.promoted()))
        } else {
            Err(format!("'{letter}' cannot be promoted"))
        }
    }

    fn is_king(piece: Piece) -> bool {
        piece.kind() == Kind::King
    }

    fn counted_as(piece: Piece) -> Option<Kind> {
        Some(piece.kind().unpromoted()).filter(|&k| k != Kind::King)
    }

    fn write_piece(piece: Piece, out: &mut String) {
        out.push_str(&piece.sfen());
    }

    fn hand_kind(letter: char) -> Result<Kind, String> {
        match Kind::from_letter(letter) {
            None => Err(format!("unknown piece letter '{letter}'")),
            Some(Kind::King) => Err("a king cannot be held in hand".into()),
            Some(kind) => Ok(kind),
        }
    }

    fn hand_letter(kind: Kind) -> char {
        kind.letter()
    }

    fn kind_name(kind: Kind) -> &'static str {
        kind.plural()
    }

    fn in_set(kind: Kind) -> u32 {
        V::PIECE_SET[kind.index()] as u32
    }

    fn piece_on(&self, sq: Square) -> Option<Piece> {
        Some(self.piece_at(sq)).filter(|p| !p.is_none())
    }

    fn held(&self, color: Color, kind: Kind) -> u32 {
        self.hands[color].count(kind) as u32
    }
}

impl<V: Variant> Position for Board<V> {
    const NAME: &'static str = V::NAME;
    type Move = Move;
    type Rules = V::Rules;

    fn startpos() -> Self {
        Self::from_sfen(V::START_SFEN).expect("the start SFEN is valid")
    }

    fn from_sfen(sfen: &str) -> Result<Self, SfenError> {
        let fields = sfen::split(sfen)?;
        let mut pos = Board::empty();
        sfen::parse_board::<Self>(fields.board, |sq, piece| pos.put(sq, piece))?;
        pos.side = fields.side;
        if pos.side == Color::White {
            pos.key ^= ZOBRIST.side;
        }
        sfen::parse_hand::<Self>(fields.hand, |color, kind| pos.add_hand(color, kind))?;
        pos.move_number = fields.move_number;
        pos.validate()?;
        pos.checkers = pos.compute_checkers();
        pos.material = pos.compute_material();
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
        self.generate(list);
    }

    #[inline]
    fn count_legal_moves(&self) -> usize {
        let mut n = 0usize;
        self.generate(&mut n);
        n
    }

    fn has_king(&self, color: Color) -> bool {
        self.kings[color].is_some()
    }

    fn opponent_in_check(&self) -> bool {
        self.kings[!self.side].is_some_and(|k| self.is_attacked(k, self.side, self.occupied()))
    }

    #[inline]
    fn play(&mut self, mv: Move) {
        self.make(mv);
        self.checkers = self.compute_checkers();
    }

    fn begin_game(&mut self, rules: &V::Rules) {
        V::begin_game(self, rules);
    }

    fn move_to_usi(&self, mv: Move) -> String {
        if mv == PASS {
            "pass".into()
        } else if mv.is_drop() {
            format!(
                "{}*{}",
                Kind::from_code(mv.drop_piece()).letter(),
                Self::square_text(mv.to())
            )
        } else {
            format!(
                "{}{}{}",
                Self::square_text(mv.from()),
                Self::square_text(mv.to()),
                if mv.is_promotion() { "+" } else { "" }
            )
        }
    }

    fn parse_move_syntax(&self, text: &str) -> Result<Move, MoveError> {
        let geo = V::GEOMETRY;
        let bad = |why: &str| MoveError::Syntax(text.to_string(), why.to_string());
        let b = text.as_bytes();
        if text == "pass" {
            return if V::EXTRA_MOVES {
                Ok(PASS)
            } else {
                Err(bad("this game has no pass move"))
            };
        }
        if b.len() == 4 && b[1] == b'*' {
            let kind = Kind::from_letter(b[0] as char)
                .filter(|k| *k != Kind::King && b[0].is_ascii_uppercase())
                .ok_or_else(|| bad("a drop starts with an uppercase letter of P L N S G B R"))?;
            let to = geo
                .parse_square(&b[2..4])
                .ok_or_else(|| bad("bad destination square"))?;
            return Ok(Move::drop(kind as u8, to));
        }
        if b.len() == 4 || (b.len() == 5 && b[4] == b'+') {
            let from = geo
                .parse_square(&b[0..2])
                .ok_or_else(|| bad("bad origin square"))?;
            let to = geo
                .parse_square(&b[2..4])
                .ok_or_else(|| bad("bad destination square"))?;
            return Ok(Move::normal(from, to, b.len() == 5));
        }
        Err(bad(
            "expected <from><to>[+] such as 7g7f, or <piece>*<to> such as P*5e",
        ))
    }

    fn explain_illegal(&self, mv: Move) -> String {
        self.illegal_reason(mv)
    }

    fn repetition(
        &self,
        history: &[HistoryEntry],
        occurrences: usize,
        rules: &RuleOptions<V::Rules>,
    ) -> Option<Verdict> {
        let plies = history.len().saturating_sub(1);
        let first_mover = if plies.is_multiple_of(2) {
            self.side
        } else {
            !self.side
        };
        super::rules::judge_repetition(history, occurrences, |rep| {
            V::quiet_repetition(rep, self.side, first_mover, &rules.game)
        })
    }

    fn special_end(&self, rules: &RuleOptions<V::Rules>) -> Option<Verdict> {
        V::special_end(self, &rules.game)
    }

    fn can_declare(&self, rules: &RuleOptions<V::Rules>) -> bool {
        V::can_declare(self, &rules.game)
    }

    fn diagram(&self) -> String {
        sfen::diagram(self, self.side)
    }
}

impl<V: Variant> MateGame for Board<V> {
    fn checking_moves(&self, list: &mut MoveList) {
        self.generate_checks(list);
    }

    fn count_replies_merging_drops(&self) -> usize {
        Board::count_replies_merging_drops(self)
    }

    fn board_key(&self) -> u64 {
        self.key ^ self.hand_key
    }

    fn packed_hand(&self, color: Color) -> u64 {
        u64::from_le_bytes(self.hands[color].0)
    }

    fn check_is_interposable(&self) -> bool {
        let (Some(k), false) = (self.kings[self.side], self.checkers.more_than_one()) else {
            return false;
        };
        self.checkers.any() && V::tables().lines.between(k, self.checkers.lsb()).any()
    }
}
