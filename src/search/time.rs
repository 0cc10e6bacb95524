//! Time management: how long to think given the clock, byoyomi, increment or a fixed move time,
//! and how the course of the search stretches or shrinks that time.
//!
//! [`budget`] turns a `go` command's clock into a [`Budget`]: a target time (`optimum`) and a hard
//! limit (`maximum`). The search never runs past the hard limit. After each completed iteration
//! it stops once `0.6 × optimum × scale` has passed, so that it does not begin an iteration it
//! could not finish; the [`Trend`] of the iterations sets the scale (more time when the best move
//! changes or the score falls, less when the best move is settled). When the optimum equals the
//! maximum (pure byoyomi, `movetime`), the time is lost if unused, so the search runs to the hard
//! limit: a partial iteration still improves the choice.

use arrayvec::ArrayVec;

use super::value::is_mate_score;

/// The clock situation of a `go` command, in milliseconds.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Clock {
    /// Time left on the mover's main clock.
    pub time: Option<u64>,
    /// The mover's increment per move (Fischer), added after the move.
    pub increment: u64,
    /// Byoyomi period.
    pub byoyomi: u64,
    /// A fixed time for this move (`movetime`).
    pub movetime: Option<u64>,
    /// Moves until the next time control (`movestogo`), when the GUI gives it.
    pub moves_to_go: Option<u64>,
    /// Plies played in the game before this move (0 at the start), for the moves-left estimate.
    pub ply: u32,
}

/// Options that shape the allocation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TimeOptions {
    /// Milliseconds kept back from each byoyomi period against network and GUI lag
    /// (`ByoyomiMargin`); periods shorter than 800 ms keep back a proportional share of it.
    pub byoyomi_margin: u64,
    /// The target time of a move is raised to at least this when the clock allows
    /// (`MinimumThinkingTime`).
    pub minimum_thinking_time: u64,
    /// Percentage applied to the share of main time and increment given to a move (`SlowMover`).
    pub slow_mover: u64,
}

impl Default for TimeOptions {
    fn default() -> Self {
        TimeOptions {
            byoyomi_margin: 100,
            minimum_thinking_time: 0,
            slow_mover: 100,
        }
    }
}

/// The time budget of one move, in milliseconds from the moment the clock started.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Budget {
    /// The target time, scaled by the search's stability. Equal to `maximum` when the time is a
    /// fixed allowance lost if unused: the search then runs to the hard limit.
    pub optimum: u64,
    /// Never think longer than this.
    pub maximum: u64,
}

impl Budget {
    /// A fixed allowance: think for `ms`, no more and, unless the search ends by itself, no less.
    pub const fn fixed(ms: u64) -> Budget {
        Budget {
            optimum: ms,
            maximum: ms,
        }
    }
}

/// Milliseconds always kept back from the clock: noticing the hard limit (the search looks at the
/// clock every 1024 nodes), unwinding, and writing `bestmove`.
const OVERHEAD: u64 = 20;
/// Periods at least this long keep all of `ByoyomiMargin` back; a shorter period keeps back the
/// share `period / FULL_MARGIN_PERIOD` of it, so that short periods stay usable.
const FULL_MARGIN_PERIOD: u64 = 800;
/// The expected length of a game in plies, for the moves-left estimate.
const GAME_PLIES: u32 = 120;
/// The moves-left estimate never falls below this.
const MIN_MOVES_LEFT: u64 = 20;
/// The longest a single move may take, as a fraction of the main time left (with many moves to go).
const MAX_FRACTION: f64 = 0.25;
/// With `movestogo`, the longest a move may take is this fraction of the main time divided by
/// the moves to go (when that exceeds [`MAX_FRACTION`]): 80 % of it for the last move.
const LAST_MOVE_FRACTION: f64 = 0.8;
/// The hard limit is at most this many times the main-time target.
const MAX_RATIO: u64 = 4;
/// The soft limit: after an iteration, stop once this fraction of the scaled optimum has passed,
/// since the next iteration would likely not finish in time.
const SOFT_FRACTION: f64 = 0.6;

/// The part of `ByoyomiMargin` kept back from a period of `byoyomi` ms: all of it for periods of
/// [`FULL_MARGIN_PERIOD`] and longer, a proportional share of it for shorter ones, and never more
/// than half the period.
fn byoyomi_reserve(byoyomi: u64, opts: &TimeOptions) -> u64 {
    let margin = opts.byoyomi_margin;
    let share = margin.saturating_mul(byoyomi) / FULL_MARGIN_PERIOD;
    margin.min(share).min(byoyomi / 2)
}

