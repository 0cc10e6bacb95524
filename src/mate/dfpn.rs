//! Depth-first proof-number search (df-pn) with a mate-length bound.
//!
//! OR nodes are the attacker's (checking moves only), AND nodes the defender's (every legal move).
//! Every search carries a bound `d`: the number of plies the mate may still take. The unbounded
//! search uses [`DMAX`]; the exact-length phase re-runs the same search with smaller bounds.
//!
//! What keeps it correct and fast:
//! - **Repetition**: a child whose position is already on the current path counts as disproven for
//!   that path only (perpetual check loses for the checker, and a cycle is never a mate). Disproofs
//!   derived from it are marked path-dependent and stored with a hash of the path, never as final.
//! - **1+ε trick**: the best child's threshold is `second best × (1 + 1/4) + 1` instead of
//!   `second best + 1`, which cuts the number of re-expansions.
//! - **Double counting**: an AND node's proof number is its hardest reply's plus half the sum of
//!   the others' (at least one per other unsolved reply), between the plain sum, which counts
//!   transposing lines (typical of interpositions) many times over, and the weak rule
//!   `max + (unsolved − 1)`, which ignores how hard the other replies are. An OR node's disproof
//!   number keeps the weak rule.
//! - **Delayed expansion**: the defender's drops onto one square count as one reply until the
//!   first is proven, and the attacker's non-promotion as one move with its promotion until that
//!   is disproven (see `Child::follows`).
//! - **Hand dominance**: proofs are stored with the smallest attacker hand that suffices (proof
//!   pieces) and disproofs with the largest hand for which they hold (disproof pieces); see
//!   [`super::table`].

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use super::table::{INF, Look, NO_LEN, NO_REP, Table, bytewise, hand_max, hand_min};
use super::{INFO_LINE_MOVES, MateGame, MateInfo};
use crate::core::clock::Instant;
use crate::core::color::Color;
use crate::core::moves::{GameMove, ListStore, MoveList};

/// The bound of an unbounded search (also the deepest line the solver can handle).
pub const DMAX: u16 = 3000;

/// A hand larger than any real one (a disproof that holds whatever the attacker holds).
const ALL_HANDS: u64 = 0x7f7f_7f7f_7f7f_7f7f;

/// A child's search of more nodes than this may have solved its siblings by transposition: look
/// them up again.
const REFRESH_AFTER: u64 = 32;

/// The path hash of a search root.
const ROOT_PATH: u64 = 0x5a5a_1234_9876_0001;

#[inline(always)]
fn mix(path: u64, key: u64) -> u64 {
    (path.rotate_left(23) ^ key).wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1
}

#[inline(always)]
fn sat_add(a: u32, b: u32) -> u32 {
    a.saturating_add(b).min(INF)
}

/// The hands of a node being summarized.
#[derive(Clone, Copy)]
struct NodeHands {
    /// The attacker's packed hand.
    attacker: u64,
    /// The defender's packed hand.
    defender: u64,
    /// At an AND node: the check could be blocked by a drop.
    interposable: bool,
    /// Look the children up again (other branches may have solved some by transposition).
    refresh: bool,
}

/// One child of a node being searched, kept in the shared arena while its parent is expanded.
#[derive(Clone, Copy)]
struct Child<M> {
    mv: M,
    key: u64,
    board: u64,
    hand: u64,
    /// Delayed expansion: the child is left out of its node's numbers until the child before it
    /// is solved the way that makes it matter. At an AND node it is a drop onto the same square
    /// as the child before, counted once that one is proven (the defender's drops onto one square
    /// are much alike, and counting each would make the node look far harder than it is; if the
    /// first is disproven, the rest do not matter). At an OR node it is the non-promotion of the
    /// promotion before it, counted once that one is disproven (promoting is nearly always at
    /// least as strong).
    follows: bool,
    look: Look,
}

/// Limits and reporting of one solve.
pub struct Control<'a> {
    /// Set from outside to stop.
    pub stop: &'a AtomicBool,
    /// When the solve started.
    pub start: Instant,
    /// Stop at this instant.
    pub deadline: Option<Instant>,
    /// Stop after this many nodes.
    pub node_limit: Option<u64>,
    /// Progress report.
    pub info: &'a mut (dyn FnMut(&MateInfo) + Send),
    /// When the last report was made.
    pub last_info: Instant,
}

