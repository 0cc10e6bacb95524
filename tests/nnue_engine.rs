//! The learned evaluation in the engine: `EvalFile` loads a network for the game its header
//! names and refuses anything else, and a search with a network evaluates through the
//! incrementally updated accumulators exactly as a refresh would.

use tsubame::core::color::Color;
use tsubame::core::game::Position;
use tsubame::core::moves::{Move, MoveList};
use tsubame::games::GameId;
use tsubame::games::minishogi::{Mini, Minishogi};
use tsubame::games::nana::tablebase::index::INDEXER;
use tsubame::games::nana::tablebase::{TbValue, build};
use tsubame::games::networks::Networks;
use tsubame::games::shogi::Standard;
use tsubame::games::shogi::Variant;
use tsubame::games::shogi::nnue::Layout;
use tsubame::games::shogi::position::Board;
use tsubame::nnue::FeatureSet;
use tsubame::nnue::network::Network;
use tsubame::rng::Rng;
use tsubame::search::tt::TranspositionTable;
use tsubame::search::{self, HistoryPool, Limits, SearchGame, SearchSetup, Shared};

/// A minishogi network with weights from a fixed pseudo-random sequence.
fn network() -> Network {
    let mut rng = Rng::new(0x1234_5678);
    let mut next = |m: i16| rng.range(-m..=m);
    let (f, h) = (Layout::<Mini>::FEATURES, 32);
    Network {
        game: "minishogi".into(),
        feature_set: FeatureSet::Plain,
        features: f,
        hidden: h,
        ft_weights: (0..f * h).map(|_| next(60)).collect(),
        ft_bias: (0..h).map(|_| next(100) + 100).collect(),
        out_weights: (0..2 * h).map(|_| next(60)).collect(),
        out_bias: 0,
    }
}

fn temp(name: &str) -> std::path::PathBuf {
    std::env::temp_dir().join(format!("tsubame-nnue-{}-{name}", std::process::id()))
}

#[test]
fn eval_file_loads_networks_and_refuses_the_rest() {
    let good = temp("good.nnue");
    std::fs::write(&good, network().to_bytes()).unwrap();
    let mut nets = Networks::default();
    let (game, _) = nets.load_file(good.to_str().unwrap()).unwrap();
    assert_eq!(game, GameId::Minishogi);
    assert_eq!(nets.get(GameId::Minishogi).as_deref(), Some(&network()));
    assert_eq!(nets.get(GameId::Shogi), GameId::Shogi.embedded_network());
    let mut damaged = network().to_bytes();
    damaged[100] ^= 4;
    let bad = temp("bad.nnue");
    std::fs::write(&bad, &damaged).unwrap();
    assert!(
        nets.load_file(bad.to_str().unwrap())
            .unwrap_err()
            .contains("damaged")
    );
    std::fs::write(&bad, b"hello").unwrap();
    assert!(nets.load_file(bad.to_str().unwrap()).is_err());
    assert!(nets.load_file("/no/such/file.nnue").is_err());
    // The network loaded first is still there.
    assert_eq!(nets.get(GameId::Minishogi).as_deref(), Some(&network()));
    let _ = std::fs::remove_file(good);
    let _ = std::fs::remove_file(bad);
}

/// A search with a network evaluates with it (another score than the hand-written evaluation
/// gives) and still answers a legal move; that the search's incremental accumulators equal a
/// refresh is tested move by move in `src/games/shogi/nnue.rs`.
#[test]
fn a_search_with_a_network_uses_it() {
    let net = network();
    for sfen in [
        "rbsgk/4p/5/P4/KGSBR b - 1",
        "rbsgk/5/4p/P4/KGSBR w - 2",
        "2sgk/r3p/5/P1B2/KGS1R w b 4",
    ] {
        let pos = Minishogi::from_sfen(sfen).unwrap();
        let mut list = MoveList::<Move>::new();
        pos.legal_moves(&mut list);
        let tt = TranspositionTable::new(1);
        let shared = Shared::default();
        let report = |_: &search::Report| {};
        let history = [];
        let setup = SearchSetup {
            history: &history,
            rules: Default::default(),
            limits: Limits {
                depth: Some(3),
                multipv: 1,
                ..Limits::default()
            },
            threads: 1,
            pruning: false,
            tt: &tt,
            shared: &shared,
            report: &report,
            nnue: Some(&net),
            histories: None,
            params: Minishogi::default_params(),
            skill: None,
        };
        let result = search::with_search_stack(|| search::run(&pos, &setup));
        assert!(list.contains(&result.best.unwrap()), "{sfen}");
        let fresh = TranspositionTable::new(1);
        let classic = SearchSetup {
            nnue: None,
            histories: None,
            tt: &fresh,
            ..setup
        };
        let plain = search::with_search_stack(|| search::run(&pos, &classic));
        assert_ne!(
            (plain.score, plain.best),
            (result.score, result.best),
            "{sfen}"
        );
    }
}

