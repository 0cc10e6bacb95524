//! The trainer on a small data set that the test makes: the validation loss falls, the
//! quantised network matches the float one, and a checkpoint resumes the run.

use std::path::PathBuf;

use tsubame::commands::datagen::{Config, run};
use tsubame::games::minishogi::{Mini, Minishogi};
use tsubame::games::shogi::nnue::Layout;
use tsubame::nnue::network::{Network, QA, QB, SCALE};
use tsubame_train::data;
use tsubame_train::net::{self, Scratch, Shape};
use tsubame_train::train::{self, Settings, State};

fn temp(name: &str) -> PathBuf {
    std::env::temp_dir().join(format!("tsubame-train-{}-{name}", std::process::id()))
}

#[test]
fn training_lowers_the_validation_loss_and_quantises_faithfully() {
    let file = temp("data.bin");
    let _ = std::fs::remove_file(&file);
    let cfg = Config {
        games: 120,
        nodes: Some(500),
        depth: None,
        threads: 2,
        random_plies: 4,
        seed: 3,
        max_plies: 200,
        hash_mib: 4,
        network: None,
    };
    run::<Minishogi>(&cfg, &file, false).unwrap();
    let loaded = data::load::<Minishogi>(std::slice::from_ref(&file), 5, false).unwrap();
    assert!(loaded.train.len() > 500, "{} positions", loaded.train.len());
    assert!(loaded.validation.len() > 50);
    // Mirroring adds each training position once more, mirrored; validation stays as recorded.
    let mirrored = data::load::<Minishogi>(std::slice::from_ref(&file), 5, true).unwrap();
    assert_eq!(mirrored.train.len(), 2 * loaded.train.len());
    assert_eq!(mirrored.validation.len(), loaded.validation.len());
    let n = loaded.train.len();
    let (a, b) = (
        loaded.train.features(n - 1).0,
        mirrored.train.features(2 * n - 1).0,
    );
    let remapped: Vec<u16> = a
        .iter()
        .map(|&f| Layout::<Mini>::mirrored(f as usize) as u16)
        .collect();
    assert_eq!(remapped, b);

    let shape = Shape {
        features: Layout::<Mini>::FEATURES,
        hidden: 16,
    };
    let settings = Settings {
        epochs: 6,
        batch: 256,
        lr: 0.003,
        lr_decay: 0.9,
        lambda: 0.75,
        seed: 1,
    };
    let out = temp("out");
    let mut state = State::new(shape, 1);
    let before = train::mean_loss(&state.params, shape, &loaded.validation, 0.75);
    let losses = train::run(
        &mut state,
        &settings,
        &loaded.train,
        &loaded.validation,
        &out,
        "minishogi",
        &|_| {},
    )
    .unwrap();
    let after = losses.last().unwrap().1;
    // On this data (120 games of 500 nodes; seed 3 of tsubame::rng) six epochs take the loss from
    // 0.128 to 0.113: it must fall by at least a tenth.
    assert!(after < 0.9 * before, "validation loss {before} → {after}");
    assert!(losses.last().unwrap().0 < losses[0].0);

    // The file the engine reads holds the quantised network. Its integer arithmetic is exact up
    // to truncation: within 2 cp of the float network evaluated with the same (rounded)
    // weights. Rounding the weights to the file's grid (1/QA, 1/QB) is what costs precision:
    // on average at most 5% of the evaluation's size, and never more than 40 cp.
    let bytes = std::fs::read(out.join("net.nnue")).unwrap();
    let q = Network::from_bytes(&bytes, "minishogi", shape.features, Some(16)).unwrap();
    let rounded: Vec<f32> = state
        .params
        .iter()
        .enumerate()
        .map(|(i, &w)| {
            let step = if i < shape.out_weights() {
                QA
            } else if i < shape.out_bias() {
                QB
            } else {
                QA * QB
            } as f32;
            (w * step).round() / step
        })
        .collect();
    let mut s = Scratch::new(shape);
    let (mut worst_int, mut worst, mut total, mut size) = (0.0f32, 0.0f32, 0.0f32, 0.0f32);
    for i in 0..loaded.validation.len() {
        let (us, them) = loaded.validation.features(i);
        let float = net::forward(&state.params, shape, [us, them], &mut s) * SCALE as f32;
        let grid = net::forward(&rounded, shape, [us, them], &mut s) * SCALE as f32;
        let int = q.evaluate(us, them) as f32;
        worst_int = worst_int.max((int - grid).abs());
        worst = worst.max((int - float).abs());
        total += (int - float).abs();
        size += float.abs();
    }
    let n = loaded.validation.len() as f32;
    let (mean, mean_size) = (total / n, size / n);
    assert!(
        mean_size > 50.0,
        "the network says little: mean |eval| {mean_size} cp"
    );
    assert!(
        worst_int <= 2.0,
        "integer inference up to {worst_int} cp from the float network on the same weights"
    );
    assert!(
        worst < 40.0 && mean < 0.05 * mean_size,
        "quantised output up to {worst} cp (mean {mean}, mean |eval| {mean_size}) from the float network"
    );

    // A checkpoint resumes the run where it stopped.
    let resumed = State::load(&out.join("checkpoint.bin"), shape).unwrap();
    assert_eq!((resumed.epoch, resumed.step), (state.epoch, state.step));
    assert_eq!(resumed.params, state.params);
    assert!(State::load(&out.join("checkpoint.bin"), Shape { hidden: 8, ..shape }).is_err());

    // A network file starts a run (`--init`): its parameters quantise back to the same file, and
    // the run starts from that network's loss.
    let start = State::from_params(shape, net::dequantise(&q)).unwrap();
    assert_eq!(net::quantise(&start.params, shape, "minishogi"), q);
    assert_eq!((start.epoch, start.step), (0, 0));
    let from_file = train::mean_loss(&start.params, shape, &loaded.validation, 0.75);
    let from_rounded = train::mean_loss(&rounded, shape, &loaded.validation, 0.75);
    assert!(
        (from_file - from_rounded).abs() < 1e-6,
        "{from_file} against {from_rounded}"
    );
    assert!(State::from_params(Shape { hidden: 8, ..shape }, start.params.clone()).is_none());
    let _ = std::fs::remove_file(file);
    let _ = std::fs::remove_dir_all(out);
}

