//! A USI engine process: spawning, the handshake, sending commands and reading answers with
//! deadlines.
//!
//! A reader thread per engine forwards each output line, stamped with the time it arrived, over a
//! channel; every wait is a `recv_timeout`, so a silent engine never blocks the runner.

use std::fs::File;
use std::io::{BufRead, BufReader, Write};
use std::path::PathBuf;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::{Duration, Instant};

/// How to start one engine.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct EngineConfig {
    /// The name used in results (`name=`, else the file name of the command).
    pub name: String,
    /// The program.
    pub cmd: String,
    /// Its arguments.
    pub args: Vec<String>,
    /// The working directory (`dir=`), else the runner's.
    pub dir: Option<PathBuf>,
    /// `setoption` values sent after the handshake, in order.
    pub options: Vec<(String, String)>,
    /// A file the engine's standard error is appended to (`stderr=`), else it is discarded.
    pub stderr: Option<PathBuf>,
    /// This engine's own clock, where it differs from the match's (time odds).
    pub clock: ClockOdds,
    /// Whether the engine thinks on the opponent's time (`ponder=on`): it is sent `USI_Ponder`
    /// when it announces it, and `go ponder` on its expected reply after each of its moves.
    pub ponder: bool,
}

/// An engine's own clock (words `time=MS`, `byoyomi=MS`, `inc=MS` of `--engine`), or its own
/// node limit under a match at `--nodes` (word `nodes=N`): each part given replaces the match's
/// for that engine.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ClockOdds {
    /// Main time, ms.
    pub time_ms: Option<u64>,
    /// Byoyomi, ms.
    pub byoyomi_ms: Option<u64>,
    /// Fischer increment, ms.
    pub inc_ms: Option<u64>,
    /// Nodes per move (node odds, as a stand-in for equal time between engines of unequal
    /// speed).
    pub nodes: Option<u64>,
}

impl ClockOdds {
    /// True when the engine plays on the match's clock and node limit.
    pub fn is_none(&self) -> bool {
        *self == ClockOdds::default()
    }
}

impl EngineConfig {
    /// Parses an engine spec: words `cmd=PROGRAM` (split at spaces into program and arguments),
    /// `arg=ARG`, `name=NAME`, `dir=DIR`, `stderr=FILE`, `option.NAME=VALUE`, and the engine's
    /// own clock `time=MS`, `byoyomi=MS`, `inc=MS`, its own node limit `nodes=N`, and
    /// `ponder=on|off`.
    pub fn parse(words: &[String]) -> Result<EngineConfig, String> {
        let mut cfg = EngineConfig::default();
        for w in words {
            let (key, value) = w
                .split_once('=')
                .ok_or_else(|| format!("engine setting '{w}' is not KEY=VALUE"))?;
            match key {
                "cmd" => {
                    let mut parts = value.split_whitespace().map(str::to_string);
                    cfg.cmd = parts.next().ok_or("cmd= is empty")?;
                    cfg.args.extend(parts);
                }
                "arg" => cfg.args.push(value.to_string()),
                "name" => cfg.name = value.to_string(),
                "dir" => cfg.dir = Some(PathBuf::from(value)),
                "stderr" => cfg.stderr = Some(PathBuf::from(value)),
                "ponder" => {
                    cfg.ponder = match value {
                        "on" | "true" => true,
                        "off" | "false" => false,
                        _ => return Err(format!("ponder= takes on or off, got '{value}'")),
                    }
                }
                "nodes" => {
                    let n: u64 =
                        value.parse().ok().filter(|&n| n > 0).ok_or_else(|| {
                            format!("nodes= needs a positive count, got '{value}'")
                        })?;
                    cfg.clock.nodes = Some(n);
                }
                "time" | "byoyomi" | "inc" => {
                    let ms: u64 = value
                        .parse()
                        .map_err(|_| format!("{key}= needs milliseconds, got '{value}'"))?;
                    match key {
                        "time" => cfg.clock.time_ms = Some(ms),
                        "byoyomi" => cfg.clock.byoyomi_ms = Some(ms),
                        _ => cfg.clock.inc_ms = Some(ms),
                    }
                }
                _ => match key.strip_prefix("option.") {
                    Some(opt) if !opt.is_empty() => {
                        cfg.options.push((opt.to_string(), value.to_string()))
                    }
                    _ => {
                        return Err(format!(
                            "unknown engine setting '{key}' (cmd, arg, name, dir, stderr, option.NAME, time, byoyomi, inc, nodes, ponder)"
                        ));
                    }
                },
            }
        }
        if cfg.cmd.is_empty() {
            return Err("an engine needs cmd=PROGRAM".into());
        }
        if cfg.name.is_empty() {
            let base = std::path::Path::new(&cfg.cmd)
                .file_stem()
                .map(|f| f.to_string_lossy().into_owned())
                .unwrap_or_else(|| cfg.cmd.clone());
            // An interpreter's name says little: name the engine after its script.
            let script = cfg.args.iter().find(|a| !a.starts_with('-'));
            cfg.name = match script {
                Some(a) if base.starts_with("python") || base == "sh" || base == "bash" => {
                    std::path::Path::new(a)
                        .file_stem()
                        .map(|f| f.to_string_lossy().into_owned())
                        .unwrap_or(base)
                }
                _ => base,
            };
        }
        Ok(cfg)
    }
}

