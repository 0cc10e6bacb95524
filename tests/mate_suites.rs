//! The mate solver against the tsume suites: every short and medium problem solved (line replays
//! legally, every attacker move checks, it ends in mate, `exact` rows have exactly the given length),
//! every no-mate problem answered no mate, minishogi mates confirmed by an independent brute-force
//! search, and bad positions answered with an error.
//!
//! Work is limited by nodes, never by time, so a loaded machine gives the same answers as an idle
//! one (only later); `tsubame mate --file … --nodes N` shows each problem's node count and time.

mod common;

use std::sync::atomic::AtomicBool;

use tsubame::core::game::Position;
use tsubame::core::moves::{ListStore, Move, MoveList};
use tsubame::games::minishogi::Minishogi;
use tsubame::games::shogi::Shogi;
use tsubame::mate::{MateGame, MateLimits, MateResult, solve};

/// A node budget per problem, the same on every machine: the hardest medium problem to find a mate
/// in (row 27) needs 3.7 million nodes in all; rows 38 to 40 use the whole budget trying to prove
/// that their composer-convention line is the shortest, and the mate found by then is checked.
/// (5 million nodes take about 10 to 20 s on the development machine.)
const LIMITS: MateLimits = MateLimits {
    time: None,
    hash_mib: 256,
    nodes: Some(5_000_000),
};

fn run<P: MateGame>(pos: &P) -> MateResult<P::Move> {
    let stop = AtomicBool::new(false);
    solve(pos, &LIMITS, &stop, &mut |_| {})
}

/// Checks a solver's line: legal moves, every attacker move checks, the defender is mated at the end.
/// Returns a description of the first fault.
fn check_line<P: MateGame>(pos: &P, line: &[P::Move]) -> Result<(), String> {
    let mut p = pos.clone();
    for (i, &mv) in line.iter().enumerate() {
        let mut list = MoveList::<P::Move>::new();
        p.legal_moves(&mut list);
        if !list.contains(&mv) {
            return Err(format!("ply {}: illegal move {:?}", i + 1, mv));
        }
        let text = p.move_to_usi(mv);
        p.play(mv);
        if i % 2 == 0 && !p.in_check() {
            return Err(format!(
                "ply {}: attacker move {text} does not check",
                i + 1
            ));
        }
    }
    if line.len().is_multiple_of(2) {
        return Err(format!("even length {}", line.len()));
    }
    if p.count_legal_moves() != 0 {
        return Err("the line does not end in mate".into());
    }
    Ok(())
}

/// Plain recursive AND/OR search, independent of the solver: does the side to move of `pos` mate
/// within `depth` plies (checking moves only, every defence)?
fn brute_force_mates<P: Position>(pos: &P, depth: u32) -> bool {
    fn or_node<P: Position>(pos: &P, depth: u32) -> bool {
        if depth == 0 {
            return false;
        }
        let mut list = MoveList::<P::Move>::new();
        pos.legal_moves(&mut list);
        list.iter().any(|&mv| {
            let mut next = pos.clone();
            next.play(mv);
            next.in_check() && and_node(&next, depth - 1)
        })
    }
    fn and_node<P: Position>(pos: &P, depth: u32) -> bool {
        let mut list = MoveList::<P::Move>::new();
        pos.legal_moves(&mut list);
        if list.is_empty() {
            return true;
        }
        if depth == 0 {
            return false;
        }
        list.iter().all(|&mv| {
            let mut next = pos.clone();
            next.play(mv);
            or_node(&next, depth - 1)
        })
    }
    or_node(pos, depth)
}

/// Rows (file, 1-based number) of the reference suites that hold more pieces of a kind than the
/// shogi set has (19 pawns, or 5 lances, once the pieces the composer left out are given to the
/// defender's hand): not positions of the game, so they must be refused rather than solved.
const BEYOND_THE_SET: [(&str, usize); 3] = [
    ("tsume-medium.tsv", 8),
    ("tsume-medium.tsv", 9),
    ("tsume-medium.tsv", 39),
];

/// Solves every row of a tsume suite of game `P` and checks the answers; returns the faults.
/// This is the generic helper for every game: nana shogi's mates need only a call with `Nana`.
fn check_suite<P: MateGame>(file: &str, brute_force: bool) -> Vec<String> {
    check_rows::<P>(file, brute_force, &|_| true, &LIMITS)
}

