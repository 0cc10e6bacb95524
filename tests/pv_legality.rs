//! Every principal variation the engine shows is a legal line from the root: each `pv` of a search
//! report, the best move and the ponder move after it, in all three games. Positions are the
//! bench positions and positions reached by seeded random play from the start; searches are
//! limited by nodes (so that many end mid-iteration) or by depth, never by time, with one and
//! three principal variations. The library's reports are checked directly, and the engine's
//! `info … pv` and `bestmove … ponder` lines through USI (where the exact-mate refinement may
//! replace the search's line).

mod common;

use std::io::{BufRead, BufReader, Write};

use std::sync::Mutex;

use tsubame::core::game::Position;
use tsubame::core::moves::{ListStore, MoveList};
use tsubame::core::repetition::HistoryEntry;
use tsubame::core::rules::RuleOptions;
use tsubame::games::minishogi::Minishogi;
use tsubame::games::nana::Nana;
use tsubame::games::shogi::Shogi;
use tsubame::rng::Rng;
use tsubame::search::params::CHECK_INTERVAL;
use tsubame::search::tt::TranspositionTable;
use tsubame::search::{self, Limits, Report, SearchGame, SearchSetup, Shared};

/// Why `line` is not a legal line from `root`, if it is not.
fn illegal_move<G: Position>(root: &G, line: &[G::Move]) -> Option<String> {
    let mut pos = root.clone();
    for (i, &mv) in line.iter().enumerate() {
        let mut list = MoveList::<G::Move>::new();
        pos.legal_moves(&mut list);
        if !list.contains(&mv) {
            return Some(format!(
                "move {} ({}) is illegal in {}",
                i + 1,
                pos.move_to_usi(mv),
                pos.to_sfen()
            ));
        }
        pos.play(mv);
    }
    None
}

/// A position reached by up to `max_plies` random legal moves from the start, stopping before a
/// move that would leave the side to move without a legal move.
fn random_position<G: Position>(rng: &mut Rng, max_plies: usize) -> G {
    let mut pos = G::startpos();
    for _ in 0..rng.below(max_plies + 1) {
        let mut list = MoveList::<G::Move>::new();
        pos.legal_moves(&mut list);
        let mut next = pos.clone();
        next.play(list[rng.below(list.len())]);
        if next.count_legal_moves() == 0 {
            break;
        }
        pos = next;
    }
    pos
}

/// The bench positions of `G` and `random` positions from seeded random play.
fn positions<G: SearchGame>(seed: u64, random: usize, max_plies: usize) -> Vec<G> {
    let mut rng = Rng::new(seed);
    G::BENCH_SFENS
        .iter()
        .map(|s| G::from_sfen(s).expect("bench positions are valid"))
        .chain((0..random).map(|_| random_position::<G>(&mut rng, max_plies)))
        .collect()
}

/// The limits of the `i`-th search: mostly node limits that stop mid-iteration, some depths.
fn limits<M>(rng: &mut Rng, i: usize, max_depth: i32) -> Limits<M> {
    let multipv = 1 + 2 * (i % 2);
    if i % 5 == 4 {
        Limits {
            depth: Some(1 + rng.below(max_depth as usize) as i32),
            multipv,
            ..Limits::default()
        }
    } else {
        Limits {
            nodes: Some(1_000 + rng.below(40_000) as u64),
            multipv,
            ..Limits::default()
        }
    }
}

/// Searches `pos` to `limits` with one thread and a cleared table, capturing every report; adds
/// to `failures` each line, best move or ponder move that is not legal. Returns the number of
/// reports.
fn check_search<G: SearchGame>(
    pos: &G,
    limits: Limits<G::Move>,
    tt: &TranspositionTable,
    failures: &mut Vec<String>,
) -> usize {
    tt.clear();
    let shared = Shared::default();
    let what = format!("{} {} ({limits:?})", G::NAME, pos.to_sfen());
    let reports: Mutex<Vec<Report<G::Move>>> = Mutex::new(Vec::new());
    let report = |r: &Report<G::Move>| reports.lock().unwrap().push(r.clone());
    let history = [HistoryEntry {
        key: pos.key(),
        in_check: pos.in_check(),
    }];
    let setup = SearchSetup {
        history: &history,
        rules: RuleOptions::default(),
        limits,
        threads: 1,
        pruning: true,
        tt,
        shared: &shared,
        report: &report,
        nnue: None,
        histories: None,
        params: G::default_params(),
        skill: None,
    };
    let result = search::with_search_stack(|| search::run(pos, &setup));
    let reports = reports.into_inner().unwrap();
    for r in &reports {
        if let Some(e) = illegal_move(pos, &r.pv) {
            failures.push(format!("{what}: depth {} pv {}: {e}", r.depth, r.multipv));
        }
    }
    let chosen: Vec<G::Move> = result.best.into_iter().chain(result.ponder).collect();
    if result.best.is_none() && result.ponder.is_some() {
        failures.push(format!("{what}: a ponder move without a best move"));
    } else if let Some(e) = illegal_move(pos, &chosen) {
        failures.push(format!("{what}: best and ponder: {e}"));
    }
    reports.len()
}

