//! The USI protocol: a command loop fed by an input thread, a search on its own thread, and the
//! current game chosen at run time.
//!
//! Every problem with input is answered with `info string error: …`; the last good state is kept.
//! `stop`, `ponderhit`, `isready` and `quit` are served while a search, a mate search or a perft
//! runs. Words are separated by any ASCII whitespace (spaces, tabs) in every command. A line that
//! is not valid UTF-8 is answered with an error and ignored. Extra words after a command that
//! takes none are reported, and the command is still carried out.
//!
//! At the end of input the running command finishes within its own limits and prints its answer
//! before the engine exits (see [`Engine::end_of_input`]); `quit` exits at once.

mod go;
mod nana_tb;
pub mod options;
pub mod output;
mod session;
pub mod tables;

use std::any::Any;
use std::io::BufRead;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, mpsc};
use std::thread::JoinHandle;
use std::time::Duration;

use crate::core::game::Position;
use crate::core::moves::ListStore;
use crate::core::perft::{DivideEnd, MAX_PERFT_DEPTH, divide_report};
use crate::core::search_params;
use crate::games::nana::Nana;
use crate::games::networks::Networks;
use crate::games::{Game, GameId};
use crate::mate;
use crate::mate::MateGame;
use crate::mate::table::Table;
use crate::search::tt::TranspositionTable;
use crate::search::{self, Limits, SearchSetup, Shared};
use go::GoParams;
pub use go::KEYWORDS as GO_KEYWORDS;
use options::{Options, SetResult};
pub use output::Output;
use output::excerpt;
pub use session::Session;
use tables::{Tables, Use};

/// The game being played, chosen at run time by `USI_Variant`: its registry id and its
/// [`Session`], whose type is the id's game type.
pub struct AnyGame {
    id: GameId,
    session: Box<dyn Any + Send>,
}

/// Runs `$body` with `$s` bound to the session of the selected game (`mut` for a mutable one),
/// and the type name `G` to its game type.
macro_rules! with_session {
    (mut $game:expr, $s:ident => $body:expr) => {{
        let game: &mut AnyGame = $game;
        crate::dispatch!(game.id, G => {
            let $s = game
                .session
                .downcast_mut::<Session<G>>()
                .expect("the session is of its id's game");
            $body
        })
    }};
    ($game:expr, $s:ident => $body:expr) => {{
        let game: &AnyGame = $game;
        crate::dispatch!(game.id, G => {
            let $s = game
                .session
                .downcast_ref::<Session<G>>()
                .expect("the session is of its id's game");
            $body
        })
    }};
}

impl AnyGame {
    /// A fresh session of `id`'s game, at its start position.
    pub fn new(id: GameId) -> AnyGame {
        let session: Box<dyn Any + Send> = crate::dispatch!(id, G => Box::new(Session::<G>::new()));
        AnyGame { id, session }
    }

    /// The game's registry id.
    pub fn id(&self) -> GameId {
        self.id
    }

    /// The session of game `G`, if that is the game being played.
    fn session<G: Game>(&self) -> Option<&Session<G>> {
        self.session.downcast_ref()
    }
}

/// Engine name and version for `id name`.
pub const ENGINE_NAME: &str = concat!("tsubame ", env!("CARGO_PKG_VERSION"));

/// Seconds between the empty keep-alive lines printed while `isready` does heavy work.
const KEEP_ALIVE: Duration = Duration::from_secs(4);

