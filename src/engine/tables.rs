//! The engine's hash tables within the one memory budget `USI_Hash` gives.
//!
//! `USI_Hash` MiB is all the table memory the engine uses, whatever it does:
//! - for searches (`go`), the search table takes the budget less a share of 1/16 (at most 16 MiB,
//!   nothing below 16 MiB), and that share is the mate table with which the exact line of a mate
//!   the search found is read;
//! - for `go mate`, the mate table takes the whole budget and the search table is freed.
//!
//! Tables are allocated when first needed (at `isready`, or at the first `go` if no `isready` came;
//! `usi` allocates nothing) and again when the budget or the use changes. Tables are mapped as zero
//! pages the system fills on first use (see [`crate::core::zeroed`]), so making one is immediate;
//! the old tables are released (on a helper thread, so that unmapping them does not hold up
//! `stop`) before the new ones are used, so the memory in use stays within the budget. Allocation
//! is fallible: a size that cannot be had is reported and the last good size kept.
//!
//! `isready` ([`Tables::ready`]) also has the system supply every page of the tables, as the
//! GUI waits for `readyok` anyway: a search that met fresh pages would pay for them node by node
//! (up to 2 ms per large page on a slow system, most of its first nodes on a large table). The
//! first `isready` after a game that used the search table empties it, as a new game's table is
//! empty; `usinewgame` empties it at once, without waiting for pages, if no `isready` did.

use std::sync::{Arc, Mutex};

use crate::mate::table::Table;
use crate::search::HistoryPool;
use crate::search::tt::TranspositionTable;

/// What the tables are laid out for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Use {
    /// Searches: the search table and the small mate table for mate lines.
    Search,
    /// `go mate`: one mate table of the whole budget.
    Mate,
}

/// The tables in use.
pub struct Tables {
    /// The use and the budget (MiB) the current tables were made for; `None` before the first
    /// allocation (and after a failed one).
    made: Option<(Use, usize)>,
    /// The search table (the smallest possible while the budget is the mate table's).
    pub tt: Arc<TranspositionTable>,
    /// The mate table: the share of the budget for searches, all of it for `go mate`.
    pub mate: Arc<Mutex<Table>>,
    /// The search threads' history tables, kept from one search to the next and emptied with
    /// the search table (a new game).
    pub histories: Arc<HistoryPool>,
    /// Whether a search has used the search table since it was made or emptied.
    used: bool,
    /// Whether a game ended (`gameover`) after the table was used: the next `isready` empties it.
    renew_due: bool,
    /// Whether the system has supplied every page of the current tables.
    faulted_in: bool,
}

/// The mate table's share of a search budget of `mib` MiB.
pub fn mate_share_mib(mib: usize) -> usize {
    (mib / 16).min(16)
}

/// The smallest tables (about a kilobyte), held where a table is needed but none is allocated.
fn minimal() -> (Arc<TranspositionTable>, Arc<Mutex<Table>>) {
    (
        Arc::new(TranspositionTable::try_new(0).expect("a one-bucket table")),
        Arc::new(Mutex::new(Table::try_new(0).expect("a one-bucket table"))),
    )
}

/// Frees `tables` on a helper thread: unmapping a large table whose pages were used takes a
/// while, and the command loop must go on reading `stop`. (The new tables are untouched zero
/// pages, so the memory in use does not grow meanwhile.) Should the thread not start, or where
/// there are no threads, they are freed here.
fn drop_in_background<T: Send + 'static>(tables: T) {
    let _ = crate::core::job::start("free-tables", None, move || drop(tables));
}

impl Default for Tables {
    fn default() -> Self {
        let (tt, mate) = minimal();
        Tables {
            made: None,
            tt,
            mate,
            histories: Arc::default(),
            used: false,
            renew_due: false,
            faulted_in: false,
        }
    }
}

impl Tables {
    /// The use and budget of the current tables, if any are allocated.
    pub fn made(&self) -> Option<(Use, usize)> {
        self.made
    }

    /// Empties the search table for a new game: an empty table of the same size (made at once)
    /// replaces it, and the old one is freed on a helper thread, so that neither writing nor
    /// freeing a large table holds up the commands that follow.
    pub fn renew_search_table(&mut self) {
        match self.tt.emptied() {
            Ok(fresh) => {
                drop_in_background(std::mem::replace(&mut self.tt, Arc::new(fresh)));
                self.faulted_in = false;
            }
            Err(_) => self.tt.clear(),
        }
        self.histories.clear();
        self.used = false;
        self.renew_due = false;
    }

