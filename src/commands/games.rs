//! `tsubame games`: the games of the registry and their settings, as a table for people or, with
//! `--json`, as one JSON document for the scripts of `tools/` (read through
//! `tools/tsubame_tools.py`), which list no game of their own. Everything printed comes from the
//! registry ([`GameId::ALL`] and each game's [`crate::games::GameInfo`]).

use serde::Serialize;

use crate::games::GameId;
use crate::games::info::{Learning, RecordFormat};

/// The document of `tsubame games --json`.
#[derive(Serialize, Debug)]
pub struct GamesDoc {
    /// The name of the game every program plays unless told otherwise (the registry's first).
    pub default: &'static str,
    /// Every game, in the registry's order.
    pub games: Vec<GameDoc>,
}

/// One game as `tsubame games --json` describes it.
#[derive(Serialize, Debug)]
pub struct GameDoc {
    /// Its registry name (`USI_Variant`'s value, `--variant`, `tsubame-match --game`).
    pub name: &'static str,
    /// Other names accepted for it (case is ignored for all).
    pub aliases: &'static [&'static str],
    /// Its name for people.
    pub title: &'static str,
    /// Its start position's SFEN.
    pub startpos: String,
    /// The side that moves first from the start, as SFENs and `tsubame-match`'s records write it:
    /// `"b"` (Black) or `"w"` (White). A record's `1-0` is a win of this side.
    pub first: &'static str,
    /// Files of the board.
    pub files: u8,
    /// Ranks of the board.
    pub ranks: u8,
    /// Its record formats besides the USI `position` line (`tsubame record`, the page).
    pub records: &'static [RecordFormat],
    /// Whether the binary holds a network for it (its evaluation is learned).
    pub network: bool,
    /// Whether `tsubame datagen` and `tsubame datainfo` take it (it stores training data).
    pub datagen: bool,
    /// Its exact table, when the game is solved (`tsubame solve`).
    pub exact_table: Option<ExactDoc>,
    /// Its rule options (USI options), with their defaults.
    pub rule_options: Vec<OptionDoc>,
    /// The engine options it declares and parses itself.
    pub param_options: Vec<&'static str>,
    /// How `tsubame-train` teaches its evaluation: `network-from-data`, `network-from-table` or
    /// `linear`.
    pub learning: &'static str,
    /// Its linear evaluation's weights and how a tuner sets them, for a game whose evaluation is
    /// a weighted sum.
    pub weights: Option<WeightsDoc>,
    /// The settings of the tools for it.
    pub tools: ToolsDoc,
}

/// A solved game's exact table in `tsubame games --json`.
#[derive(Serialize, Debug)]
pub struct ExactDoc {
    /// The USI option that names the table's file.
    pub option: &'static str,
    /// The `tsubame serve` flag that names it (without the dashes).
    pub flag: &'static str,
    /// The file `tsubame solve` writes by default.
    pub default_file: &'static str,
}

/// A rule option in `tsubame games --json`.
#[derive(Serialize, Debug)]
pub struct OptionDoc {
    /// The option's name.
    pub name: &'static str,
    /// Its default value, as text.
    pub default: &'static str,
}

/// A linear evaluation's weights in `tsubame games --json`.
#[derive(Serialize, Debug)]
pub struct WeightsDoc {
    /// The engine option that takes them all, separated by commas.
    pub option: &'static str,
    /// The weights' names, in their order.
    pub names: &'static [&'static str],
    /// The weights the engine ships.
    pub values: &'static [i32],
    /// The largest magnitude the option accepts.
    pub limit: i32,
    /// Each weight's SPSA perturbation (`tools/spsa-match`).
    pub steps: &'static [i32],
}

/// The tools' settings of a game in `tsubame games --json` (the registry's
/// [`crate::games::info::ToolInfo`]).
#[derive(Serialize, Debug)]
pub struct ToolsDoc {
    /// Random plies that open a match's games unless told otherwise (`tools/gauntlet`).
    pub random_plies: usize,
    /// Plies after which `tools/marathon-games` stops a game.
    pub marathon_max_plies: usize,
    /// Plies after which a tab of `tools/serve-soak` ends a game.
    pub soak_max_plies: usize,
    /// Deepest `go perft` whose count the fuzzer checks.
    pub fuzz_perft_depth: u32,
    /// Longest random walk from the start when the fuzzer makes positions.
    pub random_walk_plies: usize,
    /// Positions worth fuzzing that a random walk rarely reaches.
    pub fuzz_positions: &'static [&'static str],
}

/// The name `tsubame-train` and the JSON give a way of learning.
fn learning_name(learning: Learning) -> &'static str {
    match learning {
        Learning::NetworkFromData { .. } => "network-from-data",
        Learning::NetworkFromTable => "network-from-table",
        Learning::Linear { .. } => "linear",
    }
}

