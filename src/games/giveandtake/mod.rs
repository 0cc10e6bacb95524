//! Give and Take, Christopher Elis's draughts game (docs/rules.md, from `RULES.md` §4): 8×8,
//! sixteen men a side on the Turkish draughts start, men stepping and capturing forward or
//! sideways, rook-like kings whose multiple captures may turn and reverse, and a capture
//! obligation that applies only against the piece just moved.
//!
//! The position and its text form ([`position`]), the legal moves with their full capture routes
//! and perft ([`movegen`]), the evaluation ([`eval`]) and the game on the shared core ([`game`]). A
//! capture is a route, not a from–to pair, so the game's move ([`movegen::GtMove`], its
//! `Position::Move`) lists its stops.

pub mod eval;
pub mod game;
pub mod movegen;
pub mod pack;
pub mod position;

use crate::games::info::{
    BoardFamily, Example, ExampleKind, HasExactTable, MoveSyntax, Notation, PageInfo, PieceInfo,
    SetCount, ToolInfo, WeightsTuning,
};
pub use movegen::GtMove;
pub use position::{GiveAndTake, START_FEN};

/// Give and Take's registry entry (no network: a tuned linear evaluation, [`eval`]).
pub const INFO: super::GameInfo = super::GameInfo {
    aliases: &[],
    title: "Give and Take",
    ranks: 8,
    embedded_network: || None,
    bench_depth: 8,
    bench_perft_depth: 7,
    exact: None,
    records: &[],
    param_options: &[eval::WEIGHTS_OPTION],
    examples,
    page: PageInfo {
        board: BoardFamily::Discs,
        files: 8,
        ranks: 8,
        first: "w",
        hands: false,
        pieces: &[
            PieceInfo {
                letter: "M",
                name: "man",
                kanji: "",
                next: Some("K"),
                hand: None,
                royal: false,
            },
            PieceInfo {
                letter: "K",
                name: "king",
                kanji: "",
                next: None,
                hand: None,
                royal: false,
            },
        ],
        empty: "8/8/8/8/8/8/8/8 w - 1",
        file_names: "abcdefgh",
        rank_names: "87654321",
        moves: MoveSyntax::Route,
        marked: &[],
        last_square: true,
        // Sixteen men a player, a king counted as the man it was.
        set: &[SetCount {
            letters: &["M", "K"],
            count: 16,
            each: true,
        }],
        // The article's notation is the move strings themselves (`c4:c6:c8`).
        notation: Notation::NONE,
        agreed_draw: true,
    },
    tools: ToolInfo {
        fuzz_perft_depth: 4,
        random_walk_plies: 80,
        fuzz_positions: &[
            "1K6/8/8/K7/k7/K7/8/8 b a3 4",
            "8/4m3/8/4K3/8/4m3/2m3m1/8 w - 1",
        ],
        random_plies: 4,
        marathon_max_plies: 512,
        soak_max_plies: 60,
        weights: Some(WeightsTuning {
            option: eval::WEIGHTS_OPTION.name,
            limit: eval::WEIGHT_LIMIT,
            // About a tenth of a typical value, at least 2: man, king, advance, king_mobility,
            // man_mobility, near_crown, tempo.
            steps: &[8, 25, 2, 2, 2, 10, 4],
        }),
    },
    learning: crate::games::info::Learning::Linear {
        names: &eval::FEATURE_NAMES,
        weights: &eval::WEIGHTS,
    },
};

/// The rules' examples: a win the mate search finds, a forced route, and the king's captures.
fn examples() -> Vec<Example> {
    let position = |label, sfen| Example::position(label, ExampleKind::Position, sfen);
    vec![
        Example::position(
            "Give and Take README win",
            ExampleKind::Mate,
            Some("K7/1m6/1m6/8/m7/m7/8/KK6 b - 1"),
        ),
        Example {
            moves: vec!["c3-c4".into(), "c6-c5".into()],
            ..position("Give and Take: c4:c6:c8 forced", None)
        },
        position(
            "Give and Take: king e5 takes 4 or 2",
            Some("8/4m3/8/4K3/8/4m3/2m3m1/8 w - 1"),
        ),
        position(
            "Give and Take: king lands anywhere",
            Some("7k/8/8/8/8/8/8/Km3m2 w - 1"),
        ),
    ]
}

impl HasExactTable for GiveAndTake {}

/// Give and Take's evaluation is a weighted sum of the counts [`eval`] defines.
impl crate::games::info::Learns for GiveAndTake {
    fn linear_counts(&self) -> Vec<i32> {
        self.features().to_vec()
    }
}

/// Give and Take has no CSA notation, material balance or impasse.
impl crate::games::info::MatchSupport for GiveAndTake {}
