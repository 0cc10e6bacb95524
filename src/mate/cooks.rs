//! Cooks (余詰): the other attacker moves that also mate, looked for after a solve has found its
//! line, in the same table and within the same limits.
//!
//! Two lists:
//! - **first moves**: up to N different first moves that mate (the line's own first), each with
//!   its mate length (proven shortest where the shortening searches finished) and a line;
//! - **cooks of the line**: at each attacker move of the line, every other checking move that
//!   mates within the plies the line has left from there (a cook on the last move, 最終手余詰,
//!   is one composers tolerate; it is marked as such).
//!
//! Every verdict comes from a df-pn search of the position after the other move, bounded by the
//! plies left (a disproof there means "no mate within them"); a mate is reported with a line that
//! has been replayed and checked ([`super::replay_is_mate`]). The searches run in rounds of
//! growing node caps ([`ROUND_CAPS`]), so that one hard check does not keep the others from being
//! decided; what the solve's limits (time, nodes, stop) leave undecided is counted, never guessed.

use super::dfpn::{DMAX, Search};
use super::table::NO_REP;
use super::{MateGame, fast_line_from, replay_is_mate};
use crate::core::moves::{ListStore, MoveList};

/// The node caps of the rounds: each undecided check is searched again with the next one.
const ROUND_CAPS: [u64; 4] = [10_000, 100_000, 1_000_000, 10_000_000];

/// The node cap of reading one cook's line from the table.
const LINE_CAP: u64 = 200_000;

/// A first move that mates.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MatingMove<M> {
    /// The mate's length in plies from the root: the shortest when `exact`, else the length of
    /// a mate found.
    pub len: usize,
    /// The length is proven shortest.
    pub exact: bool,
    /// A mating line, this move first (replayed and checked; its length at most `len`, less
    /// where the defender's replies in it are not the longest). Empty when it could not be read
    /// within its node cap.
    pub line: Vec<M>,
}

/// An attacker move of the main line where another move also mates within the plies left.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Cook<M> {
    /// The index in the main line of the attacker move it replaces (0: the first move).
    pub ply: usize,
    /// The other move.
    pub mv: M,
    /// It mates within this many plies from there (at most the main line's plies left).
    pub len: usize,
    /// A mating line from there, the other move first (replayed and checked). Empty when it could
    /// not be read within its node cap.
    pub line: Vec<M>,
}

/// The cooks of a solve's line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CookReport<M> {
    /// The first moves that mate, shortest first, the main line's first; at most as many as
    /// asked.
    pub first_moves: Vec<MatingMove<M>>,
    /// First moves whose mate was neither proven nor disproven within the limits (unknown,
    /// not counted as mating or not), left out of `first_moves`.
    pub first_moves_undecided: usize,
    /// True when as many mating first moves as asked were found before every checking move was
    /// examined (the others were not looked at).
    pub first_moves_cut: bool,
    /// The cooks of the main line, by ply.
    pub cooks: Vec<Cook<M>>,
    /// Other attacker moves along the main line whose mate within the plies left was neither
    /// proven nor disproven within the limits.
    pub cooks_undecided: usize,
    /// Other attacker moves along the main line examined in all.
    pub cooks_checked: usize,
}

/// The verdict of one check.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Verdict {
    /// Mates within this many plies (from the position after the move, the defender to move).
    Mate(u16),
    /// No mate within the bound.
    NoMate,
    /// Not decided yet.
    Open,
}

/// One check: does `child` (the defender to move) lose within `bound` plies?
struct Task<P: MateGame> {
    child: P,
    bound: u16,
    verdict: Verdict,
}

/// Decides a check in one search of at most `cap` nodes, or from what the table knows.
fn decide<P: MateGame>(s: &mut Search<P>, task: &mut Task<P>, cap: u64) {
    if task.verdict != Verdict::Open {
        return;
    }
    if task.bound == 0 {
        task.verdict = if task.child.count_legal_moves() == 0 {
            Verdict::Mate(0)
        } else {
            Verdict::NoMate
        };
        return;
    }
    if let Some(l) = s.lookup_root(&task.child, task.bound) {
        if l.pn == 0 {
            task.verdict = Verdict::Mate(l.proof_len);
            return;
        }
        if l.dn == 0 && l.rep == NO_REP {
            task.verdict = Verdict::NoMate;
            return;
        }
    }
    s.aborted = false;
    s.soft_cap = Some(s.nodes + cap);
    let l = s.search(&task.child, false, task.bound);
    s.soft_cap = None;
    s.aborted = false;
    if l.pn == 0 {
        task.verdict = Verdict::Mate(l.proof_len);
    } else if l.dn == 0 {
        // A search root's disproof never depends on a repetition (see `Search::mid`).
        task.verdict = Verdict::NoMate;
    }
}

