//! Minishogi's example positions: the minishogi article's games and a few of its mates, read from
//! the test data they are checked against (`engine-tests/data/minishogi-games.tsv`,
//! `engine-tests/data/tsume-minishogi.tsv`), built into the binary so that the page and the tests
//! share one source.

use crate::games::info::{Example, ExampleKind};

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

/// The examples: a mate in 3 from a game, the article's games, then its mates.
pub fn examples() -> Vec<Example> {
    let mut all = vec![Example {
        plies: Some(3),
        ..Example::position(
            "minishogi mate in 3",
            ExampleKind::Mate,
            Some("3k1/2bsg/p4/g2Kp/5 w RBSr 30"),
        )
    }];
    all.extend(rows(GAMES_TSV).filter(|r| r.len() >= 3).map(|r| Example {
        label: r[0].to_string(),
        kind: ExampleKind::Game,
        sfen: Some(r[1].to_string()),
        moves: r[2].split_whitespace().map(str::to_string).collect(),
        plies: None,
        exact: false,
    }));
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

    /// A few mates of each length are offered, shortest first, and read as minishogi positions.
    #[test]
    fn a_few_mates_of_each_length() {
        let ex = examples();
        let mates: Vec<&Example> = ex[1..]
            .iter()
            .filter(|e| e.kind == ExampleKind::Mate)
            .collect();
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
