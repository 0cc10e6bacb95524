//! `tsubame serve`: one page for every game, served on the loopback interface, and a WebSocket
//! through which it asks the server for positions' states and the engine's searches
//! (docs/serve.md is the design and the protocol).
//!
//! [`guard`] keeps the server to its own page and caps, [`protocol`] holds the JSON messages,
//! [`state`] computes positions' states with the games' own rules, and [`session`] runs one
//! engine per connection.

pub mod guard;
pub mod protocol;
pub mod records;
pub mod session;
pub mod state;

use std::io::Write;
use std::net::{IpAddr, Ipv4Addr, SocketAddr};
use std::sync::Arc;

use axum::Router;
use axum::extract::{Request, State, WebSocketUpgrade};
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::middleware::{self, Next};
use axum::response::{IntoResponse, Response};
use axum::routing::get;

use crate::games::{AnyTable, GameId};
use guard::{Hosts, Sessions};
use protocol::{Caps, ExactEntry, GameEntry, MAX_MULTIPV, RecordEntry, ServerMsg};

/// The longest message a session may send, in bytes; a longer one (up to [`FRAME_LIMIT`]) is
/// answered with an error.
pub const MAX_MESSAGE: usize = 64 * 1024;
/// The longest message the WebSocket layer reads at all: a longer one closes the connection.
pub const FRAME_LIMIT: usize = 1024 * 1024;
/// Messages a session may send each second.
pub const MESSAGES_PER_SECOND: u32 = 50;

/// The page, its script and its style, built into the binary.
const INDEX_HTML: &str = include_str!("assets/index.html");
const APP_JS: &str = include_str!("assets/app.js");
const STYLE_CSS: &str = include_str!("assets/style.css");

/// The settings of `tsubame serve`.
#[derive(Clone, Debug)]
pub struct Config {
    /// The address to listen on (loopback by default).
    pub bind: IpAddr,
    /// The port (0: any free port).
    pub port: u16,
    /// Sessions served at once.
    pub max_sessions: usize,
    /// Search threads of each session.
    pub threads: usize,
    /// Hash tables of each session in MiB.
    pub hash: usize,
    /// The exact tables (`tsubame solve GAME --out FILE`) that every session's engine plays and
    /// solves their games from. Read once at start, shared by the sessions; a file that cannot be
    /// read as a table of its game stops the server from starting.
    pub exact_tables: Vec<(GameId, std::path::PathBuf)>,
}

impl Default for Config {
    fn default() -> Config {
        Config {
            bind: IpAddr::V4(Ipv4Addr::LOCALHOST),
            port: 8080,
            max_sessions: 4,
            threads: 1,
            hash: 16,
            exact_tables: Vec::new(),
        }
    }
}

/// What every request and session shares.
pub struct App {
    hosts: Hosts,
    sessions: Arc<Sessions>,
    caps: Caps,
    /// The exact tables the operator named: each game's, and the file it was read from.
    exact_tables: Vec<(GameId, String, AnyTable)>,
}

impl App {
    /// The `hello` message: every game of the registry, as the page draws it, and the caps.
    fn hello(&self) -> ServerMsg {
        let games = GameId::ALL
            .iter()
            .map(|&g| {
                let info = g.info();
                GameEntry {
                    name: g.name(),
                    title: info.title,
                    startpos: g.start_sfen(),
                    page: info.page,
                    examples: (info.examples)(),
                    records: info
                        .records
                        .iter()
                        .map(|f| RecordEntry {
                            name: f.name,
                            extension: f.extension,
                        })
                        .collect(),
                    exact: info.exact.map(|e| ExactEntry {
                        loaded: self.exact_tables.iter().any(|(t, _, _)| *t == g),
                        flag: e.flag,
                    }),
                }
            })
            .collect();
        ServerMsg::Hello {
            games,
            limits: self.caps,
        }
    }
}

/// The URL to print for a server listening on `addr`: the loopback address for a loopback or
/// unspecified bind, else the bound address.
fn url(addr: SocketAddr) -> String {
    let host = match addr.ip() {
        ip if ip.is_unspecified() || ip == IpAddr::V4(Ipv4Addr::LOCALHOST) => {
            format!("127.0.0.1:{}", addr.port())
        }
        _ => addr.to_string(),
    };
    format!("http://{host}/")
}

/// Runs the server until the process is ended; returns only when it cannot start.
pub fn run(config: Config) -> Result<(), String> {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .map_err(|e| format!("cannot start the server's runtime: {e}"))?;
    runtime.block_on(serve(config))
}

/// Reads the exact table of `game` in `path`, or says why it cannot be used.
fn load_exact_table(
    game: GameId,
    path: &std::path::Path,
) -> Result<(GameId, String, AnyTable), String> {
    let Some(exact) = game.info().exact else {
        return Err(format!("{game} has no exact table"));
    };
    let flag = exact.flag;
    let text = path
        .to_str()
        .ok_or_else(|| format!("--{flag} {}: the path is not UTF-8", path.display()))?;
    let table = (exact.load)(path).map_err(|e| {
        format!("--{flag} {text}: {e} (make one with `tsubame solve {game} --out FILE`)")
    })?;
    Ok((game, text.to_string(), table))
}

