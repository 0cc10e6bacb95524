//! The engine's options: their values, their ranges, and checked updates by name (the names
//! USI's `setoption` uses).

use crate::core::rules::choice;
use crate::core::text::excerpt;
use std::collections::BTreeMap;

use crate::core::search_params::{SearchParams, tunable};
use crate::games::{EveryGameRules, GameId};
use crate::search::skill::{LEVEL_ELO, Skill};
use crate::search::time::TimeOptions;

/// Every option value the engine keeps.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Options {
    /// `USI_Hash`: transposition table size in MiB.
    pub hash_mib: usize,
    /// `Threads`: search threads.
    pub threads: usize,
    /// `USI_Ponder`: the GUI may ask us to ponder.
    pub ponder: bool,
    /// `MultiPV`: number of principal variations reported.
    pub multipv: usize,
    /// Rule options: `MaxMovesToDraw` and every game's own (declared by the games).
    pub rules: EveryGameRules,
    /// `ByoyomiMargin`, `MinimumThinkingTime` and `SlowMover`.
    pub time: TimeOptions,
    /// The file of each game's exact table, by the game's option ([`crate::games::info::ExactInfo`];
    /// empty: none), indexed by [`GameId`].
    pub exact_files: [String; GameId::ALL.len()],
    /// `SearchPruning`: the selective search (off: plain alpha-beta, for strength comparisons).
    pub pruning: bool,
    /// `EvalType`: `nnue` evaluates with the game's network (the embedded one, or the
    /// `EvalFile`) where the game has one; `classic` with the hand-written evaluation.
    pub nnue: bool,
    /// `EvalFile`: the network file last loaded (empty: the networks built into the binary).
    pub eval_file: String,
    /// The values of the options the games parse themselves
    /// ([`crate::games::info::ParamOption`]), by option name, as last accepted.
    pub param_values: BTreeMap<&'static str, String>,
    /// `Tuning`: the `usi` answer also declares the search parameters ([`TUNABLES`]).
    pub tuning: bool,
    /// The search parameters set by `setoption` (by their names in [`TUNABLES`]); they replace
    /// the defaults of whichever game is played, and stay through `USI_Variant` changes.
    pub search_overrides: BTreeMap<&'static str, i32>,
    /// `SkillLevel`: 0 (weakest) to 20 (full strength); see [`crate::search::skill`].
    pub skill_level: u32,
    /// `USI_LimitStrength`: play at the strength `USI_Elo` asks (it overrides `SkillLevel`).
    pub limit_strength: bool,
    /// `USI_Elo`: the strength asked for with `USI_LimitStrength`, on the scale of the measured
    /// table ([`LEVEL_ELO`]).
    pub elo: i32,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            hash_mib: 64,
            threads: 1,
            ponder: false,
            multipv: 1,
            rules: EveryGameRules::default(),
            time: TimeOptions::default(),
            exact_files: Default::default(),
            pruning: true,
            nnue: true,
            eval_file: String::new(),
            param_values: BTreeMap::new(),
            tuning: false,
            search_overrides: BTreeMap::new(),
            skill_level: Skill::FULL,
            limit_strength: false,
            elo: LEVEL_ELO[LEVEL_ELO.len() - 1],
        }
    }
}

/// Limits of the numeric options.
pub const HASH_RANGE: (u64, u64) = (1, 65536);
/// The most threads ever allowed, whatever the machine.
pub const THREADS_LIMIT: u64 = 256;

/// Limits of `Threads`: from 1 to twice the machine's logical processors (at most
/// [`THREADS_LIMIT`], at least 2). More threads than that add no strength to Lazy SMP, and
/// hundreds of threads on a few cores make `stop` slow (each must be scheduled to see it).
pub fn threads_range() -> (u64, u64) {
    let cpus = std::thread::available_parallelism().map_or(1, |n| n.get()) as u64;
    (1, (2 * cpus).clamp(2, THREADS_LIMIT))
}
/// See [`HASH_RANGE`].
pub const MULTIPV_RANGE: (u64, u64) = (1, 600);
/// See [`HASH_RANGE`].
pub const MAX_MOVES_RANGE: (u64, u64) = (0, 100_000);
/// See [`HASH_RANGE`].
pub const TIME_OPTION_RANGE: (u64, u64) = (0, 600_000);
/// See [`HASH_RANGE`].
pub const SKILL_RANGE: (u64, u64) = (0, Skill::FULL as u64);

