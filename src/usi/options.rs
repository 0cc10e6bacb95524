//! The `option` lines of the `usi` answer: every engine option with its type, default and range.

use crate::core::search_params::TUNABLES;
use crate::engine::options::{
    HASH_RANGE, MAX_MOVES_RANGE, MULTIPV_RANGE, Options, SKILL_RANGE, SLOW_MOVER_RANGE,
    TIME_OPTION_RANGE, elo_range, threads_range,
};
use crate::games::{EveryGameRules, GameId};

/// The `option` lines of the `usi` answer, the game choice first.
pub fn declarations(current_game: GameId) -> Vec<String> {
    let o = Options::default();
    let combo = |name: &str, default: &str, vars: &[&str]| {
        let vars: String = vars.iter().map(|v| format!(" var {v}")).collect();
        format!("option name {name} type combo default {default}{vars}")
    };
    let spin = |name: &str, default: u64, (min, max): (u64, u64)| {
        format!("option name {name} type spin default {default} min {min} max {max}")
    };
    let rules = |ids: &[GameId]| {
        EveryGameRules::options(ids)
            .into_iter()
            .map(|o| o.declaration())
            .collect::<Vec<_>>()
    };
    vec![
        combo(
            "USI_Variant",
            current_game.name(),
            &GameId::ALL.map(GameId::name),
        ),
        spin("USI_Hash", o.hash_mib as u64, HASH_RANGE),
        spin("Threads", o.threads as u64, threads_range()),
        "option name USI_Ponder type check default false".into(),
        spin("MultiPV", o.multipv as u64, MULTIPV_RANGE),
        spin("SkillLevel", o.skill_level as u64, SKILL_RANGE),
        "option name USI_LimitStrength type check default false".into(),
        spin("USI_Elo", o.elo as u64, elo_range()),
    ]
    .into_iter()
    // The first game's rule options, `MaxMovesToDraw`, then the other games' (the order of old).
    .chain(rules(&GameId::ALL[..1]))
    .chain([spin("MaxMovesToDraw", 0, MAX_MOVES_RANGE)])
    .chain(rules(&GameId::ALL[1..]))
    .chain([
        spin("ByoyomiMargin", o.time.byoyomi_margin, TIME_OPTION_RANGE),
        spin(
            "MinimumThinkingTime",
            o.time.minimum_thinking_time,
            TIME_OPTION_RANGE,
        ),
        spin("SlowMover", o.time.slow_mover, SLOW_MOVER_RANGE),
    ])
    .chain(
        GameId::with_exact_tables()
            .map(|(_, e)| format!("option name {} type filename default <empty>", e.option)),
    )
    .chain([
        "option name SearchPruning type check default true".into(),
        combo("EvalType", "nnue", &["nnue", "classic"]),
        "option name EvalFile type filename default <empty>".into(),
    ])
    .chain(
        GameId::ALL
            .iter()
            .flat_map(|g| g.info().param_options)
            .map(|p| (p.declaration)()),
    )
    .collect()
}

/// The `option` lines that follow [`declarations`]: `Tuning`, and with `tuning` on the search
/// parameters, each with `game`'s default.
pub fn tuning_declarations(game: GameId, tuning: bool) -> Vec<String> {
    let mut lines = vec!["option name Tuning type check default false".to_string()];
    if tuning {
        let defaults = game.default_params();
        lines.extend(TUNABLES.iter().map(|t| t.declaration(&defaults)));
    }
    lines
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn threads_and_files_are_declared() {
        let (_, max) = threads_range();
        let lines = declarations(GameId::DEFAULT);
        assert!(
            lines
                .iter()
                .any(|l| *l == format!("option name Threads type spin default 1 min 1 max {max}"))
        );
        for (_, exact) in GameId::with_exact_tables() {
            let line = format!("option name {} type filename default <empty>", exact.option);
            assert!(lines.contains(&line), "{line}");
        }
    }
}
