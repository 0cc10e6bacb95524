//! Cooks (余詰) of `go mate`, `tsubame mate --cooks` and the library's `solve_cooks`, on rows of
//! `engine-tests/data/tsume-short.tsv` with known cooks.
//!
//! The expected sets were computed independently, by a plain brute-force search with cshogi
//! (every checking move of the attacker, every legal reply; cshogi's legal moves leave out
//! pawn-drop mates): for each row, the first moves that mate within the row's length, and, along
//! the main line the solver answers, every other check that mates within the plies left. Each
//! listed line is also replayed here, and each length claimed shortest is checked by an
//! independent brute-force search of the crate's own moves. Work is limited by nodes.

mod common;

use std::collections::BTreeSet;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

use tsubame::core::game::Position;
use tsubame::core::moves::{ListStore, MoveList};
use tsubame::games::shogi::Shogi;
use tsubame::mate::table::Table;
use tsubame::mate::{Fallback, MateLimits, MateResult, solve_cooks};

const LIMITS: MateLimits = MateLimits {
    time: None,
    hash_mib: 16,
    nodes: Some(3_000_000),
};

/// The SFEN of row `row` (1-based) of tsume-short.tsv.
fn short(row: usize) -> String {
    common::tsv("tsume-short.tsv")[row - 1][0].clone()
}

/// Plain AND/OR search: does the defender to move in `pos` lose within `depth` plies?
fn and_mated<P: Position>(pos: &P, depth: u32) -> bool {
    let mut list = MoveList::<P::Move>::new();
    pos.legal_moves(&mut list);
    if list.is_empty() {
        return true;
    }
    depth >= 2
        && list.iter().all(|&mv| {
            let mut next = pos.clone();
            next.play(mv);
            let mut checks = MoveList::<P::Move>::new();
            next.legal_moves(&mut checks);
            checks.iter().any(|&c| {
                let mut after = next.clone();
                after.play(c);
                after.in_check() && and_mated(&after, depth - 2)
            })
        })
}

/// Row, length, the first moves that mate within it, the cooks along the solver's line as
/// (1-based ply, move) — all from the cshogi brute force.
type Known = (
    usize,
    usize,
    &'static [&'static str],
    &'static [(usize, &'static str)],
);
const KNOWN: &[Known] = &[
    (7, 1, &["R*1i", "R*2i"], &[(1, "R*2i")]),
    (19, 1, &["B*6h", "B*7g"], &[(1, "B*7g")]),
    (
        35,
        3,
        &["1h6c+", "1h6c", "1h7b+", "1h7b", "1h8a+", "1h8a"],
        &[
            (1, "1h7b+"),
            (1, "1h8a+"),
            (1, "1h6c"),
            (1, "1h7b"),
            (1, "1h8a"),
            (3, "1i1h"),
            (3, "6c1h"),
        ],
    ),
    (
        38,
        3,
        &["3c4b+", "3a4a", "3a4b"],
        &[(1, "3a4a"), (1, "3a4b")],
    ),
    (46, 5, &["5a4b", "3b4b"], &[(1, "3b4b"), (5, "N*4f")]),
    (51, 5, &["5b4b+", "5b4b"], &[(1, "5b4b")]),
    (52, 5, &["S*4b", "S*6b"], &[(1, "S*6b"), (5, "5c6b")]),
    (24, 3, &["4b3b"], &[(3, "3b2b")]),
    (30, 3, &["G*4c"], &[]),
];

#[test]
fn the_cooks_of_problems_with_known_cooks_are_listed() {
    for &(row, len, firsts, cooks) in KNOWN {
        let pos = Shogi::from_sfen(&short(row)).unwrap();
        let mut table = Table::new(LIMITS.hash_mib);
        let stop = AtomicBool::new(false);
        let (r, report) = solve_cooks(
            &pos,
            &mut table,
            &LIMITS,
            &stop,
            &mut |_| {},
            Fallback::FastLine,
            8,
        );
        let MateResult::Mate(main) = r.result else {
            panic!("row {row}: {:?}", r.result)
        };
        assert!(r.exact, "row {row}");
        assert_eq!(main.len(), len, "row {row}");
        let report = report.expect("cooks asked");
        assert_eq!(report.cooks_undecided, 0, "row {row}");
        assert_eq!(
            report.first_moves[0].line, main,
            "row {row}: the main line first"
        );
        // The first moves within the length, as the brute force found them.
        let within: BTreeSet<String> = report
            .first_moves
            .iter()
            .filter(|m| m.len == len)
            .map(|m| pos.move_to_usi(m.line[0]))
            .collect();
        let expected: BTreeSet<String> = firsts.iter().map(|s| s.to_string()).collect();
        assert_eq!(within, expected, "row {row}");
        for m in &report.first_moves {
            let what = format!("row {row} first move {}", pos.move_to_usi(m.line[0]));
            assert!(m.len >= len && m.line.len() <= m.len, "{what}");
            common::assert_mates(&pos, &m.line, &what);
            if m.exact && m.len <= 7 {
                let mut child = pos.clone();
                child.play(m.line[0]);
                let n = m.len as u32 - 1;
                assert!(and_mated(&child, n), "{what}: mates in {}", m.len);
                assert!(n < 2 || !and_mated(&child, n - 2), "{what}: shorter");
            }
        }
        // The cooks along the main line, each with a line that mates from its position.
        let mut got = BTreeSet::new();
        for c in &report.cooks {
            let mut p = pos.clone();
            for &mv in &main[..c.ply] {
                p.play(mv);
            }
            let what = format!("row {row} cook at ply {}", c.ply + 1);
            assert!(c.len <= len - c.ply, "{what}");
            assert_eq!(c.line[0], c.mv, "{what}");
            common::assert_mates(&p, &c.line, &what);
            got.insert((c.ply + 1, p.move_to_usi(c.mv)));
        }
        let expected: BTreeSet<(usize, String)> =
            cooks.iter().map(|&(p, m)| (p, m.to_string())).collect();
        assert_eq!(got, expected, "row {row}: main line {main:?}");
    }
}

