//! Legal move generation for nana shogi: the opening king drops, board moves (each cube turning to its
//! next state), cube drops in each chosen state, and the rule against checkmating with pieces in hand,
//! judged through its nested levels.
//!
//! # The nested mate rule
//!
//! A move that checkmates is illegal when the mover held a piece in hand just before it; whether it
//! checkmates depends on the opponent's legal replies, which are judged by the same rule, and so on. The
//! rule is applied at nesting levels 1 to [`MATE_RULE_LEVELS`]: level 1 judges the moves of the position
//! itself, level 2 the replies consulted to decide whether a level-1 move mates, level 3 the replies to
//! those. A level-3 move that checks with pieces in hand looks at level-4 replies, where the rule is no
//! longer applied (every move that does not leave the king attacked counts).
//!
//! In practice the depth never matters: over every position reachable from the start (about 35
//! million) and millions of random legal setups, applying the rule at one level or at four gives the
//! same legal moves. Only its first level changes move counts (and the perft reference needs it).

use super::attacks::{CENTRE, TABLES};
use super::position::{Nana, color_name, square_text};
use super::types::{Kind, State};
use crate::core::game::Position;
use crate::core::moves::{Move, MoveList};
use crate::core::square::Square;

/// The deepest nesting level at which the rule against mating with pieces in hand is applied.
pub const MATE_RULE_LEVELS: u8 = 3;

/// Receives legal moves one by one and says whether generation should go on.
pub trait Sink {
    /// Takes `mv`; returns `false` to stop the generation.
    fn take(&mut self, mv: Move) -> bool;
}

impl Sink for MoveList {
    #[inline(always)]
    fn take(&mut self, mv: Move) -> bool {
        self.push(mv);
        true
    }
}

impl Sink for usize {
    #[inline(always)]
    fn take(&mut self, _mv: Move) -> bool {
        *self += 1;
        true
    }
}

/// A sink that stops at the first move: finds whether any legal move exists.
struct AnyMove(bool);

impl Sink for AnyMove {
    #[inline(always)]
    fn take(&mut self, _mv: Move) -> bool {
        self.0 = true;
        false
    }
}

impl Nana {
    /// Generates every move legal at nesting `level` (1 for the position's own moves) into `sink`.
    /// Returns `false` when the sink stopped the generation early.
    pub fn generate<S: Sink>(&self, level: u8, sink: &mut S) -> bool {
        let t = &*TABLES;
        let us = self.side;
        let them = !us;
        let occ = self.occupied();
        let free = t.drop_squares & !occ;
        let enemy_king = self.kings[them];
        let hand = self.hands[us];

        // While his king is in hand, a player's only moves are king drops.
        if hand.count(Kind::King) > 0 {
            for to in free {
                if self.king_drop_is_legal(to) && !sink.take(Move::drop(State::King as u8, to)) {
                    return false;
                }
            }
            return true;
        }

        let own = self.by_color[us];
        let rule = level <= MATE_RULE_LEVELS && !hand.is_empty() && enemy_king.is_some();
        for from in own {
            let state = self.squares[from.index()].state();
            for to in t.attacks(state, us, from, occ) & !own {
                let mv = Move::normal(from, to, false);
                if self.board_move_is_safe(from, to, state)
                    && !(rule && self.mates_at(mv, level))
                    && !sink.take(mv)
                {
                    return false;
                }
            }
        }

        // A drop never checks, so it never mates: only its check and king safety need testing.
        for kind in [Kind::Orthogonal, Kind::Diagonal] {
            if hand.count(kind) == 0 {
                continue;
            }
            for &state in kind.states() {
                for to in free {
                    if self.cube_drop_is_legal(state, to) && !sink.take(Move::drop(state as u8, to))
                    {
                        return false;
                    }
                }
            }
        }
        true
    }

    /// True when the side to move has a move legal at nesting `level`.
    pub fn has_legal_move(&self, level: u8) -> bool {
        let mut any = AnyMove(false);
        self.generate(level, &mut any);
        any.0
    }

