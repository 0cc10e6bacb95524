//! Perft of Give and Take against every row of `engine-tests/data/perft-giveandtake.tsv`, whose
//! counts come from the independent Python model `engine-tests/oracle/giveandtake.py`
//! (`python3 giveandtake.py perft "<position>" <depth>`): the start to depth 7, the article's
//! positions and 24 positions of random games, to depth 3, and two positions of one king
//! against many men with 1,600 and 21,617 capture routes (more than any shogi position has moves).

mod common;

use tsubame::core::perft::perft;
use tsubame::games::giveandtake::GiveAndTake;

#[test]
fn every_reference_row_matches() {
    let rows = common::tsv("perft-giveandtake.tsv");
    assert_eq!(rows.len(), 96, "the reference file has 96 rows");
    let mut failures = Vec::new();
    for row in &rows {
        let (fen, depth, nodes) = (
            &row[0],
            row[1].parse().unwrap(),
            row[2].parse::<u64>().unwrap(),
        );
        let pos = GiveAndTake::from_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
        let got = perft(&pos, depth);
        if got != nodes {
            failures.push(format!("{fen} depth {depth}: expected {nodes}, got {got}"));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
