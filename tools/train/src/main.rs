//! `tsubame-train`: teaches a game's evaluation as its registry entry says (`Learning`): an NNUE
//! network from `tsubame datagen` files (shogi, minishogi) or from the game's exact table (nana
//! shogi), or a linear evaluation's weights fitted to datagen files (Give and Take).
//!
//!     tsubame-train --variant minishogi --data mini.bin --hidden 64 --epochs 10 --out nets/mini
//!     tsubame-train --variant nanashogi --table nanashogi.tb --hidden 64 --epochs 10 --out nets/nana
//!     tsubame-train --variant giveandtake --data gt.bin --batch 1024 --lr 0.01 --out nets/gt

use std::path::PathBuf;
use std::process::ExitCode;

use clap::Parser;
use tsubame::core::pack::Packable;
use tsubame::dispatch;
use tsubame::games::info::Learning;
use tsubame::games::{Game, GameId, PackableVisitor};
use tsubame::nnue::FeatureSet;
use tsubame::nnue::network::{self, Network};
use tsubame_train::net::{self, Scratch, Shape};
use tsubame_train::train::{self, Settings, State};
use tsubame_train::{data, linear};

#[derive(Parser)]
#[command(
    name = "tsubame-train",
    about = "Trains tsubame's NNUE evaluation on CPU"
)]
struct Args {
    /// The game (for a game with a linear evaluation: its weights, not a network).
    #[arg(long, value_enum, ignore_case = true)]
    variant: GameId,
    /// Data files written by `tsubame datagen` (repeat the option for several); for the games
    /// that learn from them.
    #[arg(long)]
    data: Vec<PathBuf>,
    /// The exact table written by `tsubame solve GAME`: a game that learns from its table trains
    /// on its values.
    #[arg(long)]
    table: Option<PathBuf>,
    /// With --table: the share of the table's positions to train on (picked by --seed).
    #[arg(long, default_value_t = 1.0)]
    share: f64,
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
    /// With king buckets or regions: the step size of each bucket's or region's own rows as a
    /// fraction of `--lr` (the shared rows take `--lr`); below 1 keeps them nearer the shared
    /// rows, against learning the training games by heart.
    #[arg(long, default_value_t = 1.0)]
    bucket_lr: f32,
    /// Games whose rules are symmetric left to right: train on each position twice, as recorded
    /// and mirrored (both have the same value). Plain features and king regions: king buckets
    /// see a position and its mirror image alike already.
    #[arg(long)]
    mirror: bool,
    /// The network's input features: `plain` (each piece on its square, the hands),
    /// `king-buckets` (those once per bucket of the perspective's king, mirrored by the king's
    /// file) or `king-regions` (once per region of the king, not mirrored); both with a
    /// factoriser shared by all buckets or regions; shogi and minishogi.
    #[arg(long, default_value = "plain", value_parser = parse_feature_set)]
    features: FeatureSet,
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
    #[arg(long, conflicts_with = "init")]
    resume: Option<PathBuf>,
    /// Start from this network file (say the shipped one) instead of random weights: its
    /// game and feature count must be the ones trained, and --hidden its width. Adam starts
    /// afresh, so a smaller --lr than from nothing suits fine-tuning.
    #[arg(long)]
    init: Option<PathBuf>,
    /// Folder for the checkpoint and the networks.
    #[arg(long)]
    out: PathBuf,
}

/// The feature set named `text`.
fn parse_feature_set(text: &str) -> Result<FeatureSet, String> {
    FeatureSet::ALL
        .into_iter()
        .find(|s| s.name() == text)
        .ok_or_else(|| {
            let names: Vec<&str> = FeatureSet::ALL.iter().map(|s| s.name()).collect();
            format!("'{text}' is none of {}", names.join(", "))
        })
}

/// Checks the settings every game shares.
fn check(args: &Args) -> Result<(), String> {
    if !(0.0..=1.0).contains(&args.lambda) || args.batch == 0 || args.hidden == 0 {
        return Err("--lambda must be within 0..1, --batch and --hidden above 0".into());
    }
    if !(0.0..=1.0).contains(&args.bucket_lr) {
        return Err("--bucket-lr must be within 0..1".into());
    }
    if args.hidden > network::MAX_HIDDEN {
        return Err(format!(
            "--hidden may be at most {} (the engine's widest accumulator)",
            network::MAX_HIDDEN
        ));
    }
    Ok(())
}

