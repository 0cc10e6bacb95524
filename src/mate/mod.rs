//! The tsume (mate) solver: finds the attacker's shortest forced mate against the defender's longest
//! resistance, for any game implementing [`MateGame`].
//!
//! The attacker (the side to move) plays only checking moves, the defender every legal move
//! (interpositions included). The game's own rules (uchifuzume, nana shogi's "no checkmate with
//! pieces in hand") come from its legal move generation. A line that returns to a position already on
//! it is never a mate for the attacker (every attacker move checks, so a cycle is a perpetual check,
//! which loses for the checker); the solver therefore looks for mates without repeated positions.
//!
//! [`solve`] works in three phases:
//! 1. an unbounded df-pn search ([`dfpn`]) proves or disproves a mate;
//! 2. df-pn with a mate-length bound is re-run with bounds `L − 2, L − 4, …` below the best length
//!    `L` known so far, until "no mate within `L − 2`" is proven: `L` is then exact;
//! 3. the line is read off with the same bounded searches as oracles: the attacker plays a move that
//!    still mates within the exact length, the defender a reply that cannot be mated faster (the
//!    first such move takes a search; further ties are taken from what the table already knows, within
//!    a budget); among lines of equal length the one leaving the attacker the fewest pieces in hand is
//!    chosen.
//!
//! If a limit interrupts phase 2 or 3 after a mate was proven, the best mate known is returned
//! (unless the caller asked for the exact line only, see [`Fallback`]).
//!
//! The table is the caller's ([`solve_in`]), so that the engine keeps one table within its memory
//! budget for all its solves; [`solve`] and [`solve_report`] allocate one per call.

mod cooks;
pub mod dfpn;
mod game;
pub mod table;

pub use cooks::{Cook, CookReport, MatingMove, cook_lines};
pub use game::MateGame;

use std::collections::HashMap;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

use crate::core::clock::Instant;
use crate::core::job;
use crate::core::moves::{ListStore, Move, MoveList};
use dfpn::{Control, DMAX, Search};
use table::{NO_LEN, Table, hand_total};

/// The limits of one solve.
#[derive(Clone, Debug)]
pub struct MateLimits {
    /// Wall-clock limit (`None`: until solved or stopped).
    pub time: Option<Duration>,
    /// Size of the solver's transposition table in MiB, for [`solve`] and [`solve_report`] (which
    /// allocate it; [`solve_in`] uses the caller's table); the table never grows. Besides it the
    /// solver uses about 1 MiB of working space (more only for lines thousands of plies deep).
    pub hash_mib: usize,
    /// Node limit (`None`: no limit).
    pub nodes: Option<u64>,
}

impl Default for MateLimits {
    fn default() -> Self {
        MateLimits {
            time: None,
            hash_mib: 64,
            nodes: None,
        }
    }
}

/// A progress report, made about every half second.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MateInfo {
    /// Nodes searched.
    pub nodes: u64,
    /// Nodes per second.
    pub nps: u64,
    /// Milliseconds since the start.
    pub time_ms: u64,
    /// Table occupancy in permille.
    pub hashfull: u32,
    /// The proof and disproof numbers of the root of the search under way (0 when proven or
    /// disproven; the bounded searches that shorten a mate have roots of their own).
    pub root_pn: u32,
    /// See [`MateInfo::root_pn`].
    pub root_dn: u32,
    /// The line being searched, from that root, in USI notation (at most [`INFO_LINE_MOVES`]
    /// moves).
    pub line: Vec<String>,
}

/// The most moves of the current line a progress report shows.
pub const INFO_LINE_MOVES: usize = 64;

/// The answer to a mate search.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MateResult<M = Move> {
    /// A forced mate: the moves from the root to the mate, attacker first.
    Mate(Vec<M>),
    /// No forced mate exists.
    NoMate,
    /// A limit was reached (or stop was requested) before anything was proven.
    Timeout,
    /// The position is not a mate problem (the text says why); answered as no mate.
    Error(String),
}

