//! Perft of Give and Take against every row of `engine-tests/data/perft-giveandtake.tsv`, whose
//! counts come from the independent Python model `engine-tests/oracle/giveandtake.py`
//! (`python3 giveandtake.py perft "<position>" <depth>`): the start to depth 7, the article's
//! positions and 24 positions of random games, to depth 3.

use tsubame::games::giveandtake::GiveAndTake;
use tsubame::games::giveandtake::movegen::perft;

/// The rows of the reference file: position, depth, expected leaf count.
fn rows() -> Vec<(String, u32, u64)> {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/engine-tests/data/perft-giveandtake.tsv"
    );
    let text = std::fs::read_to_string(path).expect("perft-giveandtake.tsv is readable");
    text.lines()
        .skip(1)
        .filter(|l| !l.trim().is_empty())
        .map(|l| {
            let f: Vec<&str> = l.split('\t').collect();
            (
                f[0].to_string(),
                f[1].parse().expect("depth"),
                f[2].parse().expect("nodes"),
            )
        })
        .collect()
}

#[test]
fn every_reference_row_matches() {
    let rows = rows();
    assert_eq!(rows.len(), 91, "the reference file has 91 rows");
    let mut failures = Vec::new();
    for (fen, depth, nodes) in &rows {
        let pos = GiveAndTake::from_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
        let got = perft(&pos, *depth);
        if got != *nodes {
            failures.push(format!("{fen} depth {depth}: expected {nodes}, got {got}"));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
