//! The `tsubame-match` command line.

use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use clap::{ArgAction, CommandFactory, FromArgMatches, Parser};

use tsubame::games::{EveryGameRules, Game, GameId};
use tsubame_match::engine::EngineConfig;
use tsubame_match::games::GameFn;
use tsubame_match::referee::{Adjudication, GameSettings, TimeControl};
use tsubame_match::runner::{self, MatchConfig, OpeningSource, Summary};
use tsubame_match::stats::Sprt;

/// Plays USI engines against each other; every move is checked by tsubame's rules.
///
/// Example: tsubame-match --game minishogi --engine cmd=target/release/tsubame name=A
/// --engine cmd=target/release/tsubame name=B --movetime 100 --games 200
#[derive(Parser, Debug)]
#[command(name = "tsubame-match", version, verbatim_doc_comment)]
struct Cli {
    /// An engine (give two or more): words `cmd=PROGRAM` (split at spaces into program and
    /// arguments), `arg=ARG` (repeatable), `name=NAME`, `dir=WORKDIR`, `stderr=FILE` (append the
    /// engine's standard error there; default: discarded), `option.NAME=VALUE` (a `setoption`,
    /// repeatable; an engine answering `info string error` to its settings stops the runner),
    /// the engine's own clock for time odds: `time=MS`, `byoyomi=MS`, `inc=MS`, each
    /// replacing the match's (--time, --byoyomi, --inc) for that engine, and under --nodes its
    /// own node limit for node odds: `nodes=N`.
    #[arg(long = "engine", value_name = "SETTING", num_args = 1.., action = ArgAction::Append, required = true)]
    engine: Vec<String>,

    /// Settings added to every engine (same words as --engine, e.g. option.USI_Hash=64).
    #[arg(long, value_name = "SETTING", num_args = 1..)]
    each: Vec<String>,

    /// The game.
    #[arg(long, value_enum, ignore_case = true, default_value_t = GameId::DEFAULT)]
    game: GameId,

    /// Main time per player in milliseconds (with --byoyomi or --inc; 0 with neither means
    /// byoyomi 1000).
    #[arg(long, value_name = "MS", default_value_t = 0)]
    time: u64,

    /// Byoyomi in milliseconds: time per move once the main time is used up.
    #[arg(long, value_name = "MS")]
    byoyomi: Option<u64>,

    /// Fischer increment per move in milliseconds.
    #[arg(long, value_name = "MS")]
    inc: Option<u64>,

    /// Fixed time per move in milliseconds (`go movetime`), instead of a clock.
    #[arg(long, value_name = "MS", conflicts_with_all = ["byoyomi", "inc", "nodes"])]
    movetime: Option<u64>,

    /// Fixed nodes per move (`go nodes`), instead of a clock.
    #[arg(long, value_name = "N", conflicts_with_all = ["byoyomi", "inc"])]
    nodes: Option<u64>,

    /// Lateness forgiven before a time forfeit, in milliseconds.
    #[arg(long, value_name = "MS", default_value_t = 500)]
    grace: u64,

    /// Longest wait for a move under --nodes, in milliseconds; an engine silent longer loses.
    #[arg(long, value_name = "MS", default_value_t = 60_000)]
    nodes_timeout: u64,

    /// Longest wait for readyok after isready, in milliseconds.
    #[arg(long, value_name = "MS", default_value_t = 60_000)]
    ready_timeout: u64,

    /// Opening file: one opening a line, `startpos` or `sfen SFEN` (or a bare SFEN), optionally
    /// followed by `moves ...`; `#` starts a comment. Each opening is played with colours swapped.
    #[arg(long, value_name = "FILE")]
    openings: Option<PathBuf>,

    /// Play the opening file in a random order (from --seed).
    #[arg(long, requires = "openings")]
    shuffle: bool,

    /// Without --openings: random openings of this many legal plies from the start position (0:
    /// always the start position). Moves that end the game are never chosen.
    #[arg(long, value_name = "PLIES", default_value_t = 4)]
    random_plies: usize,

    /// Largest material difference (in pawns) a random opening may leave; lopsided ones are
    /// drawn again.
    #[arg(long, value_name = "PAWNS", default_value_t = 2)]
    max_imbalance: i32,

    /// Seed for random openings and shuffling (default: from the clock; printed).
    #[arg(long, value_name = "N")]
    seed: Option<u64>,

    /// Number of games (rounded up to even). Default 100, or unlimited with --sprt.
    #[arg(long, short = 'n', value_name = "N")]
    games: Option<u64>,

    /// Games played at once (default: one per core).
    #[arg(long, short = 'c', value_name = "N")]
    concurrency: Option<usize>,

    /// Stop when the SPRT (pentanomial, on game pairs) accepts H0 or H1; two engines only.
    #[arg(long)]
    sprt: bool,

