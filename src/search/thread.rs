//! One search thread: its move-ordering memory, principal variations, and the iterative-deepening
//! loop with aspiration windows and MultiPV.

use std::sync::atomic::{AtomicBool, Ordering};

use super::history::History;
use super::movepick::MovePicker;
use super::params::{CHECK_INTERVAL, MAX_PLY};
use super::skill::Skill;
use super::time::{Budget, Trend, soft_stop};
use super::value::{INFINITE, MATE, is_mate_score};
use super::{Report, SearchGame, SearchParams, SearchResult, SearchSetup};
use crate::core::clock::Instant;
use crate::core::color::Color;
use crate::core::moves::{GameMove, ListStore, MoveList};
use crate::core::repetition::HistoryEntry;
use crate::core::search_game::{FeatureSet, MoveDelta};
use crate::nnue::accumulator::{Accumulator, AccumulatorCache, MAX_ACTIVE};
use crate::nnue::network::Network;

/// A root move with what the last iterations said of it.
#[derive(Clone, Debug)]
pub(super) struct RootMove<M> {
    pub mv: M,
    pub score: i32,
    pub previous_score: i32,
    pub pv: Vec<M>,
    pub seldepth: usize,
}

/// Longest stretch of plies searched back for a repetition inside the tree.
const REPETITION_WINDOW: usize = 16;

/// The state of one search thread.
pub(super) struct Worker<'a, G: SearchGame> {
    pub id: usize,
    pub root: &'a G,
    pub setup: &'a SearchSetup<'a, G::Move, G::Rules>,
    done: &'a AtomicBool,
    pub nodes: u64,
    published: u64,
    pub seldepth: usize,
    pub history: History,
    pub pv: Box<[[G::Move; MAX_PLY + 2]]>,
    pub pv_len: [usize; MAX_PLY + 2],
    pub path: Vec<HistoryEntry>,
    pub barrier: usize,
    /// The keys of the positions that occurred the game's `REPETITION_OCCURRENCES` − 1 times
    /// before the root (usually none): meeting one in the tree ends the game by repetition.
    pub last_repeats: Vec<u64>,
    pub eval_stack: [i32; MAX_PLY + 4],
    pub move_stack: [G::Move; MAX_PLY + 4],
    /// Piece-to codes of the moves on the current line (0 for a null move), by ply.
    pub pt_stack: [u16; MAX_PLY + 4],
    /// The move a singular-extension search leaves out at each ply (`NONE` for none).
    pub excluded: [G::Move; MAX_PLY + 4],
    pub root_moves: Vec<RootMove<G::Move>>,
    pub pv_idx: usize,
    pub root_depth: i32,
    pub stopped: bool,
    /// The node limit of this search: the `go`'s, or the skill's when lower.
    node_limit: Option<u64>,
    /// Nodes between two checks of the node limit and the clock: [`CHECK_INTERVAL`], or less
    /// under a node limit small enough that the interval would overshoot it.
    check_interval: u64,
    start: Instant,
    pub lmr: Box<[[i32; 64]; 64]>,
    /// The tuned numbers, copied from the setup at the start.
    pub params: SearchParams,
    /// One move picker per ply, refilled at every node.
    pub pickers: Box<[MovePicker<G::Move>]>,
    /// The learned evaluation's accumulators by ply (ply 0, the root's, always computed when a
    /// network is in use).
    pub acc: Box<[Accumulator]>,
    /// The feature changes of the move into each ply.
    pub deltas: Box<[MoveDelta]>,
    /// The accumulators a refresh starts from, when a network is in use.
    cache: Option<Box<AccumulatorCache>>,
    /// The features of a perspective being refreshed (kept, so that a refresh allocates
    /// nothing).
    active: Vec<u16>,
}

/// A worker's per-ply buffers, kept in the [`super::HistoryPool`] between searches. Nothing in
/// them is read before the search writes it: a picker starts afresh at each node, and a ply's
/// accumulator is marked stale whenever the search enters that ply.
struct Buffers<M: GameMove> {
    pickers: Box<[MovePicker<M>]>,
    acc: Box<[Accumulator]>,
}

impl<M: GameMove> Buffers<M> {
    fn new() -> Self {
        Buffers {
            pickers: (0..MAX_PLY + 4).map(|_| MovePicker::default()).collect(),
            acc: (0..MAX_PLY + 4).map(|_| Accumulator::default()).collect(),
        }
    }
}

