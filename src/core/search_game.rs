//! What the search needs from a game beyond its rules: evaluation, move classes for ordering and
//! pruning, and the network's input features. It sits beside [`Position`] so that the games
//! implement it without knowing the search.

use super::color::Color;
use super::game::Position;
use super::moves::{GameMove, ListStore, MoveList};
use super::search_params::SearchParams;

/// How a network sees a position: which input features it has. A network file names its set,
/// and the game computes the features of that set (`games/*/nnue.rs`), so that one game can be
/// played with networks of either set.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum FeatureSet {
    /// Each piece on its square and the pieces in hand, as the side to move and the other side
    /// see them; nothing relative to a king (the networks of file version 1).
    #[default]
    Plain,
    /// The plain features once per *king bucket*: the perspective's own king square, its board
    /// mirrored left to right when the king stands on the left half, picks one of a few regions,
    /// and each region has its own copy of the plain features. A king move into another region
    /// (or across the middle file) changes every feature of that perspective, so its accumulator
    /// is refreshed (from a cache of the last accumulator seen in each region).
    KingBuckets,
    /// The plain features once per *king region*: the perspective's own king square, as that
    /// side sees the board and not mirrored, picks one of a few regions (a group of files by a
    /// group of ranks), each with its own copy of the plain features. A network of this set can
    /// start as a plain network exactly (every region's own rows zero, the plain rows shared),
    /// which king buckets cannot, since they mirror the board. A king move into another region
    /// refreshes that perspective's accumulator, as with king buckets.
    KingRegions,
}

impl FeatureSet {
    /// Every set, in the order of their codes.
    pub const ALL: [FeatureSet; 3] = [
        FeatureSet::Plain,
        FeatureSet::KingBuckets,
        FeatureSet::KingRegions,
    ];

    /// The number the network file stores.
    pub const fn code(self) -> u32 {
        self as u32
    }

    /// The set of a number stored in a network file.
    pub fn from_code(code: u32) -> Option<FeatureSet> {
        FeatureSet::ALL.into_iter().find(|s| s.code() == code)
    }

    /// The set's name, as messages and the trainer's options spell it.
    pub const fn name(self) -> &'static str {
        match self {
            FeatureSet::Plain => "plain",
            FeatureSet::KingBuckets => "king-buckets",
            FeatureSet::KingRegions => "king-regions",
        }
    }

    /// True for the sets that copy the plain features once per place of the perspective's
    /// king (a network of such a set learns with a factoriser, and may start from a plain one).
    pub const fn per_king_place(self) -> bool {
        !matches!(self, FeatureSet::Plain)
    }
}

impl std::fmt::Display for FeatureSet {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// The feature changes of one move in both perspectives (Black's, White's): at most two
/// features off and two on in each, or a refresh of that perspective where the move changes all
/// of its features (a king entering another bucket).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct MoveDelta {
    /// Features that go off, per perspective; `len[p].0` of them are used.
    pub removed: [[u16; 2]; 2],
    /// Features that come on, per perspective.
    pub added: [[u16; 2]; 2],
    /// How many of `removed` and `added` are used, per perspective.
    pub len: [(u8, u8); 2],
    /// Per perspective: true when its accumulator must be computed again from the position
    /// (`removed` and `added` then unused).
    pub refresh: [bool; 2],
}

impl MoveDelta {
    /// Records the changes of `perspective`.
    pub fn set(&mut self, perspective: Color, removed: &[u16], added: &[u16]) {
        // Element by element: a slice copy of one or two values would call `memcpy`.
        let p = perspective.index();
        for (i, &f) in removed.iter().take(2).enumerate() {
            self.removed[p][i] = f;
        }
        for (i, &f) in added.iter().take(2).enumerate() {
            self.added[p][i] = f;
        }
        self.len[p] = (removed.len() as u8, added.len() as u8);
    }

    /// Records that `perspective` must be refreshed.
    pub fn set_refresh(&mut self, perspective: Color) {
        self.refresh[perspective.index()] = true;
    }
}