/// The df-pn searcher: table, arena of children, current path and node count.
pub struct Search<'a, P: MateGame> {
    /// The transposition table (borrowed: the engine keeps one table for all its solves).
    pub tt: &'a mut Table,
    attacker: Color,
    arena: Vec<Child<P::Move>>,
    /// The positions of the children being expanded (reused from node to node).
    scratch: Vec<P>,
    /// The root of the search under way, and the moves from it to the node being searched (for
    /// progress reports).
    root: Option<P>,
    line: Vec<P::Move>,
    /// The root's proof and disproof numbers, as last summarized.
    root_numbers: (u32, u32),
    path: Vec<u64>,
    filter: Vec<u16>,
    /// Nodes searched so far.
    pub nodes: u64,
    /// A limit was reached (or stop was requested): results in progress are not to be trusted.
    pub aborted: bool,
    /// Ignore time and stop (used while extracting a line that is already proven), but not this
    /// hard node cap.
    pub hard_cap: Option<u64>,
    /// A node cap for one search of a series (the cooks' checks, each given a share), besides
    /// the solve's own limits.
    pub soft_cap: Option<u64>,
    ctl: Control<'a>,
    _p: std::marker::PhantomData<P>,
}

impl<'a, P: MateGame> Search<'a, P> {
    /// A searcher for the attacker `attacker` using table `tt`.
    pub fn new(tt: &'a mut Table, attacker: Color, ctl: Control<'a>) -> Self {
        Search {
            tt,
            attacker,
            arena: Vec::with_capacity(1 << 14),
            scratch: Vec::with_capacity(256),
            root: None,
            line: Vec::with_capacity(DMAX as usize + 8),
            root_numbers: (1, 1),
            path: Vec::with_capacity(DMAX as usize + 8),
            filter: vec![0; 1 << 16],
            nodes: 0,
            aborted: false,
            hard_cap: None,
            soft_cap: None,
            ctl,
            _p: std::marker::PhantomData,
        }
    }

    /// The attacker's hand in `pos`.
    #[inline(always)]
    pub fn hand(&self, pos: &P) -> u64 {
        pos.packed_hand(self.attacker)
    }

    /// Emits a progress report now.
    pub fn report(&mut self) {
        let elapsed = self.ctl.start.elapsed();
        let ms = elapsed.as_millis() as u64;
        let mut line = Vec::with_capacity(self.line.len().min(INFO_LINE_MOVES));
        if let Some(root) = &self.root {
            let mut p = root.clone();
            for &mv in self.line.iter().take(INFO_LINE_MOVES) {
                line.push(p.move_to_usi(mv));
                p.play(mv);
            }
        }
        let info = MateInfo {
            nodes: self.nodes,
            nps: (self.nodes as f64 / elapsed.as_secs_f64().max(1e-3)) as u64,
            time_ms: ms,
            hashfull: self.tt.hashfull(),
            root_pn: self.root_numbers.0,
            root_dn: self.root_numbers.1,
            line,
        };
        (self.ctl.info)(&info);
        self.ctl.last_info = Instant::now();
    }

    fn poll(&mut self) {
        if let Some(cap) = self.hard_cap {
            if self.nodes >= cap {
                self.aborted = true;
            }
            return;
        }
        if self.ctl.stop.load(Ordering::Relaxed)
            || crate::core::job::interrupted()
            || self.ctl.deadline.is_some_and(|t| Instant::now() >= t)
            || self.ctl.node_limit.is_some_and(|n| self.nodes >= n)
            || self.soft_cap.is_some_and(|n| self.nodes >= n)
        {
            self.aborted = true;
        }
        if self.ctl.last_info.elapsed() >= Duration::from_millis(500) {
            self.report();
        }
    }

    /// True when the time, node or stop limit has been reached (checked now).
    pub fn limits_reached(&mut self) -> bool {
        let saved = self.hard_cap.take();
        let was = self.aborted;
        self.aborted = false;
        self.poll();
        let hit = self.aborted;
        self.aborted = was;
        self.hard_cap = saved;
        hit
    }

    /// Looks `pos` up for a search allowing `d` plies, at a search root.
    pub fn lookup_root(&self, pos: &P, d: u16) -> Option<Look> {
        self.tt
            .lookup(
                pos.board_key(),
                self.hand(pos),
                d,
                mix(ROOT_PATH, pos.key()),
            )
            .map(|(l, _)| l)
    }

    /// Searches `pos` (an OR node when `or`) for a mate within `d` plies, until it is proven,
    /// disproven or a limit is reached (then the returned numbers are neither 0).
    pub fn search(&mut self, pos: &P, or: bool, d: u16) -> Look {
        self.path.clear();
        self.filter.iter_mut().for_each(|f| *f = 0);
        self.arena.clear();
        self.line.clear();
        self.root = Some(pos.clone());
        loop {
            let look = self.mid(pos, or, d, INF, INF, mix(ROOT_PATH, pos.key()));
            if look.pn == 0 || look.dn == 0 || self.aborted {
                return look;
            }
        }
    }

