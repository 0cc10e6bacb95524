//! One WebSocket connection: its own [`Engine`] on a thread of its own, called directly, whose
//! events come back through a channel to be sent as the protocol's messages.

use std::sync::Arc;
use std::sync::mpsc as std_mpsc;

use axum::extract::ws::{CloseFrame, Message, WebSocket};
use serde_json::Number;
use tokio::sync::mpsc;

use super::app::App;
use super::guard::{RateLimit, Slot};
use crate::engine::{Engine, Event, Events};
use crate::page::protocol::{Caps, ServerMsg, message};
use crate::page::session::{Request, Search, request};

/// How long a session waits, after answering a client's Close, for the client to close the
/// connection.
const CLOSE_WAIT: std::time::Duration = std::time::Duration::from_secs(1);

/// The WebSocket close code of a session ended for want of messages (RFC 6455 §7.4.2 leaves
/// 4000–4999 to applications): the page does not reconnect by itself after it.
const IDLE_CLOSE_CODE: u16 = 4000;

/// What the engine thread sends back: the engine's events, and the start of each search (whose
/// messages carry the id of the message that asked for it).
enum Back {
    /// The messages from here on belong to the search of this id.
    Begin(Option<Number>),
    /// One event of the engine.
    Event(Event),
}

/// What the session asks of its engine thread.
enum Command {
    /// Stops any running search and starts this one.
    Search(Box<Search>),
    /// Stops the running search.
    Stop,
}

/// Calls the engine; a panic is reported as an error, and the engine lives on.
fn call(events: &mpsc::UnboundedSender<Back>, f: impl FnOnce()) {
    let done = std::panic::catch_unwind(std::panic::AssertUnwindSafe(f));
    if done.is_err() {
        let _ = events.send(Back::Event(Event::Error(
            "internal error in the engine".into(),
        )));
    }
}

/// Sets an option the server itself chose; a refusal is reported like the engine's errors.
fn option(engine: &mut Engine, back: &mpsc::UnboundedSender<Back>, name: &str, value: String) {
    if let Err(e) = engine.set_option(name, &value) {
        let _ = back.send(Back::Event(Event::Error(e.to_string())));
    }
}

/// The engine thread: sets the session's caps, then carries out commands until the session
/// drops its sender, then stops the search and gives back the session's place.
fn engine_thread(
    commands: std_mpsc::Receiver<Command>,
    back: mpsc::UnboundedSender<Back>,
    app: Arc<App>,
    slot: Slot,
) {
    let sink = back.clone();
    // A session that has ended no longer reads: its events are dropped.
    let events = Events::new(move |e| {
        let _ = sink.send(Back::Event(e));
    });
    let mut engine = Engine::new(events);
    let caps = app.caps;
    call(&back, || {
        option(&mut engine, &back, "USI_Hash", caps.hash.to_string());
        option(&mut engine, &back, "Threads", caps.threads.to_string());
    });
    for (game, path, table) in &app.exact_tables {
        engine.share_exact_table(*game, path, Arc::clone(table));
    }
    for command in commands {
        match command {
            Command::Stop => engine.stop(),
            Command::Search(search) => call(&back, || {
                let error = |e| {
                    let _ = back.send(Back::Event(Event::Error(e)));
                };
                // The stopped search's answer is out before `Begin`.
                search.start(&mut engine, |id| drop(back.send(Back::Begin(id))), error);
            }),
        }
    }
    engine.finish();
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
    let (back_tx, mut back_rx) = mpsc::unbounded_channel();
    let (command_tx, command_rx) = std_mpsc::channel();
    let thread_app = Arc::clone(&app);
    let spawned = std::thread::Builder::new()
        .name("serve-engine".into())
        .spawn(move || engine_thread(command_rx, back_tx, thread_app, slot));
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
    let idle =
        (app.caps.idle_seconds > 0).then(|| std::time::Duration::from_secs(app.caps.idle_seconds));
    let renewed = || idle.map(|d| tokio::time::Instant::now() + d);
    let mut idle_until = renewed();
    loop {
        let reply = tokio::select! {
            () = sleep_until(idle_until) => {
                close_idle(&mut socket, app.caps.idle_seconds).await;
                break;
            }
            incoming = socket.recv() => match incoming {
                Some(Ok(Message::Text(text))) => {
                    idle_until = renewed();
                    if !rate.allow() {
                        Some(too_many(&app))
                    } else if text.len() > app.caps.message_bytes {
                        Some(ServerMsg::error(None, format!(
                            "message of {} bytes refused: at most {} bytes",
                            text.len(),
                            app.caps.message_bytes
                        )))
                    } else {
                        answer(text.as_str(), &command_tx, &app.caps).await
                    }
                }
                Some(Ok(Message::Binary(_))) => {
                    idle_until = renewed();
                    Some(if rate.allow() {
                        ServerMsg::error(None, "binary message refused: send JSON text")
                    } else {
                        too_many(&app)
                    })
                }
                Some(Ok(Message::Ping(_) | Message::Pong(_))) => None,
                Some(Ok(Message::Close(_))) => {
                    // RFC 6455 §5.5.1: the Close reply is queued by the receipt and written by
                    // the next read, which then ends; a client that stays silent waits no longer
                    // than CLOSE_WAIT.
                    let _ = tokio::time::timeout(CLOSE_WAIT, socket.recv()).await;
                    break;
                }
                Some(Err(_)) | None => break,
            },
            back = back_rx.recv() => match back {
                Some(Back::Begin(id)) => {
                    search_id = id;
                    None
                }
                Some(Back::Event(event)) => message(&event, search_id.clone()),
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

/// Waits until `deadline`, or for ever when there is none.
async fn sleep_until(deadline: Option<tokio::time::Instant>) {
    match deadline {
        Some(d) => tokio::time::sleep_until(d).await,
        None => std::future::pending().await,
    }
}

/// Ends a session that sent nothing for `seconds`: an `error` that says so, then a Close with
/// [`IDLE_CLOSE_CODE`], whose reply is awaited no longer than `CLOSE_WAIT`.
async fn close_idle(socket: &mut WebSocket, seconds: u64) {
    let text = format!(
        "session closed: no message for {seconds} s (tsubame serve --idle-timeout); the game is \
         kept on the page, reconnect to go on"
    );
    let _ = socket.send(text_msg(&ServerMsg::error(None, text))).await;
    let frame = CloseFrame {
        code: IDLE_CLOSE_CODE,
        reason: "idle".into(),
    };
    if socket.send(Message::Close(Some(frame))).await.is_ok() {
        let _ = tokio::time::timeout(CLOSE_WAIT, socket.recv()).await;
    }
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

/// Carries out one text message: the answer to send now, if any (a search answers later,
/// through the engine's output). The message is read off the async runtime: checking a long
/// game's moves or record takes a while.
async fn answer(
    text: &str,
    commands: &std_mpsc::Sender<Command>,
    caps: &Caps,
) -> Option<ServerMsg> {
    let (text, caps) = (text.to_owned(), *caps);
    let asked = tokio::task::spawn_blocking(move || request(&text, &caps))
        .await
        .unwrap_or_else(|_| {
            Request::Reply(ServerMsg::error(
                None,
                "internal error while reading the message",
            ))
        });
    let (command, id) = match asked {
        Request::Reply(msg) => return Some(msg),
        Request::Stop => (Command::Stop, None),
        Request::Search(search) => {
            let id = search.id.clone();
            (Command::Search(search), id)
        }
    };
    commands
        .send(command)
        .err()
        .map(|_| ServerMsg::error(id, "the session's engine has ended"))
}
