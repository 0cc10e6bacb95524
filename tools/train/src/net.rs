//! The float network the trainer fits, its gradients, and its quantisation to the engine's file.
//!
//! Parameters live in one flat vector: feature weights (`features × hidden`, feature-major),
//! hidden biases (`hidden`), output weights (`2 × hidden`, side to move's half first), output
//! bias (1). The output is a logit: `sigmoid(output)` is the expected score of the side to move.

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
}

impl Shape {
    /// Number of parameters.
    pub fn params(self) -> usize {
        self.features * self.hidden + self.hidden + 2 * self.hidden + 1
    }
    pub fn ft_bias(self) -> usize {
        self.features * self.hidden
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
        }
    }
    err * err
}

/// Keeps the parameters within what the engine's integers can hold.
pub fn clip(p: &mut [f32], shape: Shape) {
    for w in &mut p[..shape.out_weights()] {
        *w = w.clamp(-FT_WEIGHT_LIMIT, FT_WEIGHT_LIMIT);
    }
    for w in &mut p[shape.out_weights()..shape.out_bias()] {
        *w = w.clamp(-OUT_WEIGHT_LIMIT, OUT_WEIGHT_LIMIT);
    }
}

/// The float parameters that `n` stands for (the inverse of [`quantise`]: quantising them gives
/// `n` back), so that training can start from a shipped network.
pub fn dequantise(n: &Network) -> Vec<f32> {
    let a = QA as f32;
    let b = QB as f32;
    n.ft_weights
        .iter()
        .chain(&n.ft_bias)
        .map(|&w| w as f32 / a)
        .chain(n.out_weights.iter().map(|&w| w as f32 / b))
        .chain(std::iter::once(n.out_bias as f32 / (a * b)))
        .collect()
}

/// The engine's integer network for these parameters.
pub fn quantise(p: &[f32], shape: Shape, game: &str) -> Network {
    let q = |x: f32, scale: i32| (x * scale as f32).round().clamp(-32767.0, 32767.0) as i16;
    Network {
        game: game.to_string(),
        features: shape.features,
        hidden: shape.hidden,
        ft_weights: p[..shape.ft_bias()].iter().map(|&w| q(w, QA)).collect(),
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