impl<'a, G: SearchGame> Worker<'a, G> {
    /// The game's "no move".
    pub const NO_MOVE: G::Move = <G::Move as GameMove>::NONE;

    /// The move of a table entry whose move code is `code` (0: none), as a move of `pos`; it
    /// may still be illegal there (a colliding entry), which the move picker checks.
    #[inline(always)]
    pub fn table_move(&self, pos: &G, code: u16) -> G::Move {
        if code == 0 {
            Self::NO_MOVE
        } else {
            pos.move_from_code(code)
        }
    }

    /// A thread ready to search `root`.
    pub fn new(
        id: usize,
        root: &'a G,
        setup: &'a SearchSetup<'a, G::Move, G::Rules>,
        done: &'a AtomicBool,
    ) -> Worker<'a, G> {
        let mut path = Vec::with_capacity(setup.history.len() + MAX_PLY + 8);
        path.extend_from_slice(setup.history);
        if path.last().map(|e| e.key) != Some(root.key()) {
            path.push(HistoryEntry {
                key: root.key(),
                in_check: root.in_check(),
            });
        }
        let params = setup.params;
        let lmr = Self::lmr_table(&params);
        let mut list = MoveList::<G::Move>::new();
        root.legal_moves(&mut list);
        let search = &setup.limits.searchmoves;
        let root_moves = list
            .iter()
            .filter(|m| search.is_empty() || search.contains(m))
            .map(|&mv| RootMove {
                mv,
                score: -INFINITE,
                previous_score: -INFINITE,
                pv: vec![mv],
                seldepth: 0,
            })
            .collect();
        let node_limit = match (setup.limits.nodes, setup.skill.map(|s| s.nodes())) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        };
        let check_interval =
            node_limit.map_or(CHECK_INTERVAL, |n| (n / 8).clamp(1, CHECK_INTERVAL));
        let mut buffers = setup
            .histories
            .and_then(|pool| pool.take_buffers::<Buffers<G::Move>>(id))
            .map_or_else(Buffers::new, |b| *b);
        Self::refresh_root(root, setup, &mut buffers.acc[0]);
        Worker {
            id,
            root,
            setup,
            done,
            nodes: 0,
            published: 0,
            seldepth: 0,
            history: setup
                .histories
                .map_or_else(History::default, |pool| pool.take(id)),
            pv: vec![[Self::NO_MOVE; MAX_PLY + 2]; MAX_PLY + 2].into_boxed_slice(),
            pv_len: [0; MAX_PLY + 2],
            barrier: path.len() - 1,
            last_repeats: Self::last_repeats(&path[..path.len() - 1]),
            path,
            eval_stack: [0; MAX_PLY + 4],
            move_stack: [Self::NO_MOVE; MAX_PLY + 4],
            pt_stack: [0; MAX_PLY + 4],
            excluded: [Self::NO_MOVE; MAX_PLY + 4],
            root_moves,
            pv_idx: 0,
            root_depth: 1,
            stopped: false,
            node_limit,
            check_interval,
            start: Instant::now(),
            lmr,
            params,
            pickers: buffers.pickers,
            acc: buffers.acc,
            deltas: vec![MoveDelta::default(); MAX_PLY + 4].into_boxed_slice(),
            cache: setup.nnue.map(|net| {
                let width = G::nnue_feature_count(FeatureSet::Plain);
                Box::new(AccumulatorCache::new(net, G::NNUE_SLOTS, width))
            }),
            active: Vec::with_capacity(MAX_ACTIVE),
        }
    }

    /// The late-move reductions by depth and move number under `params`.
    fn lmr_table(params: &SearchParams) -> Box<[[i32; 64]; 64]> {
        let base = params.lmr_base as f64 / 100.0;
        let divisor = params.lmr_divisor as f64 / 100.0;
        let mut lmr = Box::new([[0i32; 64]; 64]);
        for (d, row) in lmr.iter_mut().enumerate().skip(1) {
            for (m, r) in row.iter_mut().enumerate().skip(1) {
                *r = (base + (d as f64).ln() * (m as f64).ln() / divisor) as i32;
            }
        }
        lmr
    }

    /// Computes the root's accumulator when a network is in use (the other plies' are computed
    /// from it before they are read).
    fn refresh_root(root: &G, setup: &SearchSetup<'_, G::Move, G::Rules>, acc: &mut Accumulator) {
        if let Some(net) = setup.nnue {
            let (mut black, mut white) = (Vec::new(), Vec::new());
            root.nnue_features(net.feature_set, Color::Black, &mut black);
            root.nnue_features(net.feature_set, Color::White, &mut white);
            acc.refresh(net, [&black, &white]);
        }
    }

    /// The evaluation stored in the table's entry `hit` for `pos`, or else its static evaluation
    /// at `ply`.
    #[inline]
    pub(super) fn eval_of(&mut self, pos: &G, hit: Option<super::tt::TtHit>, ply: usize) -> i32 {
        match hit {
            Some(h) => h.eval,
            None => self.static_eval(pos, ply),
        }
    }

    /// The static evaluation of `pos` at `ply`: the network's, each perspective of its
    /// accumulator brought up to date from the nearest ply where it is computed (or refreshed
    /// from the cache when a move since changed all its features), or the hand-written one.
    #[inline]
    pub fn static_eval(&mut self, pos: &G, ply: usize) -> i32 {
        let Some(net) = self.setup.nnue else {
            return pos.evaluate(&self.params);
        };
        for p in 0..2 {
            let mut first = ply;
            let mut refresh = false;
            while first > 0 && !self.acc[first].computed[p] {
                refresh |= self.deltas[first].refresh[p];
                first -= 1;
            }
            if refresh {
                self.refresh(pos, ply, p, net);
                continue;
            }
            for i in first + 1..=ply {
                let (done, rest) = self.acc.split_at_mut(i);
                rest[0].update_from(&done[i - 1], net, &self.deltas[i], p);
            }
        }
        self.acc[ply].evaluate(net, pos.side_to_move())
    }

    /// Computes perspective `p` of the accumulator of `pos` at `ply` through the cache.
    #[inline(never)]
    fn refresh(&mut self, pos: &G, ply: usize, p: usize, net: &Network) {
        let color = Color::ALL[p];
        self.active.clear();
        pos.nnue_features(net.feature_set, color, &mut self.active);
        let slot = pos.nnue_slot(net.feature_set, color);
        let cache = self
            .cache
            .as_mut()
            .expect("a cache whenever a network is in use");
        cache.refresh(net, p, slot, &self.active, &mut self.acc[ply].values[p]);
        self.acc[ply].computed[p] = true;
    }

    /// Starts fetching the table entry of the position after `mv` from memory, when the game
    /// can tell its key without playing the move; returns that key.
    #[inline(always)]
    pub fn prefetch_child(&self, pos: &G, mv: G::Move) -> Option<u64> {
        let key = pos.key_after(mv);
        if let Some(k) = key {
            self.setup.tt.prefetch(k);
        }
        key
    }

    /// `pos` after `mv`; its table entry is fetched now unless `prefetched` (the key that
    /// [`Worker::prefetch_child`] fetched already). `gives_check`, when known, spares the game
    /// looking for checkers after a move that gives none.
    #[inline(always)]
    pub fn play_child(
        &self,
        pos: &G,
        mv: G::Move,
        prefetched: Option<u64>,
        gives_check: Option<bool>,
    ) -> G {
        let mut child = pos.clone();
        match gives_check {
            Some(check) => child.play_known_check(mv, check),
            None => child.play(mv),
        }
        debug_assert!(prefetched.is_none_or(|k| k == child.key()));
        if prefetched.is_none() {
            self.setup.tt.prefetch(child.key());
        }
        child
    }

    /// Notes that `mv`, played in `pos` at `ply`, leads to the position of `ply + 1` (`None`:
    /// a null move), for the accumulators.
    #[inline]
    pub fn enter_child(&mut self, pos: &G, mv: Option<G::Move>, ply: usize) {
        if let Some(net) = self.setup.nnue {
            self.deltas[ply + 1] =
                mv.map_or_else(MoveDelta::default, |mv| pos.nnue_delta(net.feature_set, mv));
            self.acc[ply + 1].computed = [false; 2];
        }
    }

    /// Ends the worker, handing its history tables and per-ply buffers to the pool, if the
    /// search has one, for the next search.
    pub fn keep_history(self) {
        if let Some(pool) = self.setup.histories {
            let buffers = Buffers {
                pickers: self.pickers,
                acc: self.acc,
            };
            pool.put(self.id, self.history, Box::new(buffers));
        }
    }

    fn is_main(&self) -> bool {
        self.id == 0
    }

    /// Checks whether the search must end: at every node whether a stop was requested, and every
    /// thousand nodes whether the main thread is done, the host interrupted the work
    /// ([`interrupted`](crate::core::job::interrupted): the browser build), or the node limit or
    /// the clock's hard limit is reached. (A node is not always fast: one that meets pages the system has not supplied
    /// yet can take milliseconds, and `stop` must still be answered at once.)
    #[inline]
    pub fn poll(&mut self) -> bool {
        if self.stopped {
            return true;
        }
        if self.nodes - self.published < self.check_interval {
            if self.setup.shared.stop.load(Ordering::Relaxed) {
                self.stopped = true;
            }
            return self.stopped;
        }
        let shared = self.setup.shared;
        let total = shared
            .nodes
            .fetch_add(self.nodes - self.published, Ordering::Relaxed)
            + (self.nodes - self.published);
        self.published = self.nodes;
        if shared.stop.load(Ordering::Relaxed) || self.done.load(Ordering::Relaxed) {
            self.stopped = true;
        } else if crate::core::job::interrupted() {
            shared.stop.store(true, Ordering::Relaxed);
            self.stopped = true;
        } else if self.is_main() {
            // A limited strength always completes its first iteration, so that every candidate
            // has a score.
            let out_of_nodes = self.node_limit.is_some_and(|n| total >= n)
                && (self.setup.skill.is_none() || self.root_depth > 1);
            let out_of_time = !shared.pondering.load(Ordering::Relaxed)
                && shared.elapsed_ms() >= shared.maximum_ms.load(Ordering::Relaxed);
            if out_of_nodes || out_of_time {
                shared.stop.store(true, Ordering::Relaxed);
                self.stopped = true;
            }
        }
        self.stopped
    }

    /// The keys that occur `REPETITION_OCCURRENCES − 1` times (or more) in `before`, the game's
    /// positions before the root.
    fn last_repeats(before: &[HistoryEntry]) -> Vec<u64> {
        let mut keys: Vec<u64> = before.iter().map(|e| e.key).collect();
        keys.sort_unstable();
        let need = G::REPETITION_OCCURRENCES - 1;
        let mut found: Vec<u64> = keys
            .windows(need)
            .filter(|w| w[0] == w[need - 1])
            .map(|w| w[0])
            .collect();
        found.dedup();
        found
    }

    /// The repetition value of the last position of the path: a position met again inside the
    /// tree (the root included, within the window) is judged at its second occurrence, as if the
    /// cycle were played out; one the game met before the root only when this occurrence ends the
    /// game by the rule's count (so a cycle the game has already run through is not entered
    /// blind, while an earlier visit alone does not make a return to it final).
    pub fn repetition_value(&self, pos: &G, ply: usize) -> Option<i32> {
        let n = self.path.len() - 1;
        let key = self.path[n].key;
        let low = self.barrier.max(n.saturating_sub(REPETITION_WINDOW));
        let mut i = n;
        let mut occurrences = 1;
        while i >= low + 2 {
            i -= 2;
            if self.path[i].key == key {
                occurrences = 2;
                break;
            }
        }
        if occurrences == 1 {
            if !self.last_repeats.contains(&key) {
                return None;
            }
            occurrences = G::REPETITION_OCCURRENCES;
        }
        let verdict = pos.repetition(&self.path, occurrences, &self.setup.rules)?;
        Some(match verdict.outcome {
            crate::core::rules::Outcome::Draw => super::value::DRAW,
            crate::core::rules::Outcome::Win => super::value::mate_in(ply),
            crate::core::rules::Outcome::Loss => super::value::mated_in(ply),
        })
    }

    /// Copies the principal variation of `ply + 1` behind `mv` into that of `ply`. The line of
    /// `ply + 1` must be the child's own: callers set `pv_len[ply + 1] = ply + 1` before searching
    /// a child that might not write one (searched with a null window), and every PV node, in the
    /// main search or in quiescence, empties its own line on entry.
    #[inline]
    pub fn update_pv(&mut self, ply: usize, mv: G::Move) {
        self.pv[ply][ply] = mv;
        let child_len = self.pv_len[ply + 1].max(ply + 1);
        for i in ply + 1..child_len {
            self.pv[ply][i] = self.pv[ply + 1][i];
        }
        self.pv_len[ply] = child_len;
    }

    /// Searches the root moves from `pv_idx` on with the window (`alpha`, `beta`).
    fn root_search(&mut self, depth: i32, mut alpha: i32, beta: i32) -> i32 {
        let mut best = -INFINITE;
        for i in self.pv_idx..self.root_moves.len() {
            let mv = self.root_moves[i].mv;
            let mut child = self.root.clone();
            child.play(mv);
            self.enter_child(self.root, Some(mv), 0);
            self.nodes += 1;
            self.path.push(HistoryEntry {
                key: child.key(),
                in_check: child.in_check(),
            });
            self.move_stack[0] = mv;
            self.pt_stack[0] = super::history::piece_to(self.root.moved_piece(mv), mv);
            self.seldepth = 0;
            // An empty line unless the child writes one (a null-window search that fails high
            // does not): never the stale line of another root move.
            self.pv_len[1] = 1;
            let value = if i == self.pv_idx {
                -self.search::<super::alphabeta::Pv>(&child, -beta, -alpha, depth - 1, 1, false)
            } else {
                let v = -self.search::<super::alphabeta::NonPv>(
                    &child,
                    -alpha - 1,
                    -alpha,
                    depth - 1,
                    1,
                    true,
                );
                if v > alpha && v < beta {
                    -self.search::<super::alphabeta::Pv>(&child, -beta, -alpha, depth - 1, 1, false)
                } else {
                    v
                }
            };
            self.path.pop();
            if self.stopped {
                break;
            }
            best = best.max(value);
            let rm = &mut self.root_moves[i];
            if i == self.pv_idx || value > alpha {
                rm.score = value;
                rm.seldepth = self.seldepth;
                rm.pv.clear();
                rm.pv.push(mv);
                let len = self.pv_len[1].max(1);
                rm.pv.extend_from_slice(&self.pv[1][1..len]);
                if value > alpha {
                    alpha = value;
                }
            } else {
                rm.score = -INFINITE;
            }
            if value >= beta {
                break;
            }
        }
        best
    }

    fn report(&self, depth: i32, bound: Option<bool>) {
        let multipv = self.setup.limits.multipv.max(1).min(self.root_moves.len());
        let shared = self.setup.shared;
        let nodes = shared.nodes.load(Ordering::Relaxed) + (self.nodes - self.published);
        for (i, rm) in self.root_moves.iter().take(multipv).enumerate() {
            let searched = i <= self.pv_idx && rm.score != -INFINITE;
            let score = if searched {
                rm.score
            } else {
                rm.previous_score
            };
            if score == -INFINITE {
                continue;
            }
            (self.setup.report)(&Report {
                depth,
                seldepth: rm.seldepth.max(1),
                multipv: i + 1,
                score,
                bound: if i == self.pv_idx { bound } else { None },
                nodes,
                time_ms: self.start.elapsed().as_millis() as u64,
                hashfull: self.setup.tt.hashfull(),
                pv: rm.pv.clone(),
            });
        }
    }

    /// Iterative deepening until a limit or a stop; returns the main thread's choice.
    pub fn iterate(&mut self) -> SearchResult<G::Move> {
        let limits = &self.setup.limits;
        let max_depth = limits
            .depth
            .unwrap_or(MAX_PLY as i32 - 8)
            .clamp(1, MAX_PLY as i32 - 8);
        let wanted = match self.setup.skill {
            Some(_) => limits.multipv.max(Skill::CANDIDATES),
            None => limits.multipv,
        };
        let multipv = wanted.max(1).min(self.root_moves.len().max(1));
        // Under a limited strength: the candidates and their scores after the last completed
        // iteration.
        let mut candidates: Vec<(G::Move, i32)> = Vec::new();
        let mut completed = 0;
        let mut trend = Trend::default();
        if self.root_moves.is_empty() {
            return SearchResult {
                best: None,
                ponder: None,
                score: super::value::mated_in(0),
                depth: 0,
                nodes: 0,
            };
        }
        let first_depth = 1 + (self.id % 2) as i32;
        for depth in first_depth..=max_depth {
            for rm in &mut self.root_moves {
                rm.previous_score = if rm.score == -INFINITE {
                    rm.previous_score
                } else {
                    rm.score
                };
            }
            self.root_depth = depth;
            for pv_idx in 0..multipv {
                self.pv_idx = pv_idx;
                let previous = self.root_moves[pv_idx].previous_score;
                let mut delta = self.params.aspiration_window;
                let (mut alpha, mut beta) = if depth >= self.params.aspiration_min_depth
                    && !is_mate_score(previous)
                    && previous > -INFINITE
                {
                    (
                        (previous - delta).max(-INFINITE),
                        (previous + delta).min(INFINITE),
                    )
                } else {
                    (-INFINITE, INFINITE)
                };
                loop {
                    let value = self.root_search(depth, alpha, beta);
                    self.root_moves[pv_idx..].sort_by_key(|rm| std::cmp::Reverse(rm.score));
                    if self.stopped {
                        break;
                    }
                    if value <= alpha {
                        beta = (alpha + beta) / 2;
                        alpha = (value - delta).max(-INFINITE);
                        if self.is_main() && self.start.elapsed().as_millis() > 3000 {
                            self.report(depth, Some(false));
                        }
                    } else if value >= beta {
                        beta = (value + delta).min(INFINITE);
                        if self.is_main() && self.start.elapsed().as_millis() > 3000 {
                            self.report(depth, Some(true));
                        }
                    } else {
                        break;
                    }
                    delta += delta / 2;
                }
                self.root_moves[..=pv_idx].sort_by_key(|rm| std::cmp::Reverse(rm.score));
                if self.stopped {
                    break;
                }
            }
            if self.stopped {
                // A partial iteration still improves the choice when its first move was searched.
                if self.is_main() && self.root_moves[0].score != -INFINITE {
                    self.report(depth, None);
                }
                break;
            }
            completed = depth;
            if !self.is_main() {
                continue;
            }
            if self.setup.skill.is_some() {
                candidates.clear();
                candidates.extend(
                    self.root_moves[..multipv]
                        .iter()
                        .filter(|rm| rm.score != -INFINITE)
                        .map(|rm| (rm.mv, rm.score)),
                );
            }
            self.report(depth, None);
            trend.push(self.root_moves[0].mv.code(), self.root_moves[0].score);
            if self.time_to_stop(depth, &trend) {
                break;
            }
        }
        if self.is_main() {
            // Release the helpers.
            self.done.store(true, Ordering::Relaxed);
        }
        let shared = self.setup.shared;
        shared
            .nodes
            .fetch_add(self.nodes - self.published, Ordering::Relaxed);
        self.published = self.nodes;
        let chosen = match self.setup.skill {
            Some(skill) if !candidates.is_empty() => {
                let scores: Vec<i32> = candidates.iter().map(|&(_, score)| score).collect();
                let (mv, score) = candidates[skill.pick(&scores)];
                let index = self.root_moves.iter().position(|rm| rm.mv == mv);
                let index = index.expect("candidates are root moves");
                // The score it was chosen for, that of the last completed iteration.
                self.root_moves[index].score = score;
                index
            }
            _ => 0,
        };
        let best = &self.root_moves[chosen];
        // The expected reply, only if it is legal after the best move.
        let ponder = best.pv.get(1).copied().filter(|&reply| {
            let mut after = self.root.clone();
            after.play(best.mv);
            after.is_legal(reply)
        });
        SearchResult {
            best: Some(best.mv),
            ponder,
            score: if best.score == -INFINITE {
                best.previous_score
            } else {
                best.score
            },
            depth: completed,
            nodes: self.nodes,
        }
    }

    /// After a completed iteration: is it time to stop (soft limit scaled by the `trend` of the
    /// iterations, forced move, proven mate)?
    fn time_to_stop(&self, depth: i32, trend: &Trend) -> bool {
        let shared = self.setup.shared;
        if shared.pondering.load(Ordering::Relaxed) {
            return false;
        }
        let optimum = shared.optimum_ms.load(Ordering::Relaxed);
        if optimum == u64::MAX {
            return false;
        }
        let elapsed = shared.elapsed_ms();
        if self.root_moves.len() == 1 && depth >= 4 {
            return true;
        }
        let score = self.root_moves[0].score;
        // A mate for us: stop and leave the time to the mate solver, which makes the line exact.
        if score >= super::value::MATE_BOUND {
            return true;
        }
        if is_mate_score(score) && depth as i64 >= 2 * (MATE - score.abs()) as i64 + 2 {
            return true;
        }
        let budget = Budget {
            optimum,
            maximum: shared.maximum_ms.load(Ordering::Relaxed),
        };
        soft_stop(&budget, elapsed, trend)
    }
}
