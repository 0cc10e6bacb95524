//! Nana shogi played from the solved table (option `NanaTablebase`): `go` answers at once with the
//! exact value, `go mate` from the table.

use std::sync::Arc;
use std::sync::atomic::Ordering;
use std::thread::JoinHandle;
use std::time::Duration;

use super::Output;
use crate::core::game::Position;
use crate::games::nana::Nana;
use crate::games::nana::tablebase::{Tablebase, TbValue};
use crate::search::Shared;

/// The longest principal variation printed for a drawn position.
const DRAW_PV_PLIES: usize = 8;

/// The table in use and the option value it came from.
#[derive(Default)]
pub struct NanaTable {
    /// The loaded table, if any.
    pub table: Option<Arc<Tablebase>>,
    /// The `NanaTablebase` value last acted on.
    pub path: String,
}

impl NanaTable {
    /// Loads the table named by the option when it changed; an empty value means no table (a build
    /// in memory takes minutes, so the engine then plays by search). Returns the error to report.
    pub fn update(&mut self, path: &str) -> Result<(), String> {
        if path == self.path {
            return Ok(());
        }
        self.path = path.to_string();
        self.table = None;
        if path.is_empty() {
            return Ok(());
        }
        let tb = Tablebase::load(std::path::Path::new(path))
            .map_err(|e| format!("NanaTablebase '{path}' refused: {e}; playing by search"))?;
        self.table = Some(Arc::new(tb));
        Ok(())
    }
}

/// The moves of the table's best line from `pos`, as USI text.
fn pv_text(tb: &Tablebase, pos: &Nana, value: TbValue) -> Vec<String> {
    let plies = match value {
        TbValue::Draw => DRAW_PV_PLIES,
        v => v.distance() as usize,
    };
    let mut p = pos.clone();
    tb.pv(pos, plies)
        .into_iter()
        .map(|mv| {
            let s = p.move_to_usi(mv);
            p.play(mv);
            s
        })
        .collect()
}

/// The answer to `go mate` from the table: the mating line when the side to move wins, else
/// `nomate`; `None` when the table does not hold the position.
pub fn mate_answer(tb: &Tablebase, pos: &Nana) -> Option<String> {
    Some(match tb.probe(pos)? {
        v @ TbValue::Win(_) => format!("checkmate {}", pv_text(tb, pos, v).join(" ")),
        _ => "checkmate nomate".into(),
    })
}

/// Answers `go` from the table on a thread of its own: one `info` line with the exact score and
/// line, then `bestmove` — at once, or at `stop`/`ponderhit` for `go infinite` and `go ponder`.
/// `None` when the table does not hold the position (the caller then searches).
pub fn spawn_go(
    tb: Arc<Tablebase>,
    pos: &Nana,
    shared: Arc<Shared>,
    out: Output,
) -> Option<std::io::Result<JoinHandle<()>>> {
    let pos = pos.clone();
    let value = tb.probe(&pos)?;
    Some(
        std::thread::Builder::new()
            .name("nana-table".into())
            .spawn(move || {
                let best = tb.best_move(&pos);
                let pv = pv_text(&tb, &pos, value);
                if best.is_some() {
                    let depth = value.distance().max(1);
                    out.line(&format!(
                        "info depth {depth} seldepth {depth} multipv 1 score {} nodes {} nps 0 \
                         hashfull 0 time 0 pv {}",
                        value.usi_score(),
                        pv.len(),
                        pv.join(" ")
                    ));
                }
                while shared.pondering.load(Ordering::SeqCst) && !shared.stop.load(Ordering::SeqCst)
                {
                    std::thread::sleep(Duration::from_millis(1));
                }
                out.answer(&match best {
                    None => "bestmove resign".to_string(),
                    Some((mv, _)) => match pv.get(1) {
                        Some(p) => format!("bestmove {} ponder {p}", pos.move_to_usi(mv)),
                        None => format!("bestmove {}", pos.move_to_usi(mv)),
                    },
                });
            }),
    )
}
