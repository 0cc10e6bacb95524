//! Quiescence search: captures and promotions (all evasions when in check) until the position is
//! quiet, so that the static evaluation is only trusted where nothing hangs; a mate in one of the
//! side to move (the game's cheap test) is taken as the value where standing pat does not cut.

use super::SearchGame;
use super::alphabeta::NodeType;
use super::movepick::GOOD_CAPTURE_MARK;
use super::params::MAX_PLY;
use super::thread::Worker;
use super::tt::{Bound, DEPTH_QS, value_from_tt, value_to_tt};
use super::value::{INFINITE, mated_in};
use crate::core::moves::GameMove;

/// Deepest quiescence ply at which evasions are still searched in full.
const QS_MAX_PLIES: i32 = 24;

impl<G: SearchGame> Worker<'_, G> {
    /// Quiescence search of `pos` at `ply`, `qply` plies below the horizon.
    pub(super) fn qsearch<N: NodeType>(
        &mut self,
        pos: &G,
        mut alpha: i32,
        beta: i32,
        ply: usize,
        qply: i32,
    ) -> i32 {
        if N::PV {
            self.pv_len[ply] = ply;
        }
        if self.poll() {
            return 0;
        }
        self.seldepth = self.seldepth.max(ply);
        let in_check = pos.in_check();
        if ply >= MAX_PLY - 4 || qply >= QS_MAX_PLIES {
            return if in_check {
                0
            } else {
                self.static_eval(pos, ply)
            };
        }

        let key = pos.key();
        let hit = self.setup.tt.probe(key);
        let tt_move = hit.map_or(Self::NO_MOVE, |h| self.table_move(pos, h.mv));
        if let Some(h) = hit
            && !N::PV
        {
            let v = value_from_tt(h.value, ply);
            let usable = match h.bound {
                Bound::Exact => true,
                Bound::Lower => v >= beta,
                Bound::Upper => v <= alpha,
            };
            if usable {
                return v;
            }
        }

        let eval;
        let mut best_value;
        if in_check {
            eval = -INFINITE;
            best_value = -INFINITE;
        } else {
            eval = self.eval_of(pos, hit, ply);
            // The table's value, where its bound says the true value lies beyond the
            // evaluation, is the better stand-pat (the delta pruning keeps the evaluation).
            let stand_pat = hit.map_or(eval, |h| h.refine(eval));
            if stand_pat >= beta {
                return stand_pat;
            }
            // A mate in one of the side to move is the node's value: standing pat would score a
            // won position as quiet (a mate by drop or by a quiet move is no capture, so the
            // moves below never find it). Asked only here, where standing pat does not cut, and
            // not again where the table shows that a search of this position asked already.
            if !hit.is_some_and(|h| h.rules_out_mate_in_one(ply))
                && let Some(mv) = pos.mate_in_one()
            {
                return self.mate_found(key, eval, mv, ply, N::PV);
            }
            alpha = alpha.max(stand_pat);
            best_value = stand_pat;
        }

        self.pickers[ply].start(
            pos,
            tt_move,
            ply,
            Self::NO_MOVE,
            self.context(ply),
            !in_check,
            qply < self.params.qs_promotion_plies,
        );
        if in_check && self.pickers[ply].is_empty(pos, &self.history) {
            return mated_in(ply);
        }
        let mut best_move = Self::NO_MOVE;
        while let Some((mv, score)) = self.pickers[ply].next_move(pos, &self.history) {
            let prefetched = self.prefetch_child(pos, mv);
            if !in_check {
                if !mv.is_promotion()
                    && eval + pos.captured_value(mv) + self.params.delta_margin <= alpha
                {
                    continue;
                }
                // The picker's score tells whether a capture survives static exchange.
                if pos.is_capture(mv) && score < GOOD_CAPTURE_MARK {
                    continue;
                }
                if !pos.is_capture(mv) && !pos.see_ge(mv, 0) {
                    continue;
                }
            }
            let child = self.play_child(pos, mv, prefetched, None);
            self.enter_child(pos, Some(mv), ply);
            self.nodes += 1;
            let value = -self.qsearch::<N>(&child, -beta, -alpha, ply + 1, qply + 1);
            if self.stopped {
                return 0;
            }
            if value > best_value {
                best_value = value;
                if value > alpha {
                    best_move = mv;
                    if N::PV {
                        // The child, of the same node type, emptied its line on entry.
                        self.update_pv(ply, mv);
                    }
                    if value >= beta {
                        break;
                    }
                    alpha = value;
                }
            }
        }
        let bound = if best_value >= beta {
            Bound::Lower
        } else {
            Bound::Upper
        };
        self.setup.tt.store(
            key,
            best_move.code(),
            value_to_tt(best_value, ply),
            if in_check { 0 } else { eval },
            DEPTH_QS,
            bound,
        );
        best_value
    }
}
