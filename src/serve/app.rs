//! What every request and session of the server shares ([`App`]): the hosts it answers, its
//! sessions under the cap, its caps and the exact tables it loaded. Its own module below the
//! server's routes (`mod.rs`) and the sessions (`session.rs`), which both use it.

use std::sync::Arc;

use super::guard::{Hosts, Sessions};
use super::protocol::{Caps, ExactEntry, GameHello, ServerMsg};
use crate::games::{AnyTable, GameId};

/// What every request and session shares.
pub struct App {
    /// The hosts a request may name (no DNS rebinding).
    pub(super) hosts: Hosts,
    /// The sessions open, under the cap.
    pub(super) sessions: Arc<Sessions>,
    /// The server's caps, as `hello` says them.
    pub(super) caps: Caps,
    /// The exact tables the operator named: each game's, and the file it was read from.
    pub(super) exact_tables: Vec<(GameId, String, AnyTable)>,
}

impl App {
    /// The `hello` message: every game of the registry (named; `GET /games.json` describes
    /// them), the exact tables this server has, and the caps.
    pub(super) fn hello(&self) -> ServerMsg {
        let games = GameId::ALL
            .iter()
            .map(|&g| GameHello {
                name: g.name(),
                exact: g.info().exact.map(|e| ExactEntry {
                    loaded: self.exact_tables.iter().any(|(t, _, _)| *t == g),
                    flag: e.flag,
                }),
            })
            .collect();
        ServerMsg::Hello {
            games,
            limits: self.caps,
        }
    }
}
