//! Minishogi rules: handicap positions, the handicap lance, repetition under each
//! `MinishogiRepetition` setting, perpetual check, jishogi, the article's games, malformed input.

mod common;

use tsubame::core::color::Color;
use tsubame::core::game::Position;
use tsubame::core::moves::{Move, MoveList};
use tsubame::core::repetition::HistoryEntry;
use tsubame::core::rules::{EndReason, Outcome, RuleOptions};
use tsubame::games::minishogi::rules::{MiniJishogi, MiniRepetition, MiniRules};
use tsubame::games::minishogi::{Minishogi, jishogi_count};

/// A game replayed from an SFEN: its final position and the history of all its positions.
struct Replay {
    pos: Minishogi,
    history: Vec<HistoryEntry>,
}

fn replay(sfen: &str, moves: &str) -> Replay {
    let mut pos = Minishogi::from_sfen(sfen).unwrap_or_else(|e| panic!("{sfen}: {e}"));
    let mut history = vec![HistoryEntry {
        key: pos.key(),
        in_check: pos.in_check(),
    }];
    for m in moves.split_whitespace() {
        let mv = pos.parse_move(m).unwrap_or_else(|e| panic!("{e}"));
        pos.play(mv);
        history.push(HistoryEntry {
            key: pos.key(),
            in_check: pos.in_check(),
        });
    }
    Replay { pos, history }
}

fn rules(repetition: MiniRepetition) -> RuleOptions<MiniRules> {
    RuleOptions {
        game: MiniRules {
            repetition,
            ..MiniRules::default()
        },
        ..RuleOptions::default()
    }
}

#[test]
fn handicap_positions_parse_and_have_moves() {
    for sfen in [
        "rbsgk/4p/5/P4/KGSBR b - 1",
        "rbsgk/4p/5/P4/KGSB+R w - 1",
        "rbsgk/4p/5/P4/KGS+BR w - 1",
        "lbsgk/4p/5/P4/KGSBR w - 1",
        "r1sgk/4p/5/P4/KGSBR w - 1",
        "1bsgk/4p/5/P4/KGSBR w - 1",
    ] {
        let pos = Minishogi::from_sfen(sfen).unwrap_or_else(|e| panic!("{sfen}: {e}"));
        assert_eq!(pos.to_sfen(), sfen);
        assert!(pos.count_legal_moves() > 0, "{sfen}");
    }
}

#[test]
fn handicap_lance_moves_and_promotes_on_the_last_rank_only() {
    // White's lance on 5c; White's promotion zone is rank e.
    let pos = Minishogi::from_sfen("4k/5/l4/5/1K3 w - 1").unwrap();
    assert!(pos.parse_move("5c5d").is_ok());
    assert!(
        pos.parse_move("5c5d+").is_err(),
        "rank d is outside the zone"
    );
    assert!(
        pos.parse_move("5c5e").is_err(),
        "a lance must promote on the last rank"
    );
    assert!(pos.parse_move("5c5e+").is_ok());
    // A lance may not be dropped on its last rank.
    let drop = Minishogi::from_sfen("4k/5/5/5/1K3 b L 1").unwrap();
    assert!(drop.parse_move("L*3a").is_err());
    assert!(drop.parse_move("L*3b").is_ok());
    // Handicap level 5 from the start: the lance captures down the file only with promotion at e.
    let h5 = Minishogi::from_sfen("lbsgk/4p/5/P4/KGSBR w - 1").unwrap();
    assert!(h5.parse_move("5a5d").is_ok());
}

#[test]
fn pawn_promotion_is_forced_and_zone_is_one_rank() {
    let pos = Minishogi::from_sfen("4k/P4/5/5/K4 b - 1").unwrap();
    assert!(pos.parse_move("5b5a").is_err());
    assert!(pos.parse_move("5b5a+").is_ok());
    // A silver entering rank a may promote or not; one moving on rank c may not promote.
    let s = Minishogi::from_sfen("4k/5/S4/5/K4 b - 1").unwrap();
    assert!(s.parse_move("5c5b+").is_err());
    let s2 = Minishogi::from_sfen("4k/S4/5/5/K4 b - 1").unwrap();
    assert!(s2.parse_move("5b5a").is_ok() && s2.parse_move("5b5a+").is_ok());
}

