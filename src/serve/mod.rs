//! `tsubame serve`: one page for every game, served on the loopback interface, and a WebSocket
//! through which it asks the server for positions' states and the engine's searches
//! (docs/serve.md is the design and the protocol).
//!
//! [`guard`] keeps the server to its own page and caps, [`app`] holds what every request shares,
//! and [`session`] runs one engine per connection; the messages, the positions' states and the
//! records are the page's side of the engine ([`crate::page`]), which the browser build shares.

pub mod app;
pub mod guard;
pub mod session;

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
use crate::page::games_json;
use app::App;
use guard::{Hosts, Sessions};
/// The longest message the WebSocket layer reads at all: a longer one closes the connection (one
/// up to this size but over [`MAX_MESSAGE`](crate::page::MAX_MESSAGE) is answered with an error).
pub const FRAME_LIMIT: usize = 1024 * 1024;
/// Messages a session may send each second.
pub const MESSAGES_PER_SECOND: u32 = 50;
/// Seconds without a message after which a session is closed, unless `--idle-timeout` says
/// otherwise: half an hour, so that a forgotten tab (an endless analysis, say) frees its place
/// and its CPU.
pub const DEFAULT_IDLE_SECONDS: u64 = 30 * 60;

/// The page, built into the binary.
const INDEX_HTML: &str = include_str!("assets/index.html");
/// The page's style.
const STYLE_CSS: &str = include_str!("assets/style.css");
/// The page's icon (a swallow, tsubame), served at `/favicon.ico`.
const FAVICON_SVG: &str = include_str!("assets/favicon.svg");
/// The page's kanji font (issue 68): a subset of Noto Serif CJK JP Bold holding only the
/// characters the page draws in it ([`KANJI_CHARS`]), served at `/pieces.woff2` for style.css's
/// "Tsubame Kanji" face, so that the pieces and the Japanese notation look the same on every
/// machine, one without a Japanese font too. `tools/make-font` makes it.
const KANJI_WOFF2: &[u8] = include_bytes!("assets/pieces.woff2");
/// The font's license (the SIL Open Font License 1.1, and which font, version and source),
/// served beside it at `/pieces-LICENSE.txt`.
const KANJI_LICENSE: &str = include_str!("assets/pieces-LICENSE.txt");
/// The characters of [`KANJI_WOFF2`], as `tools/make-font` subset it (a test checks that every
/// character the page draws in it is there).
#[cfg(test)]
const KANJI_CHARS: &str = include_str!("assets/pieces-chars.txt");

/// The page's scripts, ES modules built into the binary, each served at `/js/NAME`: `main.js`,
/// which the page loads, imports the others (docs/serve.md lists what each holds).
pub const SCRIPTS: &[(&str, &str)] = &[
    ("analysis.js", include_str!("assets/js/analysis.js")),
    ("arrows.js", include_str!("assets/js/arrows.js")),
    ("board-cubes.js", include_str!("assets/js/board-cubes.js")),
    ("board-discs.js", include_str!("assets/js/board-discs.js")),
    ("board-wedges.js", include_str!("assets/js/board-wedges.js")),
    ("board.js", include_str!("assets/js/board.js")),
    ("chooser.js", include_str!("assets/js/chooser.js")),
    ("clock.js", include_str!("assets/js/clock.js")),
    ("connection.js", include_str!("assets/js/connection.js")),
    ("dom.js", include_str!("assets/js/dom.js")),
    ("drag.js", include_str!("assets/js/drag.js")),
    ("editor.js", include_str!("assets/js/editor.js")),
    ("ending.js", include_str!("assets/js/ending.js")),
    ("evalbar.js", include_str!("assets/js/evalbar.js")),
    ("graph.js", include_str!("assets/js/graph.js")),
    ("hands.js", include_str!("assets/js/hands.js")),
    (
        "input-from-to.js",
        include_str!("assets/js/input-from-to.js"),
    ),
    ("input-route.js", include_str!("assets/js/input-route.js")),
    ("input.js", include_str!("assets/js/input.js")),
    ("main.js", include_str!("assets/js/main.js")),
    ("mate.js", include_str!("assets/js/mate.js")),
    ("notation.js", include_str!("assets/js/notation.js")),
    ("play.js", include_str!("assets/js/play.js")),
    ("position.js", include_str!("assets/js/position.js")),
    ("premove.js", include_str!("assets/js/premove.js")),
    ("presets.js", include_str!("assets/js/presets.js")),
    ("records.js", include_str!("assets/js/records.js")),
    ("search.js", include_str!("assets/js/search.js")),
    ("settings.js", include_str!("assets/js/settings.js")),
    ("sound.js", include_str!("assets/js/sound.js")),
    ("state.js", include_str!("assets/js/state.js")),
    ("themes.js", include_str!("assets/js/themes.js")),
    ("variations.js", include_str!("assets/js/variations.js")),
    ("view.js", include_str!("assets/js/view.js")),
];

