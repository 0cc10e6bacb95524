//! A cheap mate-in-one test for the search: the checks that land next to the enemy king (drops and
//! board moves) and the knight checks, each verified by playing it and counting the replies. The
//! pieces that attack the king's neighbours are found once, from the few that can reach them
//! ([`super::attacks::NearReach`]), and most candidates fall to bitboard tests before a move is
//! played: the search asks it at most of its quiescence nodes, so its cost shows in the engine's
//! speed.
//!
//! It is not complete (a check from a distance that mates is not tried), so a `None` proves
//! nothing; every `Some` is a legal move that mates. Drop-pawn mates are never tried: they are
//! illegal.

use super::Variant;
use super::position::Board;
use super::types::Kind;
use crate::core::bitboard::Bitboard;
use crate::core::color::Color;
use crate::core::game::Position;
use crate::core::moves::Move;
use crate::core::square::Square;

/// Slots for the squares next to a king, indexed by their offset from it (one file of a 9-rank
/// board and one square on each side).
const NEAR_SLOTS: usize = 2 * 9 + 3;

/// Hand kinds whose drop next to the king can mate, the likeliest first (a lance only where no
/// rook can go: a rook on that square does all the lance does).
const CONTACT_DROPS: [Kind; 5] = [
    Kind::Rook,
    Kind::Gold,
    Kind::Bishop,
    Kind::Silver,
    Kind::Lance,
];

impl<V: Variant> Board<V> {
    /// A move that mates at once, if one of the contact or knight checks does (see the module).
    /// Only for a side to move that is not in check, outside the extra-move handicap.
    pub fn mate_in_one(&self) -> Option<Move> {
        if self.in_check() || self.extra_moves() > 0 {
            return None;
        }
        let us = self.side_to_move();
        let them = !us;
        let ek = self.king(them)?;
        let t = V::tables();
        let occ = self.occupied();
        let own = self.color_bb(us);
        let near = t.king[ek.index()];
        let knight_squares = t.knight[them.index()][ek.index()] & !own;
        let hand = self.hand(us);
        let our_king = self.pieces(us, Kind::King);
        let our_knights = self.pieces(us, Kind::Knight);
        // Who of ours attacks each square next to the king: the squares he could step to
        // (empty, or ours) that nobody of ours covers are his escapes from a dropped piece,
        // unless the piece itself covers them (a drop can only block our other lines). Found
        // piece by piece, among those that could reach one of them on an empty board.
        let r = &t.near_reach;
        let k = &self.by_kind;
        let lances = k[Kind::Lance.index()];
        let knights = k[Kind::Knight.index()];
        let rooks = k[Kind::Rook.index()] | k[Kind::Dragon.index()];
        let bishops = k[Kind::Bishop.index()] | k[Kind::Horse.index()];
        // (Horses and dragons step too: they are both steppers and sliders here.)
        let steppers = !(lances | knights | k[Kind::Rook.index()] | k[Kind::Bishop.index()]);
        let reach = (steppers & t.king_zone[ek.index()])
            | (knights & r.knight[us.index()][ek.index()])
            | (lances & r.lance[us.index()][ek.index()])
            | (rooks & r.rook[ek.index()])
            | (bishops & r.bishop[ek.index()]);
        let mut near_attackers = [Bitboard::EMPTY; NEAR_SLOTS];
        // A neighbour's slot: its offset from the king, shifted to start at 0.
        let slot = |sq: Square| sq.index() + V::GEOMETRY.ranks as usize + 1 - ek.index();
        let mut covered = Bitboard::EMPTY;
        for from in reach & own {
            let hits = t.attacks(self.piece_at(from).kind(), us, from, occ) & near;
            covered |= hits;
            for sq in hits {
                near_attackers[slot(sq)] |= Bitboard::from_square(from);
            }
        }
        let uncovered = near & !self.color_bb(them) & !covered;
        let beyond_king = occ.without(ek);
        let escapes_drop = |kind: Kind, to: Square| {
            (uncovered & !t.attacks(kind, us, to, beyond_king))
                .without(to)
                .any()
        };
        // A check by the piece that lands on `to` (from `from`, or dropped) is answered when one of
        // their pieces other than the king can take it and leaves their king unattacked once it
        // has (it was not pinned, and no other piece of ours checks). Only a line can attack their
        // king then: no stepping piece of ours attacks it now (it is our move), and the checker
        // is taken.
        let their_king = self.pieces(them, Kind::King);
        let taken_back = |to: Square, from: Option<Square>| {
            let vacated = from.map_or(Bitboard::EMPTY, Bitboard::from_square);
            let after = (occ & !vacated).with(to);
            let takers = self.attackers_to(to, them, after) & !their_king;
            // (`Iterator::any` by name: the bitboard's own `any` asks for emptiness.)
            Iterator::any(&mut takers.into_iter(), |d| {
                (self.slider_attackers_to(ek, us, after.without(d)) & !vacated).is_empty()
            })
        };
        // One look at each square a check can land on: who of ours attacks it. A square next to
        // the king that nobody of ours attacks takes no board move and no drop (the king would
        // take it); a knight's jump only serves a knight.
        let knight_checks = if hand.count(Kind::Knight) > 0 || our_knights.any() {
            knight_squares
        } else {
            Bitboard::EMPTY
        };
        for to in (covered | knight_checks) & !own {
            let contact = near.has(to);
            let attackers = if contact {
                near_attackers[slot(to)]
            } else {
                // Only a knight checks from a knight's jump away (it stays one by not promoting).
                t.knight[them.index()][to.index()] & our_knights
            };
            // Drops: next to the king (defended, as every such square here is: else the king
            // takes the piece), or a knight.
            if !occ.has(to) && !hand.is_empty() {
                if contact {
                    let mut rook_checks = false;
                    for kind in CONTACT_DROPS {
                        if hand.count(kind) == 0
                            || (kind == Kind::Lance && rook_checks)
                            || !Self::attacks_from(kind, us, to, ek)
                        {
                            continue;
                        }
                        rook_checks |= kind == Kind::Rook;
                        let mv = Move::drop(kind as u8, to);
                        if !escapes_drop(kind, to) && !taken_back(to, None) && self.mates(mv) {
                            return Some(mv);
                        }
                    }
                } else if hand.count(Kind::Knight) > 0 {
                    let mv = Move::drop(Kind::Knight as u8, to);
                    if !escapes_drop(Kind::Knight, to) && !taken_back(to, None) && self.mates(mv) {
                        return Some(mv);
                    }
                }
            }
            // Board moves onto the square, defended by another piece of ours when next to the king.
            for from in attackers & !our_king {
                let kind = self.piece_at(from).kind();
                for promote in [true, false] {
                    let Some(after) = self.moved_kind(kind, from, to, promote) else {
                        continue;
                    };
                    if !Self::attacks_from(after, us, to, ek) {
                        continue;
                    }
                    // Next to the king, another piece of ours must defend it once `from` and the
                    // king have left: one that attacks it now (fewer blockers only add
                    // attackers), or a line that either opens.
                    if contact
                        && attackers.without(from).is_empty()
                        && self
                            .slider_attackers_to(to, us, beyond_king.without(from))
                            .without(from)
                            .is_empty()
                    {
                        continue;
                    }
                    // An escape nobody of ours attacks now stays open when the moved piece does
                    // not reach it and it lies on no line through `from` (so leaving `from`
                    // uncovers no slider onto it): then the move cannot mate.
                    let lines = t.rook_empty[from.index()] | t.bishop_empty[from.index()];
                    let reach = t.attacks(after, us, to, beyond_king.without(from).with(to));
                    if (uncovered & !reach & !lines).without(to).any() || taken_back(to, Some(from))
                    {
                        continue;
                    }
                    let mv = Move::normal(from, to, promote);
                    if self.mates(mv) {
                        return Some(mv);
                    }
                }
            }
        }
        None
    }