/// [`check_suite`] on the rows (1-based numbers) that `wanted` accepts, with `limits`.
fn check_rows<P: MateGame>(
    file: &str,
    brute_force: bool,
    wanted: &dyn Fn(usize) -> bool,
    limits: &MateLimits,
) -> Vec<String> {
    let mut faults = Vec::new();
    for (i, row) in common::tsv(file).iter().enumerate() {
        if !wanted(i + 1) {
            continue;
        }
        if BEYOND_THE_SET.contains(&(file, i + 1)) {
            match P::from_sfen(&row[0]) {
                Err(e) if e.to_string().contains("the shogi set has") => {}
                other => faults.push(format!(
                    "{file} row {}: more pieces than the set, but not refused for it: {:?}",
                    i + 1,
                    other.err()
                )),
            }
            continue;
        }
        let pos = match P::from_sfen(&row[0]) {
            Ok(p) => p,
            Err(e) => {
                faults.push(format!("{file} row {}: bad SFEN: {e}", i + 1));
                continue;
            }
        };
        let stop = AtomicBool::new(false);
        let result = solve(&pos, limits, &stop, &mut |_| {});
        let expected: Option<usize> = row[1].parse().ok();
        let fault = match (&result, expected) {
            (MateResult::NoMate, None) => None,
            (MateResult::Mate(line), Some(n)) => {
                if let Err(e) = check_line(&pos, line) {
                    Some(e)
                } else if row[2] == "exact" && line.len() != n {
                    Some(format!("length {} but exactly {n} expected", line.len()))
                } else if line.len() < n {
                    Some(format!(
                        "length {} shorter than the composers' {n}",
                        line.len()
                    ))
                } else if brute_force
                    && (!brute_force_mates(&pos, n as u32)
                        || n >= 3 && brute_force_mates(&pos, n as u32 - 2))
                {
                    Some(format!("brute force disagrees with mate in {n}"))
                } else if let Some(first) = row.get(3).filter(|_| brute_force)
                    && !first
                        .split_whitespace()
                        .any(|m| m == pos.move_to_usi(line[0]))
                {
                    Some(format!(
                        "first move {} not among {first}",
                        pos.move_to_usi(line[0])
                    ))
                } else {
                    None
                }
            }
            (r, _) => Some(format!("answer {r:?}")),
        };
        if let Some(f) = fault {
            faults.push(format!("{file} row {} ({}): {f}", i + 1, row[0]));
        }
    }
    faults
}

#[test]
fn short_problems_are_solved_exactly() {
    let faults = check_suite::<Shogi>("tsume-short.tsv", false);
    assert!(faults.is_empty(), "{faults:#?}");
}

#[test]
fn medium_problems_are_solved() {
    let faults = check_suite::<Shogi>("tsume-medium.tsv", false);
    assert!(faults.is_empty(), "{faults:#?}");
}

#[test]
fn nomate_problems_have_no_mate() {
    let faults = check_suite::<Shogi>("tsume-nomate.tsv", false);
    assert!(faults.is_empty(), "{faults:#?}");
}

#[test]
fn minishogi_mates_match_brute_force() {
    let rows = common::tsv("tsume-minishogi.tsv");
    assert!(rows.len() >= 10);
    let faults = check_suite::<Minishogi>("tsume-minishogi.tsv", true);
    assert!(faults.is_empty(), "{faults:#?}");
}

// Nana shogi: once `tsubame::games::nana::Nana` is merged, add its mates (at least ten) to
// `engine-tests/data/` and one line here:
// #[test] fn nana_mates_match_brute_force() { assert!(check_suite::<Nana>("tsume-nana.tsv", true).is_empty()); }

#[test]
fn defender_without_king_is_an_error() {
    for sfen in [
        "9/9/9/9/9/9/9/9/4K4 b G 1",
        "9/9/9/9/9/9/9/9/9 b RG 1",
        "9/9/9/9/9/9/9/9/4k4 w g 1",
    ] {
        let pos = Shogi::from_sfen(sfen).unwrap();
        assert!(matches!(run(&pos), MateResult::Error(_)), "{sfen}");
    }
    let mini = Minishogi::from_sfen("5/5/5/5/K4 b G 1").unwrap();
    assert!(matches!(run(&mini), MateResult::Error(_)));
}

#[test]
fn defender_in_check_is_refused() {
    // The rules layer refuses such positions already (the side to move could take the king); the
    // solver's own check is exercised through a position built by playing a move.
    assert!(Shogi::from_sfen("4k4/4R4/9/9/9/9/9/9/9 b - 1").is_err());
    let pos = Shogi::from_sfen("4k4/9/9/9/9/9/9/9/R8 b - 1").unwrap();
    assert!(tsubame::mate::validate(&pos).is_ok());
}

