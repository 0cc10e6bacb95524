//! Strength levels (`SkillLevel`, `USI_LimitStrength`/`USI_Elo`): a lower level loses to a higher
//! one, every level finishes games with legal moves in every game, and the options are checked.
//!
//! Games here are played in-process with one thread and fixed seeds, and a level's search is
//! limited by its nodes, never by time: the outcome is the same on any machine.

mod common;

use std::io::Write;

use tsubame::core::color::Color;
use tsubame::core::game::Position;
use tsubame::core::repetition::HistoryEntry;
use tsubame::core::rules::{Outcome, RuleOptions};
use tsubame::games::Game;
use tsubame::games::giveandtake::GiveAndTake;
use tsubame::games::minishogi::Minishogi;
use tsubame::games::nana::Nana;
use tsubame::games::shogi::Shogi;
use tsubame::search::skill::Skill;
use tsubame::search::tt::TranspositionTable;
use tsubame::search::{self, Limits, SearchSetup, Shared};

/// Plies after which a test game is called a draw.
const MAX_PLIES: usize = 400;

/// Plays one game from the start position, Black at `levels[0]` and White at `levels[1]`, the
/// choices drawn from `seed`; returns Black's outcome and whether the rules ended the game (rather
/// than [`MAX_PLIES`]). Every move played is checked to be legal.
fn play<G: Game>(levels: [f64; 2], seed: u64) -> (Outcome, bool) {
    let rules = RuleOptions::<G::Rules>::default();
    let mut pos = G::startpos();
    let mut history = vec![HistoryEntry {
        key: pos.key(),
        in_check: pos.in_check(),
    }];
    let tables = [TranspositionTable::new(4), TranspositionTable::new(4)];
    let network = G::ID.embedded_network();
    loop {
        let side = pos.side_to_move();
        let for_black = |o: Outcome| if side == Color::Black { o } else { o.flip() };
        if pos.can_declare(&rules) {
            return (for_black(Outcome::Win), true);
        }
        if let Some(v) = pos.verdict(&history, &rules) {
            return (for_black(v.outcome), true);
        }
        if history.len() > MAX_PLIES {
            return (Outcome::Draw, false);
        }
        let shared = Shared::default();
        let report = |_: &search::Report<G::Move>| {};
        let setup = SearchSetup {
            history: &history,
            rules,
            limits: Limits {
                multipv: 1,
                ..Limits::default()
            },
            threads: 1,
            pruning: true,
            tt: &tables[side.index()],
            shared: &shared,
            report: &report,
            nnue: network.as_deref(),
            histories: None,
            params: G::default_params(),
            skill: Some(Skill::new(
                levels[side.index()],
                seed.wrapping_mul(1000).wrapping_add(history.len() as u64),
            )),
        };
        let result = search::with_search_stack(|| search::run(&pos, &setup));
        let mv = result.best.expect("a position that is not over has a move");
        assert!(pos.is_legal(mv), "{}: illegal {mv:?}", pos.to_sfen());
        assert!(
            result.nodes <= 20 * Skill::new(levels[side.index()], 0).nodes() + 20_000,
            "{} nodes at level {}",
            result.nodes,
            levels[side.index()]
        );
        pos.play(mv);
        history.push(HistoryEntry {
            key: pos.key(),
            in_check: pos.in_check(),
        });
    }
}

/// Points of the level `strong` in `pairs` game pairs of `G` against `weak` (colours swapped
/// within each pair), and how many games the rules ended.
fn points<G: Game>(weak: f64, strong: f64, pairs: u64) -> (f64, usize) {
    let (mut points, mut ended) = (0.0, 0);
    for seed in 0..pairs {
        for strong_black in [true, false] {
            let levels = if strong_black {
                [strong, weak]
            } else {
                [weak, strong]
            };
            let (outcome, by_rule) = play::<G>(levels, seed);
            let for_strong = if strong_black {
                outcome
            } else {
                outcome.flip()
            };
            points += match for_strong {
                Outcome::Win => 1.0,
                Outcome::Draw => 0.5,
                Outcome::Loss => 0.0,
            };
            ended += by_rule as usize;
        }
    }
    (points, ended)
}

