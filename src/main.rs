//! The `tsubame` binary: the USI loop by default, and subcommands for perft, benchmarks and
//! analysis at a terminal.

use std::io::{IsTerminal, Read, Write};
use std::process::ExitCode;

use clap::builder::RangedU64ValueParser;
use clap::{Parser, Subcommand};

use tsubame::commands::mate as mate_cli;
use tsubame::commands::selfplay::{MatchConfig, Player, run_match};
use tsubame::dispatch;
use tsubame::games::GameId;
use tsubame::usi;

#[derive(Parser)]
#[command(name = "tsubame", version, about = about())]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
    /// USI mode: declare the search parameters from the first `usi` on, as if the first
    /// command were `setoption name Tuning value true` (for tuners that read the options once,
    /// such as shogiarena's SPSA; tools/spsa).
    #[arg(long)]
    tuning: bool,
}

#[derive(Subcommand)]
enum Command {
    /// Counts the leaves of the legal move tree (per root move, then the total).
    Perft {
        /// The game.
        #[arg(long, value_enum, ignore_case = true, default_value_t = GameId::DEFAULT)]
        variant: GameId,
        /// The position: `startpos` (the default) or an SFEN, optionally after the word `sfen`,
        /// and optionally followed by `moves …` as in USI's `position` command.
        #[arg(long)]
        sfen: Option<String>,
        /// Depth in plies (0 counts the position itself; at most 64).
        depth: u32,
    },
    /// Solves a tsume problem (the side to move mates) or a whole TSV suite.
    Mate {
        /// The game (default: told by the board size of the SFEN, or of the suite's first row).
        #[arg(long, value_enum, ignore_case = true)]
        variant: Option<GameId>,
        /// Time limit per problem in milliseconds (default: none; 10000 for a suite unless
        /// --nodes is given).
        #[arg(long)]
        time: Option<u64>,
        /// Node limit per problem (default: none); unlike time, it gives the same answer on any
        /// machine.
        #[arg(long)]
        nodes: Option<u64>,
        /// The mate table's size in MiB: a suite's, and the most a single problem's grows to
        /// (it starts at 16 MiB and doubles while the problem needs more).
        #[arg(long, default_value_t = 256)]
        hash: usize,
        /// A TSV suite (sfen, plies, convention, …), as in engine-tests/data/tsume-*.tsv.
        #[arg(long)]
        file: Option<String>,
        /// After the mate, its cooks (余詰), within the same limits: up to N first moves that
        /// mate (default 8), and every attacker move of the line where another move also mates
        /// within the plies left (a single position only).
        #[arg(long, value_name = "N", num_args = 0..=1, default_missing_value = "8")]
        cooks: Option<usize>,
        /// The position, worded as USI's `position` command words it (its words may be given
        /// unquoted, after the options): `startpos`, `sfen <SFEN>` or a bare SFEN, each
        /// optionally followed by `moves <m1> <m2> …`, e.g. `tsubame mate --time 5000 sfen
        /// 4k4/9/4P4/9/9/9/9/9/9 b G2r2b3g4s4n4l17p 1` or `tsubame mate startpos moves 7g7f`.
        #[arg(trailing_var_arg = true)]
        sfen: Vec<String>,
    },
    /// Benchmarks: `search` (default) is the fixed-depth search whose node count signs a build;
    /// `perft` times bulk-counted perft from the start positions; `smp` compares nodes/s with one
    /// and with `--threads` threads.
    Bench {
        /// What to measure: search, perft or smp.
        #[arg(default_value = "search")]
        what: String,
        /// Threads for `smp` (as many as the USI option `Threads` allows).
        #[arg(long, default_value_t = 2, value_parser = threads_parser())]
        threads: usize,
        /// Milliseconds per position for `smp`.
        #[arg(long, default_value_t = 3000)]
        ms: u64,
        /// Depth: search depth for shogi (each other game moves from its own bench depth by as
        /// much), or perft depth for shogi (likewise).
        #[arg(long)]
        depth: Option<u32>,
        /// Runs of each perft (`perft`): a shared machine's speed varies from run to run, so each
        /// run is printed and the best and median are reported.
        #[arg(long, default_value_t = 3)]
        runs: usize,
        /// Evaluation of the `search` bench: `nnue` (the built-in networks, the default and the
        /// signature) or `classic` (the hand-written evaluation, to compare nodes/s).
        #[arg(long, default_value = "nnue", value_parser = ["nnue", "classic"])]
        eval: String,
    },
    /// Plays this engine against itself in-process with two configurations (A and B), e.g. two
    /// threads against one, or the full search against plain alpha-beta.
    Selfplay {
        /// The game.
        #[arg(long, value_enum, ignore_case = true, default_value_t = GameId::DEFAULT)]
        variant: GameId,
        /// Number of games (openings are played twice, colours swapped); at least 1.
        #[arg(long, default_value_t = 20, value_parser = RangedU64ValueParser::<usize>::new().range(1..))]
        games: usize,
        /// Milliseconds per move.
        #[arg(long, default_value_t = 100)]
        movetime: u64,
        /// Random opening plies.
        #[arg(long, default_value_t = 4)]
        opening_plies: usize,
        /// Threads of player A (1 to 256).
        #[arg(long, default_value_t = 1, value_parser = threads_parser())]
        threads_a: usize,
        /// Threads of player B (1 to 256).
        #[arg(long, default_value_t = 1, value_parser = threads_parser())]
        threads_b: usize,
        /// Player A searches plain alpha-beta (no selective search).
        #[arg(long)]
        plain_a: bool,
        /// Player B searches plain alpha-beta (no selective search).
        #[arg(long)]
        plain_b: bool,
        /// Seed of the random openings.
        #[arg(long, default_value_t = 1)]
        seed: u64,
    },
    /// Self-play for training data: quiet positions with the search's score and the game's
    /// result, appended to a checked binary file (docs/datagen.md). Run again on the same file
    /// and seed, it plays only the games the file lacks.
    Datagen {
        /// The game (one with training data).
        #[arg(long, value_parser = games_where(GameId::has_training_data), ignore_case = true)]
        variant: GameId,
        /// Games of the run (numbered from 0; those already in the file are skipped); at least 1.
        #[arg(long, value_parser = RangedU64ValueParser::<u64>::new().range(1..))]
        games: u64,
        /// Nodes per move (the default when neither --nodes nor --depth is given: 5000).
        #[arg(long, value_parser = RangedU64ValueParser::<u64>::new().range(1..))]
        nodes: Option<u64>,
        /// Depth per move (1 to 60).
        #[arg(long, value_parser = RangedU64ValueParser::<u64>::new().range(1..=60))]
        depth: Option<u64>,
        /// Games played at once, one search thread each (default: every core).
        #[arg(long, value_parser = threads_parser())]
        threads: Option<usize>,
        /// Random legal plies that open each game (not recorded).
        #[arg(long, default_value_t = 8)]
        random_plies: usize,
        /// Seed of the run; with a game's number it fixes the game.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// A game still going after this many plies is a draw.
        #[arg(long, default_value_t = 400)]
        max_plies: usize,
        /// Transposition table of each game in MiB.
        #[arg(long, default_value_t = 16, value_parser = RangedU64ValueParser::<usize>::new().range(1..=4096))]
        hash: usize,
        /// The evaluation the games are played with: hce (hand-written) or nnue (the network of
        /// --eval-file, else the embedded one). Default: nnue where the game has a network, hce
        /// where it has none.
        #[arg(long, value_parser = ["hce", "nnue"])]
        eval: Option<String>,
        /// A network file for --eval nnue (written by tsubame-train), instead of the embedded one.
        #[arg(long)]
        eval_file: Option<std::path::PathBuf>,
        /// The data file (created, or appended to).
        #[arg(long)]
        out: std::path::PathBuf,
    },
    /// Reads a training-data file: games, positions, results, and any damaged end it skips.
    Datainfo {
        /// The game the file holds.
        #[arg(long, value_parser = games_where(GameId::has_training_data), ignore_case = true)]
        variant: GameId,
        /// Also print the first this many records (SFEN, score, result, move).
        #[arg(long, default_value_t = 0)]
        show: usize,
        /// The data file.
        file: std::path::PathBuf,
    },
    /// Shows a position and the engine's best line as it thinks, in plain words.
    Analyse {
        /// The game.
        #[arg(long, value_enum, ignore_case = true, default_value_t = GameId::DEFAULT)]
        variant: GameId,
        /// The position: `startpos` (the default) or an SFEN, optionally after the word `sfen`,
        /// and optionally followed by `moves …` as in USI's `position` command.
        #[arg(long)]
        sfen: Option<String>,
        /// Moves played from that position, in USI notation.
        #[arg(long, num_args = 1..)]
        moves: Vec<String>,
        /// Thinking time in milliseconds.
        #[arg(long, default_value_t = 5000)]
        time: u64,
    },
    /// Writes a game as a record in one of the formats the games declare (KIF, CSA), or reads one
    /// (`--read`) and prints its USI `position` line.
    Record {
        /// The format to write.
        #[arg(long, value_parser = record_formats(), ignore_case = true, required_unless_present = "read")]
        format: Option<String>,
        /// The start position: `startpos` (the default) or an SFEN.
        #[arg(long, default_value = "startpos")]
        sfen: String,
        /// The game's moves, in USI notation.
        #[arg(long, num_args = 1..)]
        moves: Vec<String>,
        /// A KIF or CSA file to read (`-`: standard input), instead of writing.
        #[arg(long, conflicts_with_all = ["format", "moves"])]
        read: Option<String>,
    },
    /// Solves a game by retrograde analysis (a game with an exact table): builds, verifies and
    /// writes the table.
    Solve {
        /// The game (one with an exact table).
        #[arg(value_parser = games_where(|g| g.info().exact.is_some()), ignore_case = true)]
        game: GameId,
        /// Where to write the table (for the game's table option; default: the game's file name).
        #[arg(long)]
        out: Option<std::path::PathBuf>,
    },
    /// Serves the page for every game in a browser: a local web server whose sessions each run
    /// an engine (docs/serve.md).
    Serve {
        /// The address to listen on; one that is not loopback is open to the network (a warning
        /// is printed).
        #[arg(long, default_value = "127.0.0.1")]
        bind: std::net::IpAddr,
        /// The port (0: any free port; the URL printed names it).
        #[arg(long, default_value_t = 8080)]
        port: u16,
        /// Sessions (browser tabs) served at once; one more is refused.
        #[arg(long, default_value_t = 4, value_parser = RangedU64ValueParser::<usize>::new().range(1..=256))]
        max_sessions: usize,
        /// Search threads of each session.
        #[arg(long, default_value_t = 1, value_parser = threads_parser())]
        threads: usize,
        /// Hash tables of each session in MiB.
        #[arg(long, default_value_t = 16, value_parser = RangedU64ValueParser::<usize>::new().range(1..=4096))]
        hash: usize,
        /// Seconds without a message from a tab after which its session is closed and its place
        /// freed (0: never); the page then offers Reconnect and keeps its game.
        #[arg(long, value_name = "SECONDS", default_value_t = tsubame::serve::DEFAULT_IDLE_SECONDS,
              value_parser = RangedU64ValueParser::<u64>::new().range(0..=7 * 86_400))]
        idle_timeout: u64,
        /// The exact tables of the solved games (made by `tsubame solve GAME --out FILE`), one
        /// flag per game: read once at start and used by every session; a file that is not a
        /// table of its game is refused and the server does not start.
        #[command(flatten)]
        tables: ExactTableFiles,
    },
    /// Writes the page as static files for any static web host, the engine running in the
    /// browser: the page's own files (`tools/build-web` builds the whole site, adding the
    /// WebAssembly engine, its worker and the shogi network; docs/web.md).
    Site {
        /// The folder to write into (made if missing; files of the same names are replaced).
        #[arg(long)]
        out: std::path::PathBuf,
    },
    /// Prints the search parameters that USI options can change (`Tuning`), with the game's
    /// defaults, as SPSA input lines: `name, int, default, min, max, step, 0.002` (OpenBench's
    /// form).
    TuneParams {
        /// The game.
        #[arg(long, value_enum, ignore_case = true, default_value_t = GameId::DEFAULT)]
        variant: GameId,
        /// `openbench`: one line per parameter; `shogiarena`: a shogiarena SPSA space file
        /// (YAML, `space_path` of its SPSA configuration; tools/spsa).
        #[arg(long, value_enum, default_value_t = TuneFormat::Openbench)]
        format: TuneFormat,
    },
    /// Lists the games and their settings: a table, or with `--json` one JSON document, which the
    /// scripts of tools/ read instead of naming the games themselves.
    Games {
        /// Print one JSON document (every game's names, start position, first mover, record
        /// formats, network, tables, options and the tools' settings) instead of the table.
        #[arg(long)]
        json: bool,
    },
}

