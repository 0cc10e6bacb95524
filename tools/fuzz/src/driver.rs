//! Runs steps against the engine and checks every answer.
//!
//! The driver keeps a model of the engine's state (game, position, a few options) updated from
//! the lines it sends, read strictly ([`crate::classify`]). After a line it does not read, it asks
//! the engine for its position (`d`) and continues from that. At the end of each step it stops any
//! search that would not end by itself, sends `isready` and waits (with a deadline) until every
//! question has its answer: `readyok`, one `bestmove` per search, one `checkmate` per `go mate`,
//! one `Nodes searched` per `go perft`, one `SFEN:` per `d`.
//!
//! Checks: the engine never exits except on `quit` (and then promptly), never stops answering;
//! every `bestmove` (but `resign`/`win`) is legal in the position searched, its `ponder` move
//! legal after it; every `info … pv` is a legal line from the root; a `checkmate` line is legal
//! and ends in mate; `go perft` counts match tsubame's rules; `d` shows the position the commands
//! set; `go infinite`/`go ponder` never answer before `stop`; every `stop` is answered within the
//! latency limit; input the contract calls bad gets an `info string`; output is ASCII.

use std::collections::{BTreeMap, HashMap, VecDeque};
use std::path::PathBuf;
use std::time::{Duration, Instant};

use crate::classify::{Cmd, Go, classify, kind_name, maybe_quit};
use crate::engine::{Engine, Event, shorten};
use crate::games::{FuzzGame, Game, Pos, parse_any_sfen};
use crate::trace::{Action, Step};

/// How the driver runs and judges the engine.
#[derive(Clone, Debug)]
pub struct Config {
    /// The engine binary.
    pub engine: PathBuf,
    /// Longest wait for any answer (`readyok`, a `bestmove` after `stop`, …): longer is a hang.
    pub deadline: Duration,
    /// Longest time `quit` may take to end the process.
    pub quit_within: Duration,
    /// Longest allowed time from `stop` to the search's answer, in milliseconds.
    pub stop_ms: f64,
    /// Require ASCII output (the notation contract).
    pub check_ascii: bool,
    /// Print the protocol on standard error.
    pub verbose: bool,
}

/// A check that failed.
#[derive(Clone, Debug)]
pub struct Failure {
    /// A short name of what failed (`exit`, `hang`, `illegal-bestmove`, …).
    pub kind: String,
    /// What happened.
    pub message: String,
}

fn fail<T>(kind: &str, message: String) -> Result<T, Failure> {
    Err(Failure {
        kind: kind.to_string(),
        message,
    })
}

/// What was sent and checked.
#[derive(Clone, Debug, Default)]
pub struct Stats {
    /// Lines sent, by kind.
    pub sent: BTreeMap<&'static str, u64>,
    /// Steps run.
    pub steps: u64,
    /// Searches started (`go` but perft), including `go mate`.
    pub searches: u64,
    /// `bestmove` moves checked for legality.
    pub bestmoves: u64,
    /// `ponder` moves checked.
    pub ponders: u64,
    /// `bestmove resign` / `win` seen.
    pub resign_win: u64,
    /// `info … pv` lines checked, and their moves.
    pub pvs: u64,
    /// Moves in the PVs checked.
    pub pv_moves: u64,
    /// `checkmate` answers checked.
    pub mates: u64,
    /// `go perft` totals compared with the rules.
    pub perfts: u64,
    /// `d` answers compared with the model, and resynchronisations after unread lines.
    pub positions: u64,
    /// Times the model took the engine's position after an unread line.
    pub resyncs: u64,
    /// `info string` replies the contract required and got.
    pub errors_answered: u64,
    /// Engine starts.
    pub starts: u64,
    /// `stop` → answer latencies in milliseconds.
    pub stop_ms: Vec<f64>,
}

impl Stats {
    /// USI lines sent in all.
    pub fn lines(&self) -> u64 {
        self.sent.values().sum()
    }

    /// Adds `other` to these totals.
    pub fn add(&mut self, other: &Stats) {
        for (k, v) in &other.sent {
            *self.sent.entry(k).or_default() += v;
        }
        self.steps += other.steps;
        self.searches += other.searches;
        self.bestmoves += other.bestmoves;
        self.ponders += other.ponders;
        self.resign_win += other.resign_win;
        self.pvs += other.pvs;
        self.pv_moves += other.pv_moves;
        self.mates += other.mates;
        self.perfts += other.perfts;
        self.positions += other.positions;
        self.resyncs += other.resyncs;
        self.errors_answered += other.errors_answered;
        self.starts += other.starts;
        self.stop_ms.extend(&other.stop_ms);
    }
}

