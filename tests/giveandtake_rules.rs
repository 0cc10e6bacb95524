//! The rules of Give and Take (docs/rules.md, `RULES.md` §4), each with a position: the
//! article's checks, the obligation that applies only against the piece just moved, the king's
//! landing rule, reversal, crossing a square emptied earlier in the move, crowning at the end of
//! a capture, the last man crowned at once, and no majority rule.

use tsubame::core::game::Position;
use tsubame::core::moves::MoveList;
use tsubame::core::perft::perft;
use tsubame::games::giveandtake::{GiveAndTake, GtMove, START_FEN};

/// The position after `moves` from `fen`, each checked legal.
fn after(fen: &str, moves: &str) -> GiveAndTake {
    let mut pos = GiveAndTake::from_fen(fen).unwrap();
    for m in moves.split_whitespace() {
        let mv = pos
            .parse_move(m)
            .unwrap_or_else(|e| panic!("{m} in {}: {e}", pos.to_fen()));
        pos.play(mv);
    }
    pos
}

/// The legal moves of `pos` in notation, sorted.
fn legal(pos: &GiveAndTake) -> Vec<String> {
    let mut list = MoveList::<GtMove>::new();
    pos.legal_moves(&mut list);
    let mut out: Vec<String> = list.iter().map(|m| m.text()).collect();
    out.sort();
    out
}

/// The captures among the legal moves of `pos`, sorted.
fn captures(pos: &GiveAndTake) -> Vec<String> {
    legal(pos).into_iter().filter(|m| m.contains(':')).collect()
}

#[test]
fn the_piece_just_moved_must_be_taken_and_the_capture_goes_on_to_the_crowning() {
    let pos = after(START_FEN, "c3-c4 c6-c5");
    assert!(pos.capture_obliged());
    assert_eq!(legal(&pos), ["c4:c6:c8"]);
    let crowned = after(START_FEN, "c3-c4 c6-c5 c4:c6:c8");
    assert_eq!(
        crowned.to_fen(),
        "2K5/mm1mmmmm/mm1mmmmm/8/8/MM1MMMMM/MMMMMMMM/8 b c8 2"
    );
    // Stopping on c6 is refused: the man can capture again.
    let e = pos.parse_move("c4:c6").unwrap_err().to_string();
    assert!(e.contains("must go on"), "{e}");
    // A step is refused while the obligation holds.
    let e = pos.parse_move("a3-a4").unwrap_err().to_string();
    assert!(e.contains("must take it"), "{e}");
}

#[test]
fn every_route_that_takes_the_piece_just_moved_is_legal_and_nothing_else() {
    let pos = after(START_FEN, "b3-b4 a6-a5 b4-b5");
    assert_eq!(legal(&pos), ["a5:c5", "b6:b4"]);
}

#[test]
fn a_piece_that_cannot_be_taken_directly_obliges_nothing() {
    let pos = after(START_FEN, "b3-b4 a6-a5 b4-c4 a5-b5 a3-a4 b5-b4 e3-e4");
    assert!(!pos.capture_obliged());
    // The one capture takes e4 only as its second piece, and must go on to do so.
    assert_eq!(captures(&pos), ["b4:d4:f4"]);
    assert!(legal(&pos).len() > 1, "quiet moves are legal too");
    let e = pos.parse_move("b4:d4").unwrap_err().to_string();
    assert!(e.contains("must go on"), "{e}");
    // At the start nothing is obligatory either.
    assert!(!GiveAndTake::startpos().capture_obliged());
}

#[test]
fn a_king_may_reverse_cross_emptied_squares_and_take_any_route() {
    // White king e5; Black men e7, e3, c2, g2.
    let pos = GiveAndTake::from_fen("8/4m3/8/4K3/8/4m3/2m3m1/8 w - 1").unwrap();
    let caps = captures(&pos);
    for route in ["e5:e8:e2:a2:h2", "e5:e1:e8", "e5:e8:e2:b2:h2"] {
        assert!(caps.iter().any(|c| c == route), "{route} missing: {caps:?}");
    }
    // From e8 the king must land on e2 (a further capture from there), not e1.
    let e = pos.parse_move("e5:e8:e1").unwrap_err().to_string();
    assert!(e.contains("no capture route"), "{e}");
    assert!(!caps.iter().any(|c| c == "e5:e8:e1"));
    // No majority rule: e5:e1:e8 takes two pieces where others take four, and is legal.
    let four = pos.parse_move("e5:e8:e2:a2:h2").unwrap();
    let two = pos.parse_move("e5:e1:e8").unwrap();
    assert_eq!(four.captured().count_ones(), 4);
    assert_eq!(two.captured().count_ones(), 2);
}

#[test]
fn a_king_between_two_enemy_pieces_may_stop_anywhere_between_them() {
    // White king a1; Black men b1 and f1: three stops between, two landings beyond.
    let pos = GiveAndTake::from_fen("7k/8/8/8/8/8/8/Km3m2 w - 1").unwrap();
    assert_eq!(
        captures(&pos),
        [
            "a1:c1:g1", "a1:c1:h1", "a1:d1:g1", "a1:d1:h1", "a1:e1:g1", "a1:e1:h1"
        ]
    );
}

