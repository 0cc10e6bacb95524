//! Game-end rules of nana shogi: no legal move loses (checkmate or stalemate; the trait's
//! [`Position::verdict`] judges that first), and the same position for the fourth time is a draw, with
//! no perpetual-check rule.

use super::position::Nana;
use crate::core::game::Position;
use crate::core::repetition::{HistoryEntry, examine};
use crate::core::rules::{EndReason, Outcome, Verdict};

/// True when the last position of `history` (positions in game order, the current one last) has now
/// occurred for the fourth time: a draw, whoever gave check.
pub fn repetition_draw(history: &[HistoryEntry]) -> bool {
    repetition_verdict(history, 4).is_some()
}

/// The repetition verdict once the last position of `history` has occurred `occurrences` times (4 for
/// the game rule; a search may ask at 2): always a draw in nana shogi. `None` before that.
pub fn repetition_verdict(history: &[HistoryEntry], occurrences: usize) -> Option<Verdict> {
    (examine(history, occurrences).occurrences >= occurrences).then_some(Verdict {
        outcome: Outcome::Draw,
        reason: EndReason::Repetition,
    })
}

impl Nana {
    /// The history entry of this position, for repetition bookkeeping.
    pub fn history_entry(&self) -> HistoryEntry {
        HistoryEntry {
            key: self.key(),
            in_check: self.in_check(),
        }
    }
}
