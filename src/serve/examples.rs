//! The article positions the page offers one click away, served as `GET /examples.json`: the
//! minishogi article's games and a few of its mates, read from the test data they are checked
//! against (`engine-tests/data/minishogi-games.tsv`, `engine-tests/data/tsume-minishogi.tsv`),
//! built into the binary so that the page and the tests share one source.

use serde::Serialize;

/// The minishogi article's games: `game`, `start_sfen`, `moves`, `final_sfen` (tab-separated, a
/// header line first).
const GAMES_TSV: &str = include_str!("../../engine-tests/data/minishogi-games.tsv");
/// Minishogi mates: `sfen`, `plies`, `convention`, `mating_first_moves`, `source`.
const MATES_TSV: &str = include_str!("../../engine-tests/data/tsume-minishogi.tsv");
/// How many mates of each length the page offers (the tsv's first ones, shortest first).
const MATES_PER_LENGTH: usize = 2;

/// A game of the article: its start and its whole move list.
#[derive(Serialize, Debug, PartialEq, Eq)]
pub struct ExampleGame {
    /// The game's title as the article gives it (players, event, result).
    pub label: String,
    /// The registry name of the game (`minishogi`).
    pub game: &'static str,
    /// The start position.
    pub sfen: String,
    /// The moves, USI strings.
    pub moves: Vec<String>,
}

/// A mate problem: a position and the length of its mate.
#[derive(Serialize, Debug, PartialEq, Eq)]
pub struct ExampleMate {
    /// A short name for the button (`minishogi mate in N #K`).
    pub label: String,
    /// The registry name of the game (`minishogi`).
    pub game: &'static str,
    /// The position, the mating side to move.
    pub sfen: String,
    /// The mate's length in plies.
    pub plies: u32,
}

/// Everything `GET /examples.json` answers.
#[derive(Serialize, Debug)]
pub struct Examples {
    /// The article's games.
    pub games: Vec<ExampleGame>,
    /// A few of its mates.
    pub mates: Vec<ExampleMate>,
}

/// The data rows of a tsv: the header line and blank lines left out, each split at tabs.
fn rows(tsv: &str) -> impl Iterator<Item = Vec<&str>> {
    tsv.lines()
        .skip(1)
        .filter(|l| !l.trim().is_empty())
        .map(|l| l.split('\t').collect())
}

/// The examples, read from the built-in tsv files.
pub fn examples() -> Examples {
    let games = rows(GAMES_TSV)
        .filter(|r| r.len() >= 3)
        .map(|r| ExampleGame {
            label: r[0].to_string(),
            game: "minishogi",
            sfen: r[1].to_string(),
            moves: r[2].split_whitespace().map(str::to_string).collect(),
        })
        .collect();
    let mut mates: Vec<ExampleMate> = Vec::new();
    let mut all: Vec<(u32, &str)> = rows(MATES_TSV)
        .filter(|r| r.len() >= 2)
        .filter_map(|r| Some((r[1].parse().ok()?, r[0])))
        .collect();
    all.sort_by_key(|&(plies, _)| plies);
    for (plies, sfen) in all {
        let same = mates.iter().filter(|m| m.plies == plies).count();
        if same < MATES_PER_LENGTH {
            mates.push(ExampleMate {
                label: format!("minishogi mate in {plies} #{}", same + 1),
                game: "minishogi",
                sfen: sfen.to_string(),
                plies,
            });
        }
    }
    Examples { games, mates }
}

/// The examples as the JSON text `GET /examples.json` answers.
pub fn json() -> String {
    serde_json::to_string(&examples()).expect("plain data serializes")
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
        let lines = GAMES_TSV.lines().skip(1).filter(|l| !l.is_empty()).count();
        assert_eq!(ex.games.len(), lines);
        assert!(lines >= 2);
        for g in &ex.games {
            assert!(g.label.starts_with("Game "), "{}", g.label);
            let mut pos = Minishogi::from_sfen(&g.sfen).expect("the start reads");
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
        assert!(ex.mates.len() >= 2);
        for w in ex.mates.windows(2) {
            assert!(w[0].plies <= w[1].plies);
        }
        for m in &ex.mates {
            let same = ex.mates.iter().filter(|o| o.plies == m.plies).count();
            assert!(same <= MATES_PER_LENGTH);
        }
        for m in &ex.mates {
            Minishogi::from_sfen(&m.sfen).expect("the position reads");
        }
    }
}