/// How `tsubame tune-params` writes the parameters.
#[derive(Clone, Copy, Debug, clap::ValueEnum)]
enum TuneFormat {
    /// `name, int, default, min, max, step, 0.002`, one line each (OpenBench's SPSA input).
    Openbench,
    /// A shogiarena SPSA space file (`shogiarena.spsa.space.v1`).
    Shogiarena,
}

/// The games for which `has` holds, as a value parser: `--help` and the error for another game
/// list only those.
fn games_where(
    has: impl Fn(GameId) -> bool,
) -> impl clap::builder::TypedValueParser<Value = GameId> {
    let values: Vec<clap::builder::PossibleValue> = GameId::ALL
        .into_iter()
        .filter(|&g| has(g))
        .map(|g| clap::builder::PossibleValue::new(g.name()).aliases(g.info().aliases))
        .collect();
    clap::builder::TypedValueParser::map(
        clap::builder::PossibleValuesParser::new(values),
        |name: String| GameId::parse(&name).expect("a registry name"),
    )
}

/// The record formats the games declare, for `tsubame record --format`.
fn record_formats() -> clap::builder::PossibleValuesParser {
    let names: Vec<&'static str> = GameId::ALL
        .iter()
        .flat_map(|g| g.info().records)
        .map(|f| f.name)
        .collect();
    clap::builder::PossibleValuesParser::new(names)
}

