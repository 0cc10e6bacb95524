//! Repetition bookkeeping shared by every game: which earlier positions equal the current one, and
//! who gave check all the way through the cycle.

/// One position of a game's history: its key, and whether the side to move there was in check
/// (that is, whether the move that reached it gave check).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct HistoryEntry {
    /// Zobrist key of the position.
    pub key: u64,
    /// The side to move was in check.
    pub in_check: bool,
}

/// What the history says about the last position.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Repetition {
    /// How many times the last position has now occurred (1 = first time).
    pub occurrences: usize,
    /// Since the earliest of those occurrences, every move of the player who just moved gave check.
    pub mover_checked_throughout: bool,
    /// Since the earliest of those occurrences, every move of the player to move gave check.
    pub side_to_move_checked_throughout: bool,
}

/// Examines the last entry of `history` (positions in game order, the current one last) against the
/// earlier ones, counting up to `limit` occurrences (the cycle starts at the earliest one counted).
pub fn examine(history: &[HistoryEntry], limit: usize) -> Repetition {
    let Some(last) = history.last() else {
        return Repetition {
            occurrences: 0,
            mover_checked_throughout: false,
            side_to_move_checked_throughout: false,
        };
    };
    let n = history.len() - 1;
    let mut occurrences = 1;
    let mut first = n;
    // Equal positions have the same side to move, so only every second entry can match.
    let mut i = n;
    while i >= 2 && occurrences < limit {
        i -= 2;
        if history[i].key == last.key {
            occurrences += 1;
            first = i;
        }
    }
    let mut mover = true;
    let mut to_move = true;
    for (j, e) in history.iter().enumerate().take(n + 1).skip(first + 1) {
        // Entry j was reached by a move of the player who just moved iff j has n's parity.
        if (n - j).is_multiple_of(2) {
            mover &= e.in_check;
        } else {
            to_move &= e.in_check;
        }
    }
    let cycle = first < n;
    Repetition {
        occurrences,
        mover_checked_throughout: cycle && mover,
        side_to_move_checked_throughout: cycle && to_move,
    }
}
