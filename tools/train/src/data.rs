//! Training positions: the features of both perspectives and the targets of each recorded
//! position, split into training and validation sets by game.

use rayon::prelude::*;
use tsubame::commands::datagen::format::{self, Record};
use tsubame::core::color::Color;
use tsubame::core::pack::Packable;
use tsubame::games::Game;
use tsubame::games::info::{ExactTable, ExactValue};
use tsubame::nnue::FeatureSet;
use tsubame::nnue::network::SCALE;
use tsubame::rng::Rng;

/// A set of positions, stored flat: the features of position `i` seen by the side to move are
/// `features[starts[2i]..starts[2i+1]]`, seen by the other side `features[starts[2i+1]..starts[2i+2]]`.
#[derive(Default)]
pub struct Positions {
    features: Vec<u16>,
    starts: Vec<u32>,
    /// `sigmoid(score / SCALE)` of each position.
    pub score_target: Vec<f32>,
    /// The game's result for the side to move (0, ½, 1).
    pub result: Vec<f32>,
}

impl Positions {
    /// Number of positions.
    pub fn len(&self) -> usize {
        self.result.len()
    }

    /// True when there are none.
    pub fn is_empty(&self) -> bool {
        self.result.is_empty()
    }

    /// The active features of position `i`: the side to move's, then the other side's.
    pub fn features(&self, i: usize) -> (&[u16], &[u16]) {
        let s = &self.starts[2 * i..2 * i + 3];
        (
            &self.features[s[0] as usize..s[1] as usize],
            &self.features[s[1] as usize..s[2] as usize],
        )
    }

    /// Appends `pos` with its targets, its features of set `set`; mirrored left to right when
    /// `mirror` is true (plain features or king regions).
    fn push<G: Game>(&mut self, pos: &G, set: FeatureSet, score: i16, result: f32, mirror: bool) {
        let us = pos.side_to_move();
        self.push_with(
            |side, out| {
                let start = out.len();
                pos.nnue_features(set, side, out);
                if mirror {
                    for f in &mut out[start..] {
                        *f = G::mirrored_feature(set, *f as usize) as u16;
                    }
                }
            },
            us,
            sigmoid(score as f32 / SCALE as f32),
            result,
        );
    }

    /// Appends a position whose features `active` writes for a perspective, with its targets.
    fn push_with(
        &mut self,
        active: impl Fn(Color, &mut Vec<u16>),
        us: Color,
        score_target: f32,
        result: f32,
    ) {
        if self.starts.is_empty() {
            self.starts.push(0);
        }
        for side in [us, !us] {
            active(side, &mut self.features);
            self.starts.push(self.features.len() as u32);
        }
        self.score_target.push(score_target);
        self.result.push(result);
    }

    /// Appends every position of `other`.
    fn append(&mut self, other: Positions) {
        if other.is_empty() {
            return;
        }
        if self.starts.is_empty() {
            self.starts.push(0);
        }
        let base = self.features.len() as u32;
        self.features.extend(&other.features);
        self.starts
            .extend(other.starts[1..].iter().map(|&s| s + base));
        self.score_target.extend(other.score_target);
        self.result.extend(other.result);
    }
}

/// The logistic function.
pub fn sigmoid(x: f32) -> f32 {
    1.0 / (1.0 + (-x).exp())
}

/// What was loaded.
pub struct Loaded {
    /// Positions to train on.
    pub train: Positions,
    /// Held-out positions (whole games), for the validation loss.
    pub validation: Positions,
    /// Lines for people: what each file held and skipped.
    pub report: Vec<String>,
}