/// The fuzzer's idea of the engine's state.
#[derive(Clone, Debug)]
pub struct Model {
    /// The current position (its game is the current game).
    pub pos: Pos,
    /// `MinishogiExtraMoves` as last set.
    pub extra: u8,
    /// True when an unread line may have changed `MinishogiExtraMoves` (then `pass` is accepted).
    pub extra_unsure: bool,
    /// `USI_Hash` in MiB.
    pub hash: u64,
    /// `Threads`.
    pub threads: u64,
    /// `MultiPV`.
    pub multipv: u64,
}

impl Model {
    fn fresh() -> Model {
        Model {
            pos: Game::Shogi.startpos(),
            extra: 0,
            extra_unsure: false,
            hash: HASH_MIB,
            threads: 1,
            multipv: 1,
        }
    }

    /// The current game.
    pub fn game(&self) -> Game {
        self.pos.game()
    }

    /// Lines that bring a fresh engine to this state (for minimized reproducers).
    pub fn prelude(&self) -> Vec<Action> {
        let mut lines = vec![
            format!("setoption name USI_Variant value {}", self.game().name()),
            format!("setoption name Threads value {}", self.threads),
            format!("setoption name MultiPV value {}", self.multipv),
        ];
        if self.hash != HASH_MIB {
            lines.push(format!("setoption name USI_Hash value {}", self.hash));
        }
        if self.extra != 0 {
            lines.push(format!(
                "setoption name MinishogiExtraMoves value {}",
                self.extra
            ));
        }
        lines.push(format!("position sfen {}", self.pos.to_sfen()));
        lines
            .into_iter()
            .map(|l| Action::Send(l.into_bytes()))
            .collect()
    }
}

/// The table size the driver sets at every start.
pub const HASH_MIB: u64 = 16;

/// A declared option, from the engine's `usi` answer.
#[derive(Clone, Debug)]
enum Decl {
    Spin(u64, u64),
    Check,
    Combo(Vec<String>),
    Text,
}

/// A search the engine owes an answer for.
#[derive(Clone, Debug)]
struct Search {
    root: Pos,
    mate: bool,
    /// `go infinite`/`go ponder` not yet released by `ponderhit`: may not answer before a stop.
    waits_for_stop: bool,
    bounded: bool,
    /// The clock of `go ponder`, for a `ponderhit` without one.
    clock: Option<u64>,
    /// When an explicit `stop` was sent while it ran (or, for a `stop` sent behind an `isready`
    /// not yet answered, when that `readyok` came: the engine reads the `stop` only after it has
    /// answered the `isready`, which may first make a large table, as a GUI waits for).
    stop_sent: Option<Instant>,
    /// The number of `readyok`s to wait for before the `stop` counts as read.
    stop_behind_ready: Option<u64>,
    /// Something (a `stop`, `position`, `go`, …) ended it.
    stopped: bool,
    line: String,
}

/// Runs steps on one engine after another (a new one after `quit` or a failure).
pub struct Driver {
    cfg: Config,
    engine: Option<Engine>,
    decls: HashMap<String, Decl>,
    /// The model of the engine's state.
    pub model: Model,
    outstanding: VecDeque<Search>,
    perfts: VecDeque<Option<u64>>,
    d_expect: VecDeque<Option<String>>,
    raw_roots: Vec<Pos>,
    isready_sent: u64,
    readyok_seen: u64,
    usi_sent: u64,
    usiok_seen: u64,
    expect_errors: u64,
    /// The lines of this step that must get an `info string`.
    bad_lines: Vec<String>,
    info_strings: u64,
    /// Texts that an `info string` of this step must contain (say the perft depth sent).
    expect_texts: Vec<String>,
    /// The `info string` lines of this step.
    info_texts: Vec<String>,
    quitting: bool,
    maybe_exit: bool,
    last_line: String,
    /// The engine's last `bestmove` move (for games the fuzzer plays with the engine's moves).
    pub last_bestmove: Option<String>,
    /// Totals.
    pub stats: Stats,
}

impl Driver {
    /// A driver; the engine starts with the first step.
    pub fn new(cfg: Config) -> Driver {
        Driver {
            cfg,
            engine: None,
            decls: HashMap::new(),
            model: Model::fresh(),
            outstanding: VecDeque::new(),
            perfts: VecDeque::new(),
            d_expect: VecDeque::new(),
            raw_roots: Vec::new(),
            isready_sent: 0,
            readyok_seen: 0,
            usi_sent: 0,
            usiok_seen: 0,
            expect_errors: 0,
            bad_lines: Vec::new(),
            info_strings: 0,
            expect_texts: Vec::new(),
            info_texts: Vec::new(),
            quitting: false,
            maybe_exit: false,
            last_line: String::new(),
            last_bestmove: None,
            stats: Stats::default(),
        }
    }

