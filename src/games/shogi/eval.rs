//! Evaluation v1 of the shogi family: material on the board and in hand, piece-square terms,
//! king safety and promotion threats. Every weight is a named constant in an [`EvalWeights`] value
//! per variant, so that a later tuning pass can change them in one place.

use super::Variant;
use super::position::Board;
use super::types::{KIND_COUNT, Kind};
use crate::core::bitboard::Bitboard;
use crate::core::color::Color;
use crate::core::game::Position;
use crate::core::square::{Geometry, Square};
use crate::nnue::FeatureSet;

/// The tunable weights of one variant's evaluation (centipawns).
#[derive(Clone, Copy, Debug)]
pub struct EvalWeights {
    /// Value of a piece on the board, by kind code (pawn … dragon).
    pub board: [i32; KIND_COUNT],
    /// Value of a piece in hand, by unpromoted kind code (higher than on the board: a drop can go
    /// anywhere).
    pub hand: [i32; 8],
    /// Bonus per rank advanced for pawns, lances, knights and silvers (towards promotion).
    pub advance: [i32; 4],
    /// Bonus for a gold or silver next to its own king (within one step).
    pub guard: i32,
    /// Penalty per enemy piece within two steps of the king.
    pub attacker_near_king: i32,
    /// Penalty for the king standing off its own back two ranks, per rank.
    pub king_exposure: i32,
    /// Bonus for an unpromoted rook, bishop or silver standing in the promotion zone or one rank
    /// short of it (a promotion threat).
    pub promotion_threat: i32,
    /// Bonus for the side to move (the initiative).
    pub tempo: i32,
}

/// Weights of standard shogi.
pub const SHOGI_WEIGHTS: EvalWeights = EvalWeights {
    //       P    L    N    S    B    R    G    K   +P   +L   +N   +S   +B    +R
    board: [
        90, 315, 405, 495, 855, 990, 540, 0, 540, 540, 540, 540, 945, 1395,
    ],
    hand: [110, 345, 440, 540, 990, 1150, 600, 0],
    advance: [4, 3, 6, 5],
    guard: 20,
    attacker_near_king: 25,
    king_exposure: 12,
    promotion_threat: 30,
    tempo: 20,
};

/// Which advance bonus a kind gets (index into [`EvalWeights::advance`]).
fn advance_slot(kind: Kind) -> Option<usize> {
    match kind {
        Kind::Pawn => Some(0),
        Kind::Lance => Some(1),
        Kind::Knight => Some(2),
        Kind::Silver => Some(3),
        _ => None,
    }
}

impl<V: Variant> Board<V> {
    /// Material value of the piece of `kind` on the board.
    #[inline(always)]
    pub fn piece_value(kind: Kind) -> i32 {
        V::EVAL.board[kind.index()]
    }

    /// The evaluation from the side to move's point of view, in centipawns.
    pub fn evaluate(&self) -> i32 {
        debug_assert_eq!(self.material, self.compute_material());
        let score = self.material + self.king_safety(Color::Black) - self.king_safety(Color::White);
        let score = match self.side_to_move() {
            Color::Black => score,
            Color::White => -score,
        };
        score + V::EVAL.tempo
    }

    /// The placement score, Black's minus White's: every piece's [`placement_value`] and every
    /// piece in hand, computed from scratch (the position keeps it up to date as pieces move).
    pub(super) fn compute_material(&self) -> i32 {
        let t = V::tables();
        let mut score = 0;
        for color in Color::ALL {
            let mut side = 0;
            for k in Kind::HAND {
                side += self.hand(color).count(k) as i32 * V::EVAL.hand[k.index()];
            }
            for sq in self.color_bb(color) {
                side += t.placement[color.index()][self.piece_at(sq).kind().index()][sq.index()];
            }
            score += match color {
                Color::Black => side,
                Color::White => -side,
            };
        }
        score
    }

    /// King safety of `color`: guards next to the king, enemy pieces near it, exposure.
    fn king_safety(&self, color: Color) -> i32 {
        let w = &V::EVAL;
        let t = V::tables();
        let Some(k) = self.king(color) else {
            return 0;
        };
        let near = t.king[k.index()];
        let guards = near & (self.golds(color) | self.pieces(color, Kind::Silver));
        let attackers: Bitboard = t.king_zone[k.index()] & self.color_bb(!color);
        w.guard * guards.count() as i32
            - w.attacker_near_king * attackers.count() as i32
            - w.king_exposure * (progress(V::GEOMETRY, color, k) - 1).max(0)
    }
}

/// Ranks between `sq` and `color`'s own back rank.
fn progress(geo: Geometry, color: Color, sq: Square) -> i32 {
    let r = geo.rank(sq) as i32;
    match color {
        Color::Black => geo.ranks as i32 - 1 - r,
        Color::White => r,
    }
}

/// What a piece of `kind` standing on `sq` earns `color` under `w`: its material value, its advance
/// bonus, and the promotion-threat bonus when it stands in `near_zone` (`color`'s zone grown by one
/// rank).
pub fn placement_value(
    w: &EvalWeights,
    geo: Geometry,
    near_zone: Bitboard,
    color: Color,
    kind: Kind,
    sq: Square,
) -> i32 {
    let mut score = w.board[kind.index()];
    if let Some(slot) = advance_slot(kind) {
        score += w.advance[slot] * progress(geo, color, sq);
    }
    if matches!(kind, Kind::Rook | Kind::Bishop | Kind::Silver) && near_zone.has(sq) {
        score += w.promotion_threat;
    }
    score
}