/// A solve's answer with its statistics.
#[derive(Clone, Debug)]
pub struct MateReport<M = Move> {
    /// The answer.
    pub result: MateResult<M>,
    /// Total nodes searched.
    pub nodes: u64,
    /// Wall-clock time.
    pub time: Duration,
    /// True when the mate's length is proven to be the shortest (phase 2 completed) and the line was
    /// read with the exact oracles (phase 3 completed).
    pub exact: bool,
}

/// Checks that `pos` is a mate problem: the defender has a king and is not in check.
pub fn validate<P: MateGame>(pos: &P) -> Result<(), String> {
    let attacker = pos.side_to_move();
    if !pos.has_king(!attacker) {
        return Err("the defender (the side not to move) has no king".into());
    }
    if pos.opponent_in_check() {
        return Err(
            "the defender is already in check (the side to move could take the king)".into(),
        );
    }
    Ok(())
}

/// Solves the mate problem `pos` (the side to move attacks) within `limits`, reporting progress
/// through `info`; `stop` set to true ends the search (with the mate if one is already proven).
pub fn solve<P: MateGame>(
    pos: &P,
    limits: &MateLimits,
    stop: &AtomicBool,
    info: &mut (dyn FnMut(&MateInfo) + Send),
) -> MateResult<P::Move> {
    solve_report(pos, limits, stop, info).result
}

/// [`solve`] with node count, time and exactness. The table of `limits.hash_mib` MiB is allocated
/// for this solve; a size that cannot be had is answered with [`MateResult::Error`].
pub fn solve_report<P: MateGame>(
    pos: &P,
    limits: &MateLimits,
    stop: &AtomicBool,
    info: &mut (dyn FnMut(&MateInfo) + Send),
) -> MateReport<P::Move> {
    match Table::try_new(limits.hash_mib) {
        Ok(mut table) => solve_in(pos, &mut table, limits, stop, info, Fallback::FastLine),
        Err(e) => MateReport {
            result: MateResult::Error(e),
            nodes: 0,
            time: Duration::ZERO,
            exact: false,
        },
    }
}

/// What a solve answers when a limit ends it after a mate was proven but before the shortest line
/// was read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Fallback {
    /// Reads a (possibly longer) line from the table, ignoring stop and time but within half a
    /// million nodes: what `go mate` needs, since the mate is proven.
    FastLine,
    /// Answers [`MateResult::Timeout`] at once: for callers that only want the exact line and
    /// must honour `stop` promptly (the refinement of a search's mate).
    None,
}

/// [`solve_report`] in the caller's `table` (cleared first; `limits.hash_mib` is not used), so
/// that one table can serve every solve within a memory budget. A `stop` already set answers
/// [`MateResult::Timeout`] at once.
pub fn solve_in<P: MateGame>(
    pos: &P,
    table: &mut Table,
    limits: &MateLimits,
    stop: &AtomicBool,
    info: &mut (dyn FnMut(&MateInfo) + Send),
    fallback: Fallback,
) -> MateReport<P::Move> {
    solve_cooks(pos, table, limits, stop, info, fallback, 0).0
}

