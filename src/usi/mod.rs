//! The USI protocol: a command loop fed by an input thread, a search on its own thread, and the
//! current game chosen at run time.
//!
//! Every problem with input is answered with `info string error: …`; the last good state is kept.
//! `stop`, `ponderhit`, `isready` and `quit` are served while a search runs.

mod go;
mod nana_tb;
pub mod options;
pub mod output;
mod session;

use std::io::BufRead;
use std::sync::Arc;
use std::sync::atomic::Ordering;
use std::sync::mpsc;
use std::thread::JoinHandle;
use std::time::Duration;

use crate::core::game::Position;
use crate::core::perft::divide;
use crate::core::rules::RuleOptions;
use crate::games::minishogi::Minishogi;
use crate::games::nana::Nana;
use crate::games::shogi::Shogi;
use crate::mate;
use crate::search::tt::TranspositionTable;
use crate::search::{self, Limits, SearchGame, SearchSetup, Shared};
use go::GoParams;
use options::{Options, SetResult};
pub use output::Output;
pub use session::Session;

/// The game being played, chosen at run time by `USI_Variant`.
pub enum AnyGame {
    /// Standard shogi.
    Shogi(Session<Shogi>),
    /// Minishogi.
    Minishogi(Session<Minishogi>),
    /// Nana shogi.
    Nana(Session<Nana>),
}

/// Runs `$body` with `$s` bound to the session of whichever game is selected.
macro_rules! with_session {
    ($game:expr, $s:ident => $body:expr) => {
        match $game {
            AnyGame::Shogi($s) => $body,
            AnyGame::Minishogi($s) => $body,
            AnyGame::Nana($s) => $body,
        }
    };
}

impl AnyGame {
    /// A fresh session of the game named `name` (as `USI_Variant` accepts it), at its start position.
    pub fn by_name(name: &str) -> Option<AnyGame> {
        match name.to_ascii_lowercase().as_str() {
            "shogi" => Some(AnyGame::Shogi(Session::new())),
            "minishogi" => Some(AnyGame::Minishogi(Session::new())),
            "nanashogi" | "nana" => Some(AnyGame::Nana(Session::new())),
            _ => None,
        }
    }

    /// The game's `USI_Variant` name.
    pub fn name(&self) -> &'static str {
        with_session!(self, s => s.game_name())
    }
}

/// Engine name and version for `id name`.
pub const ENGINE_NAME: &str = concat!("tsubame ", env!("CARGO_PKG_VERSION"));

/// Seconds between the empty keep-alive lines printed while `isready` does heavy work.
const KEEP_ALIVE: Duration = Duration::from_secs(4);

/// The USI engine: options, the current game, the table and the running search.
pub struct Engine {
    out: Output,
    options: Options,
    game: AnyGame,
    tt: Arc<TranspositionTable>,
    shared: Arc<Shared>,
    search: Option<JoinHandle<()>>,
    /// The arguments of the last `go`, for a `ponderhit` that brings no times.
    last_go: GoParams,
    /// The solved nana shogi table, when `NanaTablebase` names one.
    nana_table: nana_tb::NanaTable,
}

impl Engine {
    /// A new engine writing to `out`, playing standard shogi from the start.
    pub fn new(out: Output) -> Engine {
        let options = Options::default();
        Engine {
            out,
            tt: Arc::new(TranspositionTable::new(options.hash_mib)),
            options,
            game: AnyGame::Shogi(Session::new()),
            shared: Arc::new(Shared::default()),
            search: None,
            last_go: GoParams::default(),
            nana_table: nana_tb::NanaTable::default(),
        }
    }

    fn say(&self, line: &str) {
        self.out.line(line);
    }

    fn error(&self, what: &str) {
        self.say(&format!("info string error: {what}"));
    }

    /// True while a search thread is running.
    pub fn searching(&self) -> bool {
        self.search.as_ref().is_some_and(|h| !h.is_finished())
    }

    /// Stops the running search, if any, and waits for it (its `bestmove` is printed).
    fn finish_search(&mut self) {
        if let Some(h) = self.search.take() {
            self.shared.stop.store(true, Ordering::SeqCst);
            let _ = h.join();
        }
    }