/// The files of the games' exact tables for `tsubame serve`: a flag for each game with one, named
/// by its registry entry ([`tsubame::games::info::ExactInfo::flag`]).
#[derive(Clone, Debug, Default)]
struct ExactTableFiles(Vec<(GameId, std::path::PathBuf)>);

impl clap::FromArgMatches for ExactTableFiles {
    fn from_arg_matches(matches: &clap::ArgMatches) -> Result<Self, clap::Error> {
        let mut files = ExactTableFiles::default();
        files.update_from_arg_matches(matches)?;
        Ok(files)
    }

    fn update_from_arg_matches(&mut self, matches: &clap::ArgMatches) -> Result<(), clap::Error> {
        for (game, exact) in GameId::with_exact_tables() {
            if let Some(path) = matches.get_one::<std::path::PathBuf>(exact.flag) {
                self.0.retain(|(g, _)| *g != game);
                self.0.push((game, path.clone()));
            }
        }
        Ok(())
    }
}

impl clap::Args for ExactTableFiles {
    fn augment_args(cmd: clap::Command) -> clap::Command {
        GameId::with_exact_tables().fold(cmd, |cmd, (game, exact)| {
            cmd.arg(
                clap::Arg::new(exact.flag)
                    .long(exact.flag)
                    .value_name("FILE")
                    .value_parser(clap::value_parser!(std::path::PathBuf))
                    .help(format!(
                        "The exact table of {} (made by `tsubame solve {game} --out FILE`)",
                        game.info().title
                    )),
            )
        })
    }