    /// SPRT: Elo of H0 (logistic).
    #[arg(
        long,
        value_name = "ELO",
        default_value_t = 0.0,
        allow_negative_numbers = true
    )]
    elo0: f64,

    /// SPRT: Elo of H1 (logistic).
    #[arg(
        long,
        value_name = "ELO",
        default_value_t = 5.0,
        allow_negative_numbers = true
    )]
    elo1: f64,

    /// SPRT: false positive rate.
    #[arg(long, value_name = "P", default_value_t = 0.05)]
    alpha: f64,

    /// SPRT: false negative rate.
    #[arg(long, value_name = "P", default_value_t = 0.05)]
    beta: f64,

    /// Plies after which a game is drawn (0: no limit); also sent as MaxMovesToDraw.
    #[arg(long, value_name = "PLIES", default_value_t = 512)]
    max_plies: u32,

    /// A rule option of the games, as the engine declares it (repeatable; default: the
    /// engine's defaults), e.g. `--rule EnteringKingRule=CSARule24`. The referee judges by it
    /// and the engines that announce the option are sent it.
    #[arg(long = "rule", value_name = "NAME=VALUE", action = ArgAction::Append)]
    rules: Vec<String>,

    /// Adjudicate a win when both engines agree, for --resign-moves moves each, that one side
    /// leads by at least this many centipawns.
    #[arg(long, value_name = "CP")]
    resign_score: Option<i32>,

    /// Moves per engine for --resign-score.
    #[arg(long, value_name = "N", default_value_t = 4)]
    resign_moves: usize,

    /// Adjudicate a draw when both engines report scores within ±CP for --draw-moves moves each,
    /// from ply --draw-after on.
    #[arg(long, value_name = "CP")]
    draw_score: Option<i32>,

    /// Moves per engine for --draw-score.
    #[arg(long, value_name = "N", default_value_t = 8)]
    draw_moves: usize,

    /// First ply at which --draw-score applies.
    #[arg(long, value_name = "PLY", default_value_t = 80)]
    draw_after: usize,

    /// Shogi: adjudicate by the 24-point impasse rule as soon as both kings have entered (fewer
    /// than 24 points loses, 24 or more each is a draw).
    #[arg(long)]
    impasse24: bool,

    /// Output directory for results.tsv, summary.txt and (shogi) csa/*.csa
    /// [default: matches/<date>-<time>].
    #[arg(long, short = 'o', value_name = "DIR")]
    out: Option<PathBuf>,

    /// Write every line sent to and received from the engines to this file.
    #[arg(long, value_name = "FILE")]
    log: Option<PathBuf>,

    /// No line per finished game.
    #[arg(long, short = 'q')]
    quiet: bool,
}

