//! The USI protocol: a thin adapter between text and the [`crate::engine`]. A command loop fed by
//! an input thread turns each line into engine calls; the engine's events come back as USI lines.
//!
//! Every problem with input is answered with `info string error: …`; the last good state is kept.
//! `stop`, `ponderhit`, `isready` and `quit` are served while a search, a mate search or a perft
//! runs. Words are separated by any ASCII whitespace (spaces, tabs) in every command. A line that
//! is not valid UTF-8 is answered with an error and ignored. Extra words after a command that
//! takes none are reported, and the command is still carried out.
//!
//! At the end of input the running command finishes within its own limits and prints its answer
//! before the engine exits (see [`Usi::end_of_input`]); `quit` exits at once.

mod go;
pub mod options;
pub mod output;

use std::io::BufRead;
use std::sync::mpsc;

use crate::core::search_params;
use crate::core::text::excerpt;
use crate::engine::record::position_args;
use crate::engine::{ENGINE_NAME, Engine, Event, Events, SetResult};
pub use go::KEYWORDS as GO_KEYWORDS;
pub use output::Output;

/// The USI face of an engine: reads commands, calls the engine, prints its events.
pub struct Usi {
    engine: Engine,
    out: Output,
    /// The last `position` was refused (the engine kept the one before it) or cut short at an
    /// illegal move: the next `go` says which position it answers for.
    position_refused: bool,
}

impl Usi {
    /// A new engine writing to `out`, playing the default game from the start. No table is
    /// allocated yet (so that `usi` is answered at once).
    pub fn new(out: Output) -> Usi {
        let printer = out.clone();
        let events = Events::new(move |e: Event| printer.event(&e));
        Usi {
            engine: Engine::new(events),
            out,
            position_refused: false,
        }
    }

    /// The engine behind the loop.
    pub fn engine(&self) -> &Engine {
        &self.engine
    }

    /// The same, to call it directly (a server sharing a table among its engines).
    pub fn engine_mut(&mut self) -> &mut Engine {
        &mut self.engine
    }

    fn say(&self, line: &str) {
        self.out.line(line);
    }

    /// Reports a problem; the text is cut short and escaped where it echoes input.
    fn error(&self, what: &str) {
        self.out.event(&Event::Error(what.to_string()));
    }

    /// At the end of input: lets the running command finish within its own limits and print its
    /// answer, and returns when it has ([`Engine::wait`]).
    pub fn end_of_input(&mut self) {
        self.engine.wait();
    }

    /// True while a search, a mate search or a perft runs and has not answered.
    pub fn searching(&self) -> bool {
        self.engine.searching()
    }