async fn serve(config: Config) -> Result<(), String> {
    let exact_tables = config
        .exact_tables
        .iter()
        .map(|(game, path)| load_exact_table(*game, path))
        .collect::<Result<Vec<_>, String>>()?;
    let listener = tokio::net::TcpListener::bind((config.bind, config.port))
        .await
        .map_err(|e| format!("cannot listen on {}:{}: {e}", config.bind, config.port))?;
    let addr = listener
        .local_addr()
        .map_err(|e| format!("cannot read the bound address: {e}"))?;
    if !config.bind.is_loopback() {
        eprintln!(
            "warning: listening on {addr}, not on loopback: anyone who can reach it may use this \
             engine's CPU (at most {} sessions)",
            config.max_sessions
        );
    }
    let app = Arc::new(App {
        hosts: Hosts::new(addr),
        sessions: Sessions::new(config.max_sessions),
        caps: Caps {
            sessions: config.max_sessions,
            threads: config.threads,
            hash: config.hash,
            message_bytes: MAX_MESSAGE,
            messages_per_second: MESSAGES_PER_SECOND,
            multipv: MAX_MULTIPV,
        },
        exact_tables,
    });
    let router = Router::new()
        .route("/", get(|| asset(INDEX_HTML, "text/html; charset=utf-8")))
        .route(
            "/app.js",
            get(|| asset(APP_JS, "text/javascript; charset=utf-8")),
        )
        .route(
            "/style.css",
            get(|| asset(STYLE_CSS, "text/css; charset=utf-8")),
        )
        .route("/health", get(health))
        .route("/examples.json", get(examples_json))
        .route("/ws", get(websocket))
        .fallback(|| async { (StatusCode::NOT_FOUND, "not found") })
        .layer(middleware::from_fn_with_state(Arc::clone(&app), host_guard))
        .with_state(app);
    println!("tsubame serve: {}", url(addr));
    let _ = std::io::stdout().flush();
    axum::serve(listener, router)
        .await
        .map_err(|e| format!("the server stopped: {e}"))
}

/// An embedded file, never cached (a new build serves the new page).
async fn asset(body: &'static str, content_type: &'static str) -> Response {
    (
        [
            (header::CONTENT_TYPE, HeaderValue::from_static(content_type)),
            (header::CACHE_CONTROL, HeaderValue::from_static("no-store")),
        ],
        body,
    )
        .into_response()
}

/// The `Host` header's text, if it has one.
fn host_of(headers: &HeaderMap) -> Option<&str> {
    headers.get(header::HOST).and_then(|v| v.to_str().ok())
}

/// Refuses (403) every request whose `Host` is not this server's (DNS rebinding).
async fn host_guard(State(app): State<Arc<App>>, request: Request, next: Next) -> Response {
    if app.hosts.host_ok(host_of(request.headers())) {
        next.run(request).await
    } else {
        (StatusCode::FORBIDDEN, "forbidden: unknown Host").into_response()
    }
}

/// `GET /health`: the number of live sessions, as JSON.
async fn health(State(app): State<Arc<App>>) -> Response {
    let body = serde_json::json!({ "sessions": app.sessions.live() }).to_string();
    (
        [
            (header::CONTENT_TYPE, "application/json"),
            (header::CACHE_CONTROL, "no-store"),
        ],
        body,
    )
        .into_response()
}

/// `GET /examples.json`: the positions the page offers, by game (the registry's examples).
async fn examples_json() -> Response {
    let all: serde_json::Map<String, serde_json::Value> = GameId::ALL
        .iter()
        .map(|g| {
            let examples = serde_json::to_value((g.info().examples)()).unwrap_or_default();
            (g.name().to_string(), examples)
        })
        .collect();
    (
        [
            (header::CONTENT_TYPE, "application/json"),
            (header::CACHE_CONTROL, "no-store"),
        ],
        serde_json::Value::Object(all).to_string(),
    )
        .into_response()
}

/// `GET /ws`: the WebSocket, for a page of this server only (its `Origin` must be this host).
async fn websocket(
    State(app): State<Arc<App>>,
    headers: HeaderMap,
    upgrade: WebSocketUpgrade,
) -> Response {
    let origin = headers.get(header::ORIGIN).and_then(|v| v.to_str().ok());
    if !app.hosts.origin_ok(host_of(&headers), origin) {
        return (StatusCode::FORBIDDEN, "forbidden: foreign Origin").into_response();
    }
    upgrade
        .max_message_size(FRAME_LIMIT)
        .max_frame_size(FRAME_LIMIT)
        .on_upgrade(move |socket| session::run(socket, app))
}
