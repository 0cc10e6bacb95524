//! The search parameters and Give and Take's weights as USI options (issue #27): declared only
//! with `Tuning` on, range-checked, changing the search, and held by each engine (nothing set in
//! one engine reaches another search of the same process).

use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use tsubame::core::game::Position;
use tsubame::core::search_params::TUNABLES;
use tsubame::engine::options::{Options, SetResult};
use tsubame::games::GameId;
use tsubame::games::giveandtake::GiveAndTake;
use tsubame::games::shogi::Shogi;
use tsubame::search::tt::TranspositionTable;
use tsubame::search::{self, Limits, SearchGame, SearchParams, SearchSetup, Shared};
use tsubame::usi::{Output, Usi as Engine};

/// A hang guard only: every search here is limited by depth.
const WAIT: Duration = Duration::from_secs(120);

/// An engine in this process, writing into a buffer.
struct Tester {
    engine: Engine,
    buf: Arc<Mutex<Vec<u8>>>,
}

impl Tester {
    fn new() -> Tester {
        let (out, buf) = Output::memory();
        Tester {
            engine: Engine::new(out),
            buf,
        }
    }

    fn len(&self) -> usize {
        self.buf.lock().unwrap().len()
    }

    fn since(&self, from: usize) -> String {
        String::from_utf8_lossy(&self.buf.lock().unwrap()[from..]).into_owned()
    }

    /// The engine's answer to the lines `text`, when it answers at once.
    fn ask(&mut self, text: &str) -> String {
        let from = self.len();
        for line in text.lines() {
            assert!(self.engine.handle(line));
        }
        self.since(from)
    }

    /// The output of `go …` up to its `bestmove`.
    fn go(&mut self, go: &str) -> String {
        let from = self.len();
        assert!(self.engine.handle(go));
        let deadline = Instant::now() + WAIT;
        loop {
            let text = self.since(from);
            if text.contains("bestmove") {
                return text;
            }
            assert!(Instant::now() < deadline, "no bestmove: {text}");
            std::thread::sleep(Duration::from_millis(5));
        }
    }
}

/// The score of the last `info … score cp N` line of `text`.
fn last_cp(text: &str) -> i32 {
    let line = text
        .lines()
        .rfind(|l| l.contains(" score cp "))
        .unwrap_or_else(|| panic!("no score in {text}"));
    let after = line.split(" score cp ").nth(1).unwrap();
    after.split_whitespace().next().unwrap().parse().unwrap()
}

#[test]
fn parameters_are_declared_only_with_tuning_on() {
    let mut t = Tester::new();
    let plain = t.ask("usi");
    assert!(
        plain.contains("option name Tuning type check default false"),
        "{plain}"
    );
    for p in TUNABLES {
        assert!(
            !plain.contains(&format!("option name {} ", p.name)),
            "{plain}"
        );
    }
    assert_eq!(t.ask("setoption name Tuning value true"), "");
    let tuned = t.ask("usi");
    assert!(tuned.contains("option name RfpMargin type spin default 90 min 10 max 400"));
    for p in TUNABLES {
        let prefix = format!("option name {} type spin default ", p.name);
        assert_eq!(tuned.matches(&prefix).count(), 1, "{}: {tuned}", p.name);
    }
    assert!(tuned.ends_with("usiok\n"), "{tuned}");
}

#[test]
fn bad_values_are_refused_and_leave_the_parameter_as_it_was() {
    let mut t = Tester::new();
    for bad in ["9", "401", "-5", "x", ""] {
        let answer = t.ask(&format!("setoption name RfpMargin value {bad}"));
        assert!(answer.starts_with("info string error: "), "{bad}: {answer}");
    }
    assert_eq!(t.ask("setoption name rfpmargin value 400"), "");
    let mut o = Options::default();
    for bad in ["9", "401", "1.5"] {
        assert!(o.set("RfpMargin", bad).is_err(), "{bad}");
    }
    assert_eq!(o, Options::default());
    assert_eq!(o.set("RfpMargin", "120"), Ok(SetResult::Set));
    assert_eq!(o.search_params(GameId::Shogi).rfp_margin, 120);
    // The override outlives a change of game: it applies to the game being played.
    assert_eq!(o.search_params(GameId::Minishogi).rfp_margin, 120);
    assert_eq!(
        o.search_params(GameId::GiveAndTake),
        SearchParams {
            rfp_margin: 120,
            ..GiveAndTake::default_params()
        }
    );
}