    /// Handles one command line; returns false when the engine should quit.
    pub fn handle(&mut self, line: &str) -> bool {
        let line = line.trim();
        let (cmd, rest) = line
            .split_once(char::is_whitespace)
            .map_or((line, ""), |(c, r)| (c, r.trim()));
        match cmd {
            "" => {}
            "usi" => self.usi(),
            "isready" => self.isready(),
            "usinewgame" => {
                self.finish_search();
                self.tt.clear();
            }
            "setoption" => self.setoption(rest),
            "position" => {
                self.finish_search();
                let extra = self.options.rules.minishogi_extra_moves;
                let result = with_session!(&mut self.game, s => s.set_position(rest, extra));
                if let Err(e) = result {
                    self.error(&e);
                }
            }
            "go" => self.go(rest),
            "stop" => self.shared.stop.store(true, Ordering::SeqCst),
            "ponderhit" => self.ponderhit(rest),
            "gameover" => self.finish_search(),
            "d" => {
                let text = with_session!(&self.game, s => s.describe());
                for l in text.lines() {
                    self.say(l);
                }
            }
            "bench" => {
                self.finish_search();
                let out = self.out.clone();
                crate::bench::run(None, &|l: &str| out.line(l));
            }
            "quit" => {
                self.finish_search();
                return false;
            }
            _ => self.error(&format!("unknown command '{cmd}'; the line was ignored")),
        }
        true
    }

    fn usi(&self) {
        self.say(&format!("id name {ENGINE_NAME}"));
        self.say("id author the tsubame developers");
        for l in options::declarations(self.game.name()) {
            self.say(&l);
        }
        self.say("usiok");
    }

    fn isready(&mut self) {
        if !self.searching() && self.tt.size_mib() != self.options.hash_mib {
            self.search = None;
            let mib = self.options.hash_mib;
            let (tx, rx) = mpsc::channel();
            // Free the old table first, so that the new one fits where the old one was.
            let old = self.tt.size_mib();
            self.tt = Arc::new(TranspositionTable::new(1));
            std::thread::spawn(move || {
                let _ = tx.send(TranspositionTable::try_new(mib));
            });
            loop {
                match rx.recv_timeout(KEEP_ALIVE) {
                    Ok(Ok(tt)) => {
                        self.tt = Arc::new(tt);
                        break;
                    }
                    Err(mpsc::RecvTimeoutError::Timeout) => self.say(""),
                    Ok(Err(e)) => {
                        self.error(&format!("USI_Hash: {e}; kept {old} MiB"));
                        self.tt = Arc::new(TranspositionTable::new(old));
                        self.options.hash_mib = old;
                        break;
                    }
                    Err(mpsc::RecvTimeoutError::Disconnected) => {
                        self.error(&format!("USI_Hash: allocation failed; kept {old} MiB"));
                        self.tt = Arc::new(TranspositionTable::new(old));
                        self.options.hash_mib = old;
                        break;
                    }
                }
            }
        }
        if !self.searching() {
            self.update_nana_table();
        }
        self.say("readyok");
    }

    /// Loads the table `NanaTablebase` names if it changed; a refused file is reported and the
    /// engine plays nana shogi by search.
    fn update_nana_table(&mut self) {
        if let Err(e) = self.nana_table.update(&self.options.nana_tablebase) {
            self.error(&e);
        }
    }

    /// Answers `go` or `go mate` in nana shogi from the solved table, if one is loaded and holds
    /// the position; returns false when the search should answer instead.
    fn go_from_table(&mut self, params: &GoParams) -> bool {
        if !matches!(self.game, AnyGame::Nana(_)) {
            return false;
        }
        if !self.searching() {
            self.update_nana_table();
        }
        let AnyGame::Nana(s) = &self.game else {
            return false;
        };
        let Some(tb) = self.nana_table.table.clone() else {
            return false;
        };
        if params.mate.is_some() {
            return match nana_tb::mate_answer(&tb, s.position()) {
                Some(answer) => {
                    self.say(&answer);
                    true
                }
                None => false,
            };
        }
        if !params.searchmoves.is_empty() {
            return false;
        }
        self.shared.stop.store(false, Ordering::SeqCst);
        self.shared
            .pondering
            .store(params.ponder || params.infinite, Ordering::SeqCst);
        let spawned =
            nana_tb::spawn_go(tb, s.position(), Arc::clone(&self.shared), self.out.clone());
        match spawned {
            Some(Ok(h)) => {
                self.last_go = params.clone();
                self.search = Some(h);
                true
            }
            _ => false,
        }
    }

