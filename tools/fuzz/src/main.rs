//! `tsubame-fuzz`: drives the tsubame engine binary over USI with random, mutated and adversarial
//! command sequences, checks every answer with tsubame's rules, and writes a minimized reproducer
//! for each failure.

mod classify;
mod driver;
mod engine;
mod games;
mod generators;
mod trace;

use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::{Duration, Instant};

use clap::Parser;

use driver::{Config, Driver, Failure, Stats};
use generators::{Gen, GenConfig, Kind};
use trace::{Action, Step};

/// Fuzzes a USI engine (tsubame) for shogi, minishogi and nana shogi.
///
/// Short CI mode:  tsubame-fuzz --ci            (60 s, seed 1, stop limit 1000 ms)
/// Long mode:      tsubame-fuzz --seed 7 --duration 3600
/// Replay:         tsubame-fuzz --replay fuzz-out/fail-1-hang.usi
#[derive(Parser, Debug)]
#[command(name = "tsubame-fuzz", version, verbatim_doc_comment)]
struct Cli {
    /// The engine binary.
    #[arg(long, default_value = "target/release/tsubame")]
    engine: PathBuf,
    /// The seed: the same seed sends the same commands (given the same engine answers).
    #[arg(long)]
    seed: Option<u64>,
    /// Stop after this many seconds (default 300, 60 with --ci).
    #[arg(long)]
    duration: Option<f64>,
    /// Stop after this many steps.
    #[arg(long)]
    steps: Option<u64>,
    /// Stop after this many USI lines sent (the marathon: `--lines 1000000`).
    #[arg(long)]
    lines: Option<u64>,
    /// The short CI mode: 60 s, seed 1, stop latency limit 1000 ms (a loaded CI machine is slow).
    #[arg(long)]
    ci: bool,
    /// Where reproducers go.
    #[arg(long, default_value = "fuzz-out")]
    out: PathBuf,
    /// Fail when a stop takes longer than this to be answered, in ms (default 50; 1000 with --ci).
    #[arg(long)]
    stop_ms: Option<f64>,
    /// Longest wait for any answer before it counts as a hang, in ms.
    #[arg(long, default_value_t = 10_000)]
    deadline_ms: u64,
    /// Longest time quit may take to end the process, in ms.
    #[arg(long, default_value_t = 2_000)]
    quit_ms: u64,
    /// Generator kinds not to run (comma-separated; see --list-kinds), e.g. for known bugs.
    #[arg(long, value_delimiter = ',')]
    skip: Vec<String>,
    /// Run only these generator kinds (comma-separated).
    #[arg(long, value_delimiter = ',')]
    only: Vec<String>,
    /// Do not require ASCII output.
    #[arg(long)]
    no_ascii_check: bool,
    /// Also send values that may take much memory: USI_Hash up to 65536 (with go mate) and
    /// NanaTablebase=/dev/zero. Not for shared machines.
    #[arg(long)]
    dangerous: bool,
    /// Largest valid USI_Hash sent without --dangerous, in MiB.
    #[arg(long, default_value_t = 1024)]
    max_hash: u64,
    /// Stop after this many failures (each is minimized and written).
    #[arg(long, default_value_t = 1)]
    max_failures: u64,
    /// Largest number of engine runs spent minimizing one failure.
    #[arg(long, default_value_t = 40)]
    minimize_runs: u64,
    /// Largest time spent minimizing one failure, in seconds.
    #[arg(long, default_value_t = 180)]
    minimize_secs: u64,
    /// Replay a reproducer file instead of fuzzing.
    #[arg(long)]
    replay: Option<PathBuf>,
    /// List the generator kinds and exit.
    #[arg(long)]
    list_kinds: bool,
    /// Print the protocol on standard error.
    #[arg(long, short)]
    verbose: bool,
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    if cli.list_kinds {
        for k in Kind::ALL {
            println!("{:<11} {}", k.name(), k.doc());
        }
        return ExitCode::SUCCESS;
    }
    let stop_ms = cli.stop_ms.unwrap_or(if cli.ci { 1000.0 } else { 50.0 });
    let cfg = Config {
        engine: cli.engine.clone(),
        deadline: Duration::from_millis(cli.deadline_ms),
        quit_within: Duration::from_millis(cli.quit_ms),
        stop_ms,
        check_ascii: !cli.no_ascii_check,
        verbose: cli.verbose,
    };
    if !cli.engine.exists() {
        eprintln!(
            "error: no engine at {} (build it: cargo build --release)",
            cli.engine.display()
        );
        return ExitCode::from(2);
    }
    if let Some(file) = &cli.replay {
        return replay(&cfg, file);
    }
    let kinds = match select_kinds(&cli) {
        Ok(k) => k,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::from(2);
        }
    };
    fuzz(&cli, cfg, kinds)
}