/// The range of `USI_Elo`: the measured table's.
pub fn elo_range() -> (u64, u64) {
    (LEVEL_ELO[0] as u64, LEVEL_ELO[LEVEL_ELO.len() - 1] as u64)
}
/// See [`HASH_RANGE`]; a percentage.
pub const SLOW_MOVER_RANGE: (u64, u64) = (10, 1000);

/// What a `setoption` did.
#[derive(Debug, PartialEq, Eq)]
pub enum SetResult {
    /// The value was stored.
    Set,
    /// Not an option of ours (acknowledged and ignored).
    Unknown,
}

/// The error for a `setoption` without a value (or with `value` and nothing after it).
fn missing(name: &str, value: &str) -> Result<(), String> {
    if value.trim().is_empty() {
        return Err(format!("{name}: the value is missing"));
    }
    Ok(())
}

fn number(name: &str, value: &str, (min, max): (u64, u64)) -> Result<u64, String> {
    missing(name, value)?;
    let text = value.trim();
    // A whole number of any sign or size is read as one, so that `-5` or `99999999999999999999`
    // is told to be out of range rather than not a number.
    let digits = text.strip_prefix(['-', '+']).unwrap_or(text);
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return Err(format!(
            "{name} needs a whole number from {min} to {max}, got '{}'",
            excerpt(value, 40)
        ));
    }
    match text
        .parse::<i128>()
        .ok()
        .and_then(|v| u64::try_from(v).ok())
    {
        Some(v) if (min..=max).contains(&v) => Ok(v),
        _ => Err(format!(
            "{name} {} is out of range {min}..{max}",
            excerpt(text, 40)
        )),
    }
}

fn boolean(name: &str, value: &str) -> Result<bool, String> {
    missing(name, value)?;
    match value.trim().to_ascii_lowercase().as_str() {
        "true" => Ok(true),
        "false" => Ok(false),
        _ => Err(format!("{name} must be true or false, got '{value}'")),
    }
}

impl Options {
    /// Applies `setoption name <name> value <value>` for every option but `USI_Variant`.
    /// An invalid or missing value leaves the option unchanged and returns why (an empty value is
    /// valid only for `NanaTablebase`, where it means no table).
    pub fn set(&mut self, name: &str, value: &str) -> Result<SetResult, String> {
        if let Some(t) = tunable(name) {
            let range = (t.min as u64, t.max as u64);
            let v = number(t.name, value, range)? as i32;
            self.search_overrides.insert(t.name, v);
            return Ok(SetResult::Set);
        }
        if name.eq_ignore_ascii_case("Tuning") {
            self.tuning = boolean(name, value)?;
            return Ok(SetResult::Set);
        }
        match name.to_ascii_lowercase().as_str() {
            "usi_hash" | "hash" => self.hash_mib = number(name, value, HASH_RANGE)? as usize,
            "threads" => self.threads = number(name, value, threads_range())? as usize,
            "usi_ponder" | "ponder" => self.ponder = boolean(name, value)?,
            "searchpruning" => self.pruning = boolean(name, value)?,
            "skilllevel" | "skill level" => {
                self.skill_level = number(name, value, SKILL_RANGE)? as u32
            }
            "usi_limitstrength" => self.limit_strength = boolean(name, value)?,
            "usi_elo" => self.elo = number(name, value, elo_range())? as i32,
            "evaltype" => self.nnue = choice(name, value, &[("nnue", true), ("classic", false)])?,
            "evalfile" => {
                let v = value.trim();
                self.eval_file = if v == "<empty>" { "" } else { v }.to_string();
            }
            "multipv" | "usi_multipv" => {
                self.multipv = number(name, value, MULTIPV_RANGE)? as usize
            }
            "maxmovestodraw" => {
                self.rules.max_moves_to_draw = number(name, value, MAX_MOVES_RANGE)? as u32
            }
            "byoyomimargin" => self.time.byoyomi_margin = number(name, value, TIME_OPTION_RANGE)?,
            "minimumthinkingtime" => {
                self.time.minimum_thinking_time = number(name, value, TIME_OPTION_RANGE)?
            }
            "slowmover" => self.time.slow_mover = number(name, value, SLOW_MOVER_RANGE)?,
            _ if self.set_game_option(name, value)? => {}
            _ if self.rules.set(name, value)? => {}
            _ => return Ok(SetResult::Unknown),
        }
        Ok(SetResult::Set)
    }
}