    fn setoption(&mut self, rest: &str) {
        let Some(rest) = rest.strip_prefix("name ") else {
            self.error("setoption needs 'name <id> [value <x>]'");
            return;
        };
        let (name, value) = match rest.split_once(" value ") {
            Some((n, v)) => (n.trim(), v.trim()),
            None => (rest.trim(), ""),
        };
        if name.eq_ignore_ascii_case("USI_Variant") || name.eq_ignore_ascii_case("UCI_Variant") {
            let v = if value.eq_ignore_ascii_case("nana") {
                "nanashogi"
            } else {
                value
            };
            match AnyGame::by_name(v) {
                Some(g) => {
                    self.finish_search();
                    self.game = g;
                }
                None => self.error(&format!(
                    "unknown USI_Variant '{v}' (shogi, minishogi, nanashogi); kept {}",
                    self.game.name()
                )),
            }
            return;
        }
        match self.options.set(name, value) {
            Ok(SetResult::Set) => {}
            Ok(SetResult::Unknown) => {
                self.say(&format!("info string unknown option '{name}' ignored"))
            }
            Err(e) => self.error(&format!("{e}; the value was not changed")),
        }
    }

    fn ponderhit(&mut self, rest: &str) {
        let params = match go::parse(rest) {
            Ok((p, _)) if p.has_clock() => p,
            _ => self.last_go.clone(),
        };
        let clock =
            with_session!(&self.game, s => params.clock(s.position().side_to_move(), s.game_ply()));
        let budget = search::time::budget(&clock, &self.options.time);
        self.shared.set_budget(budget);
        self.shared.pondering.store(false, Ordering::SeqCst);
    }

    fn go(&mut self, rest: &str) {
        let (params, warnings) = match go::parse(rest) {
            Ok(p) => p,
            Err(e) if rest.split_whitespace().any(|w| w == "perft") => {
                self.error(&e);
                return;
            }
            Err(e) if rest.split_whitespace().any(|w| w == "mate") => {
                self.error(&e);
                self.say("checkmate nomate");
                return;
            }
            Err(e) => {
                // Still exactly one bestmove: a quick, shallow search.
                self.error(&format!("{e}; answering with a depth-1 search"));
                go::parse("depth 1").expect("a fixed go parses")
            }
        };
        for w in warnings {
            self.error(&w);
        }
        if let Some(depth) = params.perft {
            self.finish_search();
            let lines = with_session!(&self.game, s => perft_lines(s.position(), depth));
            for l in lines {
                self.say(&l);
            }
            return;
        }
        self.finish_search();
        if self.go_from_table(&params) {
            return;
        }
        if let Some(limit) = params.mate {
            self.shared.stop.store(false, Ordering::SeqCst);
            let job = MateJob {
                limit,
                hash_mib: self.options.hash_mib,
                shared: Arc::clone(&self.shared),
                out: self.out.clone(),
            };
            match with_session!(&self.game, s => job.spawn(s)) {
                Ok(h) => self.search = Some(h),
                Err(e) => {
                    self.error(&format!("could not start the mate search: {e}"));
                    self.say("checkmate timeout");
                }
            }
            return;
        }
        self.last_go = params.clone();
        let shared = &self.shared;
        shared.stop.store(false, Ordering::SeqCst);
        shared
            .pondering
            .store(params.ponder || params.infinite, Ordering::SeqCst);
        let job = SearchJob {
            params,
            options: self.options.clone(),
            tt: Arc::clone(&self.tt),
            shared: Arc::clone(&self.shared),
            out: self.out.clone(),
        };
        let handle = with_session!(&self.game, s => job.spawn(s));
        match handle {
            Ok(h) => self.search = Some(h),
            Err(e) => {
                self.error(&format!("could not start the search: {e}"));
                self.say("bestmove resign");
            }
        }
    }
}