/// One game's description, from its registry entry.
fn game_doc(game: GameId) -> GameDoc {
    let info = game.info();
    let weights = match (info.learning, info.tools.weights) {
        (Learning::Linear { names, weights }, Some(tuning)) => Some(WeightsDoc {
            option: tuning.option,
            names,
            values: weights,
            limit: tuning.limit,
            steps: tuning.steps,
        }),
        _ => None,
    };
    GameDoc {
        name: game.name(),
        aliases: info.aliases,
        title: info.title,
        startpos: game.start_sfen(),
        first: info.page.first,
        files: info.page.files,
        ranks: info.page.ranks,
        records: info.records,
        network: game.has_network(),
        datagen: game.has_training_data(),
        exact_table: info.exact.map(|e| ExactDoc {
            option: e.option,
            flag: e.flag,
            default_file: e.default_file,
        }),
        rule_options: crate::games::EveryGameRules::options(&[game])
            .iter()
            .map(|o| OptionDoc {
                name: o.name,
                default: o.default,
            })
            .collect(),
        param_options: info.param_options.iter().map(|o| o.name).collect(),
        learning: learning_name(info.learning),
        weights,
        tools: ToolsDoc {
            random_plies: info.tools.random_plies,
            marathon_max_plies: info.tools.marathon_max_plies,
            soak_max_plies: info.tools.soak_max_plies,
            fuzz_perft_depth: info.tools.fuzz_perft_depth,
            random_walk_plies: info.tools.random_walk_plies,
            fuzz_positions: info.tools.fuzz_positions,
        },
    }
}

/// The description of every game of the registry.
pub fn document() -> GamesDoc {
    GamesDoc {
        default: GameId::DEFAULT.name(),
        games: GameId::ALL.into_iter().map(game_doc).collect(),
    }
}

/// The text of `tsubame games --json`: [`document`] as one line of JSON.
pub fn json() -> String {
    serde_json::to_string(&document()).expect("plain data serializes")
}

/// The lines of `tsubame games`: a table of the games, their start positions and the tools'
/// settings.
pub fn table() -> Vec<String> {
    let doc = document();
    let yes = |b: bool| if b { "yes" } else { "-" };
    let list = |items: Vec<&str>| {
        if items.is_empty() {
            "-".to_string()
        } else {
            items.join(", ")
        }
    };
    let rows: Vec<[String; 9]> = doc
        .games
        .iter()
        .map(|g| {
            [
                g.name.to_string(),
                g.title.to_string(),
                list(g.aliases.to_vec()),
                if g.first == "w" { "White" } else { "Black" }.to_string(),
                format!("{}x{}", g.files, g.ranks),
                list(g.records.iter().map(|r| r.name).collect()),
                yes(g.network).to_string(),
                yes(g.datagen).to_string(),
                g.exact_table.as_ref().map_or("-", |e| e.option).to_string(),
            ]
        })
        .collect();
    let head = [
        "game", "title", "aliases", "first", "board", "records", "network", "datagen", "exact",
    ];
    let mut widths = head.map(str::len);
    for row in &rows {
        for (w, cell) in widths.iter_mut().zip(row) {
            *w = (*w).max(cell.chars().count());
        }
    }
    let line = |cells: &[&str]| {
        let padded: Vec<String> = cells
            .iter()
            .zip(widths)
            .map(|(c, w)| format!("{c:<w$}"))
            .collect();
        padded.join("  ").trim_end().to_string()
    };
    let mut out = vec![line(&head)];
    for row in &rows {
        out.push(line(&row.each_ref().map(String::as_str)));
    }
    let name_width = widths[0];
    out.push(String::new());
    out.push("start positions:".into());
    for g in &doc.games {
        out.push(format!("  {:<name_width$}  {}", g.name, g.startpos));
    }
    out.push(String::new());
    out.push("tools (random opening plies, marathon and soak game lengths in plies):".into());
    for g in &doc.games {
        let t = &g.tools;
        out.push(format!(
            "  {:<name_width$}  random plies {}, marathon {}, soak {}",
            g.name, t.random_plies, t.marathon_max_plies, t.soak_max_plies
        ));
    }
    out.push(String::new());
    out.push(format!(
        "default: {} (played unless told otherwise); `tsubame games --json` says all of it for \
         the tools",
        doc.default
    ));
    out
}

/// Prints the table, or the JSON document when `json` is set.
pub fn run(json: bool) {
    if json {
        println!("{}", self::json());
    } else {
        for line in table() {
            println!("{line}");
        }
    }
}