/// A one-thread search of `pos` with `net` under `limits`, with a fresh 4 MiB table and the
/// history pool `histories` if given.
fn search_with<G: SearchGame>(
    pos: &G,
    net: &Network,
    limits: Limits<G::Move>,
    histories: Option<&HistoryPool>,
) -> search::SearchResult<G::Move> {
    let tt = TranspositionTable::new(4);
    let shared = Shared::default();
    let report = |_: &search::Report<G::Move>| {};
    let setup = SearchSetup {
        history: &[],
        rules: Default::default(),
        limits,
        threads: 1,
        pruning: true,
        tt: &tt,
        shared: &shared,
        report: &report,
        nnue: Some(net),
        histories,
        params: G::default_params(),
        skill: None,
    };
    search::with_search_stack(|| search::run(pos, &setup))
}

/// A plain network of game `V` whose weights are symmetric left to right (a feature's row is
/// its mirror image's), the king-bucket network whose every bucket holds its rows, and the
/// king-region network whose every region does: the three evaluate every position alike,
/// mirrored or not.
fn symmetric_trio<V: Variant>(seed: u64) -> (Network, Network, Network) {
    let mut rng = Rng::new(seed);
    let (f, h) = (Layout::<V>::FEATURES, 32);
    let mut rows: Vec<Vec<i16>> = (0..f)
        .map(|_| (0..h).map(|_| rng.range(-60..=60)).collect())
        .collect();
    for i in 0..f {
        let m = Layout::<V>::mirrored(i);
        if m < i {
            rows[i] = rows[m].clone();
        }
    }
    let plain = Network {
        game: V::NAME.into(),
        feature_set: FeatureSet::Plain,
        features: f,
        hidden: h,
        ft_weights: rows.iter().flatten().copied().collect(),
        ft_bias: (0..h).map(|_| rng.range(0..=200)).collect(),
        out_weights: (0..2 * h).map(|_| rng.range(-60..=60)).collect(),
        out_bias: 0,
    };
    // The network of `set` whose `copies` buckets or regions each hold the plain rows.
    let copied = |set: FeatureSet, copies: usize| Network {
        feature_set: set,
        features: copies * f,
        ft_weights: (0..copies)
            .flat_map(|_| rows.iter().flatten().copied())
            .collect(),
        ..plain.clone()
    };
    let buckets = copied(FeatureSet::KingBuckets, Layout::<V>::BUCKETS);
    let regions = copied(FeatureSet::KingRegions, Layout::<V>::REGIONS);
    (plain, buckets, regions)
}

/// A search with a king-bucket or king-region network walks the same tree as with the plain
/// network it equals: its accumulators, brought up to date per perspective and refreshed
/// through the cache when a king changes bucket or region, evaluate every node as the plain
/// ones do (one wrong value would change the nodes searched). The positions have kings that
/// move between buckets and regions.
#[test]
fn a_search_with_king_buckets_or_regions_evaluates_as_a_refresh_would() {
    fn check<G: SearchGame>(plain: &Network, others: &[Network], sfens: &[&str]) {
        for sfen in sfens {
            let pos = G::from_sfen(sfen).unwrap();
            let run = |net: &Network| {
                let limits = Limits::<G::Move> {
                    depth: Some(6),
                    multipv: 1,
                    ..Limits::default()
                };
                let r = search_with(&pos, net, limits, None);
                (r.score, r.best, r.nodes)
            };
            let a = run(plain);
            assert!(a.2 > 1000, "{sfen}: {} nodes", a.2);
            for other in others {
                assert_eq!(a, run(other), "{sfen}, {}", other.feature_set);
            }
        }
    }
    let (plain, buckets, regions) = symmetric_trio::<Mini>(3);
    check::<Minishogi>(
        &plain,
        &[buckets, regions],
        &[
            "rbsgk/4p/5/P4/KGSBR b - 1",
            "2k2/5/5/5/2K2 b RBGSPrbgsp 1",
            "4k/1s3/2K2/5/5 b RBGPrbgsp 1",
        ],
    );
    let (plain, buckets, regions) = symmetric_trio::<Standard>(4);
    check::<tsubame::games::shogi::Shogi>(
        &plain,
        &[buckets, regions],
        &[
            "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1",
            "4k4/9/9/9/9/9/9/9/4K4 b RBGSNLPrbgsnlp 1",
        ],
    );
}