/// The USI engine: options, the current game, the tables and the running search.
pub struct Engine {
    out: Output,
    options: Options,
    game: AnyGame,
    /// The hash tables, allocated when first needed (see [`tables`]).
    tables: Tables,
    /// The last `USI_Hash` the tables were made with (the size kept when a new one is refused).
    good_mib: usize,
    shared: Arc<Shared>,
    /// Set by `stop` and `quit` only (unlike `shared.stop`, which the search also sets when it
    /// reaches its own limits): ends the refinement of a found mate at once.
    stop_asked: Arc<AtomicBool>,
    /// The running search, mate search or perft.
    search: Option<JoinHandle<()>>,
    /// The arguments of the last `go`, for a `ponderhit` that brings no times.
    last_go: GoParams,
    /// The solved nana shogi table, when `NanaTablebase` names one.
    nana_table: nana_tb::NanaTable,
    /// The learned evaluation's networks (`EvalFile`).
    networks: Networks,
    /// True when the last `go` searches with no limit of its own (no depth, nodes or clock):
    /// only `stop` would end it, so the end of input does.
    open_ended: bool,
}

impl Engine {
    /// A new engine writing to `out`, playing standard shogi from the start. No table is allocated
    /// yet (so that `usi` is answered at once).
    pub fn new(out: Output) -> Engine {
        let options = Options::default();
        Engine {
            out,
            tables: Tables::default(),
            good_mib: options.hash_mib,
            options,
            game: AnyGame::new(GameId::Shogi),
            shared: Arc::new(Shared::default()),
            stop_asked: Arc::new(AtomicBool::new(false)),
            search: None,
            last_go: GoParams::default(),
            nana_table: nana_tb::NanaTable::default(),
            networks: Networks::default(),
            open_ended: false,
        }
    }

    fn say(&self, line: &str) {
        self.out.line(line);
    }

    /// Reports a problem; the text is cut short and escaped where it echoes input.
    fn error(&self, what: &str) {
        self.say(&format!("info string error: {}", excerpt(what, 400)));
    }

    /// Uses `table`, already loaded from `path`, as the solved nana shogi table, as
    /// `setoption name NanaTablebase value PATH` would once the file is read, without reading it
    /// again: a server that loaded the table once shares it among its sessions' engines.
    /// `setoption name NanaTablebase` with another value replaces it as usual.
    pub fn share_nana_table(
        &mut self,
        path: &str,
        table: Arc<crate::games::nana::tablebase::Tablebase>,
    ) {
        self.options.nana_tablebase = path.to_string();
        self.nana_table = nana_tb::NanaTable {
            table: Some(table),
            path: path.to_string(),
        };
    }

    /// True while a search thread is running.
    pub fn searching(&self) -> bool {
        self.search.as_ref().is_some_and(|h| !h.is_finished()) && !self.out.has_answered()
    }

    /// Asks the running search to stop, as `stop` does.
    fn request_stop(&self) {
        self.stop_asked.store(true, Ordering::SeqCst);
        self.shared.stop.store(true, Ordering::SeqCst);
    }

    /// Stops the running search, if any, and waits for it (its `bestmove` is printed).
    fn finish_search(&mut self) {
        if let Some(h) = self.search.take() {
            self.request_stop();
            let _ = h.join();
        }
    }

    /// At the end of input: lets the running command finish within its own limits (depth,
    /// nodes, the clock, a mate search's time, a perft's depth) and print its answer, and returns
    /// when it has. A search that only `stop` would end (`go infinite`, a `go ponder` not yet
    /// hit, a `go` with no limit) is stopped at once and answers with what it has.
    pub fn end_of_input(&mut self) {
        if self.shared.pondering.load(Ordering::SeqCst) || self.open_ended {
            self.request_stop();
        }
        if let Some(h) = self.search.take() {
            let _ = h.join();
        }
    }

    /// Reports the words after a command that takes none (the command is still carried out).
    fn no_arguments(&self, cmd: &str, rest: &str) {
        if !rest.is_empty() {
            self.error(&format!(
                "'{cmd}' takes no arguments; ignored '{}'",
                excerpt(rest, 100)
            ));
        }
    }

    /// Clears the stop flags for a new search (whose answer is then still to come).
    fn clear_stop(&self) {
        self.out.expect_answer();
        self.stop_asked.store(false, Ordering::SeqCst);
        self.shared.stop.store(false, Ordering::SeqCst);
    }

