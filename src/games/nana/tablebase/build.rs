//! Building the table by retrograde analysis, and checking it.
//!
//! 1. **Count** (forward, parallel): every index is unranked; an illegal set-up is marked absent, a
//!    position without a legal move is lost in 0, any other keeps its number of legal moves.
//! 2. **Retrograde** (parallel, level by level): the positions decided at distance `d` are turned
//!    into their predecessors by unmoves (a piece stepped back with its previous state, a capture
//!    taken back into the board in any state, a drop taken back into the hand); each candidate is kept
//!    only when the move really is legal there ([`Nana::is_legal_move`], the generator's own tests,
//!    the nested mate rule included). A predecessor of a loss in `d` wins in `d + 1`; a predecessor
//!    of a win in `d` loses in `d + 1` when that was its last unrefuted move. What is never decided
//!    is a draw.
//! 3. **Verify** (forward, parallel): every position's value is recomputed from its successors'
//!    values through the move generator and must equal the stored one.

use std::sync::atomic::{AtomicU8, Ordering::Relaxed};

use rayon::prelude::*;

use super::super::attacks::{CENTRE, TABLES};
use super::super::position::Nana;
use super::super::types::{Hand, Kind, Piece, State};
use super::index::{INDEXER, flip};
use super::{ABSENT_BYTE, DRAW_BYTE, MAX_DISTANCE, Tablebase, TbValue};
use crate::core::color::{ByColor, Color};
use crate::core::game::Position;
use crate::core::moves::{Move, MoveList};
use crate::progress::Progress;

/// Indices handled per parallel task in the forward passes.
const CHUNK: usize = 1 << 13;

/// What a build or a verification found.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct BuildStats {
    /// Legal positions in the table.
    pub positions: u64,
    /// Positions won by the side to move.
    pub wins: u64,
    /// Positions lost by the side to move.
    pub losses: u64,
    /// Drawn positions.
    pub draws: u64,
    /// The longest distance to mate.
    pub max_distance: u32,
    /// Positions whose value disagrees with their successors (verification only).
    pub inconsistent: u64,
}

/// The progress of a phase of `len` positions (printed only when `show`; see [`Progress`]).
fn progress(show: bool, len: u64, what: &str) -> Progress {
    Progress::new(show, what, len, "positions")
}

/// The state a cube showed before a board move left it showing `st` (a king stays a king).
fn previous_state(st: State) -> State {
    match st {
        State::King => State::King,
        State::Rook => State::GoBetween,
        State::Bishop => State::Dog,
        s => State::from_code(s as u8 - 1),
    }
}

/// Calls `f` with the index of every table position P (Black to move) that has a legal move leading
/// to `s` (White to move), once per such move.
fn for_each_predecessor(s: &Nana, mut f: impl FnMut(u32)) {
    let t = &*TABLES;
    let us = Color::Black;
    let them = Color::White;
    debug_assert!(s.side == them);
    let occ = s.occupied();
    let mut consider = |squares: [Piece; 9], hands: ByColor<Hand>, mv: Move| {
        let p = Nana::from_parts(squares, hands, us);
        if p.enemy_king_safe() && p.is_legal_move(mv) {
            f(INDEXER.rank(&p));
        }
    };
    for to in s.by_color[us] {
        let st = s.squares[to.index()].state();
        let kind = st.kind();
        if kind != Kind::King && to != CENTRE {
            let mut squares = s.squares;
            squares[to.index()] = Piece::NONE;
            let mut hands = s.hands;
            hands[us].0[kind.index()] += 1;
            consider(squares, hands, Move::drop(st as u8, to));
        }
        let prev = previous_state(st);
        for from in t.board & !occ {
            if !t
                .attacks(prev, us, from, occ.without(to).with(from))
                .has(to)
            {
                continue;
            }
            let mv = Move::normal(from, to, false);
            let mut squares = s.squares;
            squares[to.index()] = Piece::NONE;
            squares[from.index()] = Piece::new(us, prev);
            consider(squares, s.hands, mv);
            for k in [Kind::Orthogonal, Kind::Diagonal] {
                if s.hands[us].count(k) == 0 {
                    continue;
                }
                let mut hands = s.hands;
                hands[us].0[k.index()] -= 1;
                for &captured in k.states() {
                    let mut sq = squares;
                    sq[to.index()] = Piece::new(them, captured);
                    consider(sq, hands, mv);
                }
            }
        }
    }
}

fn atomic_vec(n: usize) -> Vec<AtomicU8> {
    (0..n).into_par_iter().map(|_| AtomicU8::new(0)).collect()
}

