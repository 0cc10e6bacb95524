//! Rules of nana shogi (docs/rules.md §4) on hand-built positions, SFEN round trips and malformed input.
//!
//! Squares are `<file><rank>`: file 1 is Black's right, rank `a` White's back rank. In an SFEN board
//! each rank is written from file 3 down to file 1.

mod common;

use tsubame::core::game::Position;
use tsubame::core::moves::{Move, MoveList};
use tsubame::core::repetition::HistoryEntry;
use tsubame::core::rules::{EndReason, Outcome, RuleOptions};
use tsubame::error::{MoveError, SfenError};
use tsubame::games::nana::{MATE_RULE_LEVELS, Nana, repetition_draw};
use tsubame::rng::Rng;

fn pos(sfen: &str) -> Nana {
    Nana::from_sfen(sfen).unwrap_or_else(|e| panic!("{sfen}: {e}"))
}

fn legal(p: &Nana) -> Vec<String> {
    let mut list = MoveList::<Move>::new();
    p.legal_moves(&mut list);
    list.iter().map(|&m| p.move_to_usi(m)).collect()
}

fn play(p: &Nana, usi: &str) -> Nana {
    let mv = p
        .parse_move(usi)
        .unwrap_or_else(|e| panic!("{usi} in {}: {e}", p.to_sfen()));
    let mut next = p.clone();
    next.play(mv);
    next
}

fn illegal_reason(p: &Nana, usi: &str) -> String {
    match p.parse_move(usi) {
        Err(MoveError::Illegal(_, why)) => why,
        other => panic!(
            "{usi} in {}: expected an illegal move, got {other:?}",
            p.to_sfen()
        ),
    }
}

fn perft_sfens() -> Vec<String> {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/engine-tests/data/perft-nana.tsv"
    );
    let text = std::fs::read_to_string(path).expect("perft-nana.tsv is readable");
    let mut sfens: Vec<String> = text
        .lines()
        .skip(1)
        .filter_map(|l| l.split('\t').next())
        .map(str::to_string)
        .collect();
    sfens.dedup();
    sfens
}

// ---------------------------------------------------------------------------------------------
// Opening: king drops.

#[test]
fn opening_moves_are_king_drops_only() {
    // Black's only moves are his king drops on the eight squares around the centre.
    let start = Nana::startpos();
    let moves = legal(&start);
    assert_eq!(moves.len(), 8);
    assert!(moves.iter().all(|m| m.starts_with("K*")), "{moves:?}");
    assert!(!moves.contains(&"K*2b".to_string()));
    // Holding cubes does not allow dropping them before the king.
    assert!(illegal_reason(&start, "R*1a").contains("king"));
    assert!(illegal_reason(&start, "B*1a").contains("king"));
    // White answers with a king drop too, never next to Black's king: after K*1c the squares
    // 1b, 2b, 2c are out (2b is the centre anyway), leaving 3a 2a 1a 3b 3c.
    let p = play(&start, "K*1c");
    let mut moves = legal(&p);
    moves.sort();
    assert_eq!(moves, ["K*1a", "K*2a", "K*3a", "K*3b", "K*3c"]);
    assert!(illegal_reason(&p, "K*1b").contains("check"));
    // A player whose king is still in hand can never be in check.
    assert!(!p.in_check() && !start.in_check());
}

#[test]
fn king_drop_on_centre_refused() {
    let start = Nana::startpos();
    let why = illegal_reason(&start, "K*2b");
    assert!(why.contains("centre"), "{why}");
}

// ---------------------------------------------------------------------------------------------
// Drops.

/// Black king 1c, White king 3a, both players still holding both cubes; Black to move.
const AFTER_KINGS: &str = "k2/3/2K b RBrb 3";

#[test]
fn cube_drop_on_centre_refused() {
    let p = pos(AFTER_KINGS);
    // Swallow's wings on 2b would attack only 1b and 3b (no check): the centre alone forbids it.
    let why = illegal_reason(&p, "W*2b");
    assert!(why.contains("centre"), "{why}");
    // The same state may go to 1a, where it attacks only 2a.
    assert!(p.parse_move("W*1a").is_ok());
    // No drop of any state ever lands on 2b.
    assert!(legal(&p).iter().all(|m| !m.ends_with("2b")));
}

