//! The float network the trainer fits, its gradients, and its quantisation to the engine's file.
//!
//! Parameters live in one flat vector: feature weights (`features × hidden`, feature-major), the
//! factoriser's weights (`factor × hidden`), hidden biases (`hidden`), output weights
//! (`2 × hidden`, side to move's half first), output bias (1). The output is a logit:
//! `sigmoid(output)` is the expected score of the side to move.
//!
//! The **factoriser** (king buckets): feature `f` of bucket `f / factor` also sets the shared
//! feature `f % factor`, the same plain feature in every bucket, whose weights every bucket
//! learns from; the file gets each feature's own row plus its shared row. So a bucket seen in
//! few positions still starts from what all buckets learned, and the network needs far fewer
//! positions than its feature count suggests.

use tsubame::games::GameId;
use tsubame::nnue::FeatureSet;
use tsubame::nnue::network::{Network, QA, QB};
use tsubame::rng::Rng;

use crate::data::sigmoid;

/// Largest output weight the engine's integers hold (|w| · QB ≤ 127, so that a clipped
/// activation times a weight stays within 16 bits).
pub const OUT_WEIGHT_LIMIT: f32 = 127.0 / QB as f32;
/// Largest first-layer weight or bias (|w| · QA within 16 bits, with room for sums).
pub const FT_WEIGHT_LIMIT: f32 = 32000.0 / QA as f32 / 64.0;

/// The shape of a network.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shape {
    /// Input features.
    pub features: usize,
    /// Accumulator width per perspective.
    pub hidden: usize,
    /// Shared (factoriser) features: 0 for none, else the number of features of one bucket.
    pub factor: usize,
    /// The feature set of the network file.
    pub set: FeatureSet,
}

impl Shape {
    /// The shape the trainer fits for game `id`'s feature set `set` at width `hidden`: the set's
    /// features, and for a set with a bucket per king place a factoriser of the plain features.
    pub fn of(id: GameId, set: FeatureSet, hidden: usize) -> Shape {
        Shape {
            features: id.features(set),
            hidden,
            factor: if set.per_king_place() {
                id.features(FeatureSet::Plain)
            } else {
                0
            },
            set,
        }
    }

    /// Number of parameters.
    pub fn params(self) -> usize {
        (self.features + self.factor) * self.hidden + self.hidden + 2 * self.hidden + 1
    }
    /// Where the factoriser's rows start.
    pub fn factor_rows(self) -> usize {
        self.features * self.hidden
    }
    /// The row of the shared feature of feature `f`, if the network has a factoriser.
    #[inline(always)]
    fn shared_row(self, f: u16) -> Option<usize> {
        (self.factor > 0).then(|| self.features + f as usize % self.factor)
    }
    /// Where the hidden biases start.
    pub fn ft_bias(self) -> usize {
        (self.features + self.factor) * self.hidden
    }
    pub fn out_weights(self) -> usize {
        self.ft_bias() + self.hidden
    }
    pub fn out_bias(self) -> usize {
        self.out_weights() + 2 * self.hidden
    }
}

/// SCReLU: `clamp(x, 0, 1)²`.
#[inline(always)]
fn screlu(x: f32) -> f32 {
    let c = x.clamp(0.0, 1.0);
    c * c
}

/// Random starting parameters (small first-layer weights, output weights around ±1/√hidden).
pub fn init(shape: Shape, seed: u64) -> Vec<f32> {
    let mut rng = Rng::new(seed);
    let mut p = vec![0.0f32; shape.params()];
    for w in &mut p[..shape.ft_bias()] {
        *w = rng.range(-0.1..0.1);
    }
    for b in &mut p[shape.ft_bias()..shape.out_weights()] {
        *b = rng.range(0.0..0.2);
    }
    let r = 1.0 / (shape.hidden as f32).sqrt();
    for w in &mut p[shape.out_weights()..shape.out_bias()] {
        *w = rng.range(-r..r);
    }
    p
}

/// Scratch space of one thread: the two accumulators.
pub struct Scratch {
    acc: [Vec<f32>; 2],
}

impl Scratch {
    /// Scratch space for `shape`.
    pub fn new(shape: Shape) -> Scratch {
        Scratch {
            acc: [vec![0.0; shape.hidden], vec![0.0; shape.hidden]],
        }
    }
}

/// The output (a logit) for the position whose perspectives (side to move first) have these
/// active features.
pub fn forward(p: &[f32], shape: Shape, feats: [&[u16]; 2], s: &mut Scratch) -> f32 {
    let h = shape.hidden;
    let mut out = p[shape.out_bias()];
    for (side, feats) in feats.into_iter().enumerate() {
        let acc = &mut s.acc[side];
        acc.copy_from_slice(&p[shape.ft_bias()..shape.ft_bias() + h]);
        for &f in feats {
            let row = &p[f as usize * h..][..h];
            for (a, w) in acc.iter_mut().zip(row) {
                *a += w;
            }
            if let Some(r) = shape.shared_row(f) {
                for (a, w) in acc.iter_mut().zip(&p[r * h..][..h]) {
                    *a += w;
                }
            }
        }
        let ow = &p[shape.out_weights() + side * h..][..h];
        out += acc
            .iter()
            .zip(ow)
            .map(|(&a, &w)| screlu(a) * w)
            .sum::<f32>();
    }
    out
}