fn select_kinds(cli: &Cli) -> Result<Vec<Kind>, String> {
    let find = |n: &str| {
        Kind::ALL
            .iter()
            .copied()
            .find(|k| k.name() == n)
            .ok_or_else(|| format!("unknown kind '{n}' (see --list-kinds)"))
    };
    let skip = cli
        .skip
        .iter()
        .map(|n| find(n))
        .collect::<Result<Vec<_>, _>>()?;
    let only = cli
        .only
        .iter()
        .map(|n| find(n))
        .collect::<Result<Vec<_>, _>>()?;
    let kinds: Vec<Kind> = Kind::ALL
        .iter()
        .copied()
        .filter(|k| !skip.contains(k) && (only.is_empty() || only.contains(k)))
        .filter(|&k| k != Kind::HashHuge || cli.dangerous)
        .collect();
    if kinds.is_empty() {
        return Err("every generator kind is skipped".into());
    }
    Ok(kinds)
}

fn replay(cfg: &Config, file: &Path) -> ExitCode {
    let text = match std::fs::read_to_string(file) {
        Ok(t) => t,
        Err(e) => {
            eprintln!("error: cannot read {}: {e}", file.display());
            return ExitCode::from(2);
        }
    };
    let steps = match trace::read(&text) {
        Ok(s) => s,
        Err(e) => {
            eprintln!("error: {}: {e}", file.display());
            return ExitCode::from(2);
        }
    };
    let mut d = Driver::new(cfg.clone());
    let result = run_all(&mut d, &steps);
    d.shutdown();
    print!("{}", summary(&d.stats, &[], cfg.stop_ms));
    match result {
        Ok(()) => {
            println!("replay: {} steps passed", steps.len());
            ExitCode::SUCCESS
        }
        Err((i, f)) => {
            println!(
                "replay: FAILED at step {}: {}: {}",
                i + 1,
                f.kind,
                f.message
            );
            ExitCode::FAILURE
        }
    }
}

/// Runs steps on a fresh driver; the index of the failing step and its failure.
fn run_all(d: &mut Driver, steps: &[Step]) -> Result<(), (usize, Failure)> {
    for (i, s) in steps.iter().enumerate() {
        d.run_step(s).map_err(|f| (i, f))?;
    }
    Ok(())
}

