//! `tsubame bench perft` and `tsubame bench smp`: timing benchmarks (the signature bench, whose
//! node count signs a build, is [`crate::engine::bench`]).

use std::time::Instant;

use crate::core::perft::perft;
use crate::engine::bench::search_position;
use crate::games::{Game, GameId};
use crate::search::tt::TranspositionTable;
use crate::search::{self, Limits, Shared};

/// Times bulk-counted perft from `G`'s start position to `depth`, `runs` times; prints each run,
/// then the best and the median speed.
fn perft_game<G: Game>(depth: u32, runs: usize, say: &dyn Fn(&str)) {
    let pos = G::startpos();
    let mut speeds = Vec::with_capacity(runs);
    for run in 1..=runs.max(1) {
        let start = Instant::now();
        let nodes = perft(&pos, depth);
        let secs = start.elapsed().as_secs_f64();
        let speed = nodes as f64 / secs / 1e6;
        speeds.push(speed);
        say(&format!(
            "{} perft {depth} run {run}: {nodes} nodes in {secs:.3} s, {speed:.1} M nodes/s (1 thread)",
            G::NAME
        ));
    }
    speeds.sort_by(f64::total_cmp);
    say(&format!(
        "{} perft {depth}: best {:.1} M nodes/s, median {:.1} M nodes/s over {} runs",
        G::NAME,
        speeds[speeds.len() - 1],
        speeds[speeds.len() / 2],
        speeds.len()
    ));
}

/// The perft benchmark of every game: each from its start position at its registry depth
/// ([`crate::games::GameInfo::bench_perft_depth`]), or moved by as much as `depth` moves the
/// default game's.
pub fn perft_all(depth: Option<u32>, runs: usize, say: &dyn Fn(&str)) {
    let base = GameId::DEFAULT.info().bench_perft_depth;
    for id in GameId::ALL {
        let d = (id.info().bench_perft_depth + depth.unwrap_or(base)).saturating_sub(base);
        crate::dispatch!(id, G => perft_game::<G>(d, runs, say));
    }
}

/// Searches each bench position of `G` for `ms` milliseconds with `threads` threads;
/// returns the nodes searched in all.
fn timed<G: Game>(threads: usize, ms: u64) -> (u64, u64) {
    let tt = TranspositionTable::new(64);
    let mut nodes = 0;
    let start = Instant::now();
    for sfen in G::BENCH_SFENS {
        let pos = G::from_sfen(sfen).expect("bench positions are valid");
        tt.clear();
        let shared = Shared::default();
        shared.set_budget(Some(search::time::Budget {
            optimum: ms,
            maximum: ms,
        }));
        let limits = Limits {
            multipv: 1,
            ..Limits::default()
        };
        nodes += search_position(&pos, limits, threads, &tt, &shared).nodes;
    }
    (nodes, start.elapsed().as_millis().max(1) as u64)
}

/// The thread-scaling benchmark: nodes per second of the default game with one thread and with
/// `threads` threads, each position searched for `ms` milliseconds, and the speed-up.
pub fn smp(threads: usize, ms: u64, say: &dyn Fn(&str)) {
    let game = GameId::DEFAULT;
    let (n1, t1) = crate::dispatch!(game, G => timed::<G>(1, ms));
    let (n2, t2) = crate::dispatch!(game, G => timed::<G>(threads, ms));
    let nps1 = n1 * 1000 / t1;
    let nps2 = n2 * 1000 / t2;
    say(&format!("1 thread: {n1} nodes in {t1} ms, {nps1} nps"));
    say(&format!(
        "{threads} threads: {n2} nodes in {t2} ms, {nps2} nps"
    ));
    say(&format!(
        "speed-up in nodes/s: {:.2}x",
        nps2 as f64 / nps1.max(1) as f64
    ));
}
