//! The principal variation search, generic over the game and the node type, in numbered steps.

use arrayvec::ArrayVec;

use super::SearchGame;
use super::history::piece_to;
use super::movepick::GOOD_CAPTURE_MARK;
use super::params::*;
use super::thread::Worker;
use super::tt::{Bound, value_from_tt, value_to_tt};
use super::value::{INFINITE, MATE_BOUND, is_mate_score, mate_in, mated_in};
use crate::core::moves::GameMove;
use crate::core::repetition::HistoryEntry;

/// The kind of a node, as a zero-sized type.
pub(super) trait NodeType {
    /// On the principal variation (searched with an open window).
    const PV: bool;
}

/// A node on the principal variation.
pub(super) struct Pv;
/// A node searched with a null window.
pub(super) struct NonPv;

impl NodeType for Pv {
    const PV: bool = true;
}
impl NodeType for NonPv {
    const PV: bool = false;
}

impl<G: SearchGame> Worker<'_, G> {
    /// Searches `pos` (at `ply` from the root) to `depth` within (`alpha`, `beta`).
    pub(super) fn search<N: NodeType>(
        &mut self,
        pos: &G,
        mut alpha: i32,
        mut beta: i32,
        depth: i32,
        ply: usize,
        cut_node: bool,
    ) -> i32 {
        // Step 1. Quiescence at the horizon; bookkeeping; the stop flag.
        if depth <= 0 {
            return self.qsearch::<N>(pos, alpha, beta, ply, 0);
        }
        if N::PV {
            self.pv_len[ply] = ply;
        }
        if self.poll() {
            return 0;
        }
        self.seldepth = self.seldepth.max(ply);
        let in_check = pos.in_check();

        // Step 2. Repetition by the game's rules, the ply limit, mate-distance pruning.
        if let Some(v) = self.repetition_value(pos, ply) {
            return v;
        }
        let limit = self.setup.rules.max_moves_to_draw as usize;
        if limit > 0 && self.path.len() > limit {
            return super::value::DRAW;
        }
        if ply >= MAX_PLY - 4 {
            return if in_check {
                0
            } else {
                self.static_eval(pos, ply)
            };
        }
        alpha = alpha.max(mated_in(ply));
        beta = beta.min(mate_in(ply + 1));
        if alpha >= beta {
            return alpha;
        }

        // Step 3. Transposition table.
        // A singular-extension search of this node (one move excluded) neither uses nor
        // overwrites the table's verdict on the whole node.
        let excluded = self.excluded[ply];
        let key = pos.key();
        let hit = self.setup.tt.probe(key);
        let tt_move = hit.map_or(Self::NO_MOVE, |h| self.table_move(pos, h.mv));
        if let Some(h) = hit
            && !N::PV
            && excluded == Self::NO_MOVE
            && h.depth >= depth
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

        // Step 3b. Static evaluation (the table's, where it has one).
        let raw_eval = if in_check {
            -INFINITE
        } else {
            self.eval_of(pos, hit, ply)
        };

        // Step 3c. A mate in one ends the node (exact, whatever the depth). An entry that holds
        // no mate in one was stored by a search of this very position that asked already.
        if !in_check
            && excluded == Self::NO_MOVE
            && !hit.is_some_and(|h| h.rules_out_mate_in_one(ply))
            && let Some(mv) = pos.mate_in_one()
        {
            return self.mate_found(key, raw_eval, mv, ply, N::PV);
        }

        // Step 4. The corrected evaluation.
        let us = pos.side_to_move();
        let correction_key = pos.correction_key();
        let static_eval = match correction_key {
            Some(k) if !in_check => self.history.corrected_eval(us, k, raw_eval),
            _ => raw_eval,
        };
        self.eval_stack[ply] = static_eval;
        let improving = !in_check && ply >= 2 && static_eval > self.eval_stack[ply - 2];
        let pruning = self.setup.pruning;
        // The table's value, where its bound says the true value lies beyond the evaluation, is
        // the better guess for the prunings below (the evaluation history and the correction
        // keep the static one).
        let eval = match hit {
            Some(h) if !in_check && excluded == Self::NO_MOVE => h.refine(static_eval),
            _ => static_eval,
        };

        // Step 5. Reverse futility pruning: far above beta at shallow depth.
        if pruning
            && !N::PV
            && !in_check
            && excluded == Self::NO_MOVE
            && depth <= self.params.rfp_max_depth
            && !is_mate_score(beta)
            && eval - self.params.rfp_margin * (depth - improving as i32) >= beta
        {
            return eval;
        }

        // Step 6. Null-move pruning.
        if pruning
            && !N::PV
            && !in_check
            && depth >= self.params.nmp_min_depth
            && excluded == Self::NO_MOVE
            && eval >= beta
            && !is_mate_score(beta)
            && self.move_stack[ply - 1] != Self::NO_MOVE
            && let Some(null) = pos.null_move()
        {
            let r = self.params.nmp_base_reduction + depth / self.params.nmp_depth_divisor;
            self.move_stack[ply] = Self::NO_MOVE;
            self.pt_stack[ply] = 0;
            self.path.push(HistoryEntry {
                key: null.key(),
                in_check: false,
            });
            let saved = self.barrier;
            self.barrier = self.path.len() - 1;
            self.enter_child(pos, None, ply);
            self.nodes += 1;
            let v =
                -self.search::<NonPv>(&null, -beta, -beta + 1, depth - r - 1, ply + 1, !cut_node);
            self.barrier = saved;
            self.path.pop();
            if self.stopped {
                return 0;
            }
            if v >= beta {
                return if is_mate_score(v) { beta } else { v };
            }
        }

        // Step 7. Internal iterative reduction: without a table move, this node is likely new.
        let depth = if pruning && tt_move == Self::NO_MOVE && depth >= 4 && (N::PV || cut_node) {
            depth - 1
        } else {
            depth
        };

        // Step 8. Singular extension: when the table move is far better than every other move
        // (a search without it fails low by a margin), it is extended; when even the other moves
        // beat beta, the node is cut at once (multi-cut).
        let mut tt_extension = 0;
        if let Some(h) = hit
            && pruning
            && depth >= self.params.se_min_depth
            && excluded == Self::NO_MOVE
            && tt_move != Self::NO_MOVE
            && h.bound != Bound::Upper
            && h.depth >= depth - 3
            && !is_mate_score(h.value)
            && ply < 2 * self.root_depth_hint()
        {
            let tt_value = value_from_tt(h.value, ply);
            let singular_beta = tt_value - self.params.se_margin * depth / 8;
            self.excluded[ply] = tt_move;
            let v = self.search::<NonPv>(
                pos,
                singular_beta - 1,
                singular_beta,
                (depth - 1) / 2,
                ply,
                cut_node,
            );
            self.excluded[ply] = Self::NO_MOVE;
            if self.stopped {
                return 0;
            }
            if v < singular_beta {
                tt_extension = 1;
            } else if singular_beta >= beta {
                return singular_beta;
            } else if tt_value >= beta {
                tt_extension = -1;
            }
        }

        // Step 9. The move loop.
        let previous = self.move_stack[ply - 1];
        let context = self.context(ply);
        self.pickers[ply].start(pos, tt_move, ply, previous, context, false, false);
        if self.pickers[ply].is_empty(pos, &self.history) {
            return mated_in(ply);
        }
        self.history.clear_killers(ply + 1);
        let mut best_value = -INFINITE;
        let mut best_move = Self::NO_MOVE;
        let mut move_count = 0usize;
        let mut quiets: ArrayVec<(G::Move, u16), 64> = ArrayVec::new();
        let mut captures: ArrayVec<(u16, usize), 32> = ArrayVec::new();
        let check_info = pos.check_info();

        while let Some((mv, score)) = self.pickers[ply].next_move(pos, &self.history) {
            if mv == excluded {
                continue;
            }
            move_count += 1;
            let capture = pos.is_capture(mv);
            let quiet = !capture && !mv.is_promotion();
            let gives_check = pos.gives_check(&check_info, mv);
            let pt = piece_to(pos.moved_piece(mv), mv);

            // Step 10. Pruning of moves at shallow depth.
            if pruning && best_value > -MATE_BOUND && !in_check && !gives_check {
                if quiet {
                    if depth <= self.params.lmp_max_depth
                        && move_count
                            > self.params.lmp_base as usize
                                + (depth * depth) as usize / (2 - improving as usize)
                    {
                        continue;
                    }
                    if !N::PV
                        && depth <= self.params.futility_max_depth
                        && eval + self.params.futility_margin * depth + 100 <= alpha
                    {
                        continue;
                    }
                    if depth <= 7 && !pos.see_ge(mv, -self.params.see_quiet_margin * depth) {
                        continue;
                    }
                } else if depth <= 6
                    && score < GOOD_CAPTURE_MARK
                    && !pos.see_ge(mv, -self.params.see_capture_margin * depth)
                {
                    continue;
                }
            }

            let prefetched = self.prefetch_child(pos, mv);

            // Step 11. Extensions: the singular table move; safe checks.
            let extension = if mv == tt_move && tt_extension != 0 {
                tt_extension
            } else {
                (gives_check && ply < 2 * self.root_depth_hint() && pos.see_ge(mv, 0)) as i32
            };
            let new_depth = depth - 1 + extension;

            let child = self.play_child(pos, mv, prefetched, Some(gives_check));
            self.enter_child(pos, Some(mv), ply);
            debug_assert_eq!(child.in_check(), gives_check);
            self.nodes += 1;
            self.move_stack[ply] = mv;
            self.pt_stack[ply] = pt;
            self.path.push(HistoryEntry {
                key: child.key(),
                in_check: gives_check,
            });
            if N::PV {
                // The child's line starts empty: a child searched only with a null window (a
                // reduced or zero-window search that fails high) writes none, and
                // `update_pv` must not copy the stale line of an earlier sibling behind `mv`.
                self.pv_len[ply + 1] = ply + 1;
            }

            // Step 12. Late-move reductions, then the principal variation search.
            let mut value = -INFINITE;
            let full_null_window;
            if pruning
                && depth >= 3
                && move_count > 1 + N::PV as usize
                && (quiet || (capture && score < GOOD_CAPTURE_MARK))
            {
                let mut r = self.lmr[(depth as usize).min(63)][move_count.min(63)];
                r += cut_node as i32 - N::PV as i32 - gives_check as i32 - improving as i32;
                if quiet {
                    r -= self.history.quiet_score(us, mv, pt, context)
                        / self.params.lmr_history_divisor;
                }
                let reduced = (new_depth - r.max(0)).clamp(1, new_depth.max(1));
                value = -self.search::<NonPv>(&child, -alpha - 1, -alpha, reduced, ply + 1, true);
                full_null_window = value > alpha && reduced < new_depth;
            } else {
                full_null_window = !N::PV || move_count > 1;
            }
            if full_null_window {
                value = -self.search::<NonPv>(
                    &child,
                    -alpha - 1,
                    -alpha,
                    new_depth,
                    ply + 1,
                    !cut_node,
                );
            }
            if N::PV && (move_count == 1 || (value > alpha && value < beta)) {
                value = -self.search::<Pv>(&child, -beta, -alpha, new_depth, ply + 1, false);
            }
            self.path.pop();
            if self.stopped {
                return 0;
            }

            // Step 13. New best move; a cutoff updates the ordering memory.
            if value > best_value {
                best_value = value;
                if value > alpha {
                    best_move = mv;
                    if N::PV {
                        self.update_pv(ply, mv);
                    }
                    if value >= beta {
                        let bonus = (32 * depth * depth).min(2400);
                        if quiet {
                            self.history.update_quiet(us, mv, pt, context, bonus);
                            for &(q, qpt) in &quiets {
                                self.history.update_quiet(us, q, qpt, context, -bonus);
                            }
                            self.history.add_killer(ply, mv);
                            if previous != Self::NO_MOVE {
                                self.history.set_counter(previous, mv);
                            }
                        } else if capture {
                            self.history
                                .update_capture(pt, pos.captured_piece(mv), bonus);
                        }
                        for &(cpt, victim) in &captures {
                            self.history.update_capture(cpt, victim, -bonus);
                        }
                        break;
                    }
                    alpha = value;
                }
            }
            if mv != best_move {
                if quiet {
                    let _ = quiets.try_push((mv, pt));
                } else if capture {
                    let _ = captures.try_push((pt, pos.captured_piece(mv)));
                }
            }
        }

        // Every move was pruned: the node fails low at the static evaluation.
        if best_value == -INFINITE {
            best_value = alpha;
        }

        // Step 14. Store the result.
        let bound = if best_value >= beta {
            Bound::Lower
        } else if N::PV && best_move != Self::NO_MOVE {
            Bound::Exact
        } else {
            Bound::Upper
        };
        if let Some(k) = correction_key
            && excluded == Self::NO_MOVE
            && !in_check
            && (best_move == Self::NO_MOVE
                || !(pos.is_capture(best_move) || best_move.is_promotion()))
            && !is_mate_score(best_value)
            && !(bound == Bound::Lower && best_value <= static_eval)
            && !(bound == Bound::Upper && best_value >= static_eval)
        {
            self.history
                .update_correction(us, k, best_value - static_eval, depth);
        }
        if excluded == Self::NO_MOVE {
            self.setup.tt.store(
                key,
                best_move.code(),
                value_to_tt(best_value, ply),
                if in_check { 0 } else { raw_eval },
                depth,
                bound,
            );
        }
        best_value
    }

    /// Records the mate in one `mv` found at the position of table key `key` (`ply` from the
    /// root, static evaluation `eval`, kept in the entry): the line, when on the principal
    /// variation, and the table entry; returns its value.
    pub(super) fn mate_found(
        &mut self,
        key: u64,
        eval: i32,
        mv: G::Move,
        ply: usize,
        pv: bool,
    ) -> i32 {
        let value = mate_in(ply + 1);
        if pv {
            self.pv_len[ply + 1] = ply + 1;
            self.update_pv(ply, mv);
        }
        self.setup.tt.store(
            key,
            mv.code(),
            value_to_tt(value, ply),
            eval,
            MAX_PLY as i32,
            Bound::Exact,
        );
        value
    }

    /// The piece-to codes of the moves one and two plies before `ply` (for continuation history).
    #[inline(always)]
    pub(super) fn context(&self, ply: usize) -> [u16; 2] {
        [
            self.pt_stack[ply - 1],
            if ply >= 2 { self.pt_stack[ply - 2] } else { 0 },
        ]
    }

    /// The depth of the iteration under way, for limiting extensions.
    fn root_depth_hint(&self) -> usize {
        self.root_depth.max(1) as usize
    }
}