fn fuzz(cli: &Cli, cfg: Config, kinds: Vec<Kind>) -> ExitCode {
    let seed = cli.seed.unwrap_or(if cli.ci { 1 } else { 0x7ab5 });
    let duration = cli
        .duration
        .or(if cli.steps.is_some() || cli.lines.is_some() {
            None
        } else {
            Some(if cli.ci { 60.0 } else { 300.0 })
        });
    let gen_cfg = GenConfig {
        dangerous: cli.dangerous,
        max_hash: cli.max_hash,
        scratch: cli.out.join("scratch"),
    };
    let names: Vec<&str> = kinds.iter().map(|k| k.name()).collect();
    println!(
        "tsubame-fuzz: engine {}, seed {seed}, {}, stop limit {} ms, kinds {}",
        cfg.engine.display(),
        [
            duration.map(|d| format!("{d} s")),
            cli.steps.map(|n| format!("{n} steps")),
            cli.lines.map(|n| format!("{n} lines")),
        ]
        .into_iter()
        .flatten()
        .collect::<Vec<_>>()
        .join(" or "),
        cfg.stop_ms,
        names.join(",")
    );
    let mut generator = Gen::new(seed, gen_cfg, kinds);
    let mut driver = Driver::new(cfg.clone());
    let start = Instant::now();
    let mut history: Vec<Step> = Vec::new();
    // The model before each step of `history`, for the minimizer's short candidates.
    let mut preludes: Vec<Vec<Action>> = Vec::new();
    let mut failures: Vec<String> = Vec::new();
    let mut stats = Stats::default();
    let mut per_kind: std::collections::BTreeMap<&'static str, u64> = Default::default();
    let mut n = 0u64;
    let mut next_progress = PROGRESS_EVERY;
    loop {
        let lines = stats.lines() + driver.stats.lines();
        if cli.steps.is_some_and(|max| n >= max)
            || cli.lines.is_some_and(|max| lines >= max)
            || duration.is_some_and(|d| start.elapsed().as_secs_f64() >= d)
        {
            break;
        }
        if start.elapsed() >= next_progress {
            next_progress = start.elapsed() + PROGRESS_EVERY;
            eprintln!(
                "fuzz: {:.0} s, {n} steps, {lines} lines, {} failures",
                start.elapsed().as_secs_f64(),
                failures.len()
            );
        }
        n += 1;
        let kind = generator.pick_kind();
        *per_kind.entry(kind.name()).or_default() += 1;
        let step = generator.step(kind, &driver.model, driver.last_bestmove.as_deref());
        preludes.push(driver.model.prelude());
        history.push(step.clone());
        if let Err(f) = driver.run_step(&step) {
            println!(
                "FAILURE at step {n} ({}): {}: {}",
                kind.name(),
                f.kind,
                f.message
            );
            let file = report_failure(
                cli,
                &cfg,
                &f,
                seed,
                n,
                &history,
                &preludes,
                failures.len() + 1,
            );
            failures.push(format!("{}: {} ({file})", f.kind, f.message));
            stats.add(&driver.stats);
            driver = Driver::new(cfg.clone());
            history.clear();
            preludes.clear();
            if failures.len() as u64 >= cli.max_failures {
                break;
            }
        }
        // Keep memory bounded in long runs: an engine restart starts a fresh history.
        if history.len() > 20_000 {
            history.drain(..10_000);
            preludes.drain(..10_000);
        }
    }
    driver.shutdown();
    stats.add(&driver.stats);
    let mut text = format!("steps per kind: {per_kind:?}\n");
    text += &summary(&stats, &failures, cfg.stop_ms);
    text += &format!(
        "elapsed {:.1} s, {n} steps, {} lines, seed {seed}\n",
        start.elapsed().as_secs_f64(),
        stats.lines()
    );
    print!("{text}");
    let file = cli.out.join("summary.txt");
    if let Err(e) = std::fs::create_dir_all(&cli.out).and_then(|_| std::fs::write(&file, &text)) {
        eprintln!("error: cannot write {}: {e}", file.display());
    }
    // Every stop's latency, one per line in the order measured, so that runs made side by side
    // (one per core) can be pooled into one p50/p99/max.
    let file = cli.out.join("stop-latencies.txt");
    let lines: String = stats
        .stop_ms
        .iter()
        .map(|ms| format!("{ms:.3}\n"))
        .collect();
    if let Err(e) = std::fs::write(&file, lines) {
        eprintln!("error: cannot write {}: {e}", file.display());
    }
    if failures.is_empty() {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}

fn percentile(sorted: &[f64], p: f64) -> f64 {
    if sorted.is_empty() {
        return 0.0;
    }
    let i = ((sorted.len() as f64 - 1.0) * p).round() as usize;
    sorted[i.min(sorted.len() - 1)]
}

/// The run's summary: what was sent and checked, stop latencies and failures.
fn summary(stats: &Stats, failures: &[String], stop_limit: f64) -> String {
    use std::fmt::Write;
    let mut lat = stats.stop_ms.clone();
    lat.sort_by(f64::total_cmp);
    let mut t = String::new();
    let _ = writeln!(t, "--- summary ---");
    let _ = writeln!(
        t,
        "commands sent: {:?} ({} lines)",
        stats.sent,
        stats.lines()
    );
    let _ = writeln!(
        t,
        "steps {}, engine starts {}, searches {}, bestmoves checked {} (+{} ponder moves, {} resign/win), \
         PVs checked {} ({} moves), checkmate answers {}, perft totals {}, positions compared {} \
         (resyncs {}), error replies required {}",
        stats.steps,
        stats.starts,
        stats.searches,
        stats.bestmoves,
        stats.ponders,
        stats.resign_win,
        stats.pvs,
        stats.pv_moves,
        stats.mates,
        stats.perfts,
        stats.positions,
        stats.resyncs,
        stats.errors_answered
    );
    let _ = writeln!(
        t,
        "stop latency (ms, {} stops): p50 {:.1}  p99 {:.1}  p100 {:.1}  (limit {stop_limit} ms)",
        lat.len(),
        percentile(&lat, 0.5),
        percentile(&lat, 0.99),
        percentile(&lat, 1.0)
    );
    if failures.is_empty() {
        let _ = writeln!(t, "failures: none");
    } else {
        let _ = writeln!(t, "failures: {}", failures.len());
        for f in failures {
            let _ = writeln!(t, "  {f}");
        }
    }
    t
}

/// How often a progress line goes to standard error.
const PROGRESS_EVERY: Duration = Duration::from_secs(30);

/// True when `steps` still fail the same way on a fresh engine.
fn reproduces(cfg: &Config, steps: &[Step], kind: &str) -> bool {
    let mut d = Driver::new(cfg.clone());
    let r = run_all(&mut d, steps);
    d.shutdown();
    matches!(r, Err((_, f)) if f.kind == kind)
}

/// Minimizes the failing history and writes the reproducer; returns its path.
#[allow(clippy::too_many_arguments)]
fn report_failure(
    cli: &Cli,
    cfg: &Config,
    f: &Failure,
    seed: u64,
    step_no: u64,
    history: &[Step],
    preludes: &[Vec<Action>],
    index: usize,
) -> String {
    let _ = std::fs::create_dir_all(&cli.out);
    let header = |what: &str, steps: usize| {
        vec![
            "tsubame-fuzz reproducer".to_string(),
            format!("failure: {}: {}", f.kind, f.message.replace('\n', " ")),
            format!("seed {seed}, failing step {step_no}; {what} ({steps} steps)"),
            format!(
                "replay: tsubame-fuzz --replay FILE --engine PATH --stop-ms {}",
                cfg.stop_ms
            ),
            "each start of the engine is followed by: usi, setoption name USI_Hash value 16, \
             setoption name Threads value 1, isready"
                .to_string(),
        ]
    };
    let full = cli.out.join(format!("fail-{index}-{}-full.usi", f.kind));
    let _ = std::fs::write(
        &full,
        trace::write(&header("full history", history.len()), history),
    );
    let min = minimize(cli, cfg, &f.kind, history, preludes);
    let path = cli.out.join(format!("fail-{index}-{}.usi", f.kind));
    let what = if min.1 {
        "minimized"
    } else {
        "not reproduced when re-run; unminimized"
    };
    let _ = std::fs::write(&path, trace::write(&header(what, min.0.len()), &min.0));
    println!(
        "reproducer: {} ({} of {} steps, {what}; full history in {})",
        path.display(),
        min.0.len(),
        history.len(),
        full.display()
    );
    path.display().to_string()
}

/// Delta debugging with a bound on engine runs: first short candidates (the last steps after a
/// prelude that sets the model's state), then dropping chunks of steps, then single lines.
/// Returns the smallest failing sequence found and whether the failure reproduced at all.
fn minimize(
    cli: &Cli,
    cfg: &Config,
    kind: &str,
    history: &[Step],
    preludes: &[Vec<Action>],
) -> (Vec<Step>, bool) {
    let start = Instant::now();
    let mut runs = 0u64;
    let budget_left =
        |runs: u64| runs < cli.minimize_runs && start.elapsed().as_secs() < cli.minimize_secs;
    let try_run = |steps: &[Step], runs: &mut u64| {
        *runs += 1;
        reproduces(cfg, steps, kind)
    };
    let last = history.len() - 1;
    let mut best: Option<Vec<Step>> = None;
    // Short candidates: the last k steps, alone then after a prelude.
    for k in [1usize, 2, 4, 16] {
        if k > history.len() || !budget_left(runs) {
            break;
        }
        let tail = history[history.len() - k..].to_vec();
        if try_run(&tail, &mut runs) {
            best = Some(tail);
            break;
        }
        let mut with = vec![preludes[history.len() - k].clone()];
        with.extend(tail);
        if budget_left(runs) && try_run(&with, &mut runs) {
            best = Some(with);
            break;
        }
    }
    let mut steps = match best {
        Some(b) => b,
        None => {
            if !budget_left(runs) || !try_run(history, &mut runs) {
                return (history.to_vec(), false);
            }
            history.to_vec()
        }
    };
    let _ = last;
    // Drop chunks of steps.
    let mut chunk = steps.len() / 2;
    while chunk >= 1 && budget_left(runs) {
        let mut i = 0;
        let mut removed = false;
        while i < steps.len() && budget_left(runs) {
            if steps.len() <= 1 {
                break;
            }
            let end = (i + chunk).min(steps.len());
            let candidate: Vec<Step> = steps[..i].iter().chain(&steps[end..]).cloned().collect();
            if !candidate.is_empty() && try_run(&candidate, &mut runs) {
                steps = candidate;
                removed = true;
            } else {
                i = end;
            }
        }
        if !removed {
            chunk /= 2;
        }
    }
    // Drop single actions, last step first.
    for si in (0..steps.len()).rev() {
        let mut ai = steps[si].len();
        while ai > 0 && budget_left(runs) {
            ai -= 1;
            let mut candidate = steps.clone();
            candidate[si].remove(ai);
            if try_run(&candidate, &mut runs) {
                steps = candidate;
            }
        }
    }
    steps.retain(|s| !s.is_empty());
    (steps, true)
}
