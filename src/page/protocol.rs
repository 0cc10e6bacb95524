//! The JSON messages of `/ws` (docs/serve.md): what the page sends, what the server answers, and
//! the engine's events as answers.

use serde::{Deserialize, Serialize};
use serde_json::Number;

use crate::core::text::excerpt;
use crate::engine::{self, Best, Event, GoParams, MateOutcome};
use crate::games::info::{Example, PageInfo, RecordFormat};

/// The most principal variations a `go` may ask for.
pub const MAX_MULTIPV: u32 = 5;
/// The longest time in milliseconds any limit may name (a day).
pub const MAX_MS: u64 = 86_400_000;
/// The deepest `depth` limit.
pub const MAX_DEPTH: u64 = 60;
/// The largest `nodes` limit.
pub const MAX_NODES: u64 = 1_000_000_000_000;
/// The longest move string accepted (a Give and Take capture chain is the longest).
pub const MAX_MOVE_LEN: usize = 64;

/// A message from the page.
#[derive(Deserialize, Debug)]
#[serde(tag = "op", rename_all = "lowercase", deny_unknown_fields)]
pub enum ClientMsg {
    /// Asks for the state of a position.
    State {
        /// Echoed in the answer.
        id: Option<Number>,
        /// The game's registry name.
        game: String,
        /// An SFEN of that game, or `startpos`.
        sfen: String,
        /// USI moves from it.
        #[serde(default)]
        moves: Vec<String>,
    },
    /// Starts a search.
    Go {
        /// Echoed in the search's messages.
        id: Option<Number>,
        /// The game's registry name.
        game: String,
        /// An SFEN of that game, or `startpos`.
        sfen: String,
        /// USI moves from it.
        #[serde(default)]
        moves: Vec<String>,
        /// When the search ends.
        limits: Limits,
        /// Principal variations (1 to [`MAX_MULTIPV`]; default 1).
        multipv: Option<u32>,
        /// The strength to play at: `SkillLevel` 0 to 20 (default 20, full strength).
        level: Option<u32>,
        /// The strength to play at as an Elo rating (`USI_LimitStrength` with `USI_Elo`, in the
        /// range `hello`'s `limits` give); it overrides `level`. Absent: no Elo limit.
        elo: Option<u32>,
    },
    /// Stops the running search.
    Stop {
        /// Unused: the running search's answer carries that search's id.
        id: Option<Number>,
    },
    /// Starts a mate search.
    Mate {
        /// Echoed in the search's messages.
        id: Option<Number>,
        /// The game's registry name.
        game: String,
        /// An SFEN of that game, or `startpos`.
        sfen: String,
        /// USI moves from it.
        #[serde(default)]
        moves: Vec<String>,
        /// The time limit in milliseconds.
        ms: u64,
    },
    /// Asks for the record of a game in a format.
    Record {
        /// Echoed in the answer.
        id: Option<Number>,
        /// The game's registry name.
        game: String,
        /// An SFEN of that game, or `startpos`: the start of the game.
        sfen: String,
        /// The game's moves (USI).
        #[serde(default)]
        moves: Vec<String>,
        /// `usi`, `csa` or `kif` (the last two for standard shogi only).
        format: String,
        /// Other lines of play, each the whole line from the start (USI), sharing their first
        /// moves with the main line or with each other: written as KIF `変化`; the page's USI
        /// record keeps them as `# variation:` comments, CSA the main line only.
        #[serde(default)]
        variations: Vec<Vec<String>>,
        /// How the game ended after its last move when the rules do not say it (a resignation, a
        /// loss on time): written by the formats that write results.
        #[serde(default)]
        result: Option<RecordResult>,
    },
    /// Reads a record (a USI `position` line, CSA or KIF) into a game.
    Load {
        /// Echoed in the answer.
        id: Option<Number>,
        /// The record's text.
        text: String,
        /// The game a USI record is of when it does not say (a registry name).
        game: Option<String>,
    },
}

/// The limits of a `go`: exactly one of the shapes docs/serve.md lists.
#[derive(Deserialize, Debug, Default, Clone)]
#[serde(deny_unknown_fields)]
pub struct Limits {
    /// Milliseconds to think.
    pub movetime: Option<u64>,
    /// Depth in plies.
    pub depth: Option<u64>,
    /// Nodes to search.
    pub nodes: Option<u64>,
    /// Byoyomi in milliseconds (with both clocks).
    pub byoyomi: Option<u64>,
    /// Black's clock in milliseconds.
    pub btime: Option<u64>,
    /// White's clock in milliseconds.
    pub wtime: Option<u64>,
    /// Black's increment in milliseconds (with both clocks and `winc`).
    pub binc: Option<u64>,
    /// White's increment in milliseconds.
    pub winc: Option<u64>,
    /// Search until `stop` (must be `true`).
    pub infinite: Option<bool>,
}

