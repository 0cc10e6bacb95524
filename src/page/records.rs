//! The `record` and `load` messages: a game written as a record (the USI `position` line for
//! every game, and the formats each game declares in its registry entry) and a record read back
//! into a game.

use serde_json::Number;

use super::protocol::{GameResult, RecordResult, ServerMsg};
use super::state::check;
use crate::core::game::Position;
use crate::core::rules::Outcome;
use crate::core::text::excerpt;
use crate::engine::Start;
use crate::engine::record::{position_args, position_text};
use crate::games::GameId;
use crate::games::info::RecordWrite;

/// The `record` answer: the game of `game`, `sfen` (or `startpos`) and `moves`, with its other
/// lines of play `variations` (each from the start), in `format`, with its result when the format
/// writes results: the rules' (a mate, a repetition), else `told` (a resignation, a loss on
/// time, as the page tells it).
pub fn write(
    id: Option<Number>,
    game: &str,
    sfen: &str,
    moves: &[String],
    variations: &[Vec<String>],
    format: &str,
    told: Option<&RecordResult>,
) -> Result<ServerMsg, String> {
    let checked = check(game, sfen, moves, None)?;
    for (i, line) in variations.iter().enumerate() {
        check(game, sfen, line, None).map_err(|e| format!("variation {}: {e}", i + 1))?;
    }
    let rules_result = match &checked.state {
        ServerMsg::State { result, .. } => result.as_ref(),
        _ => None,
    };
    let ending = match rules_result {
        Some(r) => Some((r.winner.map(str::to_string), r.reason.to_string())),
        None => told.map(|t| (t.winner.clone(), t.reason.clone())),
    };
    if format == "usi" {
        let text = usi_record(checked.game, sfen, moves, variations);
        return Ok(ServerMsg::Record {
            id,
            format: "usi",
            text,
        });
    }
    let Some(f) = checked
        .game
        .info()
        .records
        .iter()
        .find(|f| f.name == format)
    else {
        let holders =
            GameId::names_where(|g| g.info().records.iter().any(|f| f.name == format), ", ");
        return Err(if holders.is_empty() {
            format!("unknown record format '{}'", excerpt(format, 20))
        } else {
            format!(
                "{} records {holders} only, not {}",
                format.to_uppercase(),
                checked.game.name()
            )
        });
    };
    let ending = match ending {
        Some((winner, reason)) => ending_lines(f.name, moves.len(), winner.as_deref(), &reason)?,
        None => String::new(),
    };
    let text = (f.write)(&RecordWrite {
        sfen,
        moves,
        variations,
        ending: &ending,
    })?;
    Ok(ServerMsg::Record {
        id,
        format: f.name,
        text,
    })
}

/// The lines a record in `format` ends with after its `plies` moves, for a game won by `winner`
/// (`"b"`, `"w"`, none: a draw) for `reason` (the words of `state`'s and `load`'s `result`): KIF
/// `詰み`, `投了`, `切れ負け`, `千日手`, … and the `まで` line; CSA `%TSUMI`, `%TORYO`,
/// `%TIME_UP`, `%SENNICHITE`, …; an aborted game (`abort`: no result) KIF `中断`, CSA `%CHUDAN`.
/// Empty for a format that writes no result, or a result it has no word for.
fn ending_lines(
    format: &str,
    plies: usize,
    winner: Option<&str>,
    reason: &str,
) -> Result<String, String> {
    let reason = if reason == "no legal move" {
        "checkmate"
    } else {
        reason
    };
    let side = match winner {
        Some("b") => Some("先手"),
        Some("w") => Some("後手"),
        None => None,
        Some(other) => return Err(format!("unknown winner '{}'", excerpt(other, 10))),
    };
    Ok(match format {
        "kif" => {
            let word = match reason {
                "checkmate" => "詰み",
                "resignation" => "投了",
                "time" => "切れ負け",
                "repetition" => "千日手",
                // KIF has no other word for a draw agreed: shogi's agreed draw is 持将棋.
                "impasse" | "agreement" => "持将棋",
                "declaration" => "入玉勝ち",
                // The game was stopped with no result (`load` reads no result back).
                "abort" => "中断",
                _ => return Ok(String::new()),
            };
            let end = match side {
                Some(side) => format!("まで{plies}手で{side}の勝ち"),
                None => format!("まで{plies}手で{word}"),
            };
            format!("{:>4} {word}\n{end}\n", plies + 1)
        }
        "csa" => {
            let word = match reason {
                "checkmate" => "%TSUMI",
                "resignation" => "%TORYO",
                "time" => "%TIME_UP",
                "repetition" => "%SENNICHITE",
                "perpetual check" => "%OUTE_SENNICHITE",
                "impasse" => "%JISHOGI",
                "agreement" => "%HIKIWAKE",
                "declaration" => "%KACHI",
                "abort" => "%CHUDAN",
                _ => return Ok(String::new()),
            };
            format!("{word}\n")
        }
        _ => String::new(),
    })
}