/// Trains game `G`'s evaluation as its registry entry says.
fn train<G: Game>(args: &Args) -> Result<(), String> {
    match G::ID.info().learning {
        Learning::NetworkFromData { mirror } => with_data::<G, _>(FromData { args, mirror }),
        Learning::NetworkFromTable => run_table::<G>(args),
        Learning::Linear { names, weights } => with_data::<G, _>(Linear {
            args,
            names,
            weights,
        }),
    }
}

/// Runs `visit` for game `G` as one that stores training data, or says that it stores none.
fn with_data<G: Game, V: PackableVisitor<Output = Result<(), String>>>(
    visit: V,
) -> Result<(), String> {
    G::with_packable(visit)
        .unwrap_or_else(|| Err(format!("{} stores no training data", G::ID.name())))
}

/// Trains a network from datagen files, for [`Game::with_packable`].
struct FromData<'a> {
    args: &'a Args,
    /// Whether the game may learn mirrored positions.
    mirror: bool,
}

impl PackableVisitor for FromData<'_> {
    type Output = Result<(), String>;

    fn visit<G: Game + Packable>(self) -> Result<(), String> {
        let args = self.args;
        check(args)?;
        let name = G::ID.name();
        if args.data.is_empty() || args.table.is_some() {
            return Err(format!("{name} trains on --data files"));
        }
        if args.mirror && !self.mirror {
            return Err(format!(
                "--mirror is not for {name} (its rules are not symmetric)"
            ));
        }
        if args.mirror && args.features == FeatureSet::KingBuckets {
            return Err(format!(
                "--mirror is for plain features: {} mirror each position by its king's file \
                 already",
                args.features
            ));
        }
        if G::ID.features(args.features) == 0 {
            return Err(format!(
                "{name} has no networks of {} features",
                args.features
            ));
        }
        let loaded = data::load::<G>(&args.data, args.val_every, args.mirror, args.features)?;
        run(args, loaded, G::ID, name)
    }
}

/// Trains a network on the game's exact table.
fn run_table<G: Game>(args: &Args) -> Result<(), String> {
    check(args)?;
    let name = G::ID.name();
    let (Some(path), true) = (&args.table, args.data.is_empty()) else {
        return Err(format!(
            "{name} trains on its exact table: give --table (and no --data)"
        ));
    };
    if !(args.share > 0.0 && args.share <= 1.0) {
        return Err("--share must be above 0 and at most 1".into());
    }
    if args.mirror || args.features != FeatureSet::Plain {
        return Err(format!("--mirror and --features are not for {name}"));
    }
    let exact = G::ID
        .info()
        .exact
        .ok_or_else(|| format!("{name} has no exact table"))?;
    let any = (exact.load)(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let table =
        G::exact_table(&any).ok_or_else(|| format!("{}: not a {name} table", path.display()))?;
    let loaded = data::load_table::<G>(table, path, args.share, args.val_every, args.seed)?;
    run(args, loaded, G::ID, name)
}

/// Fits a linear evaluation's weights to datagen files, for [`Game::with_packable`], and writes
/// them, as the Rust line that the game's evaluation holds, to `weights.rs` in the output folder.
struct Linear<'a> {
    args: &'a Args,
    /// The counts' names.
    names: &'static [&'static str],
    /// The weights the engine ships.
    weights: &'static [i32],
}

impl PackableVisitor for Linear<'_> {
    type Output = Result<(), String>;

    fn visit<G: Game + Packable>(self) -> Result<(), String> {
        let args = self.args;
        let name = G::ID.name();
        if args.data.is_empty() || args.table.is_some() {
            return Err(format!("{name} fits its weights to --data files"));
        }
        if args.mirror {
            return Err(format!("--mirror is not for {name}"));
        }
        if !(0.0..=1.0).contains(&args.lambda) || args.batch == 0 {
            return Err("--lambda must be within 0..1 and --batch above 0".into());
        }
        let samples = linear::load::<G>(&args.data, args.val_every, args.lambda)?;
        for line in &samples.report {
            println!("{line}");
        }
        if samples.train.is_empty() {
            return Err("no training positions".into());
        }
        println!(
            "{} training and {} validation positions",
            samples.train.len(),
            samples.validation.len()
        );
        let settings = linear::FitSettings {
            epochs: args.epochs,
            batch: args.batch,
            lr: args.lr as f64,
            lr_decay: args.lr_decay as f64,
            seed: args.seed,
        };
        let weights = linear::fit(&samples, self.names, self.weights, &settings, &|l| {
            println!("{l}")
        });
        let line = format!(
            "pub const WEIGHTS: [i32; FEATURES] = [{}];\n",
            weights
                .iter()
                .map(|w| w.to_string())
                .collect::<Vec<_>>()
                .join(", ")
        );
        std::fs::create_dir_all(&args.out).map_err(|e| format!("{}: {e}", args.out.display()))?;
        let path = args.out.join("weights.rs");
        std::fs::write(&path, &line).map_err(|e| format!("{}: {e}", path.display()))?;
        print!("{}: {line}", path.display());
        Ok(())
    }
}