/// Checks that `value` of `name` lies in `min..=max`.
fn ranged(name: &str, value: u64, min: u64, max: u64) -> Result<u64, String> {
    if (min..=max).contains(&value) {
        Ok(value)
    } else {
        Err(format!("{name} {value} is out of range {min}..{max}"))
    }
}

impl Limits {
    /// The engine's limits of these, or why they are refused.
    pub fn go_params(&self) -> Result<GoParams, String> {
        let ms = |name: &str, v: u64| ranged(name, v, 0, MAX_MS);
        let l = self;
        let given = [
            l.movetime.is_some(),
            l.depth.is_some(),
            l.nodes.is_some(),
            l.byoyomi.is_some(),
            l.btime.is_some(),
            l.wtime.is_some(),
            l.binc.is_some(),
            l.winc.is_some(),
            l.infinite.is_some(),
        ];
        let only = |mask: [bool; 9]| given == mask;
        const F: bool = false;
        const T: bool = true;
        let mut go = GoParams::default();
        if let (Some(v), true) = (l.movetime, only([T, F, F, F, F, F, F, F, F])) {
            go.movetime = Some(ranged("movetime", v, 1, MAX_MS)?);
            return Ok(go);
        }
        if let (Some(v), true) = (l.depth, only([F, T, F, F, F, F, F, F, F])) {
            go.depth = Some(ranged("depth", v, 1, MAX_DEPTH)? as i32);
            return Ok(go);
        }
        if let (Some(v), true) = (l.nodes, only([F, F, T, F, F, F, F, F, F])) {
            go.nodes = Some(ranged("nodes", v, 1, MAX_NODES)?);
            return Ok(go);
        }
        if let (Some(y), Some(b), Some(w), true) = (
            l.byoyomi,
            l.btime,
            l.wtime,
            only([F, F, F, T, T, T, F, F, F]),
        ) {
            go.time = [Some(ms("btime", b)?), Some(ms("wtime", w)?)];
            go.byoyomi = ms("byoyomi", y)?;
            go.clock_given = true;
            return Ok(go);
        }
        if let (Some(b), Some(w), Some(bi), Some(wi), true) = (
            l.btime,
            l.wtime,
            l.binc,
            l.winc,
            only([F, F, F, F, T, T, T, T, F]),
        ) {
            go.time = [Some(ms("btime", b)?), Some(ms("wtime", w)?)];
            go.inc = [ms("binc", bi)?, ms("winc", wi)?];
            go.clock_given = true;
            return Ok(go);
        }
        if l.infinite == Some(true) && only([F, F, F, F, F, F, F, F, T]) {
            go.infinite = true;
            return Ok(go);
        }
        Err(
            "limits must be one of {movetime}, {depth}, {nodes}, {byoyomi, btime, wtime}, \
             {binc, winc, btime, wtime}, {infinite: true}"
                .into(),
        )
    }
}

/// A game as `GET /games.json` describes it: what the page needs to draw it and offer its
/// capabilities, all from the game's registry entry. It is the same for every server of a build,
/// so it is served compressed and cached like the page's scripts; `hello` adds what this server
/// has ([`GameHello`]).
#[derive(Serialize, Debug)]
pub struct GameEntry {
    /// The registry name.
    pub name: &'static str,
    /// The name for people.
    pub title: &'static str,
    /// The start position's SFEN.
    pub startpos: String,
    /// How the page draws it.
    pub page: PageInfo,
    /// Its example positions.
    pub examples: Vec<Example>,
    /// Its record formats besides the USI `position` line.
    pub records: &'static [RecordFormat],
}

/// A game as `hello` lists it: its name, and what this server has of it.
#[derive(Serialize, Debug)]
pub struct GameHello {
    /// The registry name (its description: `GET /games.json`).
    pub name: &'static str,
    /// Its exact table, when the game is solved.
    pub exact: Option<ExactEntry>,
}

/// A solved game's exact table as `hello` tells it.
#[derive(Serialize, Debug)]
pub struct ExactEntry {
    /// Whether this server has the table: then a `mate` or `go` of the game is answered from it,
    /// exactly.
    pub loaded: bool,
    /// The `tsubame serve` flag that gives the server the table (without the dashes).
    pub flag: &'static str,
}

