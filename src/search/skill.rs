//! Playing at a chosen strength (`SkillLevel`, `USI_LimitStrength` with `USI_Elo`).
//!
//! A [`Skill`] weakens the search in the two ways a weaker player is weaker:
//! - it sees less: the search ends after a number of nodes that is small at level 0 and grows by
//!   half with every level ([`Skill::nodes`]), though never before its first iteration is done;
//! - it judges less sharply: the search scores its best few root moves
//!   ([`Skill::CANDIDATES`]), and the move played is drawn among them with odds that fall
//!   exponentially with how far a move scores below the best ([`Skill::temperature`], wide at
//!   level 0 and narrow near full strength).
//!
//! So a low level mostly plays moves that look good to a shallow search, sometimes a lesser one
//! of nearly the same worth, and only rarely a clearly worse one; it never waits, and every move
//! it plays is legal. Levels need not be whole: `USI_Elo` maps onto a level between two whole
//! ones through [`LEVEL_ELO`], the measured table (`docs/strength.md`).

use crate::rng::Rng;

/// The strongest limited level; `SkillLevel` [`Skill::FULL`] is full strength.
pub const MAX_LEVEL: f64 = 19.0;

/// Nodes per move at level 0.
const BASE_NODES: f64 = 40.0;
/// Growth of the nodes per move from one level to the next.
const NODE_GROWTH: f64 = 1.5;
/// The spread of the choice at level 0, in centipawns.
const BASE_TEMPERATURE: f64 = 250.0;
/// The factor by which the spread narrows with every level.
const TEMPERATURE_DECAY: f64 = 0.82;

/// The measured Elo of each whole level from 0 to [`MAX_LEVEL`], on the scale of
/// `docs/strength.md`: level 0 is 1000 by convention, and each step is what the higher of two
/// neighbouring levels scored against the lower in shogi (1,300 games a pair up to level 7, 300 up
/// to 10, 160 up to 15, 100 above). It rises with every level.
pub const LEVEL_ELO: [i32; 20] = [
    1000, 1044, 1081, 1139, 1186, 1228, 1307, 1376, 1460, 1574, 1697, 1809, 1905, 2047, 2157, 2334,
    2449, 2530, 2682, 2842,
];

/// A limited strength: a level from 0 to [`MAX_LEVEL`], and the seed of its choices.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Skill {
    level: f64,
    seed: u64,
}

impl Skill {
    /// `SkillLevel` at full strength (no [`Skill`]).
    pub const FULL: u32 = 20;
    /// Root moves scored for the choice (the search's MultiPV is raised to this).
    pub const CANDIDATES: usize = 4;

    /// The skill of `level` (clamped to 0..=[`MAX_LEVEL`]), drawing its choices from `seed`.
    pub fn new(level: f64, seed: u64) -> Skill {
        Skill {
            level: if level.is_nan() {
                0.0
            } else {
                level.clamp(0.0, MAX_LEVEL)
            },
            seed,
        }
    }

    /// The skill whose measured Elo ([`LEVEL_ELO`]) is `elo`, between the two whole levels around
    /// it (clamped to the table's range).
    pub fn from_elo(elo: i32, seed: u64) -> Skill {
        Skill::new(level_of_elo(elo), seed)
    }

    /// The level, from 0 to [`MAX_LEVEL`].
    pub fn level(&self) -> f64 {
        self.level
    }

    /// Nodes per move at this level.
    pub fn nodes(&self) -> u64 {
        (BASE_NODES * NODE_GROWTH.powf(self.level)).round() as u64
    }

    /// The spread of the choice in centipawns: a move scoring this much below the best is
    /// played e (2.718…) times less often than the best.
    pub fn temperature(&self) -> f64 {
        BASE_TEMPERATURE * TEMPERATURE_DECAY.powf(self.level)
    }

