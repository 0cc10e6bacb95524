//! Input features of the shogi-family networks, seen from one player (the *perspective*).
//!
//! - **Board:** one feature per (square, piece), with the board turned so that the perspective
//!   plays up the board (White's view is the board rotated 180°) and the piece's owner told as
//!   "mine" or "theirs": `28 · squares` features (14 kinds × 2 owners).
//! - **Hands:** per owner (mine, theirs) and hand kind, one feature per piece held, counted
//!   (the first pawn, the second pawn, …: holding 3 pawns sets the first three): a thermometer, so
//!   that the network learns what each extra piece in hand is worth.
//!
//! No king buckets: with self-play data of a few million positions, a king-relative feature set
//! (81 times larger) would leave most weights untrained; the hidden layer can still combine the
//! king's square with the rest. Shogi: 2,268 board + 76 hand = 2,344 features; minishogi: 700
//! board + 22 hand = 722 (hand features follow the game's piece set).

use super::Variant;
use super::position::Board;
use super::types::{HAND_KIND_COUNT, KIND_COUNT, Kind, Piece};
use crate::core::color::Color;
use crate::core::game::Position;
use crate::core::moves::Move;
use crate::core::square::Square;
use crate::nnue::Delta;

/// The feature layout of shogi-family game `V`.
pub struct Layout<V: Variant>(std::marker::PhantomData<V>);

impl<V: Variant> Layout<V> {
    /// Squares on the board.
    const SQUARES: usize = V::GEOMETRY.square_count();
    /// Board features.
    const BOARD: usize = 2 * KIND_COUNT * Self::SQUARES;

    /// Hand features before kind `k` (per owner).
    const fn hand_offset(k: usize) -> usize {
        let mut total = 0;
        let mut i = 0;
        while i < k {
            total += V::PIECE_SET[i] as usize;
            i += 1;
        }
        total
    }

    /// Hand features per owner.
    const HAND: usize = Self::hand_offset(HAND_KIND_COUNT);

    /// Number of input features.
    pub const FEATURES: usize = Self::BOARD + 2 * Self::HAND;

    /// The feature of `piece` on `sq` seen from `perspective`.
    #[inline(always)]
    pub fn board_feature(perspective: Color, piece: Piece, sq: Square) -> usize {
        let sq = match perspective {
            Color::Black => sq.index(),
            Color::White => Self::SQUARES - 1 - sq.index(),
        };
        let theirs = (piece.color() != perspective) as usize;
        (theirs * KIND_COUNT + piece.kind().index()) * Self::SQUARES + sq
    }

    /// The feature of the `n`-th (from 1) piece of `kind` in `owner`'s hand, seen from
    /// `perspective`; `None` beyond the game's set.
    #[inline(always)]
    pub fn hand_feature(perspective: Color, owner: Color, kind: Kind, n: u8) -> Option<usize> {
        let k = kind.index();
        if n == 0 || n > V::PIECE_SET[k] {
            return None;
        }
        let theirs = (owner != perspective) as usize;
        Some(Self::BOARD + theirs * Self::HAND + Self::hand_offset(k) + n as usize - 1)
    }

    /// The feature that `feature` becomes when the position is mirrored left to right (the
    /// first file swapped with the last): the board feature of the mirrored square, the same
    /// hand feature. The rules are symmetric, so the mirrored position has the same value; the
    /// trainer uses this to learn from each position twice.
    pub fn mirrored(feature: usize) -> usize {
        if feature >= Self::BOARD {
            return feature;
        }
        let ranks = V::GEOMETRY.ranks as usize;
        let files = V::GEOMETRY.files as usize;
        let (block, sq) = (feature / Self::SQUARES, feature % Self::SQUARES);
        let (file, rank) = (sq / ranks, sq % ranks);
        block * Self::SQUARES + (files - 1 - file) * ranks + rank
    }

    /// Appends the active features of `pos` seen from `perspective` to `out`.
    pub fn active(pos: &Board<V>, perspective: Color, out: &mut Vec<u16>) {
        for sq in pos.occupied() {
            out.push(Self::board_feature(perspective, pos.piece_at(sq), sq) as u16);
        }
        for owner in Color::ALL {
            let hand = pos.hand(owner);
            for k in 0..HAND_KIND_COUNT {
                let kind = Kind::from_code(k as u8);
                for n in 1..=hand.count(kind) {
                    if let Some(f) = Self::hand_feature(perspective, owner, kind, n) {
                        out.push(f as u16);
                    }
                }
            }
        }
    }
}

