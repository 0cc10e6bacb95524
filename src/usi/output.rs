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
