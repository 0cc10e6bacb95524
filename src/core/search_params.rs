//! The search's tunable numbers as run-time data: [`SearchParams`], one copy per search, with a
//! default for each game ([`SearchGame::default_params`](super::search_game::SearchGame)), and
//! [`TUNABLES`], the one list from which the USI options and the SPSA listing are made.
//!
//! Numbers that size tables or set the search's structure (the deepest ply, the history cap, the
//! clock's polling interval) stay constants in `search::params`.

/// Slots for the parameters of a game's hand-written evaluation in [`SearchParams::eval`].
pub const EVAL_PARAMS: usize = 8;

/// The tuned numbers of the search, read at every node from the searching thread's copy.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SearchParams {
    /// Half-width of the first aspiration window around the previous iteration's value.
    pub aspiration_window: i32,
    /// Aspiration starts from this depth; shallower iterations are too unstable to profit.
    pub aspiration_min_depth: i32,
    /// Reverse futility: a node whose static evaluation beats beta by this much per ply is cut.
    pub rfp_margin: i32,
    /// Reverse futility applies up to this depth.
    pub rfp_max_depth: i32,
    /// Null-move pruning needs at least this depth.
    pub nmp_min_depth: i32,
    /// Base null-move reduction; grows by one every `nmp_depth_divisor` plies.
    pub nmp_base_reduction: i32,
    /// See [`SearchParams::nmp_base_reduction`].
    pub nmp_depth_divisor: i32,
    /// Futility pruning of quiet moves: margin per ply of remaining depth.
    pub futility_margin: i32,
    /// Futility pruning applies up to this depth.
    pub futility_max_depth: i32,
    /// Late-move pruning: quiet moves after `lmp_base + depth²` are skipped at shallow depth.
    pub lmp_base: i32,
    /// Late-move pruning applies up to this depth.
    pub lmp_max_depth: i32,
    /// Captures losing more than this per ply of depth (static exchange) are skipped at low depth.
    pub see_capture_margin: i32,
    /// Quiet moves losing more than this per ply (static exchange) are skipped at low depth.
    pub see_quiet_margin: i32,
    /// Late-move reduction formula, in hundredths:
    /// `lmr_base / 100 + ln(depth) · ln(moves) / (lmr_divisor / 100)`.
    pub lmr_base: i32,
    /// See [`SearchParams::lmr_base`].
    pub lmr_divisor: i32,
    /// Late-move reductions shrink by one ply per this much quiet-move history (butterfly plus
    /// two continuation tables, each within ±`HISTORY_MAX`).
    pub lmr_history_divisor: i32,
    /// Singular extensions are tried from this depth on.
    pub se_min_depth: i32,
    /// Singular extension: the other moves must fail low by `se_margin · depth / 8` below the
    /// table value for the table move to be extended.
    pub se_margin: i32,
    /// Quiescence: margin over the captured piece's value before a capture is considered
    /// hopeless.
    pub delta_margin: i32,
    /// Quiescence considers non-capturing promotions only this many plies deep.
    pub qs_promotion_plies: i32,
    /// The parameters of the game's hand-written evaluation, as the game defines them in its
    /// default (unused, zero, for a game whose evaluation has none).
    pub eval: [i32; EVAL_PARAMS],
}

impl Default for SearchParams {
    fn default() -> Self {
        SearchParams {
            aspiration_window: 40,
            aspiration_min_depth: 5,
            rfp_margin: 90,
            rfp_max_depth: 6,
            nmp_min_depth: 3,
            nmp_base_reduction: 3,
            nmp_depth_divisor: 4,
            futility_margin: 110,
            futility_max_depth: 7,
            lmp_base: 4,
            lmp_max_depth: 6,
            see_capture_margin: 100,
            see_quiet_margin: 60,
            lmr_base: 75,
            lmr_divisor: 225,
            lmr_history_divisor: 12288,
            se_min_depth: 7,
            se_margin: 16,
            delta_margin: 200,
            qs_promotion_plies: 1,
            eval: [0; EVAL_PARAMS],
        }
    }
}

/// One tunable parameter: its option name, its range, the step SPSA perturbs it by, and how to
/// read and write it in a [`SearchParams`].
#[derive(Clone, Copy, Debug)]
pub struct Tunable {
    /// The USI option name.
    pub name: &'static str,
    /// Smallest accepted value.
    pub min: i32,
    /// Largest accepted value.
    pub max: i32,
    /// The step of an SPSA perturbation (OpenBench's `C_end`).
    pub step: i32,
    /// Reads the parameter.
    pub get: fn(&SearchParams) -> i32,
    /// Writes the parameter (the value within `min..=max`).
    pub set: fn(&mut SearchParams, i32),
}

/// Builds [`TUNABLES`] from `(field, name, min, max, step)` rows.
macro_rules! tunables {
    ($(($field:ident, $name:literal, $min:expr, $max:expr, $step:expr)),* $(,)?) => {
        /// Every tunable parameter of the search, in the order of [`SearchParams`]'s fields.
        pub const TUNABLES: &[Tunable] = &[$(Tunable {
            name: $name,
            min: $min,
            max: $max,
            step: $step,
            get: |p| p.$field,
            set: |p, v| p.$field = v,
        }),*];
    };
}