/// Nodes of a depth-6 search of shogi's start position under `params`, with fresh tables.
fn nodes(params: SearchParams) -> u64 {
    let pos = Shogi::startpos();
    let history = [];
    let tt = TranspositionTable::new(16);
    let shared = Shared::default();
    let setup = SearchSetup {
        history: &history,
        rules: Default::default(),
        limits: Limits {
            depth: Some(6),
            multipv: 1,
            ..Limits::default()
        },
        threads: 1,
        pruning: true,
        tt: &tt,
        shared: &shared,
        report: &|_: &search::Report| {},
        nnue: None,
        histories: None,
        params,
        skill: None,
    };
    search::with_search_stack(|| search::run(&pos, &setup)).nodes
}

#[test]
fn a_parameter_set_as_an_option_changes_the_search_and_its_default_restores_it() {
    let mut o = Options::default();
    let default = nodes(o.search_params(GameId::Shogi));
    assert_eq!(o.search_params(GameId::Shogi), Shogi::default_params());
    o.set("RfpMargin", "20").unwrap();
    let changed = nodes(o.search_params(GameId::Shogi));
    assert_ne!(
        changed, default,
        "a smaller reverse-futility margin prunes differently"
    );
    o.set("RfpMargin", "90").unwrap();
    assert_eq!(nodes(o.search_params(GameId::Shogi)), default);
    o.set("LmrBase", "150").unwrap();
    assert_ne!(
        nodes(o.search_params(GameId::Shogi)),
        default,
        "the reduction table follows the parameters"
    );
}

/// A Give and Take position where White has a king more than Black.
const GT_POSITION: &str = "7m/4M3/2m5/3K4/8/2M5/8/8 w - 5";

#[test]
fn give_and_take_weights_belong_to_the_engine_that_set_them() {
    let pos = GiveAndTake::from_fen(GT_POSITION).unwrap();
    let defaults = GiveAndTake::default_params();
    let mut o = Options::default();
    o.set("GiveAndTakeWeights", "68,900,16,4,0,49,10").unwrap();
    let heavy_kings = o.search_params(GameId::GiveAndTake);
    assert_eq!(
        pos.evaluate(&heavy_kings) - pos.evaluate(&defaults),
        900 - 315,
        "one king more, weighed 585 more"
    );

    let mut a = Tester::new();
    let mut b = Tester::new();
    let setup =
        format!("setoption name USI_Variant value giveandtake\nposition sfen {GT_POSITION}");
    a.ask(&setup);
    b.ask(&setup);
    let before = last_cp(&b.go("go depth 1"));
    a.ask("setoption name GiveAndTakeWeights value 68,900,16,4,0,49,10");
    let tuned = last_cp(&a.go("go depth 1"));
    assert_ne!(tuned, before, "the weights change the engine's evaluation");
    // Neither the other engine nor a search outside any engine sees them.
    let tt = TranspositionTable::new(1);
    let limits = Limits {
        depth: Some(1),
        multipv: 1,
        ..Limits::default()
    };
    let alone = search::search_position_with(&pos, limits, 1, &tt, &Shared::default(), None);
    assert_eq!(alone.score, before);
    assert_eq!(last_cp(&b.go("go depth 1")), before);
}

