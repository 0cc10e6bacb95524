//! The trainer on a small data set that the test makes: the validation loss falls, the
//! quantised network matches the float one, and a checkpoint resumes the run.

use std::path::PathBuf;

use tsubame::commands::datagen::{Config, run};
use tsubame::core::color::Color;
use tsubame::core::game::Position;
use tsubame::games::GameId;
use tsubame::games::minishogi::{Mini, Minishogi};
use tsubame::games::shogi::nnue::Layout;
use tsubame::games::shogi::{Standard, Variant};
use tsubame::nnue::FeatureSet;
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
    let loaded =
        data::load::<Minishogi>(std::slice::from_ref(&file), 5, false, FeatureSet::Plain).unwrap();
    assert!(loaded.train.len() > 500, "{} positions", loaded.train.len());
    assert!(loaded.validation.len() > 50);
    // Mirroring adds each training position once more, mirrored; validation stays as recorded.
    let mirrored =
        data::load::<Minishogi>(std::slice::from_ref(&file), 5, true, FeatureSet::Plain).unwrap();
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

    let shape = Shape::of(GameId::Minishogi, FeatureSet::Plain, 16);
    let settings = Settings {
        epochs: 6,
        batch: 256,
        lr: 0.003,
        lr_decay: 0.9,
        lambda: 0.75,
        bucket_lr: 1.0,
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
    let q =
        Network::from_bytes(&bytes, Mini::NAME, Layout::<Mini>::feature_count, Some(16)).unwrap();
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
    let start = State::from_params(shape, net::dequantise(&q, shape, 1).unwrap()).unwrap();
    assert_eq!(net::quantise(&start.params, shape, "minishogi"), q);
    assert_eq!((start.epoch, start.step), (0, 0));
    let from_file = train::mean_loss(&start.params, shape, &loaded.validation, 0.75);
    let from_rounded = train::mean_loss(&rounded, shape, &loaded.validation, 0.75);
    assert!(
        (from_file - from_rounded).abs() < 1e-6,
        "{from_file} against {from_rounded}"
    );
    assert!(State::from_params(Shape { hidden: 8, ..shape }, start.params.clone()).is_none());

    // The trained plain network starts a king-bucket network of twice its width that computes
    // exactly what it computes on the board as each perspective sees it (mirrored where its
    // king stands right of the middle): every bucket's rows are the plain rows (through the
    // factoriser), the extra units have no say in the output.
    let kb = Shape::of(GameId::Minishogi, FeatureSet::KingBuckets, 32);
    let params = net::dequantise(&q, kb, 1).unwrap();
    let q_kb = net::quantise(&params, kb, Mini::NAME);
    let bytes = q_kb.to_bytes();
    let back = Network::from_bytes(&bytes, Mini::NAME, Layout::<Mini>::feature_count, None);
    assert_eq!(back.as_ref(), Ok(&q_kb));
    assert!(Network::from_bytes(&bytes, Mini::NAME, |_| Layout::<Mini>::FEATURES, None).is_err());
    let buckets = data::load::<Minishogi>(
        std::slice::from_ref(&file),
        5,
        false,
        FeatureSet::KingBuckets,
    )
    .unwrap();
    let mut held_out = Vec::new();
    data::read_games::<Minishogi>(std::slice::from_ref(&file), 5, |out, r| {
        if out {
            held_out.push(r.pos);
        }
    })
    .unwrap();
    assert_eq!(held_out.len(), loaded.validation.len());
    let (mut compared, mut mirrored) = (0, 0);
    for (i, pos) in held_out.iter().enumerate() {
        let stm = pos.side_to_move();
        let (us, them) = loaded.validation.features(i);
        let mut seen = |c: Color, plain: &[u16]| -> Vec<u16> {
            let mirror = Layout::<Mini>::king_bucket(pos, c).1;
            mirrored += mirror as usize;
            plain
                .iter()
                .map(|&f| {
                    if mirror {
                        Layout::<Mini>::mirrored(f as usize) as u16
                    } else {
                        f
                    }
                })
                .collect()
        };
        let (us, them) = (seen(stm, us), seen(!stm, them));
        let (kus, kthem) = buckets.validation.features(i);
        assert_eq!(q_kb.evaluate(kus, kthem), q.evaluate(&us, &them));
        compared += 1;
    }
    assert!(
        mirrored > 20 && mirrored < 2 * compared,
        "{mirrored} of {compared}"
    );
    assert!(compared > 20, "{compared} positions compared");
    assert!(net::dequantise(&q, Shape { hidden: 8, ..kb }, 1).is_none());

    // A king-region network started from the plain one computes exactly what it computes, on
    // the board as recorded: nothing is mirrored, so every region's rows are the plain rows.
    let kr = Shape::of(GameId::Minishogi, FeatureSet::KingRegions, 32);
    let q_kr = net::quantise(&net::dequantise(&q, kr, 1).unwrap(), kr, Mini::NAME);
    let regions = data::load::<Minishogi>(
        std::slice::from_ref(&file),
        5,
        false,
        FeatureSet::KingRegions,
    )
    .unwrap();
    let mut outside_region_0 = 0;
    for i in 0..loaded.validation.len() {
        let (us, them) = loaded.validation.features(i);
        let (rus, rthem) = regions.validation.features(i);
        outside_region_0 += (rus != us) as usize + (rthem != them) as usize;
        assert_eq!(q_kr.evaluate(rus, rthem), q.evaluate(us, them));
    }
    assert!(outside_region_0 > 20, "{outside_region_0}");

    // `bucket_lr` scales the own rows' steps: at 0 only the shared rows, biases and output
    // learn, and every region's own rows stay zero; at 1 the own rows move too.
    for bucket_lr in [0.0, 1.0] {
        let start = net::dequantise(&q, kr, 1).unwrap();
        let mut kr_state = State::from_params(kr, start.clone()).expect("a start");
        let kr_out = temp(&format!("out-kr-{bucket_lr}"));
        let settings = Settings {
            epochs: 1,
            bucket_lr,
            ..settings.clone()
        };
        train::run(
            &mut kr_state,
            &settings,
            &regions.train,
            &regions.validation,
            &kr_out,
            Mini::NAME,
            &|_| {},
        )
        .unwrap();
        let own = kr.features * kr.hidden;
        let moved = kr_state.params[..own].iter().filter(|&&w| w != 0.0).count();
        let shared = own..own + kr.factor * kr.hidden;
        assert_ne!(kr_state.params[shared.clone()], start[shared]);
        assert!(start[..own].iter().all(|&w| w == 0.0));
        if bucket_lr == 0.0 {
            assert_eq!(moved, 0);
        } else {
            assert!(moved > 1000, "{moved} own weights moved");
        }
        let _ = std::fs::remove_dir_all(kr_out);
    }
    let _ = std::fs::remove_file(file);
    let _ = std::fs::remove_dir_all(out);
}