/// Solves every position (or, with `material = Some((o, d))`, only those with `o` orthogonal and
/// `d` diagonal cubes in play — a class no move leaves — marking the rest absent). Shows progress
/// bars on standard error when `show`.
pub fn build(material: Option<(u8, u8)>, show: bool) -> Tablebase {
    let ix = &*INDEXER;
    let n = ix.size as usize;
    let values = atomic_vec(n);
    let counts = atomic_vec(n);

    // 1. Count the legal moves; positions without any are lost in 0.
    let bar = progress(show, n as u64, "count");
    let mut frontier: Vec<u32> = (0..n.div_ceil(CHUNK))
        .into_par_iter()
        .flat_map_iter(|c| {
            let mut local = Vec::new();
            for idx in c * CHUNK..n.min((c + 1) * CHUNK) {
                if material.is_some_and(|m| ix.material(idx as u32) != m) {
                    values[idx].store(ABSENT_BYTE, Relaxed);
                    continue;
                }
                let pos = ix.unrank(idx as u32);
                if !pos.enemy_king_safe() {
                    values[idx].store(ABSENT_BYTE, Relaxed);
                    continue;
                }
                let moves = pos.count_legal_moves();
                debug_assert!(moves < 256);
                if moves == 0 {
                    values[idx].store(1, Relaxed);
                    local.push(idx as u32);
                } else {
                    counts[idx].store(moves as u8, Relaxed);
                }
            }
            bar.inc((n.min((c + 1) * CHUNK) - c * CHUNK) as u64);
            local
        })
        .collect();
    bar.finish();
    let legal = values
        .par_iter()
        .filter(|v| v.load(Relaxed) != ABSENT_BYTE)
        .count();

    // 2. Retrograde, one distance at a time.
    let bar = progress(show, legal as u64, "retrograde");
    let mut d: u32 = 0;
    while !frontier.is_empty() {
        assert!(
            d < MAX_DISTANCE,
            "a distance to mate beyond {MAX_DISTANCE} plies does not fit a byte"
        );
        let next_byte = (d + 2) as u8;
        let winning = d.is_multiple_of(2); // the frontier is lost in d: its predecessors win
        bar.inc(frontier.len() as u64);
        bar.set_message(format!("retro d={d}"));
        frontier = frontier
            .par_chunks(256)
            .flat_map_iter(|chunk| {
                let mut local = Vec::new();
                for &idx in chunk {
                    let s = flip(&ix.unrank(idx));
                    for_each_predecessor(&s, |p| {
                        let p_us = p as usize;
                        if winning {
                            if values[p_us]
                                .compare_exchange(DRAW_BYTE, next_byte, Relaxed, Relaxed)
                                .is_ok()
                            {
                                local.push(p);
                            }
                        } else if values[p_us].load(Relaxed) == DRAW_BYTE
                            && counts[p_us].fetch_sub(1, Relaxed) == 1
                        {
                            values[p_us].store(next_byte, Relaxed);
                            local.push(p);
                        }
                    });
                }
                local
            })
            .collect();
        d += 1;
    }
    bar.finish();
    drop(counts);
    Tablebase::from_values(values.into_iter().map(AtomicU8::into_inner).collect())
}

/// Recomputes every position's value from its successors' stored values and counts the positions
/// by value and those that disagree.
pub fn verify(tb: &Tablebase, show: bool) -> BuildStats {
    let ix = &*INDEXER;
    let n = ix.size as usize;
    let bar = progress(show, n as u64, "verify");
    let stats = (0..n.div_ceil(CHUNK))
        .into_par_iter()
        .map(|c| {
            let mut st = BuildStats::default();
            let mut list = MoveList::<Move>::new();
            for idx in c * CHUNK..n.min((c + 1) * CHUNK) {
                let Some(stored) = tb.value_at(idx as u32) else {
                    continue;
                };
                let pos = ix.unrank(idx as u32);
                list.clear();
                pos.legal_moves(&mut list);
                let mut children = Vec::with_capacity(list.len());
                let mut broken = false;
                for &mv in &list {
                    let mut next = pos.clone();
                    next.play(mv);
                    match tb.value_at(ix.rank(&flip(&next))) {
                        Some(v) => children.push(v),
                        None => broken = true,
                    }
                }
                if broken || TbValue::from_children(children) != stored {
                    st.inconsistent += 1;
                }
                st.positions += 1;
                match stored {
                    TbValue::Win(d) => {
                        st.wins += 1;
                        st.max_distance = st.max_distance.max(d);
                    }
                    TbValue::Loss(d) => {
                        st.losses += 1;
                        st.max_distance = st.max_distance.max(d);
                    }
                    TbValue::Draw => st.draws += 1,
                }
            }
            bar.inc((n.min((c + 1) * CHUNK) - c * CHUNK) as u64);
            st
        })
        .reduce(BuildStats::default, |a, b| BuildStats {
            positions: a.positions + b.positions,
            wins: a.wins + b.wins,
            losses: a.losses + b.losses,
            draws: a.draws + b.draws,
            max_distance: a.max_distance.max(b.max_distance),
            inconsistent: a.inconsistent + b.inconsistent,
        });
    bar.finish();
    stats
}