/// Everything a `go mate` thread takes with it.
struct MateJob {
    /// Time limit in milliseconds (`None`: until solved or stopped).
    limit: Option<u64>,
    hash_mib: usize,
    shared: Arc<Shared>,
    out: Output,
}

impl MateJob {
    /// Starts the mate search of the session's position; the thread prints exactly one
    /// `checkmate …` line.
    fn spawn<P: Position>(self, session: &Session<P>) -> std::io::Result<JoinHandle<()>> {
        let pos = session.position().clone();
        std::thread::Builder::new()
            .name("mate".into())
            .spawn(move || self.run(pos))
    }

    fn run<P: Position>(self, pos: P) {
        let limits = mate::MateLimits {
            time: self.limit.map(Duration::from_millis),
            hash_mib: self.hash_mib,
            nodes: None,
        };
        let out = self.out.clone();
        let mut info = move |i: &mate::MateInfo| {
            out.line(&format!(
                "info nodes {} nps {} hashfull {} time {}",
                i.nodes, i.nps, i.hashfull, i.time_ms
            ))
        };
        let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            mate::solve(&pos, &limits, &self.shared.stop, &mut info)
        }))
        .unwrap_or_else(|_| mate::MateResult::Error("internal error in the mate search".into()));
        let line = match result {
            mate::MateResult::Mate(moves) => {
                let text: Vec<String> = moves.iter().map(|&m| pos.move_to_usi(m)).collect();
                format!("checkmate {}", text.join(" "))
            }
            mate::MateResult::NoMate => "checkmate nomate".into(),
            mate::MateResult::Timeout => "checkmate timeout".into(),
            mate::MateResult::Error(e) => {
                self.out.line(&format!("info string error: {e}"));
                "checkmate nomate".into()
            }
        };
        self.out.line(&line);
    }
}

/// Everything a search thread takes with it.
struct SearchJob {
    params: GoParams,
    options: Options,
    tt: Arc<TranspositionTable>,
    shared: Arc<Shared>,
    out: Output,
}

impl SearchJob {
    /// Starts the search of the session's position on its own thread, which prints `bestmove`.
    fn spawn<G: SearchGame>(self, session: &Session<G>) -> std::io::Result<JoinHandle<()>> {
        let pos = session.position().clone();
        let history = session.history().to_vec();
        let mut warnings = Vec::new();
        let mut searchmoves = Vec::new();
        for m in &self.params.searchmoves {
            match pos.parse_move(m) {
                Ok(mv) => searchmoves.push(mv),
                Err(e) => warnings.push(format!("searchmoves: {e}; ignored")),
            }
        }
        for w in warnings {
            self.out.line(&format!("info string error: {w}"));
        }
        let budget = if self.params.infinite {
            None
        } else {
            let clock = self.params.clock(pos.side_to_move(), session.game_ply());
            search::time::budget(&clock, &self.options.time)
        };
        self.shared.set_budget(budget);
        std::thread::Builder::new()
            .name("search-main".into())
            .stack_size(64 << 20)
            .spawn(move || self.run(pos, history, searchmoves))
    }

