//! The engine's work on threads of their own: a search, a mate search, a perft. Each takes what
//! it needs with it and reports through the engine's [`Events`]. Where there are no threads (the
//! browser build) each runs to its answer inside the call that starts it ([`job`]).

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use super::events::{Best, Event, Events, Info, MateOutcome, MateProgress, PerftEnd, Score};
use super::go::GoParams;
use super::options::Options;
use super::session::Session;
use crate::core::clock::{self, Instant};
use crate::core::game::Position;
use crate::core::job::{self, Job};
use crate::core::moves::ListStore;
use crate::core::perft::{DivideEnd, divide_report};
use crate::games::Game;
use crate::mate;
use crate::mate::MateGame;
use crate::mate::table::Table;
use crate::nnue::network::Network;
use crate::search::tt::TranspositionTable;
use crate::search::{self, HistoryPool, Limits, SearchParams, SearchSetup, Shared};

/// Longest the exact-mate refinement of a search's mate may take, in milliseconds.
const EXACT_MATE_MS: u64 = 2000;

/// Runs perft of `pos` to `depth`, reporting each root move's count as it comes, and returns how
/// it ended: the total, or, when `stop` was set, what was counted. Depth 0 counts the position
/// itself.
pub fn perft<P: Position>(
    pos: &P,
    depth: u32,
    stop: &AtomicBool,
    each: &mut dyn FnMut(String, u64),
) -> PerftEnd {
    match divide_report(pos, depth, stop, &mut |mv, n| each(pos.move_to_usi(mv), n)) {
        DivideEnd::Done(total) => PerftEnd::Done(total),
        DivideEnd::Stopped {
            counted,
            moves,
            leaves,
        } => PerftEnd::Stopped {
            depth,
            counted,
            moves,
            leaves,
        },
    }
}

/// Everything a perft thread takes with it.
pub struct PerftJob {
    /// The depth.
    pub depth: u32,
    /// Its stop flag.
    pub shared: Arc<Shared>,
    /// Where it reports.
    pub events: Events,
}

impl PerftJob {
    /// Starts perft of the session's position on its own thread, stoppable by `stop`.
    pub fn spawn<P: Position>(self, session: &Session<P>) -> std::io::Result<Job> {
        let pos = session.position().clone();
        job::start("perft", Some(64 << 20), move || {
            let events = self.events.clone();
            let end = perft(&pos, self.depth, &self.shared.stop, &mut |mv, count| {
                events.emit(Event::PerftMove { mv, count })
            });
            self.events.emit(Event::Perft(end));
        })
    }
}

/// A mate search's progress report as an event.
pub fn mate_progress(i: &mate::MateInfo) -> MateProgress {
    MateProgress {
        time_ms: i.time_ms,
        nodes: i.nodes,
        nps: i.nps,
        hashfull: i.hashfull,
        line: i.line.clone(),
        root_pn: i.root_pn,
        root_dn: i.root_dn,
    }
}

/// Everything a mate-search thread takes with it.
pub struct MateJob {
    /// Time limit in milliseconds (`None`: until solved or stopped).
    pub limit: Option<u64>,
    /// Node limit (`go mate … nodes N`; `None`: none).
    pub nodes: Option<u64>,
    /// `MultiPV`: from 2 on, the cooks of the mate are listed after it is found (up to so many
    /// first moves that mate, and the other mates along its line; [`mate::cook_lines`]).
    pub multipv: usize,
    /// The engine's mate table (the whole `USI_Hash` budget while `go mate` runs).
    pub table: Arc<Mutex<Table>>,
    /// Its stop flag.
    pub shared: Arc<Shared>,
    /// Where it reports.
    pub events: Events,
}

impl MateJob {
    /// Starts the mate search of the session's position; the thread gives exactly one answer.
    pub fn spawn<P: MateGame>(self, session: &Session<P>) -> std::io::Result<Job> {
        let pos = session.position().clone();
        job::start("mate", None, move || self.run(pos))
    }