    /// Ends the engine (after a failure, or at the end of a run).
    pub fn shutdown(&mut self) {
        if let Some(mut e) = self.engine.take() {
            let _ = e.send(b"quit");
            if e.wait_exit(Duration::from_millis(500)).is_none() {
                e.kill();
            }
        }
    }

    /// Runs one step and its synchronisation.
    pub fn run_step(&mut self, step: &Step) -> Result<(), Failure> {
        let result = self.step_inner(step);
        self.stats.steps += 1;
        if result.is_err()
            && let Some(mut e) = self.engine.take()
        {
            e.kill();
        }
        result
    }

    fn step_inner(&mut self, step: &Step) -> Result<(), Failure> {
        self.expect_errors = 0;
        self.bad_lines.clear();
        self.info_strings = 0;
        self.expect_texts.clear();
        self.info_texts.clear();
        self.raw_roots.clear();
        for action in step {
            match action {
                Action::Send(line) => self.send_line(line)?,
                Action::Close => return self.close_input(),
                Action::Sleep(ms) => {
                    if self.engine.is_some() {
                        let until = Instant::now() + Duration::from_millis(*ms);
                        self.pump_until(until, |_| false)?;
                    } else {
                        std::thread::sleep(Duration::from_millis(*ms));
                    }
                }
            }
        }
        self.sync()
    }

    fn ensure_engine(&mut self) -> Result<(), Failure> {
        if self.engine.is_some() {
            return Ok(());
        }
        let engine = Engine::start(&self.cfg.engine, self.cfg.verbose).map_err(|e| Failure {
            kind: "start".into(),
            message: format!("cannot start {}: {e}", self.cfg.engine.display()),
        })?;
        self.stats.starts += 1;
        self.engine = Some(engine);
        self.model = Model::fresh();
        self.outstanding.clear();
        self.perfts.clear();
        self.d_expect.clear();
        self.raw_roots.clear();
        self.isready_sent = 0;
        self.readyok_seen = 0;
        self.usi_sent = 0;
        self.usiok_seen = 0;
        self.quitting = false;
        self.maybe_exit = false;
        // The handshake is the same for every start and is not part of the trace.
        self.write(b"usi")?;
        self.usi_sent += 1;
        self.decls.clear();
        self.wait_for("usiok", |d| d.usiok_seen >= d.usi_sent)?;
        for l in [
            format!("setoption name USI_Hash value {HASH_MIB}"),
            "setoption name Threads value 1".to_string(),
        ] {
            self.write(l.as_bytes())?;
        }
        self.write(b"isready")?;
        self.isready_sent += 1;
        self.wait_for("readyok after the handshake", |d| {
            d.readyok_seen >= d.isready_sent
        })
    }

    fn write(&mut self, line: &[u8]) -> Result<Instant, Failure> {
        self.last_line = shorten(line);
        let engine = self.engine.as_mut().expect("started");
        match engine.send(line) {
            Ok(t) => Ok(t),
            Err(e) => {
                // The engine is gone: report how it ended.
                let status = engine
                    .wait_exit(Duration::from_millis(500))
                    .unwrap_or_else(|| "still running".into());
                fail(
                    "exit",
                    format!(
                        "cannot write '{}' to the engine ({e}); process: {status}; stderr: {}",
                        shorten(line),
                        engine.stderr_tail()
                    ),
                )
            }
        }
    }

    /// Sends one line of a step and updates the model and the expected answers.
    fn send_line(&mut self, line: &[u8]) -> Result<(), Failure> {
        self.ensure_engine()?;
        let cmd = classify(line);
        *self.stats.sent.entry(kind_name(&cmd)).or_default() += 1;
        let errors_before = self.expect_errors;
        // A flawed command is reported, then carried out.
        let cmd = match cmd {
            Cmd::Flawed(cmd) => {
                self.expect_errors += 1;
                *cmd
            }
            cmd => cmd,
        };
        match &cmd {
            Cmd::Raw => {
                self.raw_roots.push(self.model.pos.clone());
                self.end_searches();
                if maybe_quit(line) {
                    self.maybe_exit = true;
                }
                let low = String::from_utf8_lossy(line).to_ascii_lowercase();
                if low.contains("extramoves") {
                    self.model.extra_unsure = true;
                }
            }
            Cmd::Empty | Cmd::Gameover | Cmd::UsiNewGame | Cmd::Usi | Cmd::IsReady => {
                if matches!(cmd, Cmd::Gameover | Cmd::UsiNewGame) {
                    self.end_searches();
                }
            }
            Cmd::Unknown | Cmd::BadSetOption | Cmd::BadPosition => self.expect_errors += 1,
            Cmd::Quit => self.end_searches(),
            Cmd::Flawed(_) => unreachable!("unwrapped above"),
            Cmd::Stop | Cmd::D | Cmd::Ponderhit(_) => {}
            Cmd::SetOption { name, value } => self.setoption(name, value),
            Cmd::Position { sfen, moves } => {
                self.end_searches();
                self.position(sfen.as_deref(), moves);
            }
            Cmd::Go(g) => self.go(g, line),
        }
        if self.expect_errors > errors_before {
            self.bad_lines.push(shorten(line));
        }
        let t = self.write(line)?;
        match cmd {
            Cmd::Usi => self.usi_sent += 1,
            Cmd::IsReady => self.isready_sent += 1,
            Cmd::D => self.d_expect.push_back(Some(self.model.pos.to_sfen())),
            Cmd::Stop => {
                for s in self.outstanding.iter_mut().filter(|s| !s.stopped) {
                    s.stopped = true;
                    s.stop_sent = Some(t);
                    s.stop_behind_ready =
                        (self.isready_sent > self.readyok_seen).then_some(self.isready_sent);
                }
            }
            Cmd::Ponderhit(clock) => {
                for s in self.outstanding.iter_mut().filter(|s| s.waits_for_stop) {
                    s.waits_for_stop = false;
                    s.bounded = clock.or(s.clock).is_some_and(|c| c <= 3000);
                }
            }
            Cmd::Quit => return self.quit(),
            Cmd::Raw => return self.resync(line),
            _ => {}
        }
        self.pump_until(Instant::now(), |_| false).map(|_| ())
    }