fn config(cli: Cli, engine_words: Vec<Vec<String>>) -> Result<MatchConfig, String> {
    let game = cli.game;
    let mut engines = Vec::new();
    for (i, words) in engine_words.iter().enumerate() {
        let mut all = cli.each.clone();
        all.extend(words.iter().cloned());
        // An engine's own settings come after --each, so they win.
        engines.push(EngineConfig::parse(&all).map_err(|e| format!("engine {}: {e}", i + 1))?);
    }
    if engines.len() < 2 {
        return Err("give at least two engines (--engine ... --engine ...)".into());
    }
    if cli.sprt && engines.len() != 2 {
        return Err("--sprt needs exactly two engines".into());
    }
    let tc = TimeControl {
        base_ms: cli.time,
        byoyomi_ms: cli
            .byoyomi
            .unwrap_or(if cli.time == 0 && cli.inc.is_none() {
                1000
            } else {
                0
            }),
        inc_ms: cli.inc.unwrap_or(0),
        movetime_ms: cli.movetime,
        nodes: cli.nodes,
    };
    let own_clock = |e: &EngineConfig| {
        let c = e.clock;
        c.time_ms.is_some() || c.byoyomi_ms.is_some() || c.inc_ms.is_some()
    };
    if (tc.movetime_ms.is_some() || tc.nodes.is_some()) && engines.iter().any(own_clock) {
        return Err(
            "an engine's own clock (time=, byoyomi=, inc=) needs a clock for the match, not \
             --movetime or --nodes"
                .into(),
        );
    }
    if tc.nodes.is_none() && engines.iter().any(|e| e.clock.nodes.is_some()) {
        return Err("an engine's own node limit (nodes=) needs a match at --nodes".into());
    }
    let mut rules = EveryGameRules::default();
    rules.max_moves_to_draw = cli.max_plies;
    let mut rule_values = Vec::new();
    for rule in &cli.rules {
        let (name, value) = rule
            .split_once('=')
            .ok_or_else(|| format!("--rule {rule}: give NAME=VALUE"))?;
        let option = EveryGameRules::options(&GameId::ALL)
            .into_iter()
            .find(|o| o.name.eq_ignore_ascii_case(name.trim()))
            .ok_or_else(|| {
                let names: Vec<&str> = EveryGameRules::options(&GameId::ALL)
                    .iter()
                    .map(|o| o.name)
                    .collect();
                format!(
                    "--rule {rule}: no game has the rule option '{name}' ({})",
                    names.join(", ")
                )
            })?;
        rules
            .set(option.name, value.trim())
            .map_err(|e| format!("--rule {rule}: {e}"))?;
        rule_values.retain(|(n, _): &(String, String)| n != option.name);
        rule_values.push((option.name.to_string(), value.trim().to_string()));
    }
    let sprt = Sprt {
        elo0: cli.elo0,
        elo1: cli.elo1,
        alpha: cli.alpha,
        beta: cli.beta,
    };
    if !(0.0 < sprt.alpha && sprt.alpha < 1.0 && 0.0 < sprt.beta && sprt.beta < 1.0) {
        return Err("--alpha and --beta must lie between 0 and 1".into());
    }
    if sprt.elo0 >= sprt.elo1 {
        return Err("--elo0 must be below --elo1".into());
    }
    let games = match cli.games {
        Some(n) => n.max(1).div_ceil(2) * 2,
        None if cli.sprt => u64::MAX - 1,
        None => 100,
    };
    let seed = cli.seed.unwrap_or_else(|| {
        SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map_or(1, |d| d.as_nanos() as u64)
    });
    let openings = match cli.openings {
        Some(path) => OpeningSource::File {
            path,
            shuffle: cli.shuffle,
        },
        None => OpeningSource::Random {
            plies: cli.random_plies,
            max_imbalance: cli.max_imbalance,
        },
    };
    let out_dir = cli.out.unwrap_or_else(|| {
        let t = runner::utc_text(SystemTime::now())
            .replace('/', "")
            .replace(' ', "-")
            .replace(':', "");
        PathBuf::from("matches").join(t)
    });
    Ok(MatchConfig {
        game,
        engines,
        settings: GameSettings {
            tc,
            grace_ms: cli.grace,
            nodes_timeout_ms: cli.nodes_timeout,
            ready_timeout: Duration::from_millis(cli.ready_timeout),
            rules,
            rule_values,
            adjudication: Adjudication {
                resign: cli.resign_score.map(|cp| (cp, cli.resign_moves)),
                draw: cli
                    .draw_score
                    .map(|cp| (cp, cli.draw_moves, cli.draw_after)),
                impasse_24: cli.impasse24,
            },
        },
        openings,
        games,
        concurrency: cli
            .concurrency
            .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get())),
        sprt: cli.sprt.then_some(sprt),
        sprt_report: sprt,
        seed,
        out_dir,
        log: cli.log,
        quiet: cli.quiet,
    })
}

/// The match, run for the game's position type.
struct RunMatch {
    cfg: MatchConfig,
    stop: Arc<AtomicBool>,
}

impl GameFn for RunMatch {
    type Output = Result<Summary, String>;
    fn call<P: Game>(self) -> Self::Output {
        runner::run::<P>(self.cfg, self.stop)
    }
}

fn main() -> ExitCode {
    let matches = Cli::command().get_matches();
    let cli = match Cli::from_arg_matches(&matches) {
        Ok(c) => c,
        Err(e) => e.exit(),
    };
    // The words of each --engine occurrence, kept apart.
    let engine_words: Vec<Vec<String>> = matches
        .get_occurrences::<String>("engine")
        .map(|occ| occ.map(|o| o.cloned().collect()).collect())
        .unwrap_or_default();
    let cfg = match config(cli, engine_words) {
        Ok(c) => c,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::from(2);
        }
    };
    let stop = Arc::new(AtomicBool::new(false));
    let flag = stop.clone();
    let handler = ctrlc::set_handler(move || {
        if flag.swap(true, Ordering::SeqCst) {
            eprintln!("second interrupt: exiting at once");
            std::process::exit(130);
        }
        eprintln!("interrupted: recording the games in progress as unfinished and stopping");
    });
    if let Err(e) = handler {
        eprintln!("warning: cannot catch Ctrl-C: {e}");
    }
    println!(
        "{} match: {} engines, {}, {} games, concurrency {}, seed {}, output {}",
        cfg.game.name(),
        cfg.engines.len(),
        cfg.settings.tc.describe(),
        if cfg.games >= u64::MAX / 4 {
            "until SPRT decides".to_string()
        } else {
            cfg.games.to_string()
        },
        cfg.concurrency,
        cfg.seed,
        cfg.out_dir.display()
    );
    let game = cfg.game;
    match tsubame_match::games::dispatch(game, RunMatch { cfg, stop }) {
        Ok(summary) => {
            print!("{}", summary.text);
            if let Some(e) = summary.write_error {
                eprintln!("error: {e}");
                ExitCode::from(1)
            } else if summary.interrupted {
                ExitCode::from(130)
            } else {
                ExitCode::SUCCESS
            }
        }
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::from(2)
        }
    }
}
