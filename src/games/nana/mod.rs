//! Nana shogi (3×3), Georg Dunkel's game as docs/rules.md §4 fixes it.
//!
//! Each player owns a king and two cubes, an orthogonal one (R → C → W → I) and a diagonal one
//! (B → T → M → D); a cube turns to its next state after every board move. The game opens with both
//! king drops, pieces are dropped anywhere but the centre and never with check, and a move may not
//! checkmate while its player holds a piece in hand (see [`movegen`] for the nested judgement).

pub mod attacks;
pub mod eval;
pub mod movegen;
pub mod nnue;
pub mod position;
pub mod rules;
pub mod tablebase;
pub mod types;

pub use movegen::MATE_RULE_LEVELS;
pub use position::{Nana, START_SFEN};
pub use rules::{repetition_draw, repetition_verdict};

use std::sync::{Arc, LazyLock};

use crate::games::info::{
    AnyTable, BoardFamily, ExactInfo, ExactTable, Example, ExampleKind, HasExactTable, MoveSyntax,
    Notation, PageInfo, PieceInfo, SetCount, ToolInfo,
};
use crate::nnue::network::Network;

/// Nana shogi's registry entry.
pub const INFO: super::GameInfo = super::GameInfo {
    aliases: &["nana"],
    title: "nana shogi",
    ranks: 3,
    embedded_network,
    bench_depth: 9,
    bench_perft_depth: 6,
    exact: Some(ExactInfo {
        option: "NanaTablebase",
        flag: "nana-tablebase",
        default_file: "nanashogi.tb",
        load: |path| Ok(Arc::new(tablebase::Tablebase::load(path)?) as AnyTable),
        solve: tablebase::solve,
    }),
    records: &[],
    param_options: &[],
    examples,
    page: PageInfo {
        board: BoardFamily::Cubes,
        files: 3,
        ranks: 3,
        first: "b",
        hands: true,
        pieces: &PIECES,
        empty: "3/3/3 b - 1",
        file_names: "321",
        rank_names: "abc",
        moves: MoveSyntax::FromTo,
        // The centre, where no piece may be dropped.
        marked: &["2b"],
        last_square: false,
        set: &[
            SetCount {
                letters: &["K"],
                count: 1,
                each: true,
            },
            SetCount {
                letters: &["R", "C", "W", "I"],
                count: 2,
                each: false,
            },
            SetCount {
                letters: &["B", "T", "M", "D"],
                count: 2,
                each: false,
            },
        ],
        notation: Notation {
            western: true,
            japanese_files: "321",
            japanese_ranks: "一二三",
        },
        agreed_draw: false,
    },
    tools: ToolInfo {
        fuzz_perft_depth: 5,
        random_walk_plies: 16,
        fuzz_positions: &[],
        random_plies: 4,
        marathon_max_plies: 512,
        soak_max_plies: 40,
        weights: None,
    },
    learning: crate::games::info::Learning::NetworkFromTable,
};

/// Nana shogi's pieces as the page shows them: the king, and each cube's faces in the order it
/// turns through them. The kanji are those of the large shogi variants' pieces that move alike,
/// whose English names the faces bear (the reverse chariot 反車 is the chariot).
const PIECES: [PieceInfo; 9] = [
    PieceInfo {
        royal: true,
        ..face("K", "king", "玉", "K", "K")
    },
    face("R", "rook", "飛", "C", "R"),
    face("C", "chariot", "反車", "W", "R"),
    face("W", "swallow's wings", "燕羽", "I", "R"),
    face("I", "go-between", "仲人", "R", "R"),
    face("B", "bishop", "角", "T", "B"),
    face("T", "tile general", "瓦将", "M", "B"),
    face("M", "cat's sword", "猫刃", "D", "B"),
    face("D", "dog", "犬", "B", "B"),
];

/// A face of a nana shogi piece for [`PIECES`]: its letter, name, kanji, next face and the letter
/// it is held in hand as.
const fn face(
    letter: &'static str,
    name: &'static str,
    kanji: &'static str,
    next: &'static str,
    hand: &'static str,
) -> PieceInfo {
    PieceInfo {
        letter,
        name,
        kanji,
        next: Some(next),
        hand: Some(hand),
        royal: false,
    }
}

/// Nana shogi's example positions: a mate in one, and the solved start, whose line the exact
/// table gives.
fn examples() -> Vec<Example> {
    vec![
        Example {
            plies: Some(1),
            ..Example::position("nana mate in 1", ExampleKind::Mate, Some("2k/M2/1CK b b 1"))
        },
        Example {
            plies: Some(125),
            exact: true,
            ..Example::position("nana solved start (125 plies)", ExampleKind::Mate, None)
        },
    ]
}

/// Nana shogi's network learns from its exact table, as its registry entry says.
impl crate::games::info::Learns for Nana {}

/// Nana shogi has no CSA notation, material balance or impasse.
impl crate::games::info::MatchSupport for Nana {}

impl HasExactTable for Nana {
    fn exact_table(table: &AnyTable) -> Option<&dyn ExactTable<Nana>> {
        table
            .downcast_ref::<tablebase::Tablebase>()
            .map(|t| t as &dyn ExactTable<Nana>)
    }
}

/// The nana shogi network built into the binary, trained on the solved table (how it was made:
/// `docs/nnue.md`).
static EMBEDDED: LazyLock<Arc<Network>> = LazyLock::new(|| {
    crate::nnue::built_in(include_bytes!("nanashogi.nnue"), position::NAME, |_| {
        nnue::FEATURES
    })
});

/// The nana shogi network built into the binary.
fn embedded_network() -> Option<Arc<Network>> {
    Some(Arc::clone(&EMBEDDED))
}
