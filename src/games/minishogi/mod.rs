//! Minishogi (5×5): the shogi-family position on a 5×5 board with a one-rank promotion zone, and the
//! minishogi article's game-end rules (repetition lost by its initiator, jishogi).

pub mod examples;
pub mod rules;

use std::sync::{Arc, LazyLock};

use crate::core::color::Color;
use crate::core::game::Position;
use crate::core::repetition::Repetition;
use crate::core::rules::{EndReason, Outcome, Verdict};
use crate::core::search_params::SearchParams;
use crate::core::square::Geometry;
use crate::games::info::{BoardFamily, MoveSyntax, Notation, PageInfo, PieceInfo, ToolInfo};
use crate::games::shogi;
use crate::games::shogi::Variant;
use crate::games::shogi::attacks::Tables;
use crate::games::shogi::eval::EvalWeights;
use crate::games::shogi::nnue::Layout;
use crate::games::shogi::position::Board;
use crate::games::shogi::types::Kind;
use crate::nnue::network::Network;
use rules::{MiniJishogi, MiniRepetition, MiniRules};

/// Minishogi's registry entry.
pub const INFO: crate::games::GameInfo = crate::games::GameInfo {
    aliases: &[],
    title: "minishogi",
    ranks: 5,
    embedded_network,
    bench_depth: 11,
    bench_perft_depth: 7,
    exact: None,
    records: &[],
    param_options: &[],
    examples: examples::examples,
    page: PageInfo {
        board: BoardFamily::Wedges,
        files: 5,
        ranks: 5,
        first: "b",
        hands: true,
        pieces: &PIECES,
        empty: "5/5/5/5/5 b - 1",
        file_names: "54321",
        rank_names: "abcde",
        moves: MoveSyntax::FromTo,
        marked: &[],
        last_square: false,
        set: &[
            shogi::king_count(),
            shogi::count(&["R", "+R"], 2),
            shogi::count(&["B", "+B"], 2),
            shogi::count(&["G"], 2),
            shogi::count(&["S", "+S"], 2),
            shogi::count(&["P", "+P"], 2),
        ],
        notation: Notation {
            japanese_files: "54321",
            japanese_ranks: "一二三四五",
            ..shogi::JAPANESE_AND_WESTERN
        },
        agreed_draw: false,
    },
    tools: ToolInfo {
        fuzz_perft_depth: 4,
        random_walk_plies: 40,
        fuzz_positions: &["2k2/5/2G2/5/K4 b G 1", "2k2/2G2/2G2/5/K4 w - 1"],
        random_plies: 4,
        marathon_max_plies: 512,
        soak_max_plies: 60,
        weights: None,
    },
    learning: crate::games::info::Learning::NetworkFromData { mirror: true },
};

/// Minishogi's pieces as the page shows them: standard shogi's without knights and lances.
const PIECES: [PieceInfo; 10] = {
    let all = crate::games::shogi::PIECES;
    [
        all[0], all[1], all[2], all[3], all[4], all[7], all[8], all[9], all[10], all[13],
    ]
};

/// The minishogi network built into the binary (how it was made: `docs/nnue.md`).
static EMBEDDED: LazyLock<Arc<Network>> = LazyLock::new(|| {
    crate::nnue::built_in(
        include_bytes!("minishogi.nnue"),
        Mini::NAME,
        Layout::<Mini>::feature_count,
    )
});

/// The minishogi network built into the binary.
fn embedded_network() -> Option<Arc<Network>> {
    Some(Arc::clone(&EMBEDDED))
}

/// The minishogi variant of the shogi family.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
pub struct Mini;

/// A minishogi position.
pub type Minishogi = Board<Mini>;

/// Weights of minishogi: on the small board the rook and bishop dominate and a pawn is rare.
pub const MINISHOGI_WEIGHTS: EvalWeights = EvalWeights {
    //       P    L   N    S    B    R    G   K   +P   +L   +N   +S   +B   +R
    board: [
        100, 300, 0, 450, 600, 700, 500, 0, 500, 500, 0, 500, 850, 950,
    ],
    hand: [130, 330, 0, 500, 660, 770, 550, 0],
    advance: [10, 5, 0, 8],
    guard: 25,
    attacker_near_king: 30,
    king_exposure: 10,
    promotion_threat: 40,
    tempo: 20,
};

static MINI_TABLES: LazyLock<Tables> =
    LazyLock::new(|| Tables::new(Mini::GEOMETRY, Mini::ZONE_RANKS, &Mini::EVAL));