    /// The proof hand of a position where the defender has no legal move: the attacker must keep the
    /// pieces of the kinds the defender lacks (else the defender would hold some and could drop).
    fn mate_hand(&self, pos: &P) -> u64 {
        if !pos.check_is_interposable() {
            return 0;
        }
        let def = pos.packed_hand(!self.attacker);
        let att = pos.packed_hand(self.attacker);
        bytewise(att, def, |a, d| if d == 0 { a } else { 0 })
    }

    fn on_path(&self, key: u64) -> bool {
        self.filter[(key & 0xffff) as usize] > 0 && self.path.contains(&key)
    }

    /// The index on the path of the position `key` (known to be on it).
    fn path_index(&self, key: u64) -> u16 {
        self.path.iter().position(|&k| k == key).unwrap_or(0) as u16
    }

    fn push_path(&mut self, key: u64) {
        self.path.push(key);
        self.filter[(key & 0xffff) as usize] += 1;
    }

    fn pop_path(&mut self) {
        if let Some(key) = self.path.pop() {
            self.filter[(key & 0xffff) as usize] -= 1;
        }
    }

    /// Generates the children of `pos` into the arena with their first estimates. At an AND node
    /// the drops onto one square are put side by side, each after the first marked as following
    /// it (see [`Child::follows`]).
    #[inline(never)]
    fn expand(&mut self, pos: &P, or: bool, d: u16, path: u64) {
        let mut list = MoveList::<P::Move>::new();
        if or {
            pos.checking_moves(&mut list);
            // A non-promotion right after its promotion.
            if list.iter().any(|m| m.is_promotion()) {
                let generated = std::mem::take(&mut list);
                for &m in generated.iter() {
                    if m.is_promotion() {
                        list.push(m);
                        if generated.contains(&m.unpromoted()) {
                            list.push(m.unpromoted());
                        }
                    } else if m.is_drop()
                        || !generated
                            .iter()
                            .any(|&p| p.is_promotion() && p.unpromoted() == m)
                    {
                        list.push(m);
                    }
                }
            }
        } else {
            pos.legal_moves(&mut list);
            // Drops last, grouped by square (a stable sort keeps the generator's order within a
            // square).
            list.sort_by_key(|m| if m.is_drop() { 1 + m.to_index() } else { 0 });
        }
        let cd = d - 1;
        // First every child and a prefetch of its bucket, then the lookups: the memory accesses
        // of the lookups overlap instead of waiting one after another.
        self.scratch.clear();
        let first = self.arena.len();
        let mut last_drop_to = usize::MAX;
        let mut previous = <P::Move as GameMove>::NONE;
        for &mv in list.iter() {
            let mut child = pos.clone();
            child.play(mv);
            let key = child.key();
            let board = child.board_key();
            let hand = self.hand(&child);
            self.tt.prefetch(board);
            let drop_to = if mv.is_drop() {
                mv.to_index()
            } else {
                usize::MAX
            };
            let follows = if or {
                previous.is_promotion() && previous.unpromoted() == mv
            } else {
                drop_to != usize::MAX && drop_to == last_drop_to
            };
            last_drop_to = drop_to;
            previous = mv;
            self.arena.push(Child {
                mv,
                key,
                board,
                hand,
                follows,
                look: Look::unknown(1, 1),
            });
            self.scratch.push(child);
        }
        for j in 0..self.scratch.len() {
            let Child {
                key, board, hand, ..
            } = self.arena[first + j];
            let look = if self.on_path(key) {
                Look::disproven(DMAX, hand, self.path_index(key))
            } else if let Some((l, _)) = self.tt.lookup(board, hand, cd, mix(path, key)) {
                l
            } else if or {
                let n = self.scratch[j].count_replies_merging_drops();
                if n == 0 {
                    let l = Look::proven(0, self.mate_hand(&self.scratch[j]));
                    self.tt.store(board, hand, cd, &l, 0, 1, 0);
                    l
                } else if cd < 2 {
                    Look::disproven(1, ALL_HANDS, NO_REP)
                } else {
                    Look::unknown(n as u32, 1)
                }
            } else if cd == 0 {
                Look::disproven(0, ALL_HANDS, NO_REP)
            } else {
                Look::unknown(1, 1)
            };
            self.arena[first + j].look = look;
        }
    }