/// Runs the rounds over `tasks` until each is decided, the caps are spent, or the solve's limits
/// are reached; `enough` ends them early (looked at after each decided task).
fn rounds<P: MateGame>(
    s: &mut Search<P>,
    tasks: &mut [Task<P>],
    enough: &mut dyn FnMut(&[Task<P>]) -> bool,
) {
    for cap in ROUND_CAPS {
        for i in 0..tasks.len() {
            if tasks[i].verdict != Verdict::Open {
                continue;
            }
            if s.limits_reached() {
                return;
            }
            decide(s, &mut tasks[i], cap);
            if tasks[i].verdict != Verdict::Open && enough(tasks) {
                return;
            }
        }
        if tasks.iter().all(|t| t.verdict != Verdict::Open) {
            return;
        }
    }
}

/// A line from `pos` that starts with `mv` and mates within `len` plies, the rest read from the
/// table (`None` when it cannot be read within [`LINE_CAP`] nodes or does not replay as a mate).
fn line_after<P: MateGame>(
    s: &mut Search<P>,
    pos: &P,
    mv: P::Move,
    len: u16,
) -> Option<Vec<P::Move>> {
    let mut child = pos.clone();
    child.play(mv);
    s.aborted = false;
    let rest = fast_line_from(s, &child, false, len - 1, LINE_CAP);
    s.aborted = false;
    let mut line = vec![mv];
    line.extend(rest?);
    (line.len() <= len as usize && replay_is_mate(pos, &line)).then_some(line)
}

/// The cooks of `main`, the line a solve found from `pos` (`exact`: its length is proven
/// shortest), with up to `wanted` mating first moves, within the solve's limits.
pub(super) fn find<P: MateGame>(
    s: &mut Search<P>,
    pos: &P,
    main: &[P::Move],
    exact: bool,
    wanted: usize,
) -> CookReport<P::Move> {
    let len = main.len();
    // The other checks at each attacker move of the line, the plies left from there.
    let mut positions = Vec::new();
    let mut at = Vec::new();
    let mut tasks = Vec::new();
    let mut p = pos.clone();
    for (i, &mv) in main.iter().enumerate() {
        if i % 2 == 0 {
            let left = (len - i) as u16;
            let mut list = MoveList::<P::Move>::new();
            p.checking_moves(&mut list);
            for &other in list.iter().filter(|&&m| m != mv) {
                let mut child = p.clone();
                child.play(other);
                at.push((positions.len(), i, other));
                tasks.push(Task {
                    child,
                    bound: left - 1,
                    verdict: Verdict::Open,
                });
            }
            positions.push(p.clone());
        }
        p.play(mv);
    }
    rounds(s, &mut tasks, &mut |_| false);

    let mut report = CookReport {
        first_moves: vec![MatingMove {
            len,
            exact,
            line: main.to_vec(),
        }],
        first_moves_undecided: 0,
        first_moves_cut: false,
        cooks: Vec::new(),
        cooks_undecided: 0,
        cooks_checked: tasks.len(),
    };
    for (t, &(k, i, mv)) in tasks.iter().zip(&at) {
        match t.verdict {
            Verdict::Mate(n) => {
                let n = n + 1;
                let line = line_after(s, &positions[k], mv, n).unwrap_or_default();
                report.cooks.push(Cook {
                    ply: i,
                    mv,
                    len: n as usize,
                    line,
                });
            }
            Verdict::NoMate => {}
            Verdict::Open => report.cooks_undecided += 1,
        }
    }

    // The first moves: the cooks of the first ply mate within the line's length (exactly it when
    // the line is proven shortest); the other checks are searched without a bound, then shortened.
    for c in report.cooks.iter().filter(|c| c.ply == 0) {
        report.first_moves.push(MatingMove {
            len: c.len,
            exact,
            line: c.line.clone(),
        });
    }
    let found = report.first_moves.len();
    let longer: Vec<(P::Move, Task<P>)> = tasks
        .into_iter()
        .zip(&at)
        .filter(|(t, at)| at.1 == 0 && !matches!(t.verdict, Verdict::Mate(_)))
        .map(|(t, &(_, _, mv))| {
            let task = Task {
                child: t.child,
                bound: DMAX - 1,
                verdict: Verdict::Open,
            };
            (mv, task)
        })
        .collect();
    if found < wanted {
        let need = wanted - found;
        let (moves, mut unbounded): (Vec<P::Move>, Vec<Task<P>>) = longer.into_iter().unzip();
        rounds(s, &mut unbounded, &mut |t| {
            t.iter()
                .filter(|t| matches!(t.verdict, Verdict::Mate(_)))
                .count()
                >= need
        });
        let proven = |t: &Task<P>| matches!(t.verdict, Verdict::Mate(_));
        let enough = unbounded.iter().filter(|t| proven(t)).count() >= need;
        let mut mates = 0;
        for (mv, t) in moves.into_iter().zip(unbounded) {
            match t.verdict {
                Verdict::Mate(n) if mates < need => {
                    mates += 1;
                    report.first_moves.push(shortest(s, pos, mv, t.child, n));
                }
                Verdict::NoMate => {}
                _ if enough => report.first_moves_cut = true,
                _ => report.first_moves_undecided += 1,
            }
        }
    } else if !longer.is_empty() {
        report.first_moves_cut = true;
    }
    // Shortest first; the main line stays first among equals.
    report.first_moves.sort_by_key(|m| m.len);
    if report.first_moves.len() > wanted {
        report.first_moves.truncate(wanted.max(1));
        report.first_moves_cut = true;
    }
    report
}