#[test]
fn quiet_repetition_under_each_setting() {
    // Black opens with the pawn (5d5c), then the kings shuttle 1a-2b and 5e-5d. The position after
    // 5d5c (White to move) is the first to occur a fourth time: White is to move, Black moved first.
    let game = replay(
        "rbsgk/4p/5/P4/KGSBR b - 1",
        &format!("5d5c {}", "1a2b 5e5d 2b1a 5d5e ".repeat(3)),
    );
    let verdict = |r| game.pos.repetition(&game.history, 4, &rules(r)).unwrap();
    let v = verdict(MiniRepetition::Initiator);
    assert_eq!(
        (v.outcome, v.reason),
        (Outcome::Loss, EndReason::Repetition)
    );
    // Black loses in the other two settings, and White is to move.
    assert_eq!(verdict(MiniRepetition::SenteLoses).outcome, Outcome::Win);
    assert_eq!(
        verdict(MiniRepetition::FirstMoverLoses).outcome,
        Outcome::Win
    );
    // Never a draw, and not before the fourth occurrence.
    let shorter = &game.history[..game.history.len() - 1];
    assert!(
        game.pos
            .repetition(shorter, 4, &rules(MiniRepetition::Initiator))
            .is_none()
    );

    // A handicap game where White moves first: the start position repeats with White to move.
    let h = replay(
        "rbsgk/4p/5/P4/KGSB+R w - 1",
        &"1a2b 5e4d 2b1a 4d5e ".repeat(3),
    );
    let verdict = |r| h.pos.repetition(&h.history, 4, &rules(r)).unwrap().outcome;
    assert_eq!(verdict(MiniRepetition::Initiator), Outcome::Loss); // White to move
    assert_eq!(verdict(MiniRepetition::SenteLoses), Outcome::Win); // Black loses
    assert_eq!(verdict(MiniRepetition::FirstMoverLoses), Outcome::Loss); // White moved first
}

#[test]
fn perpetual_check_loses_for_the_checker_in_every_setting() {
    // Black's rook follows White's king along rank c: 2c1c checks the king on 1a down file 1, the
    // king steps to 2a, 1c2c checks it down file 2, the king steps back. Every Black move checks.
    let sfen = "4k/5/3R1/5/K4 b - 1";
    let game = replay(sfen, &"2c1c 1a2a 1c2c 2a1a ".repeat(3));
    assert!(game.history.iter().skip(1).step_by(2).all(|e| e.in_check));
    for r in [
        MiniRepetition::Initiator,
        MiniRepetition::SenteLoses,
        MiniRepetition::FirstMoverLoses,
    ] {
        let v = game.pos.repetition(&game.history, 4, &rules(r)).unwrap();
        // Black, the checker, is to move and loses.
        assert_eq!(
            (v.outcome, v.reason),
            (Outcome::Loss, EndReason::PerpetualCheck),
            "{r:?}"
        );
    }
}

