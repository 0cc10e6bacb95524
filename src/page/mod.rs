//! The page's side of the engine, whatever carries its messages: the JSON [`protocol`] the page
//! speaks (docs/serve.md), the [`state`] of a position and the [`records`] of a game computed
//! with the games' own rules, and the [`session`] that turns a page's message into an answer or
//! a search of an [`Engine`](crate::engine::Engine).
//!
//! Two transports use it: the WebSocket of `tsubame serve` ([`crate::serve`], natively) and the
//! Web Worker of the static site (the `web/` crate, in the browser build), so that the page gets
//! the same answers from both.

pub mod protocol;
pub mod records;
pub mod session;
pub mod state;

use crate::games::GameId;
use protocol::{Caps, ExactEntry, GameEntry, GameHello, MAX_MULTIPV, ServerMsg};

/// The longest message a page may send, in bytes.
pub const MAX_MESSAGE: usize = 64 * 1024;

/// The caps of an engine that serves `sessions` pages at once, each with `threads` search
/// threads and `hash` MiB of tables, `messages_per_second` messages a second each, closing a
/// session after `idle_seconds` without a message (0: never).
pub fn caps(
    sessions: usize,
    threads: usize,
    hash: usize,
    messages_per_second: u32,
    idle_seconds: u64,
) -> Caps {
    let (low, high) = crate::engine::options::elo_range();
    Caps {
        sessions,
        threads,
        hash,
        message_bytes: MAX_MESSAGE,
        messages_per_second,
        multipv: MAX_MULTIPV,
        elo: [low as u32, high as u32],
        idle_seconds,
    }
}

/// The `hello` message: every game of the registry (named; [`games_json`] describes them), for
/// each solved game whether its exact table is `loaded`, and the caps.
pub fn hello(caps: Caps, loaded: impl Fn(GameId) -> bool) -> ServerMsg {
    let games = GameId::ALL
        .iter()
        .map(|&g| GameHello {
            name: g.name(),
            exact: g.info().exact.map(|e| ExactEntry {
                loaded: loaded(g),
                flag: e.flag,
            }),
        })
        .collect();
    ServerMsg::Hello {
        games,
        limits: caps,
    }
}

/// The text of `games.json`: every game of the registry, as the page draws it.
pub fn games_json() -> String {
    let games: Vec<GameEntry> = GameId::ALL
        .iter()
        .map(|&g| {
            let info = g.info();
            GameEntry {
                name: g.name(),
                title: info.title,
                startpos: g.start_sfen(),
                page: info.page,
                examples: (info.examples)(),
                records: info.records,
            }
        })
        .collect();
    serde_json::to_string(&games).expect("plain data serializes")
}

/// The text of `examples.json`: every game's examples (the registry's), by game.
pub fn examples_json() -> String {
    let all: serde_json::Map<String, serde_json::Value> = GameId::ALL
        .iter()
        .map(|g| {
            let examples = serde_json::to_value((g.info().examples)()).unwrap_or_default();
            (g.name().to_string(), examples)
        })
        .collect();
    serde_json::Value::Object(all).to_string()
}