#[test]
fn drop_giving_check_refused() {
    let p = pos(AFTER_KINGS);
    // A rook (one step orthogonally) on 3b attacks 3a: check, refused.
    let why = illegal_reason(&p, "R*3b");
    assert!(why.contains("check"), "{why}");
    // A chariot on 3c slides up the file through the empty 3b onto 3a: check, refused.
    assert!(illegal_reason(&p, "C*3c").contains("check"));
    // A go-between on 3b steps forward onto 3a: refused. Swallow's wings on 3b attack only 2b.
    assert!(illegal_reason(&p, "I*3b").contains("check"));
    assert!(p.parse_move("W*3b").is_ok());
    // Swallow's wings on 2a attack 3a sideways: refused.
    assert!(illegal_reason(&p, "W*2a").contains("check"));
    // A Black tile general on 2a attacks diagonally forward (off the board) and straight back (2b).
    assert!(p.parse_move("T*2a").is_ok());
    // A bishop on 1a slides through the empty centre to 3c: no king on that diagonal.
    assert!(p.parse_move("B*1a").is_ok());
    // On 1a no state of either cube reaches 3a, and every state is a separate move: 4 + 4 drops.
    let drops_1a: Vec<String> = legal(&p)
        .into_iter()
        .filter(|m| m.ends_with("*1a"))
        .collect();
    assert_eq!(drops_1a.len(), 8, "{drops_1a:?}");
}

#[test]
fn cube_drop_needs_that_cube_in_hand() {
    // Black holds only the diagonal cube.
    let p = pos("k2/3/2K b Brb 3");
    let why = illegal_reason(&p, "C*1a");
    assert!(why.contains("orthogonal"), "{why}");
    assert!(p.parse_move("T*1a").is_ok());
}

#[test]
fn captured_cube_returns_to_hand_as_its_kind() {
    // Black rook on 2b captures White's dog on 2a: the rook turns into a chariot, and Black's
    // hand gains a diagonal cube (B), whatever state the dog showed.
    let p = pos("1d1/1R1/K1k b - 1");
    let next = play(&p, "2b2a");
    assert_eq!(next.to_sfen(), "1C1/3/K1k w B 2");
}

// ---------------------------------------------------------------------------------------------
// Cubes turn after every board move.

#[test]
fn states_turn_after_each_board_move() {
    // Black king 1c, White king 3a; Black's orthogonal cube stands as a rook on 1a.
    let p = pos("k1R/3/2K b Brb 1");
    // R steps to 2a (one step left): it now shows C, and a chariot on 2a attacks only down the
    // file, so this is no check.
    let p = play(&p, "1a2a");
    assert_eq!(p.to_sfen(), "kC1/3/2K w Brb 2");
    assert!(!p.in_check());
    let p = play(&p, "3a3b");
    // The chariot slides back down the file to 2c: it becomes swallow's wings.
    let p = play(&p, "2a2c");
    assert_eq!(p.to_sfen(), "3/k2/1WK w Brb 4");
    let p = play(&p, "3b3a");
    // Wings step sideways to 3c, becoming a go-between; its step forward to 3b makes it a rook
    // again (attacking 3a 3c 2b, not the White king now on 2a).
    let p = play(&p, "2c3c");
    assert_eq!(p.to_sfen(), "k2/3/I1K w Brb 6");
    let p = play(&p, "3a2a");
    let p = play(&p, "3c3b");
    assert_eq!(p.to_sfen(), "1k1/R2/2K w Brb 8");
    assert!(!p.in_check());
    // Kings never change.
    let p = play(&p, "2a1a");
    assert_eq!(p.to_sfen(), "2k/R2/2K b Brb 9");
    // The diagonal cycle: a dog moving becomes a bishop.
    let q = pos("k2/3/D1K b Rrb 1");
    let q = play(&q, "3c3b");
    assert_eq!(q.to_sfen(), "k2/B2/2K w Rrb 2");
}

// ---------------------------------------------------------------------------------------------
// The rule against checkmating with pieces in hand.

/// White king 1a alone (holding a diagonal cube); Black: king 1c, cat's sword 3b, chariot 2c.
/// The chariot sliding 2c → 2a becomes swallow's wings there, attacking 1a: check. The White king
/// cannot take on 2a (the cat's sword on 3b guards it) nor go to 1b or 2b (Black's king guards
/// both), and a drop cannot block a check from the next square: checkmate.
const MATE_WITH_HAND: &str = "2k/M2/1CK b Rb 1";
const MATE_EMPTY_HAND: &str = "2k/M2/1CK b b 1";

#[test]
fn mate_with_pieces_in_hand_is_illegal() {
    // Black holds an orthogonal cube: the mate is illegal.
    let p = pos(MATE_WITH_HAND);
    let why = illegal_reason(&p, "2c2a");
    assert!(why.contains("checkmate"), "{why}");
    // A quiet move of the same piece stays legal.
    assert!(p.parse_move("2c2b").is_ok());
}