    /// Marks running searches as ended by a command that ends them without `stop`.
    fn end_searches(&mut self) {
        for s in &mut self.outstanding {
            s.stopped = true;
            s.waits_for_stop = false;
        }
    }

    fn setoption(&mut self, name: &str, value: &str) {
        let lower = name.to_ascii_lowercase();
        let key = match lower.as_str() {
            "uci_variant" => "usi_variant",
            "usi_multipv" => "multipv",
            "hash" => "usi_hash",
            "ponder" => "usi_ponder",
            other => other,
        };
        if key == "evalfile" && value.starts_with("/dev/") {
            // A device is never read as a network.
            self.expect_errors += 1;
            self.expect_texts.push("is not a regular file".into());
            return;
        }
        if key == "usi_variant" {
            match Game::parse(value) {
                Some(g) => {
                    self.end_searches();
                    self.model.pos = g.startpos();
                }
                None => self.expect_errors += 1,
            }
            return;
        }
        let Some(decl) = self.decls.get(key) else {
            if key == lower {
                // Unknown options are acknowledged with an `info string`.
                self.expect_errors += 1;
            }
            return;
        };
        let valid = match decl {
            Decl::Spin(min, max) => {
                if !value.is_empty() && value.bytes().all(|b| b.is_ascii_digit()) {
                    match value.parse::<u64>() {
                        Ok(v) if (*min..=*max).contains(&v) => Some(v.to_string()),
                        _ => None,
                    }
                } else if value.is_empty()
                    || value
                        .strip_prefix('-')
                        .unwrap_or(value)
                        .bytes()
                        .all(|b| b.is_ascii_alphanumeric())
                {
                    None
                } else {
                    // Neither clearly good nor clearly bad (say `+5`): no expectation.
                    if key == "minishogiextramoves" {
                        self.model.extra_unsure = true;
                    }
                    return;
                }
            }
            Decl::Check => ["true", "false"]
                .iter()
                .any(|v| v.eq_ignore_ascii_case(value))
                .then(|| value.to_string()),
            Decl::Combo(vars) => vars.iter().find(|v| v.eq_ignore_ascii_case(value)).cloned(),
            Decl::Text => Some(value.to_string()),
        };
        let Some(v) = valid else {
            self.expect_errors += 1;
            return;
        };
        let n = v.parse::<u64>().ok();
        match (key, n) {
            ("usi_hash", Some(n)) => self.model.hash = n,
            ("threads", Some(n)) => self.model.threads = n,
            ("multipv", Some(n)) => self.model.multipv = n,
            ("minishogiextramoves", Some(n)) => self.model.extra = n as u8,
            _ => {}
        }
    }

    fn position(&mut self, sfen: Option<&str>, moves: &[String]) {
        let game = self.model.game();
        let base = match sfen {
            None => Some(game.startpos()),
            Some(s) => game.parse_sfen(s),
        };
        let Some(mut pos) = base else {
            self.expect_errors += 1;
            return;
        };
        pos.begin_extra_moves(self.model.extra);
        for m in moves {
            if !pos.play_usi(m) {
                self.expect_errors += 1;
                break;
            }
        }
        self.model.pos = pos;
    }