    /// Handles one command line; returns false when the engine should quit.
    pub fn handle(&mut self, line: &str) -> bool {
        let line = line.trim_ascii();
        let (cmd, rest) = line
            .split_once(|c: char| c.is_ascii_whitespace())
            .map_or((line, ""), |(c, r)| (c, r.trim_ascii()));
        match cmd {
            "" => {}
            "usi" => {
                self.no_arguments(cmd, rest);
                self.usi();
            }
            "isready" => {
                self.no_arguments(cmd, rest);
                self.isready();
            }
            "usi_tunables" => {
                self.no_arguments(cmd, rest);
                let defaults = self.game.id().default_params();
                self.say(&format!(
                    "info string shogiarena_tunables_json {}",
                    search_params::shogiarena_manifest(&defaults)
                ));
                self.say("usi_tunablesok");
            }
            "usinewgame" => {
                self.no_arguments(cmd, rest);
                self.finish_search();
                self.tables.new_game();
            }
            "setoption" => self.setoption(rest),
            "position" => {
                self.finish_search();
                let all = self.options.rules;
                let result = with_session!(mut &mut self.game, s => {
                    s.set_position(rest, &all.of::<G>().game)
                });
                if let Err(e) = result {
                    self.error(&e);
                }
            }
            "go" => self.go(rest),
            "stop" => {
                self.no_arguments(cmd, rest);
                self.request_stop();
            }
            "ponderhit" => {
                for problem in go::ponderhit_problems(rest) {
                    self.error(&problem);
                }
                self.ponderhit(rest);
            }
            "gameover" => {
                if let Err(e) = gameover_result(rest) {
                    self.error(&e);
                }
                self.finish_search();
                self.tables.game_over();
            }
            "help" => {
                self.no_arguments(cmd, rest);
                for l in HELP {
                    self.say(l);
                }
            }
            "d" => {
                self.no_arguments(cmd, rest);
                let text = with_session!(&self.game, s => s.describe());
                for l in text.lines() {
                    self.say(l);
                }
            }
            "bench" => {
                self.no_arguments(cmd, rest);
                self.finish_search();
                let out = self.out.clone();
                crate::bench::run(None, &|l: &str| out.line(l));
            }
            "quit" => {
                self.no_arguments(cmd, rest);
                self.finish_search();
                return false;
            }
            _ => self.error(&format!(
                "unknown command '{}'; the line was ignored ('help' lists the commands)",
                excerpt(cmd, 100)
            )),
        }
        true
    }

    fn usi(&self) {
        self.say(&format!("id name {ENGINE_NAME}"));
        self.say("id author the tsubame developers");
        for l in options::declarations(self.game.id()) {
            self.say(&l);
        }
        for l in options::tuning_declarations(self.game.id(), self.options.tuning) {
            self.say(&l);
        }
        self.say("usiok");
    }

    fn isready(&mut self) {
        if !self.searching() {
            // Answered: its thread is ending, if not gone.
            if let Some(h) = self.search.take() {
                let _ = h.join();
            }
            let what = self.tables.made().map_or(Use::Search, |(what, _)| what);
            self.prepare_tables(what, true);
            self.update_nana_table();
        }
        self.say("readyok");
    }

    /// Makes the tables for `what` at the current `USI_Hash` if they are not so already, and with
    /// `ready` (at `isready`) gets them ready as [`Tables::ready`] does. A size that cannot be had
    /// is reported and the last good size kept (the option goes back to it).
    fn prepare_tables(&mut self, what: Use, ready: bool) {
        let mib = self.options.hash_mib;
        let Err(e) = self.allocate(what, mib, ready) else {
            self.good_mib = mib;
            return;
        };
        let old = self.good_mib;
        self.options.hash_mib = old;
        match self.allocate(what, old, ready) {
            Ok(()) => self.error(&format!("USI_Hash {mib}: {e}; kept {old} MiB")),
            Err(again) => self.error(&format!(
                "USI_Hash {mib}: {e}; {old} MiB: {again}; playing with minimal tables"
            )),
        }
    }