#[test]
fn same_mate_with_empty_hand_is_legal() {
    let p = pos(MATE_EMPTY_HAND);
    let after = play(&p, "2c2a");
    assert_eq!(after.to_sfen(), "1Wk/M2/2K w b 2");
    assert!(after.in_check());
    assert_eq!(after.count_legal_moves(), 0);
    let history = [p.history_entry(), after.history_entry()];
    let verdict = after
        .verdict(&history, &RuleOptions::default())
        .expect("the game is over");
    assert_eq!(verdict.outcome, Outcome::Loss);
    assert_eq!(verdict.reason, EndReason::NoLegalMove);
}

#[test]
fn capture_mates_only_with_hand_empty_before_the_move() {
    // As above, but a White bishop stands on 2a and the chariot mates by capturing it: the hand
    // was empty before the move, so the mate is legal even though the capture fills the hand.
    let p = pos("1bk/M2/1CK b - 1");
    let after = play(&p, "2c2a");
    assert_eq!(after.to_sfen(), "1Wk/M2/2K w B 2");
    assert_eq!(after.count_legal_moves(), 0);
    // Holding a piece before the capture makes the same mate illegal.
    let p = pos("1bk/M2/1CK b R 1");
    assert!(illegal_reason(&p, "2c2a").contains("checkmate"));
}

#[test]
fn nesting_depth_is_three_levels() {
    assert_eq!(MATE_RULE_LEVELS, 3);
    // The mate above is judged at level 1; asked at level 4 (beyond the rule) it is generated.
    let p = pos(MATE_WITH_HAND);
    let mate = p.parse_move_syntax("2c2a").unwrap();
    for (level, expected) in [(1u8, false), (2, false), (3, false), (4, true)] {
        let mut list = MoveList::<Move>::new();
        p.generate(level, &mut list);
        assert_eq!(list.contains(&mate), expected, "level {level}");
    }
}