#[test]
fn a_man_is_crowned_only_when_the_capture_ends() {
    // The White man on d6 jumps d7 to d8 and goes on sideways along rank 8 as a man (over e8),
    // then is crowned on f8.
    let pos = GiveAndTake::from_fen("4m3/3m4/3M4/8/8/8/8/k7 w - 1").unwrap();
    assert_eq!(captures(&pos), ["d6:d8:f8"]);
    let next = after("4m3/3m4/3M4/8/8/8/8/k7 w - 1", "d6:d8:f8");
    assert_eq!(next.to_fen(), "5K2/8/8/8/8/8/8/k7 b f8 1");
    // A man on the far rank during a capture does not capture backward as a king would.
    let pos = GiveAndTake::from_fen("8/3m4/3M4/3m4/8/8/8/k7 w - 1").unwrap();
    assert_eq!(captures(&pos), ["d6:d8"]);
}

#[test]
fn the_last_man_is_crowned_at_once_and_the_article_endings_replay() {
    // Four men against three kings.
    let pos = after(
        "K7/1m6/1m6/8/m7/m7/8/KK6 b - 1",
        "b6-a6 a8:a5 b7-b6 b1:b8 a3-a2 a1:a3",
    );
    assert_eq!(pos.to_fen(), "1K6/8/8/K7/k7/K7/8/8 b a3 4");
    let won = after(&pos.to_fen(), "a4:a1:a8:c8");
    assert_eq!(won.pieces(tsubame::core::color::Color::White), 0);
    // Elis-McCallion: the last White man, on f5, is crowned and takes all nine pieces.
    let pos = after(
        "8/3m4/m6m/2mm1M1m/2m1m3/2MM3M/m1M2MM1/8 w - 1",
        "d3-d4 d5:d3:b3 h3-h4 h5:h3 g2-g3 h3:f3:f1 c2-b2 b3:b1",
    );
    assert_eq!(
        pos.kings() & pos.pieces(tsubame::core::color::Color::White),
        pos.pieces(tsubame::core::color::Color::White)
    );
    let won = after(&pos.to_fen(), "f5:a5:a7:h7:h1:e1:a1:a4:d4:f4");
    assert_eq!(won.pieces(tsubame::core::color::Color::Black), 0);
    // A lone man given in a position stays a man until a move ends.
    let lone = GiveAndTake::from_fen("8/8/8/4m3/8/8/8/K7 b - 1").unwrap();
    assert_eq!(lone.kings().count_ones(), 1);
    assert_eq!(legal(&lone), ["e5-d5", "e5-e4", "e5-f5"]);
}

#[test]
fn men_never_move_backward_and_kings_slide() {
    let pos = GiveAndTake::from_fen("8/8/8/8/3M4/8/8/7k w - 1").unwrap();
    assert_eq!(legal(&pos), ["d4-c4", "d4-d5", "d4-e4"]);
    let pos = GiveAndTake::from_fen("k7/8/8/8/8/8/8/7K w - 1").unwrap();
    assert_eq!(legal(&pos).len(), 14);
}

#[test]
fn perft_from_the_start() {
    let start = GiveAndTake::startpos();
    let counts: Vec<u64> = (1..=4).map(|d| perft(&start, d)).collect();
    assert_eq!(counts[0], 8);
    assert!(counts.windows(2).all(|w| w[1] > w[0]), "{counts:?}");
}

#[test]
fn go_mate_finds_the_article_wins() {
    use std::sync::atomic::AtomicBool;
    use tsubame::mate::{MateLimits, MateResult, replay_is_mate, solve};
    let limits = MateLimits {
        nodes: Some(2_000_000),
        ..Default::default()
    };
    let stop = AtomicBool::new(false);
    // The lone man, crowned at once, sweeps the three kings in one move; from the article's
    // start of that ending, Black forces it in seven plies; Elis-McCallion's crowned last man
    // takes all nine pieces.
    for (fen, moves, plies) in [
        ("1K6/8/8/K7/k7/K7/8/8 b a3 4", "", 1),
        ("K7/1m6/1m6/8/m7/m7/8/KK6 b - 1", "", 7),
        (
            "8/3m4/m6m/2mm1M1m/2m1m3/2MM3M/m1M2MM1/8 w - 1",
            "d3-d4 d5:d3:b3 h3-h4 h5:h3 g2-g3 h3:f3:f1 c2-b2 b3:b1",
            1,
        ),
    ] {
        let pos = after(fen, moves);
        match solve(&pos, &limits, &stop, &mut |_| {}) {
            MateResult::Mate(line) => {
                assert_eq!(line.len(), plies, "{fen}");
                assert!(replay_is_mate(&pos, &line), "{fen}");
            }
            other => panic!("{fen}: {other:?}"),
        }
    }
    // Nothing is forced from the start.
    let quick = MateLimits {
        nodes: Some(20_000),
        ..Default::default()
    };
    assert!(!matches!(
        solve(&GiveAndTake::startpos(), &quick, &stop, &mut |_| {}),
        MateResult::Mate(_)
    ));
}