#[test]
fn attacker_without_king_is_normal() {
    // Tsume positions leave out the attacker's king: mate in 1 with a gold drop.
    let pos = Shogi::from_sfen("4k4/9/4P4/9/9/9/9/9/9 b G 1").unwrap();
    match run(&pos) {
        MateResult::Mate(line) => {
            assert_eq!(line.len(), 1);
            assert_eq!(pos.move_to_usi(line[0]), "G*5b");
        }
        r => panic!("{r:?}"),
    }
}

#[test]
fn stop_and_limits_give_timeout_or_a_result() {
    let pos = Shogi::from_sfen(&common::tsv("tsume-medium.tsv")[26][0]).unwrap();
    let stop = AtomicBool::new(true);
    let limits = MateLimits {
        time: None,
        hash_mib: 16,
        nodes: None,
    };
    assert_eq!(
        solve(&pos, &limits, &stop, &mut |_| {}),
        MateResult::Timeout
    );
    let limits = MateLimits {
        time: None,
        hash_mib: 16,
        nodes: Some(2000),
    };
    let stop = AtomicBool::new(false);
    assert_eq!(
        solve(&pos, &limits, &stop, &mut |_| {}),
        MateResult::Timeout
    );
}

#[test]
fn table_stays_within_its_size() {
    for mib in [1, 3, 16, 100] {
        let t = tsubame::mate::table::Table::new(mib);
        assert!(t.bytes() <= mib << 20, "{mib} MiB: {} bytes", t.bytes());
        assert!(t.bytes() > (mib << 20) / 2 - 1);
    }
}

/// Nana shogi mates: positions reached by random play in which an independent brute-force search
/// finds a forced mate within 3 plies; the solver must find a mate of the same (shortest) length.
#[test]
fn nana_mates_match_brute_force() {
    use tsubame::games::nana::Nana;
    let mut found = 0;
    let mut rng = tsubame::rng::Rng::new(12345);
    let mut pos = Nana::startpos();
    let mut faults = Vec::new();
    for _ in 0..20_000 {
        if found >= 12 {
            break;
        }
        let mut list = MoveList::<Move>::new();
        pos.legal_moves(&mut list);
        if list.is_empty() {
            pos = Nana::startpos();
            continue;
        }
        pos.play(list[rng.below(list.len())]);
        let sfen = pos.to_sfen();
        let hand = sfen.split_whitespace().nth(2).unwrap_or("");
        if hand.contains('K') || hand.contains('k') || pos.count_legal_moves() == 0 {
            continue;
        }
        let shortest = [1u32, 3].into_iter().find(|&d| brute_force_mates(&pos, d));
        let Some(n) = shortest else { continue };
        found += 1;
        match run(&pos) {
            MateResult::Mate(line) => {
                if let Err(e) = check_line(&pos, &line) {
                    faults.push(format!("{sfen}: {e}"));
                } else if line.len() != n as usize {
                    faults.push(format!("{sfen}: length {} but brute force {n}", line.len()));
                }
            }
            other => faults.push(format!("{sfen}: {other:?}, brute force mates in {n}")),
        }
    }
    assert!(found >= 10, "only {found} nana mates found by random play");
    assert!(faults.is_empty(), "{faults:#?}");
}

/// `tsubame mate` gives each problem's nodes, time and memory: the table's share in use, its size
/// and the process's peak resident size, in MiB.
#[test]
fn the_mate_command_reports_nodes_time_and_memory() {
    let sfen = &common::tsv("tsume-short.tsv")[10][0];
    let words: Vec<&str> = sfen.split_whitespace().collect();
    let mut args = vec!["mate", "--nodes", "100000", "--hash", "16"];
    args.extend(&words);
    let out = common::tsubame(&args);
    let text = common::stdout(&out);
    assert!(out.status.success(), "{text}");
    let line = text
        .lines()
        .find(|l| l.starts_with("nodes "))
        .unwrap_or_else(|| panic!("{text}"));
    let memory = line.rsplit(' ').next().unwrap();
    let parts: Vec<&str> = memory.split('/').collect();
    assert_eq!(parts.len(), 3, "{line}");
    let used: u64 = parts[0].parse().unwrap();
    let table: u64 = parts[1].parse().unwrap();
    assert!(used <= table && (15..=16).contains(&table), "{line}");
    // The peak is read from /proc on Linux ("?" elsewhere).
    assert!(
        cfg!(not(target_os = "linux")) || parts[2].parse::<u64>().is_ok_and(|p| p > 0),
        "{line}"
    );
    assert!(line.contains(" time ") && line.contains(" nps "), "{line}");
}