/// The number of moves the main time is spread over: `movestogo` if given, else an estimate that
/// shrinks with the game's ply from 60 moves at the start to 20 from ply 80 on.
fn moves_left(clock: &Clock) -> u64 {
    match clock.moves_to_go {
        Some(m) => m.max(1),
        None => (u64::from(GAME_PLIES.saturating_sub(clock.ply)) / 2).max(MIN_MOVES_LEFT),
    }
}

/// The budget for a move, or `None` when the clock sets no limit (`go infinite`, depth-only, ...).
pub fn budget(clock: &Clock, opts: &TimeOptions) -> Option<Budget> {
    if let Some(mt) = clock.movetime {
        return Some(Budget::fixed(
            mt.saturating_sub(OVERHEAD.min(mt / 10)).max(1),
        ));
    }
    // `go byoyomi 1000` without main times (as some clients send it) means no main time left.
    let time = match clock.time {
        Some(t) => t,
        None if clock.byoyomi > 0 || clock.increment > 0 => 0,
        None => return None,
    };
    let reserve = byoyomi_reserve(clock.byoyomi, opts);
    // The whole of what can be spent on this move without losing on time (the increment only
    // comes after the move).
    let hard = time
        .saturating_add(clock.byoyomi)
        .saturating_sub(reserve + OVERHEAD)
        .max(1);
    if clock.byoyomi > 0 && time < clock.byoyomi {
        // Less main time than one period (often none): the period is lost if unused, and main
        // time this small is worth little spread over later moves, so spend both now.
        return Some(Budget::fixed(hard));
    }
    let period = clock.byoyomi - reserve;
    let mtg = moves_left(clock);
    // The main time and the increments to come, shared evenly over the moves left.
    let share = (time.saturating_add(clock.increment.saturating_mul(mtg - 1)) / mtg)
        .saturating_mul(opts.slow_mover)
        / 100;
    let fraction = (LAST_MOVE_FRACTION / mtg as f64).max(MAX_FRACTION);
    let main_max = share
        .saturating_mul(MAX_RATIO)
        .min(((time as f64 * fraction) as u64).saturating_add(clock.increment));
    let optimum = share
        .min(main_max)
        .saturating_add(period)
        .max(opts.minimum_thinking_time)
        .max(1);
    let maximum = main_max.saturating_add(period).max(optimum);
    Some(Budget {
        optimum: optimum.min(hard),
        maximum: maximum.min(hard),
    })
}

/// Iterations in a row with the same best move after which the target is cut the most.
const SETTLED_ITERATIONS: u32 = 6;
/// The target is cut by this fraction for each iteration the best move has stayed, up to
/// [`SETTLED_ITERATIONS`].
const SETTLED_CUT: f64 = 0.05;
/// How many previous iterations' scores a fall is measured against (their mean).
const SCORE_WINDOW: usize = 4;
/// A fall of this many centipawns doubles the target (before the clamp of the falling factor).
const FALL_UNIT: f64 = 200.0;
/// The bounds of the scale [`Trend::scale`] returns.
const SCALE_RANGE: (f64, f64) = (0.5, 2.5);

/// What the completed iterations of one search said: how often and how lately the best move
/// changed, and how the score moved. The main thread records every completed iteration.
#[derive(Clone, Debug, Default)]
pub struct Trend {
    /// The code of the last iteration's best move.
    best: Option<u16>,
    /// Best-move changes, halved at every iteration.
    changes: f64,
    /// Iterations in a row the best move has not changed.
    settled: u32,
    /// Centipawns the last score lies below the mean of the previous few (negative: above).
    fall: i32,
    /// The scores of the last [`SCORE_WINDOW`] iterations, oldest first.
    scores: ArrayVec<i32, SCORE_WINDOW>,
}

impl Trend {
    /// Records a completed iteration's best move (its `GameMove::code`) and score.
    pub fn push(&mut self, best: u16, score: i32) {
        match self.best {
            Some(previous) if previous != best => {
                self.changes += 1.0;
                self.settled = 0;
            }
            Some(_) => self.settled += 1,
            None => {}
        }
        self.best = Some(best);
        self.changes *= 0.5;
        let recent = &self.scores;
        self.fall = if recent.is_empty()
            || is_mate_score(score)
            || recent.iter().any(|&s| is_mate_score(s))
        {
            0
        } else {
            (recent.iter().sum::<i32>() / recent.len() as i32) - score
        };
        if self.scores.is_full() {
            self.scores.remove(0);
        }
        self.scores.push(score);
    }

    /// The factor applied to the optimum: above 1 after best-move changes or a falling score,
    /// below 1 when the best move has stayed the same for several iterations.
    pub fn scale(&self) -> f64 {
        let instability = 1.0 + 1.5 * self.changes;
        let settled = 1.0 - SETTLED_CUT * f64::from(self.settled.min(SETTLED_ITERATIONS));
        let falling = (1.0 + f64::from(self.fall) / FALL_UNIT).clamp(0.85, 1.5);
        (instability * settled * falling).clamp(SCALE_RANGE.0, SCALE_RANGE.1)
    }
}