impl<V: Variant> crate::core::search_game::SearchGame for Board<V> {
    const BENCH_SFENS: &'static [&'static str] = V::BENCH_SFENS;
    type CheckInfo = super::see::CheckInfo;

    #[inline]
    fn check_info(&self) -> Self::CheckInfo {
        Board::check_info(self)
    }

    #[inline]
    fn gives_check(&self, info: &Self::CheckInfo, mv: crate::core::moves::Move) -> bool {
        Board::gives_check(self, info, mv)
    }

    #[inline]
    fn evaluate(&self, _: &crate::core::search_params::SearchParams) -> i32 {
        Board::evaluate(self)
    }

    fn default_params() -> crate::core::search_params::SearchParams {
        V::search_params()
    }

    #[inline(always)]
    fn is_capture(&self, mv: crate::core::moves::Move) -> bool {
        !mv.is_drop() && !self.piece_at(mv.to()).is_none()
    }

    #[inline(always)]
    fn captured_value(&self, mv: crate::core::moves::Move) -> i32 {
        if mv.is_drop() {
            return 0;
        }
        let p = self.piece_at(mv.to());
        if p.is_none() {
            0
        } else {
            Self::piece_value(p.kind())
        }
    }

    #[inline(always)]
    fn moved_piece(&self, mv: crate::core::moves::Move) -> usize {
        if mv.is_drop() {
            super::types::Piece::new(self.side_to_move(), Kind::from_code(mv.drop_piece())).index()
        } else {
            self.piece_at(mv.from()).index()
        }
    }

    #[inline(always)]
    fn captured_piece(&self, mv: crate::core::moves::Move) -> usize {
        if mv.is_drop() {
            0
        } else {
            self.piece_at(mv.to()).index()
        }
    }

    #[inline]
    fn see_ge(&self, mv: crate::core::moves::Move, threshold: i32) -> bool {
        Board::see_ge(self, mv, threshold)
    }

    fn tactical_moves(&self, list: &mut crate::core::moves::MoveList, promotions: bool) {
        Board::tactical_moves(self, list, promotions)
    }

    fn quiet_moves(&self, list: &mut crate::core::moves::MoveList) {
        Board::quiet_moves(self, list)
    }

    const STAGED_MOVES: bool = true;

    #[inline]
    fn is_legal(&self, mv: crate::core::moves::Move) -> bool {
        Board::is_legal(self, mv)
    }

    #[inline]
    fn mate_in_one(&self) -> Option<crate::core::moves::Move> {
        Board::mate_in_one(self)
    }

    fn nnue_feature_count(set: FeatureSet) -> usize {
        super::nnue::Layout::<V>::feature_count(set)
    }

    fn nnue_features(&self, set: FeatureSet, perspective: Color, out: &mut Vec<u16>) {
        super::nnue::Layout::<V>::active(self, set, perspective, out);
    }

    #[inline]
    fn nnue_delta(
        &self,
        set: FeatureSet,
        mv: crate::core::moves::Move,
    ) -> crate::core::search_game::MoveDelta {
        let mut delta = crate::core::search_game::MoveDelta::default();
        for c in Color::ALL {
            match super::nnue::Layout::<V>::delta(self, set, mv, c) {
                Some(d) => delta.set(c, &d.removed, &d.added),
                None => delta.set_refresh(c),
            }
        }
        delta
    }

    const NNUE_SLOTS: usize = super::nnue::Layout::<V>::SLOTS;

    #[inline]
    fn nnue_slot(&self, set: FeatureSet, perspective: Color) -> usize {
        super::nnue::Layout::<V>::slot(self, set, perspective)
    }

    #[inline]
    fn correction_key(&self) -> Option<u64> {
        let pawns = self.pieces(Color::Black, Kind::Pawn).0
            ^ self.pieces(Color::White, Kind::Pawn).0.rotate_left(64);
        let hands = u64::from_le_bytes(self.hand(Color::Black).0)
            ^ u64::from_le_bytes(self.hand(Color::White).0).rotate_left(29);
        let folded = (pawns as u64)
            ^ ((pawns >> 64) as u64).rotate_left(17)
            ^ hands.wrapping_mul(0x9e37_79b9_7f4a_7c15);
        Some(folded.wrapping_mul(0xbf58_476d_1ce4_e5b9) ^ (folded >> 31))
    }

    #[inline(always)]
    fn key_after(&self, mv: crate::core::moves::Move) -> Option<u64> {
        Some(Board::key_after(self, mv))
    }

    #[inline(always)]
    fn play_known_check(&mut self, mv: crate::core::moves::Move, gives_check: bool) {
        Board::play_known_check(self, mv, gives_check)
    }

    /// The packed move is its own code.
    #[inline(always)]
    fn move_from_code(&self, code: u16) -> crate::core::moves::Move {
        crate::core::moves::Move(code)
    }

    fn null_move(&self) -> Option<Self> {
        (!self.in_check() && self.extra_moves() == 0).then(|| self.with_turn_passed())
    }
}
