//! `bench`: a fixed search of fixed positions of every game with one thread. Its node count is the
//! build's signature (commits that change search behaviour end with `Bench: N`).

use std::time::Instant;

use crate::core::perft::perft;
use crate::games::shogi::Shogi;
use crate::games::{Game, GameId};
use crate::search::tt::TranspositionTable;
use crate::search::{self, Limits, SearchResult, Shared};

/// Table size used by the bench.
const BENCH_HASH_MIB: usize = 16;

/// Searches `pos` on its own search thread as a lone position (its history is the position
/// itself), under the default rules with full pruning, the game's embedded network where it has
/// one and no progress reports: what the bench and the tests need.
pub fn search_position<G: Game>(
    pos: &G,
    limits: Limits<G::Move>,
    threads: usize,
    tt: &TranspositionTable,
    shared: &Shared,
) -> SearchResult<G::Move> {
    let network = G::ID.embedded_network();
    search::search_position_with(pos, limits, threads, tt, shared, network.as_deref())
}

/// Searches each bench position of `G` to `depth`, with the game's built-in network when
/// `networks` (else the hand-written evaluation); returns the nodes.
fn bench_game<G: Game>(
    depth: i32,
    networks: bool,
    tt: &TranspositionTable,
    say: &dyn Fn(&str),
) -> u64 {
    let mut total = 0;
    let start = Instant::now();
    for sfen in G::BENCH_SFENS {
        let pos = G::from_sfen(sfen).expect("bench positions are valid");
        tt.clear();
        let shared = Shared::default();
        shared.set_budget(None);
        let limits = Limits {
            depth: Some(depth),
            multipv: 1,
            ..Limits::default()
        };
        let network = networks.then(|| G::ID.embedded_network()).flatten();
        let result = search::search_position_with(&pos, limits, 1, tt, &shared, network.as_deref());
        say(&format!(
            "info string {} {sfen}: {} nodes, best {}",
            G::NAME,
            result.nodes,
            result.best.map_or("none".into(), |m| pos.move_to_usi(m))
        ));
        total += result.nodes;
    }
    let ms = start.elapsed().as_millis().max(1) as u64;
    say(&format!(
        "info string {}: {total} nodes {} nps",
        G::NAME,
        total * 1000 / ms
    ));
    total
}

/// Runs the bench (each game at its registry depth, [`crate::games::GameInfo::bench_depth`]; a
/// `depth` given moves every game's depth by as much as it moves standard shogi's 9); prints one
/// line per position and the total. Returns (nodes, nodes per second).
pub fn run(depth: Option<i32>, say: &dyn Fn(&str)) -> (u64, u64) {
    run_with(depth, true, say)
}

/// [`run`], evaluating with the built-in networks when `networks` (the signature) or else with
/// the hand-written evaluation (to compare the speed of the two).
pub fn run_with(depth: Option<i32>, networks: bool, say: &dyn Fn(&str)) -> (u64, u64) {
    let tt = TranspositionTable::new(BENCH_HASH_MIB);
    let start = Instant::now();
    let shift = depth.map_or(0, |d| d - GameId::Shogi.info().bench_depth);
    let mut nodes = 0;
    for id in GameId::ALL {
        let depth = id.info().bench_depth + shift;
        nodes += crate::dispatch!(id, G => bench_game::<G>(depth, networks, &tt, say));
    }
    let ms = start.elapsed().as_millis().max(1) as u64;
    let nps = nodes * 1000 / ms;
    say(&format!("Nodes searched: {nodes}"));
    say(&format!(
        "bench: {nodes} nodes {nps} nps ({ms} ms, 1 thread)"
    ));
    (nodes, nps)
}

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
/// ([`crate::games::GameInfo::bench_perft_depth`]), or moved by as much as `depth` moves
/// standard shogi's 6.
pub fn perft_all(depth: Option<u32>, runs: usize, say: &dyn Fn(&str)) {
    let shogi = GameId::Shogi.info().bench_perft_depth;
    for id in GameId::ALL {
        let d = (id.info().bench_perft_depth + depth.unwrap_or(shogi)).saturating_sub(shogi);
        crate::dispatch!(id, G => perft_game::<G>(d, runs, say));
    }
}

/// Searches each standard shogi bench position for `ms` milliseconds with `threads` threads;
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

/// The thread-scaling benchmark: nodes per second of standard shogi with one thread and with
/// `threads` threads, each position searched for `ms` milliseconds, and the speed-up.
pub fn smp(threads: usize, ms: u64, say: &dyn Fn(&str)) {
    let (n1, t1) = timed::<Shogi>(1, ms);
    let (n2, t2) = timed::<Shogi>(threads, ms);
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
