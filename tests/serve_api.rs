//! `tsubame serve` from outside: the real binary on a free port of 127.0.0.1, spoken to over
//! HTTP and its WebSocket as the page would (docs/serve.md). Searches are limited by depth or
//! nodes, every wait by a timeout.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use futures_util::{SinkExt, StreamExt};
use serde_json::{Value, json};
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::tungstenite::client::IntoClientRequest;
use tokio_tungstenite::tungstenite::http::HeaderValue;
use tokio_tungstenite::tungstenite::protocol::CloseFrame;
use tokio_tungstenite::tungstenite::protocol::frame::coding::CloseCode;

/// The longest wait for any one answer.
const WAIT: Duration = Duration::from_secs(60);

/// A running `tsubame serve`, ended when dropped.
struct Server {
    child: Child,
    port: u16,
}

impl Server {
    /// Starts `tsubame serve --port 0 ARGS` and reads its port from the URL it prints.
    fn start(args: &[&str]) -> Server {
        let mut child = Command::new(env!("CARGO_BIN_EXE_tsubame"))
            .args(["serve", "--port", "0"])
            .args(args)
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("the binary starts");
        let mut line = String::new();
        BufReader::new(child.stdout.take().expect("piped"))
            .read_line(&mut line)
            .expect("the URL line");
        let port = line
            .trim()
            .strip_prefix("tsubame serve: http://127.0.0.1:")
            .and_then(|rest| rest.strip_suffix('/'))
            .and_then(|p| p.parse().ok())
            .unwrap_or_else(|| panic!("unexpected first line {line:?}"));
        Server { child, port }
    }

    /// `http://127.0.0.1:PORT`, the page's origin.
    fn origin(&self) -> String {
        format!("http://127.0.0.1:{}", self.port)
    }

    /// A plain HTTP/1.1 request with the given `Host`, and other header lines `extra`: the
    /// status code, the headers (lowercase names) and the body.
    fn http(&self, path: &str, host: &str, extra: &str) -> (u16, String, Vec<u8>) {
        let mut s = TcpStream::connect(("127.0.0.1", self.port)).expect("connect");
        s.set_read_timeout(Some(WAIT)).unwrap();
        write!(
            s,
            "GET {path} HTTP/1.1\r\nHost: {host}\r\n{extra}Connection: close\r\n\r\n"
        )
        .unwrap();
        let mut raw = Vec::new();
        s.read_to_end(&mut raw).expect("a whole answer");
        let split = raw
            .windows(4)
            .position(|w| w == b"\r\n\r\n")
            .expect("headers end");
        let head = String::from_utf8_lossy(&raw[..split]).to_ascii_lowercase();
        let status = head
            .split_whitespace()
            .nth(1)
            .and_then(|c| c.parse().ok())
            .expect("a status");
        (status, head, raw[split + 4..].to_vec())
    }

    /// `GET /` and friends with this server's own `Host`.
    fn get(&self, path: &str) -> (u16, String, Vec<u8>) {
        self.http(path, &format!("127.0.0.1:{}", self.port), "")
    }

    /// The number of live sessions, from `/health`.
    fn sessions(&self) -> u64 {
        let (status, _, body) = self.get("/health");
        assert_eq!(status, 200);
        let v: Value = serde_json::from_slice(&body).expect("JSON");
        v["sessions"].as_u64().expect("a count")
    }