/// A first move `mv` whose position `child` mates within `n` plies: shortened like a solve's
/// second phase (bounds `n − 2, n − 4, …` until disproven), each bound one search within the
/// largest round cap and the solve's limits, then its line.
fn shortest<P: MateGame>(
    s: &mut Search<P>,
    pos: &P,
    mv: P::Move,
    child: P,
    n: u16,
) -> MatingMove<P::Move> {
    let mut best = n;
    let mut exact = false;
    while best >= 2 {
        let mut t = Task {
            child: child.clone(),
            bound: best - 2,
            verdict: Verdict::Open,
        };
        if s.limits_reached() {
            break;
        }
        decide(s, &mut t, ROUND_CAPS[ROUND_CAPS.len() - 1]);
        match t.verdict {
            Verdict::Mate(m) => best = m.min(best - 2),
            Verdict::NoMate => {
                exact = true;
                break;
            }
            Verdict::Open => break,
        }
    }
    if best < 2 {
        exact = true;
    }
    let line = line_after(s, pos, mv, best + 1).unwrap_or_default();
    MatingMove {
        len: best as usize + 1,
        exact,
        line,
    }
}

/// "1 ply", "3 plies".
fn plies(n: usize) -> String {
    format!("{n} {}", if n == 1 { "ply" } else { "plies" })
}

/// The cooks as text lines (for `info string` and `tsubame mate --cooks`), in USI notation from
/// `pos`, whose main line is `main`.
pub fn cook_lines<P: MateGame>(pos: &P, main: &[P::Move], r: &CookReport<P::Move>) -> Vec<String> {
    let text = |from: &P, line: &[P::Move]| {
        let mut p = from.clone();
        let mut words = Vec::with_capacity(line.len());
        for &mv in line {
            words.push(p.move_to_usi(mv));
            p.play(mv);
        }
        words.join(" ")
    };
    let mut out = Vec::new();
    for (k, m) in r.first_moves.iter().enumerate() {
        let first = m
            .line
            .first()
            .map_or(String::new(), |&mv| pos.move_to_usi(mv));
        out.push(format!(
            "first move {} of {}: {first} mate {} {} pv {}",
            k + 1,
            r.first_moves.len(),
            m.len,
            if m.exact { "shortest" } else { "found" },
            text(pos, &m.line)
        ));
    }
    let mut summary = format!("first moves that mate: {}", r.first_moves.len());
    if r.first_moves_cut {
        summary.push_str(" (as many as asked; other checks not all examined)");
    } else if r.first_moves_undecided > 0 {
        summary.push_str(&format!(
            "; {} other checks undecided (limits reached)",
            r.first_moves_undecided
        ));
    } else {
        summary.push_str("; every other check was disproven");
    }
    out.push(summary);
    let mut p = pos.clone();
    let mut next = 0;
    for c in &r.cooks {
        while next < c.ply {
            p.play(main[next]);
            next += 1;
        }
        out.push(format!(
            "cook at ply {}{}: {} instead of {} mates within {} pv {}",
            c.ply + 1,
            if c.ply + 1 == main.len() {
                " (last move)"
            } else {
                ""
            },
            p.move_to_usi(c.mv),
            p.move_to_usi(main[c.ply]),
            plies(c.len),
            text(&p, &c.line)
        ));
    }
    let last = r.cooks.iter().filter(|c| c.ply + 1 == main.len()).count();
    let mut summary = format!(
        "cooks of the main line: {} ({last} on the last move), of {} other checks along it",
        r.cooks.len(),
        r.cooks_checked
    );
    if r.cooks_undecided > 0 {
        summary.push_str(&format!(
            "; {} undecided (limits reached)",
            r.cooks_undecided
        ));
    } else {
        summary.push_str("; every one decided");
    }
    out.push(summary);
    out
}
