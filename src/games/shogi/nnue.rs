//! Input features of the shogi-family networks, seen from one player (the *perspective*).
//!
//! - **Board:** one feature per (square, piece), with the board turned so that the perspective
//!   plays up the board (White's view is the board rotated 180°) and the piece's owner told as
//!   "mine" or "theirs": `28 · squares` features (14 kinds × 2 owners).
//! - **Hands:** per owner (mine, theirs) and hand kind, one feature per piece held, counted
//!   (the first pawn, the second pawn, …: holding 3 pawns sets the first three): a thermometer, so
//!   that the network learns what each extra piece in hand is worth.
//!
//! Shogi: 2,268 board + 76 hand = 2,344 features; minishogi: 700 board + 22 hand = 722 (hand
//! features follow the game's piece set). These are the [`FeatureSet::Plain`] features.
//!
//! **King buckets** ([`FeatureSet::KingBuckets`]): the perspective's own king square picks a
//! bucket, and each bucket has its own copy of the plain features. The board is first mirrored
//! left to right when the king stands right of the middle file (as the perspective sees it), so
//! that the king is always on the left half or the middle file; then the bucket is the king's
//! distance from its own back rank (0, 1, 2, 3 or more in shogi; 0, 1, 2 or more in minishogi)
//! by its file (the two edge files, the next two, the middle file in shogi; the two edge files,
//! the middle file in minishogi): 12 buckets in shogi (28,128 features), 6 in minishogi (4,332).
//! A position without the perspective's king (a tsume problem's attacker) uses bucket 0,
//! unmirrored. A king move into another bucket or across the middle file changes every feature
//! of its own perspective: [`Layout::delta`] then asks for a refresh.
//!
//! **King regions** ([`FeatureSet::KingRegions`]): the same without mirroring. The king's file
//! group is one of the pairs of files from either edge or the middle file (5 groups in shogi, 3
//! in minishogi), its rank group as above: 20 regions in shogi (46,880 features), 9 in minishogi
//! (6,498). With nothing mirrored, a region's copy of feature `f` is `f` itself, so that a plain
//! network is a king-region network whose regions all share its rows.