    /// Runs [`Tables::prepare`] (with `ready`, [`Tables::ready`]) on a helper thread, printing an
    /// empty keep-alive line every few seconds while a large table is allocated and filled in.
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
        let spawned = std::thread::Builder::new()
            .name("tables".into())
            .spawn(move || {
                let result = make(&mut tables);
                let _ = tx.send((tables, result));
            });
        if spawned.is_err() {
            return make(&mut self.tables);
        }
        loop {
            match rx.recv_timeout(KEEP_ALIVE) {
                Ok((tables, result)) => {
                    self.tables = tables;
                    return result;
                }
                Err(mpsc::RecvTimeoutError::Timeout) => self.say(""),
                Err(mpsc::RecvTimeoutError::Disconnected) => {
                    return Err(format!("cannot allocate {mib} MiB"));
                }
            }
        }
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
        if self.game.session::<Nana>().is_none() {
            return false;
        }
        if !self.searching() {
            self.update_nana_table();
        }
        let Some(s) = self.game.session::<Nana>() else {
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
        // The solved table plays perfectly: not at a limited strength.
        if !params.searchmoves.is_empty() || self.options.skill(0).is_some() {
            return false;
        }
        self.clear_stop();
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
        let Some((name, value)) = setoption_words(rest) else {
            self.error("setoption needs 'name <id> [value <x>]'");
            return;
        };
        let name = name.as_str();
        if name.eq_ignore_ascii_case("USI_Variant") || name.eq_ignore_ascii_case("UCI_Variant") {
            if value.is_empty() {
                self.error("USI_Variant: the value is missing; the value was not changed");
                return;
            }
            match GameId::parse(value) {
                Some(id) => {
                    self.finish_search();
                    self.game = AnyGame::new(id);
                    // Another game's move codes: its history tables would mislead.
                    self.tables.histories.clear();
                }
                None => self.error(&format!(
                    "unknown USI_Variant '{}' ({}); kept {}",
                    excerpt(value, 40),
                    GameId::names(", "),
                    self.game.id()
                )),
            }
            return;
        }
        let before = self.options.clone();
        match self.options.set(name, value) {
            Ok(SetResult::Set)
                if name.eq_ignore_ascii_case("EvalFile") && self.options.eval_file.is_empty() =>
            {
                self.networks.reset();
                self.say("info string EvalFile empty: the embedded networks are in use");
            }
            Ok(SetResult::Set) if name.eq_ignore_ascii_case("EvalFile") => {
                match self.networks.load_file(&self.options.eval_file) {
                    Ok((_, text)) => self.say(&format!("info string loaded {text}")),
                    Err(e) => {
                        self.options = before;
                        self.error(&format!("EvalFile {e}; the network in use was kept"));
                    }
                }
            }
            Ok(SetResult::Set) => {}
            Ok(SetResult::Unknown) => self.say(&format!(
                "info string unknown option '{}' ignored",
                excerpt(name, 100)
            )),
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
            Err(e) if rest.split_ascii_whitespace().any(|w| w == "perft") => {
                self.error(&e);
                return;
            }
            Err(e) if rest.split_ascii_whitespace().any(|w| w == "mate") => {
                // Still exactly one `checkmate` line, and a true one: the mate search runs
                // without a time limit, as `go mate infinite` (the GUI may send `stop`).
                self.error(&format!(
                    "{e}; searching without a time limit, as 'go mate infinite'"
                ));
                go::parse("mate infinite").expect("a fixed go parses")
            }
            Err(e) => {
                // Still exactly one bestmove: a quick, shallow search, held back as the command
                // asked when it says `ponder` or `infinite` (the GUI then sends stop or ponderhit).
                let words: Vec<&str> = rest.split_ascii_whitespace().collect();
                let hold = ["ponder", "infinite"]
                    .into_iter()
                    .filter(|w| words.contains(w))
                    .collect::<Vec<_>>()
                    .join(" ");
                self.error(&format!("{e}; answering with a depth-1 search"));
                go::parse(&format!("depth 1 {hold}")).expect("a fixed go parses")
            }
        };
        for w in warnings {
            self.error(&w);
        }
        self.open_ended = params.is_open_ended();
        if let Some(depth) = params.perft {
            if let Err(e) = check_perft_depth(depth) {
                self.error(&e);
                return;
            }
            self.finish_search();
            self.clear_stop();
            let job = PerftJob {
                depth,
                shared: Arc::clone(&self.shared),
                out: self.out.clone(),
            };
            match with_session!(&self.game, s => job.spawn(s)) {
                Ok(h) => self.search = Some(h),
                Err(e) => self.error(&format!("could not start perft: {e}")),
            }
            return;
        }
        self.finish_search();
        if self.go_from_table(&params) {
            return;
        }
        if let Some(limit) = params.mate {
            self.prepare_tables(Use::Mate, false);
            self.clear_stop();
            let job = MateJob {
                limit,
                table: Arc::clone(&self.tables.mate),
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
        self.prepare_tables(Use::Search, false);
        self.tables.mark_used();
        self.last_go = params.clone();
        self.clear_stop();
        self.shared
            .pondering
            .store(params.ponder || params.infinite, Ordering::SeqCst);
        let job = SearchJob {
            params,
            search_params: self.options.search_params(self.game.id()),
            options: self.options.clone(),
            tt: Arc::clone(&self.tables.tt),
            mate: Arc::clone(&self.tables.mate),
            histories: Arc::clone(&self.tables.histories),
            stop_asked: Arc::clone(&self.stop_asked),
            shared: Arc::clone(&self.shared),
            out: self.out.clone(),
            network: if self.options.nnue {
                self.networks.get(self.game.id())
            } else {
                None
            },
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

/// The words of `setoption`'s arguments: `name <id> [value <x>]` gives the name and the value (empty
/// when missing); `None` without a name. The value is the text after the word `value`, with its
/// inner spacing kept (file names may hold spaces).
fn setoption_words(rest: &str) -> Option<(String, &str)> {
    let mut words = rest.split_ascii_whitespace();
    if words.next() != Some("name") {
        return None;
    }
    let mut name = Vec::new();
    let mut value = "";
    for w in words {
        if w == "value" {
            // `w` is a slice of `rest`: the value starts right after it.
            let at = w.as_ptr() as usize - rest.as_ptr() as usize + w.len();
            value = rest[at..].trim_ascii();
            break;
        }
        name.push(w);
    }
    (!name.is_empty()).then(|| (name.join(" "), value))
}

/// Everything a `go perft` thread takes with it.
struct PerftJob {
    depth: u32,
    shared: Arc<Shared>,
    out: Output,
}

impl PerftJob {
    /// Starts perft of the session's position on its own thread, stoppable by `stop`.
    fn spawn<P: Position>(self, session: &Session<P>) -> std::io::Result<JoinHandle<()>> {
        let pos = session.position().clone();
        std::thread::Builder::new()
            .name("perft".into())
            .stack_size(64 << 20)
            .spawn(move || {
                let out = self.out.clone();
                let last = perft_report(&pos, self.depth, &self.shared.stop, &mut |l| out.line(l));
                out.answer(&last);
            })
    }
}

/// A `go mate` progress report as two USI lines: `info time … nodes … nps … hashfull …` with
/// the line being searched as its `pv`, then `info string root pn … dn …`.
pub fn mate_info_lines(i: &mate::MateInfo) -> [String; 2] {
    let mut first = format!(
        "info time {} nodes {} nps {} hashfull {}",
        i.time_ms, i.nodes, i.nps, i.hashfull
    );
    if !i.line.is_empty() {
        first.push_str(" pv ");
        first.push_str(&i.line.join(" "));
    }
    [
        first,
        format!("info string root pn {} dn {}", i.root_pn, i.root_dn),
    ]
}

/// Everything a `go mate` thread takes with it.
struct MateJob {
    /// Time limit in milliseconds (`None`: until solved or stopped).
    limit: Option<u64>,
    /// The engine's mate table (the whole `USI_Hash` budget while `go mate` runs).
    table: Arc<Mutex<Table>>,
    shared: Arc<Shared>,
    out: Output,
}

impl MateJob {
    /// Starts the mate search of the session's position; the thread prints exactly one
    /// `checkmate …` line.
    fn spawn<P: MateGame>(self, session: &Session<P>) -> std::io::Result<JoinHandle<()>> {
        let pos = session.position().clone();
        std::thread::Builder::new()
            .name("mate".into())
            .spawn(move || self.run(pos))
    }

    fn run<P: MateGame>(self, pos: P) {
        let limits = mate::MateLimits {
            time: self.limit.map(Duration::from_millis),
            nodes: None,
            ..Default::default()
        };
        let out = self.out.clone();
        let mut info = move |i: &mate::MateInfo| {
            for line in mate_info_lines(i) {
                out.line(&line);
            }
        };
        let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            let mut table = self.table.lock().unwrap_or_else(|e| e.into_inner());
            let stop = &self.shared.stop;
            let fallback = mate::Fallback::FastLine;
            let r = mate::solve_in(&pos, &mut table, &limits, stop, &mut info, fallback);
            (r.result, r.exact)
        }))
        .unwrap_or_else(|_| {
            let e = "internal error in the mate search".into();
            (mate::MateResult::Error(e), false)
        });
        let (result, exact) = result;
        let line = match result {
            mate::MateResult::Mate(moves) => {
                self.out.line(&format!(
                    "info string mate in {} plies, {}",
                    moves.len(),
                    if exact {
                        "proven shortest"
                    } else {
                        "not proven shortest (the time ran out)"
                    }
                ));
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
        self.out.answer(&line);
    }
}

/// Everything a search thread takes with it.
struct SearchJob {
    params: GoParams,
    options: Options,
    tt: Arc<TranspositionTable>,
    /// The mate table for the exact line of a found mate (the search's share of `USI_Hash`).
    mate: Arc<Mutex<Table>>,
    /// Set by `stop` and `quit`: ends the exact-line refinement at once.
    stop_asked: Arc<AtomicBool>,
    shared: Arc<Shared>,
    out: Output,
    /// The network to evaluate with (`None`: the hand-written evaluation).
    network: Option<Arc<crate::nnue::network::Network>>,
    /// The search threads' history tables, kept from move to move of a game.
    histories: Arc<search::HistoryPool>,
    /// The search parameters of the game played, with the options' changes.
    search_params: search::SearchParams,
}

impl SearchJob {
    /// Starts the search of the session's position on its own thread, which prints `bestmove`.
    fn spawn<G: Game>(self, session: &Session<G>) -> std::io::Result<JoinHandle<()>> {
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

    fn run<G: Game>(
        self,
        pos: G,
        history: Vec<crate::core::repetition::HistoryEntry>,
        searchmoves: Vec<G::Move>,
    ) {
        let rules = self.options.rules.of::<G>();
        let declare = pos.can_declare(&rules);
        let out = self.out.clone();
        let report_pos = pos.clone();
        let report =
            move |r: &search::Report<G::Move>| out.line(&output::info_line(&report_pos, r));
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
            nnue: self.network.as_deref(),
            histories: Some(&self.histories),
            params: self.search_params,
            skill: self.options.skill(choice_seed()),
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
        // A mate's exact line is read now, except when pondering: then after `ponderhit`, under
        // the clock it brings (a `stop` instead skips it).
        let mut result = result;
        if !self.params.ponder {
            result = result.map(|r| self.exact_mate(&pos, r));
        }
        // `go infinite` and `go ponder` never answer before `stop` (or `ponderhit`), even when a
        // depth or node limit ended the search (which sets the search's own stop flag).
        while self.shared.pondering.load(Ordering::SeqCst)
            && !self.stop_asked.load(Ordering::SeqCst)
        {
            std::thread::sleep(Duration::from_millis(1));
        }
        if self.params.ponder {
            result = result.map(|r| self.exact_mate(&pos, r));
        }
        let text = if declare {
            "bestmove win".to_string()
        } else {
            let best = result.as_ref().and_then(|r| r.best).or_else(|| {
                let mut list = crate::core::moves::MoveList::<G::Move>::new();
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
        self.out.answer(&text);
    }
}

impl SearchJob {
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
        let start = std::time::Instant::now();
        let mut table = self.mate.lock().unwrap_or_else(|e| e.into_inner());
        let Some((line, nodes)) = exact_mate_line(pos, &mut table, &limits, &self.stop_asked)
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

/// A seed for a limited strength's choice of move, different at every search.
fn choice_seed() -> u64 {
    let since = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH);
    since.map_or(0, |d| d.as_nanos() as u64)
}

/// Longest the exact-mate refinement of a search's mate may take, in milliseconds.
const EXACT_MATE_MS: u64 = 2000;

/// The exact mate line of `pos` and the nodes it took, read by the solver in `table` within
/// `limits`; `None` when the solver does not finish or `stop` is set (checked throughout, so that
/// `stop` is answered at once after a search found a mate).
fn exact_mate_line<P: MateGame>(
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

/// The commands of the USI loop, as `help` lists them.
const HELP: &[&str] = &[
    "info string commands: usi, isready, setoption name <id> [value <x>], usinewgame,",
    "info string   position startpos|sfen <sfen> [moves <m>...],",
    "info string   go [btime|wtime|binc|winc|byoyomi|movetime|movestogo <ms>] [depth <n>] [nodes <n>]",
    "info string      [searchmoves <m>...] [ponder] [infinite], go mate <ms>|infinite, go perft <depth>,",
    "info string   stop, ponderhit [clock words], gameover win|lose|draw, quit,",
    "info string   d (show the position), bench (the node-count benchmark), help (this list),",
    "info string   usi_tunables (the search parameters as shogiarena's SPSA manifest, JSON)",
    "info string at the end of input the running command finishes and answers, then the engine exits",
];

/// Checks the argument of `gameover`: exactly one of `win`, `lose`, `draw`.
fn gameover_result(rest: &str) -> Result<(), String> {
    match rest {
        "win" | "lose" | "draw" => Ok(()),
        "" => Err("gameover needs win, lose or draw; got nothing".into()),
        other => Err(format!(
            "gameover needs win, lose or draw; got '{}'",
            excerpt(other, 100)
        )),
    }
}

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

/// Runs perft to `depth` (at most [`MAX_PERFT_DEPTH`], see [`check_perft_depth`]), writing one
/// `<move>: <count>` line per root move through `say` as they come, and returns the final line:
/// `Nodes searched: <total>`, or, when `stop` was set, an `info string` saying so (no total).
/// Depth 0 counts the position itself: no move lines, `Nodes searched: 1`.
pub fn perft_report<P: Position>(
    pos: &P,
    depth: u32,
    stop: &AtomicBool,
    say: &mut dyn FnMut(&str),
) -> String {
    let end = divide_report(pos, depth, stop, &mut |mv, n| {
        say(&format!("{}: {n}", pos.move_to_usi(mv)))
    });
    match end {
        DivideEnd::Done(total) => format!("Nodes searched: {total}"),
        DivideEnd::Stopped {
            counted,
            moves,
            leaves,
        } => format!(
            "info string perft {depth} stopped: {counted} of {moves} root moves counted, \
             {leaves} nodes below them; no total"
        ),
    }
}

/// Runs the USI loop on `input` until `quit` or end of input, writing to `out`. Input is read on
/// its own thread so that commands reach the engine while it searches. At the end of input the
/// running command still finishes and answers ([`Engine::end_of_input`]).
///
/// Lines are read as bytes: a line that is not valid UTF-8 is answered with an error and ignored;
/// a read error counts as the end of input.
pub fn run<R: BufRead + Send + 'static>(mut input: R, out: Output) {
    let (tx, rx) = mpsc::channel::<Result<String, String>>();
    std::thread::spawn(move || {
        let mut bytes = Vec::new();
        loop {
            bytes.clear();
            match input.read_until(b'\n', &mut bytes) {
                Ok(0) | Err(_) => break,
                Ok(_) => {}
            }
            while bytes.last().is_some_and(|&b| b == b'\n' || b == b'\r') {
                bytes.pop();
            }
            let line = String::from_utf8(std::mem::take(&mut bytes))
                .map_err(|e| String::from_utf8_lossy(e.as_bytes()).into_owned());
            if tx.send(line).is_err() {
                return;
            }
        }
    });
    let mut engine = Engine::new(out.clone());
    let mut quit = false;
    for line in rx {
        let line = match line {
            Ok(line) => line,
            Err(text) => {
                engine.error(&format!(
                    "the line '{}' is not valid UTF-8; ignored",
                    excerpt(&text, 100)
                ));
                continue;
            }
        };
        let keep = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| engine.handle(&line)));
        match keep {
            Ok(true) => {}
            Ok(false) => {
                quit = true;
                break;
            }
            Err(_) => engine.error(&format!(
                "internal error while handling '{}'; state kept",
                excerpt(&line, 100)
            )),
        }
    }
    if !quit {
        engine.end_of_input();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::game::Position;
    use crate::games::shogi::Shogi;

    /// An engine writing into a buffer.
    fn engine() -> (Engine, Arc<Mutex<Vec<u8>>>) {
        let (out, buf) = Output::memory();
        (Engine::new(out), buf)
    }

    #[test]
    fn tables_are_allocated_at_isready_not_before_usi() {
        let (mut e, buf) = engine();
        assert_eq!(e.tables.made(), None);
        e.handle("usi");
        assert_eq!(e.tables.made(), None);
        assert!(String::from_utf8_lossy(&buf.lock().unwrap()).ends_with("usiok\n"));
        e.handle("isready");
        assert_eq!(e.tables.made(), Some((Use::Search, 64)));
    }

    #[test]
    fn the_first_go_allocates_when_no_isready_came() {
        let (mut e, buf) = engine();
        let wait = |e: &mut Engine| e.search.take().map(|h| h.join().unwrap());
        e.handle("go depth 1");
        wait(&mut e);
        assert_eq!(e.tables.made(), Some((Use::Search, 64)));
        e.handle("position sfen 4k4/9/4P4/9/9/9/9/9/9 b G2r2b3g4s4n4l17p 1");
        e.handle("go mate 10000");
        wait(&mut e);
        assert_eq!(e.tables.made(), Some((Use::Mate, 64)));
        let text = String::from_utf8_lossy(&buf.lock().unwrap()).into_owned();
        assert!(text.contains("checkmate G*5b"), "{text}");
    }

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

    #[test]
    fn setoption_words_keep_the_value_whole() {
        assert_eq!(
            setoption_words("name NanaTablebase value /a b/c.tb"),
            Some(("NanaTablebase".into(), "/a b/c.tb"))
        );
        assert_eq!(
            setoption_words("name\tUSI_Hash\tvalue\t16"),
            Some(("USI_Hash".into(), "16"))
        );
        assert_eq!(
            setoption_words("name USI_Hash value"),
            Some(("USI_Hash".into(), ""))
        );
        assert_eq!(
            setoption_words("name USI_Hash"),
            Some(("USI_Hash".into(), ""))
        );
        assert_eq!(setoption_words("name"), None);
        assert_eq!(setoption_words("USI_Hash value 3"), None);
    }
}