    /// Says that `cmd` ends the search that is running (it answers with its move now), so that a
    /// GUI user can tell why the move came early.
    fn interrupts(&self, cmd: &str) {
        if self.engine.searching() {
            self.say(&format!(
                "info string '{cmd}' came during a search: the search stops and gives its move now"
            ));
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

    /// Handles one command line given as bytes (without its line end): a line that is not valid
    /// UTF-8 is answered with an error and ignored. Returns false when the engine should quit.
    pub fn handle_bytes(&mut self, line: &[u8]) -> bool {
        match std::str::from_utf8(line) {
            Ok(line) => self.handle(line),
            Err(_) => {
                self.not_utf8(&String::from_utf8_lossy(line));
                true
            }
        }
    }

    /// Reports a line that is not valid UTF-8 (`text`, with the bad bytes replaced).
    fn not_utf8(&self, text: &str) {
        self.error(&format!(
            "the line '{}' is not valid UTF-8; ignored",
            excerpt(text, 100)
        ));
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
                self.engine.ready();
                self.say("readyok");
            }
            "usi_tunables" => {
                self.no_arguments(cmd, rest);
                let defaults = self.engine.game().default_params();
                self.say(&format!(
                    "info string shogiarena_tunables_json {}",
                    search_params::shogiarena_manifest(&defaults)
                ));
                self.say("usi_tunablesok");
            }
            "usinewgame" => {
                self.no_arguments(cmd, rest);
                self.interrupts(cmd);
                self.engine.new_game();
            }
            "setoption" => self.setoption(rest),
            "position" => {
                self.interrupts(cmd);
                self.engine.finish();
                let result = position_args(rest).and_then(|(start, moves)| {
                    self.engine
                        .set_position(&start, &moves)
                        .map_err(|e| e.to_string())
                });
                self.position_refused = result.is_err();
                if let Err(e) = result {
                    self.error(&e);
                }
            }
            "go" => self.go(rest),
            "stop" => {
                self.no_arguments(cmd, rest);
                self.engine.stop();
            }
            "ponderhit" => {
                for problem in go::ponderhit_problems(rest) {
                    self.error(&problem);
                }
                let clock = match go::parse(rest) {
                    Ok((p, _)) if p.has_clock() => Some(p),
                    _ => None,
                };
                self.engine.ponderhit(clock);
            }
            "gameover" => {
                if let Err(e) = gameover_result(rest) {
                    self.error(&e);
                }
                self.engine.game_over();
            }
            "help" => {
                self.no_arguments(cmd, rest);
                for l in HELP {
                    self.say(l);
                }
            }
            "d" => {
                self.no_arguments(cmd, rest);
                for l in self.engine.describe().lines() {
                    self.say(l);
                }
            }
            "bench" => {
                self.no_arguments(cmd, rest);
                self.engine.finish();
                let out = self.out.clone();
                crate::engine::bench::run(None, &|l: &str| out.line(l));
            }
            "quit" => {
                self.no_arguments(cmd, rest);
                self.engine.finish();
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
        self.say(&format!("info string {}", crate::core::cpu::describe()));
        let game = self.engine.game();
        for l in options::declarations(game) {
            self.say(&l);
        }
        for l in options::tuning_declarations(game, self.engine.options().tuning) {
            self.say(&l);
        }
        self.say("usiok");
    }

    fn setoption(&mut self, rest: &str) {
        let Some((name, value)) = setoption_words(rest) else {
            self.error("setoption needs 'name <id> [value <x>]'");
            return;
        };
        if Engine::option_ends_search(&name) {
            self.interrupts("setoption name USI_Variant");
        }
        match self.engine.set_option(&name, value) {
            Ok(SetResult::Set) => {}
            Ok(SetResult::Unknown) => self.error(&format!(
                "unknown option '{}' ignored ('usi' lists the options)",
                excerpt(&name, 100)
            )),
            Err(e) => self.error(&e.to_string()),
        }
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
        if self.position_refused {
            self.say(&format!(
                "info string the last 'position' was not taken as sent (the error above): \
                 this answers for sfen {}",
                self.engine.sfen()
            ));
        }
        self.interrupts("go");
        self.engine.go(params);
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

/// Runs the USI loop on `input` until `quit` or end of input, writing to `out`. Input is read on
/// its own thread so that commands reach the engine while it searches. At the end of input the
/// running command still finishes and answers ([`Usi::end_of_input`]).
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
    let mut engine = Usi::new(out.clone());
    let mut quit = false;
    for line in rx {
        let line = match line {
            Ok(line) => line,
            Err(text) => {
                engine.not_utf8(&text);
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
    use crate::engine::tables::Use;
    use std::sync::{Arc, Mutex};

    /// An engine writing into a buffer.
    fn engine() -> (Usi, Arc<Mutex<Vec<u8>>>) {
        let (out, buf) = Output::memory();
        (Usi::new(out), buf)
    }

    #[test]
    fn tables_are_allocated_at_isready_not_before_usi() {
        let (mut e, buf) = engine();
        assert_eq!(e.engine().tables_made(), None);
        e.handle("usi");
        assert_eq!(e.engine().tables_made(), None);
        assert!(String::from_utf8_lossy(&buf.lock().unwrap()).ends_with("usiok\n"));
        e.handle("isready");
        assert_eq!(e.engine().tables_made(), Some((Use::Search, 64)));
    }

    #[test]
    fn the_first_go_allocates_when_no_isready_came() {
        let (mut e, buf) = engine();
        e.handle("go depth 1");
        e.end_of_input();
        assert_eq!(e.engine().tables_made(), Some((Use::Search, 64)));
        e.handle("position sfen 4k4/9/4P4/9/9/9/9/9/9 b G2r2b3g4s4n4l17p 1");
        e.handle("go mate 10000");
        e.end_of_input();
        assert_eq!(e.engine().tables_made(), Some((Use::Mate, 64)));
        let text = String::from_utf8_lossy(&buf.lock().unwrap()).into_owned();
        assert!(text.contains("checkmate G*5b"), "{text}");
    }

    #[test]
    fn a_bad_position_line_keeps_the_position() {
        let (mut u, _) = engine();
        u.handle("position startpos moves 7g7f");
        let after = u.engine().sfen();
        let sfen = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1";
        u.handle(&format!("position sfen {sfen} moves7g7f"));
        assert_eq!(u.engine().sfen(), after, "position kept");
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
