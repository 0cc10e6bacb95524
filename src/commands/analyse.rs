//! `tsubame analyse`: the engine at work for a person at a terminal: the board as a diagram, then
//! the best line and score in plain words as the search deepens.

use std::time::Duration;

use crate::core::color::Color;
use crate::core::game::Position;
use crate::core::repetition::HistoryEntry;
use crate::core::rules::RuleOptions;
use crate::engine::record::position_args;
use crate::engine::{Start, search_setup};
use crate::games::Game;
use crate::search::tt::TranspositionTable;
use crate::search::value::{MATE, is_mate_score};
use crate::search::{self, SearchSetup, Shared};

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

/// Reads a position given on the command line the way USI's `position` command words it:
/// `startpos` or `sfen <SFEN>` or a bare SFEN, each optionally followed by `moves <m1> <m2> …`.
/// `None` is the start position. Returns the position and the moves (not yet played).
pub fn position_arg<P: Position>(text: Option<&str>) -> Result<(P, Vec<String>), String> {
    let text = text.unwrap_or("startpos").trim();
    // Words that are no `position` arguments are read as an SFEN, whose error then names them.
    let (start, moves) =
        position_args(text).unwrap_or_else(|_| (Start::Sfen(text.to_string()), Vec::new()));
    let sfen = match start {
        Start::StartPos => return Ok((P::startpos(), moves)),
        Start::Sfen(sfen) => sfen,
    };
    let pos = P::from_sfen(&sfen).map_err(|e| {
        format!(
            "bad position '{sfen}': {e} (expected `startpos` or a {} SFEN such as `{}`, \
             optionally after the word `sfen`)",
            P::NAME,
            P::startpos().to_sfen()
        )
    })?;
    Ok((pos, moves))
}

/// Analyses `sfen` (`startpos`, an SFEN, or either followed by `moves …`; `None` is the start)
/// after `moves` for `time_ms`, printing to stdout.
pub fn analyse<G: Game>(sfen: Option<&str>, moves: &[String], time_ms: u64) -> Result<(), String> {
    let (mut pos, mut played) = position_arg::<G>(sfen)?;
    played.extend(moves.iter().cloned());
    let mut history = vec![HistoryEntry {
        key: pos.key(),
        in_check: pos.in_check(),
    }];
    for m in &played {
        let mv = pos
            .parse_move(m)
            .map_err(|e| format!("{e} (position {})", pos.to_sfen()))?;
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
    let report = move |r: &search::Report<G::Move>| {
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
    let network = G::ID.embedded_network();
    let setup = SearchSetup {
        report: &report,
        nnue: network.as_deref(),
        ..search_setup::<G>(&history, RuleOptions::default(), &tt, &shared)
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::minishogi::Minishogi;

    #[test]
    fn positions_are_read_as_in_usi() {
        let start = Minishogi::startpos().to_sfen();
        let (pos, moves) = position_arg::<Minishogi>(None).unwrap();
        assert_eq!((pos.to_sfen(), moves.len()), (start.clone(), 0));
        let (pos, _) = position_arg::<Minishogi>(Some("startpos")).unwrap();
        assert_eq!(pos.to_sfen(), start);
        let (pos, _) = position_arg::<Minishogi>(Some(&format!("sfen {start}"))).unwrap();
        assert_eq!(pos.to_sfen(), start);
        let (pos, _) = position_arg::<Minishogi>(Some(&start)).unwrap();
        assert_eq!(pos.to_sfen(), start);
        let (_, moves) = position_arg::<Minishogi>(Some("startpos moves 5e4d 1a2b")).unwrap();
        assert_eq!(moves, ["5e4d", "1a2b"]);
        let (pos, moves) =
            position_arg::<Minishogi>(Some(&format!("sfen {start} moves 5e4d"))).unwrap();
        assert_eq!((pos.to_sfen(), moves.len()), (start, 1));
        let e = position_arg::<Minishogi>(Some("start")).unwrap_err();
        assert!(e.contains("expected `startpos`"), "{e}");
        assert!(position_arg::<Minishogi>(Some("sfen 9/9 b - 1")).is_err());
    }
}
