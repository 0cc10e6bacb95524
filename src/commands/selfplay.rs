//! `tsubame selfplay`: two configurations of this engine play each other in-process, for
//! measuring what a search feature or a second thread is worth. Every game is refereed by the
//! game's own rules (no legal move, repetition, jishogi, declaration, move limit).

use std::time::Instant;

use crate::core::color::Color;
use crate::core::moves::{ListStore, MoveList};
use crate::core::repetition::HistoryEntry;
use crate::core::rules::{Outcome, RuleOptions};
use crate::engine::search_setup;
use crate::games::Game;
use crate::rng::Rng;
use crate::search::tt::TranspositionTable;
use crate::search::{self, SearchSetup, Shared};

/// One side of a self-play match.
#[derive(Clone, Copy, Debug)]
pub struct Player {
    /// Search threads.
    pub threads: usize,
    /// Selective search on or off.
    pub pruning: bool,
}

impl std::fmt::Display for Player {
    /// For people: e.g. "2 threads, plain alpha-beta".
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{} thread{}, {}",
            self.threads,
            if self.threads == 1 { "" } else { "s" },
            if self.pruning {
                "full search"
            } else {
                "plain alpha-beta"
            }
        )
    }
}

/// How a self-play match is run.
#[derive(Clone, Copy, Debug)]
pub struct MatchConfig {
    /// Number of games (each opening is played twice, colours swapped).
    pub games: usize,
    /// Thinking time per move in milliseconds.
    pub movetime: u64,
    /// Random plies played before the engines take over.
    pub opening_plies: usize,
    /// Games longer than this many plies are drawn.
    pub max_plies: usize,
    /// Seed of the openings.
    pub seed: u64,
}

/// Wins, draws and losses of the first player.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Score {
    /// Games won by player A.
    pub wins: usize,
    /// Drawn games.
    pub draws: usize,
    /// Games lost by player A.
    pub losses: usize,
}

impl Score {
    /// Player A's points per game.
    pub fn fraction(&self) -> f64 {
        let n = (self.wins + self.draws + self.losses).max(1) as f64;
        (self.wins as f64 + 0.5 * self.draws as f64) / n
    }

    /// The Elo difference matching the score (clamped near 0 % and 100 %).
    pub fn elo(&self) -> f64 {
        let p = self.fraction().clamp(0.001, 0.999);
        -400.0 * (1.0 / p - 1.0).log10()
    }

    /// [`Score::elo`] as text, signed and rounded to whole Elo (an even score is `+0`, never `-0`).
    pub fn elo_text(&self) -> String {
        let elo = self.elo().round();
        format!("{:+.0}", if elo == 0.0 { 0.0 } else { elo })
    }
}

/// A random opening of `plies` legal moves that does not end the game.
pub(crate) fn opening<G: Game>(
    plies: usize,
    rng: &mut Rng,
    rules: &RuleOptions<G::Rules>,
) -> (G, Vec<HistoryEntry>) {
    'retry: loop {
        let mut pos = G::startpos();
        let mut history = vec![HistoryEntry {
            key: pos.key(),
            in_check: pos.in_check(),
        }];
        for _ in 0..plies {
            let mut list = MoveList::<G::Move>::new();
            pos.legal_moves(&mut list);
            if list.is_empty() {
                continue 'retry;
            }
            let mv = list[rng.below(list.len())];
            pos.play(mv);
            history.push(HistoryEntry {
                key: pos.key(),
                in_check: pos.in_check(),
            });
            if pos.verdict(&history, rules).is_some() {
                continue 'retry;
            }
        }
        return (pos, history);
    }
}

/// Plays one game from an opening; returns the outcome for Black.
fn play_game<G: Game>(
    mut pos: G,
    mut history: Vec<HistoryEntry>,
    black: Player,
    white: Player,
    cfg: &MatchConfig,
    rules: &RuleOptions<G::Rules>,
) -> Outcome {
    let tables = [TranspositionTable::new(16), TranspositionTable::new(16)];
    let network = G::ID.embedded_network();
    loop {
        let side = pos.side_to_move();
        let for_black = |o: Outcome| if side == Color::Black { o } else { o.flip() };
        if pos.can_declare(rules) {
            return for_black(Outcome::Win);
        }
        if let Some(v) = pos.verdict(&history, rules) {
            return for_black(v.outcome);
        }
        if history.len() > cfg.max_plies {
            return Outcome::Draw;
        }
        let player = if side == Color::Black { black } else { white };
        let shared = Shared::default();
        shared.set_budget(Some(search::time::Budget {
            optimum: cfg.movetime,
            maximum: cfg.movetime,
        }));
        let setup = SearchSetup {
            threads: player.threads,
            pruning: player.pruning,
            nnue: network.as_deref(),
            ..search_setup::<G>(&history, *rules, &tables[side.index()], &shared)
        };
        let result = search::with_search_stack(|| search::run(&pos, &setup));
        let Some(mv) = result.best else {
            return for_black(Outcome::Loss);
        };
        pos.play(mv);
        history.push(HistoryEntry {
            key: pos.key(),
            in_check: pos.in_check(),
        });
    }
}

/// Plays the match; `progress` receives a line after every game.
pub fn run_match<G: Game>(
    a: Player,
    b: Player,
    cfg: &MatchConfig,
    progress: &dyn Fn(&str),
) -> Score {
    let rules = RuleOptions::default();
    let mut score = Score::default();
    let start = Instant::now();
    for g in 0..cfg.games {
        // Both games of a pair start from the same opening, with colours swapped.
        let mut rng = Rng::stream(cfg.seed, (g / 2) as u64);
        let (pos, history) = opening::<G>(cfg.opening_plies, &mut rng, &rules);
        let a_black = g % 2 == 0;
        let (black, white) = if a_black { (a, b) } else { (b, a) };
        let outcome = play_game(pos, history, black, white, cfg, &rules);
        let for_a = if a_black { outcome } else { outcome.flip() };
        match for_a {
            Outcome::Win => score.wins += 1,
            Outcome::Draw => score.draws += 1,
            Outcome::Loss => score.losses += 1,
        }
        progress(&format!(
            "game {}/{}: A {} as {} | A +{} ={} -{} ({:.1}%, {} Elo) {:.0} s",
            g + 1,
            cfg.games,
            match for_a {
                Outcome::Win => "won",
                Outcome::Draw => "drew",
                Outcome::Loss => "lost",
            },
            if a_black { "Black" } else { "White" },
            score.wins,
            score.draws,
            score.losses,
            100.0 * score.fraction(),
            score.elo_text(),
            start.elapsed().as_secs_f64()
        ));
    }
    score
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn players_are_described_in_words() {
        let one = Player {
            threads: 1,
            pruning: true,
        };
        let two = Player {
            threads: 2,
            pruning: false,
        };
        assert_eq!(one.to_string(), "1 thread, full search");
        assert_eq!(two.to_string(), "2 threads, plain alpha-beta");
    }

    #[test]
    fn an_even_score_is_plus_zero_elo() {
        let even = Score {
            wins: 1,
            draws: 0,
            losses: 1,
        };
        assert_eq!(even.elo_text(), "+0");
        let ahead = Score {
            wins: 3,
            draws: 0,
            losses: 1,
        };
        assert_eq!(ahead.elo_text(), "+191");
        let behind = Score {
            wins: 1,
            draws: 0,
            losses: 3,
        };
        assert_eq!(behind.elo_text(), "-191");
    }
}