/// The gradient of a network with a factoriser is the derivative of its loss: each parameter's
/// (own rows, shared rows, biases, output) against a finite difference.
#[test]
fn the_factorised_gradient_is_the_derivative_of_the_loss() {
    let shape = Shape {
        features: 6,
        hidden: 4,
        factor: 3,
        set: FeatureSet::KingBuckets,
    };
    let mut rng = tsubame::rng::Rng::new(11);
    // Values away from SCReLU's kinks at 0 and 1: accumulators within (0.1, 0.9).
    let mut p: Vec<f64> = (0..shape.params()).map(|_| rng.range(0.02..0.12)).collect();
    p[shape.out_bias()] = 0.1;
    for j in 0..2 * shape.hidden {
        p[shape.out_weights() + j] = rng.range(-1.0..1.0);
    }
    let feats: [&[u16]; 2] = [&[1, 5], &[3]];
    let target = 0.8f32;
    let loss = |p: &[f32]| {
        let mut s = Scratch::new(shape);
        let y = data::sigmoid(net::forward(p, shape, feats, &mut s));
        ((y - target) * (y - target)) as f64
    };
    let p32: Vec<f32> = p.iter().map(|&x| x as f32).collect();
    let mut s = Scratch::new(shape);
    let out = net::forward(&p32, shape, feats, &mut s);
    let mut grad = vec![0.0f32; shape.params()];
    net::backward(&p32, shape, feats, out, target, &s, &mut grad);
    let h = shape.hidden;
    // Rows of features 1, 3 and 5, and of the shared features 1 % 3 = 1, 3 % 3 = 0, 5 % 3 = 2.
    let mut touched = 0;
    for (k, &g) in grad.iter().enumerate() {
        let eps = 1e-3f32;
        let (mut up, mut down) = (p32.clone(), p32.clone());
        up[k] += eps;
        down[k] -= eps;
        let numeric = (loss(&up) - loss(&down)) / (2.0 * eps as f64);
        assert!(
            (numeric - g as f64).abs() < 1e-4 + 0.02 * numeric.abs(),
            "parameter {k}: gradient {g}, finite difference {numeric}"
        );
        touched += (g != 0.0) as usize;
    }
    // Own rows 1, 3, 5 and shared rows 0, 1, 2 each move the loss, the others do not.
    for f in [0, 2, 4] {
        assert!(grad[f * h..(f + 1) * h].iter().all(|&g| g == 0.0));
    }
    for r in [1, 3, 5, 6, 7, 8] {
        assert!(
            grad[r * h..(r + 1) * h].iter().any(|&g| g != 0.0),
            "row {r}"
        );
    }
    assert!(touched > 6 * h);
}

/// The shipped shogi network survives the trip to float parameters and back, so a run that
/// starts from it (`--init`, with its feature set and the trainer's factoriser for that set)
/// starts from exactly it.
#[test]
fn the_shipped_shogi_network_dequantises_exactly() {
    let bytes = include_bytes!("../../../src/games/shogi/shogi.nnue");
    let q = Network::from_bytes(
        bytes,
        Standard::NAME,
        Layout::<Standard>::feature_count,
        None,
    )
    .unwrap();
    let shape = Shape::of(GameId::Shogi, q.feature_set, q.hidden);
    let params = net::dequantise(&q, shape, 1).unwrap();
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
        tsubame::games::nana::nnue::active(&pos, Color::Black, &mut f);
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
