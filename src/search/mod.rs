//! The search, generic over the game: iterative deepening with aspiration windows over a principal
//! variation search with quiescence, a shared transposition table and Lazy SMP threads.
//!
//! [`run`] searches one position to the given limits and returns the best move; the USI layer runs
//! it on its own thread and talks to it through [`Shared`] (stop, ponder, time).

mod alphabeta;
mod history;
pub use history::HistoryPool;
mod movepick;
pub mod params;
mod qsearch;
pub mod skill;
mod thread;
pub mod time;
pub mod tt;
pub mod value;

pub use crate::core::search_game::SearchGame;
pub use crate::core::search_params::SearchParams;

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

use crate::core::clock::Instant;
use crate::core::job;
use crate::core::moves::Move;
use crate::core::repetition::HistoryEntry;
use crate::core::rules::RuleOptions;
use crate::nnue::network::Network;
use thread::Worker;
use tt::TranspositionTable;

/// Limits of one search besides time.
#[derive(Clone, Debug)]
pub struct Limits<M = Move> {
    /// Stop after this depth.
    pub depth: Option<i32>,
    /// Stop after about this many nodes (all threads).
    pub nodes: Option<u64>,
    /// Search only these root moves (empty: all).
    pub searchmoves: Vec<M>,
    /// Number of principal variations to report.
    pub multipv: usize,
}

impl<M> Default for Limits<M> {
    fn default() -> Self {
        Limits {
            depth: None,
            nodes: None,
            searchmoves: Vec::new(),
            multipv: 0,
        }
    }
}

/// State shared between the USI thread and the search threads.
pub struct Shared {
    /// Set to end the search as soon as possible.
    pub stop: AtomicBool,
    /// While set, the clock is not watched (pondering or `go infinite`).
    pub pondering: AtomicBool,
    /// Soft and hard time limits in ms from `time_base`; `u64::MAX` for none.
    pub optimum_ms: AtomicU64,
    /// See [`Shared::optimum_ms`].
    pub maximum_ms: AtomicU64,
    /// When the clock started for this move (reset at `ponderhit`).
    pub time_base: Mutex<Instant>,
    /// Nodes searched by all threads (published every few thousand nodes).
    pub nodes: AtomicU64,
}

impl Default for Shared {
    fn default() -> Self {
        Shared {
            stop: AtomicBool::new(false),
            pondering: AtomicBool::new(false),
            optimum_ms: AtomicU64::new(u64::MAX),
            maximum_ms: AtomicU64::new(u64::MAX),
            time_base: Mutex::new(Instant::now()),
            nodes: AtomicU64::new(0),
        }
    }
}

impl Shared {
    /// Milliseconds since the clock started for this move.
    pub fn elapsed_ms(&self) -> u64 {
        let base = *self.time_base.lock().unwrap_or_else(|e| e.into_inner());
        base.elapsed().as_millis() as u64
    }

    /// Sets the time budget (or none) and restarts the clock.
    pub fn set_budget(&self, budget: Option<time::Budget>) {
        let (o, m) = budget.map_or((u64::MAX, u64::MAX), |b| (b.optimum, b.maximum));
        self.optimum_ms.store(o, Ordering::Relaxed);
        self.maximum_ms.store(m, Ordering::Relaxed);
        *self.time_base.lock().unwrap_or_else(|e| e.into_inner()) = Instant::now();
    }
}

/// One line of search output for the reporter.
#[derive(Clone, Debug)]
pub struct Report<M = Move> {
    /// Iteration depth.
    pub depth: i32,
    /// Deepest ply reached.
    pub seldepth: usize,
    /// 1-based index of the variation (MultiPV).
    pub multipv: usize,
    /// Score (see [`value`]).
    pub score: i32,
    /// The score is only a bound: `Some(true)` lower bound, `Some(false)` upper bound.
    pub bound: Option<bool>,
    /// Nodes so far, all threads.
    pub nodes: u64,
    /// Milliseconds since the search started.
    pub time_ms: u64,
    /// Table usage in permille.
    pub hashfull: u32,
    /// The principal variation.
    pub pv: Vec<M>,
}

/// The outcome of a search.
#[derive(Clone, Debug)]
pub struct SearchResult<M = Move> {
    /// The move to play (`None` when there is no legal move).
    pub best: Option<M>,
    /// The expected reply, for pondering.
    pub ponder: Option<M>,
    /// Score of the best move.
    pub score: i32,
    /// Last completed depth.
    pub depth: i32,
    /// Nodes searched by all threads.
    pub nodes: u64,
}

/// Everything a search needs besides the position; `R` is the game's own rule options.
pub struct SearchSetup<'a, M = Move, R = ()> {
    /// The game's positions so far, the root last (for repetition).
    pub history: &'a [HistoryEntry],
    /// Rule options (repetition verdicts).
    pub rules: RuleOptions<R>,
    /// Limits besides time.
    pub limits: Limits<M>,
    /// Number of threads (Lazy SMP).
    pub threads: usize,
    /// Selective search on (null move, reductions, futility and move-count pruning); off gives a
    /// plain alpha-beta search with the same ordering and quiescence, for comparisons.
    pub pruning: bool,
    /// The shared table.
    pub tt: &'a TranspositionTable,
    /// Stop flag, pondering, clock.
    pub shared: &'a Shared,
    /// Receives progress reports from the main thread.
    pub report: &'a (dyn Fn(&Report<M>) + Sync),
    /// The learned evaluation's network, or `None` for the hand-written evaluation.
    pub nnue: Option<&'a Network>,
    /// Where each thread's history tables are kept between searches; `None`: every search
    /// starts with empty ones (the bench, the tests).
    pub histories: Option<&'a HistoryPool>,
    /// The tuned numbers (each thread searches with its own copy): the game's
    /// [`SearchGame::default_params`] unless tuning options changed them.
    pub params: SearchParams,
    /// A limited strength (`None`: full strength): fewer nodes, and a choice among the best few
    /// root moves (see [`skill`]).
    pub skill: Option<skill::Skill>,
}