    fn go(&mut self, g: &Go, line: &[u8]) {
        self.end_searches();
        if g.bad {
            self.expect_errors += 1;
        }
        if let Some(depth) = g.perft {
            if depth > u64::from(tsubame::core::perft::MAX_PERFT_DEPTH) {
                // Refused with an error naming the depth sent; nothing is counted.
                self.expect_errors += 1;
                self.expect_texts
                    .push(format!("perft depth {depth} is above the maximum"));
                return;
            }
            let game = self.model.game();
            let expected = (1..=game.perft_depth() as u64)
                .contains(&depth)
                .then(|| self.model.pos.perft(depth as u32));
            self.perfts.push_back(expected);
            return;
        }
        self.stats.searches += 1;
        self.outstanding.push_back(Search {
            root: self.model.pos.clone(),
            mate: g.mate.is_some(),
            waits_for_stop: (g.infinite || g.ponder) && !g.bad && g.mate.is_none(),
            bounded: g.bounded(),
            clock: g.clock,
            stop_sent: None,
            stop_behind_ready: None,
            stopped: false,
            line: shorten(line),
        });
    }

    /// After `quit`: the process must end within the limit.
    fn quit(&mut self) -> Result<(), Failure> {
        self.quitting = true;
        let deadline = Instant::now() + self.cfg.quit_within;
        // Answers of a search ended by `quit` may still come; then end of output.
        if !self.read_to_end(deadline)? {
            return fail(
                "slow-quit",
                format!(
                    "the engine still writes or runs {} ms after quit",
                    self.cfg.quit_within.as_millis()
                ),
            );
        }
        let mut engine = self.engine.take().expect("started");
        let left = deadline.saturating_duration_since(Instant::now());
        if engine.wait_exit(left + Duration::from_millis(50)).is_none() {
            return fail(
                "slow-quit",
                format!(
                    "the process was still alive {} ms after quit",
                    self.cfg.quit_within.as_millis()
                ),
            );
        }
        self.outstanding.clear();
        self.perfts.clear();
        self.d_expect.clear();
        Ok(())
    }

    /// Checks every line the engine writes until its output ends: true then, false when it has
    /// not ended by `deadline`.
    fn read_to_end(&mut self, deadline: Instant) -> Result<bool, Failure> {
        loop {
            match self.engine.as_mut().expect("started").next_event(deadline) {
                Some(Event::Line(t, l)) => self.on_line(t, &l)?,
                Some(Event::Eof) => return Ok(true),
                None => return Ok(false),
            }
        }
    }

    /// At the end of input: the engine must answer every search, mate search and perft it owes
    /// (those waiting for `stop` are stopped by the end of input), then exit.
    fn close_input(&mut self) -> Result<(), Failure> {
        self.ensure_engine()?;
        self.end_searches();
        self.engine.as_mut().expect("started").close_input();
        if !self.read_to_end(Instant::now() + self.cfg.deadline)? {
            return fail(
                "hang",
                format!(
                    "the engine still runs {} ms after the end of its input (pending: {:?})",
                    self.cfg.deadline.as_millis(),
                    self.pending()
                ),
            );
        }
        if !self.outstanding.is_empty() || !self.perfts.is_empty() {
            return fail(
                "eof-unanswered",
                format!(
                    "the engine exited at the end of its input without answering: {:?}",
                    self.pending()
                ),
            );
        }
        let mut engine = self.engine.take().expect("started");
        if engine.wait_exit(self.cfg.quit_within).is_none() {
            return fail(
                "slow-quit",
                "output closed at the end of input but the process lives on".into(),
            );
        }
        self.d_expect.clear();
        Ok(())
    }

    /// After a line the fuzzer does not read: learn the engine's position from `d`. A `go` line
    /// may have started a search the model does not know of, which would then answer in place
    /// of the next search's answer: `usinewgame` ends whatever runs (the engine prints its
    /// answer first, read against the positions before the unread lines), so that no search of
    /// an unread line is left running once `d` has answered.
    fn resync(&mut self, line: &[u8]) -> Result<(), Failure> {
        // The line may have been `quit` after all.
        if self.maybe_exit && self.exited_now()? {
            return Ok(());
        }
        let go = line.split(u8::is_ascii_whitespace).find(|w| !w.is_empty()) == Some(b"go");
        if go {
            self.write(b"usinewgame")?;
        }
        self.write(b"d")?;
        self.d_expect.push_back(None);
        self.write(b"isready")?;
        self.isready_sent += 1;
        // Answers come in order: the `d` answer, then (after it) a `readyok`.
        let before = self.readyok_seen;
        self.wait_for("the position (d) after an unread line", |d| {
            d.d_expect.is_empty()
        })?;
        if go {
            self.raw_roots.clear();
        }
        let mark = self.readyok_seen.max(before);
        self.wait_for("readyok after an unread line", |d| d.readyok_seen > mark)?;
        self.readyok_seen = self.isready_sent;
        Ok(())
    }

