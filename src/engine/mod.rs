//! The engine as a typed API, and the only owner of engine state: the game being played and its
//! position, the options, the networks, the hash tables, the exact tables, and the running
//! search, mate search or perft. The faces only adapt it: the USI loop ([`crate::usi`]) turns
//! text into calls and events into text, the page's server ([`crate::serve`]) turns JSON into
//! calls and events into JSON, and the commands ([`crate::commands`]) search through
//! [`search_setup`].
//!
//! Every call that can be refused returns why, and the engine keeps its last good state. A
//! search reports through [`Events`]: progress ([`Event::Info`]) and exactly one answer
//! ([`Event::BestMove`], [`Event::Mate`] or [`Event::Perft`]) per command that searches.

pub mod bench;
pub mod events;
mod exact;
mod go;
mod jobs;
pub mod options;
pub mod record;
mod session;
pub mod tables;

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, mpsc};
use std::time::Duration;

use crate::core::job::{self, Job};
use crate::core::perft::MAX_PERFT_DEPTH;
use crate::core::repetition::HistoryEntry;
use crate::core::rules::RuleOptions;
use crate::core::text::excerpt;
use crate::games::networks::Networks;
use crate::games::{AnyTable, EveryGameRules, Game, GameId};
use crate::search::time::Clock;
use crate::search::tt::TranspositionTable;
use crate::search::{self, Report, SearchSetup, Shared};
pub use events::{Best, Bound, Event, Events, Info, MateOutcome, MateProgress, PerftEnd, Score};
use exact::ExactTables;
pub use go::GoParams;
use jobs::{MateJob, PerftJob, SearchJob};
pub use jobs::{exact_mate_line, mate_progress, perft};
use options::Options;
pub use options::SetResult;
pub use session::{REST_IGNORED, Session, Start};
use tables::{Tables, Use};

/// Engine name and version.
pub const ENGINE_NAME: &str = concat!("tsubame ", env!("CARGO_PKG_VERSION"));

/// Seconds between the keep-alive events sent while `isready` does heavy work.
const KEEP_ALIVE: Duration = Duration::from_secs(4);

/// Why the engine refused a call; it kept its last good state (for a list of moves, the position
/// before the first bad one).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EngineError(pub String);

impl std::fmt::Display for EngineError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for EngineError {}

/// Refuses a perft depth above [`MAX_PERFT_DEPTH`] (any size of number, so that the depth sent is
/// the one named).
pub fn check_perft_depth(depth: impl Into<u64>) -> Result<(), String> {
    let depth = depth.into();
    if depth > u64::from(MAX_PERFT_DEPTH) {
        return Err(format!(
            "perft depth {depth} is above the maximum {MAX_PERFT_DEPTH}; nothing was counted"
        ));
    }
    Ok(())
}

/// Reports nothing: the report of a search nobody watches.
fn no_report<M>(_: &Report<M>) {}

/// The one constructor of a search's setup: the search of a position after `history` under
/// `rules`, in `tt`, stopped and timed through `shared`; one thread, full pruning, the
/// hand-written evaluation, no reports, fresh histories, the game's default parameters and full
/// strength. Callers change what they need with the struct update syntax:
///
/// ```ignore
/// let setup = SearchSetup { threads: 2, nnue: net, ..search_setup::<G>(&history, rules, &tt, &shared) };
/// ```
pub fn search_setup<'a, G: Game>(
    history: &'a [HistoryEntry],
    rules: RuleOptions<G::Rules>,
    tt: &'a TranspositionTable,
    shared: &'a Shared,
) -> SearchSetup<'a, G::Move, G::Rules> {
    SearchSetup {
        history,
        rules,
        limits: search::Limits {
            multipv: 1,
            ..search::Limits::default()
        },
        threads: 1,
        pruning: true,
        tt,
        shared,
        report: &no_report::<G::Move>,
        nnue: None,
        histories: None,
        params: G::default_params(),
        skill: None,
    }
}

/// Searches `pos` on its own search thread as a lone position (its history is the position
/// itself), under the default rules with full pruning and the game's default parameters,
/// evaluating with `network` (or with the hand-written evaluation for `None`) and without
/// progress reports.
pub fn search_position_with<G: Game>(
    pos: &G,
    limits: search::Limits<G::Move>,
    threads: usize,
    tt: &TranspositionTable,
    shared: &Shared,
    network: Option<&crate::nnue::network::Network>,
) -> search::SearchResult<G::Move> {
    let history = [HistoryEntry {
        key: pos.key(),
        in_check: pos.in_check(),
    }];
    let setup = SearchSetup {
        limits,
        threads,
        nnue: network,
        ..search_setup::<G>(&history, RuleOptions::default(), tt, shared)
    };
    search::with_search_stack(|| search::run(pos, &setup))
}

