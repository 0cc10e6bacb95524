//! One WebSocket connection: its own [`Engine`] on a thread of its own, fed USI lines that the
//! server writes, and whose output lines come back through a channel to be translated into the
//! protocol's messages.

use std::io::Write;
use std::sync::Arc;
use std::sync::mpsc as std_mpsc;

use axum::extract::ws::{Message, WebSocket};
use serde_json::Number;
use tokio::sync::mpsc;

use super::App;
use super::guard::{RateLimit, Slot};
use super::protocol::{ClientMsg, MAX_MS, MAX_MULTIPV, ServerMsg, parse_client, translate};
use super::records;
use super::state::{Checked, check};
use crate::games::GameId;
use crate::search::skill::Skill;
use crate::usi::{Engine, Output};

/// What the engine thread sends back: its output lines, and the start of each search (whose
/// messages carry the id of the message that asked for it).
enum Event {
    /// The messages from here on belong to the search of this id.
    Begin(Option<Number>),
    /// One line the engine printed.
    Line(String),
}

/// What the session asks of its engine thread.
enum Command {
    /// Stops any running search, sets the game, the position and the principal variations, and
    /// starts the search `go` (a USI `go …` line) for the message `id`.
    Search {
        id: Option<Number>,
        game: GameId,
        position: String,
        multipv: u32,
        /// `SkillLevel` (20: full strength).
        level: u32,
        go: String,
    },
    /// Stops the running search.
    Stop,
}

/// The engine's output: splits what is written into lines and sends each into the channel.
struct LineSink {
    tx: mpsc::UnboundedSender<Event>,
    pending: Vec<u8>,
}

impl Write for LineSink {
    fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
        self.pending.extend_from_slice(bytes);
        while let Some(end) = self.pending.iter().position(|&b| b == b'\n') {
            let line: Vec<u8> = self.pending.drain(..=end).collect();
            let text = String::from_utf8_lossy(&line[..end]);
            // A session that has ended no longer reads: its lines are dropped.
            let _ = self.tx.send(Event::Line(text.trim_end().to_string()));
        }
        Ok(bytes.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// Hands one USI line to the engine; a panic is reported as an error line, and the engine lives on.
fn feed(engine: &mut Engine, events: &mpsc::UnboundedSender<Event>, line: &str) {
    let done = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| engine.handle(line)));
    if done.is_err() {
        let _ = events.send(Event::Line(
            "info string error: internal error in the engine".into(),
        ));
    }
}

/// The engine thread: sets the session's caps, then carries out commands until the session
/// drops its sender, then stops the search (`quit` waits for it) and gives back the session's
/// place.
fn engine_thread(
    commands: std_mpsc::Receiver<Command>,
    events: mpsc::UnboundedSender<Event>,
    app: Arc<App>,
    slot: Slot,
) {
    let out = Output::new(Box::new(LineSink {
        tx: events.clone(),
        pending: Vec::new(),
    }));
    let mut engine = Engine::new(out);
    let mut game = GameId::Shogi;
    let caps = app.caps;
    feed(
        &mut engine,
        &events,
        &format!("setoption name USI_Hash value {}", caps.hash),
    );
    feed(
        &mut engine,
        &events,
        &format!("setoption name Threads value {}", caps.threads),
    );
    if let Some((path, table)) = &app.nana_table {
        engine.share_nana_table(path, Arc::clone(table));
    }
    for command in commands {
        match command {
            Command::Stop => feed(&mut engine, &events, "stop"),
            Command::Search {
                id,
                game: wanted,
                position,
                multipv,
                level,
                go,
            } => {
                feed(&mut engine, &events, "stop");
                if wanted != game {
                    let line = format!("setoption name USI_Variant value {}", wanted.name());
                    feed(&mut engine, &events, &line);
                    game = wanted;
                }
                // `position` waits for the stopped search, whose answer is out before `Begin`.
                feed(&mut engine, &events, &format!("position {position}"));
                let line = format!("setoption name MultiPV value {multipv}");
                feed(&mut engine, &events, &line);
                let line = format!("setoption name SkillLevel value {level}");
                feed(&mut engine, &events, &line);
                let _ = events.send(Event::Begin(id));
                feed(&mut engine, &events, &go);
            }
        }
    }
    feed(&mut engine, &events, "quit");
    drop(engine);
    drop(slot);
}

/// Serves one WebSocket connection until the client goes away.
pub async fn run(mut socket: WebSocket, app: Arc<App>) {
    let Some(slot) = app.sessions.acquire() else {
        let text = format!(
            "the server is serving its cap of {} sessions; try again later",
            app.caps.sessions
        );
        let _ = socket.send(text_msg(&ServerMsg::error(None, text))).await;
        let _ = socket.send(Message::Close(None)).await;
        return;
    };
    let (event_tx, mut event_rx) = mpsc::unbounded_channel();
    let (command_tx, command_rx) = std_mpsc::channel();
    let thread_app = Arc::clone(&app);
    let spawned = std::thread::Builder::new()
        .name("serve-engine".into())
        .spawn(move || engine_thread(command_rx, event_tx, thread_app, slot));
    if spawned.is_err() {
        let msg = ServerMsg::error(None, "cannot start an engine for this session");
        let _ = socket.send(text_msg(&msg)).await;
        let _ = socket.send(Message::Close(None)).await;
        return;
    }
    if socket.send(text_msg(&app.hello())).await.is_err() {
        return;
    }
    let mut rate = RateLimit::new(app.caps.messages_per_second);
    let mut search_id: Option<Number> = None;
    loop {
        let reply = tokio::select! {
            incoming = socket.recv() => match incoming {
                Some(Ok(Message::Text(text))) => {
                    if !rate.allow() {
                        Some(too_many(&app))
                    } else if text.len() > app.caps.message_bytes {
                        Some(ServerMsg::error(None, format!(
                            "message of {} bytes refused: at most {} bytes",
                            text.len(),
                            app.caps.message_bytes
                        )))
                    } else {
                        answer(text.as_str(), &command_tx).await
                    }
                }
                Some(Ok(Message::Binary(_))) => Some(if rate.allow() {
                    ServerMsg::error(None, "binary message refused: send JSON text")
                } else {
                    too_many(&app)
                }),
                Some(Ok(Message::Ping(_) | Message::Pong(_))) => None,
                Some(Ok(Message::Close(_)) | Err(_)) | None => break,
            },
            event = event_rx.recv() => match event {
                Some(Event::Begin(id)) => {
                    search_id = id;
                    None
                }
                Some(Event::Line(line)) => translate(&line, search_id.clone()),
                None => break,
            },
        };
        if let Some(msg) = reply
            && socket.send(text_msg(&msg)).await.is_err()
        {
            break;
        }
    }
    // Dropping the sender ends the engine thread: it stops the search and frees the place.
    drop(command_tx);
}

