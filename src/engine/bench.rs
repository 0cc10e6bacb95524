//! The signature bench: a fixed search of fixed positions of every game with one thread. Its node count is the
//! build's signature (commits that change search behaviour end with `Bench: N`).

use crate::core::clock::Instant;
use crate::games::{Game, GameId};
use crate::search::tt::TranspositionTable;
use crate::search::{Limits, SearchResult, Shared};

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
    super::search_position_with(pos, limits, threads, tt, shared, network.as_deref())
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
        // The built-in network, or the one the host supplied where the build leaves it out (the
        // browser build's shogi), so that the signature is the same in every build.
        let network = networks
            .then(|| crate::games::networks::Networks::default().get(G::ID))
            .flatten();
        let result = super::search_position_with(&pos, limits, 1, tt, &shared, network.as_deref());
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
/// `depth` given moves every game's depth by as much as it moves the default game's); prints one
/// line per position and the total. Returns (nodes, nodes per second).
pub fn run(depth: Option<i32>, say: &dyn Fn(&str)) -> (u64, u64) {
    run_with(depth, true, say)
}

/// [`run`], evaluating with the built-in networks when `networks` (the signature) or else with
/// the hand-written evaluation (to compare the speed of the two).
pub fn run_with(depth: Option<i32>, networks: bool, say: &dyn Fn(&str)) -> (u64, u64) {
    let tt = TranspositionTable::new(BENCH_HASH_MIB);
    let start = Instant::now();
    let shift = depth.map_or(0, |d| d - GameId::DEFAULT.info().bench_depth);
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