#[test]
fn jishogi_draw_and_both_counting_outcomes() {
    let count = RuleOptions {
        game: MiniRules {
            jishogi: MiniJishogi::Count,
            ..MiniRules::default()
        },
        ..RuleOptions::default()
    };
    let draw = RuleOptions::default();
    // Black king on 5a (his last rank), White king on 1e (his): Black 12 points, White 10.
    let pos = Minishogi::from_sfen("K4/5/5/5/4k b RBGS2Prbgs 1").unwrap();
    assert_eq!(
        (
            jishogi_count(&pos, tsubame::core::color::Color::Black),
            jishogi_count(&pos, tsubame::core::color::Color::White)
        ),
        (12, 10)
    );
    let v = pos.special_end(&count).unwrap();
    assert_eq!(
        (v.outcome, v.reason),
        (Outcome::Win, EndReason::Special("jishogi"))
    );
    assert_eq!(pos.special_end(&draw).unwrap().outcome, Outcome::Draw);
    let white = Minishogi::from_sfen("K4/5/5/5/4k w RBGS2Prbgs 1").unwrap();
    assert_eq!(white.special_end(&count).unwrap().outcome, Outcome::Loss);
    // 11 against 11 is a draw.
    let even = Minishogi::from_sfen("K4/5/5/5/4k b RBGSPrbgsp 1").unwrap();
    assert_eq!(even.special_end(&count).unwrap().outcome, Outcome::Draw);
    // Only one king on its last rank: no jishogi.
    let one = Minishogi::from_sfen("5/K4/5/5/4k b RBGS2Prbgs 1").unwrap();
    assert!(one.special_end(&count).is_none());
    // The game verdict includes it.
    let history = [HistoryEntry {
        key: pos.key(),
        in_check: false,
    }];
    assert_eq!(
        pos.verdict(&history, &count).unwrap().reason,
        EndReason::Special("jishogi")
    );
}

#[test]
fn no_legal_move_is_a_loss() {
    // White king on 1a, Black gold on 1b protected by a silver on 2c: checkmate.
    let pos = Minishogi::from_sfen("4k/4G/3S1/5/K4 w - 1").unwrap();
    let history = [HistoryEntry {
        key: pos.key(),
        in_check: pos.in_check(),
    }];
    let v = pos.verdict(&history, &RuleOptions::default()).unwrap();
    assert_eq!(
        (v.outcome, v.reason),
        (Outcome::Loss, EndReason::NoLegalMove)
    );
}

#[test]
fn article_games_replay_to_their_final_positions() {
    let rows = common::tsv("minishogi-games.tsv");
    assert_eq!(rows.len(), 2);
    for row in rows {
        let game = replay(&row[1], &row[2]);
        let got = game.pos.to_sfen();
        let want: Vec<&str> = row[3].split_whitespace().collect();
        let got: Vec<&str> = got.split_whitespace().collect();
        assert_eq!(got[..3], want[..3], "{}", row[0]);
    }
}

#[test]
fn malformed_minishogi_input_is_refused() {
    for sfen in [
        "rbsgk/4p/5/P4/KGSBN b - 1",   // no knight in minishogi
        "rbsgk/4p/5/P4 b - 1",         // four ranks
        "rbsgk/4p/5/P4/KGSBR/5 b - 1", // six ranks
        "rbsgk/4p/6/P4/KGSBR b - 1",   // six squares in a rank
        "4k/5/5/5/K4 b 10P 1",         // ten pawns in hand
        "4k/5/5/5/K4 b N 1",           // a knight in hand
        "P3k/5/5/5/K4 b - 1",          // pawn on the last rank
        "4k/5/5/5/K4 b",               // missing hand
    ] {
        let r = std::panic::catch_unwind(|| Minishogi::from_sfen(sfen));
        assert!(matches!(r, Ok(Err(_))), "{sfen}: {r:?}");
    }
    let pos = Minishogi::startpos();
    for mv in ["6e5d", "5e5f", "7g7f", "N*3c", "5e4d+"] {
        assert!(pos.parse_move(mv).is_err(), "{mv}");
    }
}

/// The legal moves of `pos` as USI text, sorted.
fn move_texts(pos: &Minishogi) -> Vec<String> {
    let mut list = MoveList::<Move>::new();
    pos.legal_moves(&mut list);
    let mut v: Vec<String> = list.iter().map(|&m| pos.move_to_usi(m)).collect();
    v.sort();
    v
}