impl Options {
    /// Sets an option a game declares: the file of its exact table, or an option it parses into
    /// its search parameters. `Ok(false)` when no game declares `name`.
    fn set_game_option(&mut self, name: &str, value: &str) -> Result<bool, String> {
        for (game, exact) in GameId::with_exact_tables() {
            if exact.option.eq_ignore_ascii_case(name) {
                let v = value.trim();
                self.exact_files[game as usize] = if v == "<empty>" { "" } else { v }.to_string();
                return Ok(true);
            }
        }
        for game in GameId::ALL {
            for option in game.info().param_options {
                if option.name.eq_ignore_ascii_case(name) {
                    missing(name, value)?;
                    (option.apply)(value, game.default_params())
                        .map_err(|e| format!("{name}: {e}"))?;
                    self.param_values.insert(option.name, value.to_string());
                    return Ok(true);
                }
            }
        }
        Ok(false)
    }

    /// The limited strength these options ask for (`None`: full strength), its choices drawn
    /// from `seed`: `USI_Elo` when `USI_LimitStrength` is on, else `SkillLevel` below 20.
    pub fn skill(&self, seed: u64) -> Option<Skill> {
        if self.limit_strength {
            Some(Skill::from_elo(self.elo, seed))
        } else if self.skill_level < Skill::FULL {
            Some(Skill::new(self.skill_level as f64, seed))
        } else {
            None
        }
    }

    /// The search parameters for `game`: its defaults, changed by the options it declares itself
    /// (its evaluation's weights) and by the parameters set by `setoption`.
    pub fn search_params(&self, game: GameId) -> SearchParams {
        let mut params = game.default_params();
        for option in game.info().param_options {
            if let Some(value) = self.param_values.get(option.name) {
                // Checked when set.
                params = (option.apply)(value, params).unwrap_or(params);
            }
        }
        for (name, &v) in &self.search_overrides {
            let t = tunable(name).expect("overrides are stored under tunable names");
            (t.set)(&mut params, v);
        }
        params
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_missing_value_is_named_as_such() {
        let mut o = Options::default();
        for name in ["USI_Hash", "Threads", "USI_Ponder", "EnteringKingRule"] {
            let e = o.set(name, "").unwrap_err();
            assert!(e.contains("the value is missing"), "{e}");
        }
        assert_eq!(o, Options::default());
        assert_eq!(o.set("NanaTablebase", ""), Ok(SetResult::Set));
    }

    #[test]
    fn give_and_take_weights_are_checked() {
        let mut o = Options::default();
        assert!(o.set("GiveAndTakeWeights", "1,2,3").is_err());
        assert_eq!(o, Options::default());
        assert_eq!(
            o.set("GiveAndTakeWeights", "90,310,5,2,1,20,8"),
            Ok(SetResult::Set)
        );
        let owns = |g: &GameId| {
            g.info()
                .param_options
                .iter()
                .any(|p| p.name == "GiveAndTakeWeights")
        };
        let owner = GameId::ALL.into_iter().find(owns).unwrap();
        let params = o.search_params(owner);
        assert_eq!(params.eval[..7], [90, 310, 5, 2, 1, 20, 8]);
        for other in GameId::ALL.into_iter().filter(|g| !owns(g)) {
            assert_eq!(o.search_params(other), other.default_params());
        }
    }

    #[test]
    fn threads_are_capped_by_the_machine() {
        let (_, max) = threads_range();
        assert!((2..=THREADS_LIMIT).contains(&max));
        let mut o = Options::default();
        assert!(o.set("Threads", &max.to_string()).is_ok());
        assert!(o.set("Threads", &(max + 1).to_string()).is_err());
    }
}