/// A shared protocol log: every line sent and received, tagged with the engine.
pub struct ProtocolLog {
    file: Mutex<File>,
    start: Instant,
}

impl ProtocolLog {
    /// A log written to `file`.
    pub fn new(file: File) -> ProtocolLog {
        ProtocolLog {
            file: Mutex::new(file),
            start: Instant::now(),
        }
    }

    fn write(&self, tag: &str, dir: &str, line: &str) {
        if let Ok(mut f) = self.file.lock() {
            let t = self.start.elapsed().as_secs_f64();
            let _ = writeln!(f, "{t:10.3} {tag} {dir} {line}");
        }
    }
}

/// What the reader thread reports.
enum Event {
    Line(Instant, String),
    Eof,
}

/// Why a wait for an answer ended without it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum WaitError {
    /// The deadline passed.
    Timeout,
    /// The engine closed its output (it exited or crashed).
    Eof,
    /// The match is being shut down.
    Stopped,
}

/// Writing to the engine failed: it has gone.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Gone;

/// A running engine.
pub struct Engine {
    /// Its settings.
    pub config: EngineConfig,
    /// The `id name` it announced.
    pub id_name: Option<String>,
    /// The option names it announced (as sent).
    pub advertised: Vec<String>,
    child: Child,
    stdin: Option<ChildStdin>,
    rx: Receiver<Event>,
    tag: String,
    log: Option<Arc<ProtocolLog>>,
    alive: bool,
}

/// How long `usi` may take to be answered with `usiok`.
pub const USIOK_TIMEOUT: Duration = Duration::from_secs(10);

