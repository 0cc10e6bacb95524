//! The training loop: shuffled mini-batches whose gradients are computed by all threads, Adam,
//! the validation loss after each epoch, checkpoints and the quantised network.

use std::path::{Path, PathBuf};
use std::time::Instant;

use rayon::prelude::*;
use tsubame::rng::Rng;

use crate::data::Positions;
use crate::net::{self, Scratch, Shape};

/// Settings of a training run.
#[derive(Clone, Debug)]
pub struct Settings {
    /// Passes over the training set.
    pub epochs: usize,
    /// Positions per gradient step.
    pub batch: usize,
    /// Adam's step size.
    pub lr: f32,
    /// The step size is multiplied by this after each epoch.
    pub lr_decay: f32,
    /// Weight of the search score in the target (the game result gets 1 − lambda).
    pub lambda: f32,
    /// With a factoriser: the step size of each bucket's or region's own rows as a fraction of
    /// `lr` (the shared rows, biases and output take `lr`). Adam moves a row that few positions
    /// touch as far as one that all touch, so own rows learn the training games by heart unless
    /// they step more gently than the shared ones.
    pub bucket_lr: f32,
    /// Seed of the initial weights and of the shuffling.
    pub seed: u64,
}

/// The optimiser's state with the parameters: what a checkpoint holds.
pub struct State {
    /// The network's shape.
    pub shape: Shape,
    /// The parameters.
    pub params: Vec<f32>,
    m: Vec<f32>,
    v: Vec<f32>,
    /// Adam steps taken.
    pub step: u64,
    /// Epochs completed.
    pub epoch: usize,
}

const CHECKPOINT_MAGIC: &[u8; 8] = b"TSUBCKPT";

impl State {
    /// A fresh state with random parameters.
    pub fn new(shape: Shape, seed: u64) -> State {
        let n = shape.params();
        State {
            shape,
            params: net::init(shape, seed),
            m: vec![0.0; n],
            v: vec![0.0; n],
            step: 0,
            epoch: 0,
        }
    }

    /// A fresh state that starts from `params` (for instance a network file's, through
    /// [`net::dequantise`]); `None` when their number does not fit `shape`.
    pub fn from_params(shape: Shape, params: Vec<f32>) -> Option<State> {
        let n = shape.params();
        (params.len() == n).then(|| State {
            shape,
            params,
            m: vec![0.0; n],
            v: vec![0.0; n],
            step: 0,
            epoch: 0,
        })
    }

    /// Writes a checkpoint (parameters and Adam's moments).
    pub fn save(&self, path: &Path) -> Result<(), String> {
        let mut out = Vec::with_capacity(32 + 12 * self.params.len());
        out.extend_from_slice(CHECKPOINT_MAGIC);
        out.extend_from_slice(&(self.shape.features as u32).to_le_bytes());
        out.extend_from_slice(&(self.shape.hidden as u32).to_le_bytes());
        out.extend_from_slice(&self.step.to_le_bytes());
        out.extend_from_slice(&(self.epoch as u64).to_le_bytes());
        for x in self.params.iter().chain(&self.m).chain(&self.v) {
            out.extend_from_slice(&x.to_le_bytes());
        }
        std::fs::write(path, out).map_err(|e| format!("{}: {e}", path.display()))
    }

    /// Reads a checkpoint written by [`State::save`] for a network of `shape`.
    pub fn load(path: &Path, shape: Shape) -> Result<State, String> {
        let shown = path.display();
        let b = std::fs::read(path).map_err(|e| format!("{shown}: {e}"))?;
        let n = shape.params();
        if b.len() != 32 + 12 * n || &b[..8] != CHECKPOINT_MAGIC {
            return Err(format!("{shown}: not a checkpoint of a {shape:?} network"));
        }
        let u32_at = |i: usize| u32::from_le_bytes(b[i..i + 4].try_into().unwrap()) as usize;
        let u64_at = |i: usize| u64::from_le_bytes(b[i..i + 8].try_into().unwrap());
        if (u32_at(8), u32_at(12)) != (shape.features, shape.hidden) {
            return Err(format!(
                "{shown}: the checkpoint's shape differs from {shape:?}"
            ));
        }
        let floats: Vec<f32> = b[32..]
            .chunks_exact(4)
            .map(|c| f32::from_le_bytes(c.try_into().unwrap()))
            .collect();
        Ok(State {
            shape,
            params: floats[..n].to_vec(),
            m: floats[n..2 * n].to_vec(),
            v: floats[2 * n..].to_vec(),
            step: u64_at(16),
            epoch: u64_at(24) as usize,
        })
    }