    fn run<P: MateGame>(self, pos: P) {
        let limits = mate::MateLimits {
            time: self.limit.map(Duration::from_millis),
            nodes: self.nodes,
            ..Default::default()
        };
        let first_moves = if self.multipv >= 2 { self.multipv } else { 0 };
        let events = self.events.clone();
        let mut info = move |i: &mate::MateInfo| events.emit(Event::MateProgress(mate_progress(i)));
        let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            let mut table = self.table.lock().unwrap_or_else(|e| e.into_inner());
            let stop = &self.shared.stop;
            let fallback = mate::Fallback::FastLine;
            let (r, cooks) = mate::solve_cooks(
                &pos,
                &mut table,
                &limits,
                stop,
                &mut info,
                fallback,
                first_moves,
            );
            (r.result, r.exact, cooks)
        }))
        .unwrap_or_else(|_| {
            let e = "internal error in the mate search".into();
            (mate::MateResult::Error(e), false, None)
        });
        let (result, exact, cooks) = result;
        if let (mate::MateResult::Mate(moves), Some(cooks)) = (&result, &cooks) {
            for line in mate::cook_lines(&pos, moves, cooks) {
                self.events.emit(Event::Note(line));
            }
        }
        let outcome = match result {
            mate::MateResult::Mate(moves) => {
                self.events.emit(Event::Note(format!(
                    "mate in {} plies, {}",
                    moves.len(),
                    if exact {
                        "proven shortest"
                    } else {
                        "not proven shortest (the time ran out)"
                    }
                )));
                MateOutcome::Mate(moves.iter().map(|&m| pos.move_to_usi(m)).collect())
            }
            mate::MateResult::NoMate => MateOutcome::NoMate,
            mate::MateResult::Timeout => MateOutcome::Timeout,
            mate::MateResult::Error(e) => {
                self.events.error(e);
                MateOutcome::NoMate
            }
        };
        self.events.emit(Event::Mate(outcome));
    }
}

/// Everything a search thread takes with it.
pub struct SearchJob {
    /// What the search is asked.
    pub params: GoParams,
    /// The options it runs under.
    pub options: Options,
    /// The search table.
    pub tt: Arc<TranspositionTable>,
    /// The mate table for the exact line of a found mate (the search's share of `USI_Hash`).
    pub mate: Arc<Mutex<Table>>,
    /// Set by `stop` and `quit`: ends the exact-line refinement at once.
    pub stop_asked: Arc<AtomicBool>,
    /// Stop, ponder and clock, shared with the engine.
    pub shared: Arc<Shared>,
    /// Where it reports.
    pub events: Events,
    /// The network to evaluate with (`None`: the hand-written evaluation).
    pub network: Option<Arc<Network>>,
    /// The search threads' history tables, kept from move to move of a game.
    pub histories: Arc<HistoryPool>,
    /// The search parameters of the game played, with the options' changes.
    pub search_params: SearchParams,
}

impl SearchJob {
    /// Starts the search of the session's position on its own thread, which gives the best move.
    pub fn spawn<G: Game>(self, session: &Session<G>) -> std::io::Result<Job> {
        let pos = session.position().clone();
        let history = session.history().to_vec();
        let mut searchmoves = Vec::new();
        for m in &self.params.searchmoves {
            match pos.parse_move(m) {
                Ok(mv) => searchmoves.push(mv),
                Err(e) => self.events.error(format!("searchmoves: {e}; ignored")),
            }
        }
        let budget = if self.params.infinite {
            None
        } else {
            let clock = self.params.clock(pos.side_to_move(), session.game_ply());
            search::time::budget(&clock, &self.options.time)
        };
        self.shared.set_budget(budget);
        job::start("search-main", Some(64 << 20), move || {
            self.run(pos, history, searchmoves)
        })
    }

