//! Fits a linear evaluation, a weighted sum of counts (a game whose registry entry says
//! `Learning::Linear`, its counts from `Learns::linear_counts`), to self-play data by Texel's method: the weights minimise the mean squared difference between
//! `sigmoid(evaluation / SCALE)` and the target, which blends `sigmoid(score / SCALE)` of the
//! recorded search with the game's result exactly as the network trainer does. Mini-batches and
//! Adam; the weights of the epoch with the lowest validation loss are kept.

use tsubame::core::pack::Packable;
use tsubame::games::Game;
use tsubame::nnue::network::SCALE;
use tsubame::rng::Rng;

use crate::data::{read_games, sigmoid};

/// One position: its features (the engine's counts) and its training target.
#[derive(Clone)]
pub struct Sample {
    /// The evaluation features, as [`Learns::linear_counts`] counts them.
    pub features: Vec<f32>,
    /// The target in [0, 1].
    pub target: f32,
}

/// Positions, split by game.
pub struct Samples {
    /// Positions to fit on.
    pub train: Vec<Sample>,
    /// Held-out positions (whole games).
    pub validation: Vec<Sample>,
    /// Lines for people: what each file held and skipped.
    pub report: Vec<String>,
}

/// Loads data files of game `G`; `lambda` weighs the search score against the result.
pub fn load<G: Game + Packable>(
    paths: &[std::path::PathBuf],
    val_every: u64,
    lambda: f32,
) -> Result<Samples, String> {
    let (mut train, mut validation) = (Vec::new(), Vec::new());
    let report = read_games::<G>(paths, val_every, |held_out, r| {
        let sample = Sample {
            features: r.pos.linear_counts().iter().map(|&f| f as f32).collect(),
            target: lambda * sigmoid(r.score as f32 / SCALE as f32)
                + (1.0 - lambda) * r.result.target(),
        };
        if held_out {
            validation.push(sample);
        } else {
            train.push(sample);
        }
    })?;
    Ok(Samples {
        train,
        validation,
        report,
    })
}

/// The evaluation of `s` with `w` (weights in units of [`SCALE`]).
fn predict(w: &[f64], s: &Sample) -> f64 {
    sigmoid(
        s.features
            .iter()
            .zip(w)
            .map(|(&f, &w)| f as f64 * w)
            .sum::<f64>() as f32,
    ) as f64
}

/// Mean squared error of `w` over `set`.
pub fn mean_loss(w: &[f64], set: &[Sample]) -> f64 {
    let total: f64 = set
        .iter()
        .map(|s| (predict(w, s) - s.target as f64).powi(2))
        .sum();
    total / set.len().max(1) as f64
}

/// How a fit runs.
pub struct FitSettings {
    /// Passes over the training positions.
    pub epochs: usize,
    /// Positions per step.
    pub batch: usize,
    /// Adam's step size, in units of [`SCALE`] centipawns.
    pub lr: f64,
    /// Step-size factor after each epoch.
    pub lr_decay: f64,
    /// Seed of the shuffling.
    pub seed: u64,
}

/// Fits the weights of the counts `names`, starting from `start` (the engine's); prints one line
/// per epoch through `say` and returns the weights (centipawns) of the epoch with the lowest
/// validation loss (or training loss, without validation positions).
pub fn fit(
    samples: &Samples,
    names: &[&str],
    start: &[i32],
    settings: &FitSettings,
    say: &dyn Fn(&str),
) -> Vec<i32> {
    let scale = SCALE as f64;
    let features = start.len();
    let mut w: Vec<f64> = start.iter().map(|&x| x as f64 / scale).collect();
    let (mut m, mut v) = (vec![0.0f64; features], vec![0.0f64; features]);
    let (beta1, beta2, eps) = (0.9f64, 0.999f64, 1e-8f64);
    let mut step = 0i32;
    let judge = |w: &[f64]| {
        if samples.validation.is_empty() {
            mean_loss(w, &samples.train)
        } else {
            mean_loss(w, &samples.validation)
        }
    };
    let mut best = (judge(&w), w.clone());
    say(&format!(
        "start: training loss {:.6}, validation loss {:.6}",
        mean_loss(&w, &samples.train),
        mean_loss(&w, &samples.validation)
    ));
    let mut order: Vec<usize> = (0..samples.train.len()).collect();
    let mut rng = Rng::new(settings.seed);
    let mut lr = settings.lr;
    for epoch in 1..=settings.epochs {
        rng.shuffle(&mut order);
        for batch in order.chunks(settings.batch.max(1)) {
            let mut grad = vec![0.0f64; features];
            for &i in batch {
                let s = &samples.train[i];
                let p = predict(&w, s);
                let d = 2.0 * (p - s.target as f64) * p * (1.0 - p);
                for (g, &f) in grad.iter_mut().zip(&s.features) {
                    *g += d * f as f64;
                }
            }
            step += 1;
            for k in 0..features {
                let g = grad[k] / batch.len() as f64;
                m[k] = beta1 * m[k] + (1.0 - beta1) * g;
                v[k] = beta2 * v[k] + (1.0 - beta2) * g * g;
                let m_hat = m[k] / (1.0 - beta1.powi(step));
                let v_hat = v[k] / (1.0 - beta2.powi(step));
                w[k] -= lr * m_hat / (v_hat.sqrt() + eps);
            }
        }
        lr *= settings.lr_decay;
        let judged = judge(&w);
        if judged < best.0 {
            best = (judged, w.clone());
        }
        say(&format!(
            "epoch {epoch}: training loss {:.6}, validation loss {:.6}",
            mean_loss(&w, &samples.train),
            mean_loss(&w, &samples.validation)
        ));
    }
    let weights: Vec<i32> = best.1.iter().map(|x| (x * scale).round() as i32).collect();
    for (name, (old, new)) in names.iter().zip(start.iter().zip(&weights)) {
        say(&format!("{name:>14}: {old:>5} -> {new:>5}"));
    }
    weights
}