    /// One Adam step with gradient `grad` (already averaged over the batch), of size `lr`, and
    /// `lr · bucket_lr` for the own rows of a network with a factoriser.
    fn adam(&mut self, grad: &[f32], lr: f32, bucket_lr: f32) {
        const B1: f32 = 0.9;
        const B2: f32 = 0.999;
        const EPS: f32 = 1e-8;
        self.step += 1;
        let c1 = 1.0 - B1.powi(self.step.min(10_000) as i32);
        let c2 = 1.0 - B2.powi(self.step.min(100_000) as i32);
        let own = if self.shape.factor > 0 {
            self.shape.features * self.shape.hidden
        } else {
            0
        };
        self.params
            .par_iter_mut()
            .zip(self.m.par_iter_mut())
            .zip(self.v.par_iter_mut())
            .zip(grad.par_iter())
            .enumerate()
            .for_each(|(i, (((p, m), v), &g))| {
                *m = B1 * *m + (1.0 - B1) * g;
                *v = B2 * *v + (1.0 - B2) * g * g;
                let step = if i < own { lr * bucket_lr } else { lr };
                *p -= step * (*m / c1) / ((*v / c2).sqrt() + EPS);
            });
        net::clip(&mut self.params, self.shape);
    }
}

/// The training target of position `i`.
fn target(data: &Positions, i: usize, lambda: f32) -> f32 {
    lambda * data.score_target[i] + (1.0 - lambda) * data.result[i]
}

/// Mean loss of `params` over `data` (all threads).
pub fn mean_loss(params: &[f32], shape: Shape, data: &Positions, lambda: f32) -> f32 {
    if data.is_empty() {
        return f32::NAN;
    }
    let total: f64 = (0..data.len())
        .into_par_iter()
        .map_init(
            || Scratch::new(shape),
            |s, i| {
                let (us, them) = data.features(i);
                let y = crate::data::sigmoid(net::forward(params, shape, [us, them], s));
                let e = y - target(data, i, lambda);
                (e * e) as f64
            },
        )
        .sum();
    (total / data.len() as f64) as f32
}

/// Trains `state` on `train` for the settings' epochs, printing one line per epoch (training
/// and validation loss) through `say`; after each epoch a checkpoint and the quantised network
/// are written to `out` (`checkpoint.bin`, `epoch-N.nnue`, `net.nnue`).
pub fn run(
    state: &mut State,
    settings: &Settings,
    train: &Positions,
    validation: &Positions,
    out: &Path,
    game: &str,
    say: &dyn Fn(&str),
) -> Result<Vec<(f32, f32)>, String> {
    std::fs::create_dir_all(out).map_err(|e| format!("{}: {e}", out.display()))?;
    let shape = state.shape;
    let threads = rayon::current_num_threads().max(1);
    let mut grads: Vec<Vec<f32>> = (0..threads).map(|_| vec![0.0; shape.params()]).collect();
    let mut sum = vec![0.0f32; shape.params()];
    let mut order: Vec<usize> = (0..train.len()).collect();
    let mut rng = Rng::stream(settings.seed, state.epoch as u64);
    let mut losses = Vec::new();
    say(&format!(
        "start: validation loss {:.6} ({} training, {} validation positions, {} parameters, {threads} threads)",
        mean_loss(&state.params, shape, validation, settings.lambda),
        train.len(),
        validation.len(),
        shape.params()
    ));
    while state.epoch < settings.epochs {
        let start = Instant::now();
        rng.shuffle(&mut order);
        let lr = settings.lr * settings.lr_decay.powi(state.epoch as i32);
        let mut train_loss = 0.0f64;
        for batch in order.chunks(settings.batch) {
            let per = batch.len().div_ceil(threads);
            let params = &state.params;
            let loss: f64 = grads
                .par_iter_mut()
                .zip(batch.par_chunks(per.max(1)))
                .map(|(g, part)| {
                    g.iter_mut().for_each(|x| *x = 0.0);
                    let mut s = Scratch::new(shape);
                    let mut loss = 0.0f64;
                    for &i in part {
                        let (us, them) = train.features(i);
                        let o = net::forward(params, shape, [us, them], &mut s);
                        let t = target(train, i, settings.lambda);
                        loss += net::backward(params, shape, [us, them], o, t, &s, g) as f64;
                    }
                    loss
                })
                .sum();
            train_loss += loss;
            let scale = 1.0 / batch.len() as f32;
            let used = batch.len().div_ceil(per.max(1));
            sum.par_iter_mut().enumerate().for_each(|(k, x)| {
                *x = grads[..used].iter().map(|g| g[k]).sum::<f32>() * scale;
            });
            state.adam(&sum, lr, settings.bucket_lr);
        }
        state.epoch += 1;
        let train_loss = (train_loss / train.len().max(1) as f64) as f32;
        let val_loss = mean_loss(&state.params, shape, validation, settings.lambda);
        losses.push((train_loss, val_loss));
        let secs = start.elapsed().as_secs_f64();
        state.save(&out.join("checkpoint.bin"))?;
        let bytes = net::quantise(&state.params, shape, game).to_bytes();
        for name in [
            format!("epoch-{}.nnue", state.epoch),
            "net.nnue".to_string(),
        ] {
            let path: PathBuf = out.join(name);
            std::fs::write(&path, &bytes).map_err(|e| format!("{}: {e}", path.display()))?;
        }
        say(&format!(
            "epoch {}: training loss {train_loss:.6}, validation loss {val_loss:.6}, lr {lr:.2e}, {secs:.1} s ({:.0} positions/s)",
            state.epoch,
            train.len() as f64 / secs.max(1e-9)
        ));
    }
    Ok(losses)
}