    fn run<G: SearchGame>(
        self,
        pos: G,
        history: Vec<crate::core::repetition::HistoryEntry>,
        searchmoves: Vec<crate::core::moves::Move>,
    ) {
        let rules: RuleOptions = self.options.rules;
        let declare = pos.can_declare(&rules);
        let out = self.out.clone();
        let report_pos = pos.clone();
        let report = move |r: &search::Report| out.line(&output::info_line(&report_pos, r));
        let limits = Limits {
            depth: self.params.depth,
            nodes: self.params.nodes,
            searchmoves,
            multipv: self.options.multipv,
        };
        let setup = SearchSetup {
            history: &history,
            rules,
            limits,
            threads: self.options.threads,
            pruning: self.options.pruning,
            tt: &self.tt,
            shared: &self.shared,
            report: &report,
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
                    self.out.line(
                        "info string error: internal error in the search; playing a legal move",
                    );
                    None
                }
            }
        };
        // `go infinite` and `go ponder` never answer before `stop` (or `ponderhit`).
        while self.shared.pondering.load(Ordering::SeqCst)
            && !self.shared.stop.load(Ordering::SeqCst)
        {
            std::thread::sleep(Duration::from_millis(1));
        }
        let result = result.map(|r| self.exact_mate(&pos, r));
        let text = if declare {
            "bestmove win".to_string()
        } else {
            let best = result.as_ref().and_then(|r| r.best).or_else(|| {
                let mut list = crate::core::moves::MoveList::new();
                pos.legal_moves(&mut list);
                list.first().copied()
            });
            match best {
                None => "bestmove resign".to_string(),
                Some(mv) => match result.as_ref().and_then(|r| r.ponder) {
                    Some(p) => format!(
                        "bestmove {} ponder {}",
                        pos.move_to_usi(mv),
                        pos.move_to_usi(p)
                    ),
                    None => format!("bestmove {}", pos.move_to_usi(mv)),
                },
            }
        };
        self.out.line(&text);
    }
}

impl SearchJob {
    /// When the search found a forced mate for the side to move, asks the mate solver for the
    /// exact line (shortest mate against the longest defence) within the time left, and reports
    /// it; the search's own line is kept when the solver does not finish in time.
    fn exact_mate<G: SearchGame>(&self, pos: &G, r: search::SearchResult) -> search::SearchResult {
        if r.score < search::value::MATE_BOUND || r.best.is_none() {
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
            hash_mib: 16,
            nodes: None,
        };
        let stop = std::sync::atomic::AtomicBool::new(false);
        let start = std::time::Instant::now();
        let mate::MateReport {
            result: mate::MateResult::Mate(line),
            nodes,
            exact: true,
            ..
        } = mate::solve_report(pos, &limits, &stop, &mut |_| {})
        else {
            return r;
        };
        let pv: Vec<String> = line.iter().map(|&m| pos.move_to_usi(m)).collect();
        self.out.line(&format!(
            "info depth {} seldepth {} score mate {} nodes {nodes} time {} pv {}",
            r.depth.max(1),
            line.len(),
            line.len(),
            start.elapsed().as_millis(),
            pv.join(" ")
        ));
        search::SearchResult {
            best: line.first().copied(),
            ponder: line.get(1).copied(),
            score: search::value::mate_in(line.len()),
            ..r
        }
    }
}

/// Longest the exact-mate refinement of a search's mate may take, in milliseconds.
const EXACT_MATE_MS: u64 = 2000;

/// The lines of `go perft depth`: one `<move>: <count>` per root move, then the total.
pub fn perft_lines<P: Position>(pos: &P, depth: u32) -> Vec<String> {
    let depth = depth.max(1);
    let split = divide(pos, depth);
    let total: u64 = split.iter().map(|&(_, n)| n).sum();
    let mut lines: Vec<String> = split
        .iter()
        .map(|&(mv, n)| format!("{}: {n}", pos.move_to_usi(mv)))
        .collect();
    lines.push(format!("Nodes searched: {total}"));
    lines
}

/// Runs the USI loop on `input` until `quit` or end of input, writing to `out`. Input is read on
/// its own thread so that commands reach the engine while it searches.
pub fn run<R: BufRead + Send + 'static>(input: R, out: Output) {
    let (tx, rx) = mpsc::channel::<String>();
    std::thread::spawn(move || {
        for line in input.lines() {
            let Ok(line) = line else { break };
            if tx.send(line).is_err() {
                return;
            }
        }
        let _ = tx.send("quit".into());
    });
    let mut engine = Engine::new(out.clone());
    for line in rx {
        let keep = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| engine.handle(&line)));
        match keep {
            Ok(true) => {}
            Ok(false) => break,
            Err(_) => out.line(&format!(
                "info string error: internal error while handling '{line}'; state kept"
            )),
        }
    }
}
