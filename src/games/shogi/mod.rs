//! Standard shogi (9×9), and the generic shogi-family position that minishogi reuses.
//!
//! The family shares pieces, moves, drops and their restrictions; a [`Variant`] fixes the board size,
//! the promotion zone, the piece set and the start position.

pub mod adjudication;
pub mod attacks;
pub mod eval;
mod mate1;
pub mod movegen;
pub mod nnue;
pub mod pack;
pub mod position;
pub mod record;
pub mod rules;
pub mod see;
pub mod types;

use std::sync::{Arc, LazyLock};

use crate::core::color::Color;
use crate::core::repetition::Repetition;
use crate::core::rules::{GameRules, Outcome, Verdict};
use crate::core::search_params::SearchParams;
use crate::core::square::Geometry;
use crate::games::info::{
    BoardFamily, Example, ExampleKind, HasExactTable, MoveSyntax, Notation, PageInfo, PieceInfo,
    SetCount, ToolInfo,
};
use crate::nnue::network::Network;
use attacks::Tables;
use position::Board;

/// What distinguishes one shogi-family game from another.
pub trait Variant:
    'static + Send + Sync + Copy + Clone + Default + std::fmt::Debug + PartialEq + Eq + std::hash::Hash
{
    /// The game's name as `USI_Variant` spells it.
    const NAME: &'static str;
    /// Board shape.
    const GEOMETRY: Geometry;
    /// Depth of the promotion zone in ranks.
    const ZONE_RANKS: u8;
    /// True when the game knows extra-move handicaps (Black's first moves made in a row while
    /// White passes; minishogi levels 2 and 6).
    const EXTRA_MOVES: bool = false;
    /// The start position.
    const START_SFEN: &'static str;
    /// How many pieces of each unpromoted kind the game's set holds (pawn, lance, knight, silver,
    /// bishop, rook, gold, king). A position with more of a kind, on the board and in both hands
    /// together (promoted pieces counted as their unpromoted kind), is refused, and so is any piece
    /// of a kind with 0; fewer is fine (tsume problems leave pieces out).
    const PIECE_SET: [u8; 8];
    /// The evaluation weights.
    const EVAL: eval::EvalWeights;
    /// Positions searched by `bench`.
    const BENCH_SFENS: &'static [&'static str];
    /// The game's rule options.
    type Rules: GameRules;
    /// The attack tables of this board.
    fn tables() -> &'static Tables;
    /// The verdict, for `side_to_move`, of a repetition in which nobody checked throughout;
    /// `first_mover` made the first move of the game.
    fn quiet_repetition(
        rep: &Repetition,
        side_to_move: Color,
        first_mover: Color,
        rules: &Self::Rules,
    ) -> Outcome;
    /// An ending of the variant that the position alone decides.
    fn special_end(pos: &Board<Self>, rules: &Self::Rules) -> Option<Verdict>;
    /// True when the side to move may declare a win.
    fn can_declare(pos: &Board<Self>, rules: &Self::Rules) -> bool;
    /// Applies the rules that change a game's first position ([`Position::begin_game`]).
    ///
    /// [`Position::begin_game`]: crate::core::game::Position::begin_game
    fn begin_game(_pos: &mut Board<Self>, _rules: &Self::Rules) {}
    /// The search's parameters for this game: the shared defaults unless the game was tuned
    /// apart (docs/strength.md, "Tuning the search parameters").
    fn search_params() -> SearchParams {
        SearchParams::default()
    }
}

/// Standard shogi's registry entry.
pub const INFO: super::GameInfo = super::GameInfo {
    aliases: &[],
    title: "shogi",
    ranks: 9,
    embedded_network,
    bench_depth: 9,
    bench_perft_depth: 6,
    exact: None,
    records: &record::FORMATS,
    param_options: &[],
    examples,
    page: PageInfo {
        board: BoardFamily::Wedges,
        files: 9,
        ranks: 9,
        first: "b",
        hands: true,
        pieces: &PIECES,
        empty: "9/9/9/9/9/9/9/9/9 b - 1",
        file_names: "987654321",
        rank_names: "abcdefghi",
        moves: MoveSyntax::FromTo,
        marked: &[],
        last_square: false,
        set: &[
            king_count(),
            count(&["R", "+R"], 2),
            count(&["B", "+B"], 2),
            count(&["G"], 4),
            count(&["S", "+S"], 4),
            count(&["N", "+N"], 4),
            count(&["L", "+L"], 4),
            count(&["P", "+P"], 18),
        ],
        notation: JAPANESE_AND_WESTERN,
        agreed_draw: true,
    },
    tools: ToolInfo {
        fuzz_perft_depth: 3,
        random_walk_plies: 120,
        fuzz_positions: &[
            "4k4/9/4G4/9/9/9/9/9/4K4 b G 1",
            "4k4/4G4/4G4/9/9/9/9/9/4K4 w - 1",
            "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
        ],
        random_plies: 8,
        marathon_max_plies: 400,
        soak_max_plies: 80,
        weights: None,
    },
    learning: crate::games::info::Learning::NetworkFromData { mirror: true },
};