    /// Notes that a search is about to use the search table.
    pub fn mark_used(&mut self) {
        self.used = true;
    }

    /// Notes that a game ended: if it used the search table, the next `isready` empties it.
    pub fn game_over(&mut self) {
        self.renew_due |= self.used;
    }

    /// For `usinewgame`: empties the search table at once, unless no search used it since it was made
    /// or emptied (the usual case, as `isready` comes first).
    pub fn new_game(&mut self) {
        if self.made.is_some() && self.used {
            self.renew_search_table();
        }
    }

    /// Whether the tables are already as [`Tables::prepare`] (or, with `ready`, [`Tables::ready`])
    /// would leave them for `what` within `mib` MiB.
    pub fn settled(&self, what: Use, mib: usize, ready: bool) -> bool {
        self.made == Some((what, mib)) && (!ready || (!self.renew_due && self.faulted_in))
    }

    /// For `isready`: makes the tables for `what` within `mib` MiB as [`Tables::prepare`] does,
    /// empties the search table if a game ended since it was used, and has the system supply every
    /// page (on all cores), so that searches find them in memory.
    pub fn ready(&mut self, what: Use, mib: usize) -> Result<(), String> {
        self.prepare(what, mib)?;
        if self.renew_due {
            self.renew_search_table();
        }
        if !self.faulted_in {
            // No search is running at `isready`, so nothing else holds the tables; should
            // something still, its pages come as it uses them.
            if let Some(tt) = Arc::get_mut(&mut self.tt) {
                tt.fault_in();
            }
            if let Ok(mut mate) = self.mate.lock() {
                mate.fault_in();
            }
            self.faulted_in = true;
        }
        Ok(())
    }