    fn run<G: Game>(
        self,
        pos: G,
        history: Vec<crate::core::repetition::HistoryEntry>,
        searchmoves: Vec<G::Move>,
    ) {
        let rules = self.options.rules.of::<G>();
        let declare = pos.can_declare(&rules);
        let events = self.events.clone();
        let report_pos = pos.clone();
        let report = move |r: &search::Report<G::Move>| {
            events.emit(Event::Info(Info::of_report(&report_pos, r)))
        };
        let setup = SearchSetup {
            limits: Limits {
                depth: self.params.depth,
                nodes: self.params.nodes,
                searchmoves,
                multipv: self.options.multipv,
            },
            threads: self.options.threads,
            pruning: self.options.pruning,
            report: &report,
            nnue: self.network.as_deref(),
            histories: Some(&self.histories),
            params: self.search_params,
            skill: self.options.skill(choice_seed()),
            ..super::search_setup::<G>(&history, rules, &self.tt, &self.shared)
        };
        let result = if declare {
            None
        } else {
            let caught = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                search::run(&pos, &setup)
            }));
            match caught {
                Ok(r) => Some(r),
                Err(_) => {
                    self.events
                        .error("internal error in the search; playing a legal move");
                    None
                }
            }
        };
        // A mate's exact line is read now, except when pondering: then after `ponderhit`, under
        // the clock it brings (a `stop` instead skips it).
        let mut result = result;
        if !self.params.ponder {
            result = result.map(|r| self.exact_mate(&pos, r));
        }
        // `go infinite` and `go ponder` never answer before `stop` (or `ponderhit`), even when a
        // depth or node limit ended the search (which sets the search's own stop flag); except
        // where the search runs inside the `go` call ([`job::INLINE`]), as neither can come then.
        while !job::INLINE
            && self.shared.pondering.load(Ordering::SeqCst)
            && !self.stop_asked.load(Ordering::SeqCst)
        {
            std::thread::sleep(Duration::from_millis(1));
        }
        if self.params.ponder {
            result = result.map(|r| self.exact_mate(&pos, r));
        }
        let answer = if declare {
            Event::BestMove {
                best: Best::Win,
                ponder: None,
            }
        } else {
            let best = result.as_ref().and_then(|r| r.best).or_else(|| {
                let mut list = crate::core::moves::MoveList::<G::Move>::new();
                pos.legal_moves(&mut list);
                list.first().copied()
            });
            match best {
                None => Event::BestMove {
                    best: Best::Resign,
                    ponder: None,
                },
                Some(mv) => Event::BestMove {
                    best: Best::Move(pos.move_to_usi(mv)),
                    ponder: result
                        .as_ref()
                        .and_then(|r| r.ponder)
                        .map(|p| pos.move_to_usi(p)),
                },
            }
        };
        self.events.emit(answer);
    }

    /// When the search found a forced mate for the side to move, asks the mate solver for the
    /// exact line (shortest mate against the longest defence) within the time left, and reports
    /// it; the search's own line is kept when the solver does not finish in time or `stop` comes.
    fn exact_mate<G: Game>(
        &self,
        pos: &G,
        r: search::SearchResult<G::Move>,
    ) -> search::SearchResult<G::Move> {
        // A limited strength plays the mates its own search finds, not the solver's.
        if r.score < search::value::MATE_BOUND
            || r.best.is_none()
            || self.options.skill(0).is_some()
            || self.stop_asked.load(Ordering::SeqCst)
        {
            return r;
        }
        let maximum = self.shared.maximum_ms.load(Ordering::SeqCst);
        let left = if maximum == u64::MAX {
            EXACT_MATE_MS
        } else {
            maximum.saturating_sub(self.shared.elapsed_ms()) / 2
        };
        if left < 10 {
            return r;
        }
        let limits = mate::MateLimits {
            time: Some(Duration::from_millis(left.min(EXACT_MATE_MS))),
            nodes: None,
            ..Default::default()
        };
        let start = Instant::now();
        let mut table = self.mate.lock().unwrap_or_else(|e| e.into_inner());
        let Some((line, nodes)) = exact_mate_line(pos, &mut table, &limits, &self.stop_asked)
        else {
            return r;
        };
        self.events.emit(Event::Info(Info {
            depth: r.depth.max(1),
            seldepth: line.len(),
            multipv: None,
            score: Score::Mate(line.len() as i32),
            bound: None,
            nodes,
            nps: None,
            hashfull: None,
            time_ms: start.elapsed().as_millis() as u64,
            pv: line.iter().map(|&m| pos.move_to_usi(m)).collect(),
        }));
        search::SearchResult {
            best: line.first().copied(),
            ponder: line.get(1).copied(),
            score: search::value::mate_in(line.len()),
            ..r
        }
    }
}

/// A seed for a limited strength's choice of move, different at every search.
fn choice_seed() -> u64 {
    clock::seed()
}

/// The exact mate line of `pos` and the nodes it took, read by the solver in `table` within
/// `limits`; `None` when the solver does not finish or `stop` is set (checked throughout, so that
/// `stop` is answered at once after a search found a mate).
pub fn exact_mate_line<P: MateGame>(
    pos: &P,
    table: &mut Table,
    limits: &mate::MateLimits,
    stop: &AtomicBool,
) -> Option<(Vec<P::Move>, u64)> {
    match mate::solve_in(pos, table, limits, stop, &mut |_| {}, mate::Fallback::None) {
        mate::MateReport {
            result: mate::MateResult::Mate(line),
            nodes,
            exact: true,
            ..
        } => Some((line, nodes)),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::shogi::Shogi;

    #[test]
    fn the_mate_refinement_gives_up_when_stop_is_set() {
        // A mate in 1: the solver would find it at once, unless stopped.
        let pos = Shogi::from_sfen("4k4/9/4P4/9/9/9/9/9/9 b G2r2b3g4s4n4l17p 1").unwrap();
        let mut table = Table::try_new(1).unwrap();
        let limits = mate::MateLimits::default();
        let go = AtomicBool::new(false);
        let (line, _) = exact_mate_line(&pos, &mut table, &limits, &go).unwrap();
        assert_eq!(line.len(), 1);
        let stop = AtomicBool::new(true);
        assert_eq!(exact_mate_line(&pos, &mut table, &limits, &stop), None);
    }
}
