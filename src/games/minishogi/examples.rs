//! Minishogi's example positions: the minishogi article's games and a few of its mates, read from
//! the test data they are checked against (`engine-tests/data/minishogi-games.tsv`,
//! `engine-tests/data/tsume-minishogi.tsv`), built into the binary so that the page and the tests
//! share one source.

use crate::games::info::{Example, ExampleKind, ExampleResult};

/// The minishogi article's games: `game`, `start_sfen`, `moves`, `final_sfen` (tab-separated, a
/// header line first).
const GAMES_TSV: &str = include_str!("../../../engine-tests/data/minishogi-games.tsv");
/// Minishogi mates: `sfen`, `plies`, `convention`, `mating_first_moves`, `source`.
const MATES_TSV: &str = include_str!("../../../engine-tests/data/tsume-minishogi.tsv");
/// How many mates of each length are offered (the tsv's first ones, shortest first).
const MATES_PER_LENGTH: usize = 2;

/// The data rows of a tsv: the header line and blank lines left out, each split at tabs.
fn rows(tsv: &str) -> impl Iterator<Item = Vec<&str>> {
    tsv.lines()
        .skip(1)
        .filter(|l| !l.trim().is_empty())
        .map(|l| l.split('\t').collect())
}

/// The examples: the article's games, then its mates (a few of each length, shortest first).
pub fn examples() -> Vec<Example> {
    let mut all: Vec<Example> = rows(GAMES_TSV)
        .filter(|r| r.len() >= 3)
        .map(|r| Example {
            label: r[0].to_string(),
            kind: ExampleKind::Game,
            sfen: Some(r[1].to_string()),
            moves: r[2].split_whitespace().map(str::to_string).collect(),
            plies: None,
            exact: false,
            // The label ends with the game's score (`… (GP 94) 0-1`).
            result: r[0].rsplit(' ').next().and_then(ExampleResult::from_score),
        })
        .collect();
    let mut mates: Vec<(u32, &str)> = rows(MATES_TSV)
        .filter(|r| r.len() >= 2)
        .filter_map(|r| Some((r[1].parse().ok()?, r[0])))
        .collect();
    mates.sort_by_key(|&(plies, _)| plies);
    let mut offered: Vec<u32> = Vec::new();
    for (plies, sfen) in mates {
        let same = offered.iter().filter(|&&p| p == plies).count();
        if same < MATES_PER_LENGTH {
            offered.push(plies);
            all.push(Example {
                plies: Some(plies),
                ..Example::position(
                    &format!("minishogi mate in {plies} #{}", same + 1),
                    ExampleKind::Mate,
                    Some(sfen),
                )
            });
        }
    }
    all
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::game::Position;
    use crate::games::minishogi::Minishogi;

    /// Every game of the tsv is offered, with its moves, and they are legal from its start.
    #[test]
    fn every_article_game_is_offered_and_legal() {
        let ex = examples();
        let games: Vec<&Example> = ex.iter().filter(|e| e.kind == ExampleKind::Game).collect();
        let lines = GAMES_TSV.lines().skip(1).filter(|l| !l.is_empty()).count();
        assert_eq!(games.len(), lines);
        assert!(lines >= 2);
        for g in games {
            assert!(g.label.starts_with("Game "), "{}", g.label);
            let mut pos =
                Minishogi::from_sfen(g.sfen.as_deref().unwrap()).expect("the start reads");
            for mv in &g.moves {
                let m = pos.parse_move(mv).expect("a legal move");
                pos.play(m);
            }
        }
    }

    /// Every article game carries the result its label gives (both were won by White).
    #[test]
    fn the_article_games_carry_their_results() {
        for g in examples().iter().filter(|e| e.kind == ExampleKind::Game) {
            assert!(g.label.ends_with(" 0-1"), "{}", g.label);
            let result = g.result.as_ref().expect("a result");
            assert_eq!((result.winner, result.reason), (Some("w"), "resignation"));
        }
    }

    /// No position is offered twice (a mate in 3 was, under two names).
    #[test]
    fn no_example_twice() {
        let ex = examples();
        for (i, e) in ex.iter().enumerate() {
            for o in &ex[..i] {
                assert!(
                    (o.kind, &o.sfen, &o.moves) != (e.kind, &e.sfen, &e.moves),
                    "{} and {} are one example",
                    o.label,
                    e.label
                );
            }
        }
    }

    /// A few mates of each length are offered, shortest first, and read as minishogi positions.
    #[test]
    fn a_few_mates_of_each_length() {
        let ex = examples();
        let mates: Vec<&Example> = ex.iter().filter(|e| e.kind == ExampleKind::Mate).collect();
        assert!(mates.len() >= 2);
        for w in mates.windows(2) {
            assert!(w[0].plies <= w[1].plies);
        }
        for m in &mates {
            let same = mates.iter().filter(|o| o.plies == m.plies).count();
            assert!(same <= MATES_PER_LENGTH);
            Minishogi::from_sfen(m.sfen.as_deref().unwrap()).expect("the position reads");
        }
    }
}