/// The comment of the page's USI record that holds a variation: its whole line from the start.
const USI_VARIATION: &str = "# variation:";

/// The USI record the page writes: a comment naming the game, the `position` line, then a
/// comment for each variation (`# variation: MOVES`, its moves from the start), which only the
/// page reads back: a `position` line is one line of play.
fn usi_record(game: GameId, sfen: &str, moves: &[String], variations: &[Vec<String>]) -> String {
    let position = position_text(sfen, moves);
    let mut text = format!("# tsubame game: {}\nposition {position}\n", game.name());
    for line in variations {
        text.push_str(&format!("{USI_VARIATION} {}\n", line.join(" ")));
    }
    text
}

/// The variations of the page's USI record (its `# variation:` comments).
fn usi_variations(text: &str) -> Vec<Vec<String>> {
    text.lines()
        .filter_map(|l| l.trim().strip_prefix(USI_VARIATION))
        .map(|moves| moves.split_whitespace().map(str::to_string).collect())
        .collect()
}

/// The `load` answer: the game read from `text`, a USI record (a `position` line, with an
/// optional `# tsubame game: NAME` line) or a record in a format a game declares. `hint` names
/// the game of a USI record that does not say it.
pub fn load(id: Option<Number>, text: &str, hint: Option<&str>) -> Result<ServerMsg, String> {
    let position = text
        .lines()
        .map(str::trim)
        .find(|l| l.split_whitespace().next() == Some("position"));
    let (format, game, sfen, moves, ending, variations) = match position {
        Some(line) => {
            let named = text.lines().find_map(|l| {
                l.trim()
                    .strip_prefix('#')
                    .and_then(|r| r.trim().strip_prefix("tsubame game:"))
                    .map(|g| g.trim().to_string())
            });
            let (game, sfen, moves) = usi_line(line, named.as_deref().or(hint))?;
            ("usi", game, sfen, moves, None, usi_variations(text))
        }
        None => {
            let (game, format) = GameId::ALL
                .into_iter()
                .find_map(|g| {
                    g.info()
                        .records
                        .iter()
                        .find(|f| (f.detect)(text))
                        .map(|f| (g, f))
                })
                .ok_or("not a record: no 'position' line, and no game reads it")?;
            let record = (format.read)(text)?;
            (
                format.name,
                game,
                record.sfen,
                record.moves,
                record.ending,
                record.variations,
            )
        }
    };
    // The record is loaded whole or not at all.
    let checked = check(game.name(), &sfen, &moves, None)
        .map_err(|e| format!("the record was not loaded: {e}"))?;
    for (i, line) in variations.iter().enumerate() {
        check(game.name(), &sfen, line, None)
            .map_err(|e| format!("the record was not loaded: variation {}: {e}", i + 1))?;
    }
    let result = ending.and_then(|e| {
        let ServerMsg::State { side, .. } = checked.state else {
            return None;
        };
        let other = if side == "b" { "w" } else { "b" };
        Some(GameResult {
            winner: match e.outcome {
                Outcome::Win => Some(side),
                Outcome::Loss => Some(other),
                Outcome::Draw => None,
            },
            reason: e.reason,
        })
    });
    let sfen = if sfen == "startpos" {
        game.start_sfen()
    } else {
        sfen
    };
    Ok(ServerMsg::Load {
        id,
        format,
        game: game.name(),
        sfen,
        moves,
        variations,
        result,
    })
}

