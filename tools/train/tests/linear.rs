//! The Give and Take weight fit: it recovers known weights from targets made with them, and it
//! reads the positions of a data file that the test makes with the engine's own counts.

use std::path::PathBuf;

use tsubame::commands::datagen::{Config, run};
use tsubame::games::giveandtake::GiveAndTake;
use tsubame::games::giveandtake::eval::{FEATURE_NAMES, FEATURES, WEIGHTS};
use tsubame::nnue::network::SCALE;
use tsubame_train::data::sigmoid;
use tsubame_train::linear::{self, FitSettings, Sample, Samples};

fn temp(name: &str) -> PathBuf {
    std::env::temp_dir().join(format!("tsubame-linear-{}-{name}", std::process::id()))
}

#[test]
fn the_fit_recovers_the_weights_that_made_the_targets() {
    // Features drawn from a small generator, targets from weights unlike the engine's.
    let truth = [150.0, 420.0, 12.0, 1.0, 4.0, 30.0, 5.0];
    let mut seed = 99u64;
    let mut next = move |range: i32| {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        (seed % (2 * range as u64 + 1)) as i32 - range
    };
    let mut make = |n: usize| -> Vec<Sample> {
        (0..n)
            .map(|_| {
                let mut features = [0f32; FEATURES];
                for (i, f) in features.iter_mut().enumerate() {
                    *f = match i {
                        6 => 1.0,
                        _ => next([3, 2, 8, 12, 10, 2][i]) as f32,
                    };
                }
                let e: f32 = features.iter().zip(truth).map(|(f, w)| f * w).sum();
                Sample {
                    features: features.to_vec(),
                    target: sigmoid(e / SCALE as f32),
                }
            })
            .collect()
    };
    let samples = Samples {
        train: make(20_000),
        validation: make(2_000),
        report: Vec::new(),
    };
    let settings = FitSettings {
        epochs: 30,
        batch: 256,
        lr: 0.01,
        lr_decay: 0.9,
        seed: 1,
    };
    let weights = linear::fit(&samples, &FEATURE_NAMES, &WEIGHTS, &settings, &|_| {});
    for (i, (&w, t)) in weights.iter().zip(truth).enumerate() {
        assert!(
            (w as f32 - t).abs() <= 0.05 * t.abs() + 2.0,
            "feature {i}: fitted {w}, made with {t} ({weights:?})"
        );
    }
}

#[test]
fn the_loader_counts_each_recorded_position_as_the_engine_does() {
    let file = temp("gt.bin");
    let _ = std::fs::remove_file(&file);
    let cfg = Config {
        games: 6,
        nodes: Some(300),
        depth: None,
        threads: 2,
        random_plies: 4,
        seed: 5,
        max_plies: 150,
        hash_mib: 4,
        network: None,
    };
    run::<GiveAndTake>(&cfg, &file, false).unwrap();
    let samples = linear::load::<GiveAndTake>(std::slice::from_ref(&file), 3, 0.0).unwrap();
    assert!(
        samples.train.len() > 100,
        "{} positions",
        samples.train.len()
    );
    assert!(!samples.validation.is_empty());
    let bytes = std::fs::read(&file).unwrap();
    let (records, _) = tsubame::commands::datagen::format::read_all::<GiveAndTake>(&bytes).unwrap();
    assert_eq!(
        records.len(),
        samples.train.len() + samples.validation.len()
    );
    // With lambda 0 the target is the game's result; every feature vector is the engine's.
    for s in samples.train.iter().chain(&samples.validation) {
        assert!([0.0, 0.5, 1.0].contains(&s.target), "{}", s.target);
    }
    let engine: Vec<Vec<f32>> = records
        .iter()
        .map(|r| r.pos.features().map(|f| f as f32).to_vec())
        .collect();
    for s in &samples.train {
        assert!(engine.contains(&s.features));
    }
    std::fs::remove_file(&file).unwrap();
}