/// What the search needs from a game beyond its rules.
pub trait SearchGame: Position {
    /// Static evaluation from the side to move's point of view, in centipawns, under the
    /// search's `params` (a game with evaluation parameters reads them from
    /// [`SearchParams::eval`]).
    fn evaluate(&self, params: &SearchParams) -> i32;
    /// The game's search parameters: [`SearchParams::default`] unless the game has its own
    /// values, and the defaults of its evaluation parameters.
    fn default_params() -> SearchParams {
        SearchParams::default()
    }
    /// True when `mv` captures a piece.
    fn is_capture(&self, mv: Self::Move) -> bool;
    /// Value of the piece `mv` captures (0 for none).
    fn captured_value(&self, mv: Self::Move) -> i32;
    /// The index (below 32) of the piece that `mv` moves or drops, as it stands before the move.
    fn moved_piece(&self, mv: Self::Move) -> usize;
    /// The index (below 32) of the piece that `mv` captures (0 for none).
    fn captured_piece(&self, mv: Self::Move) -> usize;
    /// True when `mv` wins at least `threshold` by static exchange.
    fn see_ge(&self, mv: Self::Move, threshold: i32) -> bool;
    /// Appends the legal captures, and the non-capturing promotions when `promotions`, to `list`
    /// (the moves of quiescence when not in check).
    fn tactical_moves(&self, list: &mut MoveList<Self::Move>, promotions: bool);
    /// Appends the legal moves that neither capture nor promote (drops and passes included) to
    /// `list`: with `tactical_moves(list, true)`, every legal move once.
    fn quiet_moves(&self, list: &mut MoveList<Self::Move>) {
        let mut all = MoveList::<Self::Move>::new();
        self.legal_moves(&mut all);
        list.extend(
            all.into_iter()
                .filter(|&mv| !self.is_capture(mv) && !mv.is_promotion()),
        );
    }
    /// True when the main search should take this game's moves in stages (captures first,
    /// quiet moves generated only when reached): worth it where [`SearchGame::is_legal`] and
    /// [`SearchGame::quiet_moves`] are cheaper than generating every move.
    const STAGED_MOVES: bool = false;
    /// A move that mates at once, found by a test cheap enough for every node (it need not find
    /// every mate in one; `None` proves nothing). Only asked when the side to move is not in check.
    fn mate_in_one(&self) -> Option<Self::Move> {
        None
    }
    /// The key of the position after the legal move `mv`, when the game can tell it without
    /// playing the move (`None` otherwise): the search fetches the child's table entry with it
    /// while it still prepares the move.
    #[inline(always)]
    fn key_after(&self, _mv: Self::Move) -> Option<u64> {
        None
    }
    /// Plays the legal move `mv`, of which the search already knows whether it gives check
    /// ([`SearchGame::gives_check`]): a game may then skip looking for checkers.
    #[inline(always)]
    fn play_known_check(&mut self, mv: Self::Move, _gives_check: bool) {
        self.play(mv);
    }
    /// Number of input features of the game's networks of feature set `set` (0: the game has
    /// no learned evaluation, or none with that set).
    fn nnue_feature_count(_set: FeatureSet) -> usize {
        0
    }
    /// Appends the active input features of feature set `set` of the position, seen from
    /// `perspective`.
    fn nnue_features(&self, _set: FeatureSet, _perspective: Color, _out: &mut Vec<u16>) {}
    /// The input features of set `set` that the legal move `mv` turns off and on.
    fn nnue_delta(&self, _set: FeatureSet, _mv: Self::Move) -> MoveDelta {
        MoveDelta::default()
    }
    /// Number of refresh slots of the game's feature sets: the accumulator cache keeps one
    /// accumulator per slot and perspective.
    const NNUE_SLOTS: usize = 1;
    /// The refresh slot (below [`SearchGame::NNUE_SLOTS`]) of the position seen from
    /// `perspective` in set `set`: positions of one slot share most features (for king buckets:
    /// the bucket and the mirroring), so the cache refreshes one from another with few changes.
    /// The features of one slot lie in one block of `nnue_feature_count(FeatureSet::Plain)`
    /// consecutive features (bucket `b`'s copy starts at `b` times that).
    fn nnue_slot(&self, _set: FeatureSet, _perspective: Color) -> usize {
        0
    }
    /// A hash of the parts of the position whose misjudgement by the static evaluation tends to
    /// persist (in shogi: the pawns and the hands), indexing the evaluation's correction history;
    /// `None` where the game keeps no correction.
    fn correction_key(&self) -> Option<u64> {
        None
    }
    /// The position with the turn passed, for null-move pruning; `None` where a pass is unsound
    /// (games full of zugzwang) or the side to move is in check.
    fn null_move(&self) -> Option<Self>;
    /// Positions searched by `bench`, as SFEN.
    const BENCH_SFENS: &'static [&'static str];
    /// Precomputed facts that make [`SearchGame::gives_check`] cheap at one node.
    type CheckInfo;
    /// The check information of the side to move.
    fn check_info(&self) -> Self::CheckInfo;
    /// True when the legal move `mv` gives check (without playing it).
    fn gives_check(&self, info: &Self::CheckInfo, mv: Self::Move) -> bool;
    /// The move whose [`GameMove::code`] is `code`, as the search's tables keep it: for the
    /// shogi games the packed move itself (possibly illegal here: check it with
    /// [`SearchGame::is_legal`]); by default the legal move with that code, or `NONE`.
    fn move_from_code(&self, code: u16) -> Self::Move {
        let mut list = MoveList::<Self::Move>::new();
        self.legal_moves(&mut list);
        list.into_iter()
            .find(|m| m.code() == code)
            .unwrap_or(<Self::Move as GameMove>::NONE)
    }
    /// True when `mv` (any move, e.g. from a colliding table entry) is a legal move here.
    fn is_legal(&self, mv: Self::Move) -> bool {
        let mut list = MoveList::<Self::Move>::new();
        self.legal_moves(&mut list);
        list.contains(&mv)
    }
}