/// An embedded file as it is served: its type, its plain and gzip forms, and their ETags.
struct Asset {
    content_type: &'static str,
    body: Vec<u8>,
    /// Empty for a file that gzip would not make smaller (the font, compressed already).
    gzip: Vec<u8>,
    /// The ETag of the text form; the gzip form's is the same with `-gz` before the closing
    /// quote.
    etag: String,
}

impl Asset {
    fn new(body: String, content_type: &'static str) -> Asset {
        let mut encoder = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::best());
        let gzip = encoder
            .write_all(body.as_bytes())
            .and_then(|()| encoder.finish())
            .unwrap_or_default();
        Asset::with_gzip(body.into_bytes(), gzip, content_type)
    }

    /// A file served as it is, never gzipped (one compressed already, as a WOFF2 font is).
    fn plain(body: &[u8], content_type: &'static str) -> Asset {
        Asset::with_gzip(body.to_vec(), Vec::new(), content_type)
    }

    fn with_gzip(body: Vec<u8>, gzip: Vec<u8>, content_type: &'static str) -> Asset {
        use std::hash::Hasher;
        // FNV-1a: the same text always has the same tag, in every build and every run.
        let mut hash = Fnv(0xcbf2_9ce4_8422_2325);
        hash.write(&body);
        Asset {
            content_type,
            body,
            gzip,
            etag: format!("\"{:016x}\"", hash.finish()),
        }
    }

    /// The gzip form's ETag.
    fn gzip_etag(&self) -> String {
        format!("{}-gz\"", self.etag.trim_end_matches('"'))
    }
}

/// The FNV-1a hash, for ETags.
struct Fnv(u64);

impl std::hash::Hasher for Fnv {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0 ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3);
        }
    }
}

/// Every embedded file by its path, compressed once, on first use.
static ASSETS: std::sync::LazyLock<Vec<(String, Asset)>> = std::sync::LazyLock::new(|| {
    let mut all = vec![
        (
            "/".to_string(),
            Asset::new(INDEX_HTML.to_string(), "text/html; charset=utf-8"),
        ),
        (
            "/style.css".to_string(),
            Asset::new(lean(STYLE_CSS), "text/css; charset=utf-8"),
        ),
        (
            "/favicon.ico".to_string(),
            Asset::new(FAVICON_SVG.to_string(), "image/svg+xml"),
        ),
        (
            "/games.json".to_string(),
            Asset::new(games_json(), "application/json"),
        ),
        (
            "/pieces.woff2".to_string(),
            Asset::plain(KANJI_WOFF2, "font/woff2"),
        ),
        (
            "/pieces-LICENSE.txt".to_string(),
            Asset::new(KANJI_LICENSE.to_string(), "text/plain; charset=utf-8"),
        ),
    ];
    for (name, body) in SCRIPTS {
        let asset = Asset::new(lean(body), "text/javascript; charset=utf-8");
        all.push((format!("/js/{name}"), asset));
    }
    all
});

/// A script or style sheet as served, lighter to send: its lines without their indentation, less
/// the empty lines and the lines that hold only a comment (`// …`, or a `/* … */` block that
/// begins a line). No code changes: a line of code is kept whole, and no script holds a template
/// literal over several lines (a unit test checks), so no string loses a line.
fn lean(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut keep = |rest: &str| {
        if !rest.is_empty() {
            out.push_str(rest);
            out.push('\n');
        }
    };
    let mut in_block = false;
    for line in text.lines() {
        let t = line.trim();
        if in_block {
            if let Some(end) = t.find("*/") {
                in_block = false;
                keep(t[end + 2..].trim());
            }
            continue;
        }
        if t.starts_with("//") {
            continue;
        }
        if let Some(rest) = t.strip_prefix("/*") {
            match rest.find("*/") {
                Some(end) => keep(rest[end + 2..].trim()),
                None => in_block = true,
            }
            continue;
        }
        keep(t);
    }
    out
}