tunables![
    (aspiration_window, "AspirationWindow", 5, 200, 5),
    (aspiration_min_depth, "AspirationMinDepth", 1, 20, 1),
    (rfp_margin, "RfpMargin", 10, 400, 10),
    (rfp_max_depth, "RfpMaxDepth", 0, 20, 1),
    (nmp_min_depth, "NmpMinDepth", 1, 20, 1),
    (nmp_base_reduction, "NmpBaseReduction", 0, 10, 1),
    (nmp_depth_divisor, "NmpDepthDivisor", 1, 16, 1),
    (futility_margin, "FutilityMargin", 10, 500, 10),
    (futility_max_depth, "FutilityMaxDepth", 0, 20, 1),
    (lmp_base, "LmpBase", 0, 32, 1),
    (lmp_max_depth, "LmpMaxDepth", 0, 20, 1),
    (see_capture_margin, "SeeCaptureMargin", 0, 500, 10),
    (see_quiet_margin, "SeeQuietMargin", 0, 500, 10),
    (lmr_base, "LmrBase", 0, 300, 10),
    (lmr_divisor, "LmrDivisor", 50, 1000, 15),
    (lmr_history_divisor, "LmrHistoryDivisor", 1024, 65536, 512),
    (se_min_depth, "SeMinDepth", 2, 30, 1),
    (se_margin, "SeMargin", 1, 128, 2),
    (delta_margin, "DeltaMargin", 0, 1000, 20),
    (qs_promotion_plies, "QsPromotionPlies", 0, 8, 1),
];

/// The tunable parameter named `name` (case ignored, as USI option names are).
pub fn tunable(name: &str) -> Option<&'static Tunable> {
    TUNABLES.iter().find(|t| t.name.eq_ignore_ascii_case(name))
}

impl Tunable {
    /// The line that declares the parameter as a USI option, with `params`' value as default.
    pub fn declaration(&self, params: &SearchParams) -> String {
        format!(
            "option name {} type spin default {} min {} max {}",
            self.name,
            (self.get)(params),
            self.min,
            self.max
        )
    }

    /// The parameter as an SPSA input line in OpenBench's form:
    /// `name, int, value, min, max, C_end, R_end`.
    pub fn spsa_line(&self, params: &SearchParams) -> String {
        format!(
            "{}, int, {}, {}, {}, {}, 0.002",
            self.name,
            (self.get)(params),
            self.min,
            self.max,
            self.step
        )
    }

    /// The parameter as an entry of a shogiarena SPSA space file (schema
    /// `shogiarena.spsa.space.v1`, YAML): the USI option, the value in `params` as the start,
    /// the accepted range as bounds, `step` as the final perturbation (`c_end`) and OpenBench's
    /// usual 0.002 as the final step ratio (`r_end`).
    pub fn shogiarena_entry(&self, params: &SearchParams) -> String {
        format!(
            "  - id: {name}\n    target: {{option: {name}}}\n    value_type: int\n    \
             initial: {}\n    bounds: {{min: {}, max: {}}}\n    \
             schedule: {{c_end: {}, r_end: 0.002}}\n",
            (self.get)(params),
            self.min,
            self.max,
            self.step,
            name = self.name,
        )
    }
}

/// The search parameters as shogiarena's tunable manifest (schema
/// `shogiarena.usi_tunables.v1`, one line of JSON), with `params` as the defaults: the answer to
/// `usi_tunables`, which shogiarena sends before an SPSA run to check its space file against
/// the engine.
pub fn shogiarena_manifest(params: &SearchParams) -> String {
    let tunables: Vec<serde_json::Value> = TUNABLES
        .iter()
        .map(|t| {
            serde_json::json!({
                "id": t.name,
                "option": t.name,
                "value_type": "int",
                "default": (t.get)(params),
                "min": t.min,
                "max": t.max,
                "schedule": {"c_end": t.step, "r_end": 0.002},
            })
        })
        .collect();
    serde_json::json!({
        "schema_version": "shogiarena.usi_tunables.v1",
        "tunables": tunables,
    })
    .to_string()
}

/// The head of a shogiarena SPSA space file for tsubame; [`Tunable::shogiarena_entry`] gives
/// the lines that follow, one entry per parameter. It asks shogiarena to check the entries
/// against the engine's own manifest ([`shogiarena_manifest`]) before the run.
pub const SHOGIARENA_SPACE_HEAD: &str = "schema_version: shogiarena.spsa.space.v1\n\
target:\n  engine_family: tsubame\n  protocol: usi_options\n  \
tunable_manifest: {required: true, command: usi_tunables}\nparameters:\n";

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_tunable_reads_and_writes_its_own_field_and_its_default_is_in_range() {
        let d = SearchParams::default();
        for (i, t) in TUNABLES.iter().enumerate() {
            let v = (t.get)(&d);
            assert!((t.min..=t.max).contains(&v), "{}: {v}", t.name);
            assert!(t.step > 0 && t.step <= t.max - t.min, "{}", t.name);
            let mut p = d;
            (t.set)(&mut p, v + 1);
            assert_eq!((t.get)(&p), v + 1, "{}", t.name);
            for (j, u) in TUNABLES.iter().enumerate() {
                if j != i {
                    assert_eq!((u.get)(&p), (u.get)(&d), "{} touched {}", t.name, u.name);
                }
            }
            assert_eq!(
                tunable(&t.name.to_uppercase()).map(|u| u.name),
                Some(t.name)
            );
        }
        assert!(tunable("Threads").is_none());
    }
}
