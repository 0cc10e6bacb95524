//! Match statistics: Elo from a score with its 95% interval (trinomial or pentanomial variance),
//! likelihood of superiority, and the sequential probability ratio test on game pairs.
//!
//! Elo here is logistic Elo: a score `s` is worth `-400 log10(1/s - 1)`.

/// The 97.5% quantile of the standard normal distribution (two-sided 95% interval).
pub const Z95: f64 = 1.959_963_984_540_054;

/// Logistic Elo difference of an expected score in (0, 1); ±infinity at 0 and 1.
pub fn elo_from_score(score: f64) -> f64 {
    if score <= 0.0 {
        f64::NEG_INFINITY
    } else if score >= 1.0 {
        f64::INFINITY
    } else {
        -400.0 * (1.0 / score - 1.0).log10()
    }
}

/// Expected score of a player rated `elo` logistic Elo above his opponent.
pub fn score_from_elo(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

/// The error function (Abramowitz and Stegun 7.1.26, absolute error below 1.5e-7).
pub fn erf(x: f64) -> f64 {
    let sign = if x < 0.0 { -1.0 } else { 1.0 };
    let x = x.abs();
    let t = 1.0 / (1.0 + 0.327_591_1 * x);
    let poly = t
        * (0.254_829_592
            + t * (-0.284_496_736
                + t * (1.421_413_741 + t * (-1.453_152_027 + t * 1.061_405_429))));
    sign * (1.0 - poly * (-x * x).exp())
}

/// An Elo difference with its 95% interval.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct EloEstimate {
    /// The point estimate.
    pub elo: f64,
    /// Lower end of the 95% interval.
    pub lower: f64,
    /// Upper end of the 95% interval.
    pub upper: f64,
}

impl EloEstimate {
    /// Half the width of the interval, in Elo (for a `±` display).
    pub fn margin(&self) -> f64 {
        if self.upper.is_finite() && self.lower.is_finite() {
            (self.upper - self.lower) / 2.0
        } else {
            f64::INFINITY
        }
    }

    fn from_mean(mean: f64, variance: f64, samples: f64) -> EloEstimate {
        let se = (variance / samples).sqrt();
        EloEstimate {
            elo: elo_from_score(mean),
            lower: elo_from_score(mean - Z95 * se),
            upper: elo_from_score(mean + Z95 * se),
        }
    }
}

/// Game results of one player: wins, draws, losses.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Trinomial {
    /// Games won.
    pub wins: u64,
    /// Games drawn.
    pub draws: u64,
    /// Games lost.
    pub losses: u64,
}

impl Trinomial {
    /// Records one game scored 1, 0.5 or 0.
    pub fn add(&mut self, points: f64) {
        if points > 0.75 {
            self.wins += 1;
        } else if points < 0.25 {
            self.losses += 1;
        } else {
            self.draws += 1;
        }
    }

    /// Number of games.
    pub fn games(&self) -> u64 {
        self.wins + self.draws + self.losses
    }

    /// Points scored: a win 1, a draw 1/2.
    pub fn points(&self) -> f64 {
        self.wins as f64 + self.draws as f64 / 2.0
    }

    /// Mean score per game, if any game was played.
    pub fn score(&self) -> Option<f64> {
        let n = self.games();
        (n > 0).then(|| self.points() / n as f64)
    }

    /// Variance of the score of one game around the mean.
    pub fn variance(&self) -> Option<f64> {
        let n = self.games() as f64;
        let s = self.score()?;
        Some(
            (self.wins as f64 * (1.0 - s).powi(2)
                + self.draws as f64 * (0.5 - s).powi(2)
                + self.losses as f64 * s.powi(2))
                / n,
        )
    }

    /// Elo with its 95% interval from the per-game variance.
    pub fn elo(&self) -> Option<EloEstimate> {
        let s = self.score()?;
        Some(EloEstimate::from_mean(
            s,
            self.variance()?,
            self.games() as f64,
        ))
    }

    /// Likelihood of superiority: the probability that the player is the stronger one, from wins
    /// and losses (draws carry no information here).
    pub fn los(&self) -> Option<f64> {
        let decisive = (self.wins + self.losses) as f64;
        (decisive > 0.0).then(|| {
            0.5 * (1.0 + erf((self.wins as f64 - self.losses as f64) / (2.0 * decisive).sqrt()))
        })
    }