/// Fails with every collected failure, if any.
fn assert_no_failure(failures: &[String], lines: usize) {
    assert!(lines > 0, "no line was checked");
    assert!(
        failures.is_empty(),
        "{} illegal lines of {lines}:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

/// Searches every position of `G` (bench and random) and checks every line it shows.
fn search_lines_are_legal<G: SearchGame>(seed: u64, random: usize, max_plies: usize, depth: i32) {
    let tt = TranspositionTable::new(4);
    let mut rng = Rng::stream(seed, 1);
    let mut failures = Vec::new();
    let mut lines = 0;
    for (i, pos) in positions::<G>(seed, random, max_plies).iter().enumerate() {
        lines += check_search(pos, limits(&mut rng, i, depth), &tt, &mut failures);
    }
    assert_no_failure(&failures, lines);
}

#[test]
fn shogi_search_lines_are_legal() {
    search_lines_are_legal::<Shogi>(1, 100, 120, 7);
}

#[test]
fn minishogi_search_lines_are_legal() {
    search_lines_are_legal::<Minishogi>(2, 150, 60, 11);
}

#[test]
fn nana_search_lines_are_legal() {
    search_lines_are_legal::<Nana>(3, 100, 20, 9);
}

/// A minishogi position whose search, at several node limits, stops while re-searching a root
/// move that failed high in the aspiration window (found by sweeping the stop point over random
/// positions); the line and ponder move of that move were another root move's.
const ROOT_FAIL_HIGH: &str = "1B2k/G3p/s1g2/PB1+r1/KR3 b s 25";

/// With one thread the search is deterministic and checks its node limit every
/// [`CHECK_INTERVAL`] nodes, so limits of k × `CHECK_INTERVAL` stop the same search at each of
/// its successive checks: every state a stop can leave it in, over its first 24 checks, is
/// checked (before the fix, stops at checks 13 to 19 left illegal lines and ponder moves).
#[test]
fn every_stop_point_leaves_legal_lines() {
    let tt = TranspositionTable::new(4);
    let pos = Minishogi::from_sfen(ROOT_FAIL_HIGH).unwrap();
    let mut failures = Vec::new();
    let mut lines = 0;
    for multipv in [1, 3] {
        for k in 1..=24 {
            let limits = Limits {
                nodes: Some(k * CHECK_INTERVAL),
                multipv,
                ..Limits::default()
            };
            lines += check_search(&pos, limits, &tt, &mut failures);
        }
    }
    assert_no_failure(&failures, lines);
}

/// The moves of a USI line after the word `word` (e.g. `pv`), up to the end of the line.
fn moves_after<'a>(line: &'a str, word: &str) -> Vec<&'a str> {
    line.split_whitespace()
        .skip_while(|w| *w != word)
        .skip(1)
        .collect()
}

/// Why the USI `moves` are not a legal line from `root`, if they are not.
fn illegal_text<G: Position>(root: &G, moves: &[&str]) -> Option<String> {
    let mut pos = root.clone();
    for (i, text) in moves.iter().enumerate() {
        match pos.parse_move(text) {
            Ok(mv) => pos.play(mv),
            Err(e) => return Some(format!("move {} ({text}): {e}", i + 1)),
        }
    }
    None
}