/// Jishogi points of a piece kind: rook and bishop 3, gold and silver 2, pawn and lance 1, promoted
/// pieces as their base piece, king 0.
fn jishogi_points(kind: Kind) -> u32 {
    match kind.unpromoted() {
        Kind::Rook | Kind::Bishop => 3,
        Kind::Gold | Kind::Silver => 2,
        Kind::Pawn | Kind::Lance | Kind::Knight => 1,
        Kind::King => 0,
        _ => unreachable!("unpromoted kinds only"),
    }
}

/// A player's jishogi count: his pieces on the board and in hand.
pub fn jishogi_count(pos: &Minishogi, color: Color) -> u32 {
    pos.piece_sum(color, |k| jishogi_points(k) as i32) as u32
}

impl Variant for Mini {
    const NAME: &'static str = "minishogi";
    const GEOMETRY: Geometry = Geometry { files: 5, ranks: 5 };
    const ZONE_RANKS: u8 = 1;
    const EXTRA_MOVES: bool = true;
    const START_SFEN: &'static str = "rbsgk/4p/5/P4/KGSBR b - 1";
    // The lance only appears in handicap level 5, where it replaces White's rook.
    const PIECE_SET: [u8; 8] = [2, 1, 0, 2, 2, 2, 2, 2];
    const EVAL: EvalWeights = MINISHOGI_WEIGHTS;
    const BENCH_SFENS: &'static [&'static str] = &[
        "rbsgk/4p/5/P4/KGSBR b - 1",
        "rbsgk/4p/5/P4/KGSB+R w - 1",
        "3rk/Bs1gp/2Sb1/PG3/1KR2 b - 15",
        "2bgk/4p/r1s2/P1S2/KGB1R b - 9",
    ];

    type Rules = MiniRules;

    #[inline(always)]
    fn tables() -> &'static Tables {
        &MINI_TABLES
    }

    /// Minishogi's own set, tuned by `tools/spsa-match --game minishogi` in two runs (1,500
    /// iterations of 8 games at 15,000 nodes a move, seed 11; then from its end point 750 of 16
    /// games with half the step, seed 12; docs/strength.md): shallower reverse futility, null
    /// moves from depth 1 with larger reductions, wider late-move pruning, harder late-move
    /// reductions, no quiet promotions in quiescence.
    fn search_params() -> SearchParams {
        SearchParams {
            aspiration_window: 52,
            aspiration_min_depth: 5,
            rfp_margin: 41,
            rfp_max_depth: 2,
            nmp_min_depth: 1,
            nmp_base_reduction: 8,
            nmp_depth_divisor: 9,
            futility_margin: 90,
            futility_max_depth: 7,
            lmp_base: 13,
            lmp_max_depth: 11,
            see_capture_margin: 174,
            see_quiet_margin: 91,
            lmr_base: 109,
            lmr_divisor: 256,
            lmr_history_divisor: 9230,
            se_min_depth: 5,
            se_margin: 18,
            delta_margin: 289,
            qs_promotion_plies: 0,
            ..SearchParams::default()
        }
    }

    fn quiet_repetition(
        _: &Repetition,
        side_to_move: Color,
        first_mover: Color,
        rules: &MiniRules,
    ) -> Outcome {
        let loser = match rules.repetition {
            MiniRepetition::Initiator => side_to_move,
            MiniRepetition::SenteLoses => Color::Black,
            MiniRepetition::FirstMoverLoses => first_mover,
        };
        if loser == side_to_move {
            Outcome::Loss
        } else {
            Outcome::Win
        }
    }

    fn special_end(pos: &Minishogi, rules: &MiniRules) -> Option<Verdict> {
        let (Some(bk), Some(wk)) = (pos.king(Color::Black), pos.king(Color::White)) else {
            return None;
        };
        let geo = Self::GEOMETRY;
        if geo.rank(bk) != 0 || geo.rank(wk) != geo.ranks - 1 {
            return None;
        }
        let outcome = match rules.jishogi {
            MiniJishogi::Draw => Outcome::Draw,
            MiniJishogi::Count => {
                let us = pos.side_to_move();
                let mine = jishogi_count(pos, us);
                let theirs = jishogi_count(pos, !us);
                if mine < 11 && theirs >= 11 {
                    Outcome::Loss
                } else if theirs < 11 && mine >= 11 {
                    Outcome::Win
                } else {
                    Outcome::Draw
                }
            }
        };
        Some(Verdict {
            outcome,
            reason: EndReason::Special("jishogi"),
        })
    }

    fn can_declare(_: &Minishogi, _: &MiniRules) -> bool {
        false
    }

    fn begin_game(pos: &mut Minishogi, rules: &MiniRules) {
        pos.begin_extra_moves(rules.extra_moves);
    }
}

impl crate::games::info::MatchSupport for Minishogi {
    fn material_balance(&self) -> Option<i32> {
        Some(crate::games::shogi::adjudication::material_balance::<Mini>(
            self,
        ))
    }
}
