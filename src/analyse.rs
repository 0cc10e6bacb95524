//! `tsubame analyse`: the engine at work for a person at a terminal: the board as a diagram, then
//! the best line and score in plain words as the search deepens.

use std::time::Duration;

use crate::core::color::Color;
use crate::core::repetition::HistoryEntry;
use crate::core::rules::RuleOptions;
use crate::search::tt::TranspositionTable;
use crate::search::value::{MATE, is_mate_score};
use crate::search::{self, Limits, SearchGame, SearchSetup, Shared};

/// Describes a score (from the side to move's view) in words, from Black's point of view.
fn verdict_words(score: i32, side: Color) -> String {
    let black = if side == Color::Black { score } else { -score };
    if is_mate_score(black) {
        let plies = MATE - black.abs();
        let who = if black > 0 { "Black" } else { "White" };
        return format!("{who} mates in {plies} plies");
    }
    let (who, v) = if black >= 0 {
        ("Black", black)
    } else {
        ("White", -black)
    };
    let how = match v {
        0..=49 => return format!("about even ({:+.2})", black as f64 / 100.0),
        50..=199 => "slightly better",
        200..=599 => "better",
        600..=1499 => "much better",
        _ => "winning",
    };
    format!(
        "{who} is {how} ({:+.2} pawns for Black)",
        black as f64 / 100.0
    )
}

/// Analyses `sfen` (or the start) after `moves` for `time_ms`, printing to stdout.
pub fn analyse<G: SearchGame>(
    sfen: Option<&str>,
    moves: &[String],
    time_ms: u64,
) -> Result<(), String> {
    let mut pos = match sfen {
        Some(s) => G::from_sfen(s).map_err(|e| format!("bad SFEN: {e}"))?,
        None => G::startpos(),
    };
    let mut history = vec![HistoryEntry {
        key: pos.key(),
        in_check: pos.in_check(),
    }];
    for m in moves {
        let mv = pos.parse_move(m).map_err(|e| e.to_string())?;
        pos.play(mv);
        history.push(HistoryEntry {
            key: pos.key(),
            in_check: pos.in_check(),
        });
    }
    println!("{}", pos.diagram());
    println!("SFEN: {}", pos.to_sfen());
    println!("Thinking for {:.1} s...", time_ms as f64 / 1000.0);
    let tt = TranspositionTable::new(64);
    let shared = Shared::default();
    shared.set_budget(Some(search::time::Budget {
        optimum: time_ms,
        maximum: time_ms,
    }));
    let side = pos.side_to_move();
    let shown = pos.clone();
    let report = move |r: &search::Report| {
        let line: Vec<String> = r.pv.iter().map(|&m| shown.move_to_usi(m)).collect();
        println!(
            "depth {:>2}: {} — best line {} ({} nodes, {:.1} s)",
            r.depth,
            verdict_words(r.score, side),
            line.join(" "),
            r.nodes,
            r.time_ms as f64 / 1000.0
        );
    };
    let setup = SearchSetup {
        history: &history,
        rules: RuleOptions::default(),
        limits: Limits {
            multipv: 1,
            ..Limits::default()
        },
        threads: 1,
        pruning: true,
        tt: &tt,
        shared: &shared,
        report: &report,
    };
    let result = search::with_search_stack(|| search::run(&pos, &setup));
    std::thread::sleep(Duration::from_millis(1));
    match result.best {
        Some(mv) => println!(
            "Best move: {} — {}",
            pos.move_to_usi(mv),
            verdict_words(result.score, side)
        ),
        None => println!("No legal move: the side to move has lost."),
    }
    Ok(())
}