/// Searches `root` and returns the best move; the calling thread is the main search thread and
/// `threads − 1` helpers search beside it, sharing the table.
pub fn run<G: SearchGame>(
    root: &G,
    setup: &SearchSetup<'_, G::Move, G::Rules>,
) -> SearchResult<G::Move> {
    setup.tt.new_search();
    setup.shared.nodes.store(0, Ordering::Relaxed);
    let helpers = setup.threads.max(1) - 1;
    let done = AtomicBool::new(false);
    std::thread::scope(|scope| {
        let mut handles = Vec::new();
        for id in 1..=helpers {
            // A stop during the start-up ends it: no more helpers to start and then wait for.
            if setup.shared.stop.load(Ordering::Relaxed) {
                break;
            }
            let done = &done;
            let builder = std::thread::Builder::new()
                .name(format!("search-{id}"))
                .stack_size(64 << 20);
            let handle = builder.spawn_scoped(scope, move || {
                if setup.shared.stop.load(Ordering::Relaxed) || done.load(Ordering::Relaxed) {
                    return;
                }
                let mut worker = Worker::new(id, root, setup, done);
                worker.iterate();
                worker.keep_history();
            });
            match handle {
                Ok(h) => handles.push(h),
                Err(e) => log::warn!("could not start search thread {id}: {e}"),
            }
        }
        let mut main = Worker::new(0, root, setup, &done);
        let result = main.iterate();
        main.keep_history();
        done.store(true, Ordering::Relaxed);
        for h in handles {
            let _ = h.join();
        }
        SearchResult {
            nodes: setup.shared.nodes.load(Ordering::Relaxed).max(result.nodes),
            ..result
        }
    })
}

/// Runs `f` on a thread with a stack deep enough for the search's recursion (where there are no
/// threads, on the caller's: see [`job::on_stack`]).
pub fn with_search_stack<T: Send>(f: impl FnOnce() -> T + Send) -> T {
    job::on_stack("search-main", 64 << 20, f)
        .expect("spawning the search thread")
        .unwrap_or_else(|e| std::panic::resume_unwind(e))
}

/// Searches `pos` on its own search thread as a lone position (its history is the position
/// itself), under the default rules with full pruning and the game's default parameters,
/// evaluating with `network` (or with the hand-written evaluation for `None`) and without
/// progress reports.
pub fn search_position_with<G: SearchGame>(
    pos: &G,
    limits: Limits<G::Move>,
    threads: usize,
    tt: &TranspositionTable,
    shared: &Shared,
    network: Option<&Network>,
) -> SearchResult<G::Move> {
    let history = [HistoryEntry {
        key: pos.key(),
        in_check: pos.in_check(),
    }];
    let report = |_: &Report<G::Move>| {};
    let setup = SearchSetup {
        history: &history,
        rules: RuleOptions::default(),
        limits,
        threads,
        pruning: true,
        tt,
        shared,
        report: &report,
        nnue: network,
        histories: None,
        params: G::default_params(),
        skill: None,
    };
    with_search_stack(|| run(pos, &setup))
}

/// Shares the search state with the USI thread.
pub type SharedHandle = Arc<Shared>;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::game::Position;
    use crate::games::shogi::Shogi;

    #[test]
    fn a_stop_is_seen_at_the_next_node_not_the_next_poll() {
        let tt = TranspositionTable::new(1);
        let shared = Shared::default();
        shared.stop.store(true, Ordering::Relaxed);
        let limits = Limits {
            depth: Some(30),
            multipv: 1,
            ..Limits::default()
        };
        let r = search_position_with(&Shogi::startpos(), limits, 1, &tt, &shared, None);
        assert!(r.best.is_some(), "a stopped search still names a move");
        assert!(r.nodes < 200, "{} nodes after the stop", r.nodes);
    }

    /// The one root move searched leaves White a gold drop that mates (1h, held by the pawn on
    /// 1g; the king's other squares hold its own pieces). At depth 1 the reply is left to
    /// quiescence, which must score the mate in one rather than stand pat on a quiet position.
    #[test]
    fn quiescence_sees_a_mate_in_one_by_drop_at_the_horizon() {
        let pos = Shogi::from_sfen("4k4/9/9/9/9/9/4P3p/7N1/7LK b g 1").unwrap();
        let push = pos.parse_move("5g5f").unwrap();
        let mut after = pos.clone();
        after.play(push);
        assert!(
            after.mate_in_one().is_some(),
            "the test position lost its mate"
        );
        let tt = TranspositionTable::new(1);
        let limits = Limits {
            depth: Some(1),
            searchmoves: vec![push],
            multipv: 1,
            ..Limits::default()
        };
        let r = search_position_with(&pos, limits, 1, &tt, &Shared::default(), None);
        assert_eq!(r.best, Some(push));
        assert!(
            r.score <= -value::MATE_BOUND,
            "score {} for a move that allows a mate in one",
            r.score
        );
    }
}