#[test]
fn without_cooks_the_solve_is_the_same() {
    // The same answer and the same node count as a plain solve: nothing more is searched.
    for row in [35, 46, 52] {
        let pos = Shogi::from_sfen(&short(row)).unwrap();
        let stop = AtomicBool::new(false);
        let mut table = Table::new(16);
        let plain = common::solve_quietly(&pos, &mut table, &LIMITS, &stop);
        let (none, report) = solve_cooks(
            &pos,
            &mut table,
            &LIMITS,
            &stop,
            &mut |_| {},
            Fallback::FastLine,
            0,
        );
        assert!(report.is_none());
        assert_eq!(plain.result, none.result, "row {row}");
        assert_eq!(plain.nodes, none.nodes, "row {row}");
    }
}

#[test]
fn a_cook_search_within_a_node_limit_says_what_it_left_undecided() {
    // Row 46 (mate in 5) with just enough nodes for the mate: the cooks' checks are cut short,
    // and what they did not decide is counted, never reported as a cook or as none.
    let pos = Shogi::from_sfen(&short(46)).unwrap();
    let stop = AtomicBool::new(false);
    let mut table = Table::new(16);
    let plain = common::solve_quietly(&pos, &mut table, &LIMITS, &stop);
    let limits = MateLimits {
        nodes: Some(plain.nodes + 1),
        ..LIMITS
    };
    let (r, report) = solve_cooks(
        &pos,
        &mut table,
        &limits,
        &stop,
        &mut |_| {},
        Fallback::FastLine,
        4,
    );
    assert_eq!(r.result, plain.result);
    let report = report.unwrap();
    let decided_cooks = report.cooks.len();
    assert!(report.cooks_undecided > 0, "{report:?}");
    assert!(decided_cooks <= 2, "{report:?}");
}

fn engine_answer(commands: &[&str]) -> Vec<String> {
    use std::io::Write;
    let (mut child, mut stdin, rx) = common::start_engine_lines();
    for c in commands {
        writeln!(stdin, "{c}").unwrap();
    }
    let mut lines = Vec::new();
    loop {
        let line = rx
            .recv_timeout(Duration::from_secs(120))
            .expect("an answer (a hang guard, not a timing)");
        let done = line.starts_with("checkmate");
        lines.push(line);
        if done {
            break;
        }
    }
    writeln!(stdin, "quit").unwrap();
    let _ = child.wait();
    lines
}

#[test]
fn go_mate_with_multipv_lists_the_cooks_as_info_strings() {
    let sfen = short(52);
    let position = format!("position sfen {sfen}");
    let with = engine_answer(&[
        "setoption name MultiPV value 3",
        &position,
        "go mate 600000 nodes 2000000",
    ]);
    let text = with.join("\n");
    assert!(
        text.contains("info string first move 1 of 2: S*4b mate 5 shortest pv S*4b"),
        "{text}"
    );
    assert!(
        text.contains("info string first move 2 of 2: S*6b mate 5 shortest pv S*6b"),
        "{text}"
    );
    assert!(
        text.contains(
            "info string cook at ply 1: S*6b instead of S*4b mates within 5 plies pv S*6b"
        ),
        "{text}"
    );
    assert!(
        text.contains("info string cook at ply 5 (last move): 5c6b instead of 6c6b+ mates within 1 ply pv 5c6b"),
        "{text}"
    );
    assert!(
        text.contains("info string cooks of the main line: 2 (1 on the last move)"),
        "{text}"
    );
    // The answer itself is the one without cooks, and without them nothing is listed.
    let without = engine_answer(&[&position, "go mate 600000 nodes 2000000"]);
    assert_eq!(with.last(), without.last());
    assert_eq!(
        without.last().unwrap(),
        "checkmate S*4b 5a5b G*5c 5b6a 6c6b+"
    );
    assert!(!without.join("\n").contains("first move"), "{without:?}");
}

#[test]
fn the_mate_command_lists_the_cooks() {
    let sfen = short(35);
    let mut args = vec!["mate", "--cooks", "3", "--nodes", "1000000"];
    args.extend(sfen.split_whitespace());
    let out = common::tsubame(&args);
    assert!(out.status.success(), "{}", common::stderr(&out));
    let text = common::stdout(&out);
    assert!(text.starts_with("checkmate 1h6c+ 2f1h+ 6c2g\n"), "{text}");
    assert_eq!(text.matches("\nfirst move ").count(), 3, "{text}");
    assert!(
        text.contains("first moves that mate: 3 (as many as asked"),
        "{text}"
    );
    assert!(
        text.contains("cook at ply 3 (last move): 1i1h instead of 6c2g mates within 1 ply pv 1i1h"),
        "{text}"
    );
    assert!(
        text.contains("cooks of the main line: 7 (2 on the last move)"),
        "{text}"
    );
    // Not for a suite.
    let out = common::tsubame(&[
        "mate",
        "--cooks",
        "--file",
        "engine-tests/data/tsume-short.tsv",
    ]);
    assert!(!out.status.success());
    assert!(
        common::stderr(&out).contains("--cooks"),
        "{}",
        common::stderr(&out)
    );
}
