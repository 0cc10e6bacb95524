//! What every request and session of the server shares ([`App`]): the hosts it answers, its
//! sessions under the cap, its caps and the exact tables it loaded. Its own module below the
//! server's routes (`mod.rs`) and the sessions (`session.rs`), which both use it.

use std::sync::Arc;

use super::guard::{Hosts, Sessions};
use crate::games::{AnyTable, GameId};
use crate::page::protocol::{Caps, ServerMsg};

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
        crate::page::hello(self.caps, |g| {
            self.exact_tables.iter().any(|(t, _, _)| *t == g)
        })
    }
}
