//! Perft of nana shogi against every row of `engine-tests/data/perft-nana.tsv`.

use tsubame::core::game::Position;
use tsubame::core::perft::perft;
use tsubame::games::nana::Nana;

/// The rows of the reference file: SFEN, depth, expected leaf count.
fn rows() -> Vec<(String, u32, u64)> {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/engine-tests/data/perft-nana.tsv"
    );
    let text = std::fs::read_to_string(path).expect("perft-nana.tsv is readable");
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
    assert_eq!(rows.len(), 125, "the reference file has 125 rows");
    let mut failures = Vec::new();
    for (sfen, depth, nodes) in &rows {
        let pos = Nana::from_sfen(sfen).unwrap_or_else(|e| panic!("{sfen}: {e}"));
        let got = perft(&pos, *depth);
        if got != *nodes {
            failures.push(format!("{sfen} depth {depth}: expected {nodes}, got {got}"));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn start_position_small_depths() {
    let pos = Nana::startpos();
    let expected = [1u64, 8, 32, 1292, 43948];
    for (d, &n) in expected.iter().enumerate() {
        assert_eq!(perft(&pos, d as u32), n, "depth {d}");
    }
}

/// Times perft from the start position at depths 5 and 6 (`cargo test --release --test nana_perft
/// -- --ignored --nocapture`).
#[test]
#[ignore = "timing, not a check"]
fn start_position_timing() {
    let pos = Nana::startpos();
    for depth in [5, 6] {
        let start = std::time::Instant::now();
        let nodes = perft(&pos, depth);
        let secs = start.elapsed().as_secs_f64();
        println!(
            "nanashogi perft {depth}: {nodes} nodes in {secs:.3} s ({:.1} M nodes/s)",
            nodes as f64 / secs / 1e6
        );
    }
    assert_eq!(perft(&pos, 5), 726_680);
}
