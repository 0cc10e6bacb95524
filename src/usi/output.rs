//! Formatting of what the engine prints: `info` lines and `bestmove`.

use std::io::Write;
use std::sync::{Arc, Mutex};

use crate::core::game::Position;
use crate::search::Report;
use crate::search::value::usi_score;

/// The engine's standard output, shared by the command loop and the search thread; each call
/// writes whole lines and flushes.
#[derive(Clone)]
pub struct Output(Arc<Mutex<Box<dyn Write + Send>>>);

impl Output {
    /// Wraps a writer.
    pub fn new(w: Box<dyn Write + Send>) -> Output {
        Output(Arc::new(Mutex::new(w)))
    }

    /// Writes one line and flushes. A closed output (the GUI has gone) is ignored.
    pub fn line(&self, text: &str) {
        let mut w = self.0.lock().unwrap_or_else(|e| e.into_inner());
        let _ = writeln!(w, "{text}");
        let _ = w.flush();
    }
}

/// Input text as it may be echoed in a reply: at most `max` characters (then `...`), every
/// character outside printable ASCII escaped (`\u{ff}`), so that a reply is always one short line
/// of ASCII whatever was sent.
pub fn excerpt(text: &str, max: usize) -> String {
    let mut out = String::new();
    for (i, c) in text.chars().enumerate() {
        if i == max {
            out.push_str("...");
            break;
        }
        if c == ' ' || c.is_ascii_graphic() {
            out.push(c);
        } else {
            out.extend(c.escape_default());
        }
    }
    out
}

/// The `info` line of a search report; moves are written by `pos` (the root).
pub fn info_line<P: Position>(pos: &P, r: &Report) -> String {
    let nps = r.nodes * 1000 / r.time_ms.max(1);
    let bound = match r.bound {
        Some(true) => " lowerbound",
        Some(false) => " upperbound",
        None => "",
    };
    let pv: Vec<String> = r.pv.iter().map(|&m| pos.move_to_usi(m)).collect();
    format!(
        "info depth {} seldepth {} multipv {} score {}{bound} nodes {} nps {nps} hashfull {} time {} pv {}",
        r.depth,
        r.seldepth,
        r.multipv,
        usi_score(r.score),
        r.nodes,
        r.hashfull,
        r.time_ms,
        pv.join(" ")
    )
}

#[cfg(test)]
mod tests {
    use super::excerpt;

    #[test]
    fn excerpts_are_short_printable_ascii() {
        assert_eq!(excerpt("hello", 100), "hello");
        assert_eq!(
            excerpt(&"x".repeat(1_000_000), 100),
            format!("{}...", "x".repeat(100))
        );
        assert_eq!(
            excerpt("a\u{1}\u{ff}\u{fffd}\tb", 100),
            "a\\u{1}\\u{ff}\\u{fffd}\\tb"
        );
    }
}