/// The game being played, whatever its type: a [`Session`] behind the calls the engine makes of
/// it.
trait AnySession: Send {
    /// The game.
    fn id(&self) -> GameId;
    /// Sets the position ([`Session::set_position`]) under `rules`.
    fn set_position(
        &mut self,
        start: &Start,
        moves: &[String],
        rules: &EveryGameRules,
    ) -> Result<(), String>;
    /// The position as a diagram, its SFEN and key.
    fn describe(&self) -> String;
    /// The position's SFEN.
    fn sfen(&self) -> String;
    /// The clock of the side to move under `go`.
    fn clock(&self, go: &GoParams) -> Clock;
    /// Starts a search.
    fn spawn_search(&self, job: SearchJob) -> std::io::Result<Job>;
    /// Starts a mate search.
    fn spawn_mate(&self, job: MateJob) -> std::io::Result<Job>;
    /// Starts a perft.
    fn spawn_perft(&self, job: PerftJob) -> std::io::Result<Job>;
    /// The answer to `go mate` from the game's exact table, if it holds the position.
    fn exact_mate(&self, table: &AnyTable) -> Option<MateOutcome>;
    /// Starts the answer to `go` from the game's exact table, if it holds the position.
    fn spawn_exact_go(
        &self,
        table: AnyTable,
        shared: Arc<Shared>,
        events: Events,
    ) -> Option<std::io::Result<Job>>;
}

impl<G: Game> AnySession for Session<G> {
    fn id(&self) -> GameId {
        G::ID
    }

    fn set_position(
        &mut self,
        start: &Start,
        moves: &[String],
        rules: &EveryGameRules,
    ) -> Result<(), String> {
        Session::set_position(self, start, moves, &rules.of::<G>().game)
    }

    fn describe(&self) -> String {
        Session::describe(self)
    }

    fn sfen(&self) -> String {
        self.position().to_sfen()
    }

    fn clock(&self, go: &GoParams) -> Clock {
        go.clock(self.position().side_to_move(), self.game_ply())
    }

    fn spawn_search(&self, job: SearchJob) -> std::io::Result<Job> {
        job.spawn(self)
    }

    fn spawn_mate(&self, job: MateJob) -> std::io::Result<Job> {
        job.spawn(self)
    }

    fn spawn_perft(&self, job: PerftJob) -> std::io::Result<Job> {
        job.spawn(self)
    }

    fn exact_mate(&self, table: &AnyTable) -> Option<MateOutcome> {
        exact::mate_answer(table, self.position())
    }

    fn spawn_exact_go(
        &self,
        table: AnyTable,
        shared: Arc<Shared>,
        events: Events,
    ) -> Option<std::io::Result<Job>> {
        exact::spawn_go(table, self.position(), shared, events)
    }
}

/// A fresh session of `id`'s game, at its start position.
fn new_session(id: GameId) -> Box<dyn AnySession> {
    crate::dispatch!(id, G => Box::new(Session::<G>::new()))
}

/// The engine: options, the current game, the tables and the running search.
pub struct Engine {
    events: Events,
    options: Options,
    session: Box<dyn AnySession>,
    /// The hash tables, allocated when first needed (see [`tables`]).
    tables: Tables,
    /// The last `USI_Hash` the tables were made with (the size kept when a new one is refused).
    good_mib: usize,
    shared: Arc<Shared>,
    /// Set by `stop` and `quit` only (unlike `shared.stop`, which the search also sets when it
    /// reaches its own limits): ends the refinement of a found mate at once.
    stop_asked: Arc<AtomicBool>,
    /// The running search, mate search or perft.
    search: Option<Job>,
    /// The limits of the last `go`, for a `ponderhit` that brings no times.
    last_go: GoParams,
    /// The exact tables that the games' options name.
    exact: ExactTables,
    /// The learned evaluation's networks (`EvalFile`).
    networks: Networks,
    /// True when the last `go` searches with no limit of its own (no depth, nodes or clock):
    /// only `stop` would end it, so the end of input does.
    open_ended: bool,
}