/// Drives the engine through USI over the positions of `G` with `go nodes` (MultiPV 1, then 3)
/// and a few `go depth`, then over the `extra` positions with their own `go` commands, and asserts that every `info … pv` line and every `bestmove … ponder` is
/// a legal line from the root. Returns the number of lines of the exact-mate refinement (the
/// `info … pv` lines without `multipv`).
fn usi_lines_are_legal<G: SearchGame>(
    variant: &str,
    extra: &[(&str, &str)],
    seed: u64,
    random: usize,
) -> usize {
    let mut child = common::start_engine();
    let mut stdin = child.stdin.take().unwrap();
    let mut stdout = BufReader::new(child.stdout.take().unwrap());
    let mut send = |text: &str| {
        writeln!(stdin, "{text}")
            .and_then(|_| stdin.flush())
            .unwrap()
    };
    send(&format!("setoption name USI_Variant value {variant}"));
    send("setoption name USI_Hash value 4");
    let mut rng = Rng::new(seed);
    let mut searches: Vec<(G, String)> = positions(seed, random, 60)
        .into_iter()
        .enumerate()
        .map(|(i, pos)| {
            let go = if i % 4 == 3 {
                format!("go depth {}", 1 + rng.below(6))
            } else {
                format!("go nodes {}", 1_000 + rng.below(40_000))
            };
            (pos, go)
        })
        .collect();
    searches.extend(
        extra
            .iter()
            .map(|(sfen, go)| (G::from_sfen(sfen).unwrap(), go.to_string())),
    );
    let mut failures = Vec::new();
    let mut lines = 0usize;
    let mut refined = 0usize;
    for multipv in [1, 3] {
        send(&format!("setoption name MultiPV value {multipv}"));
        for (pos, go) in &searches {
            send("usinewgame");
            send(&format!("position sfen {}", pos.to_sfen()));
            send(go);
            let what = format!("{variant} {} MultiPV {multipv} {go}", pos.to_sfen());
            loop {
                let mut line = String::new();
                assert!(
                    stdout.read_line(&mut line).unwrap() > 0,
                    "{what}: the engine exited"
                );
                let line = line.trim_end();
                if line.starts_with("info") && line.contains(" pv ") {
                    lines += 1;
                    refined += usize::from(!line.contains(" multipv "));
                    if let Some(e) = illegal_text(pos, &moves_after(line, "pv")) {
                        failures.push(format!("{what}: '{line}': {e}"));
                    }
                } else if let Some(rest) = line.strip_prefix("bestmove ") {
                    let mut words = rest.split_whitespace();
                    let best = words.next().unwrap_or("");
                    let mut chosen = vec![best];
                    if words.next() == Some("ponder") {
                        chosen.extend(words.next());
                    }
                    if best != "resign"
                        && best != "win"
                        && let Some(e) = illegal_text(pos, &chosen)
                    {
                        failures.push(format!("{what}: '{line}': {e}"));
                    }
                    break;
                }
            }
        }
    }
    send("quit");
    assert!(child.wait().unwrap().success());
    assert_no_failure(&failures, lines);
    refined
}

#[test]
fn shogi_usi_lines_are_legal() {
    // Mates for the side to move (in 3, 5 and 5 plies), whose line the exact-mate refinement
    // replaces with the solver's.
    let mates = [
        (
            "9/4k4/9/5G3/4G4/4P4/9/9/9 b 2G2r2b4s4n4l17p 1",
            "go nodes 20000",
        ),
        (
            "7nl/5+R1gk/6Ppp/9/9/9/9/9/9 b Gr2b2g4s3n3l15p 1",
            "go nodes 20000",
        ),
        (
            "4+R4/l1+P2pG2/3k3p1/p2p1lp2/1ps2P1P1/PP1PP1P2/2pGBSN2/1s1G1K2s/L6R1 b 2NL3Pbgn 3",
            "go depth 6",
        ),
    ];
    let refined = usi_lines_are_legal::<Shogi>("shogi", &mates, 4, 20);
    assert!(refined > 0, "no line of the exact-mate refinement was seen");
}

#[test]
fn minishogi_usi_lines_are_legal() {
    // Stops (16, 17 and 18 × `CHECK_INTERVAL`) while a root move that failed high is
    // re-searched: see `ROOT_FAIL_HIGH`.
    let stops =
        ["go nodes 16384", "go nodes 17408", "go nodes 18432"].map(|go| (ROOT_FAIL_HIGH, go));
    usi_lines_are_legal::<Minishogi>("minishogi", &stops, 5, 40);
}

#[test]
fn nana_usi_lines_are_legal() {
    usi_lines_are_legal::<Nana>("nanashogi", &[], 6, 20);
}