/// Trains a network of game `id` on `loaded` and reports how close the quantised network stays
/// to the float one.
fn run(args: &Args, loaded: data::Loaded, id: GameId, game: &str) -> Result<(), String> {
    for line in &loaded.report {
        println!("{line}");
    }
    if loaded.train.is_empty() {
        return Err("no training positions".into());
    }
    let shape = Shape::of(id, args.features, args.hidden);
    let mut state = match (&args.resume, &args.init) {
        (Some(path), _) => State::load(path, shape)?,
        (None, Some(path)) => start_from(path, shape, id, args.seed)?,
        (None, None) => State::new(shape, args.seed),
    };
    let settings = Settings {
        epochs: args.epochs,
        batch: args.batch,
        lr: args.lr,
        lr_decay: args.lr_decay,
        lambda: args.lambda,
        bucket_lr: args.bucket_lr,
        seed: args.seed,
    };
    train::run(
        &mut state,
        &settings,
        &loaded.train,
        &loaded.validation,
        &args.out,
        game,
        &|l| println!("{l}"),
    )?;
    // How far the engine's integers are from the float network, in centipawns.
    let check = if loaded.validation.is_empty() {
        &loaded.train
    } else {
        &loaded.validation
    };
    let q = net::quantise(&state.params, shape, game);
    let mut s = Scratch::new(shape);
    let (mut max, mut total) = (0.0f64, 0.0f64);
    let (mut decided, mut agree) = (0u64, 0u64);
    let n = check.len().min(100_000);
    for i in 0..n {
        let (us, them) = check.features(i);
        let float =
            net::forward(&state.params, shape, [us, them], &mut s) as f64 * network::SCALE as f64;
        let engine = q.evaluate(us, them);
        let diff = (engine as f64 - float).abs();
        max = max.max(diff);
        total += diff;
        let result = check.result[i];
        if result != 0.5 {
            decided += 1;
            agree += ((engine > 0) == (result > 0.5)) as u64;
        }
    }
    println!(
        "the quantised network's sign agrees with the result of {:.2} % of {decided} won or lost positions",
        100.0 * agree as f64 / decided.max(1) as f64
    );
    println!(
        "quantised network {}: output within {max:.1} cp of the float network (mean {:.2} cp, {n} positions)",
        args.out.join("net.nnue").display(),
        total / n.max(1) as f64
    );
    Ok(())
}

/// A training state that starts as the network file at `path` of game `id`: of `shape`'s
/// features and width, or a plain network for king buckets, or a narrower one (extra units
/// start with no say in the output; [`net::dequantise`]).
fn start_from(
    path: &std::path::Path,
    shape: Shape,
    id: GameId,
    seed: u64,
) -> Result<State, String> {
    let shown = path.display();
    let game = id.name();
    let bytes = network::read_file(path, |name, set| (name == game).then(|| id.features(set)))
        .map_err(|e| format!("{shown}: {e}"))?;
    let net = Network::from_bytes(&bytes, game, |set| id.features(set), None)
        .map_err(|e| format!("{shown}: {e}"))?;
    let params = net::dequantise(&net, shape, seed).ok_or_else(|| {
        format!(
            "{shown}: a {} network of {} hidden units cannot start one of {} features and {} hidden units",
            net.feature_set, net.hidden, shape.set, shape.hidden
        )
    })?;
    State::from_params(shape, params).ok_or_else(|| format!("{shown}: not a network of {shape:?}"))
}

fn main() -> ExitCode {
    let args = Args::parse();
    if let Some(t) = args.threads {
        let _ = rayon::ThreadPoolBuilder::new()
            .num_threads(t.max(1))
            .build_global();
    }
    let result = dispatch!(args.variant, G => train::<G>(&args));
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::FAILURE
        }
    }
}