/// Reads data files of game `G` and hands every record to `take`, with true for the records of
/// every `val_every`-th game (by its number), which are held out. The files are merged: the games
/// of all of them come in the order of their seeds and numbers, and a game that two files hold
/// (the same shard copied twice) is read once, so the data do not depend on the order or the
/// split of the files (shards of `tsubame datagen` by seed, docs/datagen.md). Returns a line for
/// people per file (what it held and skipped) and one for the games read twice, if any.
pub fn read_games<G: Packable>(
    paths: &[std::path::PathBuf],
    val_every: u64,
    mut take: impl FnMut(bool, Record<G>),
) -> Result<Vec<String>, String> {
    let mut report = Vec::new();
    let mut files = Vec::new();
    for path in paths {
        let shown = path.display();
        let bytes = std::fs::read(path).map_err(|e| format!("{shown}: {e}"))?;
        let scan = format::scan::<G>(&bytes).map_err(|e| format!("{shown}: {e}"))?;
        report.push(format!(
            "{shown}: {} games, {} positions{}",
            scan.frames.len(),
            scan.records(),
            if scan.skipped > 0 {
                format!(
                    "; skipped the last {} bytes ({})",
                    scan.skipped,
                    scan.skip_reason.as_deref().unwrap_or("damaged")
                )
            } else {
                String::new()
            }
        ));
        files.push((bytes, scan));
    }
    // Every game of every file in the order of seed and number (not of the files, whose order
    // depends on which thread finished first), the first file's copy of a game held twice.
    let mut games: Vec<(u64, u64, usize, usize)> = files
        .iter()
        .enumerate()
        .flat_map(|(f, (_, scan))| {
            (scan.frames.iter().enumerate()).map(move |(i, fr)| (fr.seed, fr.game, f, i))
        })
        .collect();
    games.sort_unstable();
    let before = games.len();
    games.dedup_by_key(|g| (g.0, g.1));
    if games.len() < before {
        report.push(format!(
            "{} games held by more than one file were read once",
            before - games.len()
        ));
    }
    let len = format::record_len::<G>();
    for (_, game, f, i) in games {
        let (bytes, scan) = &files[f];
        let frame = &scan.frames[i];
        let held_out = val_every > 0 && game % val_every == val_every - 1;
        for k in 0..frame.count {
            let at = frame.offset + k * len;
            let r = format::read_record::<G>(&bytes[at..at + len])
                .map_err(|e| format!("{}: record at byte {at}: {e}", paths[f].display()))?;
            take(held_out, r);
        }
    }
    Ok(report)
}

/// Loads data files of game `G`, the positions' features of set `set`; every `val_every`-th
/// game (by its number) is held out. With `mirror` (plain features or king regions), each training position is
/// also added mirrored left to right (the validation set stays as recorded, so that its loss
/// compares with a run without).
pub fn load<G: Game + Packable>(
    paths: &[std::path::PathBuf],
    val_every: u64,
    mirror: bool,
    set: FeatureSet,
) -> Result<Loaded, String> {
    let mut train = Positions::default();
    let mut validation = Positions::default();
    let report = read_games::<G>(paths, val_every, |held_out, r| {
        if held_out {
            validation.push(&r.pos, set, r.score, r.result.target(), false);
        } else {
            train.push(&r.pos, set, r.score, r.result.target(), false);
            if mirror {
                train.push(&r.pos, set, r.score, r.result.target(), true);
            }
        }
    })?;
    Ok(Loaded {
        train,
        validation,
        report,
    })
}

/// Loads positions of game `G` from its exact table `tb` (read from `path`): every entry that a
/// stream of `seed` picks with probability `share`, its target the exact result for the side to
/// move (win 1, draw ½, loss 0) for both the score and the result part of the loss. Every
/// `val_every`-th picked entry is held out.
pub fn load_table<G: Game>(
    tb: &dyn ExactTable<G>,
    path: &std::path::Path,
    share: f64,
    val_every: u64,
    seed: u64,
) -> Result<Loaded, String> {
    let size = tb.len();
    let threshold = (share.clamp(0.0, 1.0) * u64::MAX as f64) as u64;
    const CHUNK: u32 = 1 << 16;
    let parts: Vec<(Positions, Positions, u64)> = (0..size.div_ceil(CHUNK))
        .into_par_iter()
        .map(|c| {
            let (mut train, mut validation, mut n) =
                (Positions::default(), Positions::default(), 0u64);
            // One stream per chunk, one draw per index: the pick does not depend on scheduling.
            let mut rng = Rng::stream(seed, c as u64);
            for idx in c * CHUNK..((c + 1) * CHUNK).min(size) {
                let picked = rng.next_u64() <= threshold;
                if !picked {
                    continue;
                }
                let Some((pos, value)) = tb.entry(idx) else {
                    continue;
                };
                let result = match value {
                    ExactValue::Win(_) => 1.0,
                    ExactValue::Draw => 0.5,
                    ExactValue::Loss(_) => 0.0,
                };
                let set = if val_every > 0 && idx as u64 % val_every == val_every - 1 {
                    &mut validation
                } else {
                    &mut train
                };
                set.push_with(
                    |side, out| pos.nnue_features(FeatureSet::Plain, side, out),
                    pos.side_to_move(),
                    result,
                    result,
                );
                n += 1;
            }
            (train, validation, n)
        })
        .collect();
    let mut out = Loaded {
        train: Positions::default(),
        validation: Positions::default(),
        report: Vec::new(),
    };
    let mut total = 0;
    for (train, validation, n) in parts {
        out.train.append(train);
        out.validation.append(validation);
        total += n;
    }
    out.report.push(format!(
        "{}: {total} of the table's positions picked ({:.1} %)",
        path.display(),
        share * 100.0
    ));
    Ok(out)
}
