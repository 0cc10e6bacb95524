//! Move ordering. Every move gets a score once, and moves are taken best first — by selection
//! for the first few (most nodes cut off early), then from one sort of the rest.
//!
//! Outside check, in the main search, the moves come in stages, so that a node cut off early
//! pays neither for generating nor for scoring its quiet moves: the table move; the captures and
//! promotions, while they score as good; the killers and the counter-move, when legal and quiet;
//! then the quiet moves, scored by history only now, with the losing captures last. In check and
//! in quiescence every move is generated and scored at once.
//!
//! Captures are first scored as if they won their exchange; the static exchange evaluation runs
//! only when such a capture is about to be taken (or before the sort), and demotes it to the bad
//! captures when it fails. The order is the same as scoring every capture up front, but the
//! exchanges of captures never reached (most of them, at cut nodes) are not evaluated.

use super::SearchGame;
use super::history::{History, piece_to};
use crate::core::moves::{GameMove, ListStore, MoveList};

const TT_MOVE: i32 = 1 << 30;
const GOOD_CAPTURE: i32 = 1 << 24;
const PROMOTION: i32 = 1 << 22;
const KILLER: i32 = 1 << 21;
const COUNTER: i32 = 1 << 20;
const BAD_CAPTURE: i32 = -(1 << 24);

/// Moves taken by selection before the rest is sorted once.
const SELECTION_PICKS: usize = 3;

/// Ordering scores at or above this mark captures that do not lose material by static exchange.
pub const GOOD_CAPTURE_MARK: i32 = GOOD_CAPTURE;

/// The ordering scores of the killers and the counter-move, in the order they are tried.
const REFUTATION_SCORES: [i32; 3] = [KILLER + 1, KILLER, COUNTER];

/// Where a picker stands in its node's moves.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Stage {
    /// Staged: captures and promotions, best first, while they score as good.
    Tactical,
    /// Staged: the killers and the counter-move, when legal and quiet.
    Refutations,
    /// Every move not yet taken, best first (in staged nodes: the quiet moves, then the losing
    /// captures).
    Rest,
}

/// The moves of one node: each is kept in `moves` and packed with its score as
/// `score << 32 | code << 16 | index` (its [`GameMove::code`] and its place in `moves`), so that
/// comparing the packed values orders by score, then by code. Each search thread keeps one
/// picker per ply and refills it at every node, so that no move list is copied around.
///
/// A legal table move is handed out before anything is generated: when it cuts the node off,
/// the other moves are never generated or scored.
pub struct MovePicker<M: GameMove> {
    entries: M::List<i64>,
    /// The moves the entries point to.
    moves: MoveList<M>,
    next: usize,
    sorted: bool,
    /// The table move still to be handed out before generation, or `NONE`.
    pending_tt: M,
    /// The table move already handed out (skipped when the rest is generated).
    tt_move: M,
    generated: bool,
    ply: usize,
    previous: M,
    context: [u16; 2],
    tactical_only: bool,
    promotions: bool,
    /// True when the moves come in stages (main search, not in check, a game that opts in).
    staged: bool,
    stage: Stage,
    /// The killers and the counter-move of a staged node, and how many have been looked at.
    refutations: [M; 3],
    refutation_index: usize,
    /// Quiet moves generated before their stage (to tell whether the node has any move), scored
    /// when the stage comes.
    quiets: MoveList<M>,
    quiets_generated: bool,
    /// Where the moves of the last stage begin (the first few of them are taken by selection).
    rest_start: usize,
}

impl<M: GameMove> Default for MovePicker<M> {
    fn default() -> Self {
        MovePicker {
            entries: Default::default(),
            moves: MoveList::<M>::new(),
            next: 0,
            sorted: false,
            pending_tt: M::NONE,
            tt_move: M::NONE,
            generated: false,
            ply: 0,
            previous: M::NONE,
            context: [0; 2],
            tactical_only: false,
            promotions: false,
            staged: false,
            stage: Stage::Rest,
            refutations: [M::NONE; 3],
            refutation_index: 0,
            quiets: MoveList::<M>::new(),
            quiets_generated: false,
            rest_start: 0,
        }
    }
}

/// The score of a packed entry.
#[inline(always)]
fn score_of(entry: i64) -> i32 {
    (entry >> 32) as i32
}

/// The entry `entry` with its score replaced by `score`.
#[inline(always)]
fn rescored(entry: i64, score: i32) -> i64 {
    (score as i64) << 32 | (entry & 0xffff_ffff)
}

impl<M: GameMove> MovePicker<M> {
    /// Adds `mv` with its ordering score. An entry keeps 16 bits of index, so moves beyond the
    /// 65,536th of a node are left out (only a Give and Take position could have that many
    /// capture routes; 21,617 is the most the tests know).
    #[inline(always)]
    fn push(&mut self, mv: M, score: i32) {
        let index = self.moves.len();
        if index > 0xffff {
            return;
        }
        self.moves.push(mv);
        self.entries
            .push((score as i64) << 32 | (mv.code() as i64) << 16 | index as i64);
    }

