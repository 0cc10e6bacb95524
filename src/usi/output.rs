//! Formatting of what the engine prints: `info` lines and `bestmove`.

use std::io::Write;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};

use crate::core::game::Position;
use crate::search::Report;
use crate::search::value::usi_score;

/// The engine's standard output, shared by the command loop and the search thread; each call
/// writes whole lines and flushes. It also notes when the running command has given its final
/// answer (`bestmove`, `checkmate`, the end of a perft), so that the command loop treats the
/// command as over from then on, even before its thread has ended.
#[derive(Clone)]
pub struct Output {
    writer: Arc<Mutex<Box<dyn Write + Send>>>,
    answered: Arc<AtomicBool>,
}

impl Output {
    /// Wraps a writer.
    pub fn new(w: Box<dyn Write + Send>) -> Output {
        Output {
            writer: Arc::new(Mutex::new(w)),
            answered: Arc::new(AtomicBool::new(false)),
        }
    }

    /// An output into memory, with the buffer it fills: for an engine whose answers are read in
    /// the same process (the tests).
    pub fn memory() -> (Output, Arc<Mutex<Vec<u8>>>) {
        /// Appends what is written to a shared buffer.
        struct Sink(Arc<Mutex<Vec<u8>>>);
        impl Write for Sink {
            fn write(&mut self, b: &[u8]) -> std::io::Result<usize> {
                self.0
                    .lock()
                    .unwrap_or_else(|e| e.into_inner())
                    .extend_from_slice(b);
                Ok(b.len())
            }
            fn flush(&mut self) -> std::io::Result<()> {
                Ok(())
            }
        }
        let buf = Arc::new(Mutex::new(Vec::new()));
        (Output::new(Box::new(Sink(Arc::clone(&buf)))), buf)
    }

    /// Writes one line and flushes. A closed output (the GUI has gone) is ignored.
    pub fn line(&self, text: &str) {
        let mut w = self.writer.lock().unwrap_or_else(|e| e.into_inner());
        let _ = writeln!(w, "{text}");
        let _ = w.flush();
    }

    /// Writes the final answer of a command, noting first that it has been given (so that
    /// whoever reads it finds the command over).
    pub fn answer(&self, text: &str) {
        self.answered.store(true, Ordering::SeqCst);
        self.line(text);
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
pub fn info_line<P: Position>(pos: &P, r: &Report<P::Move>) -> String {
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
