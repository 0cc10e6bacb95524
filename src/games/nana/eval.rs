//! Evaluation v1 of nana shogi: cubes on the board and in hand, their mobility in their current
//! state (which changes every move), and the safety of each king's neighbourhood. Weights are
//! named constants for later tuning.

use super::attacks::TABLES;
use super::position::Nana;
use super::types::{Kind, Piece, State};
use crate::core::color::Color;
use crate::core::game::Position;
use crate::core::moves::{Move, MoveList};
use crate::core::search_game::SearchGame;

/// Value of a cube on the board.
pub const CUBE_ON_BOARD: i32 = 300;
/// Value of a cube in hand (it can be dropped in any state, anywhere but the centre).
pub const CUBE_IN_HAND: i32 = 340;
/// Bonus per square a piece attacks in its current state.
pub const MOBILITY: i32 = 12;
/// Penalty per square next to the king that the enemy attacks.
pub const KING_PRESSURE: i32 = 35;
/// Bonus for the side to move.
pub const TEMPO: i32 = 15;

impl Nana {
    fn side_score(&self, color: Color) -> i32 {
        let t = &*TABLES;
        let occ = self.occupied();
        let mut score = 0;
        let hand = self.hand(color);
        score += CUBE_IN_HAND * (hand.count(Kind::Orthogonal) + hand.count(Kind::Diagonal)) as i32;
        for sq in self.color_bb(color) {
            let state = self.piece_at(sq).state();
            if state != State::King {
                score += CUBE_ON_BOARD;
            }
            let reach = t.attacks(state, color, sq, occ) & !self.color_bb(color);
            score += MOBILITY * reach.count() as i32;
        }
        if let Some(k) = self.king(color) {
            let around = t.empty[color.index()][State::King.index()][k.index()];
            let pressed = around
                .filter(|&sq| self.attackers_to(sq, !color, occ).any())
                .count();
            score -= KING_PRESSURE * pressed as i32;
        }
        score
    }
}

impl SearchGame for Nana {
    const BENCH_SFENS: &'static [&'static str] =
        &["3/3/3 b KRBkrb 1", "1k1/3/IKt b Br 1", "1C1/3/kcK b Bb 1"];

    type CheckInfo = ();

    fn check_info(&self) {}

    /// Nana positions are tiny: playing the move is the simplest exact test.
    fn gives_check(&self, _: &(), mv: Move) -> bool {
        let mut next = self.clone();
        next.play(mv);
        next.in_check()
    }

    fn evaluate(&self, _: &crate::core::search_params::SearchParams) -> i32 {
        let s = self.side_score(Color::Black) - self.side_score(Color::White);
        TEMPO
            + match self.side_to_move() {
                Color::Black => s,
                Color::White => -s,
            }
    }

    fn is_capture(&self, mv: Move) -> bool {
        !mv.is_drop() && !self.piece_at(mv.to()).is_none()
    }

    fn captured_value(&self, mv: Move) -> i32 {
        if self.is_capture(mv) { CUBE_IN_HAND } else { 0 }
    }

    fn moved_piece(&self, mv: Move) -> usize {
        if mv.is_drop() {
            Piece::new(self.side_to_move(), State::from_code(mv.drop_piece())).index()
        } else {
            self.piece_at(mv.from()).index()
        }
    }

    fn captured_piece(&self, mv: Move) -> usize {
        if mv.is_drop() {
            0
        } else {
            self.piece_at(mv.to()).index()
        }
    }

    /// Every nana piece but the king is worth the same, so an exchange on a square loses material
    /// only when a cube moves onto a square the enemy attacks without capturing anything.
    fn see_ge(&self, mv: Move, threshold: i32) -> bool {
        let gain = self.captured_value(mv);
        if mv.is_drop() {
            return gain >= threshold;
        }
        let attacked = self
            .attackers_to(
                mv.to(),
                !self.side_to_move(),
                self.occupied().without(mv.from()),
            )
            .any();
        let mover_is_king = self.piece_at(mv.from()).state() == State::King;
        let loss = if attacked && !mover_is_king {
            CUBE_IN_HAND
        } else {
            0
        };
        gain - loss >= threshold
    }

    fn tactical_moves(&self, list: &mut MoveList, _promotions: bool) {
        let mut all = MoveList::<Move>::new();
        self.legal_moves(&mut all);
        list.extend(all.into_iter().filter(|&m| self.is_capture(m)));
    }

    /// Nana shogi's networks have the plain features only.
    fn nnue_feature_count(set: crate::nnue::FeatureSet) -> usize {
        match set {
            crate::nnue::FeatureSet::Plain => super::nnue::FEATURES,
            crate::nnue::FeatureSet::KingBuckets | crate::nnue::FeatureSet::KingRegions => 0,
        }
    }

    fn nnue_features(&self, _set: crate::nnue::FeatureSet, perspective: Color, out: &mut Vec<u16>) {
        super::nnue::active(self, perspective, out);
    }

    #[inline]
    fn nnue_delta(
        &self,
        _set: crate::nnue::FeatureSet,
        mv: Move,
    ) -> crate::core::search_game::MoveDelta {
        let mut delta = crate::core::search_game::MoveDelta::default();
        for c in Color::ALL {
            let d = super::nnue::delta(self, mv, c);
            delta.set(c, &d.removed, &d.added);
        }
        delta
    }

    /// The packed move is its own code.
    #[inline(always)]
    fn move_from_code(&self, code: u16) -> Move {
        Move(code)
    }

    /// Nana is full of zugzwang on its 3×3 board: no null moves.
    fn null_move(&self) -> Option<Self> {
        None
    }
}