/// True when the search should not begin another iteration: `elapsed` ms have passed of a move
/// with `budget`, and the iterations went as `trend` says. Never true for a fixed allowance
/// (optimum equal to maximum), which the hard limit ends.
pub fn soft_stop(budget: &Budget, elapsed: u64, trend: &Trend) -> bool {
    if budget.optimum >= budget.maximum {
        return false;
    }
    let target = (budget.optimum as f64 * trend.scale()).min(budget.maximum as f64);
    elapsed as f64 >= target * SOFT_FRACTION
}

#[cfg(test)]
mod tests {
    use super::*;

    fn byoyomi(ms: u64) -> Clock {
        Clock {
            time: Some(0),
            byoyomi: ms,
            ..Clock::default()
        }
    }

    fn default_budget(clock: &Clock) -> Budget {
        budget(clock, &TimeOptions::default()).unwrap()
    }

    #[test]
    fn byoyomi_1000_thinks_about_900_ms() {
        for clock in [
            byoyomi(1000),
            Clock {
                time: None,
                ..byoyomi(1000)
            },
        ] {
            let b = default_budget(&clock);
            assert!((800..=1000).contains(&b.optimum), "{b:?}");
            assert!((800..=1000).contains(&b.maximum), "{b:?}");
            assert_eq!(b.optimum, b.maximum, "a period is used whole: {b:?}");
        }
    }

    #[test]
    fn byoyomi_300_thinks_about_250_ms() {
        let b = default_budget(&byoyomi(300));
        assert!((225..=270).contains(&b.maximum), "{b:?}");
        assert_eq!(b.optimum, b.maximum);
    }

    #[test]
    fn byoyomi_100_leaves_room_to_answer() {
        let b = default_budget(&byoyomi(100));
        assert!(b.maximum > 0 && b.maximum <= 75, "{b:?}");
        // Even with no margin at all the fixed overhead stays.
        let bare = TimeOptions {
            byoyomi_margin: 0,
            ..TimeOptions::default()
        };
        let b = budget(&byoyomi(100), &bare).unwrap();
        assert_eq!(b.maximum, 100 - OVERHEAD);
    }

    #[test]
    fn a_long_period_keeps_the_whole_margin() {
        let b = default_budget(&byoyomi(10_000));
        assert_eq!(b.maximum, 10_000 - 100 - OVERHEAD);
        let wide = TimeOptions {
            byoyomi_margin: 1000,
            ..TimeOptions::default()
        };
        assert_eq!(budget(&byoyomi(10_000), &wide).unwrap().maximum, 8_980);
        // A margin as long as the period takes half of it, not all.
        assert_eq!(budget(&byoyomi(1000), &wide).unwrap().maximum, 480);
    }

    #[test]
    fn a_short_period_keeps_a_share_of_the_margin() {
        // The default keeps 100 * 300 / 800 = 37 ms of a 300 ms period.
        assert_eq!(default_budget(&byoyomi(300)).maximum, 300 - 37 - OVERHEAD);
        // A wider margin still makes short periods safer.
        let safe = TimeOptions {
            byoyomi_margin: 400,
            ..TimeOptions::default()
        };
        assert_eq!(budget(&byoyomi(100), &safe).unwrap().maximum, 30);
    }

    #[test]
    fn absurd_clocks_do_not_overflow() {
        let big = i64::MAX as u64;
        let c = Clock {
            time: Some(big),
            increment: big,
            byoyomi: big,
            moves_to_go: Some(big),
            ..Clock::default()
        };
        let b = default_budget(&c);
        assert!(b.optimum <= b.maximum);
        let b = default_budget(&Clock {
            moves_to_go: None,
            ..c
        });
        assert!(b.optimum <= b.maximum);
    }