impl<V: Variant> Layout<V> {
    /// What the legal move `mv` of `pos` changes in the features seen from `perspective`.
    pub fn delta(pos: &Board<V>, mv: Move, perspective: Color) -> Delta {
        let mut d = Delta::default();
        let us = pos.side_to_move();
        let to = mv.to();
        if mv.is_drop() {
            let kind = Kind::from_code(mv.drop_piece());
            if let Some(f) = Self::hand_feature(perspective, us, kind, pos.hand(us).count(kind)) {
                d.removed.push(f as u16);
            }
            d.added
                .push(Self::board_feature(perspective, Piece::new(us, kind), to) as u16);
            return d;
        }
        let from = mv.from();
        let piece = pos.piece_at(from);
        d.removed
            .push(Self::board_feature(perspective, piece, from) as u16);
        let placed = if mv.is_promotion() {
            Piece::new(us, piece.kind().promoted())
        } else {
            piece
        };
        d.added
            .push(Self::board_feature(perspective, placed, to) as u16);
        let victim = pos.piece_at(to);
        if !victim.is_none() {
            d.removed
                .push(Self::board_feature(perspective, victim, to) as u16);
            let kind = victim.kind().unpromoted();
            if let Some(f) = Self::hand_feature(perspective, us, kind, pos.hand(us).count(kind) + 1)
            {
                d.added.push(f as u16);
            }
        }
        d
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::minishogi::{Mini, Minishogi};
    use crate::games::shogi::{Shogi, Standard};

    #[test]
    fn feature_counts_follow_the_piece_sets() {
        assert_eq!(Layout::<Standard>::FEATURES, 2344);
        assert_eq!(Layout::<Mini>::FEATURES, 28 * 25 + 2 * 11);
    }

    /// The start position is symmetric: both perspectives see the same features.
    #[test]
    fn both_sides_see_the_start_position_alike() {
        fn check<V: Variant>(pos: &Board<V>) {
            let (mut b, mut w) = (Vec::new(), Vec::new());
            Layout::<V>::active(pos, Color::Black, &mut b);
            Layout::<V>::active(pos, Color::White, &mut w);
            b.sort_unstable();
            w.sort_unstable();
            assert_eq!(b, w);
            assert!(b.iter().all(|&f| (f as usize) < Layout::<V>::FEATURES));
        }
        check(&Shogi::startpos());
        check(&Minishogi::startpos());
        let hands = Shogi::from_sfen("4k4/9/9/9/9/9/9/9/4K4 b 2P3p 1").unwrap();
        let (mut b, mut w) = (Vec::new(), Vec::new());
        Layout::<Standard>::active(&hands, Color::Black, &mut b);
        Layout::<Standard>::active(&hands, Color::White, &mut w);
        assert_eq!(b.len(), 2 + 5);
        assert_ne!(b, w);
    }
}

#[cfg(test)]
mod incremental {
    use super::*;
    use crate::core::moves::MoveList;
    use crate::games::minishogi::Mini;
    use crate::games::shogi::Standard;
    use crate::nnue::network::Network;
    use crate::rng::Rng;

    /// A network with random weights for `V`.
    fn random_network<V: Variant>(seed: u64) -> Network {
        let mut rng = Rng::new(seed);
        let (f, h) = (Layout::<V>::FEATURES, 16);
        Network {
            game: V::NAME.into(),
            features: f,
            hidden: h,
            ft_weights: (0..f * h).map(|_| rng.range(-200..200)).collect(),
            ft_bias: (0..h).map(|_| rng.range(-100..100)).collect(),
            out_weights: (0..2 * h).map(|_| rng.range(-64..64)).collect(),
            out_bias: 0,
        }
    }