    /// The move and score of a packed entry.
    #[inline(always)]
    fn unpack(&self, entry: i64) -> (M, i32) {
        (self.moves[(entry & 0xffff) as usize], score_of(entry))
    }

    /// Prepares the picker for a node of `pos` at `ply`, reached by `previous`, whose last two
    /// moves have the piece-to codes `context` (for the continuation history): all legal moves,
    /// or only the tactical ones for quiescence (captures, and promotions when `promotions`).
    /// `tt_move` comes first when it is legal and belongs to that set.
    #[allow(clippy::too_many_arguments)]
    pub fn start<G: SearchGame<Move = M>>(
        &mut self,
        pos: &G,
        tt_move: M,
        ply: usize,
        previous: M,
        context: [u16; 2],
        tactical_only: bool,
        promotions: bool,
    ) {
        let usable = tt_move != M::NONE
            && (!tactical_only
                || !tt_move.is_drop()
                    && (pos.is_capture(tt_move) || promotions && tt_move.is_promotion()))
            && pos.is_legal(tt_move);
        self.pending_tt = if usable { tt_move } else { M::NONE };
        self.tt_move = self.pending_tt;
        self.generated = false;
        self.entries.clear();
        self.moves.clear();
        self.next = 0;
        self.sorted = false;
        self.ply = ply;
        self.previous = previous;
        self.context = context;
        self.tactical_only = tactical_only;
        self.promotions = promotions;
        self.staged = G::STAGED_MOVES && !tactical_only && !pos.in_check();
        self.quiets.clear();
        self.quiets_generated = false;
    }

    /// The ordering score of a capture, optimistic until verified (see `verify`).
    #[inline(always)]
    fn capture_score<G: SearchGame<Move = M>>(pos: &G, history: &History, mv: M) -> i32 {
        let pt = piece_to(pos.moved_piece(mv), mv);
        GOOD_CAPTURE
            + pos.captured_value(mv) * 16
            + history.capture_score(pt, pos.captured_piece(mv)) / 64
            + mv.is_promotion() as i32 * 64
    }

    /// Generates and scores the moves of `pos` other than the table move already handed out:
    /// all of them, or only the captures and promotions of a staged node.
    fn fill<G: SearchGame<Move = M>>(&mut self, pos: &G, history: &History) {
        let mut moves = MoveList::<M>::new();
        if self.staged {
            pos.tactical_moves(&mut moves, true);
        } else if self.tactical_only {
            pos.tactical_moves(&mut moves, self.promotions);
        } else {
            pos.legal_moves(&mut moves);
        }
        // The killers and the counter-move as moves of `pos`. Quiescence's moves all score as
        // captures or promotions, so it needs none. A staged game turns codes into moves
        // cheaply; elsewhere the moves just generated are searched (the generator's order, so
        // the same move as `move_from_code` would find).
        let to_move = |code: u16| {
            if self.tactical_only || code == 0 {
                M::NONE
            } else if self.staged {
                pos.move_from_code(code)
            } else {
                moves
                    .iter()
                    .copied()
                    .find(|m| m.code() == code)
                    .unwrap_or(M::NONE)
            }
        };
        let [k0, k1] = history.killers(self.ply);
        let killers = [to_move(k0), to_move(k1)];
        let counter = if self.previous == M::NONE {
            M::NONE
        } else {
            to_move(history.counter(self.previous))
        };
        self.generated = true;
        if self.staged {
            for &mv in moves.iter() {
                if mv == self.tt_move {
                    continue;
                }
                let score = if pos.is_capture(mv) {
                    Self::capture_score(pos, history, mv)
                } else {
                    PROMOTION
                };
                self.push(mv, score);
            }
            self.refutations = [killers[0], killers[1], counter];
            self.refutation_index = 0;
            self.stage = Stage::Tactical;
            return;
        }
        let us = pos.side_to_move();
        for &mv in moves.iter() {
            let score = if mv == self.tt_move {
                continue;
            } else if pos.is_capture(mv) {
                Self::capture_score(pos, history, mv)
            } else if mv.is_promotion() {
                PROMOTION
            } else if mv == killers[0] && mv != M::NONE {
                KILLER + 1
            } else if mv == killers[1] && mv != M::NONE {
                KILLER
            } else if mv == counter && mv != M::NONE {
                COUNTER
            } else {
                history.quiet_score(us, mv, piece_to(pos.moved_piece(mv), mv), self.context)
            };
            self.push(mv, score);
        }
        self.stage = Stage::Rest;
        self.rest_start = 0;
    }

    /// Scores the quiet moves of a staged node (other than the table move and the refutations
    /// already handed out) and adds them to the moves left.
    fn fill_quiets<G: SearchGame<Move = M>>(&mut self, pos: &G, history: &History) {
        if !self.quiets_generated {
            pos.quiet_moves(&mut self.quiets);
            self.quiets_generated = true;
        }
        let us = pos.side_to_move();
        for i in 0..self.quiets.len() {
            let mv = self.quiets[i];
            if mv == self.tt_move || self.refutations.contains(&mv) {
                continue;
            }
            let score =
                history.quiet_score(us, mv, piece_to(pos.moved_piece(mv), mv), self.context);
            self.push(mv, score);
        }
        self.sorted = false;
        self.rest_start = self.next;
    }

