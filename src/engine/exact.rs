//! Games played from their exact table (the games whose registry entry has an
//! [`ExactInfo`](crate::games::info::ExactInfo)): `go` answers at once with the exact value, `go
//! mate` from the table.

use std::sync::Arc;
use std::sync::atomic::Ordering;
use std::time::Duration;

use super::events::{Best, Event, Events, Info, MateOutcome, Score};
use crate::core::job::{self, Job};
use crate::games::info::{ExactTable, ExactValue};
use crate::games::{AnyTable, Game, GameId};
use crate::search::Shared;

/// The longest principal variation given for a drawn position.
const DRAW_PV_PLIES: usize = 8;

/// One game's table in use and the option value it came from.
#[derive(Default, Clone)]
struct Slot {
    /// The loaded table, if any.
    table: Option<AnyTable>,
    /// The option's value last acted on.
    path: String,
}

/// The exact tables in use, one slot per game.
#[derive(Default, Clone)]
pub struct ExactTables {
    slots: [Slot; GameId::ALL.len()],
}

impl ExactTables {
    /// The table of `game`, if one is loaded.
    pub fn get(&self, game: GameId) -> Option<AnyTable> {
        self.slots[game as usize].table.clone()
    }

    /// Uses `table`, already loaded from `path`, as `game`'s: a server that loaded a table once
    /// shares it among its sessions' engines.
    pub fn share(&mut self, game: GameId, path: &str, table: AnyTable) {
        self.slots[game as usize] = Slot {
            table: Some(table),
            path: path.to_string(),
        };
    }

    /// Loads the table of `game` that its option names when the value changed; an empty value
    /// means no table (building one takes minutes, so the engine then plays by search). Returns
    /// the error to report.
    pub fn update(&mut self, game: GameId, path: &str) -> Result<(), String> {
        let Some(info) = game.info().exact else {
            return Ok(());
        };
        let slot = &mut self.slots[game as usize];
        if path == slot.path {
            return Ok(());
        }
        slot.path = path.to_string();
        slot.table = None;
        if path.is_empty() {
            return Ok(());
        }
        let table = (info.load)(std::path::Path::new(path))
            .map_err(|e| format!("{} '{path}' refused: {e}; playing by search", info.option))?;
        slot.table = Some(table);
        Ok(())
    }
}

/// The score of an exact value.
fn score(value: ExactValue) -> Score {
    match value {
        ExactValue::Win(d) => Score::Mate(d as i32),
        ExactValue::Loss(d) => Score::Mate(-(d as i32)),
        ExactValue::Draw => Score::Cp(0),
    }
}

/// The moves of the table's best line from `pos`, in the game's notation.
fn line_text<G: Game>(tb: &dyn ExactTable<G>, pos: &G, value: ExactValue) -> Vec<String> {
    let plies = match value {
        ExactValue::Draw => DRAW_PV_PLIES,
        v => v.distance() as usize,
    };
    let mut p = pos.clone();
    tb.line(pos, plies)
        .into_iter()
        .map(|mv| {
            let s = p.move_to_usi(mv);
            p.play(mv);
            s
        })
        .collect()
}

/// The answer to `go mate` from the table: the mating line when the side to move wins, else no
/// mate; `None` when the table does not hold the position.
pub fn mate_answer<G: Game>(table: &AnyTable, pos: &G) -> Option<MateOutcome> {
    let tb = G::exact_table(table)?;
    Some(match tb.probe(pos)? {
        v @ ExactValue::Win(_) => MateOutcome::Mate(line_text(tb, pos, v)),
        _ => MateOutcome::NoMate,
    })
}

/// Answers `go` from the table on a thread of its own: one report with the exact score and line,
/// then the best move — at once, or at `stop`/`ponderhit` for `go infinite` and `go ponder`
/// (at once where there are no threads: [`job::INLINE`]).
/// `None` when the table does not hold the position (the caller then searches).
pub fn spawn_go<G: Game>(
    table: AnyTable,
    pos: &G,
    shared: Arc<Shared>,
    events: Events,
) -> Option<std::io::Result<Job>> {
    let pos = pos.clone();
    let value = G::exact_table(&table)?.probe(&pos)?;
    Some(job::start("exact-table", None, move || {
        let tb = G::exact_table(&table).expect("checked before the thread started");
        let best = tb.best_move(&pos);
        let pv = line_text(tb, &pos, value);
        if best.is_some() {
            let depth = value.distance().max(1) as i32;
            events.emit(Event::Info(Info {
                depth,
                seldepth: depth as usize,
                multipv: Some(1),
                score: score(value),
                bound: None,
                nodes: pv.len() as u64,
                nps: Some(0),
                hashfull: Some(0),
                time_ms: 0,
                pv: pv.clone(),
            }));
        }
        while !job::INLINE
            && shared.pondering.load(Ordering::SeqCst)
            && !shared.stop.load(Ordering::SeqCst)
        {
            std::thread::sleep(Duration::from_millis(1));
        }
        events.emit(match best {
            None => Event::BestMove {
                best: Best::Resign,
                ponder: None,
            },
            Some(mv) => Event::BestMove {
                best: Best::Move(pos.move_to_usi(mv)),
                ponder: pv.get(1).cloned(),
            },
        });
    }))
}