/// Whether the request accepts a gzip body (`Accept-Encoding` names `gzip` without `q=0`).
fn accepts_gzip(headers: &HeaderMap) -> bool {
    headers
        .get_all(header::ACCEPT_ENCODING)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(','))
        .any(|coding| {
            let mut parts = coding.split(';').map(str::trim);
            let name = parts.next().unwrap_or("");
            let refused = parts.any(|p| {
                p.strip_prefix("q=")
                    .and_then(|q| q.parse::<f32>().ok())
                    .is_some_and(|q| q == 0.0)
            });
            (name.eq_ignore_ascii_case("gzip") || name == "*") && !refused
        })
}

/// Whether `If-None-Match` names one of `tags` (or is `*`).
fn not_modified(headers: &HeaderMap, tags: &[&str]) -> bool {
    headers
        .get_all(header::IF_NONE_MATCH)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(','))
        .map(|t| t.trim().trim_start_matches("W/"))
        .any(|t| t == "*" || tags.contains(&t))
}

/// The answer for the embedded file at `path`: 304 when the client's copy is current, else the
/// file, gzipped when the client accepts it. Cached by the browser and revalidated on every use
/// (`no-cache`), so a new build serves the new page at once.
fn serve_asset(path: &str, headers: &HeaderMap) -> Response {
    let Some((_, asset)) = ASSETS.iter().find(|(p, _)| p == path) else {
        return (StatusCode::NOT_FOUND, "not found").into_response();
    };
    let gzip = accepts_gzip(headers) && !asset.gzip.is_empty();
    let gzip_etag = asset.gzip_etag();
    let etag = if gzip { &gzip_etag } else { &asset.etag };
    let mut response = if not_modified(headers, &[&asset.etag, &gzip_etag]) {
        StatusCode::NOT_MODIFIED.into_response()
    } else if gzip {
        let mut r = asset.gzip.clone().into_response();
        r.headers_mut()
            .insert(header::CONTENT_ENCODING, HeaderValue::from_static("gzip"));
        r
    } else {
        asset.body.clone().into_response()
    };
    let h = response.headers_mut();
    h.insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static(asset.content_type),
    );
    h.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-cache"));
    h.insert(header::VARY, HeaderValue::from_static("Accept-Encoding"));
    if let Ok(v) = HeaderValue::from_str(etag) {
        h.insert(header::ETAG, v);
    }
    response
}

/// Writes the page as static files into the folder `out` (made if missing) for a static web
/// host, with the engine left to the browser: every file the server serves (`index.html`, marked
/// `data-engine="worker"` so that the page runs the engine in a Web Worker, `style.css`,
/// `favicon.ico`, `games.json`, `pieces.woff2` and its license, `js/*.js`) and `examples.json`. `tools/build-web` adds the
/// engine (`tsubame.wasm`), its worker (`js/worker.js`) and the shogi network. Returns each file
/// written with its size in bytes.
pub fn write_site(out: &std::path::Path) -> Result<Vec<(String, usize)>, String> {
    let mut files: Vec<(String, Vec<u8>)> = ASSETS
        .iter()
        .map(|(path, asset)| {
            let name = match path.as_str() {
                "/" => "index.html".to_string(),
                p => p.trim_start_matches('/').to_string(),
            };
            let body = if name == "index.html" {
                String::from_utf8_lossy(&asset.body)
                    .replacen(
                        "<html lang=\"en\">",
                        "<html lang=\"en\" data-engine=\"worker\">",
                        1,
                    )
                    .into_bytes()
            } else {
                asset.body.clone()
            };
            (name, body)
        })
        .collect();
    files.push((
        "examples.json".into(),
        crate::page::examples_json().into_bytes(),
    ));
    let mut written = Vec::new();
    for (name, body) in files {
        let path = out.join(&name);
        if let Some(dir) = path.parent() {
            std::fs::create_dir_all(dir)
                .map_err(|e| format!("cannot make {}: {e}", dir.display()))?;
        }
        std::fs::write(&path, &body)
            .map_err(|e| format!("cannot write {}: {e}", path.display()))?;
        written.push((name, body.len()));
    }
    Ok(written)
}

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
    /// Seconds without a message from the client after which a session is closed and its place
    /// freed (0: never).
    pub idle_seconds: u64,
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
            idle_seconds: DEFAULT_IDLE_SECONDS,
            exact_tables: Vec::new(),
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
        caps: crate::page::caps(
            config.max_sessions,
            config.threads,
            config.hash,
            MESSAGES_PER_SECOND,
            config.idle_seconds,
        ),
        exact_tables,
    });
    let router = Router::new()
        .route("/", get(asset))
        .route("/js/{name}", get(asset))
        .route("/style.css", get(asset))
        .route("/favicon.ico", get(asset))
        .route("/games.json", get(asset))
        .route("/pieces.woff2", get(asset))
        .route("/pieces-LICENSE.txt", get(asset))
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