    /// The numbers of a node from its children in `range`; also the child to search next, the second
    /// best number, and the (dis)proof facts when solved.
    fn summarize(
        &mut self,
        range: std::ops::Range<usize>,
        or: bool,
        d: u16,
        path: u64,
        hands: NodeHands,
    ) -> (Look, usize, u32) {
        let NodeHands {
            attacker: pos_hand,
            defender: def_hand,
            interposable,
            refresh,
        } = hands;
        let cd = d - 1;
        // Refresh from the table: other branches may have solved a child by transposition.
        for c in &mut self.arena[range.clone()] {
            if refresh
                && c.look.pn != 0
                && c.look.dn != 0
                && let Some((l, _)) = self.tt.lookup(c.board, c.hand, cd, mix(path, c.key))
            {
                c.look = l;
            }
        }
        let children = &self.arena[range.clone()];
        let mut best = usize::MAX;
        let mut first = INF;
        let mut second = INF;
        let mut other_max = 0u32;
        let mut other_sum = 0u32;
        let mut unsolved = 0u32;
        if or {
            let mut proof: Option<(u16, u64)> = None;
            let mut dis_len = NO_LEN;
            let mut dis_hand = ALL_HANDS;
            let mut rep = NO_REP;
            let mut previous_disproven = true;
            for (i, c) in children.iter().enumerate() {
                let l = &c.look;
                if c.follows && !previous_disproven && l.pn != 0 && l.dn != 0 {
                    // Delayed: the promotion before it is not disproven yet (so this node is not
                    // either). Solved children always count.
                    continue;
                }
                previous_disproven = l.dn == 0;
                if l.pn == 0 {
                    // Proof pieces: what the child needed, plus what this move spent (a drop), minus
                    // what it gained (a capture).
                    let h = bytewise(
                        bytewise(l.hand, pos_hand, |a, b| a.saturating_add(b)),
                        c.hand,
                        |a, b| a.saturating_sub(b),
                    );
                    if proof.is_none_or(|(len, _)| l.proof_len < len) {
                        proof = Some((l.proof_len, h));
                        best = i;
                    }
                } else if l.dn == 0 {
                    dis_len = dis_len.min(l.dis_len.saturating_add(1).min(DMAX));
                    let h = bytewise(
                        bytewise(l.hand, pos_hand, |a, b| a.saturating_add(b).min(127)),
                        c.hand,
                        |a, b| a.saturating_sub(b),
                    );
                    dis_hand = hand_min(dis_hand, h);
                    rep = rep.min(l.rep);
                } else {
                    unsolved += 1;
                    other_max = other_max.max(l.dn);
                    if l.pn < first {
                        second = first;
                        first = l.pn;
                        best = i;
                    } else if l.pn < second {
                        second = l.pn;
                    }
                }
            }
            if let Some((len, hand)) = proof {
                return (Look::proven(len.saturating_add(1), hand), best, 0);
            }
            if unsolved == 0 {
                // With none of a kind, receiving one would allow new drops: keep those at zero.
                let hand = bytewise(dis_hand, pos_hand, |a, b| if b == 0 { 0 } else { a });
                let dis_len = if dis_len == NO_LEN { DMAX } else { dis_len };
                return (Look::disproven(dis_len.max(d), hand, rep), usize::MAX, 0);
            }
            let dn = sat_add(other_max, unsolved - 1);
            (Look::unknown(first, dn), best, second)
        } else {
            let mut proof_len = 0u16;
            let mut proof_hand = 0u64;
            let mut dis: Option<(u16, u64, u16, usize)> = None;
            let mut previous_proven = true;
            for (i, c) in children.iter().enumerate() {
                let l = &c.look;
                if c.follows && !previous_proven && l.pn != 0 && l.dn != 0 {
                    // Delayed: the drop before it is not proven yet (so this node is not either).
                    // Solved children always count.
                    continue;
                }
                previous_proven = l.pn == 0;
                if l.pn == 0 {
                    proof_len = proof_len.max(l.proof_len);
                    proof_hand = hand_max(proof_hand, l.hand);
                } else if l.dn == 0 {
                    let better = match dis {
                        None => true,
                        Some((len, _, r, _)) => l.rep > r || (r == l.rep && l.dis_len > len),
                    };
                    if better {
                        dis = Some((l.dis_len, l.hand, l.rep, i));
                    }
                } else {
                    unsolved += 1;
                    other_max = other_max.max(l.pn);
                    other_sum = sat_add(other_sum, l.pn);
                    if l.dn < first {
                        second = first;
                        first = l.dn;
                        best = i;
                    } else if l.dn < second {
                        second = l.dn;
                    }
                }
            }
            if let Some((len, hand, rep, i)) = dis {
                // A defender's drop must stay possible: the attacker may not hold more of a kind the
                // defender holds (that would leave the defender fewer).
                let hand = bytewise(hand, def_hand, |a, dd| if dd > 0 { 0 } else { a });
                let hand = hand_max(hand, pos_hand);
                return (
                    Look::disproven(len.saturating_add(1).min(DMAX), hand, rep),
                    i,
                    0,
                );
            }
            if unsolved == 0 {
                // The attacker must keep every piece of a kind the defender lacks.
                let keep = if interposable {
                    bytewise(pos_hand, def_hand, |a, dd| if dd == 0 { a } else { 0 })
                } else {
                    0
                };
                return (
                    Look::proven(proof_len.saturating_add(1), hand_max(proof_hand, keep)),
                    usize::MAX,
                    0,
                );
            }
            // Between the sum (which counts transposed subtrees many times over) and the weak
            // rule `max + (unsolved − 1)` (which ignores how hard the other replies are): the
            // hardest reply plus half of the others.
            let pn = sat_add(
                other_max,
                (other_sum.saturating_sub(other_max) / 2).max(unsolved - 1),
            );
            (Look::unknown(pn, first), best, second)
        }
    }

