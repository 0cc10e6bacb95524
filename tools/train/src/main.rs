//! `tsubame-train`: trains an NNUE network for shogi or minishogi from `tsubame datagen` files.
//!
//!     tsubame-train --variant minishogi --data mini.bin --hidden 64 --epochs 10 --out nets/mini

use std::path::PathBuf;
use std::process::ExitCode;

use clap::Parser;
use tsubame::games::minishogi::Mini;
use tsubame::games::shogi::{Standard, Variant};
use tsubame::nnue::features::Layout;
use tsubame_train::data;
use tsubame_train::net::{self, Scratch, Shape};
use tsubame_train::train::{self, Settings, State};

#[derive(Parser)]
#[command(
    name = "tsubame-train",
    about = "Trains tsubame's NNUE evaluation on CPU"
)]
struct Args {
    /// The game: shogi or minishogi.
    #[arg(long)]
    variant: String,
    /// Data files written by `tsubame datagen` (repeat the option for several).
    #[arg(long, required = true)]
    data: Vec<PathBuf>,
    /// Accumulator width per perspective.
    #[arg(long, default_value_t = 128)]
    hidden: usize,
    /// Epochs (passes over the training positions).
    #[arg(long, default_value_t = 10)]
    epochs: usize,
    /// Positions per gradient step.
    #[arg(long, default_value_t = 16384)]
    batch: usize,
    /// Adam's step size.
    #[arg(long, default_value_t = 0.001)]
    lr: f32,
    /// Step-size factor applied after each epoch.
    #[arg(long, default_value_t = 0.9)]
    lr_decay: f32,
    /// Weight of the search score in the target; the game result gets the rest.
    #[arg(long, default_value_t = 0.75)]
    lambda: f32,
    /// Every this-many-th game is held out for the validation loss.
    #[arg(long, default_value_t = 20)]
    val_every: u64,
    /// Seed of the initial weights and of the shuffling.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Threads (default: every core).
    #[arg(long)]
    threads: Option<usize>,
    /// Continue from this checkpoint (written by an earlier run as checkpoint.bin).
    #[arg(long)]
    resume: Option<PathBuf>,
    /// Folder for the checkpoint and the networks.
    #[arg(long)]
    out: PathBuf,
}

fn run<V: Variant>(args: &Args) -> Result<(), String> {
    if !(0.0..=1.0).contains(&args.lambda) || args.batch == 0 || args.hidden == 0 {
        return Err("--lambda must be within 0..1, --batch and --hidden above 0".into());
    }
    if args.hidden > tsubame::nnue::network::MAX_HIDDEN {
        return Err(format!(
            "--hidden may be at most {} (the engine's widest accumulator)",
            tsubame::nnue::network::MAX_HIDDEN
        ));
    }
    let loaded = data::load::<V>(&args.data, args.val_every)?;
    for line in &loaded.report {
        println!("{line}");
    }
    if loaded.train.is_empty() {
        return Err("no training positions".into());
    }
    let shape = Shape {
        features: Layout::<V>::FEATURES,
        hidden: args.hidden,
    };
    let mut state = match &args.resume {
        Some(path) => State::load(path, shape)?,
        None => State::new(shape, args.seed),
    };
    let settings = Settings {
        epochs: args.epochs,
        batch: args.batch,
        lr: args.lr,
        lr_decay: args.lr_decay,
        lambda: args.lambda,
        seed: args.seed,
    };
    train::run(
        &mut state,
        &settings,
        &loaded.train,
        &loaded.validation,
        &args.out,
        V::NAME,
        &|l| println!("{l}"),
    )?;
    // How far the engine's integers are from the float network, in centipawns.
    let check = if loaded.validation.is_empty() {
        &loaded.train
    } else {
        &loaded.validation
    };
    let q = net::quantise(&state.params, shape, V::NAME);
    let mut s = Scratch::new(shape);
    let (mut max, mut total) = (0.0f64, 0.0f64);
    let n = check.len().min(100_000);
    for i in 0..n {
        let (us, them) = check.features(i);
        let float = net::forward(&state.params, shape, [us, them], &mut s) as f64
            * tsubame::nnue::network::SCALE as f64;
        let diff = (q.evaluate(us, them) as f64 - float).abs();
        max = max.max(diff);
        total += diff;
    }
    println!(
        "quantised network {}: output within {max:.1} cp of the float network (mean {:.2} cp, {n} positions)",
        args.out.join("net.nnue").display(),
        total / n.max(1) as f64
    );
    Ok(())
}

fn main() -> ExitCode {
    let args = Args::parse();
    if let Some(t) = args.threads {
        let _ = rayon::ThreadPoolBuilder::new()
            .num_threads(t.max(1))
            .build_global();
    }
    let result = match args.variant.to_ascii_lowercase().as_str() {
        "shogi" => run::<Standard>(&args),
        "minishogi" => run::<Mini>(&args),
        other => Err(format!("no network for '{other}' (shogi or minishogi)")),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::FAILURE
        }
    }
}
