//! `bench`: a fixed search of fixed positions of every game with one thread. Its node count is the
//! build's signature (commits that change search behaviour end with `Bench: N`).

use std::sync::atomic::Ordering;
use std::time::Instant;

use crate::core::repetition::HistoryEntry;
use crate::core::rules::RuleOptions;
use crate::games::minishogi::Minishogi;
use crate::games::nana::Nana;
use crate::games::shogi::Shogi;
use crate::search::tt::TranspositionTable;
use crate::search::{self, Limits, SearchGame, SearchSetup, Shared};

/// Depth of the standard shogi positions.
pub const SHOGI_DEPTH: i32 = 9;
/// Depth of the minishogi positions.
pub const MINISHOGI_DEPTH: i32 = 11;
/// Depth of the nana shogi positions.
pub const NANA_DEPTH: i32 = 9;
/// Table size used by the bench.
const BENCH_HASH_MIB: usize = 16;

/// Searches each bench position of `G` to `depth`; returns the nodes.
fn bench_game<G: SearchGame>(depth: i32, tt: &TranspositionTable, say: &dyn Fn(&str)) -> u64 {
    let mut total = 0;
    for sfen in G::BENCH_SFENS {
        let pos = G::from_sfen(sfen).expect("bench positions are valid");
        tt.clear();
        let shared = Shared::default();
        shared.set_budget(None);
        let history = [HistoryEntry {
            key: pos.key(),
            in_check: pos.in_check(),
        }];
        let report = |_: &search::Report| {};
        let setup = SearchSetup {
            history: &history,
            rules: RuleOptions::default(),
            limits: Limits {
                depth: Some(depth),
                multipv: 1,
                ..Limits::default()
            },
            threads: 1,
            pruning: true,
            tt,
            shared: &shared,
            report: &report,
        };
        let result = search::with_search_stack(|| search::run(&pos, &setup));
        shared.stop.store(false, Ordering::Relaxed);
        say(&format!(
            "info string {} {sfen}: {} nodes, best {}",
            G::NAME,
            result.nodes,
            result.best.map_or("none".into(), |m| pos.move_to_usi(m))
        ));
        total += result.nodes;
    }
    total
}

/// Runs the bench (the depth of standard shogi may be overridden; minishogi goes two plies
/// deeper); prints one line per position and the total. Returns (nodes, nodes per second).
pub fn run(depth: Option<i32>, say: &dyn Fn(&str)) -> (u64, u64) {
    let tt = TranspositionTable::new(BENCH_HASH_MIB);
    let start = Instant::now();
    let shogi_depth = depth.unwrap_or(SHOGI_DEPTH);
    let mut nodes = bench_game::<Shogi>(shogi_depth, &tt, say);
    nodes += bench_game::<Minishogi>(
        depth.map_or(MINISHOGI_DEPTH, |d| d + MINISHOGI_DEPTH - SHOGI_DEPTH),
        &tt,
        say,
    );
    nodes += bench_game::<Nana>(
        depth.map_or(NANA_DEPTH, |d| d + NANA_DEPTH - SHOGI_DEPTH),
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