/// [`solve_in`], then, when `first_moves` is 1 or more and a mate was found, the cooks (余詰) of
/// its line within the same limits (see [`cooks`]): up to `first_moves` different first moves
/// that mate (the line's own first), and every attacker move of the line where another move
/// also mates within the plies left. With `first_moves` 0 it is [`solve_in`], no slower.
pub fn solve_cooks<P: MateGame>(
    pos: &P,
    table: &mut Table,
    limits: &MateLimits,
    stop: &AtomicBool,
    info: &mut (dyn FnMut(&MateInfo) + Send),
    fallback: Fallback,
    first_moves: usize,
) -> (MateReport<P::Move>, Option<CookReport<P::Move>>) {
    let start = Instant::now();
    if let Err(e) = validate(pos) {
        let report = MateReport {
            result: MateResult::Error(e),
            nodes: 0,
            time: start.elapsed(),
            exact: false,
        };
        return (report, None);
    }
    if stop.load(std::sync::atomic::Ordering::Relaxed) {
        let report = MateReport {
            result: MateResult::Timeout,
            nodes: 0,
            time: start.elapsed(),
            exact: false,
        };
        return (report, None);
    }
    if !table.clear_unless_stopped(stop) {
        let report = MateReport {
            result: MateResult::Timeout,
            nodes: 0,
            time: start.elapsed(),
            exact: false,
        };
        return (report, None);
    }
    // Deep lines recurse deeply: run on a thread with a generous stack.
    let run = || solve_inner(pos, table, limits, stop, info, start, fallback, first_moves);
    let outcome = job::on_stack("tsubame-mate", 512 << 20, run);
    match outcome {
        Ok(Ok(answer)) => answer,
        Ok(Err(_)) => {
            let report = MateReport {
                result: MateResult::Error("internal error in the mate solver".into()),
                nodes: 0,
                time: start.elapsed(),
                exact: false,
            };
            (report, None)
        }
        Err(e) => {
            let report = MateReport {
                result: MateResult::Error(format!("cannot start the solver thread: {e}")),
                nodes: 0,
                time: start.elapsed(),
                exact: false,
            };
            (report, None)
        }
    }
}

#[allow(clippy::too_many_arguments)]
fn solve_inner<P: MateGame>(
    pos: &P,
    tt: &mut Table,
    limits: &MateLimits,
    stop: &AtomicBool,
    info: &mut (dyn FnMut(&MateInfo) + Send),
    start: Instant,
    fallback: Fallback,
    first_moves: usize,
) -> (MateReport<P::Move>, Option<CookReport<P::Move>>) {
    let ctl = Control {
        stop,
        start,
        deadline: limits.time.map(|t| start + t),
        node_limit: limits.nodes,
        info,
        last_info: Instant::now(),
    };
    let mut s = Search::<P>::new(tt, pos.side_to_move(), ctl);
    let mut report = phases(&mut s, pos, start, fallback);
    if first_moves == 0 {
        return (report, None);
    }
    let MateResult::Mate(line) = &report.result else {
        return (report, None);
    };
    let cooks = cooks::find(&mut s, pos, line, report.exact, first_moves);
    s.report();
    report.nodes = s.nodes;
    report.time = start.elapsed();
    (report, Some(cooks))
}

/// The three phases of a solve (see the module's documentation).
fn phases<P: MateGame>(
    s: &mut Search<P>,
    pos: &P,
    start: Instant,
    fallback: Fallback,
) -> MateReport<P::Move> {
    let report = |s: &mut Search<P>, result, exact| {
        s.report();
        MateReport {
            result,
            nodes: s.nodes,
            time: start.elapsed(),
            exact,
        }
    };

    // Phase 1: is there a mate at all?
    let look = s.search(pos, true, DMAX);
    if look.dn == 0 {
        return report(s, MateResult::NoMate, true);
    }
    if look.pn != 0 {
        return report(s, MateResult::Timeout, false);
    }
    let mut best = look.proof_len;
    log::debug!(
        "phase 1: mate in {best}, {} nodes, {:?}",
        s.nodes,
        start.elapsed()
    );

    // Phase 2: shorten until the length is proven minimal.
    let mut exact = false;
    while !s.aborted {
        if best < 3 {
            exact = true;
            break;
        }
        let l = s.search(pos, true, best - 2);
        log::debug!(
            "phase 2: bound {}: pn {} dn {} len {}, {} nodes, {:?}",
            best - 2,
            l.pn,
            l.dn,
            l.proof_len,
            s.nodes,
            start.elapsed()
        );
        if l.pn == 0 {
            best = best.min(l.proof_len);
        } else if l.dn == 0 {
            exact = true;
        }
        if l.pn != 0 {
            break;
        }
    }

    // Phase 3: the line.
    if exact {
        s.aborted = false;
        let mut memo = HashMap::new();
        let mut budget = 300u32;
        let r = exact_line(s, pos, true, best, &mut memo, &mut budget);
        log::debug!(
            "phase 3: {} nodes, {:?}, budget left {budget}",
            s.nodes,
            start.elapsed()
        );
        if let Some((_, line)) = r
            && replay_is_mate(pos, &line)
        {
            return report(s, MateResult::Mate(line), true);
        }
    }
    if fallback == Fallback::None {
        return report(s, MateResult::Timeout, false);
    }
    s.aborted = false;
    match fast_line(s, pos, best) {
        Some(line) if replay_is_mate(pos, &line) => report(s, MateResult::Mate(line), false),
        _ => report(s, MateResult::Timeout, false),
    }
}