    #[test]
    fn never_exceeds_the_clock() {
        let opts = [
            TimeOptions::default(),
            TimeOptions {
                byoyomi_margin: 0,
                minimum_thinking_time: 600_000,
                slow_mover: 1000,
            },
        ];
        for o in &opts {
            for time in [0, 1, 10, 100, 1000, 60_000, 3_600_000] {
                for byoyomi in [0, 100, 1000, 10_000] {
                    for increment in [0, 1000] {
                        for ply in [0, 80, 300] {
                            let c = Clock {
                                time: Some(time),
                                byoyomi,
                                increment,
                                ply,
                                ..Clock::default()
                            };
                            let b = budget(&c, o).unwrap();
                            assert!(b.optimum > 0 && b.optimum <= b.maximum, "{c:?} {b:?}");
                            let clock = time + byoyomi;
                            assert!(
                                b.maximum <= clock.saturating_sub(OVERHEAD).max(1),
                                "{c:?} {b:?}"
                            );
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn sudden_death_spreads_the_time() {
        let c = Clock {
            time: Some(300_000),
            ..Clock::default()
        };
        let b = default_budget(&c);
        assert_eq!(b.optimum, 5_000);
        assert_eq!(b.maximum, 20_000);
        // Later in the game fewer moves are left, so each gets more.
        let late = default_budget(&Clock { ply: 100, ..c });
        assert_eq!(late.optimum, 15_000);
        assert_eq!(late.maximum, 60_000);
        // Never more than a quarter of the time left.
        let short = default_budget(&Clock {
            time: Some(1000),
            ply: 200,
            ..c
        });
        assert!(short.maximum <= 250, "{short:?}");
    }

    #[test]
    fn increments_are_counted() {
        let c = Clock {
            time: Some(60_000),
            increment: 1000,
            ..Clock::default()
        };
        let b = default_budget(&c);
        // (60 s + 59 increments) / 60 moves.
        assert_eq!(b.optimum, 1983);
        assert_eq!(b.maximum, 4 * 1983);
        // With the clock nearly empty the increment is still spent, but never the clock itself.
        let low = default_budget(&Clock {
            time: Some(500),
            ..c
        });
        assert!(low.optimum >= 900 || low.optimum == low.maximum, "{low:?}");
        assert!(low.maximum <= 500 - OVERHEAD, "{low:?}");
    }

    #[test]
    fn main_time_then_byoyomi() {
        let c = Clock {
            time: Some(600_000),
            byoyomi: 10_000,
            ..Clock::default()
        };
        let b = default_budget(&c);
        assert_eq!(b.optimum, 10_000 + 9_900);
        assert_eq!(b.maximum, 40_000 + 9_900);
        // Less main time than a period: spend it all with the period.
        let b = default_budget(&Clock {
            time: Some(5_000),
            ..c
        });
        assert_eq!(b, Budget::fixed(15_000 - 100 - OVERHEAD));
    }

    #[test]
    fn movestogo_and_slow_mover() {
        let c = Clock {
            time: Some(100_000),
            moves_to_go: Some(10),
            ..Clock::default()
        };
        let b = default_budget(&c);
        assert_eq!((b.optimum, b.maximum), (10_000, 25_000));
        let last = default_budget(&Clock {
            moves_to_go: Some(1),
            ..c
        });
        assert_eq!(last, Budget::fixed(80_000));
        let slow = TimeOptions {
            slow_mover: 150,
            ..TimeOptions::default()
        };
        assert_eq!(budget(&c, &slow).unwrap().optimum, 15_000);
    }

    #[test]
    fn minimum_thinking_time_raises_the_target() {
        let c = Clock {
            time: Some(300_000),
            ..Clock::default()
        };
        let o = TimeOptions {
            minimum_thinking_time: 8000,
            ..TimeOptions::default()
        };
        assert_eq!(budget(&c, &o).unwrap().optimum, 8000);
    }

    #[test]
    fn movetime_is_fixed_and_no_clock_means_no_limit() {
        let c = Clock {
            movetime: Some(500),
            ..Clock::default()
        };
        let b = default_budget(&c);
        assert_eq!(b, Budget::fixed(480));
        assert_eq!(budget(&Clock::default(), &TimeOptions::default()), None);
    }

    #[test]
    fn the_trend_stretches_and_shrinks_the_target() {
        let (a, b) = (1, 2);
        let mut steady = Trend::default();
        for _ in 0..10 {
            steady.push(a, 50);
        }
        assert!(steady.scale() < 0.75, "{}", steady.scale());
        let mut changed = steady.clone();
        changed.push(b, 50);
        assert!(changed.scale() > 1.2, "{}", changed.scale());
        let mut falling = steady.clone();
        falling.push(a, -50);
        assert!(
            falling.scale() > steady.scale() * 1.4,
            "{}",
            falling.scale()
        );
        let mut both = changed.clone();
        both.push(a, -300);
        assert!(both.scale() <= SCALE_RANGE.1);
        // Mate scores say nothing about a fall.
        let mut mate = steady.clone();
        mate.push(a, -super::super::value::MATE + 10);
        assert!(mate.scale() < 1.0);
    }

    #[test]
    fn the_soft_limit_never_ends_a_fixed_allowance() {
        let trend = Trend::default();
        assert!(!soft_stop(&Budget::fixed(1000), 999_999, &trend));
        let b = Budget {
            optimum: 1000,
            maximum: 4000,
        };
        assert!(!soft_stop(&b, 599, &trend));
        assert!(soft_stop(&b, 600, &trend));
        let mut unsure = Trend::default();
        unsure.push(1, 0);
        unsure.push(2, 0);
        assert!(!soft_stop(&b, 1000, &unsure));
    }
}