/// Adds to `grad` the gradient of the loss `(sigmoid(output) − target)²` of one position, after
/// [`forward`] has filled `s`; returns the loss.
pub fn backward(
    p: &[f32],
    shape: Shape,
    feats: [&[u16]; 2],
    output: f32,
    target: f32,
    s: &Scratch,
    grad: &mut [f32],
) -> f32 {
    let h = shape.hidden;
    let y = sigmoid(output);
    let err = y - target;
    let g = 2.0 * err * y * (1.0 - y);
    grad[shape.out_bias()] += g;
    for (side, feats) in feats.into_iter().enumerate() {
        let acc = &s.acc[side];
        let ow = shape.out_weights() + side * h;
        let mut d_acc = [0.0f32; 4096];
        let d_acc = &mut d_acc[..h];
        for j in 0..h {
            let a = acc[j];
            grad[ow + j] += g * screlu(a);
            d_acc[j] = if a > 0.0 && a < 1.0 {
                g * p[ow + j] * 2.0 * a
            } else {
                0.0
            };
        }
        for (gb, d) in grad[shape.ft_bias()..shape.ft_bias() + h]
            .iter_mut()
            .zip(d_acc.iter())
        {
            *gb += d;
        }
        for &f in feats {
            for (gw, d) in grad[f as usize * h..][..h].iter_mut().zip(d_acc.iter()) {
                *gw += d;
            }
            if let Some(r) = shape.shared_row(f) {
                for (gw, d) in grad[r * h..][..h].iter_mut().zip(d_acc.iter()) {
                    *gw += d;
                }
            }
        }
    }
    err * err
}

/// Keeps the parameters within what the engine's integers can hold (with a factoriser,
/// [`quantise`] also keeps each sum of a feature's own and shared weight within the limit).
pub fn clip(p: &mut [f32], shape: Shape) {
    for w in &mut p[..shape.out_weights()] {
        *w = w.clamp(-FT_WEIGHT_LIMIT, FT_WEIGHT_LIMIT);
    }
    for w in &mut p[shape.out_weights()..shape.out_bias()] {
        *w = w.clamp(-OUT_WEIGHT_LIMIT, OUT_WEIGHT_LIMIT);
    }
}

/// The float parameters of a network of `shape` that computes what `n` computes, so that
/// training can start from a shipped network: the inverse of [`quantise`] when `n` has the
/// shape's feature set and width (quantising gives `n` back; the shared rows are zero). A plain
/// network for a king-bucket shape gives its rows to the shared features and zero to every
/// bucket's own, so that each bucket starts as the plain network. Where `shape` is wider than
/// `n`, the extra hidden units get small random first-layer weights and zero output weights
/// (so the output is still `n`'s) and learn from there. `None` when `n` fits no such start.
pub fn dequantise(n: &Network, shape: Shape, seed: u64) -> Option<Vec<f32>> {
    let (a, b) = (QA as f32, QB as f32);
    let (h, hn) = (shape.hidden, n.hidden);
    let expand = n.feature_set == FeatureSet::Plain && shape.set.per_king_place();
    let fits = if expand {
        shape.factor == n.features
    } else {
        n.feature_set == shape.set && n.features == shape.features
    };
    if !fits || hn > h {
        return None;
    }
    let mut p = init(shape, seed);
    let rows = shape.features + shape.factor;
    for r in 0..rows {
        // The row of `n` that row `r` takes, if any.
        let from = match (expand, r < shape.features) {
            (false, true) => Some(r),
            (false, false) | (true, true) => None,
            (true, false) => Some(r - shape.features),
        };
        let row = &mut p[r * h..][..h];
        match from {
            Some(f) => {
                for (j, w) in row.iter_mut().enumerate().take(hn) {
                    *w = n.ft_weights[f * hn + j] as f32 / a;
                }
            }
            None => row[..hn].fill(0.0),
        }
        if r < shape.features && (expand || shape.factor > 0) {
            // Each bucket's own rows start at zero in the extra units too: the shared rows
            // carry the start.
            row[hn..].fill(0.0);
        }
    }
    for j in 0..hn {
        p[shape.ft_bias() + j] = n.ft_bias[j] as f32 / a;
    }
    for side in 0..2 {
        for j in 0..h {
            p[shape.out_weights() + side * h + j] = if j < hn {
                n.out_weights[side * hn + j] as f32 / b
            } else {
                0.0
            };
        }
    }
    p[shape.out_bias()] = n.out_bias as f32 / (a * b);
    Some(p)
}

/// The engine's integer network for these parameters (with a factoriser: each feature's row
/// plus its shared row).
pub fn quantise(p: &[f32], shape: Shape, game: &str) -> Network {
    let q = |x: f32, scale: i32| (x * scale as f32).round().clamp(-32767.0, 32767.0) as i16;
    let h = shape.hidden;
    let ft_weights = (0..shape.features * h)
        .map(|i| {
            let own = p[i];
            let shared = shape
                .shared_row((i / h) as u16)
                .map_or(0.0, |r| p[r * h + i % h]);
            q((own + shared).clamp(-FT_WEIGHT_LIMIT, FT_WEIGHT_LIMIT), QA)
        })
        .collect();
    Network {
        game: game.to_string(),
        feature_set: shape.set,
        features: shape.features,
        hidden: shape.hidden,
        ft_weights,
        ft_bias: p[shape.ft_bias()..shape.out_weights()]
            .iter()
            .map(|&w| q(w, QA))
            .collect(),
        out_weights: p[shape.out_weights()..shape.out_bias()]
            .iter()
            .map(|&w| q(w, QB))
            .collect(),
        out_bias: (p[shape.out_bias()] * (QA * QB) as f32).round() as i32,
    }
}