    /// Along random games, the accumulators updated move by move from each move's delta equal
    /// the accumulators computed from scratch, in both perspectives.
    fn incremental_equals_refresh<V: Variant>(games: usize, seed: u64) {
        let net = random_network::<V>(seed);
        let mut rng = Rng::new(seed);
        let mut checked = 0;
        for _ in 0..games {
            let mut pos = Board::<V>::startpos();
            let refresh = |pos: &Board<V>, c: Color| {
                let mut f = Vec::new();
                Layout::<V>::active(pos, c, &mut f);
                net.accumulate(&f)
            };
            let mut acc = [refresh(&pos, Color::Black), refresh(&pos, Color::White)];
            for _ in 0..200 {
                let mut list = MoveList::<Move>::new();
                pos.legal_moves(&mut list);
                if list.is_empty() {
                    break;
                }
                let mv = list[rng.below(list.len())];
                for c in Color::ALL {
                    let d = Layout::<V>::delta(&pos, mv, c);
                    net.update(&mut acc[c.index()], &d.removed, &d.added);
                }
                pos.play(mv);
                for c in Color::ALL {
                    assert_eq!(acc[c.index()], refresh(&pos, c), "{}", pos.to_sfen());
                }
                checked += 1;
            }
        }
        assert!(checked > games * 20);
    }

    /// The SFEN of `sfen`'s position mirrored left to right: each rank's cells reversed.
    fn mirror_sfen(sfen: &str) -> String {
        let (board, rest) = sfen.split_once(' ').unwrap();
        let ranks: Vec<String> = board
            .split('/')
            .map(|rank| {
                let mut cells: Vec<String> = Vec::new();
                let mut promoted = false;
                for c in rank.chars() {
                    if c == '+' {
                        promoted = true;
                    } else if let Some(n) = c.to_digit(10) {
                        cells.extend((0..n).map(|_| String::new()));
                    } else {
                        cells.push(if promoted {
                            format!("+{c}")
                        } else {
                            c.to_string()
                        });
                        promoted = false;
                    }
                }
                let mut out = String::new();
                let mut empty = 0;
                for cell in cells.iter().rev() {
                    if cell.is_empty() {
                        empty += 1;
                        continue;
                    }
                    if empty > 0 {
                        out.push_str(&empty.to_string());
                        empty = 0;
                    }
                    out.push_str(cell);
                }
                if empty > 0 {
                    out.push_str(&empty.to_string());
                }
                out
            })
            .collect();
        format!("{} {rest}", ranks.join("/"))
    }

    /// Along random games, the mirrored features of each position are the features of the
    /// position mirrored left to right, in both perspectives.
    fn mirrored_features_match<V: Variant>(games: usize, seed: u64) {
        let mut rng = Rng::new(seed);
        let mut checked = 0;
        for _ in 0..games {
            let mut pos = Board::<V>::startpos();
            for _ in 0..150 {
                let mirror = Board::<V>::from_sfen(&mirror_sfen(&pos.to_sfen())).unwrap();
                for c in Color::ALL {
                    let (mut a, mut b) = (Vec::new(), Vec::new());
                    Layout::<V>::active(&pos, c, &mut a);
                    Layout::<V>::active(&mirror, c, &mut b);
                    let mut a: Vec<usize> = a
                        .iter()
                        .map(|&f| Layout::<V>::mirrored(f as usize))
                        .collect();
                    let mut b: Vec<usize> = b.iter().map(|&f| f as usize).collect();
                    a.sort_unstable();
                    b.sort_unstable();
                    assert_eq!(a, b, "{}", pos.to_sfen());
                }
                checked += 1;
                let mut list = MoveList::<Move>::new();
                pos.legal_moves(&mut list);
                if list.is_empty() {
                    break;
                }
                pos.play(list[rng.below(list.len())]);
            }
        }
        assert!(checked > games * 20);
    }

    #[test]
    fn mirrored_features_are_those_of_the_mirrored_position() {
        mirrored_features_match::<Standard>(10, 7);
        mirrored_features_match::<Mini>(30, 8);
        // Mirroring twice is the identity, and a start-file piece lands on the last file.
        for f in 0..Layout::<Standard>::FEATURES {
            assert_eq!(
                Layout::<Standard>::mirrored(Layout::<Standard>::mirrored(f)),
                f
            );
        }
        assert_eq!(Layout::<Standard>::mirrored(0), 72);
    }

    #[test]
    fn shogi_accumulators_update_exactly() {
        incremental_equals_refresh::<Standard>(20, 5);
    }

    #[test]
    fn minishogi_accumulators_update_exactly() {
        incremental_equals_refresh::<Mini>(60, 6);
    }
}
