//! Perft of standard shogi and minishogi against the reference tables (every row, full depth).

mod common;

use tsubame::core::game::Position;
use tsubame::core::moves::Move;
use tsubame::core::perft::{divide, perft};
use tsubame::games::minishogi::Minishogi;
use tsubame::games::shogi::Shogi;

fn check_table<P: Position>(file: &str) {
    let rows = common::tsv(file);
    assert!(!rows.is_empty(), "{file} has no rows");
    let mut failures = Vec::new();
    for row in &rows {
        let (sfen, depth, nodes) = (
            &row[0],
            row[1].parse().unwrap(),
            row[2].parse::<u64>().unwrap(),
        );
        let pos = P::from_sfen(sfen).unwrap_or_else(|e| panic!("{sfen}: {e}"));
        let got = perft(&pos, depth);
        if got != nodes {
            failures.push(format!("{sfen} depth {depth}: expected {nodes}, got {got}"));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn shogi_start_position_to_depth_5() {
    let pos = Shogi::startpos();
    let got: Vec<u64> = (1..=5).map(|d| perft(&pos, d)).collect();
    assert_eq!(got, [30, 900, 25470, 719731, 19861490]);
}

#[test]
fn shogi_reference_table() {
    check_table::<Shogi>("perft-shogi.tsv");
}

#[test]
fn minishogi_start_position_to_depth_5() {
    let pos = Minishogi::startpos();
    let got: Vec<u64> = (1..=5).map(|d| perft(&pos, d)).collect();
    assert_eq!(got, [14, 181, 2512, 35401, 533203]);
}

#[test]
fn minishogi_reference_table() {
    check_table::<Minishogi>("perft-minishogi.tsv");
}

/// Bulk counting at the last ply must agree with generating and playing every move.
#[test]
fn bulk_count_equals_generated_moves() {
    for row in common::tsv("perft-shogi.tsv").iter().step_by(7) {
        let pos = Shogi::from_sfen(&row[0]).unwrap();
        let generated: u64 = divide(&pos, 2).iter().map(|&(_, n)| n).sum();
        let mut slow = 0;
        let mut list = tsubame::core::moves::MoveList::<Move>::new();
        pos.legal_moves(&mut list);
        for &mv in &list {
            let mut next = pos.clone();
            next.play(mv);
            let mut replies = tsubame::core::moves::MoveList::<Move>::new();
            next.legal_moves(&mut replies);
            assert_eq!(
                replies.len(),
                next.count_legal_moves(),
                "{}",
                next.to_sfen()
            );
            slow += replies.len() as u64;
        }
        assert_eq!(generated, slow, "{}", row[0]);
    }
}