/// Reads a `position` line: the game (named, else told from the SFEN), the start (`startpos` or
/// an SFEN) and the moves.
fn usi_line(line: &str, named: Option<&str>) -> Result<(GameId, String, Vec<String>), String> {
    let args = line.trim().strip_prefix("position").unwrap_or(line);
    let (start, moves) = position_args(args)?;
    let sfen = match start {
        Start::StartPos => "startpos".to_string(),
        Start::Sfen(sfen) => sfen,
    };
    let game = match named {
        Some(name) => GameId::parse(name)
            .filter(|g| g.name() == name)
            .ok_or_else(|| format!("unknown game '{}'", excerpt(name, 40)))?,
        None if sfen == "startpos" => {
            return Err("'position startpos' does not say which game: name it".into());
        }
        None => GameId::ALL
            .into_iter()
            .find(|&g| crate::dispatch!(g, G => G::from_sfen(&sfen).is_ok()))
            .ok_or("the SFEN is of none of the games")?,
    };
    Ok((game, sfen, moves))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::shogi::Variant;

    const SHOGI: &str = crate::games::shogi::Standard::NAME;
    const MINISHOGI: &str = crate::games::minishogi::Mini::NAME;

    fn json(m: Result<ServerMsg, String>) -> serde_json::Value {
        serde_json::from_str(&m.unwrap().to_json()).unwrap()
    }

    #[test]
    fn usi_records_of_every_game_load_back() {
        for g in GameId::ALL {
            let start = crate::dispatch!(g, G => G::startpos().to_sfen());
            let r = json(write(None, g.name(), &start, &[], &[], "usi", None));
            let back = json(load(None, r["text"].as_str().unwrap(), None));
            assert_eq!(back["game"], g.name());
            assert_eq!(back["sfen"], start);
            // Without the comment line the game is told from the SFEN.
            let bare = format!("position sfen {start}");
            assert_eq!(json(load(None, &bare, None))["game"], g.name());
        }
        let r = json(load(None, "position startpos moves 7g7f", Some(SHOGI)));
        assert_eq!(r["moves"][0], "7g7f");
        assert!(load(None, "position startpos", None).is_err());
        assert!(load(None, "position startpos moves 7g7f 7g7f", Some(SHOGI)).is_err());
    }

    #[test]
    fn csa_and_kif_are_for_shogi_only() {
        assert!(write(None, SHOGI, "startpos", &[], &[], "pgn", None).is_err());
        let moves = vec!["7g7f".to_string()];
        assert!(write(None, MINISHOGI, "startpos", &[], &[], "csa", None).is_err());
        assert!(write(None, SHOGI, "startpos", &moves, &[], "pgn", None).is_err());
        let r = json(write(None, SHOGI, "startpos", &moves, &[], "kif", None));
        let back = json(load(None, r["text"].as_str().unwrap(), None));
        assert_eq!(back["format"], "kif");
        assert_eq!(back["moves"][0], "7g7f");
    }

    /// The shogi game `main` with `variations` written in `format`, and that text loaded back.
    fn round_trip(
        main: &[String],
        variations: &[Vec<String>],
        format: &str,
    ) -> (String, serde_json::Value) {
        let r = json(write(
            None, SHOGI, "startpos", main, variations, format, None,
        ));
        let text = r["text"].as_str().unwrap().to_string();
        let back = json(load(None, &text, None));
        (text, back)
    }

    #[test]
    fn variations_go_into_kif_and_come_back_from_it() {
        let main: Vec<String> = ["7g7f", "3c3d", "2g2f"].map(String::from).to_vec();
        let other = vec!["7g7f".to_string(), "8c8d".to_string()];
        let (text, back) = round_trip(&main, std::slice::from_ref(&other), "kif");
        assert!(text.contains("変化：2手"), "{text}");
        assert_eq!(back["moves"], serde_json::json!(main));
        assert_eq!(back["variations"], serde_json::json!([other]));
        // Without variations the answer has no such field.
        let (_, back) = round_trip(&main, &[], "kif");
        assert!(back.get("variations").is_none());
        // An illegal variation is refused, naming it.
        let bad = vec!["7g7f".to_string(), "7g7f".to_string()];
        let e = write(
            None,
            SHOGI,
            "startpos",
            &main,
            &[other.clone(), bad],
            "kif",
            None,
        );
        assert!(e.unwrap_err().starts_with("variation 2:"));
        // The USI record keeps them as comments, which the page reads back.
        let (text, back) = round_trip(&main, std::slice::from_ref(&other), "usi");
        assert!(text.ends_with("\n# variation: 7g7f 8c8d\n"), "{text}");
        assert_eq!(back["moves"], serde_json::json!(main));
        assert_eq!(back["variations"], serde_json::json!([other]));
        // A variation that is not legal is refused with the record.
        let bad = text.replace("8c8d", "8c8b");
        assert!(load(None, &bad, None).unwrap_err().contains("variation 1"));
    }

    #[test]
    fn results_are_written_and_read_back() {
        // The shogi mate-in-1 of the browser tests, mated: the rules' result.
        let mate = "4k4/9/4P4/9/9/9/9/9/9 b G2r2b3g4s4n4l17p 1";
        let moves = vec!["G*5b".to_string()];
        let resigned = RecordResult {
            winner: Some("b".into()),
            reason: "resignation".into(),
        };
        let timed = RecordResult {
            winner: Some("w".into()),
            reason: "time".into(),
        };
        // White resigns with White to move; Black loses on time with Black to move.
        let opening = vec!["7g7f".to_string(), "3c3d".to_string()];
        let three = vec!["7g7f".to_string(), "3c3d".to_string(), "8h2b+".to_string()];
        for (format, sfen, moves, told, word, reason, winner) in [
            ("kif", mate, &moves, None, "詰み", "checkmate", "b"),
            ("csa", mate, &moves, None, "%TSUMI", "checkmate", "b"),
            (
                "kif",
                "startpos",
                &three,
                Some(&resigned),
                "投了",
                "resignation",
                "b",
            ),
            (
                "csa",
                "startpos",
                &three,
                Some(&resigned),
                "%TORYO",
                "resignation",
                "b",
            ),
            (
                "kif",
                "startpos",
                &opening,
                Some(&timed),
                "切れ負け",
                "time",
                "w",
            ),
            (
                "csa",
                "startpos",
                &opening,
                Some(&timed),
                "%TIME_UP",
                "time",
                "w",
            ),
        ] {
            let r = json(write(None, SHOGI, sfen, moves, &[], format, told));
            let text = r["text"].as_str().unwrap();
            assert!(text.contains(word), "{format}: {text}");
            let back = json(load(None, text, None));
            assert_eq!(back["result"]["reason"], reason, "{format}: {text}");
            assert_eq!(back["result"]["winner"], winner, "{format}: {text}");
        }
        // An aborted game ends with KIF's `中断` and CSA's `%CHUDAN`, which read back as no
        // result; a draw agreed is CSA's `%HIKIWAKE` and, as KIF has no other word, `持将棋`.
        let aborted = RecordResult {
            winner: None,
            reason: "abort".into(),
        };
        let agreed = RecordResult {
            winner: None,
            reason: "agreement".into(),
        };
        for (format, told, ending, reason) in [
            ("kif", &aborted, "   3 中断\nまで2手で中断\n", None),
            ("csa", &aborted, "\n%CHUDAN\n", None),
            (
                "kif",
                &agreed,
                "   3 持将棋\nまで2手で持将棋\n",
                Some("impasse"),
            ),
            ("csa", &agreed, "\n%HIKIWAKE\n", Some("agreement")),
        ] {
            let r = json(write(
                None,
                SHOGI,
                "startpos",
                &opening,
                &[],
                format,
                Some(told),
            ));
            let text = r["text"].as_str().unwrap();
            assert!(text.ends_with(ending), "{format}: {text}");
            let back = json(load(None, text, None));
            assert_eq!(
                back["moves"].as_array().unwrap().len(),
                2,
                "{format}: {text}"
            );
            match reason {
                None => assert!(back["result"].is_null(), "{format}: {text}"),
                Some(reason) => {
                    assert_eq!(back["result"]["reason"], reason, "{format}: {text}");
                    assert!(back["result"]["winner"].is_null(), "{format}: {text}");
                }
            }
        }
        // The USI record writes no result; nor a format without a word for it.
        let r = json(write(
            None,
            SHOGI,
            "startpos",
            &opening,
            &[],
            "usi",
            Some(&resigned),
        ));
        assert!(!r["text"].as_str().unwrap().contains("resign"));
    }
}
