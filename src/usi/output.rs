//! What the USI loop prints: the engine's events as USI lines, written whole to its output.

use std::io::Write;
use std::sync::{Arc, Mutex};

use crate::core::text::excerpt;
use crate::engine::{Best, Bound, Event, Info, MateOutcome, MateProgress, PerftEnd, Score};

/// The engine's standard output, shared by the command loop and the search threads; each call
/// writes whole lines and flushes.
#[derive(Clone)]
pub struct Output {
    writer: Arc<Mutex<Box<dyn Write + Send>>>,
}

impl Output {
    /// Wraps a writer.
    pub fn new(w: Box<dyn Write + Send>) -> Output {
        Output {
            writer: Arc::new(Mutex::new(w)),
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

    /// Writes the lines of one event together and flushes.
    pub fn event(&self, event: &Event) {
        let mut w = self.writer.lock().unwrap_or_else(|e| e.into_inner());
        for line in event_lines(event) {
            let _ = writeln!(w, "{line}");
        }
        let _ = w.flush();
    }
}

/// The USI text of an engine event: its lines.
pub fn event_lines(event: &Event) -> Vec<String> {
    match event {
        Event::Info(i) => vec![info_line(i)],
        Event::BestMove { best, ponder } => {
            let best = match best {
                Best::Move(m) => m.as_str(),
                Best::Resign => "resign",
                Best::Win => "win",
            };
            vec![match ponder {
                Some(p) => format!("bestmove {best} ponder {p}"),
                None => format!("bestmove {best}"),
            }]
        }
        Event::MateProgress(p) => mate_progress_lines(p).to_vec(),
        Event::Mate(outcome) => vec![match outcome {
            MateOutcome::Mate(line) => format!("checkmate {}", line.join(" ")),
            MateOutcome::NoMate => "checkmate nomate".into(),
            MateOutcome::Timeout => "checkmate timeout".into(),
        }],
        Event::PerftMove { mv, count } => vec![format!("{mv}: {count}")],
        Event::Perft(PerftEnd::Done(total)) => vec![format!("Nodes searched: {total}")],
        Event::Perft(PerftEnd::Stopped {
            depth,
            counted,
            moves,
            leaves,
        }) => vec![format!(
            "info string perft {depth} stopped: {counted} of {moves} root moves counted, \
             {leaves} nodes below them; no total"
        )],
        Event::Note(text) => vec![format!("info string {text}")],
        Event::Error(text) => vec![format!("info string error: {}", excerpt(text, 400))],
        Event::KeepAlive => vec![String::new()],
    }
}

/// The USI score text: `cp X` or `mate N` (plies, negative when being mated).
pub fn score_text(score: Score) -> String {
    match score {
        Score::Cp(v) => format!("cp {v}"),
        Score::Mate(n) if n < 0 => format!("mate -{}", -n),
        Score::Mate(n) => format!("mate {n}"),
    }
}

/// The `info` line of a search report. The fields an answer leaves out are left out of the line.
pub fn info_line(i: &Info) -> String {
    let mut line = format!("info depth {} seldepth {}", i.depth, i.seldepth);
    if let Some(m) = i.multipv {
        line.push_str(&format!(" multipv {m}"));
    }
    line.push_str(&format!(" score {}", score_text(i.score)));
    match i.bound {
        Some(Bound::Lower) => line.push_str(" lowerbound"),
        Some(Bound::Upper) => line.push_str(" upperbound"),
        None => {}
    }
    line.push_str(&format!(" nodes {}", i.nodes));
    if let Some(nps) = i.nps {
        line.push_str(&format!(" nps {nps}"));
    }
    if let Some(h) = i.hashfull {
        line.push_str(&format!(" hashfull {h}"));
    }
    line.push_str(&format!(" time {} pv {}", i.time_ms, i.pv.join(" ")));
    line
}

/// A mate search's progress report as two USI lines: `info time … nodes … nps … hashfull …` with
/// the line being searched as its `pv`, then `info string root pn … dn …`.
pub fn mate_progress_lines(i: &MateProgress) -> [String; 2] {
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