/// A search handed another search's buffers by the pool (move pickers and accumulators, kept
/// across games) walks the same tree as a search with fresh ones: nothing left in them is read
/// before the search writes it. Checked with a plain network and the embedded shogi network, a
/// king-region one (whose refreshes go through the accumulator cache).
#[test]
fn a_search_with_reused_buffers_walks_the_same_tree() {
    type G = tsubame::games::shogi::Shogi;
    let search = |net: &Network, pool: &HistoryPool, sfen: &str| {
        let limits = Limits::<Move> {
            nodes: Some(60_000),
            multipv: 1,
            ..Limits::default()
        };
        let r = search_with(&G::from_sfen(sfen).unwrap(), net, limits, Some(pool));
        (r.score, r.best, r.ponder, r.depth, r.nodes)
    };
    let embedded = Networks::default().get(GameId::Shogi).unwrap();
    let (plain, _, _) = symmetric_trio::<Standard>(5);
    let (first, second) = (
        "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1",
        "ln1g3nl/1r1sk1gb1/p1pppp1pp/1p4p2/9/2P4P1/PPBPPPP1P/2G1K2R1/LNS2GSNL b s 15",
    );
    for net in [&plain, &*embedded] {
        let fresh = search(net, &HistoryPool::default(), second);
        let pool = HistoryPool::default();
        search(net, &pool, first);
        pool.clear();
        assert_eq!(search(net, &pool, second), fresh, "{}", net.feature_set);
    }
}

/// Checks that `net` scores the start position `start` near zero and a position with the
/// opponent's rook missing (`up`), or the mover's (`down`), by more than 300 cp either way.
fn knows_material<V: Variant>(net: &Network, start: &str, up: &str, down: &str) {
    let eval = |sfen: &str| {
        let pos = Board::<V>::from_sfen(sfen).unwrap();
        let (mut us, mut them) = (Vec::new(), Vec::new());
        let stm = pos.side_to_move();
        Layout::<V>::active(&pos, net.feature_set, stm, &mut us);
        Layout::<V>::active(&pos, net.feature_set, !stm, &mut them);
        net.evaluate(&us, &them)
    };
    let (start, up, down) = (eval(start), eval(up), eval(down));
    assert!(start.abs() < 300, "start position {start} cp");
    assert!(
        up > start + 300 && down < start - 300,
        "{down} < {start} < {up}"
    );
}

/// The network built into the binary loads, judges material as a player would, and is what
/// `Networks` goes back to after another file was loaded.
#[test]
fn the_embedded_minishogi_network_loads_and_knows_material() {
    let mut nets = Networks::default();
    let embedded = nets
        .get(GameId::Minishogi)
        .expect("a minishogi network is embedded");
    assert_eq!(embedded.features, Layout::<Mini>::FEATURES);
    // Black to move: the start, White's rook missing, Black's rook missing.
    knows_material::<Mini>(
        &embedded,
        "rbsgk/4p/5/P4/KGSBR b - 1",
        "1bsgk/4p/5/P4/KGSBR b - 1",
        "rbsgk/4p/5/P4/KGSB1 b - 1",
    );

    let other = temp("other.nnue");
    std::fs::write(&other, network().to_bytes()).unwrap();
    nets.load_file(other.to_str().unwrap()).unwrap();
    assert_eq!(nets.get(GameId::Minishogi).as_deref(), Some(&network()));
    nets.reset();
    assert_eq!(nets.get(GameId::Minishogi), Some(embedded));
    let _ = std::fs::remove_file(other);
}

/// The shogi network built into the binary, a king-region one, loads and judges material as a
/// player would.
#[test]
fn the_embedded_shogi_network_loads_and_knows_material() {
    let nets = Networks::default();
    let embedded = nets
        .get(GameId::Shogi)
        .expect("a shogi network is embedded");
    assert_eq!(embedded.feature_set, FeatureSet::KingRegions);
    assert_eq!(
        embedded.features,
        Layout::<Standard>::feature_count(FeatureSet::KingRegions)
    );
    knows_material::<Standard>(
        &embedded,
        "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1",
        "lnsgkgsnl/7b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1",
        "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B7/LNSGKGSNL b - 1",
    );
}

/// The nana shogi network built into the binary, trained on the solved table, tells won from lost
/// positions: on the positions of one material class (one cube of each kind in play, solved
/// here in seconds) its sign agrees with the table's value for most of the decided positions.
#[test]
fn the_embedded_nana_network_knows_the_table() {
    let nets = Networks::default();
    let net = nets
        .get(GameId::Nanashogi)
        .expect("a nana network is embedded");
    assert_eq!(net.features, tsubame::games::nana::nnue::FEATURES);
    let tb = build(Some((1, 1)), false);
    let (mut decided, mut agree) = (0u32, 0u32);
    for idx in (0..INDEXER.size).step_by(97) {
        let won = match tb.value_at(idx) {
            Some(TbValue::Win(_)) => true,
            Some(TbValue::Loss(_)) => false,
            _ => continue,
        };
        let pos = INDEXER.unrank(idx);
        let (mut us, mut them) = (Vec::new(), Vec::new());
        tsubame::games::nana::nnue::active(&pos, Color::Black, &mut us);
        tsubame::games::nana::nnue::active(&pos, Color::White, &mut them);
        decided += 1;
        agree += ((net.evaluate(&us, &them) > 0) == won) as u32;
    }
    assert!(decided > 500, "{decided} positions");
    let share = agree as f64 / decided as f64;
    assert!(share > 0.8, "{agree} of {decided}");
}