impl Engine {
    /// A new engine reporting to `events`, playing the default game from the start. No table is
    /// allocated yet (so that a GUI's handshake is answered at once).
    pub fn new(events: Events) -> Engine {
        let options = Options::default();
        Engine {
            events,
            tables: Tables::default(),
            good_mib: options.hash_mib,
            options,
            session: new_session(GameId::DEFAULT),
            shared: Arc::new(Shared::default()),
            stop_asked: Arc::new(AtomicBool::new(false)),
            search: None,
            last_go: GoParams::default(),
            exact: ExactTables::default(),
            networks: Networks::default(),
            open_ended: false,
        }
    }

    /// Reports a problem.
    fn error(&self, what: impl Into<String>) {
        self.events.error(what);
    }

    /// The game being played.
    pub fn game(&self) -> GameId {
        self.session.id()
    }

    /// The option values.
    pub fn options(&self) -> &Options {
        &self.options
    }

    /// The current position's SFEN.
    pub fn sfen(&self) -> String {
        self.session.sfen()
    }

    /// The current position as a diagram, with its SFEN and key (USI's `d`).
    pub fn describe(&self) -> String {
        self.session.describe()
    }

    /// The tables' use and budget, if any are allocated.
    pub fn tables_made(&self) -> Option<(Use, usize)> {
        self.tables.made()
    }

    /// Uses `table`, already loaded from `path`, as `game`'s exact table, as setting the game's
    /// table option to `path` would once the file is read, without reading it again: a server
    /// that loaded the table once shares it among its sessions' engines.
    pub fn share_exact_table(&mut self, game: GameId, path: &str, table: AnyTable) {
        self.options.exact_files[game as usize] = path.to_string();
        self.exact.share(game, path, table);
    }

    /// True while a search, mate search or perft is running and has not answered.
    pub fn searching(&self) -> bool {
        self.search.as_ref().is_some_and(|h| !h.is_finished()) && !self.events.has_answered()
    }

    /// Asks the running command to stop; it answers with what it has.
    pub fn stop(&self) {
        self.stop_asked.store(true, Ordering::SeqCst);
        self.shared.stop.store(true, Ordering::SeqCst);
    }

    /// Stops the running command, if any, and waits for it (its answer is given).
    pub fn finish(&mut self) {
        if let Some(h) = self.search.take() {
            self.stop();
            let _ = h.join();
        }
    }

    /// Waits for the running command to end within its own limits (depth, nodes, the clock, a
    /// mate search's time, a perft's depth) and give its answer. A command that only `stop` would
    /// end (`go infinite`, a `go ponder` not yet hit, a `go` with no limit) is stopped at once
    /// and answers with what it has.
    pub fn wait(&mut self) {
        if self.shared.pondering.load(Ordering::SeqCst) || self.open_ended {
            self.stop();
        }
        if let Some(h) = self.search.take() {
            let _ = h.join();
        }
    }

    /// Clears the stop flags for a new command (whose answer is then still to come).
    fn clear_stop(&self) {
        self.events.expect_answer();
        self.stop_asked.store(false, Ordering::SeqCst);
        self.shared.stop.store(false, Ordering::SeqCst);
    }

    /// Plays `game` from its start position (stopping any search first). Its options stay as
    /// they are.
    pub fn set_game(&mut self, game: GameId) {
        self.finish();
        self.session = new_session(game);
        // Another game's move codes: its history tables would mislead.
        self.tables.histories.clear();
    }

    /// Sets the position of the game being played: `start`, then `moves` in the game's notation
    /// (stopping any search first). A bad start keeps the previous position; a bad move keeps
    /// the position before it. Either way the error says what was wrong.
    pub fn set_position(&mut self, start: &Start, moves: &[String]) -> Result<(), EngineError> {
        self.finish();
        let rules = self.options.rules;
        self.session
            .set_position(start, moves, &rules)
            .map_err(EngineError)
    }

    /// Whether setting the option `name` (any case) ends a running search: choosing the game
    /// (`USI_Variant`, or `UCI_Variant` as some GUIs say) does; every other option waits for
    /// the next search.
    pub fn option_ends_search(name: &str) -> bool {
        name.eq_ignore_ascii_case("USI_Variant") || name.eq_ignore_ascii_case("UCI_Variant")
    }

