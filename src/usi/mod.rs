//! The USI protocol loop: reads commands, keeps the current game and position, answers on the output.
//!
//! Every problem with input is answered with `info string error: …`; the last good state is kept.

mod session;

use std::io::{BufRead, Write};

use crate::core::game::Position;
use crate::core::perft::divide;
use crate::games::minishogi::Minishogi;
use crate::games::shogi::Shogi;
pub use session::Session;

/// The game being played, chosen at run time by `USI_Variant`.
pub enum AnyGame {
    /// Standard shogi.
    Shogi(Session<Shogi>),
    /// Minishogi.
    Minishogi(Session<Minishogi>),
}

/// Runs `$body` with `$s` bound to the session of whichever game is selected.
macro_rules! with_session {
    ($game:expr, $s:ident => $body:expr) => {
        match $game {
            AnyGame::Shogi($s) => $body,
            AnyGame::Minishogi($s) => $body,
        }
    };
}

impl AnyGame {
    /// A fresh session of the game named `name` (as `USI_Variant` accepts it), at its start position.
    pub fn by_name(name: &str) -> Option<AnyGame> {
        match name.to_ascii_lowercase().as_str() {
            "shogi" => Some(AnyGame::Shogi(Session::new())),
            "minishogi" => Some(AnyGame::Minishogi(Session::new())),
            _ => None,
        }
    }

    /// The game's `USI_Variant` name.
    pub fn name(&self) -> &'static str {
        with_session!(self, _s => name_of(_s))
    }
}

fn name_of<P: Position>(_: &Session<P>) -> &'static str {
    P::NAME
}

/// Engine name and version for `id name`.
pub const ENGINE_NAME: &str = concat!("tsubame ", env!("CARGO_PKG_VERSION"));

/// The USI engine state: options and the current game.
pub struct Engine<W: Write> {
    out: W,
    game: AnyGame,
}

impl<W: Write> Engine<W> {
    /// A new engine writing to `out`, playing standard shogi from the start.
    pub fn new(out: W) -> Engine<W> {
        Engine {
            out,
            game: AnyGame::Shogi(Session::new()),
        }
    }

    fn say(&mut self, line: &str) {
        // A closed output means the GUI is gone; there is nobody left to tell.
        let _ = writeln!(self.out, "{line}");
        let _ = self.out.flush();
    }

    fn error(&mut self, what: &str) {
        self.say(&format!("info string error: {what}"));
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
            "isready" => self.say("readyok"),
            "usinewgame" => {}
            "setoption" => self.setoption(rest),
            "position" => self.position(rest),
            "go" => self.go(rest),
            "d" => {
                let text = with_session!(&self.game, s => s.describe());
                self.say(&text);
            }
            "stop" | "ponderhit" | "gameover" => {}
            "quit" => return false,
            _ => self.error(&format!("unknown command '{cmd}'; the line was ignored")),
        }
        true
    }

    fn usi(&mut self) {
        self.say(&format!("id name {ENGINE_NAME}"));
        self.say("id author the tsubame developers");
        self.say(
            "option name USI_Variant type combo default shogi var shogi var minishogi var nanashogi",
        );
        self.say("usiok");
    }

    fn setoption(&mut self, rest: &str) {
        let Some(rest) = rest.strip_prefix("name ") else {
            self.error("setoption needs 'name <id> [value <x>]'");
            return;
        };
        let (name, value) = match rest.split_once(" value ") {
            Some((n, v)) => (n.trim(), Some(v.trim())),
            None => (rest.trim(), None),
        };
        match name.to_ascii_lowercase().as_str() {
            "usi_variant" | "uci_variant" => {
                let v = value.unwrap_or("");
                let v = if v.eq_ignore_ascii_case("nana") {
                    "nanashogi"
                } else {
                    v
                };
                match AnyGame::by_name(v) {
                    Some(g) => self.game = g,
                    None => self.error(&format!(
                        "unknown USI_Variant '{v}' (shogi, minishogi, nanashogi); kept {}",
                        self.game.name()
                    )),
                }
            }
            _ => self.say(&format!("info string unknown option '{name}' ignored")),
        }
    }

    fn position(&mut self, rest: &str) {
        let result = with_session!(&mut self.game, s => s.set_position(rest));
        if let Err(e) = result {
            self.error(&e);
        }
    }

    fn go(&mut self, rest: &str) {
        let mut words = rest.split_whitespace();
        if words.next() == Some("perft") {
            let Some(depth) = words.next().and_then(|d| d.parse::<u32>().ok()) else {
                self.error("go perft needs a depth (a whole number)");
                return;
            };
            let lines = with_session!(&self.game, s => perft_lines(s.position(), depth));
            for l in lines {
                self.say(&l);
            }
            return;
        }
        // The search is not built yet: answer with the first legal move so the protocol holds.
        let best = with_session!(&self.game, s => s.first_legal_move());
        self.say("info string search not implemented yet; playing the first legal move");
        self.say(&format!(
            "bestmove {}",
            best.unwrap_or_else(|| "resign".into())
        ));
    }
}

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

/// Runs the USI loop on `input` until `quit` or end of input.
pub fn run<R: BufRead, W: Write>(input: R, out: W) {
    let mut engine = Engine::new(out);
    for line in input.lines() {
        let Ok(line) = line else { break };
        if !engine.handle(&line) {
            break;
        }
    }
}