    /// True (and the engine forgotten) when the engine has ended, as a lenient `quit` may do.
    fn exited_now(&mut self) -> Result<bool, Failure> {
        let deadline = Instant::now() + Duration::from_millis(100);
        loop {
            let event = self.engine.as_mut().expect("started").next_event(deadline);
            match event {
                Some(Event::Line(t, l)) => self.on_line(t, &l)?,
                Some(Event::Eof) => {
                    let mut engine = self.engine.take().expect("started");
                    if engine.wait_exit(self.cfg.quit_within).is_none() {
                        return fail("slow-quit", "output closed but the process lives on".into());
                    }
                    self.outstanding.clear();
                    return Ok(true);
                }
                None => return Ok(false),
            }
        }
    }

    /// The end of a step: stop what would not end by itself, then wait for every answer.
    fn sync(&mut self) -> Result<(), Failure> {
        if self.engine.is_none() {
            return Ok(());
        }
        if !self.raw_roots.is_empty() {
            // An unread line may have started a search the model does not know of.
            for l in ["stop", "gameover draw"] {
                self.send_line(l.as_bytes())?;
                if self.engine.is_none() {
                    return Ok(());
                }
            }
        } else if self
            .outstanding
            .iter()
            .any(|s| !s.stopped && (s.waits_for_stop || !s.bounded))
            // A perft deeper than the fuzzer counts may run for hours.
            || self.perfts.iter().any(Option::is_none)
        {
            self.send_line(b"stop")?;
        }
        self.send_line(b"isready")?;
        self.wait_for("complete answers at the end of the step", |d| {
            d.readyok_seen >= d.isready_sent
                && d.outstanding.is_empty()
                && d.perfts.is_empty()
                && d.d_expect.is_empty()
                && d.usiok_seen >= d.usi_sent
        })?;
        if self.info_strings < self.expect_errors {
            return fail(
                "no-error-reply",
                format!(
                    "{} line(s) of this step are bad input by the contract but the engine \
                     answered {} info string line(s); the bad lines: '{}'",
                    self.expect_errors,
                    self.info_strings,
                    self.bad_lines.join("', '")
                ),
            );
        }
        if let Some(missing) = self
            .expect_texts
            .iter()
            .find(|want| !self.info_texts.iter().any(|t| t.contains(want.as_str())))
        {
            return fail(
                "wrong-error-reply",
                format!(
                    "no info string says '{missing}'; they were: {:?}",
                    self.info_texts
                ),
            );
        }
        self.stats.errors_answered += self.expect_errors;
        Ok(())
    }

    /// Processes output until `done` holds, failing after the deadline.
    fn wait_for(&mut self, what: &str, done: impl Fn(&Driver) -> bool) -> Result<(), Failure> {
        let deadline = Instant::now() + self.cfg.deadline;
        if self.pump_until(deadline, &done)? {
            return Ok(());
        }
        let mut missing = Vec::new();
        if self.readyok_seen < self.isready_sent {
            missing.push(format!(
                "readyok ({} of {} isready answered)",
                self.readyok_seen, self.isready_sent
            ));
        }
        for s in &self.outstanding {
            let stop = if s.stopped {
                "after a stop"
            } else {
                "without a stop"
            };
            missing.push(format!("the answer to '{}' ({stop})", s.line));
        }
        if !self.perfts.is_empty() {
            missing.push("the end of a go perft".into());
        }
        if !self.d_expect.is_empty() {
            missing.push("the answer to d".into());
        }
        fail(
            "hang",
            format!(
                "no {what} within {} ms of the last line sent ('{}'); missing: {}",
                self.cfg.deadline.as_millis(),
                self.last_line,
                missing.join(", ")
            ),
        )
    }

    /// Handles output until `until`, or until `done` holds (returned true).
    fn pump_until(
        &mut self,
        until: Instant,
        done: impl Fn(&Driver) -> bool,
    ) -> Result<bool, Failure> {
        loop {
            if done(self) {
                return Ok(true);
            }
            let Some(engine) = self.engine.as_mut() else {
                return Ok(false);
            };
            match engine.next_event(until) {
                Some(Event::Line(t, l)) => self.on_line(t, &l)?,
                Some(Event::Eof) => {
                    let engine = self.engine.as_mut().expect("started");
                    let status = engine
                        .wait_exit(Duration::from_millis(500))
                        .unwrap_or_else(|| "closed its output but still runs".into());
                    if self.maybe_exit || self.quitting {
                        self.engine = None;
                        self.outstanding.clear();
                        return Ok(false);
                    }
                    return fail(
                        "exit",
                        format!(
                            "the engine ended ({status}); last line sent: '{}'; stderr: {}",
                            self.last_line,
                            engine.stderr_tail().trim()
                        ),
                    );
                }
                None => return Ok(done(self)),
            }
        }
    }

