//! What the engine reports while it works: typed events, which each face (the USI loop, the
//! page's server, the commands) turns into its own form.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use crate::core::game::Position;
use crate::search::Report;
use crate::search::value::{MATE, is_mate_score};

/// A score from the side to move's view.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Score {
    /// Centipawns.
    Cp(i32),
    /// Mate in so many plies (negative: being mated).
    Mate(i32),
}

impl Score {
    /// The score of a search value ([`crate::search::value`]).
    pub fn of_value(v: i32) -> Score {
        if !is_mate_score(v) {
            Score::Cp(v)
        } else if v > 0 {
            Score::Mate(MATE - v)
        } else {
            Score::Mate(-(MATE + v))
        }
    }
}

/// Whether a reported score is only a bound.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bound {
    /// The true score is at least this.
    Lower,
    /// The true score is at most this.
    Upper,
}

/// One report of a search's progress. The optional fields are those some answers leave out (the
/// exact line of a found mate, an answer from an exact table).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Info {
    /// Depth reached.
    pub depth: i32,
    /// Deepest ply reached.
    pub seldepth: usize,
    /// The variation's number (from 1), when variations are counted.
    pub multipv: Option<usize>,
    /// The score.
    pub score: Score,
    /// Whether the score is only a bound.
    pub bound: Option<Bound>,
    /// Nodes searched.
    pub nodes: u64,
    /// Nodes per second.
    pub nps: Option<u64>,
    /// Table usage in permille.
    pub hashfull: Option<u32>,
    /// Milliseconds since the search began.
    pub time_ms: u64,
    /// The principal variation, in the game's move notation.
    pub pv: Vec<String>,
}

impl Info {
    /// The event of a search report; moves are written by `pos` (the root).
    pub fn of_report<P: Position>(pos: &P, r: &Report<P::Move>) -> Info {
        Info {
            depth: r.depth,
            seldepth: r.seldepth,
            multipv: Some(r.multipv),
            score: Score::of_value(r.score),
            bound: r
                .bound
                .map(|lower| if lower { Bound::Lower } else { Bound::Upper }),
            nodes: r.nodes,
            nps: Some(r.nodes * 1000 / r.time_ms.max(1)),
            hashfull: Some(r.hashfull),
            time_ms: r.time_ms,
            pv: r.pv.iter().map(|&m| pos.move_to_usi(m)).collect(),
        }
    }
}

/// The move a search chose.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Best {
    /// A move, in the game's notation.
    Move(String),
    /// No legal move: the side to move resigns.
    Resign,
    /// The side to move declares a win (entering king).
    Win,
}

/// A progress report of a mate search.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MateProgress {
    /// Milliseconds since the search began.
    pub time_ms: u64,
    /// Nodes searched.
    pub nodes: u64,
    /// Nodes per second.
    pub nps: u64,
    /// Table usage in permille.
    pub hashfull: u32,
    /// The line being searched.
    pub line: Vec<String>,
    /// The root's proof number.
    pub root_pn: u32,
    /// The root's disproof number.
    pub root_dn: u32,
}

/// The answer of a mate search.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MateOutcome {
    /// A mating line.
    Mate(Vec<String>),
    /// There is no mate.
    NoMate,
    /// The time ran out before an answer.
    Timeout,
}

/// How a perft ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PerftEnd {
    /// Every root move was counted: the total.
    Done(u64),
    /// `stop` came first.
    Stopped {
        /// The depth asked for.
        depth: u32,
        /// Root moves counted.
        counted: usize,
        /// Root moves in all.
        moves: usize,
        /// Leaves below the counted ones.
        leaves: u64,
    },
}

/// What the engine reports.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Event {
    /// A search's progress.
    Info(Info),
    /// A search's answer.
    BestMove {
        /// The move chosen.
        best: Best,
        /// The reply expected, for pondering.
        ponder: Option<String>,
    },
    /// A mate search's progress.
    MateProgress(MateProgress),
    /// A mate search's answer.
    Mate(MateOutcome),
    /// A perft's count below one root move.
    PerftMove {
        /// The root move.
        mv: String,
        /// Leaves below it.
        count: u64,
    },
    /// A perft's answer.
    Perft(PerftEnd),
    /// Something worth telling (a network loaded, a mate's length).
    Note(String),
    /// Something refused or failed; the engine keeps its last good state.
    Error(String),
    /// Nothing to say, but still working (while tables are made at `isready`).
    KeepAlive,
}

impl Event {
    /// True for the final answer of a command (a best move, a mate search's answer, a perft's).
    pub fn is_answer(&self) -> bool {
        matches!(
            self,
            Event::BestMove { .. } | Event::Mate(_) | Event::Perft(_)
        )
    }
}

/// Where the engine's events go: a callback shared by the engine and its search threads. It
/// also notes when the running command has given its final answer, so that the engine treats
/// the command as over from then on, even before its thread has ended.
#[derive(Clone)]
pub struct Events {
    sink: Arc<dyn Fn(Event) + Send + Sync>,
    answered: Arc<AtomicBool>,
}

impl Events {
    /// Events handed to `sink`, in the order they happen, from whichever thread.
    pub fn new(sink: impl Fn(Event) + Send + Sync + 'static) -> Events {
        Events {
            sink: Arc::new(sink),
            answered: Arc::new(AtomicBool::new(false)),
        }
    }

    /// Reports `event` (an answer is noted as given first).
    pub fn emit(&self, event: Event) {
        if event.is_answer() {
            self.answered.store(true, Ordering::SeqCst);
        }
        (self.sink)(event);
    }

    /// Reports an error.
    pub fn error(&self, what: impl Into<String>) {
        self.emit(Event::Error(what.into()));
    }

    /// Notes that a command is starting whose final answer is still to come.
    pub fn expect_answer(&self) {
        self.answered.store(false, Ordering::SeqCst);
    }

    /// True once the command started last has given its final answer.
    pub fn has_answered(&self) -> bool {
        self.answered.load(Ordering::SeqCst)
    }
}