    /// True when a piece of `kind` and `color` on `from`, next to `ek` or a knight's jump from
    /// it, attacks `ek` (no square lies between, so occupancy does not matter).
    #[inline(always)]
    fn attacks_from(kind: Kind, color: Color, from: Square, ek: Square) -> bool {
        let t = V::tables();
        let (c, i) = (color.index(), from.index());
        let hit = match kind {
            Kind::Pawn | Kind::Lance => t.pawn[c][i],
            Kind::Knight => t.knight[c][i],
            Kind::Silver => t.silver[c][i],
            Kind::Gold | Kind::ProPawn | Kind::ProLance | Kind::ProKnight | Kind::ProSilver => {
                t.gold[c][i]
            }
            Kind::King => Bitboard::EMPTY,
            Kind::Bishop => t.bishop_empty[i] & t.king[i],
            Kind::Rook => t.rook_empty[i] & t.king[i],
            Kind::Horse | Kind::Dragon => t.king[i],
        };
        hit.has(ek)
    }

    /// The kind the piece of `kind` becomes by moving `from` → `to` with `promote`, or `None`
    /// when that choice is not allowed (no promotion outside the zone, forced promotion).
    fn moved_kind(&self, kind: Kind, from: Square, to: Square, promote: bool) -> Option<Kind> {
        let t = V::tables();
        let us = self.side_to_move().index();
        if promote {
            let zone = t.zone[us];
            (kind.can_promote() && (zone.has(from) || zone.has(to))).then(|| kind.promoted())
        } else {
            let forced = kind.can_promote() && t.forced[us][kind.index()].has(to);
            (!forced).then_some(kind)
        }
    }