/// The answer to a message beyond the rate cap.
fn too_many(app: &App) -> ServerMsg {
    ServerMsg::error(
        None,
        format!(
            "message dropped: at most {} messages a second",
            app.caps.messages_per_second
        ),
    )
}

/// A message as a WebSocket text frame.
fn text_msg(msg: &ServerMsg) -> Message {
    Message::Text(msg.to_json().into())
}

/// Checks a position off the async runtime (long move lists take a while).
async fn checked(
    game: String,
    sfen: String,
    moves: Vec<String>,
    id: Option<Number>,
) -> Result<Checked, String> {
    tokio::task::spawn_blocking(move || check(&game, &sfen, &moves, id))
        .await
        .unwrap_or_else(|_| Err("internal error while reading the position".into()))
}

/// Runs `f` off the async runtime (records of long games take a while to check).
async fn blocking<F>(f: F) -> Result<ServerMsg, (Option<Number>, String)>
where
    F: FnOnce() -> Result<ServerMsg, (Option<Number>, String)> + Send + 'static,
{
    tokio::task::spawn_blocking(f)
        .await
        .unwrap_or_else(|_| Err((None, "internal error while reading the record".into())))
}

/// Carries out one text message: the answer to send now, if any (a search answers later,
/// through the engine's output).
async fn answer(text: &str, commands: &std_mpsc::Sender<Command>) -> Option<ServerMsg> {
    let (id, msg) = parse_client(text);
    let msg = match msg {
        Ok(m) => m,
        Err(e) => return Some(ServerMsg::error(id, e)),
    };
    let (command, id) = match msg {
        ClientMsg::State {
            id,
            game,
            sfen,
            moves,
        } => {
            return Some(match checked(game, sfen, moves, id.clone()).await {
                Ok(c) => c.state,
                Err(e) => ServerMsg::error(id, e),
            });
        }
        ClientMsg::Record {
            id,
            game,
            sfen,
            moves,
            format,
        } => {
            let answer = blocking(move || {
                records::write(id.clone(), &game, &sfen, &moves, &format).map_err(|e| (id, e))
            })
            .await;
            return Some(answer.unwrap_or_else(|(id, e)| ServerMsg::error(id, e)));
        }
        ClientMsg::Load { id, text, game } => {
            let answer = blocking(move || {
                records::load(id.clone(), &text, game.as_deref()).map_err(|e| (id, e))
            })
            .await;
            return Some(answer.unwrap_or_else(|(id, e)| ServerMsg::error(id, e)));
        }
        ClientMsg::Stop { id } => (Command::Stop, id),
        ClientMsg::Go {
            id,
            game,
            sfen,
            moves,
            limits,
            multipv,
            level,
        } => {
            let multipv = multipv.unwrap_or(1);
            if !(1..=MAX_MULTIPV).contains(&multipv) {
                let e = format!("multipv {multipv} is out of range 1..{MAX_MULTIPV}");
                return Some(ServerMsg::error(id, e));
            }
            let level = level.unwrap_or(Skill::FULL);
            if level > Skill::FULL {
                let e = format!("level {level} is out of range 0..{}", Skill::FULL);
                return Some(ServerMsg::error(id, e));
            }
            let go = match limits.go_command() {
                Ok(go) => go,
                Err(e) => return Some(ServerMsg::error(id, e)),
            };
            match checked(game, sfen, moves, None).await {
                Ok(c) => (search(id.clone(), c, (multipv, level), go), id),
                Err(e) => return Some(ServerMsg::error(id, e)),
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
                return Some(ServerMsg::error(
                    id,
                    format!("ms {ms} is out of range 1..{MAX_MS}"),
                ));
            }
            match checked(game, sfen, moves, None).await {
                Ok(c) => {
                    let go = format!("go mate {ms}");
                    (search(id.clone(), c, (1, Skill::FULL), go), id)
                }
                Err(e) => return Some(ServerMsg::error(id, e)),
            }
        }
    };
    commands
        .send(command)
        .err()
        .map(|_| ServerMsg::error(id, "the session's engine has ended"))
}

/// The command that searches the checked position `c` with (MultiPV, SkillLevel) `settings`.
fn search(id: Option<Number>, c: Checked, settings: (u32, u32), go: String) -> Command {
    let (multipv, level) = settings;
    Command::Search {
        id,
        game: c.game,
        position: c.position,
        multipv,
        level,
        go,
    }
}