/// `GET /`, `/style.css`, `/favicon.ico`, `/pieces.woff2`, `/pieces-LICENSE.txt` and `/js/NAME`:
/// the embedded files ([`serve_asset`]).
async fn asset(uri: axum::http::Uri, headers: HeaderMap) -> Response {
    serve_asset(uri.path(), &headers)
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

/// `GET /examples.json`: every game's examples (the registry's, as `hello` lists them), by game.
async fn examples_json() -> Response {
    (
        [
            (header::CONTENT_TYPE, "application/json"),
            (header::CACHE_CONTROL, "no-store"),
        ],
        crate::page::examples_json(),
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::info::MoveSyntax;
    use crate::page::protocol::ServerMsg;
    use crate::page::state;

    /// The modules a script imports (`from './NAME.js'`).
    fn imports(text: &str) -> Vec<&str> {
        text.split("from './")
            .skip(1)
            .filter_map(|rest| rest.split_once('\''))
            .map(|(name, _)| name)
            .collect()
    }

    /// The page loads `main.js` as a module; every module it imports, directly or not, is served,
    /// and every module served is imported.
    #[test]
    fn every_script_is_served_and_used() {
        assert!(INDEX_HTML.contains(r#"<script type="module" src="js/main.js"></script>"#));
        let mut reached = vec!["main.js"];
        let mut i = 0;
        while i < reached.len() {
            let (_, text) = SCRIPTS
                .iter()
                .find(|(n, _)| *n == reached[i])
                .unwrap_or_else(|| panic!("{} is imported but not served", reached[i]));
            for name in imports(text) {
                if !reached.contains(&name) {
                    reached.push(name);
                }
            }
            i += 1;
        }
        for (name, _) in SCRIPTS {
            assert!(
                reached.contains(name),
                "{name} is served but never imported"
            );
        }
    }

    /// [`lean`] drops comment lines and indentation, and keeps every line of code whole; the
    /// scripts hold no template literal over several lines, which it could cut.
    #[test]
    fn lean_assets_keep_their_code() {
        let text = "// a comment\n/** A doc\n * comment. */\nexport function f() {\n  return 'a // b'; // why\n}\n/* x */ const y = 1;\n";
        assert_eq!(
            lean(text),
            "export function f() {\nreturn 'a // b'; // why\n}\nconst y = 1;\n"
        );
        for (name, body) in SCRIPTS {
            for line in body.lines() {
                assert_eq!(line.matches('`').count() % 2, 0, "{name}: {line}");
            }
        }
    }

    /// Whether the page draws `c` in its kanji font: kana, CJK ideographs and punctuation,
    /// full-width forms, and ☖☗ (tools/make-font's test, the same).
    fn drawn_in_kanji_font(c: char) -> bool {
        matches!(c as u32, 0x2616 | 0x2617 | 0x3000..=0x30FF | 0x4E00..=0x9FFF | 0xF900..=0xFAFF
            | 0xFF00..=0xFFEF)
    }

    /// Every character the page can draw in the kanji font is in its subset (issue 68): every
    /// game's pieces' kanji, its Japanese notation's files and ranks, and the Japanese characters
    /// of the page and its scripts (the notation's 同, 成, 打, 右…, the label "Japanese
    /// (☗7六歩)"). When this fails, run tools/make-font.
    #[test]
    fn the_kanji_font_holds_every_character_the_page_draws() {
        let mut drawn: Vec<(char, String)> = Vec::new();
        for g in GameId::ALL {
            let page = g.info().page;
            let texts = page
                .pieces
                .iter()
                .map(|p| p.kanji)
                .chain([page.notation.japanese_files, page.notation.japanese_ranks]);
            for text in texts {
                drawn.extend(text.chars().map(|c| (c, format!("{g}'s descriptor"))));
            }
        }
        for (name, text) in SCRIPTS.iter().chain([&("index.html", INDEX_HTML)]) {
            drawn.extend(text.chars().map(|c| (c, name.to_string())));
        }
        let drawn: Vec<_> = drawn
            .into_iter()
            .filter(|(c, _)| drawn_in_kanji_font(*c))
            .collect();
        for kanji in ['玉', '飛', '歩', '龍', '燕', '☗', '☖', '六', '同', '打'] {
            assert!(
                drawn.iter().any(|(c, _)| *c == kanji),
                "{kanji} is not drawn"
            );
        }
        let font: Vec<char> = KANJI_CHARS.trim_end().chars().collect();
        for (c, from) in &drawn {
            assert!(
                font.contains(c),
                "{c} ({from}) is not in assets/pieces-chars.txt: run tools/make-font"
            );
        }
        assert!(font.iter().all(|c| drawn_in_kanji_font(*c)), "{font:?}");
        assert!(font.is_sorted() && font.windows(2).all(|w| w[0] != w[1]));
    }

    /// style.css's face of the font names exactly the font's characters in its unicode-range, and
    /// the font file by a relative path (the static site serves the page under any folder); the
    /// font is served as WOFF2, not gzipped again, and is small (tens of KB at most).
    #[test]
    fn the_kanji_font_face_and_file_agree() {
        let face = STYLE_CSS
            .lines()
            .find(|l| l.starts_with("@font-face { font-family: \"Tsubame Kanji\";"))
            .expect("the font's face");
        assert!(
            face.contains("src: url(pieces.woff2) format(\"woff2\");"),
            "{face}"
        );
        let range = face
            .split("unicode-range: ")
            .nth(1)
            .and_then(|r| r.split(';').next())
            .expect("a unicode-range");
        let mut named = Vec::new();
        for part in range.split(", ") {
            let hex = |h: &str| u32::from_str_radix(h, 16).expect(part);
            let (a, b) = match part.trim_start_matches("U+").split_once('-') {
                Some((a, b)) => (hex(a), hex(b)),
                None => (hex(&part[2..]), hex(&part[2..])),
            };
            named.extend((a..=b).map(|c| char::from_u32(c).expect(part)));
        }
        let font: Vec<char> = KANJI_CHARS.trim_end().chars().collect();
        assert_eq!(
            named, font,
            "style.css's unicode-range: run tools/make-font"
        );
        assert_eq!(&KANJI_WOFF2[..4], b"wOF2");
        assert!(KANJI_WOFF2.len() < 30_000, "{} bytes", KANJI_WOFF2.len());
        assert!(KANJI_LICENSE.contains("SIL OPEN FONT LICENSE Version 1.1"));
        let mut headers = HeaderMap::new();
        headers.insert(header::ACCEPT_ENCODING, HeaderValue::from_static("gzip"));
        let response = serve_asset("/pieces.woff2", &headers);
        assert_eq!(response.status(), StatusCode::OK);
        assert_eq!(response.headers()[header::CONTENT_TYPE], "font/woff2");
        assert!(response.headers().get(header::CONTENT_ENCODING).is_none());
    }

    /// docs/rules.md's example of a nana shogi position is one the engine takes.
    #[test]
    fn the_rules_nana_example_is_a_position() {
        let rules = include_str!("../../docs/rules.md");
        let at = rules
            .find("written with the letter of its current state (`")
            .unwrap();
        let sfen = rules[at..].split('`').nth(1).unwrap();
        let nana = GameId::ALL
            .into_iter()
            .find(|g| g.info().page.files == 3)
            .unwrap();
        state::check(nana.name(), sfen, &[], None).unwrap_or_else(|e| panic!("{sfen}: {e}"));
    }

    /// The set counts the page's editor bounds its hands by are the engine's: one piece more of a
    /// kind than a descriptor's count, held in hand, is refused for the set, and that count is
    /// not.
    #[test]
    fn page_set_counts_are_the_engines() {
        for g in GameId::ALL {
            let page = g.info().page;
            assert!(!page.set.is_empty(), "{g}");
            for p in page.pieces {
                let counted = page.set.iter().filter(|c| c.letters.contains(&p.letter));
                assert_eq!(counted.count(), 1, "{g}: {}", p.letter);
            }
            if !page.hands {
                continue;
            }
            for c in page.set.iter().filter(|c| !c.each) {
                let board = page.empty.split(' ').next().unwrap();
                let letter = c.letters[0];
                let sfen = |n: u8| format!("{board} b {n}{letter} 1");
                let refused = state::check(g.name(), &sfen(c.count + 1), &[], None)
                    .expect_err("one more than the set");
                assert!(
                    refused.contains(&format!("set has {}", c.count)),
                    "{g}: {refused}"
                );
                if let Err(e) = state::check(g.name(), &sfen(c.count), &[], None) {
                    assert!(!e.contains("set has"), "{g}: {e}");
                }
            }
        }
    }

    /// Each game's page descriptor names its squares and its pieces consistently, and the squares
    /// of every legal move of its start and of its examples' positions are named by it.
    #[test]
    fn page_descriptors_name_every_square_a_move_touches() {
        for g in GameId::ALL {
            let info = g.info();
            let page = info.page;
            assert_eq!(page.file_names.chars().count(), page.files as usize, "{g}");
            assert_eq!(page.rank_names.chars().count(), page.ranks as usize, "{g}");
            assert_eq!(page.ranks as usize, info.ranks, "{g}");
            let squares: Vec<String> = page
                .file_names
                .chars()
                .flat_map(|f| page.rank_names.chars().map(move |r| format!("{f}{r}")))
                .collect();
            for m in page.marked {
                assert!(squares.iter().any(|s| s == m), "{g}: marked {m}");
            }
            assert!(page.first == "b" || page.first == "w", "{g}");
            assert!(page.pieces.iter().filter(|p| p.royal).count() <= 1, "{g}");
            for p in page.pieces {
                for other in p.next.iter().chain(p.hand.iter()) {
                    assert!(
                        page.pieces.iter().any(|q| q.letter == *other),
                        "{g}: {} names {other}",
                        p.letter
                    );
                }
            }
            let mut positions = vec![("startpos".to_string(), Vec::new())];
            for e in (info.examples)() {
                positions.push((e.sfen.unwrap_or_else(|| "startpos".into()), e.moves));
            }
            for (sfen, moves) in positions {
                let checked = state::check(g.name(), &sfen, &moves, None).expect("a position");
                let ServerMsg::State { legal, .. } = checked.state else {
                    panic!("{g}: not a state");
                };
                for mv in legal {
                    let body = mv.split_once('*').map_or(mv.as_str(), |(_, sq)| sq);
                    let touched: Vec<&String> = squares
                        .iter()
                        .filter(|s| body.contains(s.as_str()))
                        .collect();
                    match page.moves {
                        MoveSyntax::FromTo if mv == "pass" => {}
                        MoveSyntax::FromTo => {
                            let mut rest = body.trim_end_matches('+').to_string();
                            for _ in 0..if mv.contains('*') { 1 } else { 2 } {
                                let sq = squares.iter().find(|s| rest.starts_with(s.as_str()));
                                let sq = sq.unwrap_or_else(|| panic!("{g}: {mv}"));
                                rest = rest[sq.len()..].to_string();
                            }
                            assert!(rest.is_empty(), "{g}: {mv}");
                        }
                        MoveSyntax::Route => {
                            for stop in body.split(['-', ':']) {
                                assert!(squares.iter().any(|s| s == stop), "{g}: {mv}");
                            }
                            assert!(!touched.is_empty(), "{g}: {mv}");
                        }
                    }
                }
            }
        }
    }
}
