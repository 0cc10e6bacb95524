//! `tsubame mate`: solve one position, or a TSV suite with a summary table.

use std::sync::atomic::AtomicBool;
use std::time::Duration;

use crate::core::game::Position;
use crate::engine::mate_progress;
use crate::games::GameId;
use crate::mate::MateGame;
use crate::mate::table::Table;
use crate::mate::{
    CookReport, Fallback, MateLimits, MateReport, MateResult, cook_lines, solve_cooks, solve_in,
};
use crate::usi::output::mate_progress_lines;

/// The command-line arguments of `tsubame mate`.
pub struct Args {
    /// Time limit per problem in milliseconds.
    pub time: Option<u64>,
    /// Node limit per problem.
    pub nodes: Option<u64>,
    /// Table size in MiB.
    pub hash: usize,
    /// A TSV suite.
    pub file: Option<String>,
    /// List the cooks of a single problem's mate, with up to so many mating first moves
    /// (`--cooks [N]`).
    pub cooks: Option<usize>,
    /// A single position.
    pub sfen: String,
}

fn line_text<P: Position>(pos: &P, line: &[P::Move]) -> String {
    let mut p = pos.clone();
    let mut words = Vec::with_capacity(line.len());
    for &mv in line {
        words.push(p.move_to_usi(mv));
        p.play(mv);
    }
    words.join(" ")
}

/// The memory of a solve: the share of the table in use (estimated from its occupancy) and the
/// process's peak resident size so far (Linux; `?` elsewhere), both in MiB.
fn memory_text(table: &Table) -> String {
    let used = table.bytes() as f64 * f64::from(table.hashfull()) / 1000.0;
    let peak = crate::progress::peak_memory_mib().map_or("?".to_string(), |m| m.to_string());
    let mib = (1 << 20) as f64;
    format!("{:.0}/{:.0}/{peak}", used / mib, table.bytes() as f64 / mib)
}

fn run_one<P: MateGame>(
    pos: &P,
    table: &mut Table,
    limits: &MateLimits,
    verbose: bool,
) -> MateReport<P::Move> {
    run_cooks(pos, table, limits, verbose, 0).0
}

/// [`run_one`], with the cooks when `first_moves` is 1 or more ([`solve_cooks`]).
fn run_cooks<P: MateGame>(
    pos: &P,
    table: &mut Table,
    limits: &MateLimits,
    verbose: bool,
    first_moves: usize,
) -> (MateReport<P::Move>, Option<CookReport<P::Move>>) {
    let stop = AtomicBool::new(false);
    let mut info = |i: &crate::mate::MateInfo| {
        if verbose {
            for line in mate_progress_lines(&mate_progress(i)) {
                eprintln!("{line}");
            }
        }
    };
    if first_moves == 0 {
        let r = solve_in(pos, table, limits, &stop, &mut info, Fallback::FastLine);
        return (r, None);
    }
    solve_cooks(
        pos,
        table,
        limits,
        &stop,
        &mut info,
        Fallback::FastLine,
        first_moves,
    )
}

/// The table a single problem starts with, in MiB: doubled while the problem needs more, up to
/// `--hash` (most problems are solved in a small table, which costs nothing to set up).
const FIRST_TABLE_MIB: usize = 16;
/// Nodes a problem may take per MiB of table before the table is doubled.
const NODES_PER_MIB: u64 = 20_000;

/// "1 ply", "9 plies".
fn plies(n: usize) -> String {
    format!("{n} {}", if n == 1 { "ply" } else { "plies" })
}

/// A single problem's answer: the report, the cooks when asked, and the last table.
type Solved<P> = (
    MateReport<<P as Position>::Move>,
    Option<CookReport<<P as Position>::Move>>,
    Table,
);

/// Solves one problem in a table that starts at [`FIRST_TABLE_MIB`] and doubles, the problem
/// started again, each time it takes [`NODES_PER_MIB`] nodes for each MiB of table, until the
/// table reaches `--hash`, where `limits` alone apply. Returns the report (nodes and time of all
/// the tries) and the last table.
fn solve_growing<P: MateGame>(
    pos: &P,
    args: &Args,
    limits: &MateLimits,
) -> Result<Solved<P>, String> {
    let start = std::time::Instant::now();
    // The cooks are looked for after the mate, within the same limits: not in a table whose
    // budget is that of a first try.
    let mut mib = if args.cooks.is_some() {
        args.hash
    } else {
        FIRST_TABLE_MIB.min(args.hash)
    };
    let mut nodes = 0;
    loop {
        let mut table = Table::try_new(mib).map_err(|e| format!("--hash {}: {e}", args.hash))?;
        let last = mib >= args.hash;
        let mut these = limits.clone();
        if !last {
            let budget = mib as u64 * NODES_PER_MIB;
            these.nodes = Some(
                these
                    .nodes
                    .map_or(budget, |n| n.saturating_sub(nodes).min(budget)),
            );
            these.time = these.time.map(|t| t.saturating_sub(start.elapsed()));
        }
        let (mut r, cooks) = run_cooks(pos, &mut table, &these, true, args.cooks.unwrap_or(0));
        nodes += r.nodes;
        // Stopped by the budget: no answer, or a mate not proven shortest.
        let unfinished = match r.result {
            MateResult::Timeout => true,
            MateResult::Mate(_) => !r.exact,
            _ => false,
        };
        let out_of_budget = unfinished
            && limits.nodes.is_none_or(|n| nodes < n)
            && limits.time.is_none_or(|t| start.elapsed() < t);
        if last || !out_of_budget {
            r.nodes = nodes;
            r.time = start.elapsed();
            return Ok((r, cooks, table));
        }
        mib = (mib * 2).min(args.hash);
    }
}