#[test]
fn the_search_finds_the_article_wins() {
    use tsubame::engine::bench::search_position;
    use tsubame::search::tt::TranspositionTable;
    use tsubame::search::value::MATE_BOUND;
    use tsubame::search::{Limits, Shared};
    let search = |fen: &str, depth: i32| {
        let pos = GiveAndTake::from_fen(fen).unwrap();
        let tt = TranspositionTable::new(16);
        let limits = Limits {
            depth: Some(depth),
            multipv: 1,
            ..Limits::default()
        };
        let r = search_position(&pos, limits, 1, &tt, &Shared::default());
        (pos, r)
    };
    // The king's four-piece capture.
    let (pos, r) = search("8/4m3/8/4K3/8/4m3/2m3m1/8 w - 1", 6);
    let best = r.best.unwrap();
    assert_eq!(best.captured().count_ones(), 4, "{}", pos.move_to_usi(best));
    // The last man, crowned at once, sweeps the board; and from the ending's start Black forces
    // it (a win within the search's horizon).
    let (pos, r) = search("1K6/8/8/K7/k7/K7/8/8 b a3 4", 4);
    assert_eq!(
        r.best.unwrap().captured().count_ones(),
        3,
        "{}",
        pos.move_to_usi(r.best.unwrap())
    );
    let (_, r) = search("K7/1m6/1m6/8/m7/m7/8/KK6 b - 1", 10);
    assert!(r.score >= MATE_BOUND, "score {}", r.score);
}

#[test]
fn a_position_with_thousands_of_capture_routes_is_searched_and_answered() {
    // Black's king on c6 must take the man that just moved to e6, by any of 21,617 routes
    // through White's fourteen men (the move list grows past the shogi games' fixed bound).
    let fen = "8/1M1M1M2/2k1M1M1/M4M2/1MM5/1M2M1M1/2M1M2M/5K2 b e6 46";
    let pos = GiveAndTake::from_fen(fen).unwrap();
    assert_eq!(legal(&pos).len(), 21_617);
    use std::sync::atomic::AtomicBool;
    use tsubame::engine::bench::search_position;
    use tsubame::mate::{MateLimits, MateResult, solve};
    use tsubame::search::tt::TranspositionTable;
    use tsubame::search::{Limits, Shared};
    let tt = TranspositionTable::new(16);
    let limits = Limits {
        depth: Some(3),
        multipv: 1,
        ..Limits::default()
    };
    let r = search_position(&pos, limits, 1, &tt, &Shared::default());
    let best = r.best.unwrap();
    assert!(legal(&pos).contains(&best.text()), "{}", best.text());
    let e6 = 4 + 8 * 5;
    assert!(
        best.captured() & 1 << e6 != 0,
        "{} must take e6",
        best.text()
    );
    // The mate solver walks the same list; it need not find a win, only answer.
    let quick = MateLimits {
        nodes: Some(5_000),
        ..Default::default()
    };
    let answer = solve(&pos, &quick, &AtomicBool::new(false), &mut |_| {});
    assert!(!matches!(answer, MateResult::Mate(ref line) if line.is_empty()));
}

#[test]
fn the_third_occurrence_of_a_position_is_a_draw() {
    use tsubame::core::repetition::HistoryEntry;
    use tsubame::core::rules::{EndReason, Outcome, RuleOptions};
    let mut pos = GiveAndTake::from_fen("k7/8/8/8/8/8/8/7K w - 1").unwrap();
    let entry = |p: &GiveAndTake| HistoryEntry {
        key: p.key(),
        in_check: p.in_check(),
    };
    let mut history = vec![entry(&pos)];
    let rules = RuleOptions::default();
    let shuffle = ["h1-h2", "a8-a7", "h2-h1", "a7-a8"];
    for (i, m) in shuffle.iter().cycle().take(8).enumerate() {
        assert!(
            pos.verdict(&history, &rules).is_none(),
            "over after {i} plies"
        );
        let mv = pos.parse_move(m).unwrap();
        pos.play(mv);
        history.push(entry(&pos));
    }
    // The start position is back for the third time (plies 0, 4 and 8).
    let v = pos.verdict(&history, &rules).expect("a draw");
    assert_eq!(
        (v.outcome, v.reason),
        (Outcome::Draw, EndReason::Repetition)
    );
}

/// Each player's set is 16 men: more pieces (men and kings) of one colour are refused; fewer are fine.
#[test]
fn positions_beyond_the_piece_set_are_refused_and_fewer_pieces_are_legal() {
    let e = GiveAndTake::from_fen("mmmmmmmm/mmmmmmmm/m7/8/8/8/8/K7 w - 1")
        .unwrap_err()
        .to_string();
    assert!(
        e.contains("Black has 17 men and kings on the board, but the set has 16 per player"),
        "{e}"
    );
    for fen in [
        "mmmmmmmm/mmmmmmmm/8/8/8/8/8/K7 w - 1",
        "8/8/8/3m4/8/8/3M4/8 w - 1",
    ] {
        assert!(GiveAndTake::from_fen(fen).is_ok(), "{fen}");
    }
}