impl Engine {
    /// Spawns the engine and performs `usi`/`usiok`, then sends the `setoption` lines
    /// (`extra` first, the engine's own options after, so these win) and waits for `readyok`.
    /// An `extra` option flagged `true` is sent only if the engine announced it.
    pub fn start(
        config: &EngineConfig,
        tag: String,
        extra: &[(String, String, bool)],
        ready_timeout: Duration,
        log: Option<Arc<ProtocolLog>>,
        stop: &AtomicBool,
    ) -> Result<Engine, String> {
        let mut cmd = Command::new(&config.cmd);
        cmd.args(&config.args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped());
        match &config.stderr {
            Some(path) => {
                let f = std::fs::OpenOptions::new()
                    .create(true)
                    .append(true)
                    .open(path)
                    .map_err(|e| format!("cannot open {}: {e}", path.display()))?;
                cmd.stderr(f);
            }
            None => {
                cmd.stderr(Stdio::null());
            }
        }
        if let Some(dir) = &config.dir {
            cmd.current_dir(dir);
        }
        // Its own process group: a Ctrl-C at the terminal reaches the runner only, which then
        // records the games and ends the engines itself.
        #[cfg(unix)]
        {
            use std::os::unix::process::CommandExt;
            cmd.process_group(0);
        }
        let mut child = cmd
            .spawn()
            .map_err(|e| format!("cannot start '{}': {e}", config.cmd))?;
        let stdout = child.stdout.take().expect("piped stdout");
        let stdin = child.stdin.take();
        let (tx, rx) = channel();
        let reader_log = log.clone();
        let reader_tag = tag.clone();
        thread::Builder::new()
            .name(format!("read-{tag}"))
            .spawn(move || {
                let mut reader = BufReader::new(stdout);
                let mut buf = Vec::new();
                loop {
                    buf.clear();
                    match reader.read_until(b'\n', &mut buf) {
                        Ok(0) | Err(_) => break,
                        Ok(_) => {
                            let now = Instant::now();
                            let line = String::from_utf8_lossy(&buf).trim_end().to_string();
                            if let Some(l) = &reader_log {
                                l.write(&reader_tag, "<", &line);
                            }
                            if tx.send(Event::Line(now, line)).is_err() {
                                break;
                            }
                        }
                    }
                }
                if let Some(l) = &reader_log {
                    l.write(&reader_tag, "<", "(end of output)");
                }
                let _ = tx.send(Event::Eof);
            })
            .map_err(|e| format!("cannot start a reader thread: {e}"))?;
        let mut engine = Engine {
            config: config.clone(),
            id_name: None,
            advertised: Vec::new(),
            child,
            stdin,
            rx,
            tag,
            log,
            alive: true,
        };
        engine.handshake(extra, ready_timeout, stop)?;
        Ok(engine)
    }

    fn handshake(
        &mut self,
        extra: &[(String, String, bool)],
        ready_timeout: Duration,
        stop: &AtomicBool,
    ) -> Result<(), String> {
        let name = self.config.name.clone();
        self.send("usi")
            .map_err(|_| format!("{name}: cannot write to the engine"))?;
        let deadline = Instant::now() + USIOK_TIMEOUT;
        let mut id_name = None;
        let mut advertised = Vec::new();
        self.wait_for(deadline, stop, |line| {
            let mut w = line.split_whitespace();
            match (w.next(), w.next()) {
                (Some("id"), Some("name")) => {
                    id_name = Some(line.trim_start()[7..].trim().to_string());
                }
                (Some("option"), Some("name")) => {
                    if let Some(n) = w.next() {
                        advertised.push(n.to_string());
                    }
                }
                (Some("usiok"), _) => return true,
                _ => {}
            }
            false
        })
        .map_err(|e| format!("{name}: no usiok ({})", describe(e)))?;
        self.id_name = id_name;
        self.advertised = advertised;
        let ponder = (self.config.ponder && self.has_option("USI_Ponder"))
            .then(|| ("USI_Ponder".to_string(), "true".to_string()));
        let options: Vec<(String, String)> = extra
            .iter()
            .filter(|(k, _, only_if_known)| !only_if_known || self.has_option(k))
            .map(|(k, v, _)| (k.clone(), v.clone()))
            .chain(ponder)
            .chain(self.config.options.iter().cloned())
            .collect();
        for (k, v) in &options {
            self.send(&format!("setoption name {k} value {v}"))
                .map_err(|_| format!("{name}: cannot write to the engine"))?;
        }
        // An engine refuses a setting with `info string error: …` (a USI convention, not part of
        // the protocol proper); playing on would play with settings nobody asked for.
        self.send("isready")
            .map_err(|_| format!("{name}: cannot write to the engine"))?;
        let deadline = Instant::now() + ready_timeout;
        let mut refusals = Vec::new();
        self.wait_for(deadline, stop, |line| {
            if let Some(message) = refusal(line) {
                refusals.push(message.to_string());
            }
            line.trim() == "readyok"
        })
        .map_err(|e| format!("{name}: no readyok ({})", describe(e)))?;
        if refusals.is_empty() {
            return Ok(());
        }
        let sent: Vec<String> = options.iter().map(|(k, v)| format!("{k}={v}")).collect();
        Err(format!(
            "{name} refused its settings ({}): {}",
            sent.join(" "),
            refusals.join("; ")
        ))
    }

