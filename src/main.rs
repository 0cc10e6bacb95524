//! The `tsubame` binary: the USI loop by default, and subcommands for perft and benchmarks.

use std::io::{IsTerminal, Write};
use std::process::ExitCode;
use std::time::Instant;

use clap::{Parser, Subcommand};

use tsubame::core::game::Position;
use tsubame::core::perft::perft;
use tsubame::games::minishogi::Minishogi;
use tsubame::games::shogi::Shogi;
use tsubame::usi;

mod mate_cli;

#[derive(Parser)]
#[command(
    name = "tsubame",
    version,
    about = "A USI engine for shogi, minishogi and nana shogi"
)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Subcommand)]
enum Command {
    /// Counts the leaves of the legal move tree (per root move, then the total).
    Perft {
        /// The game: shogi, minishogi or nanashogi.
        #[arg(long, default_value = "shogi")]
        variant: String,
        /// The position (default: the game's start).
        #[arg(long)]
        sfen: Option<String>,
        /// Depth in plies.
        depth: u32,
    },
    /// Benchmarks; `tsubame bench perft` times bulk-counted perft from the start positions.
    /// Solves a tsume problem (the side to move mates) or a whole TSV suite.
    Mate {
        /// The game: shogi or minishogi.
        #[arg(long, default_value = "shogi")]
        variant: String,
        /// Time limit per problem in milliseconds (default: none; 10000 for a suite).
        #[arg(long)]
        time: Option<u64>,
        /// Transposition table size in MiB.
        #[arg(long, default_value_t = 256)]
        hash: usize,
        /// A TSV suite (sfen, plies, convention, …), as in engine-tests/data/tsume-*.tsv.
        #[arg(long)]
        file: Option<String>,
        /// The position as SFEN (its words may be given unquoted).
        #[arg(trailing_var_arg = true)]
        sfen: Vec<String>,
    },
    /// Benchmarks; `tsubame bench perft` times bulk-counted perft from the start positions.
    Bench {
        /// What to measure: perft.
        #[arg(default_value = "perft")]
        what: String,
        /// Perft depth for standard shogi (minishogi uses depth + 1).
        #[arg(long, default_value_t = 6)]
        depth: u32,
    },
}

fn perft_command<P: Position>(sfen: Option<&str>, depth: u32) -> Result<(), String> {
    let pos = match sfen {
        Some(s) => P::from_sfen(s).map_err(|e| format!("bad SFEN: {e}"))?,
        None => P::startpos(),
    };
    let start = Instant::now();
    for line in usi::perft_lines(&pos, depth) {
        println!("{line}");
    }
    eprintln!("time: {:.3} s", start.elapsed().as_secs_f64());
    Ok(())
}

fn bench_perft<P: Position>(depth: u32) {
    let pos = P::startpos();
    let start = Instant::now();
    let nodes = perft(&pos, depth);
    let secs = start.elapsed().as_secs_f64();
    println!(
        "{} perft {depth}: {nodes} nodes in {secs:.3} s, {:.1} M nodes/s (1 thread)",
        P::NAME,
        nodes as f64 / secs / 1e6
    );
}

fn main() -> ExitCode {
    env_logger::Builder::from_env(env_logger::Env::default().default_filter_or("warn"))
        .target(env_logger::Target::Stderr)
        .init();
    let cli = Cli::parse();
    let result = match cli.command {
        None => {
            if std::io::stdin().is_terminal() {
                eprintln!("USI engine ready; type `usi`");
            }
            let stdout = std::io::stdout();
            usi::run(std::io::stdin().lock(), stdout.lock());
            Ok(())
        }
        Some(Command::Perft {
            variant,
            sfen,
            depth,
        }) => match variant.to_ascii_lowercase().as_str() {
            "shogi" => perft_command::<Shogi>(sfen.as_deref(), depth),
            "minishogi" => perft_command::<Minishogi>(sfen.as_deref(), depth),
            other => Err(format!("unknown variant '{other}'")),
        },
        Some(Command::Mate {
            variant,
            time,
            hash,
            file,
            sfen,
        }) => {
            let args = mate_cli::Args {
                time,
                hash,
                file,
                sfen: sfen.join(" "),
            };
            match variant.to_ascii_lowercase().as_str() {
                "shogi" => mate_cli::run::<Shogi>(&args),
                "minishogi" => mate_cli::run::<Minishogi>(&args),
                other => Err(format!("unknown variant '{other}'")),
            }
        }
        Some(Command::Bench { what, depth }) => match what.as_str() {
            "perft" => {
                bench_perft::<Shogi>(depth);
                bench_perft::<Minishogi>(depth + 1);
                Ok(())
            }
            other => Err(format!("unknown benchmark '{other}' (perft)")),
        },
    };
    let _ = std::io::stdout().flush();
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::FAILURE
        }
    }
}