    /// True when dropping the king of the side to move on the empty square `to` neither checks the
    /// enemy king (it would stand next to it) nor puts the king where it is attacked.
    fn king_drop_is_legal(&self, to: Square) -> bool {
        let t = &*TABLES;
        let us = self.side;
        let checks =
            self.kings[!us].is_some_and(|ek| t.empty[0][State::King.index()][to.index()].has(ek));
        !checks
            && self
                .attackers_to(to, !us, self.occupied().with(to))
                .is_empty()
    }

    /// True when dropping a cube of the side to move showing `state` on the empty square `to` gives no
    /// check and leaves the mover's king (if any) unattacked.
    fn cube_drop_is_legal(&self, state: State, to: Square) -> bool {
        let t = &*TABLES;
        let us = self.side;
        let occ = self.occupied().with(to);
        if self.kings[!us].is_some_and(|ek| t.attacks(state, us, to, occ).has(ek)) {
            return false;
        }
        // Only a drop that blocks a sliding check can help a king in check; none can expose it.
        match self.kings[us] {
            Some(k) if self.in_check() => self.attackers_to(k, !us, occ).is_empty(),
            _ => true,
        }
    }

    /// True when moving the piece showing `state` from `from` to `to` (empty or an enemy piece) does
    /// not leave the mover's king attacked.
    fn board_move_is_safe(&self, from: Square, to: Square, state: State) -> bool {
        let us = self.side;
        let ksq = if state == State::King {
            Some(to)
        } else {
            self.kings[us]
        };
        let Some(k) = ksq else {
            return true;
        };
        let occ = self.occupied().without(from).with(to);
        let enemies = self.by_color[!us].without(to);
        self.attackers_among(k, !us, enemies, occ).is_empty()
    }

    /// True when the (safe) board move `mv`, judged at nesting `level`, checkmates: after it the
    /// opponent is in check and has no move legal at level `level + 1`.
    fn mates_at(&self, mv: Move, level: u8) -> bool {
        let mut next = self.clone();
        next.play(mv);
        next.in_check() && !next.has_legal_move(level + 1)
    }

    /// A short explanation of why the well-formed move `mv` is illegal.
    pub(super) fn illegal_reason(&self, mv: Move) -> String {
        let t = &*TABLES;
        let us = self.side;
        let hand = self.hands[us];
        let to = mv.to();
        let king_first = || format!("{} must first drop his king (K*<square>)", color_name(us));
        if mv.is_drop() {
            let state = State::from_code(mv.drop_piece());
            let kind = state.kind();
            if hand.count(kind) == 0 {
                return match kind {
                    Kind::King => "the king is already on the board".into(),
                    Kind::Orthogonal => "no orthogonal cube (R) in hand".into(),
                    Kind::Diagonal => "no diagonal cube (B) in hand".into(),
                };
            }
            if kind != Kind::King && hand.count(Kind::King) > 0 {
                return king_first();
            }
            if to == CENTRE {
                return "nothing may be dropped on the centre 2b".into();
            }
            if !self.piece_at(to).is_none() {
                return format!("{} is occupied", square_text(to));
            }
            let occ = self.occupied().with(to);
            if self.kings[!us].is_some_and(|ek| t.attacks(state, us, to, occ).has(ek)) {
                return "a drop may not give check".into();
            }
            if kind == Kind::King {
                return format!("the king would be attacked on {}", square_text(to));
            }
            return "it leaves the king in check".into();
        }
        let from = mv.from();
        let piece = self.piece_at(from);
        if piece.is_none() {
            return format!("no piece on {}", square_text(from));
        }
        if piece.color() != us {
            return format!("the piece on {} belongs to the opponent", square_text(from));
        }
        if self.by_color[us].has(to) {
            return format!("{} holds a piece of the mover", square_text(to));
        }
        let state = piece.state();
        if !t.attacks(state, us, from, self.occupied()).has(to) {
            return format!(
                "the {} on {} cannot reach {}",
                state.letter(),
                square_text(from),
                square_text(to)
            );
        }
        if hand.count(Kind::King) > 0 {
            return king_first();
        }
        if !self.board_move_is_safe(from, to, state) {
            return "it leaves the king attacked".into();
        }
        if !hand.is_empty() && self.kings[!us].is_some() && self.mates_at(mv, 1) {
            return "it checkmates while the mover holds pieces in hand".into();
        }
        "it is not a legal move here".into()
    }
}