    /// Waits until the server counts `n` live sessions.
    fn wait_sessions(&self, n: u64) {
        let start = Instant::now();
        while self.sessions() != n {
            assert!(start.elapsed() < WAIT, "sessions never came to {n}");
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    /// Opens a session as the page does (with its `Origin`) and reads its `hello`.
    async fn connect(&self) -> (Client, Value) {
        let mut client = self
            .connect_with(Some(&self.origin()))
            .await
            .expect("upgrade");
        let hello = client.recv().await;
        assert_eq!(hello["op"], "hello", "{hello}");
        (client, hello)
    }

    /// Opens a WebSocket with the given `Origin` header (or none).
    async fn connect_with(&self, origin: Option<&str>) -> Result<Client, String> {
        let mut request = format!("ws://127.0.0.1:{}/ws", self.port)
            .into_client_request()
            .unwrap();
        if let Some(o) = origin {
            request
                .headers_mut()
                .insert("Origin", HeaderValue::from_str(o).unwrap());
        }
        let (ws, _) = tokio_tungstenite::connect_async(request)
            .await
            .map_err(|e| e.to_string())?;
        Ok(Client { ws })
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// A WebSocket session.
struct Client {
    ws: tokio_tungstenite::WebSocketStream<
        tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>,
    >,
}

impl Client {
    async fn send(&mut self, v: Value) {
        self.send_text(v.to_string()).await;
    }

    async fn send_text(&mut self, text: String) {
        self.ws
            .send(Message::Text(text.into()))
            .await
            .expect("send");
    }

    /// The next JSON message; `Null` when the server closed the session.
    async fn recv(&mut self) -> Value {
        loop {
            let next = tokio::time::timeout(WAIT, self.ws.next())
                .await
                .expect("an answer in time");
            match next {
                Some(Ok(Message::Text(t))) => return serde_json::from_str(&t).expect("JSON"),
                Some(Ok(Message::Close(_))) | None | Some(Err(_)) => return Value::Null,
                Some(Ok(_)) => {}
            }
        }
    }

    /// Reads until the server's Close: the text messages before it, and its frame.
    async fn until_close(&mut self) -> (Vec<Value>, Option<CloseFrame>) {
        let mut texts = Vec::new();
        loop {
            let next = tokio::time::timeout(WAIT, self.ws.next())
                .await
                .expect("an answer in time");
            match next {
                Some(Ok(Message::Text(t))) => texts.push(serde_json::from_str(&t).expect("JSON")),
                Some(Ok(Message::Close(frame))) => return (texts, frame),
                Some(Ok(_)) => {}
                other => panic!("the connection ended without a Close: {other:?}"),
            }
        }
    }

    /// The state of a position.
    async fn state(&mut self, game: &str, moves: &[String]) -> Value {
        self.send(json!({"op": "state", "game": game, "sfen": "startpos", "moves": moves}))
            .await;
        let s = self.recv().await;
        assert_eq!(s["op"], "state", "{s}");
        s
    }

    /// Sends a search and collects its messages up to its `bestmove` (or `mate`), which comes
    /// last.
    async fn search(&mut self, msg: Value) -> Vec<Value> {
        let id = msg["id"].clone();
        self.send(msg).await;
        let mut got = Vec::new();
        loop {
            let m = self.recv().await;
            assert!(
                m["op"] == "info" || m["op"] == "bestmove" || m["op"] == "mate",
                "{m}"
            );
            assert_eq!(m["id"], id, "{m}");
            let end = m["op"] != "info";
            got.push(m);
            if end {
                return got;
            }
        }
    }
}

/// Plays a short game of `game` by the engine's own moves, checking each against `state`.
async fn play_game(client: &mut Client, game: &str, max_plies: usize) -> Vec<String> {
    let mut moves: Vec<String> = Vec::new();
    let mut first_side = Value::Null;
    for ply in 0..max_plies {
        let s = client.state(game, &moves).await;
        assert_eq!(s["game"], game);
        if ply == 0 {
            first_side = s["side"].clone();
        }
        assert_eq!(s["side"] == first_side, ply % 2 == 0, "{s}");
        if !s["result"].is_null() {
            assert!(s["result"]["reason"].is_string(), "{s}");
            break;
        }
        let legal = s["legal"].as_array().expect("legal moves").clone();
        let answer = client
            .search(
                json!({"op": "go", "id": ply, "game": game, "sfen": "startpos",
                "moves": moves, "limits": {"nodes": 2000}}),
            )
            .await;
        let best = answer.last().unwrap();
        assert_eq!(best["op"], "bestmove");
        assert!(legal.contains(&best["move"]), "{best} not in {legal:?}");
        moves.push(best["move"].as_str().unwrap().to_string());
    }
    moves
}

/// The modules a page script imports (`from './NAME.js'`), as `/js/NAME.js`.
fn imported_scripts(text: &str) -> Vec<String> {
    text.split("from './")
        .skip(1)
        .filter_map(|rest| rest.split_once('\''))
        .map(|(name, _)| format!("/js/{name}"))
        .collect()
}

#[tokio::test]
async fn the_page_and_its_assets() {
    let server = Server::start(&[]);
    let mut total = 0;
    let mut scripts = vec!["/js/main.js".to_string()];
    for (path, kind) in [("/", "text/html"), ("/style.css", "text/css")] {
        let (status, head, body) = server.get(path);
        assert_eq!(status, 200, "{path}");
        assert!(head.contains(&format!("content-type: {kind}")), "{head}");
        total += body.len();
        if path == "/" {
            let html = String::from_utf8_lossy(&body);
            assert!(html.contains("<html"));
            assert!(html.contains(r#"<script type="module" src="js/main.js">"#));
        }
    }
    // The page's modules: main.js and every module it imports, directly or not.
    let mut i = 0;
    while i < scripts.len() {
        let (status, head, body) = server.get(&scripts[i]);
        assert_eq!(status, 200, "{}", scripts[i]);
        assert!(head.contains("content-type: text/javascript"), "{head}");
        assert!(head.contains("cache-control: no-cache"), "{head}");
        assert!(head.contains("etag: \""), "{head}");
        total += body.len();
        for name in imported_scripts(&String::from_utf8_lossy(&body)) {
            if !scripts.contains(&name) {
                scripts.push(name);
            }
        }
        i += 1;
    }
    assert!(scripts.len() > 10, "{scripts:?}");
    assert!(total < 300_000, "{total} bytes");
    // The icon.
    let (status, head, body) = server.get("/favicon.ico");
    assert_eq!(status, 200);
    assert!(head.contains("content-type: image/svg+xml"), "{head}");
    assert!(String::from_utf8_lossy(&body).starts_with("<svg"));
    // Compressed for a client that accepts gzip, and not sent again to one that has it.
    let host = format!("127.0.0.1:{}", server.port);
    let mut gzipped = 0;
    for path in ["/", "/style.css", "/favicon.ico"]
        .iter()
        .map(|p| p.to_string())
        .chain(scripts.iter().cloned())
    {
        let (_, plain_head, plain) = server.get(&path);
        let (status, head, body) = server.http(&path, &host, "Accept-Encoding: gzip, br\r\n");
        assert_eq!(status, 200, "{path}");
        assert!(head.contains("content-encoding: gzip"), "{path}: {head}");
        let mut text = Vec::new();
        flate2::read::GzDecoder::new(&body[..])
            .read_to_end(&mut text)
            .expect("gzip");
        assert_eq!(text, plain, "{path}");
        gzipped += body.len();
        let tag = |head: &str| {
            head.lines()
                .find_map(|l| l.strip_prefix("etag: "))
                .expect("an etag")
                .trim()
                .to_string()
        };
        for (etag, encoding) in [
            (tag(&plain_head), ""),
            (tag(&head), "Accept-Encoding: gzip\r\n"),
        ] {
            let (status, again, body) = server.http(
                &path,
                &host,
                &format!("{encoding}If-None-Match: {etag}\r\n"),
            );
            assert_eq!(status, 304, "{path}: {again}");
            assert!(body.is_empty(), "{path}");
        }
        let (status, _, _) = server.http(&path, &host, "If-None-Match: \"other\"\r\n");
        assert_eq!(status, 200, "{path}");
    }
    // Issue 68's budget for a first load, the kanji font included (docs/serve.md).
    assert!(gzipped < 60_000, "{gzipped} bytes gzipped");
    let (_, head, _) = server.http("/", &host, "Accept-Encoding: gzip;q=0\r\n");
    assert!(!head.contains("content-encoding"), "{head}");
    assert_eq!(server.get("/nothing").0, 404);
    assert_eq!(server.get("/js/nothing.js").0, 404);
    assert_eq!(server.get("/app.js").0, 404);
    assert_eq!(server.sessions(), 0);
}

#[tokio::test]
async fn foreign_hosts_and_origins_are_refused() {
    let server = Server::start(&[]);
    let port = server.port;
    for host in [format!("localhost:{port}"), format!("[::1]:{port}")] {
        assert_eq!(server.http("/", &host, "").0, 200, "{host}");
    }
    for host in [
        "evil.example".to_string(),
        format!("evil.example:{port}"),
        format!("127.0.0.1:{}", port.wrapping_add(1)),
    ] {
        assert_eq!(server.http("/", &host, "").0, 403, "{host}");
        assert_eq!(server.http("/health", &host, "").0, 403, "{host}");
        // The upgrade too, even with a matching Origin.
        let upgrade = format!(
            "Upgrade: websocket\r\nSec-WebSocket-Version: 13\r\n\
             Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nOrigin: http://{host}\r\n"
        );
        let (status, _, _) = server.http("/ws", &host, &upgrade);
        assert_eq!(status, 403, "{host}");
    }
    for origin in [
        Some("http://evil.example"),
        Some("null"),
        Some(&*format!("https://127.0.0.1:{port}")),
        Some(&*format!("http://localhost:{port}")),
        None,
    ] {
        let refused = server.connect_with(origin).await.err();
        let refused = refused.unwrap_or_else(|| panic!("{origin:?} was accepted"));
        assert!(refused.contains("403"), "{origin:?}: {refused}");
    }
    assert_eq!(server.sessions(), 0);
}

#[tokio::test]
async fn hello_and_a_short_game_of_each() {
    let server = Server::start(&[]);
    let (mut client, hello) = server.connect().await;
    let games: Vec<&str> = hello["games"]
        .as_array()
        .unwrap()
        .iter()
        .map(|g| g["name"].as_str().unwrap())
        .collect();
    assert_eq!(games, ["shogi", "minishogi", "nanashogi", "giveandtake"]);
    // The games' descriptions, in the same order, come from GET /games.json.
    let (status, head, body) = server.get("/games.json");
    assert_eq!(status, 200);
    let lower = head.to_ascii_lowercase();
    assert!(
        lower.contains("application/json") && lower.contains("etag"),
        "{head}"
    );
    let described: Value = serde_json::from_slice(&body).expect("JSON");
    let names: Vec<&str> = described
        .as_array()
        .unwrap()
        .iter()
        .map(|g| g["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, games);
    assert_eq!(
        described[0]["startpos"],
        "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1"
    );
    assert_eq!(hello["limits"]["sessions"], 4);
    assert_eq!(hello["limits"]["elo"], json!([1000, 2842]));
    assert_eq!(hello["limits"]["message_bytes"], 65536);
    assert_eq!(hello["limits"]["idle_seconds"], 1800);
    // Started without --nana-tablebase: no solved nana shogi table; the other games have none.
    assert_eq!(hello["games"][2]["exact"]["loaded"], false);
    assert_eq!(hello["games"][2]["exact"]["flag"], "nana-tablebase");
    assert!(hello["games"][0]["exact"].is_null());
    // How the page draws each game and names its squares and moves.
    let page = &described[0]["page"];
    assert_eq!(page["board"], "wedges");
    assert_eq!(page["file_names"], "987654321");
    assert_eq!(page["rank_names"], "abcdefghi");
    assert_eq!(page["moves"], "from-to");
    assert_eq!(page["pieces"][0]["royal"], true);
    assert_eq!(described[2]["page"]["marked"], json!(["2b"]));
    let page = &described[3]["page"];
    assert_eq!(page["board"], "discs");
    assert_eq!(page["first"], "w");
    assert_eq!(page["rank_names"], "87654321");
    assert_eq!(page["moves"], "route");
    assert_eq!(page["last_square"], true);
    // A draw by agreement: shogi and Give and Take, not minishogi nor nana shogi.
    let draws: Vec<_> = described
        .as_array()
        .unwrap()
        .iter()
        .map(|g| g["page"]["agreed_draw"].as_bool().unwrap())
        .collect();
    assert_eq!(draws, [true, false, false, true]);
    assert_eq!(page["notation"]["western"], false);
    assert_eq!(
        described[0]["page"]["notation"]["japanese_ranks"],
        "一二三四五六七八九"
    );
    assert_eq!(
        described[0]["page"]["set"][7],
        json!({"letters": ["P", "+P"], "count": 18, "each": false})
    );
    for game in games {
        let moves = play_game(&mut client, game, 24).await;
        assert!(!moves.is_empty(), "{game}");
    }
    assert_eq!(server.sessions(), 1);
}

#[tokio::test]
async fn analysis_with_two_lines() {
    let server = Server::start(&[]);
    let (mut client, _) = server.connect().await;
    let got = client
        .search(
            json!({"op": "go", "id": 1.5, "game": "shogi", "sfen": "startpos",
            "moves": ["7g7f"], "limits": {"depth": 5}, "multipv": 2}),
        )
        .await;
    let last_depth = got
        .iter()
        .filter_map(|m| m["depth"].as_i64())
        .max()
        .unwrap();
    let lines: Vec<&Value> = got
        .iter()
        .filter(|m| m["depth"].as_i64() == Some(last_depth) && m["pv"].is_array())
        .collect();
    let numbers: Vec<i64> = lines.iter().filter_map(|m| m["multipv"].as_i64()).collect();
    assert!(numbers.contains(&1) && numbers.contains(&2), "{got:?}");
    let firsts: Vec<&Value> = lines.iter().map(|m| &m["pv"][0]).collect();
    assert_ne!(firsts[0], firsts[1], "two different lines: {got:?}");
    for m in &lines {
        assert!(
            m["score"]["cp"].is_i64() || m["score"]["mate"].is_i64(),
            "{m}"
        );
        assert!(
            m["nodes"].is_u64() && m["time"].is_u64() && m["nps"].is_u64(),
            "{m}"
        );
    }
    assert_eq!(got.last().unwrap()["op"], "bestmove");
}

#[tokio::test]
async fn a_play_search_at_a_low_level_searches_less_and_the_next_at_full_strength() {
    let server = Server::start(&[]);
    let (mut client, _) = server.connect().await;
    let go = |id: u32, level: Option<u32>| {
        let mut msg = json!({"op": "go", "id": id, "game": "minishogi", "sfen": "startpos",
            "moves": [], "limits": {"depth": 7}});
        if let Some(level) = level {
            msg["level"] = json!(level);
        }
        msg
    };
    let nodes = |got: &[Value]| {
        got.iter()
            .filter_map(|m| m["nodes"].as_u64())
            .max()
            .unwrap()
    };
    let weak = client.search(go(1, Some(0))).await;
    assert_eq!(weak.last().unwrap()["op"], "bestmove", "{weak:?}");
    let full = client.search(go(2, None)).await;
    assert_eq!(full.last().unwrap()["op"], "bestmove", "{full:?}");
    // Level 0 stops after its first iterations; the next search, without a level, is not held
    // to it.
    assert!(
        nodes(&weak) * 10 < nodes(&full),
        "{} and {} nodes",
        nodes(&weak),
        nodes(&full)
    );
}

/// A play search at an Elo rating plays a legal move, as weak as the lowest level asks; the
/// next search without one is at full strength again.
#[tokio::test]
async fn a_play_search_at_an_elo_rating() {
    let server = Server::start(&[]);
    let (mut client, hello) = server.connect().await;
    let low = hello["limits"]["elo"][0].clone();
    let go = |id: u32, elo: Option<Value>| {
        let mut msg = json!({"op": "go", "id": id, "game": "minishogi", "sfen": "startpos",
            "moves": [], "limits": {"depth": 7}});
        if let Some(elo) = elo {
            msg["elo"] = elo;
        }
        msg
    };
    let nodes = |got: &[Value]| {
        got.iter()
            .filter_map(|m| m["nodes"].as_u64())
            .max()
            .unwrap()
    };
    let weak = client.search(go(1, Some(low))).await;
    let legal = client.state("minishogi", &[]).await["legal"].clone();
    let best = weak.last().unwrap();
    assert_eq!(best["op"], "bestmove", "{weak:?}");
    assert!(legal.as_array().unwrap().contains(&best["move"]), "{best}");
    let full = client.search(go(2, None)).await;
    assert_eq!(full.last().unwrap()["op"], "bestmove", "{full:?}");
    assert!(
        nodes(&weak) * 10 < nodes(&full),
        "{} and {} nodes",
        nodes(&weak),
        nodes(&full)
    );
}

#[tokio::test]
async fn mates_in_give_and_take_and_shogi() {
    let server = Server::start(&[]);
    let (mut client, _) = server.connect().await;
    let got = client
        .search(json!({"op": "mate", "id": 1, "game": "giveandtake",
            "sfen": "K7/1m6/1m6/8/m7/m7/8/KK6 b - 1", "moves": [], "ms": 20000}))
        .await;
    let answer = got.last().unwrap();
    assert_eq!(answer["result"], "mate", "{answer}");
    assert_eq!(
        answer["line"],
        json!([
            "b6-a6",
            "a8:a5",
            "b7-b6",
            "b1:b7",
            "a3-a2",
            "a1:a3",
            "a4:a1:a7:c7"
        ])
    );
    let got = client
        .search(json!({"op": "mate", "id": 2, "game": "shogi",
            "sfen": "4k4/9/4P4/9/9/9/9/9/9 b G2r2b3g4s4n4l17p 1", "ms": 20000}))
        .await;
    assert_eq!(got.last().unwrap()["line"], json!(["G*5b"]));
    // The mated position's state says so.
    client
        .send(json!({"op": "state", "id": 3, "game": "shogi",
            "sfen": "4k4/9/4P4/9/9/9/9/9/9 b G2r2b3g4s4n4l17p 1", "moves": ["G*5b"]}))
        .await;
    let s = client.recv().await;
    assert_eq!(s["id"], 3);
    assert_eq!(s["check"], true);
    assert_eq!(s["legal"], json!([]));
    assert_eq!(
        s["result"],
        json!({"winner": "b", "reason": "no legal move"})
    );
}

#[tokio::test]
async fn bad_input_is_answered_and_the_session_goes_on() {
    let server = Server::start(&[]);
    let (mut client, _) = server.connect().await;
    let bad = [
        json!({"op": "state", "id": 1, "game": "chess", "sfen": "startpos", "moves": []}),
        json!({"op": "state", "id": 2, "game": "shogi", "sfen": "9/9 b - 1", "moves": []}),
        json!({"op": "state", "id": 3, "game": "shogi", "sfen": "startpos", "moves": ["5e5d"]}),
        json!({"op": "go", "id": 4, "game": "shogi", "sfen": "startpos", "moves": [],
            "limits": {"depth": 0}}),
        json!({"op": "go", "id": 5, "game": "shogi", "sfen": "startpos", "moves": [],
            "limits": {"depth": 3, "nodes": 10}}),
        json!({"op": "go", "id": 6, "game": "shogi", "sfen": "startpos", "moves": [],
            "limits": {"depth": 3}, "multipv": 6}),
        json!({"op": "go", "id": 7, "game": "shogi", "sfen": "startpos", "moves": ["1a1b"],
            "limits": {"depth": 3}}),
        json!({"op": "mate", "id": 8, "game": "shogi", "sfen": "startpos", "moves": [], "ms": 0}),
        json!({"op": "setoption", "id": 9, "name": "EvalFile", "value": "/etc/passwd"}),
        json!({"op": "state", "id": 10, "game": "shogi", "sfen": "startpos", "moves": [],
            "extra": true}),
        json!({"op": "state", "id": 11, "game": "shogi", "sfen": "startpos moves 7g7f"}),
        json!({"op": "go", "id": 12, "game": "shogi", "sfen": "startpos", "moves": [],
            "limits": {"depth": 3}, "level": 21}),
        json!({"op": "go", "id": 13, "game": "shogi", "sfen": "startpos", "moves": [],
            "limits": {"depth": 3}, "elo": 99}),
        json!({"op": "go", "id": 14, "game": "shogi", "sfen": "startpos", "moves": [],
            "limits": {"depth": 3}, "elo": 100000}),
    ];
    for msg in bad {
        let id = msg["id"].clone();
        client.send(msg).await;
        let e = client.recv().await;
        assert_eq!(e["op"], "error", "{e}");
        assert_eq!(e["id"], id, "{e}");
        assert!(!e["message"].as_str().unwrap().is_empty());
    }
    for text in [
        "not json".to_string(),
        "[]".to_string(),
        r#"{"op": "stop", "id": "one"}"#.to_string(),
        format!(
            r#"{{"op":"state","game":"shogi","sfen":"startpos","moves":[{}]}}"#,
            vec![r#""7g7f""#; 10_000].join(",")
        ),
    ] {
        client.send_text(text).await;
        let e = client.recv().await;
        assert_eq!(e["op"], "error", "{e}");
    }
    client
        .ws
        .send(Message::Binary(vec![1, 2, 3].into()))
        .await
        .unwrap();
    assert_eq!(client.recv().await["op"], "error");
    // Still serving.
    let s = client.state("minishogi", &[]).await;
    assert!(s["result"].is_null());
    let got = client
        .search(json!({"op": "go", "game": "shogi", "sfen": "startpos", "limits": {"depth": 2}}))
        .await;
    assert_eq!(got.last().unwrap()["op"], "bestmove");
}

#[tokio::test]
async fn too_many_messages_are_dropped() {
    let server = Server::start(&[]);
    let (mut client, _) = server.connect().await;
    let state = json!({"op": "state", "game": "nanashogi", "sfen": "startpos"});
    for _ in 0..80 {
        client.send(state.clone()).await;
    }
    let (mut states, mut errors) = (0, 0);
    for _ in 0..80 {
        match client.recv().await["op"].as_str() {
            Some("state") => states += 1,
            Some("error") => errors += 1,
            other => panic!("{other:?}"),
        }
    }
    assert!(
        states >= 50 && errors >= 1,
        "{states} states, {errors} errors"
    );
}

#[tokio::test]
async fn the_session_cap_and_a_vanished_client() {
    let server = Server::start(&["--max-sessions", "2"]);
    let (mut a, _) = server.connect().await;
    let (b, _) = server.connect().await;
    let mut c = server.connect_with(Some(&server.origin())).await.unwrap();
    let refused = c.recv().await;
    assert_eq!(refused["op"], "error", "{refused}");
    assert!(c.recv().await.is_null(), "closed after the refusal");
    assert_eq!(server.sessions(), 2);
    // A client that disappears in the middle of an endless search.
    a.send(
        json!({"op": "go", "id": 1, "game": "shogi", "sfen": "startpos",
        "limits": {"infinite": true}}),
    )
    .await;
    assert_eq!(a.recv().await["op"], "info");
    drop(a);
    drop(b);
    server.wait_sessions(0);
    let (mut d, _) = server.connect().await;
    let s = d.state("shogi", &[]).await;
    assert_eq!(s["legal"].as_array().unwrap().len(), 30);
    // A search stopped by `stop` answers with its bestmove.
    d.send(
        json!({"op": "go", "id": 2, "game": "shogi", "sfen": "startpos",
        "limits": {"infinite": true}}),
    )
    .await;
    assert_eq!(d.recv().await["op"], "info");
    d.send(json!({"op": "stop"})).await;
    loop {
        let m = d.recv().await;
        assert_eq!(m["id"], 2, "{m}");
        if m["op"] == "bestmove" {
            break;
        }
    }
}

#[tokio::test]
async fn a_close_from_the_client_is_answered() {
    // RFC 6455 §5.5.1: a Close is answered by a Close (here with the client's code), also in the
    // middle of an endless search; then the session ends and frees its place.
    let server = Server::start(&[]);
    let (mut a, _) = server.connect().await;
    a.send(
        json!({"op": "go", "id": 1, "game": "minishogi", "sfen": "startpos",
        "limits": {"infinite": true}}),
    )
    .await;
    assert_eq!(a.recv().await["op"], "info");
    let bye = CloseFrame {
        code: CloseCode::Normal,
        reason: "bye".into(),
    };
    a.ws.close(Some(bye)).await.expect("the Close goes out");
    let (_, answer) = a.until_close().await;
    assert_eq!(answer.map(|f| f.code), Some(CloseCode::Normal));
    server.wait_sessions(0);
}

#[tokio::test]
async fn an_idle_session_is_closed_and_frees_its_place() {
    // One place, closed after 1 s without a message (a search running meanwhile does not count
    // as use): the session is told why, gets a Close with the idle code, and its place is free.
    let server = Server::start(&["--max-sessions", "1", "--idle-timeout", "1"]);
    let (mut a, hello) = server.connect().await;
    assert_eq!(hello["limits"]["idle_seconds"], 1);
    a.send(
        json!({"op": "go", "id": 1, "game": "shogi", "sfen": "startpos",
        "limits": {"infinite": true}}),
    )
    .await;
    let (texts, close) = a.until_close().await;
    assert_eq!(close.map(|f| u16::from(f.code)), Some(4000));
    let said = texts
        .iter()
        .rfind(|v| v["op"] == "error")
        .and_then(|v| v["message"].as_str())
        .expect("an error message before the Close");
    assert!(said.contains("no message for 1 s"), "{said}");
    server.wait_sessions(0);
    let (mut b, _) = server.connect().await;
    let state = b.state("minishogi", &[]).await;
    assert_eq!(state["op"], "state", "{state}");
}

#[test]
fn twenty_sessions_at_once() {
    let server = Server::start(&["--max-sessions", "20", "--hash", "4"]);
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .unwrap();
    runtime.block_on(async {
        let mut tasks = Vec::new();
        for i in 0..20 {
            let game = ["shogi", "minishogi", "nanashogi", "giveandtake"][i % 4];
            let (mut client, _) = server.connect().await;
            tasks.push(tokio::spawn(async move {
                let moves = play_game(&mut client, game, 3).await;
                assert!(!moves.is_empty());
                moves.len()
            }));
        }
        for t in tasks {
            t.await.expect("every session plays");
        }
    });
    server.wait_sessions(0);
}

#[tokio::test]
async fn records_are_written_and_loaded_back() {
    let server = Server::start(&[]);
    let (mut client, _) = server.connect().await;
    let moves = ["7g7f", "3c3d", "8h2b+", "3a2b", "B*4e"];
    for format in ["kif", "csa", "usi"] {
        client
            .send(
                json!({"op": "record", "id": 1, "game": "shogi", "sfen": "startpos",
                "moves": moves, "format": format}),
            )
            .await;
        let r = client.recv().await;
        assert_eq!(r["op"], "record", "{r}");
        assert_eq!(r["id"], 1);
        assert_eq!(r["format"], format);
        let text = r["text"].as_str().unwrap().to_string();
        client
            .send(json!({"op": "load", "id": 2, "text": text}))
            .await;
        let l = client.recv().await;
        assert_eq!(l["op"], "load", "{l}");
        assert_eq!(l["id"], 2);
        assert_eq!(l["format"], format);
        assert_eq!(l["game"], "shogi");
        assert_eq!(
            l["sfen"],
            "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1"
        );
        assert_eq!(l["moves"], json!(moves), "{format}: {text}");
    }
    let bad = [
        json!({"op": "record", "id": 3, "game": "minishogi", "sfen": "startpos",
            "moves": [], "format": "csa"}),
        json!({"op": "record", "id": 4, "game": "shogi", "sfen": "startpos",
            "moves": ["7g7f", "7g7f"], "format": "kif"}),
        json!({"op": "load", "id": 5, "text": "V2.2\nPI\n+\n+7776FU\n-7776FU\n"}),
        json!({"op": "load", "id": 6, "text": "手合割：平手\n   1 ５五歩(57)\n"}),
        json!({"op": "load", "id": 7, "text": "position startpos moves 7g7f",
            "game": "chess"}),
    ];
    for msg in bad {
        let id = msg["id"].clone();
        client.send(msg).await;
        let e = client.recv().await;
        assert_eq!(e["op"], "error", "{e}");
        assert_eq!(e["id"], id, "{e}");
    }
    // A record that ends in a resignation, or another result, says so.
    for (text, winner, reason) in [
        (
            "手合割：平手\n   1 ７六歩(77)\n   2 投了\nまで1手で先手の勝ち\n",
            "b",
            "resignation",
        ),
        (
            "V2.2\nPI\n+\n+7776FU\n-3334FU\n%TORYO\n",
            "w",
            "resignation",
        ),
        ("V2.2\nPI\n+\n+7776FU\n%TIME_UP\n", "b", "time"),
    ] {
        client
            .send(json!({"op": "load", "id": 8, "text": text}))
            .await;
        let l = client.recv().await;
        assert_eq!(l["op"], "load", "{l}");
        assert_eq!(
            l["result"],
            json!({"winner": winner, "reason": reason}),
            "{text}"
        );
    }
    client
        .send(
            json!({"op": "load", "id": 9, "text": "V2.2\nPI\n+\n+7776FU\n-3334FU\n%SENNICHITE\n"}),
        )
        .await;
    assert_eq!(
        client.recv().await["result"],
        json!({"winner": null, "reason": "repetition"})
    );
    client
        .send(json!({"op": "load", "id": 10, "text": "position startpos moves 7g7f", "game": "shogi"}))
        .await;
    assert!(client.recv().await["result"].is_null());
    // A record with a bad move is not loaded at all, and says so.
    client
        .send(
            json!({"op": "load", "id": 11, "text": "position startpos moves c3-c4 c6-c5 c4:c6",
            "game": "giveandtake"}),
        )
        .await;
    let e = client.recv().await;
    assert_eq!(e["op"], "error", "{e}");
    let message = e["message"].as_str().unwrap();
    assert!(
        message.starts_with("the record was not loaded: move 3"),
        "{message}"
    );
    assert!(!message.contains("ignored"), "{message}");
    // A USI record of another game, told from its SFEN.
    client
        .send(json!({"op": "load", "text": "position sfen rbsgk/4p/5/P4/KGSBR b - 1 moves 5e4d"}))
        .await;
    let l = client.recv().await;
    assert_eq!(l["game"], "minishogi", "{l}");
    assert_eq!(l["moves"], json!(["5e4d"]));
}

#[test]
fn a_nana_tablebase_that_cannot_be_read_stops_the_server() {
    let out = Command::new(env!("CARGO_BIN_EXE_tsubame"))
        .args(["serve", "--port", "0", "--nana-tablebase", "/no/such/file"])
        .stdin(Stdio::null())
        .output()
        .expect("the binary runs");
    assert!(!out.status.success());
    // It never listened: nothing printed on stdout, the reason on stderr.
    assert!(
        out.stdout.is_empty(),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("--nana-tablebase /no/such/file: cannot read /no/such/file")
            && err.contains("tsubame solve nanashogi"),
        "{err}"
    );
}

#[test]
fn the_article_positions_are_served() {
    let server = Server::start(&[]);
    let (status, head, body) = server.get("/examples.json");
    assert_eq!(status, 200);
    assert!(head.contains("application/json"), "{head}");
    let ex: Value = serde_json::from_slice(&body).expect("JSON");
    let mini = ex["minishogi"].as_array().expect("minishogi's examples");
    // Every game of the tsv, with its start and its whole move list.
    let tsv = include_str!("../engine-tests/data/minishogi-games.tsv");
    let rows: Vec<Vec<&str>> = tsv
        .lines()
        .skip(1)
        .filter(|l| !l.trim().is_empty())
        .map(|l| l.split('\t').collect())
        .collect();
    let games: Vec<&Value> = mini.iter().filter(|e| e["kind"] == "game").collect();
    assert_eq!(games.len(), rows.len());
    for (g, row) in games.iter().zip(&rows) {
        assert_eq!(g["label"], row[0]);
        assert_eq!(g["sfen"], row[1]);
        let moves: Vec<&str> = g["moves"]
            .as_array()
            .unwrap()
            .iter()
            .map(|m| m.as_str().unwrap())
            .collect();
        assert_eq!(moves, row[2].split_whitespace().collect::<Vec<_>>());
    }
    // Some mates of tsume-minishogi.tsv.
    let tsume = include_str!("../engine-tests/data/tsume-minishogi.tsv");
    let mates: Vec<&Value> = mini[1..].iter().filter(|e| e["kind"] == "mate").collect();
    assert!(!mates.is_empty());
    for m in mates {
        let sfen = m["sfen"].as_str().unwrap();
        assert!(
            tsume.lines().any(|l| l.starts_with(&format!("{sfen}\t"))),
            "{sfen}"
        );
    }
}
