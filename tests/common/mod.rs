//! Helpers shared by the integration tests: reading the reference tables in `engine-tests/data/`,
//! random play, one-thread searches and starting the engine binary.

#![allow(dead_code)] // each test binary uses a different subset of these helpers

use std::path::PathBuf;
use std::process::{Child, Command, Stdio};

use tsubame::engine::bench::search_position;
use tsubame::games::Game;
use tsubame::rng::Rng;
use tsubame::search::tt::TranspositionTable;
use tsubame::search::{Limits, Shared};

/// The rows of a tab-separated reference file in `engine-tests/data/`, header skipped.
pub fn tsv(name: &str) -> Vec<Vec<String>> {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("engine-tests/data")
        .join(name);
    let text = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
    text.lines()
        .skip(1)
        .filter(|l| !l.trim().is_empty())
        .map(|l| l.split('\t').map(str::to_string).collect())
        .collect()
}

/// The move (USI text, empty for none) that one thread chooses in `pos` within `limits`, searched
/// from an empty `tt` under the default rules: deterministic for a given build.
pub fn best_move<G: Game>(pos: &G, limits: Limits<G::Move>, tt: &TranspositionTable) -> String {
    tt.clear();
    let shared = Shared::default();
    let result = search_position(pos, limits, 1, tt, &shared);
    result.best.map(|m| pos.move_to_usi(m)).unwrap_or_default()
}

/// Runs `tsubame ARGS` (the binary under test) to the end.
pub fn tsubame(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_tsubame"))
        .args(args)
        .output()
        .expect("the binary runs")
}

/// A finished command's standard output, as text.
pub fn stdout(o: &std::process::Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

/// A finished command's standard error, as text.
pub fn stderr(o: &std::process::Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// Starts the engine binary under test and a thread that passes each line of its output to the
/// returned channel as it comes.
pub fn start_engine_lines() -> (
    Child,
    std::process::ChildStdin,
    std::sync::mpsc::Receiver<String>,
) {
    use std::io::{BufRead, BufReader};

    let mut child = start_engine();
    let stdin = child.stdin.take().unwrap();
    let stdout = child.stdout.take().unwrap();
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        for line in BufReader::new(stdout).lines() {
            let Ok(line) = line else { break };
            if tx.send(line).is_err() {
                break;
            }
        }
    });
    (child, stdin, rx)
}

/// Starts the engine binary under test with piped standard input and output (standard error
/// discarded).
pub fn start_engine() -> Child {
    Command::new(env!("CARGO_BIN_EXE_tsubame"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("the engine starts")
}

/// Checks that the staged move generation of the search splits the legal moves of `pos` exactly:
/// `tactical_moves(_, true)` gives the captures and promotions, `quiet_moves` the rest, and
/// together they are every legal move once.
pub fn assert_moves_partition<G: Game>(pos: &G) {
    use std::collections::HashSet;
    use tsubame::core::moves::{GameMove, ListStore, MoveList};

    let mut all = MoveList::<G::Move>::new();
    pos.legal_moves(&mut all);
    let mut tactical = MoveList::<G::Move>::new();
    pos.tactical_moves(&mut tactical, true);
    let mut quiet = MoveList::<G::Move>::new();
    pos.quiet_moves(&mut quiet);
    let sfen = pos.to_sfen();
    for &mv in tactical.iter() {
        assert!(
            pos.is_capture(mv) || mv.is_promotion(),
            "tactical move {} neither captures nor promotes in {sfen}",
            pos.move_to_usi(mv)
        );
    }
    for &mv in quiet.iter() {
        assert!(
            !pos.is_capture(mv) && !mv.is_promotion(),
            "quiet move {} captures or promotes in {sfen}",
            pos.move_to_usi(mv)
        );
    }
    let both: Vec<G::Move> = tactical.iter().chain(quiet.iter()).copied().collect();
    let distinct: HashSet<G::Move> = both.iter().copied().collect();
    assert_eq!(
        distinct.len(),
        both.len(),
        "a move generated twice in {sfen}"
    );
    let legal: HashSet<G::Move> = all.iter().copied().collect();
    assert_eq!(
        distinct, legal,
        "tactical + quiet moves differ from the legal moves in {sfen}"
    );
}

/// Plays `plies` random legal moves from `start` (restarting from it when a game ends), calling
/// `visit` on every position reached, the start included.
pub fn random_walk<G: Game + Clone>(start: &G, plies: usize, seed: u64, mut visit: impl FnMut(&G)) {
    use tsubame::core::moves::{ListStore, MoveList};

    let mut rng = Rng::new(seed);
    let mut pos = start.clone();
    visit(&pos);
    for _ in 0..plies {
        let mut list = MoveList::<G::Move>::new();
        pos.legal_moves(&mut list);
        if list.is_empty() {
            pos = start.clone();
        } else {
            pos.play(list[rng.below(list.len())]);
        }
        visit(&pos);
    }
}

/// Asserts that game `G` refuses each SFEN of `refused` with an error that contains its text, and
/// accepts each SFEN of `accepted`.
pub fn assert_sfens<G: Game>(refused: &[(&str, &str)], accepted: &[&str]) {
    for (sfen, says) in refused {
        match G::from_sfen(sfen) {
            Err(e) => assert!(e.to_string().contains(says), "{sfen}: {e}"),
            Ok(_) => panic!("{sfen} was accepted; expected: {says}"),
        }
    }
    for sfen in accepted {
        if let Err(e) = G::from_sfen(sfen) {
            panic!("{sfen} was refused: {e}");
        }
    }
}

/// Checks that `line` is a mate from `pos`: every move legal, every attacker move a check, an odd
/// length, and no legal move at its end; `what` names it in a failure.
pub fn assert_mates<P: tsubame::mate::MateGame>(pos: &P, line: &[P::Move], what: &str) {
    let mut p = pos.clone();
    for (i, &mv) in line.iter().enumerate() {
        use tsubame::core::moves::ListStore;
        let mut list = tsubame::core::moves::MoveList::<P::Move>::new();
        p.legal_moves(&mut list);
        assert!(list.contains(&mv), "{what}: ply {} illegal", i + 1);
        p.play(mv);
        assert!(i % 2 == 1 || p.in_check(), "{what}: ply {} no check", i + 1);
    }
    assert!(line.len() % 2 == 1, "{what}: even length");
    assert_eq!(p.count_legal_moves(), 0, "{what}: not mate at the end");
}

/// A mate solve of `pos` in `table` within `limits` and `stop`, with no progress reports and the
/// fast line as the fallback: what the mate suites compare against.
pub fn solve_quietly<P: tsubame::mate::MateGame>(
    pos: &P,
    table: &mut tsubame::mate::table::Table,
    limits: &tsubame::mate::MateLimits,
    stop: &std::sync::atomic::AtomicBool,
) -> tsubame::mate::MateReport<P::Move> {
    tsubame::mate::solve_in(
        pos,
        table,
        limits,
        stop,
        &mut |_| {},
        tsubame::mate::Fallback::FastLine,
    )
}