    /// Checks one line of output.
    fn on_line(&mut self, t: Instant, bytes: &[u8]) -> Result<(), Failure> {
        if self.cfg.check_ascii && !bytes.is_ascii() {
            return fail(
                "non-ascii-output",
                format!("the engine wrote a non-ASCII line: '{}'", shorten(bytes)),
            );
        }
        let text = String::from_utf8_lossy(bytes);
        let text = text.trim_end_matches('\r');
        let words: Vec<&str> = text.split_whitespace().collect();
        match words.first().copied() {
            Some("readyok") => {
                self.readyok_seen += 1;
                for s in &mut self.outstanding {
                    if s.stop_behind_ready.is_some_and(|n| self.readyok_seen >= n) {
                        s.stop_behind_ready = None;
                        s.stop_sent = Some(t);
                    }
                }
            }
            Some("usiok") => self.usiok_seen += 1,
            Some("option") => self.declare(&words),
            Some("bestmove") => self.on_bestmove(t, &words)?,
            Some("checkmate") => self.on_checkmate(t, &words)?,
            Some("info") if words.get(1) == Some(&"string") => {
                self.info_strings += 1;
                self.info_texts.push(text.to_string());
                // `info string perft D stopped: …` ends a perft cut short by `stop`.
                if words.get(2) == Some(&"perft") && words.get(4) == Some(&"stopped:") {
                    self.perfts.pop_front();
                }
            }
            Some("info") => {
                if let Some(i) = words.iter().position(|&w| w == "pv") {
                    self.on_pv(&words[i + 1..])?;
                }
            }
            Some("Nodes") if words.get(1) == Some(&"searched:") => {
                let got = words.get(2).and_then(|w| w.parse::<u64>().ok());
                if let Some(expected) = self.perfts.pop_front() {
                    self.stats.perfts += 1;
                    if let Some(e) = expected
                        && got != Some(e)
                    {
                        return fail(
                            "perft-mismatch",
                            format!(
                                "go perft answered '{text}', the rules count {e} in {}",
                                self.model.pos.to_sfen()
                            ),
                        );
                    }
                }
            }
            Some("SFEN:") => self.on_sfen(&words[1..].join(" "))?,
            _ => {}
        }
        Ok(())
    }

    fn declare(&mut self, words: &[&str]) {
        // option name N type T [default D] [min A] [max B] [var V]…
        let field = |k: &str| {
            words
                .iter()
                .position(|&w| w == k)
                .and_then(|i| words.get(i + 1))
        };
        let (Some(name), Some(kind)) = (field("name"), field("type")) else {
            return;
        };
        let num = |k: &str| field(k).and_then(|v| v.parse::<u64>().ok());
        let decl = match *kind {
            "spin" => Decl::Spin(num("min").unwrap_or(0), num("max").unwrap_or(u64::MAX)),
            "check" => Decl::Check,
            "combo" => Decl::Combo(
                words
                    .windows(2)
                    .filter(|w| w[0] == "var")
                    .map(|w| w[1].to_string())
                    .collect(),
            ),
            _ => Decl::Text,
        };
        self.decls.insert(name.to_ascii_lowercase(), decl);
    }

    /// The roots a search answer may belong to when no known search is waiting for one.
    fn raw_root_for(&self, line: &[&str]) -> Option<Pos> {
        self.raw_roots
            .iter()
            .find(|r| r.first_illegal(line).is_none())
            .cloned()
    }

    fn on_bestmove(&mut self, t: Instant, words: &[&str]) -> Result<(), Failure> {
        let text = words.join(" ");
        let Some(&mv) = words.get(1) else {
            return fail("malformed-answer", format!("'{text}' names no move"));
        };
        let mut line = vec![mv];
        if words.get(2) == Some(&"ponder") {
            match words.get(3) {
                Some(p) => line.push(p),
                None => return fail("malformed-answer", format!("'{text}' has no ponder move")),
            }
        }
        let search = match self.outstanding.front() {
            Some(s) if !s.mate => self.outstanding.pop_front(),
            _ => None,
        };
        let root = match &search {
            Some(s) => s.root.clone(),
            None => {
                if self.raw_roots.is_empty() {
                    return fail(
                        "unexpected-answer",
                        format!("'{text}' answers no search (pending: {:?})", self.pending()),
                    );
                }
                self.raw_root_for(&line)
                    .unwrap_or_else(|| self.raw_roots[0].clone())
            }
        };
        if let Some(s) = &search {
            if s.waits_for_stop && !s.stopped {
                return fail(
                    "early-bestmove",
                    format!("'{text}' came before any stop for '{}'", s.line),
                );
            }
            self.stop_latency(t, s.stop_sent, &text, &s.line)?;
        }
        if mv == "resign" || mv == "win" {
            self.stats.resign_win += 1;
            return Ok(());
        }
        self.last_bestmove = Some(mv.to_string());
        let pass_ok = mv == "pass" && self.model.extra_unsure;
        self.stats.bestmoves += 1;
        if !root.is_legal(mv) && !pass_ok && self.raw_root_for(&line[..1]).is_none() {
            return fail(
                "illegal-bestmove",
                format!(
                    "'{text}' is not legal in {} (go was '{}')",
                    root.to_sfen(),
                    search.map(|s| s.line).unwrap_or_default()
                ),
            );
        }
        if line.len() == 2 {
            self.stats.ponders += 1;
            if root.first_illegal(&line).is_some() && !pass_ok && self.raw_root_for(&line).is_none()
            {
                return fail(
                    "illegal-ponder",
                    format!(
                        "'{text}': the ponder move is not legal after {mv} in {}",
                        root.to_sfen()
                    ),
                );
            }
        }
        Ok(())
    }