    /// The index of the move to play among candidates scored `scores` (from the search's point of
    /// view, best first; at least one): each is drawn with a weight of
    /// e^((score − best) / temperature). Mate scores take part as they are, so a found mate is
    /// almost always played and a move into a found mate almost never.
    pub fn pick(&self, scores: &[i32]) -> usize {
        let Some(&best) = scores.iter().max() else {
            return 0;
        };
        let t = self.temperature();
        let weights: Vec<f64> = scores
            .iter()
            .map(|&s| ((s - best) as f64 / t).exp())
            .collect();
        let total: f64 = weights.iter().sum();
        let mut x = Rng::new(self.seed).range(0.0..total);
        for (i, w) in weights.iter().enumerate() {
            if x < *w {
                return i;
            }
            x -= w;
        }
        // Rounding left a sliver past the last weight: the best.
        scores.iter().position(|&s| s == best).unwrap_or(0)
    }
}

/// The level whose measured Elo is `elo`, interpolated linearly between whole levels.
fn level_of_elo(elo: i32) -> f64 {
    let (first, last) = (LEVEL_ELO[0], LEVEL_ELO[LEVEL_ELO.len() - 1]);
    if elo <= first {
        return 0.0;
    }
    if elo >= last {
        return MAX_LEVEL;
    }
    let i = LEVEL_ELO.windows(2).position(|w| elo < w[1]).unwrap_or(0);
    let (lo, hi) = (LEVEL_ELO[i], LEVEL_ELO[i + 1]);
    i as f64 + (elo - lo) as f64 / (hi - lo) as f64
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_table_rises_and_elo_maps_back_onto_whole_levels() {
        assert!(LEVEL_ELO.windows(2).all(|w| w[0] < w[1]));
        for (level, &elo) in LEVEL_ELO.iter().enumerate() {
            assert!((level_of_elo(elo) - level as f64).abs() < 1e-9, "{elo}");
        }
        // Halfway between levels 3 and 4, up to the half Elo lost to rounding `mid` down.
        let mid = (LEVEL_ELO[3] + LEVEL_ELO[4]) / 2;
        let half_elo = 0.5 / f64::from(LEVEL_ELO[4] - LEVEL_ELO[3]);
        assert!((level_of_elo(mid) - 3.5).abs() <= half_elo + 1e-9);
        assert_eq!(level_of_elo(i32::MIN), 0.0);
        assert_eq!(level_of_elo(i32::MAX), MAX_LEVEL);
    }

    #[test]
    fn each_level_sees_more_and_chooses_more_sharply() {
        for level in 0..19 {
            let (a, b) = (
                Skill::new(level as f64, 0),
                Skill::new(level as f64 + 1.0, 0),
            );
            assert!(a.nodes() < b.nodes() && a.temperature() > b.temperature());
        }
        assert_eq!(Skill::new(99.0, 0).level(), MAX_LEVEL);
        assert_eq!(Skill::new(f64::NAN, 0).level(), 0.0);
    }

    /// How often each candidate is picked over many seeds.
    fn counts(level: f64, scores: &[i32]) -> Vec<usize> {
        let mut n = vec![0; scores.len()];
        for seed in 0..4000 {
            n[Skill::new(level, seed).pick(scores)] += 1;
        }
        n
    }

    #[test]
    fn the_choice_favours_better_moves_and_narrows_with_the_level() {
        let scores = [120, 100, 20, -300];
        let low = counts(0.0, &scores);
        let high = counts(MAX_LEVEL, &scores);
        // The best is the likeliest, a far worse move rare, and rarer at a higher level.
        assert!(
            low[0] > low[1] && low[1] > low[2] && low[2] > low[3],
            "{low:?}"
        );
        assert!(low[3] < 400, "{low:?}");
        assert!(high[0] > 3000 && high[3] == 0, "{high:?}");
        assert!(high[2] < low[2], "{high:?} {low:?}");
        // The odds follow the weights: 20 cp below the best at level 0 is e^(-20/250) ≈ 0.92.
        let ratio = low[1] as f64 / low[0] as f64;
        assert!((0.85..1.0).contains(&ratio), "{ratio}");
    }

    #[test]
    fn a_mate_is_kept_and_a_move_into_mate_avoided() {
        use crate::search::value::{mate_in, mated_in};
        let n = counts(0.0, &[mate_in(5), 400, 390]);
        assert_eq!(n[0], 4000, "{n:?}");
        let n = counts(0.0, &[-50, -80, mated_in(4)]);
        assert_eq!(n[2], 0, "{n:?}");
        // A lone candidate is always the choice.
        assert_eq!(Skill::new(0.0, 3).pick(&[7]), 0);
    }
}