/// The pieces of the shogi family as the page shows them (minishogi uses some of them).
pub const PIECES: [PieceInfo; 14] = [
    PieceInfo {
        royal: true,
        ..piece("K", "king", "玉", None, None)
    },
    piece("R", "rook", "飛", Some("+R"), Some("R")),
    piece("B", "bishop", "角", Some("+B"), Some("B")),
    piece("G", "gold", "金", None, Some("G")),
    piece("S", "silver", "銀", Some("+S"), Some("S")),
    piece("N", "knight", "桂", Some("+N"), Some("N")),
    piece("L", "lance", "香", Some("+L"), Some("L")),
    piece("P", "pawn", "歩", Some("+P"), Some("P")),
    piece("+R", "dragon", "龍", None, Some("R")),
    piece("+B", "horse", "馬", None, Some("B")),
    piece("+S", "promoted silver", "成銀", None, Some("S")),
    piece("+N", "promoted knight", "成桂", None, Some("N")),
    piece("+L", "promoted lance", "成香", None, Some("L")),
    piece("+P", "tokin", "と", None, Some("P")),
];

/// The notations of the shogi family: Western, and Japanese with the files' digits and the ranks'
/// kanji numerals (`☗7六歩`).
pub const JAPANESE_AND_WESTERN: Notation = Notation {
    western: true,
    japanese_files: "987654321",
    japanese_ranks: "一二三四五六七八九",
};

/// One king each: the set's count of kings in the shogi family.
pub const fn king_count() -> SetCount {
    SetCount {
        letters: &["K"],
        count: 1,
        each: true,
    }
}

/// The set's count of a kind of the shogi family, both players together: `letters` the kind and
/// its promoted form.
pub const fn count(letters: &'static [&'static str], count: u8) -> SetCount {
    SetCount {
        letters,
        count,
        each: false,
    }
}

/// A piece of the shogi family for [`PIECES`].
const fn piece(
    letter: &'static str,
    name: &'static str,
    kanji: &'static str,
    next: Option<&'static str>,
    hand: Option<&'static str>,
) -> PieceInfo {
    PieceInfo {
        letter,
        name,
        kanji,
        next,
        hand,
        royal: false,
    }
}

/// Standard shogi's example positions.
fn examples() -> Vec<Example> {
    vec![Example {
        plies: Some(1),
        ..Example::position(
            "shogi mate in 1",
            ExampleKind::Mate,
            Some("4k4/9/4P4/9/9/9/9/9/9 b G2r2b3g4s4n4l17p 1"),
        )
    }]
}

/// Standard shogi has no exact table.
impl<V: Variant> HasExactTable for Board<V> {}

/// The shogi games' networks may learn from mirrored positions: the rules are symmetric left to
/// right.
impl<V: Variant> crate::games::info::Learns for Board<V> {
    fn mirrored_feature(set: crate::nnue::FeatureSet, feature: usize) -> usize {
        nnue::Layout::<V>::mirrored_in(set, feature)
    }
}

/// The shogi network built into the binary (how it was made: `docs/nnue.md`), with the feature
/// `shogi-network` (a default; the browser build leaves it out and fetches the file on demand).
#[cfg(feature = "shogi-network")]
static EMBEDDED: LazyLock<Arc<Network>> = LazyLock::new(|| {
    crate::nnue::built_in(
        include_bytes!("shogi.nnue"),
        Standard::NAME,
        nnue::Layout::<Standard>::feature_count,
    )
});

/// The shogi network built into the binary (none without the feature `shogi-network`).
fn embedded_network() -> Option<Arc<Network>> {
    #[cfg(feature = "shogi-network")]
    return Some(Arc::clone(&EMBEDDED));
    #[cfg(not(feature = "shogi-network"))]
    None
}

/// Standard 9×9 shogi.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
pub struct Standard;

static STANDARD_TABLES: LazyLock<Tables> =
    LazyLock::new(|| Tables::new(Standard::GEOMETRY, Standard::ZONE_RANKS, &Standard::EVAL));

impl Variant for Standard {
    const NAME: &'static str = "shogi";
    const GEOMETRY: Geometry = Geometry { files: 9, ranks: 9 };
    const ZONE_RANKS: u8 = 3;
    const START_SFEN: &'static str =
        "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1";
    const PIECE_SET: [u8; 8] = [18, 4, 4, 4, 2, 2, 4, 2];
    const EVAL: eval::EvalWeights = eval::SHOGI_WEIGHTS;
    const BENCH_SFENS: &'static [&'static str] = &[
        "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1",
        "ln1g3nl/1r1sk1gb1/p1pppp1pp/1p4p2/9/2P1P1P2/PPSP1P1PP/1BK2S1R1/LN1G1G1NL b - 15",
        "l6nl/5+P1gk/2np1S3/p1p4Pp/3P2Sp1/1PPb2P1P/P5GS1/R8/LN4bKL w RGgsn5p 1",
        "ln3k2l/1r2gs3/p1pp1p1pp/4p1p2/1p5P1/2P1P4/PPSP1PP1P/1BG1G2R1/LN2K1SNL w BGNs 40",
        "8l/1l+R2P3/p2pBG1pp/kps1p4/Nn1P2G2/P1P1P2PP/1PS6/1KSG3+r1/LN2+p3L w Sbgn3p 124",
        "lr5nl/2g1kg3/p1nsppsp1/2pp2p1p/1p5P1/2PPPSP1P/PPS2P3/1KG1G2R1/LN5NL b Bb 33",
    ];
    type Rules = rules::ShogiRules;
    #[inline(always)]
    fn tables() -> &'static Tables {
        &STANDARD_TABLES
    }
    fn quiet_repetition(_: &Repetition, _: Color, _: Color, _: &Self::Rules) -> Outcome {
        Outcome::Draw
    }
    fn special_end(_: &Board<Self>, _: &Self::Rules) -> Option<Verdict> {
        None
    }
    fn can_declare(pos: &Board<Self>, rules: &Self::Rules) -> bool {
        pos.declaration_allowed(rules.entering_king)
    }
}

/// A standard shogi position.
pub type Shogi = Board<Standard>;