    fn augment_args_for_update(cmd: clap::Command) -> clap::Command {
        Self::augment_args(cmd)
    }
}

/// The accepted thread counts, as for the USI option `Threads`.
fn threads_parser() -> RangedU64ValueParser<usize> {
    let (min, max) = tsubame::engine::options::threads_range();
    RangedU64ValueParser::<usize>::new().range(min..=max)
}

/// The text of `--help`'s first line, naming every game of the registry.
fn about() -> String {
    format!(
        "A USI engine for {}. Without a subcommand it speaks USI on standard input and output \
         (what a GUI starts); the subcommands below are for a terminal.",
        GameId::titles()
    )
}

fn run(command: Option<Command>, tuning: bool) -> Result<(), String> {
    if tuning && command.is_some() {
        return Err("--tuning is for the USI mode (no subcommand)".into());
    }
    match command {
        None => {
            if std::io::stdin().is_terminal() {
                eprintln!("USI engine ready; type `usi`");
            }
            let out = usi::Output::new(Box::new(std::io::stdout()));
            let first: &'static [u8] = if tuning {
                b"setoption name Tuning value true\n"
            } else {
                b""
            };
            let input = std::io::BufReader::new(std::io::stdin());
            usi::run(first.chain(input), out);
            Ok(())
        }
        Some(Command::Perft {
            variant,
            sfen,
            depth,
        }) => dispatch!(variant, G => tsubame::commands::perft::run::<G>(sfen.as_deref(), depth)),
        Some(Command::Mate {
            variant,
            time,
            nodes,
            hash,
            file,
            cooks,
            sfen,
        }) => {
            let sfen = sfen.join(" ");
            let variant = mate_cli::mate_variant(variant, file.as_deref(), &sfen)?;
            let args = mate_cli::Args {
                time,
                nodes,
                hash,
                file,
                cooks,
                sfen,
            };
            dispatch!(variant, G => mate_cli::run::<G>(&args))
        }
        Some(Command::Bench {
            what,
            depth,
            threads,
            ms,
            runs,
            eval,
        }) => match what.as_str() {
            "smp" => {
                tsubame::commands::bench::smp(threads, ms, &|l: &str| println!("{l}"));
                Ok(())
            }
            "perft" => {
                tsubame::commands::bench::perft_all(depth, runs, &|l: &str| println!("{l}"));
                Ok(())
            }
            "search" => {
                let networks = eval == "nnue";
                tsubame::engine::bench::run_with(depth.map(|d| d as i32), networks, &|l: &str| {
                    println!("{l}")
                });
                Ok(())
            }
            other => Err(format!("unknown benchmark '{other}' (search, perft, smp)")),
        },
        Some(Command::Selfplay {
            variant,
            games,
            movetime,
            opening_plies,
            threads_a,
            threads_b,
            plain_a,
            plain_b,
            seed,
        }) => {
            let a = Player {
                threads: threads_a,
                pruning: !plain_a,
            };
            let b = Player {
                threads: threads_b,
                pruning: !plain_b,
            };
            let cfg = MatchConfig {
                games,
                movetime,
                opening_plies,
                max_plies: 400,
                seed,
            };
            let say = |l: &str| println!("{l}");
            let score = dispatch!(variant, G => run_match::<G>(a, b, &cfg, &say));
            println!(
                "A ({a}) vs B ({b}): +{} ={} -{}, {:.1}% for A, {} Elo",
                score.wins,
                score.draws,
                score.losses,
                100.0 * score.fraction(),
                score.elo_text()
            );
            Ok(())
        }
        Some(Command::Datagen {
            variant,
            games,
            nodes,
            depth,
            threads,
            random_plies,
            seed,
            max_plies,
            hash,
            eval,
            eval_file,
            out,
        }) => {
            let game = variant;
            let network =
                tsubame::commands::datagen::network(game, eval.as_deref(), eval_file.as_deref())?;
            eprintln!(
                "evaluation: {}",
                match (&network, &eval_file) {
                    (None, _) => "hand-written".to_string(),
                    (Some(n), Some(f)) => format!("network {} ({} hidden)", f.display(), n.hidden),
                    (Some(n), None) => format!("embedded network ({} hidden)", n.hidden),
                }
            );
            let cfg = tsubame::commands::datagen::Config {
                games,
                nodes: if nodes.is_none() && depth.is_none() {
                    Some(5000)
                } else {
                    nodes
                },
                depth: depth.map(|d| d as i32),
                threads: threads
                    .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get())),
                random_plies,
                seed,
                max_plies,
                hash_mib: hash,
                network,
            };
            // Progress on standard error: a bar on a terminal, else a line a minute.
            let summary = tsubame::commands::datagen::run_game(game, &cfg, &out, true)?;
            if summary.tail_cut > 0 {
                println!(
                    "cut {} bytes off the end of {} ({}) before appending",
                    summary.tail_cut,
                    out.display(),
                    summary.tail_reason.as_deref().unwrap_or("damaged")
                );
            }
            println!(
                "{} games played, {} already in the file; {} positions written in {:.1} s ({:.0} positions/s)",
                summary.games_played,
                summary.games_present,
                summary.positions,
                summary.seconds,
                summary.positions as f64 / summary.seconds.max(1e-3)
            );
            Ok(())
        }
        Some(Command::Datainfo {
            variant,
            show,
            file,
        }) => tsubame::commands::datagen::describe_game(variant, &file, show)
            .map(|lines| lines.iter().for_each(|l| println!("{l}"))),
        Some(Command::Analyse {
            variant,
            sfen,
            moves,
            time,
        }) => {
            dispatch!(variant, G => tsubame::commands::analyse::analyse::<G>(sfen.as_deref(), &moves, time))
        }
        Some(Command::Record {
            format,
            sfen,
            moves,
            read,
        }) => tsubame::commands::record::run(format.as_deref(), &sfen, &moves, read.as_deref()),
        Some(Command::Solve { game, out }) => tsubame::commands::solve::run(game, out),
        Some(Command::Serve {
            bind,
            port,
            max_sessions,
            threads,
            hash,
            idle_timeout,
            tables,
        }) => tsubame::serve::run(tsubame::serve::Config {
            bind,
            port,
            max_sessions,
            threads,
            hash,
            idle_seconds: idle_timeout,
            exact_tables: tables.0,
        }),
        Some(Command::Site { out }) => tsubame::serve::write_site(&out).map(|files| {
            for (name, bytes) in files {
                println!("{name} {bytes}");
            }
        }),
        Some(Command::TuneParams { variant, format }) => {
            use tsubame::core::search_params::{SHOGIARENA_SPACE_HEAD, TUNABLES};
            let defaults = variant.default_params();
            match format {
                TuneFormat::Openbench => {
                    for t in TUNABLES {
                        println!("{}", t.spsa_line(&defaults));
                    }
                }
                TuneFormat::Shogiarena => {
                    print!("{SHOGIARENA_SPACE_HEAD}");
                    for t in TUNABLES {
                        print!("{}", t.shogiarena_entry(&defaults));
                    }
                }
            }
            Ok(())
        }
        Some(Command::Games { json }) => {
            tsubame::commands::games::run(json);
            Ok(())
        }
    }
}

fn main() -> ExitCode {
    // First of all: a build for a CPU level the processor lacks says so and stops, before it
    // runs an instruction the processor cannot.
    if !tsubame::core::cpu::runs_here() {
        tsubame::core::cpu::refuse();
    }
    run_main()
}

/// The program once the processor is known to run it.
#[inline(never)]
fn run_main() -> ExitCode {
    tsubame::core::memory::return_freed_tables();
    env_logger::Builder::from_env(env_logger::Env::default().default_filter_or("warn"))
        .target(env_logger::Target::Stderr)
        .init();
    let cli = Cli::parse();
    let result = run(cli.command, cli.tuning);
    let _ = std::io::stdout().flush();
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::FAILURE
        }
    }
}