/// True when `line` replays legally from `pos`, every attacker move checks (in games that mate
/// by checks), and it ends in mate.
pub fn replay_is_mate<P: MateGame>(pos: &P, line: &[P::Move]) -> bool {
    let mut p = pos.clone();
    for (i, &mv) in line.iter().enumerate() {
        let mut list = MoveList::<P::Move>::new();
        p.legal_moves(&mut list);
        if !list.contains(&mv) {
            return false;
        }
        p.play(mv);
        if P::MATE_BY_CHECKS && i % 2 == 0 && !p.in_check() {
            return false;
        }
    }
    line.len() % 2 == 1 && p.count_legal_moves() == 0
}

/// Whether `pos` (OR node when `or`) mates within `d` plies; `None` when a limit interrupted.
fn provable<P: MateGame>(s: &mut Search<P>, pos: &P, or: bool, d: u16) -> Option<bool> {
    if !or && d < 2 || or && d == 0 {
        return Some(!or && pos.count_legal_moves() == 0);
    }
    if let Some(l) = s.lookup_root(pos, d) {
        if l.pn == 0 {
            return Some(true);
        }
        if l.dn == 0 && l.rep == table::NO_REP {
            return Some(false);
        }
    }
    let before = s.nodes;
    let l = s.search(pos, or, d);
    if s.nodes - before > 20_000 {
        log::debug!(
            "provable(or {or}, d {d}): pn {} dn {} after {} nodes",
            l.pn,
            l.dn,
            s.nodes - before
        );
    }
    if l.pn == 0 {
        Some(true)
    } else if l.dn == 0 {
        Some(false)
    } else {
        None
    }
}

type Memo<M> = HashMap<(u64, u16), Option<(u32, Vec<M>)>>;

/// The exact line from `pos` whose exact mate length is `len`: `(pieces left in the attacker's
/// hand at the end, moves)`. `None` when a limit interrupted.
fn exact_line<P: MateGame>(
    s: &mut Search<P>,
    pos: &P,
    or: bool,
    len: u16,
    memo: &mut Memo<P::Move>,
    budget: &mut u32,
) -> Option<(u32, Vec<P::Move>)> {
    if !or && len == 0 {
        return (pos.count_legal_moves() == 0).then(|| (hand_total(s.hand(pos)), Vec::new()));
    }
    if len == 0 {
        return None;
    }
    if let Some(r) = memo.get(&(pos.key(), len)) {
        return r.clone();
    }
    let mut list = MoveList::<P::Move>::new();
    if or {
        pos.checking_moves(&mut list);
    } else {
        pos.legal_moves(&mut list);
    }
    // Order by the mate lengths the table knows (upper bounds): the attacker's shortest first, the
    // defender's longest first; children known to mate faster than `len − 3` are no defence.
    let mut children: Vec<(P::Move, P, u16)> = Vec::with_capacity(list.len());
    for &mv in list.iter() {
        let mut child = pos.clone();
        child.play(mv);
        let known = s
            .lookup_root(&child, len - 1)
            .filter(|l| l.pn == 0)
            .map_or(NO_LEN, |l| l.proof_len);
        if !or && len >= 4 && known <= len - 3 {
            continue;
        }
        children.push((mv, child, known));
    }
    if or {
        children.sort_by_key(|c| c.2);
    } else {
        children.sort_by_key(|c| std::cmp::Reverse(c.2));
    }
    // The first candidate is always taken; further ones (ties, for the fewest pieces left in hand)
    // only while the budget lasts.
    let mut candidates: Vec<(P::Move, P)> = Vec::new();
    for (mv, child, _) in children {
        if !candidates.is_empty() {
            if *budget == 0 {
                break;
            }
            *budget -= 1;
        }
        let keep = if candidates.is_empty() {
            if or {
                provable(s, &child, false, len - 1)?
            } else if len >= 4 {
                !provable(s, &child, true, len - 3)?
            } else {
                true
            }
        } else if or {
            // Ties are looked for among what the table already knows, without new searches.
            s.lookup_root(&child, len - 1).is_some_and(|l| l.pn == 0)
        } else if len >= 4 {
            s.lookup_root(&child, len - 3)
                .is_some_and(|l| l.dn == 0 && l.rep == table::NO_REP)
        } else {
            true
        };
        if keep {
            candidates.push((mv, child));
        }
    }
    let mut best: Option<(u32, Vec<P::Move>)> = None;
    for (mv, child) in candidates {
        if let Some((left, rest)) = exact_line(s, &child, !or, len - 1, memo, budget)
            && best.as_ref().is_none_or(|(b, _)| left < *b)
        {
            let mut line = vec![mv];
            line.extend(rest);
            best = Some((left, line));
        }
        if s.limits_reached() {
            break;
        }
    }
    memo.insert((pos.key(), len), best.clone());
    best
}

