//! Input features of the nana shogi network, seen from one player (the *perspective*).
//!
//! - **Board:** one feature per (square, state, owner): 9 squares × 9 states (the king and the
//!   eight cube faces) × 2 owners ("mine", "theirs") = 162, with the board turned by 180° for
//!   White, so that every perspective plays up the board. A cube's face is its whole move set, so
//!   the state is the natural "kind" here.
//! - **Hands:** per owner and cube kind, one feature per cube held (a thermometer of two: a player
//!   holds at most both cubes of a kind): 8.
//!
//! A king still in hand (the game's first two plies) has no feature: the network is trained on
//! the solved table's positions, where both kings stand on the board, and the search looks past
//! the two king drops at once. 170 features in all.

use super::Nana;
use super::types::{Kind, Piece, STATE_COUNT, State};
use crate::core::color::Color;
use crate::core::game::Position;
use crate::core::moves::Move;
use crate::core::square::Square;
use crate::nnue::Delta;

/// Squares of the nana board.
const SQUARES: usize = 9;
/// Board features.
const BOARD: usize = 2 * STATE_COUNT * SQUARES;
/// Cubes of one kind a player can hold.
const MAX_HELD: u8 = 2;
/// Hand features per owner (two cube kinds).
const HAND: usize = 2 * MAX_HELD as usize;
/// Number of input features.
pub const FEATURES: usize = BOARD + 2 * HAND;

/// The feature of `piece` on `sq` seen from `perspective`.
#[inline(always)]
fn board_feature(perspective: Color, piece: Piece, sq: Square) -> u16 {
    let sq = match perspective {
        Color::Black => sq.index(),
        Color::White => SQUARES - 1 - sq.index(),
    };
    let theirs = (piece.color() != perspective) as usize;
    ((theirs * STATE_COUNT + piece.state().index()) * SQUARES + sq) as u16
}

/// The feature of the `n`-th (from 1) cube of `kind` in `owner`'s hand, seen from `perspective`;
/// `None` for kings and beyond two.
#[inline(always)]
fn hand_feature(perspective: Color, owner: Color, kind: Kind, n: u8) -> Option<u16> {
    let k = match kind {
        Kind::King => return None,
        Kind::Orthogonal => 0,
        Kind::Diagonal => 1,
    };
    if n == 0 || n > MAX_HELD {
        return None;
    }
    let theirs = (owner != perspective) as usize;
    Some((BOARD + theirs * HAND + k * MAX_HELD as usize + n as usize - 1) as u16)
}

/// Appends the active features of `pos` seen from `perspective` to `out`.
pub fn active(pos: &Nana, perspective: Color, out: &mut Vec<u16>) {
    for sq in pos.occupied() {
        out.push(board_feature(perspective, pos.piece_at(sq), sq));
    }
    for owner in Color::ALL {
        let hand = pos.hand(owner);
        for kind in [Kind::Orthogonal, Kind::Diagonal] {
            for n in 1..=hand.count(kind) {
                out.extend(hand_feature(perspective, owner, kind, n));
            }
        }
    }
}

/// What the legal move `mv` of `pos` changes in the features seen from `perspective`: a board
/// move takes the cube off in its old state and puts it on in the next one (a capture also takes
/// the victim off and adds a cube to the hand); a drop takes a cube from the hand.
pub fn delta(pos: &Nana, mv: Move, perspective: Color) -> Delta {
    let mut d = Delta::default();
    let us = pos.side_to_move();
    let to = mv.to();
    if mv.is_drop() {
        let state = State::from_code(mv.drop_piece());
        let held = pos.hand(us).count(state.kind());
        d.removed
            .extend(hand_feature(perspective, us, state.kind(), held));
        d.added
            .push(board_feature(perspective, Piece::new(us, state), to));
        return d;
    }
    let piece = pos.piece_at(mv.from());
    d.removed.push(board_feature(perspective, piece, mv.from()));
    d.added.push(board_feature(
        perspective,
        Piece::new(us, piece.state().next()),
        to,
    ));
    let victim = pos.piece_at(to);
    if !victim.is_none() {
        d.removed.push(board_feature(perspective, victim, to));
        let kind = victim.state().kind();
        d.added.extend(hand_feature(
            perspective,
            us,
            kind,
            pos.hand(us).count(kind) + 1,
        ));
    }
    d
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::moves::MoveList;
    use crate::rng::Rng;

    /// Along random games, applying each move's delta to the set of active features gives the
    /// features computed from scratch, in both perspectives, and every feature is in range.
    #[test]
    fn deltas_follow_random_games() {
        let mut rng = Rng::new(9);
        let mut checked = 0;
        for _ in 0..300 {
            let mut pos = Nana::startpos();
            for _ in 0..60 {
                let mut list = MoveList::<Move>::new();
                pos.legal_moves(&mut list);
                if list.is_empty() {
                    break;
                }
                let mv = list[rng.below(list.len())];
                let mut sets = Color::ALL.map(|c| {
                    let mut f = Vec::new();
                    active(&pos, c, &mut f);
                    f
                });
                for c in Color::ALL {
                    let d = delta(&pos, mv, c);
                    let set = &mut sets[c.index()];
                    for f in &d.removed {
                        let at = set.iter().position(|x| x == f).expect("removed is active");
                        set.swap_remove(at);
                    }
                    set.extend(&d.added);
                }
                pos.play(mv);
                for c in Color::ALL {
                    let mut want = Vec::new();
                    active(&pos, c, &mut want);
                    let got = &mut sets[c.index()];
                    want.sort_unstable();
                    got.sort_unstable();
                    assert_eq!(*got, want, "{}", pos.to_sfen());
                    assert!(want.iter().all(|&f| (f as usize) < FEATURES));
                }
                checked += 1;
            }
        }
        assert!(checked > 3000);
    }

    /// A position and its colour flip look the same to the side to move.
    #[test]
    fn the_colour_flip_is_seen_alike() {
        let pos = Nana::from_sfen("1k1/3/IKt b Br 1").unwrap();
        let flipped = crate::games::nana::tablebase::index::flip(&pos);
        for (a, b) in [(Color::Black, Color::White), (Color::White, Color::Black)] {
            let (mut x, mut y) = (Vec::new(), Vec::new());
            active(&pos, a, &mut x);
            active(&flipped, b, &mut y);
            x.sort_unstable();
            y.sort_unstable();
            assert_eq!(x, y);
        }
    }
}