#[test]
fn extra_moves_handicap_black_moves_in_a_row_without_capturing() {
    let normal = Minishogi::startpos();
    for moves in [2u8, 3] {
        let mut pos = Minishogi::startpos();
        pos.begin_extra_moves(moves);
        assert_ne!(
            pos.key(),
            normal.key(),
            "pending extra moves are part of the key"
        );
        // Black's first move: every normal move but the captures (the rook's 1e1b).
        let expected: Vec<String> = move_texts(&normal)
            .into_iter()
            .filter(|m| {
                let mv = normal.parse_move(m).unwrap();
                mv.is_drop() || normal.piece_at(mv.to()).is_none()
            })
            .collect();
        assert!(expected.len() < move_texts(&normal).len());
        assert_eq!(move_texts(&pos), expected);
        for i in 0..moves {
            assert_eq!(pos.side_to_move(), Color::Black);
            let mv = pos
                .parse_move(["3e2d", "2d2c", "5e4d"][i as usize])
                .unwrap();
            pos.play(mv);
            if i + 1 < moves {
                assert_eq!(move_texts(&pos), vec!["pass".to_string()]);
                assert!(pos.parse_move("4a5b").is_err(), "White may only pass");
                pos.play(pos.parse_move("pass").unwrap());
            }
        }
        // The handicap is over: White plays normally and may not pass.
        assert_eq!(pos.side_to_move(), Color::White);
        assert!(!move_texts(&pos).contains(&"pass".to_string()));
        assert!(pos.parse_move("pass").is_err());
        assert!(move_texts(&pos).len() > 1);
    }
}

#[test]
fn extra_moves_refuse_captures_and_start_only_at_move_one() {
    // White to move first (a handicap SFEN): he passes, then Black may not capture 1b.
    let mut pos = Minishogi::from_sfen("rbsgk/4p/5/P4/KGSBR w - 1").unwrap();
    pos.begin_extra_moves(2);
    pos.play(pos.parse_move("pass").unwrap());
    let err = pos.parse_move("1e1b").unwrap_err().to_string();
    assert!(err.contains("may not capture"), "{err}");
    // Without the option, or later in a game, there is no pass.
    let plain = Minishogi::startpos();
    assert!(plain.parse_move("pass").is_err());
    let mut later = Minishogi::from_sfen("rbsgk/4p/5/P4/KGSBR b - 3").unwrap();
    later.begin_extra_moves(2);
    assert_eq!(move_texts(&later), move_texts(&plain));
    // Standard shogi has no pass move at all.
    let mut shogi = tsubame::games::shogi::Shogi::startpos();
    shogi.begin_extra_moves(2);
    assert!(shogi.parse_move("pass").is_err());
}

/// The search takes moves in stages; the captures-and-promotions and the quiet moves it generates
/// separately must be exactly the legal moves, during an extra-moves handicap too.
#[test]
fn tactical_and_quiet_moves_partition_the_legal_moves() {
    common::random_walk(
        &Minishogi::startpos(),
        5_000,
        17,
        common::assert_moves_partition,
    );
    let mut handicap = Minishogi::startpos();
    handicap.begin_extra_moves(2);
    common::random_walk(&handicap, 6, 3, common::assert_moves_partition);
}

/// Minishogi's set has two of each kind (one lance, for handicap 5): a position holding more on the
/// board and in hand is refused; fewer is fine.
#[test]
fn positions_beyond_the_piece_set_are_refused_and_fewer_pieces_are_legal() {
    common::assert_sfens::<Minishogi>(
        &[
            (
                "4k/5/5/P4/K4 b 2p 1",
                "3 pawns on the board and in hand, but the minishogi set has 2",
            ),
            (
                "4k/5/5/+S4/K4 b Ss 1",
                "3 silvers on the board and in hand, but the minishogi set has 2",
            ),
            (
                "4k/5/5/5/K4 b 3P 1",
                "3 'P' in hand, but the minishogi set has 2",
            ),
        ],
        &["4k/5/5/5/K4 b P 1", "4k/5/5/5/5 b G 1"],
    );
}