/// `tsubame --tuning` declares the parameters at the first `usi`, for tuners that read the
/// options once (shogiarena); with a subcommand the flag is refused.
#[test]
fn the_tuning_flag_declares_the_parameters_from_the_start() {
    use std::io::Write;
    use std::process::{Command, Stdio};
    let exe = env!("CARGO_BIN_EXE_tsubame");
    let run = |flag: &[&str]| {
        let mut child = Command::new(exe)
            .args(flag)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        child
            .stdin
            .take()
            .unwrap()
            .write_all(b"usi\nquit\n")
            .unwrap();
        let out = child.wait_with_output().unwrap();
        assert!(out.status.success());
        String::from_utf8(out.stdout).unwrap()
    };
    let tuned = run(&["--tuning"]);
    assert!(tuned.contains("option name Tuning type check default false"));
    for p in TUNABLES {
        let prefix = format!("option name {} type spin default ", p.name);
        assert_eq!(tuned.matches(&prefix).count(), 1, "{}: {tuned}", p.name);
    }
    assert!(tuned.trim_end().ends_with("usiok"), "{tuned}");
    let plain = run(&[]);
    assert!(!plain.contains("option name RfpMargin "), "{plain}");
    let refused = Command::new(exe)
        .args(["--tuning", "perft", "1"])
        .output()
        .unwrap();
    assert!(!refused.status.success());
}

/// `usi_tunables` answers shogiarena's manifest request: one JSON line naming every parameter
/// with the game's default, range and final perturbation, then `usi_tunablesok`.
#[test]
fn usi_tunables_answers_with_the_manifest_of_the_game_played() {
    let mut t = Tester::new();
    let mut announced = Vec::new();
    for (game, id) in [("shogi", GameId::Shogi), ("minishogi", GameId::Minishogi)] {
        t.ask(&format!("setoption name USI_Variant value {game}"));
        let answer = t.ask("usi_tunables");
        let lines: Vec<&str> = answer.lines().collect();
        assert_eq!(lines.len(), 2, "{answer}");
        assert_eq!(lines[1], "usi_tunablesok");
        let json = lines[0]
            .strip_prefix("info string shogiarena_tunables_json ")
            .unwrap_or_else(|| panic!("{answer}"));
        let manifest: serde_json::Value = serde_json::from_str(json).unwrap();
        assert_eq!(manifest["schema_version"], "shogiarena.usi_tunables.v1");
        let tunables = manifest["tunables"].as_array().unwrap();
        assert_eq!(tunables.len(), TUNABLES.len());
        let defaults = id.default_params();
        for (entry, p) in tunables.iter().zip(TUNABLES) {
            assert_eq!(entry["id"], p.name);
            assert_eq!(entry["option"], p.name);
            assert_eq!(entry["value_type"], "int");
            assert_eq!(entry["default"], (p.get)(&defaults));
            assert_eq!(
                (entry["min"].clone(), entry["max"].clone()),
                (p.min.into(), p.max.into())
            );
            assert_eq!(entry["schedule"]["c_end"], p.step);
        }
        announced.push(tunables.clone());
    }
    // Minishogi has its own tuned set, so the manifest follows the game played.
    assert_ne!(announced[0], announced[1]);
    assert!(t.ask("usi_tunables now").starts_with("info string error: "));
}

/// The shogiarena space file of tools/spsa is what `tsubame tune-params --format shogiarena`
/// writes today: a parameter added, removed or given another range shows up here.
#[test]
fn the_spsa_space_file_matches_the_parameters() {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_tsubame"))
        .args([
            "tune-params",
            "--variant",
            "shogi",
            "--format",
            "shogiarena",
        ])
        .output()
        .unwrap();
    assert!(out.status.success());
    let written = String::from_utf8(out.stdout).unwrap();
    let file = concat!(env!("CARGO_MANIFEST_DIR"), "/tools/spsa/space-shogi.yaml");
    let kept = std::fs::read_to_string(file).unwrap();
    assert_eq!(
        kept, written,
        "regenerate it: tsubame tune-params --variant shogi --format shogiarena > tools/spsa/space-shogi.yaml"
    );
    assert_eq!(written.matches("  - id: ").count(), TUNABLES.len());
    for p in TUNABLES {
        assert!(written.contains(&format!(
            "  - id: {}\n    target: {{option: {}}}\n",
            p.name, p.name
        )));
    }
}