use super::Variant;
use super::position::Board;
use super::types::{HAND_KIND_COUNT, KIND_COUNT, Kind, Piece};
use crate::core::color::Color;
use crate::core::game::Position;
use crate::core::moves::Move;
use crate::core::square::Square;
use crate::nnue::{Delta, FeatureSet};

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

    /// Number of input features of the plain set (one bucket's worth).
    pub const FEATURES: usize = Self::BOARD + 2 * Self::HAND;

    /// The middle file (zero-based; the files are odd in number).
    const MIDDLE: usize = (V::GEOMETRY.files as usize - 1) / 2;
    /// Groups of the king's file, after mirroring: pairs of files from the edge, the middle
    /// file alone.
    const FILE_GROUPS: usize = Self::MIDDLE / 2 + 1;
    /// Groups of the king's distance from its back rank: 0, 1, 2 and more (3 and more on a
    /// board of 9 ranks).
    const RANK_GROUPS: usize = if V::GEOMETRY.ranks >= 9 { 4 } else { 3 };
    /// Number of king buckets.
    pub const BUCKETS: usize = Self::FILE_GROUPS * Self::RANK_GROUPS;
    /// Groups of the king's file without mirroring: the pairs of files from either edge, the
    /// middle file alone.
    const REGION_FILE_GROUPS: usize = 2 * Self::FILE_GROUPS - 1;
    /// Number of king regions.
    pub const REGIONS: usize = Self::REGION_FILE_GROUPS * Self::RANK_GROUPS;
    /// Refresh slots: one per bucket and mirroring, or one per region, whichever is more.
    pub const SLOTS: usize = if 2 * Self::BUCKETS > Self::REGIONS {
        2 * Self::BUCKETS
    } else {
        Self::REGIONS
    };

    /// Number of input features of feature set `set`.
    pub const fn feature_count(set: FeatureSet) -> usize {
        match set {
            FeatureSet::Plain => Self::FEATURES,
            FeatureSet::KingBuckets => Self::BUCKETS * Self::FEATURES,
            FeatureSet::KingRegions => Self::REGIONS * Self::FEATURES,
        }
    }

    /// The place of `perspective`'s king in `pos` that set `set` copies the plain features by:
    /// its bucket and mirroring, or its region, unmirrored (plain: (0, unmirrored); without a
    /// king: the place of bucket or region 0, unmirrored).
    #[inline]
    fn king_place(pos: &Board<V>, set: FeatureSet, perspective: Color) -> (usize, bool) {
        if !set.per_king_place() {
            return (0, false);
        }
        pos.king(perspective)
            .map_or((0, false), |king| Self::place_of(set, perspective, king))
    }

    /// The place of set `set` for `perspective`'s king on `king`.
    #[inline]
    fn place_of(set: FeatureSet, perspective: Color, king: Square) -> (usize, bool) {
        match set {
            FeatureSet::Plain => (0, false),
            FeatureSet::KingBuckets => Self::bucket_of(perspective, king),
            FeatureSet::KingRegions => (Self::region_of(perspective, king), false),
        }
    }

    /// The king region of `perspective` in `pos` (0 without a king on the board).
    #[inline]
    pub fn king_region(pos: &Board<V>, perspective: Color) -> usize {
        Self::king_place(pos, FeatureSet::KingRegions, perspective).0
    }

    /// The king region of `perspective` with its king on `king`: rank group × file groups +
    /// file group, files counted from the perspective's first file.
    #[inline]
    fn region_of(perspective: Color, king: Square) -> usize {
        let sq = Self::seen_from(perspective, king.index());
        let ranks = V::GEOMETRY.ranks as usize;
        let (file, rank) = (sq / ranks, sq % ranks);
        let last = V::GEOMETRY.files as usize - 1;
        let file_group = match file.cmp(&Self::MIDDLE) {
            std::cmp::Ordering::Less => file / 2,
            std::cmp::Ordering::Equal => Self::FILE_GROUPS - 1,
            std::cmp::Ordering::Greater => Self::REGION_FILE_GROUPS - 1 - (last - file) / 2,
        };
        let rank_group = (ranks - 1 - rank).min(Self::RANK_GROUPS - 1);
        rank_group * Self::REGION_FILE_GROUPS + file_group
    }

    /// The region whose files mirror those of `region` (the same rank group).
    const fn mirrored_region(region: usize) -> usize {
        let g = Self::REGION_FILE_GROUPS;
        region - region % g + (g - 1 - region % g)
    }

    /// The king bucket of `perspective` in `pos` and whether its board is mirrored (bucket 0,
    /// unmirrored, without a king on the board).
    #[inline]
    pub fn king_bucket(pos: &Board<V>, perspective: Color) -> (usize, bool) {
        Self::king_place(pos, FeatureSet::KingBuckets, perspective)
    }

    /// The king bucket and mirroring of `perspective` with its king on `king`.
    #[inline]
    fn bucket_of(perspective: Color, king: Square) -> (usize, bool) {
        let sq = Self::seen_from(perspective, king.index());
        let ranks = V::GEOMETRY.ranks as usize;
        let (file, rank) = (sq / ranks, sq % ranks);
        let files = V::GEOMETRY.files as usize;
        let mirror = file > Self::MIDDLE;
        let file = if mirror { files - 1 - file } else { file };
        let file_group = if file == Self::MIDDLE {
            Self::FILE_GROUPS - 1
        } else {
            file / 2
        };
        let rank_group = (ranks - 1 - rank).min(Self::RANK_GROUPS - 1);
        (rank_group * Self::FILE_GROUPS + file_group, mirror)
    }

    /// The index of square `sq` as `perspective` sees the board (turned 180° for White).
    #[inline(always)]
    const fn seen_from(perspective: Color, sq: usize) -> usize {
        match perspective {
            Color::Black => sq,
            Color::White => Self::SQUARES - 1 - sq,
        }
    }

    /// The refresh slot of `perspective` in `pos` for set `set`.
    #[inline]
    pub fn slot(pos: &Board<V>, set: FeatureSet, perspective: Color) -> usize {
        match set {
            FeatureSet::Plain => 0,
            FeatureSet::KingBuckets => {
                let (bucket, mirror) = Self::king_bucket(pos, perspective);
                2 * bucket + mirror as usize
            }
            FeatureSet::KingRegions => Self::king_region(pos, perspective),
        }
    }

    /// The feature of set `set` that the plain feature `plain` is at the place `(index,
    /// mirror)` of `perspective`'s king (its bucket or region; the plain set ignores it).
    #[inline(always)]
    fn in_bucket(set: FeatureSet, plain: usize, (index, mirror): (usize, bool)) -> u16 {
        if !set.per_king_place() {
            return plain as u16;
        }
        let f = if mirror { Self::mirrored(plain) } else { plain };
        (index * Self::FEATURES + f) as u16
    }

    /// The feature of `piece` on `sq` seen from `perspective`.
    #[inline(always)]
    pub fn board_feature(perspective: Color, piece: Piece, sq: Square) -> usize {
        let sq = Self::seen_from(perspective, sq.index());
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

    /// The feature of set `set` that `feature` becomes when the position is mirrored left to
    /// right: [`Layout::mirrored`] for plain features; for king regions, the mirrored plain
    /// feature in the mirrored region. King buckets see a position and its mirror image alike
    /// already (but on the middle file), so their features are returned as they are.
    pub fn mirrored_in(set: FeatureSet, feature: usize) -> usize {
        match set {
            FeatureSet::Plain => Self::mirrored(feature),
            FeatureSet::KingBuckets => feature,
            FeatureSet::KingRegions => {
                let (region, plain) = (feature / Self::FEATURES, feature % Self::FEATURES);
                Self::mirrored_region(region) * Self::FEATURES + Self::mirrored(plain)
            }
        }
    }

    /// The plain feature that the plain feature `feature` becomes when the position is mirrored
    /// left to right (the first file swapped with the last): the board feature of the mirrored
    /// square, the same hand feature. The rules are symmetric, so the mirrored position has the
    /// same value; the trainer uses this to learn from each position twice.
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

    /// Appends the active features of set `set` of `pos` seen from `perspective` to `out`.
    pub fn active(pos: &Board<V>, set: FeatureSet, perspective: Color, out: &mut Vec<u16>) {
        let bucket = Self::king_place(pos, set, perspective);
        for sq in pos.occupied() {
            let f = Self::board_feature(perspective, pos.piece_at(sq), sq);
            out.push(Self::in_bucket(set, f, bucket));
        }
        for owner in Color::ALL {
            let hand = pos.hand(owner);
            for k in 0..HAND_KIND_COUNT {
                let kind = Kind::from_code(k as u8);
                for n in 1..=hand.count(kind) {
                    if let Some(f) = Self::hand_feature(perspective, owner, kind, n) {
                        out.push(Self::in_bucket(set, f, bucket));
                    }
                }
            }
        }
    }
}

