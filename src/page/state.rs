//! The `state` of a position, computed by the game's own rules through the registry: legal
//! moves, check and the end of the game. The same checks vet every position before the engine
//! is given it.

use serde_json::Number;

use super::protocol::{GameResult, MAX_MOVE_LEN, ServerMsg};
use crate::core::color::Color;
use crate::core::moves::{ListStore, MoveList};
use crate::core::rules::{EndReason, Outcome};
use crate::core::text::excerpt;
use crate::engine::{REST_IGNORED, Session, Start};
use crate::games::{EveryGameRules, Game, GameId};

/// A position the page sent, checked: its game, its start and its moves.
#[derive(Debug)]
pub struct Checked {
    /// The game.
    pub game: GameId,
    /// The start position.
    pub start: Start,
    /// The moves from it.
    pub moves: Vec<String>,
    /// The position's `state` answer.
    pub state: ServerMsg,
}

/// Checks a position given as game name, SFEN (or `startpos`) and moves, and computes its state;
/// the error says what is wrong.
pub fn check(
    game: &str,
    sfen: &str,
    moves: &[String],
    id: Option<Number>,
) -> Result<Checked, String> {
    let gid = GameId::parse(game)
        .filter(|g| g.name() == game)
        .ok_or_else(|| {
            format!(
                "unknown game '{}' ({})",
                excerpt(game, 40),
                GameId::names(", ")
            )
        })?;
    let sfen = sfen.trim();
    if sfen.split_ascii_whitespace().any(|w| w == "moves") {
        return Err("the SFEN may not hold the word 'moves': give the moves in 'moves'".into());
    }
    let start = if sfen == "startpos" {
        Start::StartPos
    } else {
        Start::Sfen(sfen.to_string())
    };
    for (i, m) in moves.iter().enumerate() {
        if m.is_empty() || m.len() > MAX_MOVE_LEN || !m.chars().all(|c| c.is_ascii_graphic()) {
            return Err(format!(
                "move {} '{}' is not a USI move string",
                i + 1,
                excerpt(m, MAX_MOVE_LEN)
            ));
        }
    }
    let state = crate::dispatch!(gid, G => state_of::<G>(&start, moves, id))?;
    Ok(Checked {
        game: gid,
        start,
        moves: moves.to_vec(),
        state,
    })
}

/// The `state` answer of the position `start` and `moves` in game `G`, under the default rules.
fn state_of<G: Game>(
    start: &Start,
    moves: &[String],
    id: Option<Number>,
) -> Result<ServerMsg, String> {
    let rules = EveryGameRules::default().of::<G>();
    let mut session = Session::<G>::new();
    // A bad move refuses the whole position here: nothing after it, nor before it, is kept.
    session
        .set_position(start, moves, &rules.game)
        .map_err(|e| e.trim_end_matches(REST_IGNORED).to_string())?;
    let pos = session.position();
    let mut list = MoveList::<G::Move>::new();
    pos.legal_moves(&mut list);
    let side = pos.side_to_move();
    let result = pos.verdict(session.history(), &rules).map(|v| GameResult {
        winner: match v.outcome {
            Outcome::Win => Some(side_name(side)),
            Outcome::Loss => Some(side_name(!side)),
            Outcome::Draw => None,
        },
        reason: match v.reason {
            EndReason::NoLegalMove => "no legal move",
            EndReason::Repetition => "repetition",
            EndReason::PerpetualCheck => "perpetual check",
            EndReason::Special(name) => name,
            EndReason::MoveLimit => "move limit",
        },
    });
    Ok(ServerMsg::State {
        id,
        game: G::NAME,
        sfen: pos.to_sfen(),
        side: side_name(side),
        legal: list.iter().map(|&m| pos.move_to_usi(m)).collect(),
        check: pos.in_check(),
        result,
    })
}

/// `"b"` or `"w"`.
fn side_name(c: Color) -> &'static str {
    match c {
        Color::Black => "b",
        Color::White => "w",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn state_json(game: &str, sfen: &str, moves: &[&str]) -> Result<serde_json::Value, String> {
        let moves: Vec<String> = moves.iter().map(|m| m.to_string()).collect();
        let c = check(game, sfen, &moves, None)?;
        Ok(serde_json::from_str(&c.state.to_json()).unwrap())
    }

    use crate::games::shogi::Variant;

    const SHOGI: &str = crate::games::shogi::Standard::NAME;

    #[test]
    fn states_of_the_four_games() {
        let s = state_json(SHOGI, "startpos", &["7g7f"]).unwrap();
        assert_eq!(s["side"], "w");
        assert_eq!(s["legal"].as_array().unwrap().len(), 30);
        assert_eq!(s["check"], false);
        assert!(s["result"].is_null());
        for g in GameId::ALL.map(GameId::name) {
            let s = state_json(g, "startpos", &[]).unwrap();
            assert!(s["side"] == "b" || s["side"] == "w", "{g}");
            assert!(!s["legal"].as_array().unwrap().is_empty(), "{g}");
        }
        // Mated: the side to move has no legal move and loses.
        let s = state_json(SHOGI, "4k4/4G4/4P4/9/9/9/9/9/9 w G2r2b2g4s4n4l17p 2", &[]).unwrap();
        assert_eq!(s["result"]["winner"], "b");
        assert_eq!(s["result"]["reason"], "no legal move");
        assert_eq!(s["check"], true);
    }

    #[test]
    fn bad_positions_are_refused() {
        assert!(state_json("chess", "startpos", &[]).is_err());
        assert!(state_json(&SHOGI.to_uppercase(), "startpos", &[]).is_err());
        assert!(state_json(SHOGI, "not an sfen", &[]).is_err());
        assert!(state_json(SHOGI, "startpos moves 7g7f", &[]).is_err());
        assert!(state_json(SHOGI, "startpos", &["7g7f", "7g7f"]).is_err());
        assert!(state_json(SHOGI, "startpos", &["7g 7f"]).is_err());
        assert!(state_json(SHOGI, "startpos", &[""]).is_err());
    }
}