/// A mate line from the root, known to mate within `len`, read from the table (re-searching where
/// entries were lost): the attacker's shortest known move, the defender's longest known reply.
/// Extraction ignores stop and time (the mate is proven) but not a cap of half a million nodes.
fn fast_line<P: MateGame>(s: &mut Search<P>, pos: &P, len: u16) -> Option<Vec<P::Move>> {
    fast_line_from(s, pos, true, len, 500_000)
}

/// [`fast_line`] from `pos`, an OR node when `or` (else the defender is to move), within `cap`
/// nodes.
fn fast_line_from<P: MateGame>(
    s: &mut Search<P>,
    pos: &P,
    or: bool,
    len: u16,
    cap: u64,
) -> Option<Vec<P::Move>> {
    s.hard_cap = Some(s.nodes + cap);
    let line = fast_line_inner(s, pos, or, len);
    s.hard_cap = None;
    line
}

fn fast_line_inner<P: MateGame>(
    s: &mut Search<P>,
    pos: &P,
    or: bool,
    len: u16,
) -> Option<Vec<P::Move>> {
    let mut line = Vec::new();
    let mut p = pos.clone();
    let mut d = len;
    let mut or = or;
    loop {
        let mut list = MoveList::<P::Move>::new();
        if or {
            p.checking_moves(&mut list);
        } else {
            p.legal_moves(&mut list);
        }
        if !or && list.is_empty() {
            break;
        }
        if d == 0 {
            return None;
        }
        let mut choice: Option<(P::Move, u16)> = None;
        for pass in 0..2 {
            for &mv in list.iter() {
                let mut child = p.clone();
                child.play(mv);
                let known = s.lookup_root(&child, d - 1).filter(|l| l.pn == 0);
                let l = match known {
                    Some(l) => Some(l),
                    None if pass == 1 || !or => {
                        let l = s.search(&child, !or, d - 1);
                        (l.pn == 0).then_some(l)
                    }
                    None => None,
                };
                let Some(l) = l else {
                    if !or {
                        return None;
                    }
                    continue;
                };
                let better = match choice {
                    None => true,
                    Some((_, c)) => {
                        if or {
                            l.proof_len < c
                        } else {
                            l.proof_len > c
                        }
                    }
                };
                if better {
                    choice = Some((mv, l.proof_len));
                }
            }
            if choice.is_some() || !or {
                break;
            }
        }
        let (mv, clen) = choice?;
        if clen == NO_LEN || clen >= d {
            return None;
        }
        line.push(mv);
        p.play(mv);
        d = clen;
        or = !or;
    }
    Some(line)
}