/// Runs the command for game `P`. A suite's table is allocated once, before any problem is read;
/// a single problem's starts small and grows ([`solve_growing`]). A size that cannot be had is an
/// error (the process then exits with a failure status).
pub fn run<P: MateGame>(args: &Args) -> Result<(), String> {
    match &args.file {
        Some(file) => {
            if args.cooks.is_some() {
                return Err("--cooks lists the cooks of a single position, not of a suite".into());
            }
            let mut table =
                Table::try_new(args.hash).map_err(|e| format!("--hash {}: {e}", args.hash))?;
            suite::<P>(file, args, &mut table)
        }
        None => {
            if args.sfen.trim().is_empty() {
                return Err(NO_POSITION.into());
            }
            // The largest table the problem may grow to must be one the machine can give: asked
            // for at once (untouched pages, freed again), so that a size that cannot be had is an
            // error before any work rather than after it.
            drop(Table::try_new(args.hash).map_err(|e| format!("--hash {}: {e}", args.hash))?);
            let (mut pos, moves) = super::analyse::position_arg::<P>(Some(&args.sfen))?;
            for m in &moves {
                let mv = pos.parse_move(m).map_err(|e| e.to_string())?;
                pos.play(mv);
            }
            let limits = MateLimits {
                time: args.time.map(Duration::from_millis),
                hash_mib: args.hash,
                nodes: args.nodes,
            };
            let (r, cooks, table) = solve_growing(&pos, args, &limits)?;
            match &r.result {
                MateResult::Mate(line) => {
                    // The last progress lines may be those of the search for a shorter mate,
                    // which ends with a disproof: the answer is said plainly after them.
                    eprintln!(
                        "info string mate in {}, {}",
                        plies(line.len()),
                        if r.exact {
                            "proven shortest"
                        } else {
                            "not proven shortest"
                        }
                    );
                    println!("checkmate {}", line_text(&pos, line));
                    println!(
                        "length {}{}",
                        plies(line.len()),
                        if r.exact {
                            " (exact)"
                        } else {
                            " (not proven shortest)"
                        }
                    );
                    if let Some(cooks) = &cooks {
                        for text in cook_lines(&pos, line, cooks) {
                            println!("{text}");
                        }
                    }
                }
                MateResult::NoMate => println!("checkmate nomate"),
                MateResult::Timeout => println!("checkmate timeout"),
                // Not a problem the solver can answer (the defender has no king, say): neither
                // `nomate` nor a line, but an error and a failure status.
                MateResult::Error(e) => return Err(format!("cannot solve this position: {e}")),
            }
            println!(
                "nodes {} time {:.3} s nps {:.0} memory (MiB: table used/table/process peak) {}",
                r.nodes,
                r.time.as_secs_f64(),
                r.nodes as f64 / r.time.as_secs_f64().max(1e-3),
                memory_text(&table)
            );
            Ok(())
        }
    }
}