    /// Share of drawn games.
    pub fn draw_ratio(&self) -> Option<f64> {
        let n = self.games();
        (n > 0).then(|| self.draws as f64 / n as f64)
    }
}

/// Results of game pairs (one opening played with both colours), counted by the pair's points:
/// index 0 for 0 points (two losses), 1 for ½, 2 for 1, 3 for 1½, 4 for 2 (two wins).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Pentanomial(pub [u64; 5]);

impl Pentanomial {
    /// Records a pair from the points of its two games (each 0, 0.5 or 1).
    pub fn add_pair(&mut self, first: f64, second: f64) {
        let half_points = ((first + second) * 2.0).round() as usize;
        self.0[half_points.min(4)] += 1;
    }

    /// Number of pairs.
    pub fn pairs(&self) -> u64 {
        self.0.iter().sum()
    }

    /// Mean score per game, if a pair was played.
    pub fn score(&self) -> Option<f64> {
        let n = self.pairs();
        (n > 0).then(|| {
            self.0
                .iter()
                .enumerate()
                .map(|(k, &c)| c as f64 * k as f64 / 4.0)
                .sum::<f64>()
                / n as f64
        })
    }

    /// Variance of the per-game score of one pair (the pair's points / 2) around the mean.
    pub fn variance(&self) -> Option<f64> {
        let m = self.score()?;
        Some(
            self.0
                .iter()
                .enumerate()
                .map(|(k, &c)| c as f64 * (k as f64 / 4.0 - m).powi(2))
                .sum::<f64>()
                / self.pairs() as f64,
        )
    }

    /// Elo with its 95% interval from the pair variance.
    pub fn elo(&self) -> Option<EloEstimate> {
        Some(EloEstimate::from_mean(
            self.score()?,
            self.variance()?,
            self.pairs() as f64,
        ))
    }
}

/// Parameters of a sequential probability ratio test between H0: Elo = `elo0` and H1: Elo = `elo1`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sprt {
    /// Elo of the null hypothesis (logistic).
    pub elo0: f64,
    /// Elo of the alternative hypothesis (logistic).
    pub elo1: f64,
    /// Probability of accepting H1 when H0 holds.
    pub alpha: f64,
    /// Probability of accepting H0 when H1 holds.
    pub beta: f64,
}

/// Where a sequential test stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SprtState {
    /// Neither bound reached.
    Continue,
    /// The lower bound was reached: H0 accepted.
    AcceptH0,
    /// The upper bound was reached: H1 accepted.
    AcceptH1,
}

impl SprtState {
    /// A short text for reports.
    pub fn text(self) -> &'static str {
        match self {
            SprtState::Continue => "continue",
            SprtState::AcceptH0 => "H0 accepted",
            SprtState::AcceptH1 => "H1 accepted",
        }
    }
}

/// Game pairs an SPRT needs before it may stop (see [`Sprt::state`]).
pub const MIN_SPRT_PAIRS: u64 = 20;

impl Sprt {
    /// The LLR bounds: `(ln(beta / (1 - alpha)), ln((1 - beta) / alpha))`.
    pub fn bounds(&self) -> (f64, f64) {
        (
            (self.beta / (1.0 - self.alpha)).ln(),
            ((1.0 - self.beta) / self.alpha).ln(),
        )
    }

    /// The log-likelihood ratio of the pair results, in the normal approximation of the
    /// generalized SPRT: `N (s1 - s0) (2 m - s0 - s1) / (2 v)` with `m` and `v` the mean and variance
    /// of a pair's per-game score and `s0`, `s1` the scores of `elo0`, `elo1`, each bucket counted
    /// half a pair more than it holds (a Jeffreys prior). 0 before the first pair.
    pub fn llr(&self, pairs: &Pentanomial) -> f64 {
        if pairs.pairs() == 0 {
            return 0.0;
        }
        // Half a pair more in every bucket, so that one-sided results (deterministic engines
        // give them: in minishogi at fixed nodes every pair may split 1-1, each side winning
        // as Black) keep a variance. Counting empty buckets as 0.001 pairs instead let 20 split
        // pairs reach an LLR of -265 against elo1 = 20, "H0" with no evidence of a difference.
        let counts: Vec<f64> = pairs.0.iter().map(|&c| c as f64 + 0.5).collect();
        let n: f64 = counts.iter().sum();
        let m = counts
            .iter()
            .enumerate()
            .map(|(k, c)| c * k as f64 / 4.0)
            .sum::<f64>()
            / n;
        let v = counts
            .iter()
            .enumerate()
            .map(|(k, c)| c * (k as f64 / 4.0 - m).powi(2))
            .sum::<f64>()
            / n;
        let s0 = score_from_elo(self.elo0);
        let s1 = score_from_elo(self.elo1);
        n * (s1 - s0) * (2.0 * m - s0 - s1) / (2.0 * v)
    }