    /// Whether the engine announced an option of this name (case-insensitive).
    pub fn has_option(&self, name: &str) -> bool {
        self.advertised.iter().any(|o| o.eq_ignore_ascii_case(name))
    }

    /// Sends `isready` and waits for `readyok`, skipping anything else (stale output included).
    pub fn sync(&mut self, timeout: Duration, stop: &AtomicBool) -> Result<(), WaitError> {
        self.send("isready").map_err(|_| WaitError::Eof)?;
        let deadline = Instant::now() + timeout;
        self.wait_for(deadline, stop, |l| l.trim() == "readyok")
            .map(|_| ())
    }

    /// Writes one command line. An error means the engine has gone.
    pub fn send(&mut self, line: &str) -> Result<(), Gone> {
        if let Some(l) = &self.log {
            l.write(&self.tag, ">", line);
        }
        let Some(stdin) = self.stdin.as_mut() else {
            return Err(Gone);
        };
        let ok = writeln!(stdin, "{line}").and_then(|_| stdin.flush());
        if ok.is_err() {
            self.alive = false;
            return Err(Gone);
        }
        Ok(())
    }

    /// Reads lines until `accept` returns true for one (returned with its arrival time), the
    /// deadline passes, the engine's output ends, or `stop` is raised.
    pub fn wait_for(
        &mut self,
        deadline: Instant,
        stop: &AtomicBool,
        mut accept: impl FnMut(&str) -> bool,
    ) -> Result<(Instant, String), WaitError> {
        loop {
            if stop.load(Ordering::Relaxed) {
                return Err(WaitError::Stopped);
            }
            let now = Instant::now();
            if now >= deadline {
                return Err(WaitError::Timeout);
            }
            let slice = (deadline - now).min(Duration::from_millis(50));
            match self.rx.recv_timeout(slice) {
                Ok(Event::Line(t, line)) => {
                    if accept(&line) {
                        return Ok((t, line));
                    }
                }
                Ok(Event::Eof) | Err(RecvTimeoutError::Disconnected) => {
                    self.alive = false;
                    return Err(WaitError::Eof);
                }
                Err(RecvTimeoutError::Timeout) => {}
            }
        }
    }

    /// False once the engine is known to have gone (closed output or input).
    pub fn is_alive(&mut self) -> bool {
        if self.alive
            && let Ok(Some(_)) = self.child.try_wait()
        {
            self.alive = false;
        }
        self.alive
    }

    /// Marks the engine as unusable (it will be replaced before the next game).
    pub fn mark_broken(&mut self) {
        self.alive = false;
    }

