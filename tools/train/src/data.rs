//! Training positions: the features of both perspectives and the targets of each recorded
//! position, split into training and validation sets by game.

use tsubame::core::game::Position;
use tsubame::datagen::format;
use tsubame::games::shogi::Variant;
use tsubame::games::shogi::position::Board;
use tsubame::nnue::features::Layout;
use tsubame::nnue::network::SCALE;

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

    fn push<V: Variant>(&mut self, pos: &Board<V>, score: i16, result: f32) {
        if self.starts.is_empty() {
            self.starts.push(0);
        }
        let us = pos.side_to_move();
        for side in [us, !us] {
            Layout::<V>::active(pos, side, &mut self.features);
            self.starts.push(self.features.len() as u32);
        }
        self.score_target.push(sigmoid(score as f32 / SCALE as f32));
        self.result.push(result);
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

/// Loads data files of game `V`; every `val_every`-th game (by its number) is held out.
pub fn load<V: Variant>(paths: &[std::path::PathBuf], val_every: u64) -> Result<Loaded, String> {
    let mut out = Loaded {
        train: Positions::default(),
        validation: Positions::default(),
        report: Vec::new(),
    };
    for path in paths {
        let shown = path.display();
        let bytes = std::fs::read(path).map_err(|e| format!("{shown}: {e}"))?;
        let scan = format::scan::<Board<V>>(&bytes).map_err(|e| format!("{shown}: {e}"))?;
        let len = format::record_len::<Board<V>>();
        // Games in the order of their numbers, not of the file (which depends on which thread
        // finished first), so that training from the same data is reproducible.
        let mut frames = scan.frames.clone();
        frames.sort_by_key(|f| (f.seed, f.game));
        for frame in &frames {
            let held_out = val_every > 0 && frame.game % val_every == val_every - 1;
            let set = if held_out {
                &mut out.validation
            } else {
                &mut out.train
            };
            for i in 0..frame.count {
                let at = frame.offset + i * len;
                let r = format::read_record::<Board<V>>(&bytes[at..at + len])
                    .map_err(|e| format!("{shown}: record at byte {at}: {e}"))?;
                set.push(&r.pos, r.score, r.result.target());
            }
        }
        out.report.push(format!(
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
    }
    Ok(out)
}