    /// The test's state for an LLR reached after `pairs` game pairs. No verdict is given before
    /// [`MIN_SPRT_PAIRS`] pairs: with a handful of pairs the estimated variance is nearly zero
    /// (one pair lost is a "one-sided" result), and the LLR swings past either bound by chance.
    pub fn state(&self, llr: f64, pairs: u64) -> SprtState {
        let (lower, upper) = self.bounds();
        if pairs < MIN_SPRT_PAIRS {
            SprtState::Continue
        } else if llr >= upper {
            SprtState::AcceptH1
        } else if llr <= lower {
            SprtState::AcceptH0
        } else {
            SprtState::Continue
        }
    }
}

/// Formats an Elo value, spelling out infinities.
pub fn fmt_elo(e: f64) -> String {
    if e.is_infinite() {
        if e > 0.0 {
            "+inf".into()
        } else {
            "-inf".into()
        }
    } else if e.is_nan() {
        "nan".into()
    } else {
        // Rounded first, so that a tiny negative value does not print as "-0.0".
        let r = (e * 10.0).round() / 10.0;
        format!("{:+.1}", if r == 0.0 { 0.0 } else { r })
    }
}

/// Formats the half-width of an Elo interval.
pub fn fmt_margin(m: f64) -> String {
    if m.is_finite() {
        format!("{m:.1}")
    } else {
        "inf".into()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64, eps: f64) {
        assert!((a - b).abs() < eps, "{a} != {b}");
    }

    #[test]
    fn elo_and_score_are_inverse() {
        close(elo_from_score(0.5), 0.0, 1e-12);
        // 0.75 = 1 / (1 + 10^(-e/400)) gives e = 400 log10(3).
        close(elo_from_score(0.75), 400.0 * 3f64.log10(), 1e-9);
        close(score_from_elo(400.0 * 3f64.log10()), 0.75, 1e-12);
        assert_eq!(elo_from_score(1.0), f64::INFINITY);
        assert_eq!(elo_from_score(0.0), f64::NEG_INFINITY);
    }

    #[test]
    fn erf_matches_known_values() {
        close(erf(0.0), 0.0, 1e-7);
        close(erf(1.0), 0.842_700_79, 2e-7);
        close(erf(-0.5), -0.520_499_88, 2e-7);
        close(erf(3.0), 0.999_977_91, 2e-7);
    }

    #[test]
    fn trinomial_by_hand() {
        // 60 wins, 20 draws, 20 losses: score 0.7, variance
        // (60·0.3² + 20·0.2² + 20·0.7²)/100 = 0.16, standard error 0.04.
        let t = Trinomial {
            wins: 60,
            draws: 20,
            losses: 20,
        };
        close(t.score().unwrap(), 0.7, 1e-12);
        close(t.variance().unwrap(), 0.16, 1e-12);
        let e = t.elo().unwrap();
        close(e.elo, 147.190_714, 1e-5);
        // elo(0.7 ∓ 1.96·0.04) = elo(0.62160), elo(0.77840).
        close(e.lower, 86.225_015, 1e-4);
        close(e.upper, 218.251_778, 1e-4);
        // LOS = ½(1 + erf(40 / √160)).
        close(t.los().unwrap(), 0.999_996_128, 2e-7);
        close(t.draw_ratio().unwrap(), 0.2, 1e-12);
    }

    #[test]
    fn trinomial_edge_cases() {
        let t = Trinomial::default();
        assert_eq!(t.score(), None);
        assert_eq!(t.los(), None);
        let mut t = Trinomial::default();
        t.add(0.5);
        t.add(0.5);
        assert_eq!(t.los(), None);
        close(t.elo().unwrap().elo, 0.0, 1e-12);
        t.add(1.0);
        assert_eq!(t.wins, 1);
        close(
            t.los().unwrap(),
            0.5 * (1.0 + erf(1.0 / 2f64.sqrt())),
            1e-12,
        );
    }

    #[test]
    fn pentanomial_by_hand() {
        // Pairs [0, 2, 3, 4, 1] (10 pairs): mean (2·¼ + 3·½ + 4·¾ + 1)/10 = 0.6,
        // variance (2·0.35² + 3·0.1² + 4·0.15² + 0.4²)/10 = 0.0525.
        let p = Pentanomial([0, 2, 3, 4, 1]);
        close(p.score().unwrap(), 0.6, 1e-12);
        close(p.variance().unwrap(), 0.0525, 1e-12);
        let e = p.elo().unwrap();
        close(e.elo, 70.436_504, 1e-5);
        close(e.lower, -29.262_540, 1e-4);
        close(e.upper, 183.525_371, 1e-4);

        let mut q = Pentanomial::default();
        q.add_pair(1.0, 1.0);
        q.add_pair(0.5, 0.0);
        q.add_pair(1.0, 0.0);
        q.add_pair(0.5, 0.5);
        q.add_pair(0.5, 1.0);
        assert_eq!(q.0, [0, 1, 2, 1, 1]);
    }

    #[test]
    fn sprt_by_hand() {
        let sprt = Sprt {
            elo0: 0.0,
            elo1: 5.0,
            alpha: 0.05,
            beta: 0.05,
        };
        let (lo, hi) = sprt.bounds();
        close(lo, -2.944_438_979, 1e-9);
        close(hi, 2.944_438_979, 1e-9);
        // s0 = 0.5, s1 = 0.507195; [0,2,3,4,1] counted as [0.5,2.5,3.5,4.5,1.5]: 12.5 pairs of
        // mean 0.57 and variance 0.0621, 12.5·(s1−s0)(1.14 − s0 − s1)/(2·0.0621) = 0.100168.
        close(sprt.llr(&Pentanomial([0, 2, 3, 4, 1])), 0.100_167_991, 1e-8);
        close(
            sprt.llr(&Pentanomial([1, 2, 4, 2, 1])),
            -0.003_806_559,
            1e-8,
        );
        close(
            sprt.llr(&Pentanomial([2, 5, 20, 10, 3])),
            0.201_149_907,
            1e-8,
        );
        // One-sided results move the test, but a few of them decide nothing.
        close(
            sprt.llr(&Pentanomial([0, 0, 7, 0, 0])),
            -0.007_475_473,
            1e-8,
        );
        close(sprt.llr(&Pentanomial([0, 0, 0, 0, 1])), 0.024_994_952, 1e-8);
        close(sprt.llr(&Pentanomial([0, 0, 0, 0, 2])), 0.053_963_923, 1e-8);
        // Pairs that all split 1-1 (each engine wins as Black) accept H0 against elo1 = 20 only
        // after about 45 of them: 40 are not enough, 47 are.
        let twenty = Sprt { elo1: 20.0, ..sprt };
        close(
            twenty.llr(&Pentanomial([0, 0, 21, 0, 0])),
            -0.730_379_275,
            1e-8,
        );
        assert_eq!(
            twenty.state(twenty.llr(&Pentanomial([0, 0, 40, 0, 0])), 40),
            SprtState::Continue
        );
        assert_eq!(
            twenty.state(twenty.llr(&Pentanomial([0, 0, 47, 0, 0])), 47),
            SprtState::AcceptH0
        );
        assert_eq!(sprt.llr(&Pentanomial::default()), 0.0);
        assert_eq!(sprt.state(0.1, 100), SprtState::Continue);
        assert_eq!(sprt.state(3.0, 100), SprtState::AcceptH1);
        assert_eq!(sprt.state(-3.0, 100), SprtState::AcceptH0);
        // A one-sided run of wins ends the test.
        let wins = Pentanomial([0, 0, 10, 40, 50]);
        assert_eq!(sprt.state(sprt.llr(&wins), 100), SprtState::AcceptH1);
        // Before MIN_SPRT_PAIRS pairs no LLR decides.
        assert_eq!(sprt.state(-3.0, MIN_SPRT_PAIRS - 1), SprtState::Continue);
        assert_eq!(sprt.state(3.0, MIN_SPRT_PAIRS - 1), SprtState::Continue);
    }
}