    /// Asks the engine to quit, giving it `grace` to do so, then kills it.
    pub fn shutdown(&mut self, grace: Duration) {
        if self.alive {
            let _ = self.send("quit");
        }
        self.alive = false;
        self.stdin = None;
        let deadline = Instant::now() + grace;
        loop {
            match self.child.try_wait() {
                Ok(Some(_)) => return,
                Ok(None) if Instant::now() < deadline => thread::sleep(Duration::from_millis(10)),
                _ => break,
            }
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }

    /// Kills the engine at once.
    pub fn kill(&mut self) {
        self.shutdown(Duration::ZERO);
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        self.shutdown(Duration::from_millis(300));
    }
}

/// The message of an `info string error: …` line (how an engine refuses a command), if `line`
/// is one.
fn refusal(line: &str) -> Option<&str> {
    let rest = line.trim().strip_prefix("info")?.trim_start();
    let rest = rest.strip_prefix("string")?.trim_start();
    let message = rest.strip_prefix("error")?;
    if !message.is_empty() && !message.starts_with([':', ' ']) {
        return None;
    }
    Some(message.strip_prefix(':').unwrap_or(message).trim())
}

/// A short description of a failed wait.
pub fn describe(e: WaitError) -> &'static str {
    match e {
        WaitError::Timeout => "timed out",
        WaitError::Eof => "the engine exited",
        WaitError::Stopped => "interrupted",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(w: &[&str]) -> Vec<String> {
        w.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn parses_engine_specs() {
        let c = EngineConfig::parse(&words(&[
            "cmd=python3 -u fake.py",
            "arg=--after",
            "arg=2",
            "dir=/tmp",
            "option.USI_Hash=64",
            "option.Threads=1",
        ]))
        .unwrap();
        assert_eq!(c.cmd, "python3");
        assert_eq!(c.args, ["-u", "fake.py", "--after", "2"]);
        assert_eq!(c.name, "fake");
        assert_eq!(c.dir, Some(PathBuf::from("/tmp")));
        assert_eq!(
            c.options,
            [
                ("USI_Hash".to_string(), "64".to_string()),
                ("Threads".to_string(), "1".to_string())
            ]
        );
        let c =
            EngineConfig::parse(&words(&["cmd=/x/target/release/tsubame", "name=new"])).unwrap();
        assert_eq!(
            (c.cmd.as_str(), c.name.as_str()),
            ("/x/target/release/tsubame", "new")
        );
        let c = EngineConfig::parse(&words(&["cmd=engines/old.py"])).unwrap();
        assert_eq!(c.name, "old");
        assert!(c.clock.is_none());
        let c = EngineConfig::parse(&words(&["cmd=x", "byoyomi=600", "inc=5"])).unwrap();
        assert_eq!(
            c.clock,
            ClockOdds {
                time_ms: None,
                byoyomi_ms: Some(600),
                inc_ms: Some(5),
                nodes: None
            }
        );
        assert!(EngineConfig::parse(&words(&["cmd=x", "byoyomi=-1"])).is_err());
        let c = EngineConfig::parse(&words(&["cmd=x", "nodes=18000"])).unwrap();
        assert_eq!(c.clock.nodes, Some(18000));
        assert!(!c.clock.is_none());
        for bad in ["nodes=0", "nodes=-5", "nodes=many"] {
            assert!(
                EngineConfig::parse(&words(&["cmd=x", bad])).is_err(),
                "{bad}"
            );
        }
        assert!(
            EngineConfig::parse(&words(&["cmd=x", "ponder=on"]))
                .unwrap()
                .ponder
        );
        assert!(
            !EngineConfig::parse(&words(&["cmd=x", "ponder=off"]))
                .unwrap()
                .ponder
        );
        assert!(EngineConfig::parse(&words(&["cmd=x", "ponder=yes"])).is_err());
        assert!(EngineConfig::parse(&words(&["name=x"])).is_err());
        assert!(EngineConfig::parse(&words(&["cmd=x", "colour=red"])).is_err());
        assert!(EngineConfig::parse(&words(&["cmd=x", "oops"])).is_err());
    }

    #[test]
    fn refusals_are_recognised() {
        assert_eq!(
            refusal("info string error: Threads must be at least 1"),
            Some("Threads must be at least 1")
        );
        assert_eq!(refusal("  info  string error bad value"), Some("bad value"));
        assert_eq!(refusal("info string errors are fine"), None);
        assert_eq!(refusal("info string hash 64 MiB"), None);
        assert_eq!(refusal("info depth 1 score cp 0"), None);
    }
}
