//! `bench`: a fixed search of fixed positions of every game with one thread. Its node count is the
//! build's signature (commits that change search behaviour end with `Bench: N`).

use std::time::Instant;

use crate::games::giveandtake::GiveAndTake;
use crate::games::minishogi::Minishogi;
use crate::games::nana::Nana;
use crate::games::shogi::Shogi;
use crate::search::tt::TranspositionTable;
use crate::search::{self, Limits, SearchGame, Shared};

/// Depth of the standard shogi positions.
pub const SHOGI_DEPTH: i32 = 9;
/// Depth of the minishogi positions.
pub const MINISHOGI_DEPTH: i32 = 11;
/// Depth of the nana shogi positions.
pub const NANA_DEPTH: i32 = 9;
/// Search depth of the Give and Take bench positions.
pub const GIVE_AND_TAKE_DEPTH: i32 = 8;
/// Table size used by the bench.
const BENCH_HASH_MIB: usize = 16;

/// Searches each bench position of `G` to `depth`, with the game's built-in network when
/// `networks` (else the hand-written evaluation); returns the nodes.
fn bench_game<G: SearchGame>(
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
        let network = networks.then(|| crate::nnue::embedded(G::NAME)).flatten();
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

/// Runs the bench (the depth of standard shogi may be overridden; minishogi goes two plies
/// deeper); prints one line per position and the total. Returns (nodes, nodes per second).
pub fn run(depth: Option<i32>, say: &dyn Fn(&str)) -> (u64, u64) {
    run_with(depth, true, say)
}

/// [`run`], evaluating with the built-in networks when `networks` (the signature) or else with
/// the hand-written evaluation (to compare the speed of the two).
pub fn run_with(depth: Option<i32>, networks: bool, say: &dyn Fn(&str)) -> (u64, u64) {
    let tt = TranspositionTable::new(BENCH_HASH_MIB);
    let start = Instant::now();
    let shogi_depth = depth.unwrap_or(SHOGI_DEPTH);
    let mut nodes = bench_game::<Shogi>(shogi_depth, networks, &tt, say);
    nodes += bench_game::<Minishogi>(
        depth.map_or(MINISHOGI_DEPTH, |d| d + MINISHOGI_DEPTH - SHOGI_DEPTH),
        networks,
        &tt,
        say,
    );
    nodes += bench_game::<Nana>(
        depth.map_or(NANA_DEPTH, |d| d + NANA_DEPTH - SHOGI_DEPTH),
        networks,
        &tt,
        say,
    );
    nodes += bench_game::<GiveAndTake>(
        depth.map_or(GIVE_AND_TAKE_DEPTH, |d| {
            d + GIVE_AND_TAKE_DEPTH - SHOGI_DEPTH
        }),
        networks,
        &tt,
        say,
    );
    let ms = start.elapsed().as_millis().max(1) as u64;
    let nps = nodes * 1000 / ms;
    say(&format!("Nodes searched: {nodes}"));
    say(&format!(
        "bench: {nodes} nodes {nps} nps ({ms} ms, 1 thread)"
    ));
    (nodes, nps)
}

/// Searches each standard shogi bench position for `ms` milliseconds with `threads` threads;
/// returns the nodes searched in all.
fn timed<G: SearchGame>(threads: usize, ms: u64) -> (u64, u64) {
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
        nodes += search::search_position(&pos, limits, threads, &tt, &shared).nodes;
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