#[test]
fn a_higher_level_beats_a_lower_one_in_minishogi() {
    let (won, ended) = points::<Minishogi>(0.0, 12.0, 5);
    assert!(won >= 8.0, "level 12 scored {won} of 10 against level 0");
    assert_eq!(ended, 10, "every game ends by the rules");
}

#[test]
fn the_lowest_level_finishes_games_in_every_game() {
    let (_, ended) = points::<Shogi>(0.0, 4.0, 1);
    assert_eq!(ended, 2, "shogi");
    let (_, ended) = points::<Minishogi>(0.0, 0.0, 1);
    assert_eq!(ended, 2, "minishogi");
    let (_, ended) = points::<Nana>(0.0, 0.0, 1);
    assert_eq!(ended, 2, "nana shogi");
    let (_, ended) = points::<GiveAndTake>(0.0, 8.0, 1);
    assert_eq!(ended, 2, "give and take");
}

/// Sends `commands` (ending with a `go`) to the engine, waits for its `bestmove`, sends `quit`,
/// and returns every line it printed.
fn conversation(commands: &str) -> Vec<String> {
    let (mut child, mut stdin, rx) = common::start_engine_lines();
    writeln!(stdin, "{commands}").unwrap();
    let mut lines = Vec::new();
    while let Ok(line) = rx.recv_timeout(std::time::Duration::from_secs(120)) {
        let done = line.starts_with("bestmove ");
        lines.push(line);
        if done {
            break;
        }
    }
    writeln!(stdin, "quit").unwrap();
    child.wait().unwrap();
    lines
}

#[test]
fn the_options_are_declared_checked_and_obeyed() {
    let lines = conversation(
        "usi\nsetoption name SkillLevel value 21\nsetoption name USI_Elo value 1\n\
         setoption name USI_LimitStrength value maybe\n\
         setoption name SkillLevel value 0\nisready\nposition startpos\ngo nodes 5000000",
    );
    for declared in [
        "option name SkillLevel type spin default 20 min 0 max 20",
        "option name USI_LimitStrength type check default false",
    ] {
        assert!(lines.iter().any(|l| l == declared), "{declared}");
    }
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("option name USI_Elo type spin default "))
    );
    let errors: Vec<_> = lines
        .iter()
        .filter(|l| l.starts_with("info string error:"))
        .collect();
    assert_eq!(errors.len(), 3, "{errors:?}");
    assert!(errors[0].contains("SkillLevel 21 is out of range 0..20"));
    // Level 0 ends its search after its first iterations, far below the go's node limit.
    let nodes: u64 = lines
        .iter()
        .rev()
        .find_map(|l| {
            let words: Vec<&str> = l.split_whitespace().collect();
            let i = words.iter().position(|w| *w == "nodes")?;
            l.starts_with("info depth")
                .then(|| words[i + 1].parse().ok())?
        })
        .expect("an info line");
    assert!(nodes < 20_000, "{nodes} nodes at level 0");
    let best = lines.iter().find(|l| l.starts_with("bestmove ")).unwrap();
    let mv = best.split_whitespace().nth(1).unwrap();
    let start = Shogi::startpos();
    assert!(start.parse_move(mv).is_ok(), "{best}");
}

#[test]
fn limit_strength_uses_the_elo_and_plays_a_legal_move() {
    let (low, high) = tsubame::engine::options::elo_range();
    let lines = conversation(&format!(
        "setoption name USI_LimitStrength value true\nsetoption name USI_Elo value {}\n\
         isready\nposition startpos moves 7g7f\ngo nodes 5000000",
        (low + high) / 2
    ));
    assert!(
        !lines.iter().any(|l| l.starts_with("info string error")),
        "{lines:?}"
    );
    let best = lines.iter().find(|l| l.starts_with("bestmove ")).unwrap();
    let mut pos = Shogi::startpos();
    pos.play(pos.parse_move("7g7f").unwrap());
    let mv = best.split_whitespace().nth(1).unwrap();
    assert!(pos.parse_move(mv).is_ok(), "{best}");
    let searched: u64 = lines
        .iter()
        .filter_map(|l| {
            let words: Vec<&str> = l.split_whitespace().collect();
            let i = words.iter().position(|w| *w == "nodes")?;
            words[i + 1].parse().ok()
        })
        .max()
        .unwrap();
    assert!(searched < 1_000_000, "{searched} nodes at the middle Elo");
}
