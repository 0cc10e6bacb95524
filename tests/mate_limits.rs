//! The mate solver at its limits: a table far too small for the problem, and node caps that end a
//! solve before it can prove or disprove. Whatever the limit, the answer is a correct mate (the
//! line replays, checks on every attacker move, ends in mate, is no shorter than the problem's
//! known length and exactly it when claimed shortest) or `timeout`: never a wrong mate, never
//! `nomate` for a problem with a mate, and `nomate` only for one without.
//!
//! The no-mate problem is row 23 of tsume-medium.tsv (mate in 15) with the attacker's knight in
//! hand given to the defender: no mate, as KomoringHeights 1.1.0 also answers (`checkmate
//! nomate`, 512 MiB); tsubame needs about 260,000 nodes to disprove it in a 64 MiB table. Work is
//! limited by nodes, never by time.

mod common;

use std::sync::atomic::AtomicBool;
use std::time::Duration;

use tsubame::core::game::Position;
use tsubame::games::shogi::Shogi;
use tsubame::mate::table::Table;
use tsubame::mate::{MateLimits, MateResult};

/// Mate in 15 (tsume-medium.tsv row 23, exact).
const MATE15: &str = "7nl/5+P1k1/5+B2p/8s/7+pP/9/9/9/9 b 3SN2rb4g2n3l14p 1";
/// The same without the attacker's knight (the defender holds it): no mate.
const NOMATE: &str = "7nl/5+P1k1/5+B2p/8s/7+pP/9/9/9/9 b 3S2rb4g3n3l14p 1";

/// Solves `sfen` in a table of `mib` MiB (0: a single bucket of 8 entries) within `nodes`.
fn solve(
    sfen: &str,
    mib: usize,
    nodes: u64,
) -> (Shogi, MateResult<<Shogi as Position>::Move>, bool) {
    let pos = Shogi::from_sfen(sfen).unwrap();
    let mut table = Table::new(mib);
    let limits = MateLimits {
        time: None,
        hash_mib: mib,
        nodes: Some(nodes),
    };
    let stop = AtomicBool::new(false);
    let r = common::solve_quietly(&pos, &mut table, &limits, &stop);
    (pos, r.result, r.exact)
}

/// A problem with a mate of `len` plies (`exact`: the shortest; else the composers' length, which
/// the shortest is at least): a correct mate or a timeout.
fn assert_mate_or_timeout(sfen: &str, len: usize, exact_len: bool, mib: usize, nodes: u64) {
    let what = format!("{sfen} in {mib} MiB within {nodes} nodes");
    match solve(sfen, mib, nodes) {
        (pos, MateResult::Mate(line), exact) => {
            common::assert_mates(&pos, &line, &what);
            assert!(line.len() >= len, "{what}: {} plies", line.len());
            if exact && exact_len {
                assert_eq!(line.len(), len, "{what}: claimed shortest");
            }
        }
        (_, MateResult::Timeout, _) => {}
        (_, other, _) => panic!("{what}: {other:?}"),
    }
}

#[test]
fn a_table_too_small_answers_a_correct_mate_or_timeout() {
    let medium = common::tsv("tsume-medium.tsv");
    let long = common::tsv("tsume-long.tsv");
    // A single bucket (8 entries) cannot hold any proof of these; 1 MiB holds some.
    for mib in [0, 1] {
        assert_mate_or_timeout(MATE15, 15, true, mib, 400_000);
        // Row 16: mate in 13 (exact); row 41: 25 plies (composers' length).
        assert_mate_or_timeout(&medium[15][0], 13, true, mib, 300_000);
        assert_mate_or_timeout(&medium[40][0], 25, false, mib, 300_000);
        // The 69-ply problem of tsume-long.tsv (composers' length).
        assert_mate_or_timeout(&long[0][0], 69, false, mib, 200_000);
    }
    // 1 MiB is enough for the mate in 15: found and proven shortest.
    let (pos, r, exact) = solve(MATE15, 1, 2_000_000);
    let MateResult::Mate(line) = r else {
        panic!("{r:?}")
    };
    common::assert_mates(&pos, &line, "mate in 15 in 1 MiB");
    assert!(exact);
    assert_eq!(line.len(), 15);
}

#[test]
fn a_hard_no_mate_is_nomate_or_timeout_and_its_mate_twin_never_nomate() {
    for mib in [0, 1, 16] {
        for nodes in [2_000, 30_000, 150_000] {
            let what = format!("no mate in {mib} MiB within {nodes} nodes");
            match solve(NOMATE, mib, nodes).1 {
                MateResult::NoMate | MateResult::Timeout => {}
                other => panic!("{what}: {other:?}"),
            }
            assert_mate_or_timeout(MATE15, 15, true, mib, nodes);
        }
    }
    // Too few nodes to disprove it: timeout, not a guess.
    assert_eq!(solve(NOMATE, 16, 20_000).1, MateResult::Timeout);
    // Enough: disproven, in a small table as in a large one.
    for mib in [1, 16] {
        assert_eq!(
            solve(NOMATE, mib, 3_000_000).1,
            MateResult::NoMate,
            "{mib} MiB"
        );
    }
}

/// The engine's lines up to its `checkmate` answer to `commands`.
fn engine_answer(commands: &[&str]) -> String {
    use std::io::Write;
    let (mut child, mut stdin, rx) = common::start_engine_lines();
    for c in commands {
        writeln!(stdin, "{c}").unwrap();
    }
    let answer = loop {
        let line = rx
            .recv_timeout(Duration::from_secs(120))
            .expect("an answer (a hang guard, not a timing)");
        if line.starts_with("checkmate") {
            break line;
        }
    };
    writeln!(stdin, "quit").unwrap();
    let _ = child.wait();
    answer
}

#[test]
fn go_mate_with_a_tiny_hash_and_a_node_limit_is_right_or_timeout() {
    // USI_Hash 1 and `go mate … nodes N` (the node limit bounds the work; the time limit is a
    // safety net far beyond it).
    for (sfen, nodes) in [
        (NOMATE, 1_000u64),
        (NOMATE, 100_000),
        (MATE15, 1_000),
        (MATE15, 100_000),
    ] {
        let answer = engine_answer(&[
            "setoption name USI_Hash value 1",
            &format!("position sfen {sfen}"),
            &format!("go mate 600000 nodes {nodes}"),
        ]);
        let what = format!("{sfen} within {nodes} nodes: {answer}");
        if sfen == NOMATE {
            assert!(
                answer == "checkmate nomate" || answer == "checkmate timeout",
                "{what}"
            );
        } else if answer != "checkmate timeout" {
            let pos = Shogi::from_sfen(sfen).unwrap();
            let mut p = pos.clone();
            let mut line = Vec::new();
            for m in answer.split_whitespace().skip(1) {
                let mv = p.parse_move(m).unwrap_or_else(|e| panic!("{what}: {e}"));
                p.play(mv);
                line.push(mv);
            }
            common::assert_mates(&pos, &line, &what);
            assert!(line.len() >= 15, "{what}");
        }
        if nodes == 1_000 {
            assert_eq!(answer, "checkmate timeout", "{what}");
        }
    }
}
