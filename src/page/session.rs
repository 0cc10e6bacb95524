//! One page's conversation with its engine, whatever carries it: [`request`] reads a message of
//! the page into an answer to send now or a [`Search`] to start, and [`Search::start`] starts it
//! on an [`Engine`], whose events the transport turns into messages with
//! [`message`](super::protocol::message).

use serde_json::Number;

use super::protocol::{Caps, ClientMsg, MAX_MS, MAX_MULTIPV, ServerMsg, parse_client};
use super::records;
use super::state::{Checked, check};
use crate::engine::{Engine, GoParams, Start};
use crate::games::GameId;
use crate::search::skill::Skill;

/// What a message of the page asks.
pub enum Request {
    /// An answer to send at once (a state, a record, or why the message is refused).
    Reply(ServerMsg),
    /// A search to start, after stopping the running one.
    Search(Box<Search>),
    /// Stop the running search.
    Stop,
}

/// A search a page asked for: the game, the position, the principal variations, the strength
/// and the limits.
pub struct Search {
    /// The id of the message that asked; the search's messages carry it.
    pub id: Option<Number>,
    game: GameId,
    start: Start,
    moves: Vec<String>,
    multipv: u32,
    /// `SkillLevel` (20: full strength).
    level: u32,
    /// `USI_Elo` with `USI_LimitStrength` on, or `None` for it off.
    elo: Option<u32>,
    go: GoParams,
}

impl Search {
    /// The search of the checked position `c` with (MultiPV, SkillLevel, USI_Elo) `settings`.
    fn new(
        id: Option<Number>,
        c: Checked,
        settings: (u32, u32, Option<u32>),
        go: GoParams,
    ) -> Self {
        let (multipv, level, elo) = settings;
        Search {
            id,
            game: c.game,
            start: c.start,
            moves: c.moves,
            multipv,
            level,
            elo,
            go,
        }
    }

    /// Whether the search runs until it is stopped (Analyse).
    pub fn is_infinite(&self) -> bool {
        self.go.infinite
    }

    /// Stops `engine`'s running search (its answer is given), sets the game, the position and
    /// the options of this search, calls `begin` with its id (the engine's events from here on
    /// belong to it), and starts it. What the engine refuses is told to `error` (before `begin`).
    pub fn start(
        self,
        engine: &mut Engine,
        begin: impl FnOnce(Option<Number>),
        error: impl Fn(String),
    ) {
        engine.finish();
        if self.game != engine.game() {
            engine.set_game(self.game);
        }
        if let Err(e) = engine.set_position(&self.start, &self.moves) {
            error(e.to_string());
        }
        let mut option = |name: &str, value: String| {
            if let Err(e) = engine.set_option(name, &value) {
                error(e.to_string());
            }
        };
        option("MultiPV", self.multipv.to_string());
        option("SkillLevel", self.level.to_string());
        option("USI_LimitStrength", self.elo.is_some().to_string());
        if let Some(elo) = self.elo {
            option("USI_Elo", elo.to_string());
        }
        begin(self.id);
        engine.go(self.go);
    }
}

/// Reads one message of the page, checked against `caps`: the answer to send now, or the search
/// or stop it asks for. Checking a position or a record of a long game takes a while: a
/// transport with other work calls this off its event loop.
pub fn request(text: &str, caps: &Caps) -> Request {
    let (id, msg) = parse_client(text);
    let msg = match msg {
        Ok(m) => m,
        Err(e) => return Request::Reply(ServerMsg::error(id, e)),
    };
    let reply = |r: Result<ServerMsg, String>, id| {
        Request::Reply(r.unwrap_or_else(|e| ServerMsg::error(id, e)))
    };
    match msg {
        ClientMsg::State {
            id,
            game,
            sfen,
            moves,
        } => reply(check(&game, &sfen, &moves, id.clone()).map(|c| c.state), id),
        ClientMsg::Record {
            id,
            game,
            sfen,
            moves,
            format,
            variations,
            result,
        } => reply(
            records::write(
                id.clone(),
                &game,
                &sfen,
                &moves,
                &variations,
                &format,
                result.as_ref(),
            ),
            id,
        ),
        ClientMsg::Load { id, text, game } => {
            reply(records::load(id.clone(), &text, game.as_deref()), id)
        }
        ClientMsg::Stop { .. } => Request::Stop,
        ClientMsg::Go {
            id,
            game,
            sfen,
            moves,
            limits,
            multipv,
            level,
            elo,
        } => {
            let multipv = multipv.unwrap_or(1);
            if !(1..=MAX_MULTIPV).contains(&multipv) {
                let e = format!("multipv {multipv} is out of range 1..{MAX_MULTIPV}");
                return Request::Reply(ServerMsg::error(id, e));
            }
            let level = level.unwrap_or(Skill::FULL);
            if level > Skill::FULL {
                let e = format!("level {level} is out of range 0..{}", Skill::FULL);
                return Request::Reply(ServerMsg::error(id, e));
            }
            let [low, high] = caps.elo;
            if let Some(elo) = elo
                && !(low..=high).contains(&elo)
            {
                let e = format!("elo {elo} is out of range {low}..{high}");
                return Request::Reply(ServerMsg::error(id, e));
            }
            let go = match limits.go_params() {
                Ok(go) => go,
                Err(e) => return Request::Reply(ServerMsg::error(id, e)),
            };
            match check(&game, &sfen, &moves, None) {
                Ok(c) => {
                    let search = Search::new(id, c, (multipv, level, elo), go);
                    Request::Search(Box::new(search))
                }
                Err(e) => Request::Reply(ServerMsg::error(id, e)),
            }
        }
        ClientMsg::Mate {
            id,
            game,
            sfen,
            moves,
            ms,
        } => {
            if !(1..=MAX_MS).contains(&ms) {
                let e = format!("ms {ms} is out of range 1..{MAX_MS}");
                return Request::Reply(ServerMsg::error(id, e));
            }
            match check(&game, &sfen, &moves, None) {
                Ok(c) => {
                    let go = GoParams {
                        mate: Some(Some(ms)),
                        ..GoParams::default()
                    };
                    let search = Search::new(id, c, (1, Skill::FULL, None), go);
                    Request::Search(Box::new(search))
                }
                Err(e) => Request::Reply(ServerMsg::error(id, e)),
            }
        }
    }
}