    /// Sets the option `name` (any case) to `value`: [`SetResult::Unknown`] for a name that is no
    /// option of the engine (nothing changes). `USI_Variant` chooses the game ([`Engine::set_game`]).
    /// A bad value changes nothing and says why.
    pub fn set_option(&mut self, name: &str, value: &str) -> Result<SetResult, EngineError> {
        if Engine::option_ends_search(name) {
            if value.is_empty() {
                return Err(EngineError(
                    "USI_Variant: the value is missing; the value was not changed".into(),
                ));
            }
            return match GameId::parse(value) {
                Some(id) => {
                    self.set_game(id);
                    Ok(SetResult::Set)
                }
                None => Err(EngineError(format!(
                    "unknown USI_Variant '{}' ({}); kept {}",
                    excerpt(value, 40),
                    GameId::names(", "),
                    self.game()
                ))),
            };
        }
        let before = self.options.clone();
        let result = self
            .options
            .set(name, value)
            .map_err(|e| EngineError(format!("{e}; the value was not changed")))?;
        if result == SetResult::Set && name.eq_ignore_ascii_case("EvalFile") {
            if self.options.eval_file.is_empty() {
                self.networks.reset();
                self.events.emit(Event::Note(
                    "EvalFile empty: the embedded networks are in use".into(),
                ));
            } else {
                match self.networks.load_file(&self.options.eval_file) {
                    Ok((_, text)) => self.events.emit(Event::Note(format!("loaded {text}"))),
                    Err(e) => {
                        self.options = before;
                        return Err(EngineError(format!(
                            "EvalFile {e}; the network in use was kept"
                        )));
                    }
                }
            }
        }
        Ok(result)
    }

    /// Gets the engine ready (USI's `isready`): when no command runs, makes the tables for the
    /// current `USI_Hash` and has the system supply their pages, empties the search table after a
    /// finished game, and loads the exact tables the options name. Sends keep-alive events while
    /// a large table is made.
    pub fn ready(&mut self) {
        if !self.searching() {
            // Answered: its thread is ending, if not gone.
            if let Some(h) = self.search.take() {
                let _ = h.join();
            }
            let what = self.tables.made().map_or(Use::Search, |(what, _)| what);
            self.prepare_tables(what, true);
            for (game, _) in GameId::with_exact_tables() {
                self.update_exact_table(game);
            }
        }
    }

    /// A new game begins (USI's `usinewgame`): the search table is emptied if a search used it.
    pub fn new_game(&mut self) {
        self.finish();
        self.tables.new_game();
    }

    /// The game ended (USI's `gameover`): the next [`Engine::ready`] empties the search table.
    pub fn game_over(&mut self) {
        self.finish();
        self.tables.game_over();
    }

    /// Makes the tables for `what` at the current `USI_Hash` if they are not so already, and with
    /// `ready` gets them ready as [`Tables::ready`] does. A size that cannot be had is reported
    /// and the last good size kept (the option goes back to it).
    fn prepare_tables(&mut self, what: Use, ready: bool) {
        let mib = self.options.hash_mib;
        let Err(e) = self.allocate(what, mib, ready) else {
            self.good_mib = mib;
            return;
        };
        let old = self.good_mib;
        self.options.hash_mib = old;
        match self.allocate(what, old, ready) {
            Ok(()) => self.error(format!("USI_Hash {mib}: {e}; kept {old} MiB")),
            Err(again) => self.error(format!(
                "USI_Hash {mib}: {e}; {old} MiB: {again}; playing with minimal tables"
            )),
        }
    }

    /// Runs [`Tables::prepare`] (with `ready`, [`Tables::ready`]) on a helper thread, sending a
    /// keep-alive event every few seconds while a large table is allocated and filled in.
    fn allocate(&mut self, what: Use, mib: usize, ready: bool) -> Result<(), String> {
        if self.tables.settled(what, mib, ready) {
            return Ok(());
        }
        let make = move |tables: &mut Tables| {
            if ready {
                tables.ready(what, mib)
            } else {
                tables.prepare(what, mib)
            }
        };
        let mut tables = std::mem::take(&mut self.tables);
        let (tx, rx) = mpsc::channel();
        let spawned = job::start("tables", None, move || {
            let result = make(&mut tables);
            let _ = tx.send((tables, result));
        });
        match spawned {
            Err(_) => return make(&mut self.tables),
            // Made already (on this thread where there are no others): no keep-alive to send.
            Ok(Job::Done) => {
                let (tables, result) = rx
                    .recv()
                    .map_err(|_| format!("cannot allocate {mib} MiB"))?;
                self.tables = tables;
                return result;
            }
            Ok(Job::Thread(_)) => {}
        }
        loop {
            match rx.recv_timeout(KEEP_ALIVE) {
                Ok((tables, result)) => {
                    self.tables = tables;
                    return result;
                }
                Err(mpsc::RecvTimeoutError::Timeout) => self.events.emit(Event::KeepAlive),
                Err(mpsc::RecvTimeoutError::Disconnected) => {
                    return Err(format!("cannot allocate {mib} MiB"));
                }
            }
        }
    }