/// The shipped shogi network survives the trip to float parameters and back, so a run that
/// starts from it (`--init`) starts from exactly it.
#[test]
fn the_shipped_shogi_network_dequantises_exactly() {
    let bytes = include_bytes!("../../../src/games/shogi/shogi.nnue");
    let features = Layout::<tsubame::games::shogi::Standard>::FEATURES;
    let q = Network::from_bytes(bytes, "shogi", features, None).unwrap();
    let shape = Shape {
        features,
        hidden: q.hidden,
    };
    let params = net::dequantise(&q);
    assert_eq!(params.len(), shape.params());
    assert_eq!(net::quantise(&params, shape, "shogi"), q);
}

/// The nana loader reads the solved table: the positions it picks are the legal ones of the
/// table in the share asked for, each with the table's result for the side to move.
#[test]
fn the_nana_loader_takes_its_targets_from_the_table() {
    use tsubame::games::nana::tablebase::index::INDEXER;
    use tsubame::games::nana::tablebase::{TbValue, build};
    let tb = build(Some((1, 1)), false);
    let file = temp("class11.tb");
    tb.save(&file).unwrap();
    let legal = (0..INDEXER.size)
        .filter(|&i| tb.value_at(i).is_some())
        .count();
    let loaded = data::load_table::<tsubame::games::nana::Nana>(&tb, &file, 0.25, 10, 7).unwrap();
    let picked = loaded.train.len() + loaded.validation.len();
    let share = picked as f64 / legal as f64;
    assert!((0.23..0.27).contains(&share), "{picked} of {legal}");
    assert!(loaded.validation.len() * 20 > picked && loaded.validation.len() * 5 < picked);
    // Each picked position's target is its table value: find it again by its features.
    let mut by_features = std::collections::HashMap::new();
    for i in (0..INDEXER.size).filter(|&i| tb.value_at(i).is_some()) {
        let pos = INDEXER.unrank(i);
        let mut f = Vec::new();
        tsubame::games::nana::nnue::active(&pos, tsubame::core::color::Color::Black, &mut f);
        f.sort_unstable();
        let result = match tb.value_at(i).unwrap() {
            TbValue::Win(_) => 1.0,
            TbValue::Draw => 0.5,
            TbValue::Loss(_) => 0.0,
        };
        by_features.insert(f, result);
    }
    for i in (0..loaded.train.len()).step_by(101) {
        let mut f = loaded.train.features(i).0.to_vec();
        f.sort_unstable();
        assert_eq!(by_features.get(&f), Some(&loaded.train.result[i]));
        assert_eq!(loaded.train.score_target[i], loaded.train.result[i]);
    }
    let _ = std::fs::remove_file(file);
}

/// Shards of `tsubame datagen` by seed merge into the same data whatever the order of the files,
/// and a shard given twice is read once.
#[test]
fn shards_merge_by_seed_and_number_in_any_order() {
    let shard = |seed: u64| {
        let file = temp(&format!("shard-{seed}.bin"));
        let _ = std::fs::remove_file(&file);
        let cfg = Config {
            games: 6,
            nodes: Some(300),
            depth: None,
            threads: 2,
            random_plies: 4,
            seed,
            max_plies: 120,
            hash_mib: 4,
            network: None,
        };
        run::<Minishogi>(&cfg, &file, false).unwrap();
        file
    };
    let (a, b) = (shard(11), shard(12));
    let copy = temp("shard-11-copy.bin");
    std::fs::copy(&a, &copy).unwrap();
    let read = |files: &[PathBuf]| {
        let mut seen = Vec::new();
        let report = data::read_games::<Minishogi>(files, 4, |held_out, r| {
            seen.push((held_out, r.score, r.ply, r.mv))
        })
        .unwrap();
        (seen, report)
    };
    let (ab, report) = read(&[a.clone(), b.clone()]);
    assert!(ab.len() > 12, "{} records", ab.len());
    assert_eq!(report.len(), 2);
    let (ba, _) = read(&[b.clone(), a.clone()]);
    assert_eq!(ab, ba);
    let (twice, report) = read(&[a.clone(), b.clone(), copy.clone()]);
    assert_eq!(twice, ab);
    assert_eq!(
        report.last().unwrap(),
        "6 games held by more than one file were read once"
    );
    for f in [a, b, copy] {
        let _ = std::fs::remove_file(f);
    }
}
