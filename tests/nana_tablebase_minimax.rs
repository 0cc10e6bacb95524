//! The tablebase against an independent plain minimax: on random positions the table's value and
//! distance to mate agree with a depth-limited AND/OR search over the move generator, both for the
//! positions decided within the depth and for those that are not.
//!
//! The table for one material class (one cube of each kind in play) is built here in seconds; the
//! full table is compared too when `TSUBAME_NANA_TB` names a file written by
//! `tsubame solve nanashogi` (or with `--ignored`, which builds it: a few minutes).

use rayon::prelude::*;

use tsubame::core::game::Position;
use tsubame::core::moves::{Move, MoveList};
use tsubame::games::nana::Nana;
use tsubame::games::nana::tablebase::index::INDEXER;
use tsubame::games::nana::tablebase::{Tablebase, TbValue, build, verify};
use tsubame::rng::Rng;

/// Deepest distance the minimax decides.
const DEPTH: u32 = 5;
/// Positions decided within [`DEPTH`] to compare, at least.
const DECIDED: usize = 1000;
/// Positions not decided within [`DEPTH`] to compare.
const UNDECIDED: usize = 200;

fn children(pos: &Nana) -> Vec<Nana> {
    let mut list = MoveList::<Move>::new();
    pos.legal_moves(&mut list);
    list.iter()
        .map(|&mv| {
            let mut p = pos.clone();
            p.play(mv);
            p
        })
        .collect()
}

/// True when the side to move can force mate within `k` plies.
fn wins_within(pos: &Nana, k: u32) -> bool {
    k >= 1 && children(pos).iter().any(|c| loses_within(c, k - 1))
}

/// True when the side to move is mated within `k` plies whatever he does.
fn loses_within(pos: &Nana, k: u32) -> bool {
    let ch = children(pos);
    ch.is_empty() || (k >= 1 && ch.iter().all(|c| wins_within(c, k - 1)))
}

/// The value by plain minimax if it is decided within `depth` plies (shortest mate, longest defence).
fn minimax(pos: &Nana, depth: u32) -> Option<TbValue> {
    for k in 0..=depth {
        if k % 2 == 1 && wins_within(pos, k) {
            return Some(TbValue::Win(k));
        }
        if k % 2 == 0 && loses_within(pos, k) {
            return Some(TbValue::Loss(k));
        }
    }
    None
}

/// Compares `tb` with minimax on random indices accepted by `keep`; returns the mismatches.
fn compare(tb: &Tablebase, seed: u64, keep: impl Fn(u32) -> bool + Sync) -> Vec<String> {
    let mut rng = Rng::new(seed);
    let (mut decided, mut undecided) = (Vec::new(), Vec::new());
    while decided.len() < DECIDED || undecided.len() < UNDECIDED {
        let idx = rng.below(INDEXER.size as usize) as u32;
        if !keep(idx) {
            continue;
        }
        match tb.value_at(idx) {
            None => {}
            Some(v) if v != TbValue::Draw && v.distance() <= DEPTH => decided.push(idx),
            Some(_) => undecided.push(idx),
        }
    }
    decided.truncate(DECIDED);
    undecided.truncate(UNDECIDED);
    // Every distance up to the depth is represented.
    for d in 0..=DEPTH {
        let has = decided
            .iter()
            .any(|&i| tb.value_at(i).is_some_and(|v| v.distance() == d));
        assert!(has, "no sampled position at distance {d}");
    }
    decided
        .par_iter()
        .chain(undecided.par_iter())
        .filter_map(|&idx| {
            let pos = INDEXER.unrank(idx);
            let table = tb.value_at(idx).expect("sampled");
            let expected = (table != TbValue::Draw && table.distance() <= DEPTH).then_some(table);
            let got = minimax(&pos, DEPTH);
            (got != expected)
                .then(|| format!("{}: table {table:?}, minimax {got:?}", pos.to_sfen()))
        })
        .collect()
}

/// Builds the table of one material class, verifies it and compares it with minimax.
fn check_class(material: (u8, u8), seed: u64) {
    let tb = build(Some(material), false);
    let stats = verify(&tb, false);
    assert_eq!(stats.inconsistent, 0);
    assert!(stats.wins > 0 && stats.losses > 0);
    let bad = compare(&tb, seed, |i| INDEXER.material(i) == material);
    assert!(
        bad.is_empty(),
        "{} mismatches:\n{}",
        bad.len(),
        bad.join("\n")
    );
}

#[test]
fn one_cube_of_each_kind_agrees_with_minimax() {
    check_class((1, 1), 23);
}

#[test]
fn both_orthogonal_cubes_and_one_diagonal_agree_with_minimax() {
    check_class((2, 1), 31);
}

/// The full table: from `TSUBAME_NANA_TB`, else built here.
fn full_table() -> Tablebase {
    match std::env::var("TSUBAME_NANA_TB") {
        Ok(path) => Tablebase::load(std::path::Path::new(&path)).expect("the table file loads"),
        Err(_) => build(None, false),
    }
}

#[test]
#[ignore = "needs the full table: minutes to build (or TSUBAME_NANA_TB)"]
fn full_table_agrees_with_minimax() {
    let tb = full_table();
    let bad = compare(&tb, 29, |_| true);
    assert!(
        bad.is_empty(),
        "{} mismatches:\n{}",
        bad.len(),
        bad.join("\n")
    );
    // The opening, through the king drops.
    let start = Nana::startpos();
    assert!(tb.probe(&start).is_some());
}