#[test]
fn nesting_depth_does_not_change_counts_on_sampled_positions() {
    // Whether the rule is applied at one level or at four, no sampled position's move count changes
    // (an exhaustive walk of every position reachable from the start, 35 million, finds the same).
    let mut rng = Rng::new(2024);
    let mut p = Nana::startpos();
    for _ in 0..20_000 {
        let counts: Vec<usize> = (0..=3u8)
            .map(|level| {
                let mut n = 0usize;
                p.generate(level, &mut n);
                n
            })
            .collect();
        assert!(
            counts.windows(2).all(|w| w[0] == w[1]),
            "{}: {counts:?}",
            p.to_sfen()
        );
        let mut list = MoveList::<Move>::new();
        p.legal_moves(&mut list);
        if list.is_empty() {
            p = Nana::startpos();
        } else {
            p.play(list[rng.below(list.len())]);
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Game end.

#[test]
fn stalemate_is_a_loss() {
    // Black king 1b, chariot 1c; White king 3b, bishop 2b, rook 2c, a diagonal cube in hand.
    // Black is not in check (the bishop on 2b attacks 1a 3a 1c 3c, the rook 2b 1c 3c), but every
    // king square is covered (1a by the bishop, 2a by White's king, 2b and 2c defended by it) and
    // the chariot on 1c cannot move (forward is its own king, backward the edge). No move: loss.
    let p = pos("3/kbK/1rC b b 1");
    assert!(!p.in_check());
    assert_eq!(p.count_legal_moves(), 0);
    let verdict = p
        .verdict(&[p.history_entry()], &RuleOptions::default())
        .expect("no legal move ends the game");
    assert_eq!(verdict.outcome, Outcome::Loss);
    assert_eq!(verdict.reason, EndReason::NoLegalMove);
}

#[test]
fn a_side_without_a_king_is_never_in_check_and_can_mate() {
    // RULES.md §0: a position may leave out one side's king (a mate problem's attacker). White's
    // king 3a; Black, with no king anywhere, has a rook on 1a, wings on 1b, a bishop on 2c and a
    // tile general on 1c. The tile general steps diagonally forward to 2b and turns into the
    // cat's sword, which attacks 3a: 2a is the rook's, 3b the bishop's, and the sword on 2b is
    // guarded by the wings; checkmate.
    let p = pos("k1R/2W/1BT b - 1");
    assert_eq!(p.to_sfen(), "k1R/2W/1BT b - 1");
    assert!(!p.in_check());
    let mut moves = legal(&p);
    moves.sort();
    assert_eq!(moves, ["1a2a", "1b2b", "1c2b", "2c3b"]);
    let mated = play(&p, "1c2b");
    assert!(mated.in_check());
    assert_eq!(mated.count_legal_moves(), 0);
    let verdict = mated
        .verdict(
            &[p.history_entry(), mated.history_entry()],
            &RuleOptions::default(),
        )
        .expect("checkmate ends the game");
    assert_eq!(verdict.outcome, Outcome::Loss);
    // White to move against a side without a king: his moves split into captures and quiet
    // moves as in any position (no check to give, none to answer).
    let white = pos("k2/2W/1BT w r 1");
    assert!(!white.in_check());
    assert_eq!(white.count_legal_moves(), 17); // as engine-tests/oracle/nana.py counts
    common::assert_moves_partition(&white);
}

#[test]
fn fourfold_repetition_is_a_draw() {
    // Both kings shuffle: 1c-1b and 3a-3b. The start position recurs every four plies; its
    // fourth occurrence (after 12 plies) is a draw, the third is not.
    let mut p = pos(AFTER_KINGS);
    let mut history: Vec<HistoryEntry> = vec![p.history_entry()];
    let cycle = ["1c1b", "3a3b", "1b1c", "3b3a"];
    for ply in 0..12 {
        p = play(&p, cycle[ply % 4]);
        history.push(p.history_entry());
        let draw = repetition_draw(&history);
        assert_eq!(draw, ply == 11, "ply {}", ply + 1);
    }
    let verdict = p
        .verdict(&history, &RuleOptions::default())
        .expect("fourth occurrence");
    assert_eq!(verdict.outcome, Outcome::Draw);
    assert_eq!(verdict.reason, EndReason::Repetition);
}

#[test]
fn repetition_with_checks_is_still_a_draw() {
    // No perpetual-check rule in nana: a cycle where every entry is "in check" is still a draw.
    let h = |key| HistoryEntry {
        key,
        in_check: true,
    };
    let history = [
        h(1),
        h(2),
        h(3),
        h(4),
        h(1),
        h(2),
        h(3),
        h(4),
        h(1),
        h(2),
        h(3),
        h(4),
        h(1),
    ];
    assert!(repetition_draw(&history));
    let p = pos(AFTER_KINGS);
    let v = p.repetition(&history, 4, &RuleOptions::default()).unwrap();
    assert_eq!(v.outcome, Outcome::Draw);
}

// ---------------------------------------------------------------------------------------------
// SFEN and keys.

#[test]
fn perft_positions_round_trip() {
    for sfen in perft_sfens() {
        let p = pos(&sfen);
        assert_eq!(p.to_sfen(), sfen);
        let again = pos(&p.to_sfen());
        assert_eq!(again, p);
        assert_eq!(again.key(), p.key());
    }
}

#[test]
fn random_play_keeps_keys_and_sfen_consistent() {
    let mut rng = Rng::new(7);
    let mut checked = 0;
    for _game in 0..300 {
        let mut p = Nana::startpos();
        for _ply in 0..80 {
            let fresh = pos(&p.to_sfen());
            assert_eq!(fresh, p, "{}", p.to_sfen());
            assert_eq!(fresh.key(), p.key(), "{}", p.to_sfen());
            assert_eq!(fresh.in_check(), p.in_check());
            checked += 1;
            let mut list = MoveList::<Move>::new();
            p.legal_moves(&mut list);
            assert_eq!(list.len(), p.count_legal_moves());
            for &mv in &list {
                let text = p.move_to_usi(mv);
                assert_eq!(p.parse_move(&text), Ok(mv), "{text} in {}", p.to_sfen());
                let mut next = p.clone();
                next.play(mv);
                let mover = p.side_to_move();
                // A legal move never leaves the mover's king attacked.
                if let Some(k) = next.king(mover) {
                    assert!(next.attackers_to(k, !mover, next.occupied()).is_empty());
                }
                // A drop never gives check.
                assert!(
                    !(mv.is_drop() && next.in_check()),
                    "{text} in {}",
                    p.to_sfen()
                );
                // A mover holding pieces never checkmates (replies judged at level 2).
                if !p.hand(mover).is_empty() && next.in_check() {
                    assert!(next.has_legal_move(2), "{text} in {}", p.to_sfen());
                }
            }
            if list.is_empty() {
                break;
            }
            p.play(list[rng.below(list.len())]);
        }
    }
    assert!(checked > 10_000);
}

#[test]
fn different_drop_states_are_different_moves() {
    let p = pos(AFTER_KINGS);
    let c = p.parse_move("C*1b").unwrap();
    let r = p.parse_move("R*1b").unwrap();
    assert_ne!(c, r);
    assert_eq!(p.move_to_usi(c), "C*1b");
    assert_eq!(p.move_to_usi(r), "R*1b");
    assert_ne!(play(&p, "C*1b").key(), play(&p, "R*1b").key());
}

// ---------------------------------------------------------------------------------------------
// Malformed input.

#[test]
fn malformed_moves_are_errors() {
    let p = pos(AFTER_KINGS);
    for text in [
        "1c1b+", "1a1b+", "", "1c", "1c1d", "4a1a", "Z*1a", "r*1a", "R*", "R*2d", "1c1c", "1c1b1a",
    ] {
        assert!(
            matches!(p.parse_move(text), Err(MoveError::Syntax(..))),
            "{text} should be a syntax error"
        );
    }
    assert!(
        p.parse_move("1c1b+")
            .unwrap_err()
            .to_string()
            .contains("promotion")
    );
    // Well-formed but illegal.
    for text in ["1a1b", "3a3b", "1c3c", "K*1a", "R*1c"] {
        assert!(
            matches!(p.parse_move(text), Err(MoveError::Illegal(..))),
            "{text} should be illegal"
        );
    }
}

#[test]
fn malformed_sfens_are_errors() {
    let cases: &[(&str, &str)] = &[
        ("3/3/3 b KCBkrb 1", "cube state letter in hand"),
        ("3/3/3 b KRBkrx 1", "unknown hand letter"),
        ("3/3/2K b KRBkrb 1", "king on board and in hand"),
        ("3/3/3 b 2KRBkrb 1", "two kings in hand"),
        ("3/3/3 b K2RBkrb 1", "three orthogonal cubes"),
        ("B2/b2/K1k b Krb 1", "three diagonal cubes"),
        ("K2/3/K1k b RBrb 1", "two Black kings"),
        ("3/3 b KRBkrb 1", "two ranks"),
        ("3/3/3/3 b KRBkrb 1", "four ranks"),
        ("4/3/3 b KRBkrb 1", "rank too long"),
        ("2/3/3 b KRBkrb 1", "rank too short"),
        ("K3/3/2k b RBrb 1", "rank too long after a piece"),
        ("X2/3/2k b KRBrb 1", "unknown board letter"),
        ("+R2/3/K1k b Brb 1", "promotion sign"),
        ("0K2/3/2k b RBrb 1", "zero run"),
        ("3/3/3 b KRBkrb 1 junk", "trailing junk"),
        ("3/3/3 b KRBkrb 0", "move number zero"),
        ("3/3/3 b KRBkrb x", "move number not a number"),
        ("3/3/3 x KRBkrb 1", "bad side"),
        ("3/3/3", "missing side and hand"),
        ("3/3/3 b", "missing hand"),
        ("", "empty"),
        ("3/3/3 b KRBkrb2 1", "hand ends with a count"),
        ("3/3/3 b KRRBkrb 1", "letter twice"),
        ("3/3/3 b K0RBkrb 1", "zero count"),
        ("kR1/3/2K b Brb 1", "side to move could capture the king"),
    ];
    for (sfen, what) in cases {
        let r = Nana::from_sfen(sfen);
        assert!(r.is_err(), "{what}: '{sfen}' was accepted");
    }
    assert!(matches!(
        Nana::from_sfen("3/3/3 b KCBkrb 1"),
        Err(SfenError::Hand(_))
    ));
    assert!(matches!(
        Nana::from_sfen("3/3/3 b KRBkrb 1 junk"),
        Err(SfenError::Trailing(_))
    ));
    assert!(matches!(
        Nana::from_sfen("3/3/3 b"),
        Err(SfenError::MissingField(_))
    ));
}

#[test]
fn sfen_without_move_number_is_accepted() {
    let p = pos("3/3/3 b KRBkrb");
    assert_eq!(p.to_sfen(), "3/3/3 b KRBkrb 1");
    assert_eq!(p, Nana::startpos());
}

/// The nana shogi set is two kings, two orthogonal and two diagonal cubes: more of a kind on the
/// board and in hand is refused; fewer is fine.
#[test]
fn positions_beyond_the_piece_set_are_refused_and_fewer_pieces_are_legal() {
    common::assert_sfens::<Nana>(
        &[
            (
                "1B1/1b1/K1k b Br 1",
                "3 diagonal cubes on the board and in hand, but the nana shogi set has 2",
            ),
            (
                "3/1C1/K1k b Rr 1",
                "3 orthogonal cubes on the board and in hand, but the nana shogi set has 2",
            ),
            (
                "3/3/3 b K3Rkb 1",
                "3 'R' in hand, but the nana shogi set has 2",
            ),
        ],
        &["3/3/K1k b - 1", "3/3/3 b Kk 1"],
    );
}