fn suite<P: MateGame>(file: &str, args: &Args, table: &mut Table) -> Result<(), String> {
    let text = std::fs::read_to_string(file).map_err(|e| format!("cannot read {file}: {e}"))?;
    let limits = MateLimits {
        time: match (args.time, args.nodes) {
            (Some(ms), _) => Some(Duration::from_millis(ms)),
            (None, Some(_)) => None,
            (None, None) => Some(Duration::from_millis(10_000)),
        },
        hash_mib: args.hash,
        nodes: args.nodes,
    };
    let (mut solved, mut wrong, mut unsolved, mut total_nodes) = (0, 0, 0, 0u64);
    let mut bad_rows = Vec::new();
    let mut total_time = 0.0;
    println!(
        "{:>3} {:>6} {:>9} {:>7} {:>12} {:>9} {:>16}  status",
        "#", "plies", "conv", "found", "nodes", "time(s)", "memory(MiB)"
    );
    for (i, row) in text
        .lines()
        .skip(1)
        .filter(|l| !l.trim().is_empty())
        .enumerate()
    {
        let cols: Vec<&str> = row.split('\t').collect();
        let sfen = cols.first().copied().unwrap_or("");
        let plies = cols.get(1).copied().unwrap_or("?");
        let conv = cols.get(2).copied().unwrap_or("?");
        let pos = match P::from_sfen(sfen) {
            Ok(p) => p,
            Err(e) => {
                println!("{:>3} bad SFEN: {e}", i + 1);
                bad_rows.push(i + 1);
                continue;
            }
        };
        let r = run_one(&pos, table, &limits, false);
        total_nodes += r.nodes;
        total_time += r.time.as_secs_f64();
        let expected: Option<usize> = plies.parse().ok();
        let (found, status) = match (&r.result, expected) {
            (MateResult::Mate(line), Some(n)) => {
                let ok = if conv == "exact" {
                    line.len() == n
                } else {
                    line.len() >= n
                };
                let status = match (ok, r.exact) {
                    (true, true) => "ok",
                    (true, false) => "ok (not proven shortest)",
                    (false, _) => "WRONG LENGTH",
                };
                (line.len().to_string(), status)
            }
            (MateResult::Mate(line), None) => (line.len().to_string(), "WRONG (expected nomate)"),
            (MateResult::NoMate, None) => ("nomate".into(), "ok"),
            (MateResult::NoMate, Some(_)) => ("nomate".into(), "WRONG (no mate found)"),
            (MateResult::Timeout, _) => ("timeout".into(), "unsolved"),
            (MateResult::Error(_), None) => ("error".into(), "ok (error = nomate)"),
            (MateResult::Error(_), Some(_)) => ("error".into(), "unsolved"),
        };
        if status.starts_with("ok") {
            solved += 1;
        } else if status == "unsolved" {
            unsolved += 1;
        } else {
            wrong += 1;
        }
        println!(
            "{:>3} {:>6} {:>9} {:>7} {:>12} {:>9.3} {:>16}  {status}",
            i + 1,
            plies,
            conv,
            found,
            r.nodes,
            r.time.as_secs_f64(),
            memory_text(table)
        );
        if let MateResult::Mate(line) = &r.result {
            log::info!("line: {}", line_text(&pos, line));
        }
    }
    println!(
        "summary: solved {solved}, wrong length {wrong}, unsolved {unsolved}, bad SFEN {}, \
         total {} problems, total time {total_time:.3} s, total nodes {total_nodes}",
        bad_rows.len(),
        solved + wrong + unsolved + bad_rows.len()
    );
    println!(
        "memory columns: MiB of the table in use (estimated from its occupancy) / the table's \
         size / the process's peak resident size so far"
    );
    if bad_rows.is_empty() {
        return Ok(());
    }
    let shown: Vec<String> = bad_rows.iter().take(10).map(usize::to_string).collect();
    Err(format!(
        "{} of the rows of {file} are not {} SFEN (rows {}{}); is --variant right?",
        bad_rows.len(),
        P::NAME,
        shown.join(", "),
        if bad_rows.len() > shown.len() {
            ", …"
        } else {
            ""
        }
    ))
}

/// The game whose board an SFEN describes, told by its number of ranks.
fn variant_of_sfen(sfen: &str) -> Option<GameId> {
    let text = sfen.trim();
    let text = text.strip_prefix("sfen ").unwrap_or(text);
    let board = text.split_whitespace().next()?;
    GameId::by_ranks(board.split('/').count())
}

/// What `tsubame mate` says when it is given nothing to solve.
const NO_POSITION: &str = "give a position to solve (an SFEN, `sfen SFEN` or `startpos`, each \
     optionally followed by `moves …`) or a suite with --file";

/// The game of `tsubame mate`: `--variant` if given, else the default game for `startpos`, else
/// told by the SFEN or by the suite's first row.
pub fn mate_variant(
    variant: Option<GameId>,
    file: Option<&str>,
    sfen: &str,
) -> Result<GameId, String> {
    if let Some(v) = variant {
        return Ok(v);
    }
    if file.is_none() && sfen.trim().is_empty() {
        return Err(NO_POSITION.into());
    }
    if file.is_none() && sfen.split_whitespace().next() == Some("startpos") {
        return Ok(GameId::DEFAULT);
    }
    let (first, source) = match file {
        Some(f) => {
            let text = std::fs::read_to_string(f).map_err(|e| format!("cannot read {f}: {e}"))?;
            let row = text
                .lines()
                .skip(1)
                .find(|l| !l.trim().is_empty())
                .unwrap_or("")
                .split('\t')
                .next()
                .unwrap_or("")
                .to_string();
            (row, format!("the first row of {f}"))
        }
        None => (sfen.to_string(), "the SFEN".to_string()),
    };
    variant_of_sfen(&first).ok_or_else(|| {
        let ranks: Vec<String> = GameId::ALL
            .iter()
            .map(|g| g.info().ranks.to_string())
            .collect();
        format!(
            "cannot tell the game from {source} (a board of {} ranks expected); give --variant {}",
            ranks.join(", "),
            GameId::names(", ")
        )
    })
}