    /// Makes the tables for `what` within `mib` MiB unless they are already so. The old tables are
    /// released first. On failure the tables are left minimal and the error is returned.
    pub fn prepare(&mut self, what: Use, mib: usize) -> Result<(), String> {
        if self.made == Some((what, mib)) {
            return Ok(());
        }
        let reuse = what == Use::Mate && self.made == Some((Use::Search, mib));
        self.made = None;
        let (tt, mate) = minimal();
        let old_tt = std::mem::replace(&mut self.tt, tt);
        drop_in_background(std::mem::replace(&mut self.mate, mate));
        // `go mate` after searches within the same budget: the mate table takes over the search
        // table's memory (whose pages `isready` had the system supply) instead of new pages.
        let reused = match Arc::try_unwrap(old_tt) {
            Ok(tt) if reuse => Table::reusing(tt.into_memory::<u8>()),
            Ok(tt) => {
                drop_in_background(tt);
                None
            }
            Err(shared) => {
                drop_in_background(shared);
                None
            }
        };
        // The reused memory comes with its pages; new tables are untouched zero pages.
        let faulted_in = reused.is_some() && self.faulted_in;
        let (tt, mate) = match (reused, what) {
            (Some(mate), _) => (TranspositionTable::try_new(0)?, mate),
            (None, Use::Search) => {
                let share = mate_share_mib(mib);
                (
                    TranspositionTable::try_new(mib - share)?,
                    // A zero share is the one-bucket table: mates are then read by the search.
                    Table::try_new(share)?,
                )
            }
            (None, Use::Mate) => (TranspositionTable::try_new(0)?, Table::try_new(mib)?),
        };
        self.tt = Arc::new(tt);
        self.mate = Arc::new(Mutex::new(mate));
        self.made = Some((what, mib));
        self.histories.clear();
        self.used = false;
        self.renew_due = false;
        self.faulted_in = faulted_in;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::tt::Bound;

    #[test]
    fn a_new_game_gets_an_empty_search_table_of_the_same_size() {
        let mut t = Tables::default();
        t.prepare(Use::Search, 32).unwrap();
        let key = 0x1234_5678_9abc_def0;
        t.tt.store(key, 0, 17, 5, 3, Bound::Exact);
        assert!(t.tt.probe(key).is_some());
        let size = t.tt.size_mib();
        t.renew_search_table();
        assert_eq!(t.tt.size_mib(), size);
        assert!(t.tt.probe(key).is_none());
    }

    #[test]
    fn isready_empties_the_table_only_after_a_game_that_used_it() {
        let mut t = Tables::default();
        let key = 0x1234_5678_9abc_def0;
        t.ready(Use::Search, 16).unwrap();
        assert!(t.settled(Use::Search, 16, true));
        t.new_game();
        t.mark_used();
        t.tt.store(key, 0, 17, 5, 3, Bound::Exact);
        // `isready` within a game (a ping) keeps the table.
        t.ready(Use::Search, 16).unwrap();
        assert!(t.tt.probe(key).is_some());
        t.game_over();
        assert!(!t.settled(Use::Search, 16, true));
        t.ready(Use::Search, 16).unwrap();
        assert!(t.tt.probe(key).is_none());
        assert!(t.settled(Use::Search, 16, true));
        // The next game's `usinewgame` finds it empty already and keeps it.
        t.tt.store(key, 0, 17, 5, 3, Bound::Exact);
        t.new_game();
        assert!(t.tt.probe(key).is_some());
        // A used table is emptied by `usinewgame` when no `isready` came after the game.
        t.mark_used();
        t.new_game();
        assert!(t.tt.probe(key).is_none());
        assert_eq!(t.tt.size_mib(), 15);
    }

    #[test]
    fn tables_stay_within_the_budget() {
        let mut t = Tables::default();
        assert_eq!(t.made(), None);
        t.prepare(Use::Search, 64).unwrap();
        let mate_bytes = t.mate.lock().unwrap().bytes();
        assert_eq!(t.tt.size_mib(), 60);
        assert!(
            mate_bytes <= 4 << 20 && mate_bytes > 2 << 20,
            "{mate_bytes}"
        );
        t.prepare(Use::Mate, 64).unwrap();
        assert_eq!(t.tt.size_mib(), 0);
        let mate_bytes = t.mate.lock().unwrap().bytes();
        assert!(
            mate_bytes <= 64 << 20 && mate_bytes > 32 << 20,
            "{mate_bytes}"
        );
        t.prepare(Use::Search, 8).unwrap();
        assert_eq!(t.tt.size_mib(), 8);
        assert_eq!(t.made(), Some((Use::Search, 8)));
    }

    #[test]
    fn go_mate_takes_over_the_search_tables_memory_and_solves_in_it() {
        use crate::core::game::Position;
        use crate::games::shogi::Shogi;
        use crate::mate::{Fallback, MateLimits, MateResult, solve_in};
        use std::sync::atomic::AtomicBool;

        let mut t = Tables::default();
        t.ready(Use::Search, 8).unwrap();
        // Leave the search table full of entries, as after a game.
        for i in 0..200_000u64 {
            let key = i.wrapping_mul(0x9e37_79b9_7f4a_7c15);
            t.tt.store(key, i as u16, 100, 50, 10, Bound::Exact);
        }
        let search_memory = t.tt.size_mib();
        t.prepare(Use::Mate, 8).unwrap();
        assert_eq!(t.made(), Some((Use::Mate, 8)));
        assert!(t.faulted_in, "the pages came with the memory");
        let mut mate = t.mate.lock().unwrap();
        let mate_mib = mate.bytes() >> 20;
        assert!(
            mate_mib + 1 >= search_memory && mate_mib <= search_memory,
            "{mate_mib} MiB for {search_memory} MiB"
        );
        // Mate in 3 (tsume-short.tsv): solved in the taken-over memory like in a new table.
        let pos = Shogi::from_sfen("6Snl/5+Rg1k/6ppp/9/9/9/9/9/9 b r2b3g3s3n3l15p 1").unwrap();
        let stop = AtomicBool::new(false);
        let limits = MateLimits {
            nodes: Some(100_000),
            ..MateLimits::default()
        };
        let r = solve_in(&pos, &mut mate, &limits, &stop, &mut |_| {}, Fallback::None);
        let MateResult::Mate(line) = r.result else {
            panic!("{:?}", r.result)
        };
        assert_eq!(line.len(), 3);
    }

    #[test]
    fn a_size_that_cannot_be_had_is_refused() {
        let mut t = Tables::default();
        for what in [Use::Search, Use::Mate] {
            // 2^50 MiB: more than any machine's address space.
            let e = t.prepare(what, 1 << 50).unwrap_err();
            assert!(e.contains("cannot allocate"), "{e}");
            assert_eq!(t.made(), None);
        }
        t.prepare(Use::Search, 1).unwrap();
        assert_eq!(t.made(), Some((Use::Search, 1)));
    }
}
