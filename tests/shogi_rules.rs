//! Standard shogi rules beyond perft: single-move legality, repetition, entering-king declaration,
//! SFEN round trips, incremental hashing, and refusal of malformed input.

mod common;

use tsubame::core::game::Position;
use tsubame::core::moves::{Move, MoveList};
use tsubame::core::repetition::HistoryEntry;
use tsubame::core::rules::{Outcome, RuleOptions};
use tsubame::core::search_game::SearchGame;
use tsubame::games::shogi::Shogi;
use tsubame::games::shogi::rules::EnteringKingRule;
use tsubame::rng::Rng;

/// The table's position with four bishops (a quadruple check): more bishops than the set has, so
/// not a shogi position; it must be refused for that, and its moves are not judged.
const FOUR_BISHOPS: &str = "9/9/2B3B2/9/4k4/9/2B3B2/9/8K w - 1";

#[test]
fn single_move_legality_table() {
    let mut failures = Vec::new();
    for row in common::tsv("rules-move-legality.tsv") {
        if row[0] == FOUR_BISHOPS {
            let e = Shogi::from_sfen(&row[0]).unwrap_err().to_string();
            assert!(
                e.contains("4 bishops on the board and in hand, but the shogi set has 2"),
                "{e}"
            );
            continue;
        }
        let pos = Shogi::from_sfen(&row[0]).unwrap_or_else(|e| panic!("{}: {e}", row[0]));
        let legal = pos.parse_move(&row[1]).is_ok();
        if legal != (row[2] == "legal") {
            failures.push(format!("{} {}: expected {}", row[0], row[1], row[2]));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// A game replayed from an SFEN: its final position and the history of all its positions.
struct Replay {
    pos: Shogi,
    history: Vec<HistoryEntry>,
}

/// Replays `moves` from `sfen`.
fn replay(sfen: &str, moves: &str) -> Replay {
    let mut pos = Shogi::from_sfen(sfen).unwrap();
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

impl Replay {
    /// The repetition verdict once the final position has occurred `n` times, as an outcome.
    fn repetition(&self, n: usize) -> Option<Outcome> {
        self.pos
            .repetition(&self.history, n, &RuleOptions::default())
            .map(|v| v.outcome)
    }

    /// The same, for the game one move shorter.
    fn repetition_before_last(&self, n: usize) -> Option<Outcome> {
        let h = &self.history[..self.history.len() - 1];
        // The side to move differs one move earlier, but standard shogi's verdict does not use it.
        self.pos
            .repetition(h, n, &RuleOptions::default())
            .map(|v| v.outcome)
    }
}

#[test]
fn repetition_table() {
    for row in common::tsv("rules-repetition.tsv") {
        let (sfen, moves, expected) = (&row[0], &row[1], &row[3]);
        let game = replay(sfen, moves);
        let want = if expected.starts_with("REPETITION_DRAW") {
            Outcome::Draw
        } else if expected.starts_with("REPETITION_LOSE") {
            Outcome::Loss
        } else {
            Outcome::Win
        };
        if game.repetition(4).is_none() {
            // Rows from search tests stop at the first recurrence: judge the twofold repetition.
            assert_eq!(game.repetition(2), Some(want), "{sfen} {moves}");
        } else {
            assert_eq!(game.repetition(4), Some(want), "{sfen} {moves}");
            // One move fewer: not yet the fourth occurrence.
            assert_eq!(game.repetition_before_last(4), None, "{sfen} {moves}");
        }
    }
}

#[test]
fn perpetual_check_with_four_occurrences_loses_for_the_checker() {
    // Black's rook checks from 5f/4f while White's king shuttles 5d/4d: Black checks every move.
    let sfen = "lnsg1gsnl/1r5b1/ppppppppp/4k4/9/5R3/PPPPPPPPP/1B7/LNSGKGSNL b - 1";
    let cycle = "4f5f 5d4d 5f4f 4d5d ";
    let game = replay(sfen, &cycle.repeat(3));
    // The start position has now occurred four times; Black (to move) gave every check.
    assert_eq!(game.repetition(4), Some(Outcome::Loss));
    let quiet = replay(
        "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1",
        &"5i5h 5a5b 5h5i 5b5a ".repeat(3),
    );
    assert_eq!(quiet.repetition(4), Some(Outcome::Draw));
    assert_eq!(quiet.repetition_before_last(4), None);
}

#[test]
fn entering_king_declaration_table() {
    let mut checked = 0;
    for row in common::tsv("rules-nyugyoku.tsv") {
        if row[5].starts_with("expected-diff") {
            continue; // handicap credit for missing pieces: not part of our rule
        }
        let pos = Shogi::from_sfen(&row[0]).unwrap();
        let (c24, c27) = match pos.side_to_move() {
            tsubame::core::color::Color::Black => (&row[1], &row[2]),
            tsubame::core::color::Color::White => (&row[3], &row[4]),
        };
        assert_eq!(
            pos.declaration_allowed(EnteringKingRule::CsaRule27),
            c27 == "WIN",
            "27: {}",
            row[0]
        );
        // Under our CSARule24 a declaration needs 31 points; the table's DRAW (24-30) is not a win.
        assert_eq!(
            pos.declaration_allowed(EnteringKingRule::CsaRule24),
            c24 == "WIN",
            "24: {}",
            row[0]
        );
        assert!(!pos.declaration_allowed(EnteringKingRule::NoEnteringKing));
        checked += 1;
    }
    assert!(checked >= 10);
}

/// Positions reached by random play from the start, biased towards captures and drops.
fn random_positions(count: usize, seed: u64) -> Vec<Shogi> {
    let mut rng = Rng::new(seed);
    let mut out = Vec::new();
    let mut pos = Shogi::startpos();
    let mut plies = 0;
    while out.len() < count {
        let mut list = MoveList::<Move>::new();
        pos.legal_moves(&mut list);
        if list.is_empty() || plies > 300 {
            pos = Shogi::startpos();
            plies = 0;
            continue;
        }
        let captures: Vec<_> = list
            .iter()
            .copied()
            .filter(|m| !m.is_drop() && !pos.piece_at(m.to()).is_none())
            .collect();
        let mv = if !captures.is_empty() && rng.below(2) == 0 {
            captures[rng.below(captures.len())]
        } else {
            list[rng.below(list.len())]
        };
        pos.play(mv);
        plies += 1;
        out.push(pos.clone());
    }
    out
}

#[test]
fn sfen_round_trip_and_incremental_key() {
    for pos in random_positions(20_000, 7) {
        let sfen = pos.to_sfen();
        let again = Shogi::from_sfen(&sfen).unwrap_or_else(|e| panic!("{sfen}: {e}"));
        assert_eq!(again.to_sfen(), sfen);
        assert_eq!(
            again.key(),
            pos.key(),
            "incremental key differs from a fresh one: {sfen}"
        );
        assert_eq!(again.in_check(), pos.in_check(), "{sfen}");
        assert_eq!(
            SearchGame::evaluate(&again, &Shogi::default_params()),
            SearchGame::evaluate(&pos, &Shogi::default_params()),
            "incremental evaluation differs from a fresh one: {sfen}"
        );
    }
    for row in common::tsv("perft-shogi.tsv") {
        let pos = Shogi::from_sfen(&row[0]).unwrap();
        let back = pos.to_sfen();
        let fields: Vec<&str> = row[0].split_whitespace().collect();
        let mine: Vec<&str> = back.split_whitespace().collect();
        assert_eq!(fields[..2], mine[..2], "{}", row[0]);
    }
}

/// The search's legality test of a table move agrees with the generator on every 16-bit value.
#[test]
fn is_legal_agrees_with_the_generator_on_every_move_code() {
    for pos in random_positions(120, 5) {
        let mut list = MoveList::<Move>::new();
        pos.legal_moves(&mut list);
        let legal: std::collections::HashSet<u16> = list.iter().map(|m| m.0).collect();
        for code in 0..=u16::MAX {
            assert_eq!(
                pos.is_legal(Move(code)),
                legal.contains(&code),
                "move code {code:#06x} in {}",
                pos.to_sfen()
            );
        }
    }
}

#[test]
fn generated_moves_are_legal_distinct_and_parse_back() {
    for pos in random_positions(3_000, 99) {
        let mut list = MoveList::<Move>::new();
        pos.legal_moves(&mut list);
        let mut seen = std::collections::HashSet::new();
        for &mv in &list {
            assert!(seen.insert(mv), "duplicate move in {}", pos.to_sfen());
            let text = pos.move_to_usi(mv);
            assert_eq!(pos.parse_move(&text), Ok(mv), "{} {text}", pos.to_sfen());
            let mut next = pos.clone();
            next.play(mv);
            let us = pos.side_to_move();
            if let Some(k) = next.king(us) {
                assert!(
                    next.attackers_to(k, !us, next.occupied()).is_empty(),
                    "{text} leaves the king in check in {}",
                    pos.to_sfen()
                );
            }
        }
    }
}

#[test]
fn malformed_sfens_are_refused_with_a_reason() {
    let start = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL";
    let cases = [
        ("", "missing board"),
        (start, "missing side"),
        (&format!("{start} b"), "missing hand"),
        (&format!("{start} x - 1"), "side"),
        (&format!("{start} b - 0"), "move number"),
        (&format!("{start} b - 1 junk"), "trailing"),
        (
            "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1 b - 1",
            "8 ranks",
        ),
        (
            "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL/9 b - 1",
            "10 ranks",
        ),
        (
            "lnsgkgsnl/1r5b2/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1",
            "10 squares",
        ),
        (
            "lnsgkgsnl/1r5b/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1",
            "8 squares",
        ),
        (
            "lnsgkgsnl/1r5x1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1",
            "letter x",
        ),
        (
            "lnsgkgsnl/1r5+g1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1",
            "+gold",
        ),
        (
            "lnsgkgsnl/1r5b+/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1",
            "trailing +",
        ),
        (
            "lnsgkgsnl/1r5b1/ppppppppp/9/4K4/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1",
            "two kings",
        ),
        (
            "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b K 1",
            "king in hand",
        ),
        ("P3k4/9/9/9/9/9/9/9/4K4 b - 1", "pawn on last rank"),
        ("4k4/N8/9/9/9/9/9/9/4K4 b - 1", "knight on 8th rank"),
        (
            "4k4/9/9/9/9/9/9/9/4K3l b - 1",
            "White lance on its last rank",
        ),
        ("4k4/9/9/9/P8/P8/9/9/4K4 b - 1", "nifu on the board"),
        ("4k4/9/9/9/9/9/9/9/4K4 b 19P 1", "nineteen pawns"),
        ("4k4/9/9/9/9/9/9/9/4K4 b 3R 1", "three rooks"),
        ("4k4/9/9/9/9/9/9/9/4K4 b 2X 1", "bad hand letter"),
        ("4k4/9/9/9/9/9/9/9/4K4 b 2 1", "count without letter"),
        ("4k4/9/9/9/9/9/9/9/4K4 b 0P 1", "zero count"),
        ("4k4/9/9/9/9/9/9/9/4K4 b PP 1", "letter twice"),
        (
            "4k4/4R4/9/9/9/9/9/9/4K4 b - 1",
            "side to move can capture the king",
        ),
    ];
    for (sfen, what) in cases {
        let r = std::panic::catch_unwind(|| Shogi::from_sfen(sfen));
        match r {
            Ok(Err(e)) => assert!(!e.to_string().is_empty(), "{what}"),
            Ok(Ok(_)) => panic!("accepted malformed SFEN ({what}): {sfen}"),
            Err(_) => panic!("panicked on malformed SFEN ({what}): {sfen}"),
        }
    }
}

#[test]
fn malformed_and_illegal_moves_are_refused_with_a_reason() {
    let pos = Shogi::startpos();
    let syntax = [
        "", "7g", "7g7", "7g7f++", "7g0f", "0g7f", "7j7f", "7g7f=", "p*5e", "K*5e", "P*5", "P-5e",
        "7g7f7e",
    ];
    for text in syntax {
        let r = std::panic::catch_unwind(|| pos.parse_move(text));
        assert!(
            matches!(r, Ok(Err(tsubame::error::MoveError::Syntax(..)))),
            "{text:?}: {r:?}"
        );
    }
    let illegal = [
        ("7g7e", "cannot reach"),
        ("7f7e", "no piece"),
        ("3c3d", "opponent"),
        ("7g7f+", "cannot promote"),
        ("P*5e", "no pawn in hand"),
        ("5i4i", "own piece"),
    ];
    for (text, why) in illegal {
        match pos.parse_move(text) {
            Err(tsubame::error::MoveError::Illegal(_, reason)) => assert!(!reason.is_empty()),
            other => panic!("{text} ({why}): {other:?}"),
        }
    }
    // Rule-specific reasons.
    let nifu = Shogi::from_sfen("4k4/9/9/9/9/4P4/9/9/4K4 b P 1").unwrap();
    assert!(matches!(nifu.parse_move("P*5c"), Err(e) if e.to_string().contains("nifu")));
    let uchifuzume = Shogi::from_sfen("4k4/9/4G4/9/9/9/9/9/4K4 b P 1").unwrap();
    assert!(
        uchifuzume.parse_move("P*5b").is_ok(),
        "not mate: 4a/6a escape"
    );
    // The White golds on 4a and 6a can take a pawn on 5b: no mate, so the drop is legal.
    let guarded = Shogi::from_sfen("3gkg3/9/4G4/9/9/9/9/9/4K4 b P 1").unwrap();
    assert!(guarded.parse_move("P*5b").is_ok());
    // King 9a boxed in by its own knight; the gold on 8c guards 9b and 8b: the pawn drop would mate.
    let mate = Shogi::from_sfen("kn7/9/1G7/9/9/9/9/9/4K4 b P 1").unwrap();
    assert!(matches!(mate.parse_move("P*9b"), Err(e) if e.to_string().contains("uchifuzume")));
    // Mating by a pushed pawn is fine.
    let pushed = Shogi::from_sfen("kn7/9/PG7/9/9/9/9/9/4K4 b - 1").unwrap();
    assert!(pushed.parse_move("9c9b").is_ok());
    let forced = Shogi::from_sfen("4k4/9/P8/9/9/9/9/9/4K4 b - 1").unwrap();
    assert!(forced.parse_move("9c9b").is_ok());
    let last = Shogi::from_sfen("4k4/P8/9/9/9/9/9/9/4K4 b - 1").unwrap();
    assert!(matches!(last.parse_move("9b9a"), Err(e) if e.to_string().contains("must promote")));
    assert!(last.parse_move("9b9a+").is_ok());
}

/// Mutated SFENs (bytes replaced, inserted, deleted, truncated) never panic; accepted ones round-trip.
#[test]
fn mutated_sfens_never_panic() {
    let seeds: Vec<String> = common::tsv("perft-shogi.tsv")
        .into_iter()
        .map(|r| r[0].clone())
        .collect();
    let alphabet = b"0123456789/+-* bwKRBGSNLPkrbgsnlpxX";
    let mut rng = Rng::new(2024);
    for i in 0..50_000 {
        let mut bytes = seeds[i % seeds.len()].clone().into_bytes();
        for _ in 0..1 + rng.below(3) {
            let at = rng.below(bytes.len() + 1);
            match rng.below(4) {
                0 if at < bytes.len() => bytes[at] = alphabet[rng.below(alphabet.len())],
                1 => bytes.insert(at, alphabet[rng.below(alphabet.len())]),
                2 if at < bytes.len() => {
                    bytes.remove(at);
                }
                _ => bytes.truncate(at),
            }
        }
        let text = String::from_utf8(bytes).unwrap();
        let parsed = std::panic::catch_unwind(|| Shogi::from_sfen(&text));
        match parsed {
            Err(_) => panic!("panicked on {text:?}"),
            Ok(Ok(pos)) => {
                let again = Shogi::from_sfen(&pos.to_sfen()).unwrap();
                assert_eq!(again.to_sfen(), pos.to_sfen());
                let _ = pos.count_legal_moves();
            }
            Ok(Err(_)) => {}
        }
    }
}

/// The search's quick check test agrees with playing the move, and SEE never panics.
#[test]
fn gives_check_agrees_with_playing_the_move() {
    for pos in random_positions(5_000, 4242) {
        let info = pos.check_info();
        let mut list = MoveList::<Move>::new();
        pos.legal_moves(&mut list);
        for &mv in &list {
            let mut next = pos.clone();
            next.play(mv);
            assert_eq!(
                pos.gives_check(&info, mv),
                next.in_check(),
                "{} {}",
                pos.to_sfen(),
                pos.move_to_usi(mv)
            );
            let _ = pos.see_ge(mv, 0);
        }
    }
}

/// The search takes moves in stages; the captures-and-promotions and the quiet moves it generates
/// separately must be exactly the legal moves.
#[test]
fn tactical_and_quiet_moves_partition_the_legal_moves() {
    for pos in random_positions(3_000, 31) {
        common::assert_moves_partition(&pos);
    }
}

/// More pieces of a kind than the set has, on the board and in both hands together (promoted
/// pieces counted as their unpromoted kind), is not a shogi position; fewer is (a tsume problem).
#[test]
fn positions_beyond_the_piece_set_are_refused_and_fewer_pieces_are_legal() {
    common::assert_sfens::<Shogi>(
        &[
            (
                "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b P 1",
                "19 pawns on the board and in hand, but the shogi set has 18",
            ),
            (
                "4k4/9/9/4+B4/9/9/9/9/4K4 b 2b 1",
                "3 bishops on the board and in hand, but the shogi set has 2",
            ),
            (
                "4k4/9/9/9/9/9/9/9/4K4 b 3R 1",
                "3 'R' in hand, but the shogi set has 2",
            ),
        ],
        &[
            "4k4/9/9/9/9/9/9/9/9 b G 1",
            "4k4/9/9/9/9/9/9/9/4K4 b 2B2R 1",
            "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPP1/1B5R1/LNSGKGSNL b P 1",
        ],
    );
}

/// The mate solver's check generator gives exactly the legal moves after which the opponent is
/// in check, direct and discovered checks alike: checked on random play from the start and from
/// every tsume start position (where sliders behind blockers abound), in shogi and minishogi.
#[test]
fn checking_moves_are_exactly_the_legal_moves_that_give_check() {
    use tsubame::core::moves::ListStore;
    use tsubame::games::Game;
    use tsubame::games::minishogi::Minishogi;
    use tsubame::mate::MateGame;

    fn check_all<G: Game + MateGame + Clone>(start: &G, plies: usize, seed: u64) -> usize {
        let mut discovered = 0;
        common::random_walk(start, plies, seed, |pos| {
            let mut legal = MoveList::<G::Move>::new();
            pos.legal_moves(&mut legal);
            let mut want: Vec<String> = Vec::new();
            for &mv in legal.iter() {
                let mut next = pos.clone();
                next.play(mv);
                if next.in_check() {
                    want.push(pos.move_to_usi(mv));
                }
            }
            let mut got_list = MoveList::<G::Move>::new();
            pos.checking_moves(&mut got_list);
            let mut got: Vec<String> = got_list.iter().map(|&m| pos.move_to_usi(m)).collect();
            want.sort();
            got.sort();
            assert_eq!(got, want, "{}", pos.to_sfen());
            discovered += want.len();
        });
        discovered
    }
    let mut checks = check_all(&Shogi::startpos(), 3000, 5);
    checks += check_all(&Minishogi::startpos(), 3000, 6);
    for (i, file) in ["tsume-short.tsv", "tsume-medium.tsv", "tsume-long.tsv"]
        .iter()
        .enumerate()
    {
        for (j, row) in common::tsv(file).iter().enumerate() {
            // Rows with more pieces than the set are refused (tests/mate_suites.rs).
            if let Ok(pos) = Shogi::from_sfen(&row[0]) {
                checks += check_all(&pos, 40, (i * 1000 + j) as u64);
            }
        }
    }
    for row in common::tsv("tsume-minishogi.tsv") {
        checks += check_all(&Minishogi::from_sfen(&row[0]).unwrap(), 40, 9);
    }
    assert!(checks > 10_000, "only {checks} checking moves seen");
}