    /// The multiple-iterative-deepening step of df-pn: searches `pos` until its numbers reach the
    /// thresholds, and returns its numbers and best move.
    fn mid(&mut self, pos: &P, or: bool, d: u16, th_pn: u32, th_dn: u32, path: u64) -> Look {
        self.nodes += 1;
        if self.nodes & 1023 == 0 {
            self.poll();
        }
        if self.aborted {
            return Look::unknown(1, 1);
        }
        if or && d == 0 {
            return Look::disproven(0, ALL_HANDS, NO_REP);
        }
        if !or && d < 2 {
            return if pos.count_legal_moves() == 0 {
                Look::proven(0, self.mate_hand(pos))
            } else {
                Look::disproven(1, ALL_HANDS, NO_REP)
            };
        }
        let board = pos.board_key();
        let hand = self.hand(pos);
        let def_hand = pos.packed_hand(!self.attacker);
        let interposable = !or && pos.check_is_interposable();
        let start_nodes = self.nodes;
        let start = self.arena.len();
        self.expand(pos, or, d, path);
        let end = self.arena.len();
        if start == end {
            let look = if or {
                Look::disproven(
                    DMAX,
                    bytewise(ALL_HANDS, hand, |a, b| if b == 0 { 0 } else { a }),
                    NO_REP,
                )
            } else {
                Look::proven(0, self.mate_hand(pos))
            };
            self.tt.store(board, hand, d, &look, path, 1, 0);
            return look;
        }
        self.push_path(pos.key());
        let mut look;
        let mut best_move = <P::Move as GameMove>::NONE;
        let mut refresh = false;
        loop {
            let (l, best, second) = self.summarize(
                start..end,
                or,
                d,
                path,
                NodeHands {
                    attacker: hand,
                    defender: def_hand,
                    interposable,
                    refresh,
                },
            );
            look = l;
            if self.path.len() == 1 {
                self.root_numbers = (look.pn, look.dn);
            }
            let best = if best == usize::MAX {
                usize::MAX
            } else {
                start + best
            };
            if best != usize::MAX {
                best_move = self.arena[best].mv;
            }
            if look.pn == 0 || look.dn == 0 || look.pn >= th_pn || look.dn >= th_dn || self.aborted
            {
                break;
            }
            let c = self.arena[best];
            let eps = |x: u32| sat_add(x, 1 + x / 4);
            let (cth_pn, cth_dn) = if or {
                (th_pn.min(eps(second)), sat_add(th_dn - look.dn, c.look.dn))
            } else {
                (sat_add(th_pn - look.pn, c.look.pn), th_dn.min(eps(second)))
            };
            let mut next = pos.clone();
            next.play(c.mv);
            let before = self.nodes;
            self.line.push(c.mv);
            let r = self.mid(&next, !or, d - 1, cth_pn, cth_dn, mix(path, c.key));
            self.line.pop();
            refresh = self.nodes - before > REFRESH_AFTER;
            self.arena[best].look = r;
        }
        self.pop_path();
        self.arena.truncate(start);
        // A repetition of this node itself (or of a position below it) does not depend on how the
        // node was reached: a mate through a cycle back here could skip the cycle.
        if look.dn == 0 && look.rep != NO_REP && look.rep as usize >= self.path.len() {
            look.rep = NO_REP;
        }
        if !self.aborted || look.pn == 0 || look.dn == 0 {
            self.tt.store(
                board,
                hand,
                d,
                &look,
                path,
                self.nodes - start_nodes,
                best_move.code(),
            );
        }
        look
    }
}