impl<V: Variant> Layout<V> {
    /// What the legal move `mv` of `pos` changes in the features of set `set` seen from
    /// `perspective`; `None` when it changes them all (the perspective's king entering another
    /// bucket or region, or crossing the middle file), so that the accumulator must be
    /// refreshed.
    #[inline]
    pub fn delta(pos: &Board<V>, set: FeatureSet, mv: Move, perspective: Color) -> Option<Delta> {
        let mut d = Delta::default();
        let us = pos.side_to_move();
        let to = mv.to();
        let bucket = Self::king_place(pos, set, perspective);
        if set.per_king_place()
            && perspective == us
            && !mv.is_drop()
            && pos.king(us) == Some(mv.from())
            && Self::place_of(set, us, to) != bucket
        {
            return None;
        }
        let feature = |f: usize| Self::in_bucket(set, f, bucket);
        if mv.is_drop() {
            let kind = Kind::from_code(mv.drop_piece());
            if let Some(f) = Self::hand_feature(perspective, us, kind, pos.hand(us).count(kind)) {
                d.removed.push(feature(f));
            }
            d.added.push(feature(Self::board_feature(
                perspective,
                Piece::new(us, kind),
                to,
            )));
            return Some(d);
        }
        let from = mv.from();
        let piece = pos.piece_at(from);
        d.removed
            .push(feature(Self::board_feature(perspective, piece, from)));
        let placed = if mv.is_promotion() {
            Piece::new(us, piece.kind().promoted())
        } else {
            piece
        };
        d.added
            .push(feature(Self::board_feature(perspective, placed, to)));
        let victim = pos.piece_at(to);
        if !victim.is_none() {
            d.removed
                .push(feature(Self::board_feature(perspective, victim, to)));
            let kind = victim.kind().unpromoted();
            if let Some(f) = Self::hand_feature(perspective, us, kind, pos.hand(us).count(kind) + 1)
            {
                d.added.push(feature(f));
            }
        }
        Some(d)
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
            for set in FeatureSet::ALL {
                let (mut b, mut w) = (Vec::new(), Vec::new());
                Layout::<V>::active(pos, set, Color::Black, &mut b);
                Layout::<V>::active(pos, set, Color::White, &mut w);
                b.sort_unstable();
                w.sort_unstable();
                assert_eq!(b, w);
                assert!(
                    b.iter()
                        .all(|&f| (f as usize) < Layout::<V>::feature_count(set))
                );
            }
        }
        check(&Shogi::startpos());
        check(&Minishogi::startpos());
        let hands = Shogi::from_sfen("4k4/9/9/9/9/9/9/9/4K4 b 2P3p 1").unwrap();
        let (mut b, mut w) = (Vec::new(), Vec::new());
        Layout::<Standard>::active(&hands, FeatureSet::Plain, Color::Black, &mut b);
        Layout::<Standard>::active(&hands, FeatureSet::Plain, Color::White, &mut w);
        assert_eq!(b.len(), 2 + 5);
        assert_ne!(b, w);
    }

    #[test]
    fn king_buckets_follow_the_kings_square() {
        assert_eq!(Layout::<Standard>::BUCKETS, 12);
        assert_eq!(Layout::<Mini>::BUCKETS, 6);
        assert_eq!(
            Layout::<Standard>::feature_count(FeatureSet::KingBuckets),
            12 * 2344
        );
        // (SFEN, Black's bucket and mirroring, White's.) Shogi buckets: rank group (0 = back
        // rank, 3 = four or more ranks up) × 3 + file group (0: the two edge files, 1: the next
        // two, 2: the middle file); a king right of the middle, as its side sees the board,
        // is mirrored.
        type Bucket = (usize, bool);
        let cases: [(&str, Bucket, Bucket); 5] = [
            ("4k4/9/9/9/9/9/9/9/4K4 b - 1", (2, false), (2, false)),
            ("k8/9/9/9/9/9/9/9/8K b - 1", (0, false), (0, false)),
            ("8k/9/9/9/9/9/9/9/K8 b - 1", (0, true), (0, true)),
            ("9/1k7/9/9/9/9/9/6K2/9 b - 1", (4, false), (3, false)),
            ("9/9/9/9/4k4/9/9/9/9 b - 1", (0, false), (11, false)),
        ];
        for (sfen, black, white) in cases {
            let pos = Shogi::from_sfen(sfen).unwrap();
            let got = (
                Layout::<Standard>::king_bucket(&pos, Color::Black),
                Layout::<Standard>::king_bucket(&pos, Color::White),
            );
            assert_eq!(got, (black, white), "{sfen}");
        }
        // Minishogi: rank group (0, 1, 2 or more) × 2 + file group (0: edge two, 1: middle).
        let pos = Minishogi::from_sfen("5/5/2k2/5/4K b - 1").unwrap();
        assert_eq!(Layout::<Mini>::king_bucket(&pos, Color::Black), (0, false));
        assert_eq!(Layout::<Mini>::king_bucket(&pos, Color::White), (5, false));
    }

    #[test]
    fn king_regions_follow_the_kings_square_unmirrored() {
        assert_eq!(Layout::<Standard>::REGIONS, 20);
        assert_eq!(Layout::<Mini>::REGIONS, 9);
        assert_eq!(
            Layout::<Standard>::feature_count(FeatureSet::KingRegions),
            20 * 2344
        );
        const { assert!(Layout::<Standard>::SLOTS >= 20 && Layout::<Mini>::SLOTS >= 9) };
        // (SFEN, Black's region, White's.) Shogi regions: rank group (0 = back rank, 3 = four
        // or more ranks up) × 5 + file group, files as the side sees the board from its first
        // file (SFEN's last column for Black, its first for White): 0 the first two, 1 the next
        // two, 2 the middle file, 3 the two after it, 4 the last two.
        let cases: [(&str, usize, usize); 6] = [
            ("4k4/9/9/9/9/9/9/9/4K4 b - 1", 2, 2),
            ("k8/9/9/9/9/9/9/9/8K b - 1", 0, 0),
            ("8k/9/9/9/9/9/9/9/K8 b - 1", 4, 4),
            ("9/1k7/9/9/9/9/9/6K2/9 b - 1", 5 + 1, 5),
            ("9/9/9/9/4k4/9/9/9/9 b - 1", 0, 15 + 2),
            ("9/9/9/9/9/9/3K5/9/k8 b - 1", 10 + 3, 15),
        ];
        for (sfen, black, white) in cases {
            let pos = Shogi::from_sfen(sfen).unwrap();
            let got = (
                Layout::<Standard>::king_region(&pos, Color::Black),
                Layout::<Standard>::king_region(&pos, Color::White),
            );
            assert_eq!(got, (black, white), "{sfen}");
        }
        // Minishogi: rank group (0, 1, 2 or more) × 3 + file group (the first two, the
        // middle, the last two).
        let pos = Minishogi::from_sfen("5/5/2k2/5/4K b - 1").unwrap();
        assert_eq!(Layout::<Mini>::king_region(&pos, Color::Black), 0);
        assert_eq!(Layout::<Mini>::king_region(&pos, Color::White), 6 + 1);
        let pos = Minishogi::startpos();
        assert_eq!(Layout::<Mini>::king_region(&pos, Color::Black), 2);
        assert_eq!(Layout::<Mini>::king_region(&pos, Color::White), 2);
        // A region's copy of a plain feature is the feature itself in that region's block.
        let (mut plain, mut regions) = (Vec::new(), Vec::new());
        let pos = Shogi::startpos();
        Layout::<Standard>::active(&pos, FeatureSet::Plain, Color::Black, &mut plain);
        Layout::<Standard>::active(&pos, FeatureSet::KingRegions, Color::Black, &mut regions);
        let block = Layout::<Standard>::king_region(&pos, Color::Black) * 2344;
        let shifted: Vec<u16> = plain.iter().map(|&f| f + block as u16).collect();
        assert_eq!(regions, shifted);
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

    /// A network with random weights for `V` and feature set `set`.
    fn random_network<V: Variant>(set: FeatureSet, seed: u64) -> Network {
        let mut rng = Rng::new(seed);
        let (f, h) = (Layout::<V>::feature_count(set), 16);
        Network {
            game: V::NAME.into(),
            feature_set: set,
            features: f,
            hidden: h,
            ft_weights: (0..f * h).map(|_| rng.range(-200..200)).collect(),
            ft_bias: (0..h).map(|_| rng.range(-100..100)).collect(),
            out_weights: (0..2 * h).map(|_| rng.range(-64..64)).collect(),
            out_bias: 0,
        }
    }

    /// Along random games, the accumulators updated move by move from each move's delta (or
    /// refreshed where the delta asks for it, only when the mover's king changes bucket or
    /// mirroring) equal the accumulators computed from scratch, in both perspectives. Returns
    /// the number of refreshes.
    fn incremental_equals_refresh<V: Variant>(set: FeatureSet, games: usize, seed: u64) -> usize {
        let net = random_network::<V>(set, seed);
        let mut rng = Rng::new(seed);
        let (mut checked, mut refreshes) = (0, 0);
        for _ in 0..games {
            let mut pos = Board::<V>::startpos();
            let refresh = |pos: &Board<V>, c: Color| {
                let mut f = Vec::new();
                Layout::<V>::active(pos, set, c, &mut f);
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
                let before = [Color::Black, Color::White].map(|c| Layout::<V>::slot(&pos, set, c));
                let deltas = Color::ALL.map(|c| Layout::<V>::delta(&pos, set, mv, c));
                pos.play(mv);
                for c in Color::ALL {
                    let moved = Layout::<V>::slot(&pos, set, c) != before[c.index()];
                    match &deltas[c.index()] {
                        Some(d) => {
                            assert!(!moved, "{}", pos.to_sfen());
                            net.update(&mut acc[c.index()], &d.removed, &d.added);
                        }
                        None => {
                            assert!(moved, "a refresh asked in vain: {}", pos.to_sfen());
                            acc[c.index()] = refresh(&pos, c);
                            refreshes += 1;
                        }
                    }
                    assert_eq!(acc[c.index()], refresh(&pos, c), "{}", pos.to_sfen());
                }
                checked += 1;
            }
        }
        assert!(checked > games * 20);
        refreshes
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
                    Layout::<V>::active(&pos, FeatureSet::Plain, c, &mut a);
                    Layout::<V>::active(&mirror, FeatureSet::Plain, c, &mut b);
                    // King buckets see a position and its mirror image alike, unless the king
                    // stands on the middle file (where neither is mirrored).
                    let (mut ka, mut kb) = (Vec::new(), Vec::new());
                    Layout::<V>::active(&pos, FeatureSet::KingBuckets, c, &mut ka);
                    Layout::<V>::active(&mirror, FeatureSet::KingBuckets, c, &mut kb);
                    ka.sort_unstable();
                    kb.sort_unstable();
                    let middle = pos
                        .king(c)
                        .is_some_and(|k| V::GEOMETRY.file(k) as usize == Layout::<V>::MIDDLE);
                    if !middle && pos.king(c).is_some() {
                        assert_eq!(ka, kb, "{}", pos.to_sfen());
                    }
                    // King regions: the mirrored position's features are the mirrored ones.
                    let (mut ra, mut rb) = (Vec::new(), Vec::new());
                    Layout::<V>::active(&pos, FeatureSet::KingRegions, c, &mut ra);
                    Layout::<V>::active(&mirror, FeatureSet::KingRegions, c, &mut rb);
                    let mut ra: Vec<usize> = ra
                        .iter()
                        .map(|&f| Layout::<V>::mirrored_in(FeatureSet::KingRegions, f as usize))
                        .collect();
                    ra.sort_unstable();
                    rb.sort_unstable();
                    let rb: Vec<usize> = rb.iter().map(|&f| f as usize).collect();
                    assert_eq!(ra, rb, "{}", pos.to_sfen());
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
        assert_eq!(
            incremental_equals_refresh::<Standard>(FeatureSet::Plain, 20, 5),
            0
        );
        assert!(incremental_equals_refresh::<Standard>(FeatureSet::KingBuckets, 20, 5) > 20);
        assert!(incremental_equals_refresh::<Standard>(FeatureSet::KingRegions, 20, 5) > 20);
    }

    #[test]
    fn minishogi_accumulators_update_exactly() {
        assert_eq!(
            incremental_equals_refresh::<Mini>(FeatureSet::Plain, 60, 6),
            0
        );
        assert!(incremental_equals_refresh::<Mini>(FeatureSet::KingBuckets, 60, 6) > 20);
        assert!(incremental_equals_refresh::<Mini>(FeatureSet::KingRegions, 60, 6) > 20);
    }
}