    /// True when the node has no move at all (generating the moves if need be).
    pub fn is_empty<G: SearchGame<Move = M>>(&mut self, pos: &G, history: &History) -> bool {
        if self.pending_tt != M::NONE {
            return false;
        }
        if !self.generated {
            self.fill(pos, history);
        }
        if !self.entries.is_empty() {
            return false;
        }
        if self.staged && !self.quiets_generated {
            pos.quiet_moves(&mut self.quiets);
            self.quiets_generated = true;
        }
        self.quiets.is_empty()
    }
}

/// The place of the largest of `entries[from..]` (not empty). Entries are unique (each holds
/// its move's index), so the largest value names one place: finding the value first and then
/// its place takes two passes that the compiler vectorises, faster than one pass that tracks
/// the best place.
#[inline(always)]
fn best_index(entries: &[i64], from: usize) -> usize {
    let rest = &entries[from..];
    let max = rest.iter().copied().fold(i64::MIN, i64::max);
    from + rest.iter().position(|&e| e == max).unwrap_or(0)
}

/// True when the packed entry is a capture still scored as winning its exchange: among the
/// moves not yet taken, every capture scored that way is unverified (a verified one is taken at
/// once).
#[inline(always)]
fn unverified(entry: i64) -> bool {
    (GOOD_CAPTURE..TT_MOVE).contains(&score_of(entry))
}

impl<M: GameMove> MovePicker<M> {
    /// Runs the static exchange evaluation of an unverified capture; when it loses material,
    /// returns the entry rescored as a bad capture.
    #[inline]
    fn verify<G: SearchGame<Move = M>>(&self, pos: &G, entry: i64) -> Option<i64> {
        let (mv, score) = self.unpack(entry);
        if pos.see_ge(mv, 0) {
            return None;
        }
        Some(rescored(entry, BAD_CAPTURE + score - GOOD_CAPTURE))
    }

    /// The best remaining move of `pos` (the position the picker was filled from) with its
    /// ordering score.
    pub fn next_move<G: SearchGame<Move = M>>(
        &mut self,
        pos: &G,
        history: &History,
    ) -> Option<(M, i32)> {
        if self.pending_tt != M::NONE {
            let mv = self.pending_tt;
            self.pending_tt = M::NONE;
            return Some((mv, TT_MOVE));
        }
        if !self.generated {
            self.fill(pos, history);
        }
        if self.stage == Stage::Tactical {
            if let Some(found) = self.next_good_tactical(pos) {
                return Some(found);
            }
            self.stage = Stage::Refutations;
        }
        if self.stage == Stage::Refutations {
            while self.refutation_index < self.refutations.len() {
                let i = self.refutation_index;
                self.refutation_index += 1;
                let mv = self.refutations[i];
                if mv != M::NONE
                    && mv != self.tt_move
                    && !self.refutations[..i].contains(&mv)
                    && pos.is_legal(mv)
                    && !pos.is_capture(mv)
                    && !mv.is_promotion()
                {
                    return Some((mv, REFUTATION_SCORES[i]));
                }
            }
            self.fill_quiets(pos, history);
            self.stage = Stage::Rest;
        }
        self.next_rest(pos)
    }

    /// The best capture or promotion left in a staged node while it scores as good (captures
    /// verified by static exchange on the way).
    fn next_good_tactical<G: SearchGame<Move = M>>(&mut self, pos: &G) -> Option<(M, i32)> {
        let n = self.entries.len();
        loop {
            if self.next >= n {
                return None;
            }
            let best = best_index(&self.entries, self.next);
            let e = self.entries[best];
            if score_of(e) < PROMOTION {
                return None;
            }
            if unverified(e)
                && let Some(demoted) = self.verify(pos, e)
            {
                self.entries[best] = demoted;
                continue;
            }
            self.entries.swap(self.next, best);
            self.next += 1;
            return Some(self.unpack(e));
        }
    }

    /// The best move left, by selection for the first few, then from one sort.
    fn next_rest<G: SearchGame<Move = M>>(&mut self, pos: &G) -> Option<(M, i32)> {
        let n = self.entries.len();
        if self.next >= n {
            return None;
        }
        if !self.sorted {
            if self.next - self.rest_start < SELECTION_PICKS {
                loop {
                    let best = best_index(&self.entries, self.next);
                    match unverified(self.entries[best])
                        .then(|| self.verify(pos, self.entries[best]))
                        .flatten()
                    {
                        Some(demoted) => self.entries[best] = demoted,
                        None => {
                            self.entries.swap(self.next, best);
                            break;
                        }
                    }
                }
            } else {
                for i in self.next..n {
                    let e = self.entries[i];
                    if unverified(e)
                        && let Some(demoted) = self.verify(pos, e)
                    {
                        self.entries[i] = demoted;
                    }
                }
                self.entries[self.next..].sort_unstable_by(|a, b| b.cmp(a));
                self.sorted = true;
            }
        }
        let e = self.entries[self.next];
        self.next += 1;
        Some(self.unpack(e))
    }
}