    fn stop_latency(
        &mut self,
        t: Instant,
        stop_sent: Option<Instant>,
        answer: &str,
        go: &str,
    ) -> Result<(), Failure> {
        let Some(t0) = stop_sent else { return Ok(()) };
        let ms = t.saturating_duration_since(t0).as_secs_f64() * 1000.0;
        self.stats.stop_ms.push(ms);
        if ms > self.cfg.stop_ms {
            return fail(
                "slow-stop",
                format!(
                    "'{answer}' came {ms:.1} ms after stop (limit {} ms; go was '{go}')",
                    self.cfg.stop_ms
                ),
            );
        }
        Ok(())
    }

    fn on_checkmate(&mut self, t: Instant, words: &[&str]) -> Result<(), Failure> {
        let text = words.join(" ");
        let search = match self.outstanding.front() {
            Some(s) if s.mate => self.outstanding.pop_front(),
            _ => None,
        };
        let root = match &search {
            Some(s) => {
                self.stop_latency(t, s.stop_sent, &text, &s.line)?;
                s.root.clone()
            }
            None if !self.raw_roots.is_empty() => self.raw_roots[0].clone(),
            None => {
                return fail(
                    "unexpected-answer",
                    format!(
                        "'{text}' answers no go mate (pending: {:?})",
                        self.pending()
                    ),
                );
            }
        };
        self.stats.mates += 1;
        let line = &words[1..];
        if matches!(line, ["nomate"] | ["timeout"] | ["notimplemented"]) {
            return Ok(());
        }
        let root = match root.first_illegal(line) {
            None => root,
            Some(_) => match self.raw_root_for(line) {
                Some(r) => r,
                None => {
                    return fail(
                        "illegal-mate-line",
                        format!("'{text}' is not a legal line from {}", root.to_sfen()),
                    );
                }
            },
        };
        let mut end = root.clone();
        for m in line {
            end.play_usi(m);
        }
        if line.is_empty() || !end.is_mated() {
            return fail(
                "mate-line-not-mate",
                format!("'{text}' from {} does not end in mate", root.to_sfen()),
            );
        }
        Ok(())
    }

    fn on_pv(&mut self, pv: &[&str]) -> Result<(), Failure> {
        let root = match self.outstanding.front() {
            Some(s) => s.root.clone(),
            None if !self.raw_roots.is_empty() => self.raw_roots[0].clone(),
            None => {
                return fail(
                    "unexpected-answer",
                    format!("an info pv line ({}) while no search runs", pv.join(" ")),
                );
            }
        };
        self.stats.pvs += 1;
        self.stats.pv_moves += pv.len() as u64;
        if let Some(i) = root.first_illegal(pv)
            && self.raw_root_for(pv).is_none()
            && !(self.model.extra_unsure && pv.contains(&"pass"))
        {
            return fail(
                "illegal-pv",
                format!(
                    "pv '{}' has the illegal move {} (ply {}) from {}",
                    pv.join(" "),
                    pv[i],
                    i + 1,
                    root.to_sfen()
                ),
            );
        }
        Ok(())
    }

    fn on_sfen(&mut self, sfen: &str) -> Result<(), Failure> {
        let Some(expected) = self.d_expect.pop_front() else {
            return Ok(());
        };
        self.stats.positions += 1;
        match expected {
            Some(e) if e != sfen => fail(
                "position-mismatch",
                format!("d shows '{sfen}' but the commands sent set '{e}'"),
            ),
            Some(_) => Ok(()),
            None => {
                let Some(pos) = parse_any_sfen(sfen, self.model.game()) else {
                    return fail(
                        "bad-sfen-output",
                        format!("d shows '{sfen}', which is no valid position"),
                    );
                };
                if pos.to_sfen() != self.model.pos.to_sfen() || pos.game() != self.model.game() {
                    self.stats.resyncs += 1;
                    self.model.pos = pos;
                }
                Ok(())
            }
        }
    }

    fn pending(&self) -> Vec<String> {
        self.outstanding.iter().map(|s| s.line.clone()).collect()
    }
}