    /// True when the pseudo-legal checking move `mv` is legal and leaves the opponent no reply.
    fn mates(&self, mv: Move) -> bool {
        let mut child = self.clone();
        child.play(mv);
        !child.opponent_in_check() && child.in_check() && !child.has_legal_move()
    }
}

#[cfg(test)]
mod tests {
    use super::{Board, Kind, Move, Variant};
    use crate::core::game::Position;
    use crate::core::moves::MoveList;
    use crate::games::minishogi::Mini;
    use crate::games::shogi::{Shogi, Standard};
    use crate::rng::Rng;

    /// Every legal move that mates at once, by brute force.
    fn mating_moves<P: Position<Move = Move>>(pos: &P) -> Vec<Move> {
        let mut list = MoveList::<Move>::new();
        pos.legal_moves(&mut list);
        list.into_iter()
            .filter(|&mv| {
                let mut c = pos.clone();
                c.play(mv);
                c.in_check() && c.count_legal_moves() == 0
            })
            .collect()
    }

    #[test]
    fn finds_the_head_gold_drop() {
        // White king on 5a between its lances, a black pawn on 5c defends 5b: G*5b mates.
        let pos = Shogi::from_sfen("3lkl3/9/4P4/9/9/9/9/9/4K4 b G 1").unwrap();
        let mv = pos.mate_in_one().expect("a mate in one");
        assert_eq!(pos.move_to_usi(mv), "G*5b");
        assert_eq!(mating_moves(&pos), vec![mv]);
    }

    #[test]
    fn does_not_drop_a_pawn_to_mate() {
        // P*5b, defended by the knight on 4d, would mate: an illegal drop-pawn mate.
        let pos = Shogi::from_sfen("3lkl3/3p1p3/9/5N3/9/9/9/9/4K4 b P 1").unwrap();
        assert!(mating_moves(&pos).is_empty());
        assert_eq!(pos.mate_in_one(), None);
        // With a gold in hand instead, G*5b mates.
        let pos = Shogi::from_sfen("3lkl3/3p1p3/9/5N3/9/9/9/9/4K4 b G 1").unwrap();
        assert_eq!(
            pos.mate_in_one().map(|mv| pos.move_to_usi(mv)).as_deref(),
            Some("G*5b")
        );
    }

    /// Along random games, every move the test returns mates, and it finds every mate in one that
    /// is a drop or a move next to the king (the kinds it looks for).
    fn agrees_with_brute_force<V: Variant>(games: usize, seed: u64) -> usize {
        let mut rng = Rng::new(seed);
        let mut found = 0;
        for _ in 0..games {
            let mut pos = Board::<V>::startpos();
            for _ in 0..300 {
                let mut list = MoveList::<Move>::new();
                pos.legal_moves(&mut list);
                if list.is_empty() {
                    break;
                }
                if !pos.in_check() {
                    let brute = mating_moves(&pos);
                    match pos.mate_in_one() {
                        Some(mv) => {
                            assert!(brute.contains(&mv), "{} is no mate", pos.to_sfen());
                            found += 1;
                        }
                        None => {
                            let near = brute.iter().filter(|&&mv| is_contact_check(&pos, mv));
                            assert_eq!(near.count(), 0, "missed a mate in {}", pos.to_sfen());
                        }
                    }
                }
                // On with a uniformly random move.
                let mv = list[rng.below(list.len())];
                pos.play(mv);
            }
        }
        found
    }

    /// True when `mv` checks with the moved piece itself from a square next to the enemy king or
    /// a knight's jump from it: the checks `mate_in_one` looks at.
    fn is_contact_check<V: Variant>(pos: &Board<V>, mv: Move) -> bool {
        let t = V::tables();
        let us = pos.side_to_move();
        let ek = pos.king(!us).unwrap();
        let kind = if mv.is_drop() {
            Kind::from_code(mv.drop_piece())
        } else {
            let k = pos.piece_at(mv.from()).kind();
            if mv.is_promotion() { k.promoted() } else { k }
        };
        let attacks = t.attacks(kind, us, mv.to(), pos.occupied()).has(ek);
        attacks && (t.king[ek.index()].has(mv.to()) || kind == Kind::Knight)
    }

    #[test]
    fn agrees_with_brute_force_in_shogi() {
        let found = agrees_with_brute_force::<Standard>(200, 1);
        assert!(found > 0, "no mate in one met: the test proves nothing");
    }

    #[test]
    fn agrees_with_brute_force_in_minishogi() {
        let found = agrees_with_brute_force::<Mini>(300, 2);
        assert!(found > 0, "no mate in one met: the test proves nothing");
    }
}