/// The server's caps, as `hello` tells them.
#[derive(Serialize, Debug, Clone, Copy)]
pub struct Caps {
    /// Sessions served at once.
    pub sessions: usize,
    /// Search threads of each session.
    pub threads: usize,
    /// Hash tables of each session in MiB.
    pub hash: usize,
    /// The longest message in bytes.
    pub message_bytes: usize,
    /// Messages a session may send each second.
    pub messages_per_second: u32,
    /// The most principal variations of a `go`.
    pub multipv: u32,
    /// The lowest and highest `elo` a `go` may ask for (the engine's `USI_Elo` range).
    pub elo: [u32; 2],
    /// Seconds without a message from the client after which a session is closed (0: never).
    pub idle_seconds: u64,
}

/// How a game ended, as a `state` tells it.
#[derive(Serialize, Debug, PartialEq, Eq)]
pub struct GameResult {
    /// `"b"`, `"w"`, or `None` for a draw.
    pub winner: Option<&'static str>,
    /// Why it ended.
    pub reason: &'static str,
}

/// The end of a game as the page tells it in a `record`: the winner (`"b"`, `"w"`, or none: a
/// draw) and the reason, in the words of `load`'s `result` (`resignation`, `time`, …).
#[derive(Deserialize, Debug, Clone, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
pub struct RecordResult {
    /// `"b"`, `"w"`, or `None` for a draw.
    #[serde(default)]
    pub winner: Option<String>,
    /// Why it ended.
    pub reason: String,
}

/// A score from the side to move's view.
#[derive(Serialize, Debug, PartialEq, Eq)]
#[serde(rename_all = "lowercase")]
pub enum Score {
    /// Centipawns.
    Cp(i64),
    /// Mate in so many plies (negative: being mated).
    Mate(i64),
}

/// A message from the server.
#[derive(Serialize, Debug)]
#[serde(tag = "op", rename_all = "lowercase")]
pub enum ServerMsg {
    /// Sent once on connect.
    Hello {
        /// Every game of the registry (described by `GET /games.json`).
        games: Vec<GameHello>,
        /// The server's caps.
        limits: Caps,
    },
    /// The state of a position.
    State {
        /// The asking message's id.
        #[serde(skip_serializing_if = "Option::is_none")]
        id: Option<Number>,
        /// The game's name.
        game: &'static str,
        /// The position after the moves.
        sfen: String,
        /// The side to move, `"b"` or `"w"`.
        side: &'static str,
        /// Every legal move.
        legal: Vec<String>,
        /// True when the side to move is in check.
        check: bool,
        /// The end of the game, if it is over.
        result: Option<GameResult>,
    },
    /// A search's progress.
    Info {
        /// The search's id.
        #[serde(skip_serializing_if = "Option::is_none")]
        id: Option<Number>,
        /// Depth reached.
        #[serde(skip_serializing_if = "Option::is_none")]
        depth: Option<i64>,
        /// Selective depth.
        #[serde(skip_serializing_if = "Option::is_none")]
        seldepth: Option<i64>,
        /// The principal variation's number (from 1).
        #[serde(skip_serializing_if = "Option::is_none")]
        multipv: Option<i64>,
        /// The score.
        #[serde(skip_serializing_if = "Option::is_none")]
        score: Option<Score>,
        /// Nodes searched.
        #[serde(skip_serializing_if = "Option::is_none")]
        nodes: Option<u64>,
        /// Nodes per second.
        #[serde(skip_serializing_if = "Option::is_none")]
        nps: Option<u64>,
        /// Milliseconds since the search began.
        #[serde(skip_serializing_if = "Option::is_none")]
        time: Option<u64>,
        /// The principal variation.
        #[serde(skip_serializing_if = "Vec::is_empty")]
        pv: Vec<String>,
    },
    /// A search's move.
    Bestmove {
        /// The search's id.
        #[serde(skip_serializing_if = "Option::is_none")]
        id: Option<Number>,
        /// The move, `resign` or `win`.
        #[serde(rename = "move")]
        mv: String,
        /// The expected answer, if any.
        ponder: Option<String>,
    },
    /// A mate search's answer.
    Mate {
        /// The search's id.
        #[serde(skip_serializing_if = "Option::is_none")]
        id: Option<Number>,
        /// `mate`, `nomate` or `timeout`.
        result: &'static str,
        /// The mating line, for a mate.
        line: Vec<String>,
    },
    /// A game's record, the answer to `record`.
    Record {
        /// The asking message's id.
        #[serde(skip_serializing_if = "Option::is_none")]
        id: Option<Number>,
        /// `usi`, `csa` or `kif`.
        format: &'static str,
        /// The record.
        text: String,
    },
    /// A game read from a record, the answer to `load`.
    Load {
        /// The asking message's id.
        #[serde(skip_serializing_if = "Option::is_none")]
        id: Option<Number>,
        /// The format the record was read as: `usi`, `csa` or `kif`.
        format: &'static str,
        /// The game's name.
        game: &'static str,
        /// The start position, as SFEN.
        sfen: String,
        /// The game's moves (USI).
        moves: Vec<String>,
        /// The record's other lines of play (KIF `変化`), each the whole line from the start
        /// (USI), in the record's order; left out when there are none.
        #[serde(skip_serializing_if = "Vec::is_empty")]
        variations: Vec<Vec<String>>,
        /// The result the record writes after its last move (a resignation, a loss on time, a
        /// repetition), if any.
        result: Option<GameResult>,
    },
    /// A refusal; the session goes on.
    Error {
        /// The refused message's id.
        #[serde(skip_serializing_if = "Option::is_none")]
        id: Option<Number>,
        /// What was refused and why.
        message: String,
    },
}