    /// Loads the exact table of `game` that its option names, if it changed; a refused file is
    /// reported and the game is played by search.
    fn update_exact_table(&mut self, game: GameId) {
        if let Err(e) = self
            .exact
            .update(game, &self.options.exact_files[game as usize])
        {
            self.error(e);
        }
    }

    /// Answers `go` or `go mate` from the game's exact table, if one is loaded and holds the
    /// position; returns false when the search should answer instead.
    fn go_from_table(&mut self, params: &GoParams) -> bool {
        let game = self.game();
        if game.info().exact.is_none() {
            return false;
        }
        if !self.searching() {
            self.update_exact_table(game);
        }
        let Some(table) = self.exact.get(game) else {
            return false;
        };
        if params.mate.is_some() {
            return match self.session.exact_mate(&table) {
                Some(answer) => {
                    self.events.emit(Event::Mate(answer));
                    true
                }
                None => false,
            };
        }
        // The exact table plays perfectly: not at a limited strength.
        if !params.searchmoves.is_empty() || self.options.skill(0).is_some() {
            return false;
        }
        self.clear_stop();
        self.shared
            .pondering
            .store(params.ponder || params.infinite, Ordering::SeqCst);
        let spawned =
            self.session
                .spawn_exact_go(table, Arc::clone(&self.shared), self.events.clone());
        match spawned {
            Some(Ok(h)) => {
                self.last_go = params.clone();
                self.search = Some(h);
                true
            }
            _ => false,
        }
    }

    /// The pondered move was played (USI's `ponderhit`): the search goes on under `clock` (the
    /// clock of the `go` when `None`).
    pub fn ponderhit(&mut self, clock: Option<GoParams>) {
        let params = clock.unwrap_or_else(|| self.last_go.clone());
        let clock = self.session.clock(&params);
        let budget = search::time::budget(&clock, &self.options.time);
        self.shared.set_budget(budget);
        self.shared.pondering.store(false, Ordering::SeqCst);
    }

    /// Starts what `params` asks: a perft, a mate search, or a search of the current position
    /// (stopping the running command first). The answer comes as an event; a command that could
    /// not start answers at once (a search with `resign`, a mate search with a timeout) after
    /// an error.
    pub fn go(&mut self, params: GoParams) {
        self.open_ended = params.is_open_ended();
        if let Some(depth) = params.perft {
            if let Err(e) = check_perft_depth(depth) {
                self.error(e);
                return;
            }
            self.finish();
            self.clear_stop();
            let job = PerftJob {
                depth,
                shared: Arc::clone(&self.shared),
                events: self.events.clone(),
            };
            match self.session.spawn_perft(job) {
                Ok(h) => self.search = Some(h),
                Err(e) => self.error(format!("could not start perft: {e}")),
            }
            return;
        }
        self.finish();
        if self.go_from_table(&params) {
            return;
        }
        if let Some(limit) = params.mate {
            self.prepare_tables(Use::Mate, false);
            self.clear_stop();
            let job = MateJob {
                limit,
                nodes: params.nodes,
                multipv: self.options.multipv,
                table: Arc::clone(&self.tables.mate),
                shared: Arc::clone(&self.shared),
                events: self.events.clone(),
            };
            match self.session.spawn_mate(job) {
                Ok(h) => self.search = Some(h),
                Err(e) => {
                    self.error(format!("could not start the mate search: {e}"));
                    self.events.emit(Event::Mate(MateOutcome::Timeout));
                }
            }
            return;
        }
        self.prepare_tables(Use::Search, false);
        self.tables.mark_used();
        self.last_go = params.clone();
        self.clear_stop();
        self.shared
            .pondering
            .store(params.ponder || params.infinite, Ordering::SeqCst);
        let game = self.game();
        let job = SearchJob {
            params,
            search_params: self.options.search_params(game),
            options: self.options.clone(),
            tt: Arc::clone(&self.tables.tt),
            mate: Arc::clone(&self.tables.mate),
            histories: Arc::clone(&self.tables.histories),
            stop_asked: Arc::clone(&self.stop_asked),
            shared: Arc::clone(&self.shared),
            events: self.events.clone(),
            network: if self.options.nnue {
                self.networks.get(game)
            } else {
                None
            },
        };
        match self.session.spawn_search(job) {
            Ok(h) => self.search = Some(h),
            Err(e) => {
                self.error(format!("could not start the search: {e}"));
                self.events.emit(Event::BestMove {
                    best: Best::Resign,
                    ponder: None,
                });
            }
        }
    }
}
