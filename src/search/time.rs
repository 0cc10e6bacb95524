//! Time management: how long to think given the clock, byoyomi, increment or a fixed move time.

/// The clock situation of a `go` command, in milliseconds.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Clock {
    /// Time left on the mover's main clock.
    pub time: Option<u64>,
    /// The mover's increment per move (Fischer).
    pub increment: u64,
    /// Byoyomi period.
    pub byoyomi: u64,
    /// A fixed time for this move (`movetime`).
    pub movetime: Option<u64>,
}

/// Options that shape the allocation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TimeOptions {
    /// Milliseconds kept back from each byoyomi period (`ByoyomiMargin`), against transmission lag.
    pub byoyomi_margin: u64,
    /// Think at least this long when the clock allows (`MinimumThinkingTime`).
    pub minimum_thinking_time: u64,
}

impl Default for TimeOptions {
    fn default() -> Self {
        TimeOptions {
            byoyomi_margin: 1000,
            minimum_thinking_time: 0,
        }
    }
}

/// The time budget of one move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Budget {
    /// Aim to finish the iteration in progress near this time (scaled by the search's stability).
    pub optimum: u64,
    /// Never think longer than this.
    pub maximum: u64,
}

/// Milliseconds always kept back from the clock for process and pipe latency.
const OVERHEAD: u64 = 30;
/// The number of moves the remaining main time is spread over.
const MOVES_HORIZON: u64 = 30;
/// The longest a single move may take, as a fraction of the remaining main time.
const MAX_FRACTION: f64 = 0.25;

/// The budget for a move, or `None` when the clock sets no limit (`go infinite`, depth-only, ...).
pub fn budget(clock: &Clock, opts: &TimeOptions) -> Option<Budget> {
    if let Some(mt) = clock.movetime {
        let t = mt.saturating_sub(OVERHEAD.min(mt / 10)).max(1);
        return Some(Budget {
            optimum: t,
            maximum: t,
        });
    }
    // `go byoyomi 1000` without main times (as some clients send it) means no main time left.
    let time = match clock.time {
        Some(t) => t,
        None if clock.byoyomi > 0 || clock.increment > 0 => 0,
        None => return None,
    };
    let margin = if clock.byoyomi > 0 {
        opts.byoyomi_margin.min(clock.byoyomi.saturating_sub(1))
    } else {
        0
    };
    // The whole of what can be spent on this move without losing on time.
    let hard = (time + clock.byoyomi)
        .saturating_sub(margin)
        .saturating_sub(OVERHEAD)
        .max(1);
    let base = time / MOVES_HORIZON + clock.increment * 3 / 4;
    let mut optimum = base + clock.byoyomi.saturating_sub(margin);
    let mut maximum = ((time as f64 * MAX_FRACTION) as u64 + clock.increment).max(optimum)
        + clock.byoyomi.saturating_sub(margin);
    if time == 0 && clock.byoyomi > 0 {
        // Pure byoyomi: the period is lost if unused, so use nearly all of it.
        optimum = hard;
    }
    optimum = optimum.max(opts.minimum_thinking_time);
    maximum = maximum.max(opts.minimum_thinking_time);
    Some(Budget {
        optimum: optimum.min(hard),
        maximum: maximum.min(hard),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn byoyomi_only_uses_the_period_less_the_margin() {
        let c = Clock {
            time: Some(0),
            byoyomi: 1000,
            ..Clock::default()
        };
        let o = TimeOptions {
            byoyomi_margin: 100,
            minimum_thinking_time: 0,
        };
        let b = budget(&c, &o).unwrap();
        assert!(b.maximum <= 1000 - 100 && b.maximum >= 800, "{b:?}");
    }

    #[test]
    fn never_exceeds_the_clock() {
        for time in [0, 1, 10, 100, 1000, 60_000, 3_600_000] {
            for byoyomi in [0, 100, 1000, 10_000] {
                for increment in [0, 1000] {
                    let c = Clock {
                        time: Some(time),
                        byoyomi,
                        increment,
                        movetime: None,
                    };
                    let b = budget(&c, &TimeOptions::default()).unwrap();
                    assert!(b.optimum <= b.maximum, "{c:?} {b:?}");
                    assert!(b.maximum <= (time + byoyomi).max(1), "{c:?} {b:?}");
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
        let b = budget(&c, &TimeOptions::default()).unwrap();
        assert_eq!(b.optimum, 10_000);
        assert_eq!(b.maximum, 75_000);
    }

    #[test]
    fn movetime_is_fixed_and_no_clock_means_no_limit() {
        let c = Clock {
            movetime: Some(500),
            ..Clock::default()
        };
        let b = budget(&c, &TimeOptions::default()).unwrap();
        assert_eq!(b.optimum, b.maximum);
        assert!(b.maximum <= 500 && b.maximum >= 450);
        assert_eq!(budget(&Clock::default(), &TimeOptions::default()), None);
        let byoyomi_only = Clock {
            byoyomi: 1000,
            ..Clock::default()
        };
        assert!(budget(&byoyomi_only, &TimeOptions::default()).is_some());
    }
}