impl ServerMsg {
    /// An error answer.
    pub fn error(id: Option<Number>, message: impl Into<String>) -> ServerMsg {
        ServerMsg::Error {
            id,
            message: message.into(),
        }
    }

    /// The message as JSON text.
    pub fn to_json(&self) -> String {
        serde_json::to_string(self).unwrap_or_else(|e| {
            format!(r#"{{"op":"error","message":"cannot write an answer: {e}"}}"#)
        })
    }
}

/// Reads a client message: its id (when it has a numeric one, for the error answer) and the
/// message, or why it is refused.
pub fn parse_client(text: &str) -> (Option<Number>, Result<ClientMsg, String>) {
    let value: serde_json::Value = match serde_json::from_str(text) {
        Ok(v) => v,
        Err(e) => return (None, Err(format!("malformed JSON: {e}"))),
    };
    let id = match value.get("id") {
        None | Some(serde_json::Value::Null) => None,
        Some(serde_json::Value::Number(n)) => Some(n.clone()),
        Some(_) => return (None, Err("'id' must be a number".into())),
    };
    let msg = serde_json::from_value(value).map_err(|e| format!("bad message: {e}"));
    (id, msg)
}

/// The message of an engine event in the search `id`, if the event makes one: a search's
/// progress (and a mate search's), its answer, and errors.
pub fn message(event: &Event, id: Option<Number>) -> Option<ServerMsg> {
    Some(match event {
        Event::Info(i) => ServerMsg::Info {
            id,
            depth: Some(i.depth.into()),
            seldepth: Some(i.seldepth as i64),
            multipv: i.multipv.map(|m| m as i64),
            score: Some(match i.score {
                engine::Score::Cp(v) => Score::Cp(v.into()),
                engine::Score::Mate(n) => Score::Mate(n.into()),
            }),
            nodes: Some(i.nodes),
            nps: i.nps,
            time: Some(i.time_ms),
            pv: i.pv.clone(),
        },
        Event::MateProgress(p) => ServerMsg::Info {
            id,
            depth: None,
            seldepth: None,
            multipv: None,
            score: None,
            nodes: Some(p.nodes),
            nps: Some(p.nps),
            time: Some(p.time_ms),
            pv: p.line.clone(),
        },
        Event::BestMove { best, ponder } => ServerMsg::Bestmove {
            id,
            mv: match best {
                Best::Move(m) => m.clone(),
                Best::Resign => "resign".into(),
                Best::Win => "win".into(),
            },
            ponder: ponder.clone(),
        },
        Event::Mate(outcome) => match outcome {
            MateOutcome::Mate(line) => ServerMsg::Mate {
                id,
                result: "mate",
                line: line.clone(),
            },
            MateOutcome::NoMate => ServerMsg::Mate {
                id,
                result: "nomate",
                line: Vec::new(),
            },
            MateOutcome::Timeout => ServerMsg::Mate {
                id,
                result: "timeout",
                line: Vec::new(),
            },
        },
        Event::Error(e) => ServerMsg::error(id, excerpt(e, 400)),
        Event::Note(_) | Event::KeepAlive | Event::PerftMove { .. } | Event::Perft(_) => {
            return None;
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::GameId;

    fn json(m: Option<ServerMsg>) -> String {
        m.map(|m| m.to_json()).unwrap_or_default()
    }

    #[test]
    fn engine_events_become_messages() {
        let id = Some(Number::from(7));
        let info = Event::Info(engine::Info {
            depth: 3,
            seldepth: 5,
            multipv: Some(2),
            score: engine::Score::Cp(-12),
            bound: Some(engine::Bound::Lower),
            nodes: 100,
            nps: Some(1000),
            hashfull: Some(0),
            time_ms: 4,
            pv: vec!["7g7f".into(), "3c3d".into()],
        });
        assert_eq!(
            json(message(&info, id.clone())),
            r#"{"op":"info","id":7,"depth":3,"seldepth":5,"multipv":2,"score":{"cp":-12},"nodes":100,"nps":1000,"time":4,"pv":["7g7f","3c3d"]}"#
        );
        let progress = Event::MateProgress(engine::MateProgress {
            time_ms: 7,
            nodes: 5,
            nps: 6,
            hashfull: 0,
            line: Vec::new(),
            root_pn: 1,
            root_dn: 1,
        });
        assert_eq!(
            json(message(&progress, None)),
            r#"{"op":"info","nodes":5,"nps":6,"time":7}"#
        );
        let best = |best, ponder: Option<&str>| Event::BestMove {
            best,
            ponder: ponder.map(str::to_string),
        };
        assert_eq!(
            json(message(
                &best(Best::Move("7g7f".into()), Some("3c3d")),
                None
            )),
            r#"{"op":"bestmove","move":"7g7f","ponder":"3c3d"}"#
        );
        assert_eq!(
            json(message(&best(Best::Resign, None), None)),
            r#"{"op":"bestmove","move":"resign","ponder":null}"#
        );
        assert_eq!(
            json(message(
                &Event::Mate(MateOutcome::Mate(vec!["G*5b".into()])),
                id.clone()
            )),
            r#"{"op":"mate","id":7,"result":"mate","line":["G*5b"]}"#
        );
        assert_eq!(
            json(message(&Event::Mate(MateOutcome::Timeout), None)),
            r#"{"op":"mate","result":"timeout","line":[]}"#
        );
        assert_eq!(
            json(message(&Event::Error("bad thing".into()), None)),
            r#"{"op":"error","message":"bad thing"}"#
        );
        assert!(message(&Event::Note("loaded".into()), None).is_none());
        assert!(message(&Event::KeepAlive, None).is_none());
    }

    #[test]
    fn limits_take_one_shape() {
        let go = |text: &str| {
            let limits: Limits = serde_json::from_str(text).unwrap();
            limits.go_params()
        };
        assert_eq!(go(r#"{"depth": 3}"#).unwrap().depth, Some(3));
        assert_eq!(go(r#"{"nodes": 2000}"#).unwrap().nodes, Some(2000));
        assert_eq!(go(r#"{"movetime": 100}"#).unwrap().movetime, Some(100));
        assert!(go(r#"{"infinite": true}"#).unwrap().infinite);
        let g = go(r#"{"byoyomi": 1000, "btime": 0, "wtime": 5}"#).unwrap();
        assert_eq!((g.time, g.byoyomi), ([Some(0), Some(5)], 1000));
        assert!(g.clock_given);
        let g = go(r#"{"binc": 1, "winc": 2, "btime": 3, "wtime": 4}"#).unwrap();
        assert_eq!((g.time, g.inc), ([Some(3), Some(4)], [1, 2]));
        for bad in [
            r#"{}"#,
            r#"{"depth": 0}"#,
            r#"{"depth": 61}"#,
            r#"{"depth": 3, "nodes": 5}"#,
            r#"{"infinite": false}"#,
            r#"{"btime": 3, "wtime": 4}"#,
            r#"{"movetime": 0}"#,
        ] {
            assert!(go(bad).is_err(), "{bad}");
        }
        assert!(serde_json::from_str::<Limits>(r#"{"mate": 3}"#).is_err());
        assert!(serde_json::from_str::<Limits>(r#"{"depth": -3}"#).is_err());
    }

    #[test]
    fn client_messages() {
        let game = GameId::DEFAULT.name();
        let (id, msg) = parse_client(&format!(
            r#"{{"op":"state","id":3,"game":"{game}","sfen":"startpos","moves":[]}}"#
        ));
        assert_eq!(id, Some(Number::from(3)));
        assert!(matches!(msg, Ok(ClientMsg::State { .. })));
        for bad in [
            "not json".to_string(),
            r#"{"op":"launch"}"#.to_string(),
            format!(r#"{{"op":"state","game":"{game}"}}"#),
            format!(r#"{{"op":"state","game":"{game}","sfen":"startpos","extra":1}}"#),
            r#"{"op":"stop","id":"x"}"#.to_string(),
            r#"[1,2]"#.to_string(),
        ] {
            assert!(parse_client(&bad).1.is_err(), "{bad}");
        }
    }
}
