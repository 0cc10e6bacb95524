//! The generators: each [`Kind`] makes one step (a short command sequence) from the seeded
//! generator and the driver's model of the engine.

use std::collections::HashMap;
use std::path::PathBuf;

use crate::driver::Model;
use crate::games::{FuzzGame, Game, Pos};
use crate::trace::{Action, Step};
use tsubame::rng::Rng;

/// Declares the generator kinds: variant, `--skip` name, weight, and what it does.
macro_rules! kinds {
    ($($v:ident => $name:literal, $w:literal, $doc:literal;)+) => {
        /// A kind of step the fuzzer generates.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub enum Kind {
            $(#[doc = $doc] $v,)+
        }

        impl Kind {
            /// Every kind.
            pub const ALL: &'static [Kind] = &[$(Kind::$v),+];

            /// The name used by `--skip`/`--only`.
            pub fn name(self) -> &'static str {
                match self { $(Kind::$v => $name,)+ }
            }

            /// How often it is picked, relative to the others.
            pub fn weight(self) -> u64 {
                match self { $(Kind::$v => $w,)+ }
            }

            /// What it does.
            pub fn doc(self) -> &'static str {
                match self { $(Kind::$v => $doc,)+ }
            }
        }
    };
}

kinds! {
    Game => "game", 12, "long legal games: random legal moves and the engine's own bestmoves, thousands of plies";
    Search => "search", 6, "isready, d, position, setoption, usinewgame, usi while go infinite runs";
    Infinite => "infinite", 5, "go infinite + stop cycles (also in positions with a mate)";
    Storm => "storm", 4, "storms of stop and ponderhit during a search";
    Ponder => "ponder", 5, "go ponder, then ponderhit or stop";
    Mate => "mate", 4, "go mate (timed or infinite) + stop, and searches of positions with a mate";
    Perft => "perft", 3, "small go perft (counts checked against the rules), some followed by stop";
    Mutate => "mutate", 8, "valid commands with bytes and words mutated";
    Garbage => "garbage", 4, "random ASCII lines and word salads, unknown commands";
    Sfen => "sfen", 6, "position sfen with mutated SFENs, then a short search";
    Moves => "moves", 6, "position with mutated move lists (illegal, malformed, other games' moves)";
    Go => "go", 6, "go with mutated parameters: negative, huge, non-numeric, unknown words";
    Options => "option", 5, "setoption with extreme names and values (huge, negative, empty, non-numeric)";
    Variant => "variant", 3, "USI_Variant switches, valid and invalid";
    Misc => "misc", 3, "usi, isready, usinewgame, d, gameover, stray stop/ponderhit, empty lines";
    Long => "long", 1, "very long lines (4 KB to 1 MB)";
    Whitespace => "whitespace", 3, "tabs, CR, leading/trailing/doubled spaces, control characters";
    Utf8 => "utf8", 2, "invalid UTF-8 bytes";
    Unicode => "unicode", 1, "valid non-ASCII UTF-8 (checks that output stays ASCII)";
    Quit => "quit", 1, "quit, also during a search (the process must end promptly), then a restart";
    Tablebase => "tablebase", 1, "NanaTablebase with nonexistent and garbage files";
    TbStdin => "tb-stdin", 1, "NanaTablebase=/dev/stdin (and /dev/zero with --dangerous)";
    PerftHuge => "perft-huge", 1, "go perft with a huge depth, then stop and isready";
    HashHuge => "hash-huge", 1, "only with --dangerous: USI_Hash 65536 with go mate and isready";
    Extra => "extra-words", 2, "extra words after usi, isready, usinewgame, stop, d; gameover variants; bad go mate limits";
    EvalDevice => "eval-device", 1, "EvalFile=/dev/stdin and /dev/zero (refused without reading), then isready";
    Eof => "eof", 2, "the end of input while a search, mate search or perft runs: answered, then exit";
}

/// Positions to set, per game.
#[derive(Clone, Debug, Default)]
struct Pool {
    sfens: Vec<String>,
    mates: Vec<String>,
    mated: Vec<String>,
}

/// A game being played over many steps.
#[derive(Clone, Debug)]
struct GameState {
    game: Game,
    moves: Vec<String>,
    max_plies: usize,
}

/// Generator settings.
#[derive(Clone, Debug)]
pub struct GenConfig {
    /// Allow dangerous values (USI_Hash up to 65536, NanaTablebase=/dev/zero).
    pub dangerous: bool,
    /// Largest valid USI_Hash sent otherwise.
    pub max_hash: u64,
    /// Where garbage table files are written.
    pub scratch: PathBuf,
}

/// The generators' state.
pub struct Gen {
    rng: Rng,
    cfg: GenConfig,
    pools: HashMap<Game, Pool>,
    game: Option<GameState>,
    kinds: Vec<Kind>,
}

const EXTREMES: [&str; 22] = [
    "-1",
    "-100000",
    "0",
    "1",
    "2",
    "99999999999999999999",
    "18446744073709551615",
    "18446744073709551616",
    "9223372036854775807",
    "-9223372036854775808",
    "4294967296",
    "abc",
    "",
    "1.5",
    "0x10",
    "+5",
    "1e9",
    "NaN",
    "true",
    "-0",
    "007",
    "1000000000",
];

const WORDS: [&str; 30] = [
    "usi",
    "isready",
    "usinewgame",
    "setoption",
    "name",
    "value",
    "position",
    "startpos",
    "sfen",
    "moves",
    "go",
    "stop",
    "ponderhit",
    "gameover",
    "d",
    "infinite",
    "ponder",
    "btime",
    "wtime",
    "byoyomi",
    "depth",
    "nodes",
    "movetime",
    "mate",
    "searchmoves",
    "USI_Variant",
    "MultiPV",
    "Threads",
    "win",
    "resign",
];

fn send(s: impl Into<Vec<u8>>) -> Action {
    Action::Send(s.into())
}

/// True when a line built by random mutation is safe to send: it may not quit, run the bench,
/// ask for a deep perft, a big table or many threads, touch the table file or the handicap option
/// (those have their own generators).
pub fn safe(line: &[u8], cfg: &GenConfig) -> bool {
    let low = String::from_utf8_lossy(line).to_ascii_lowercase();
    let first = low.split_whitespace().next().unwrap_or("");
    if first == "quit" || first == "bench" || first.starts_with("quit") && first.len() < 6 {
        return false;
    }
    if low.contains("tablebase") || low.contains("extramoves") || low.contains("/dev") {
        return false;
    }
    let numbers: Vec<u128> = low
        .split(|c: char| !c.is_ascii_digit())
        .filter(|s| !s.is_empty())
        .map(|s| s.parse::<u128>().unwrap_or(u128::MAX))
        .collect();
    let any = |lo: u128, hi: u128| numbers.iter().any(|&n| n > lo && n <= hi);
    if low.contains("perft") && any(3, u128::MAX) {
        return false;
    }
    if low.contains("hash") && !cfg.dangerous && any(cfg.max_hash as u128, 65536) {
        return false;
    }
    if low.contains("thread") && any(2, 256) {
        return false;
    }
    true
}

impl Gen {
    /// Generators for `kinds`, positions drawn from `seed`.
    pub fn new(seed: u64, cfg: GenConfig, kinds: Vec<Kind>) -> Gen {
        let mut rng = Rng::new(seed);
        let mut pools = HashMap::new();
        for g in Game::ALL {
            pools.insert(g, make_pool(&mut rng, g));
        }
        Gen {
            rng,
            cfg,
            pools,
            game: None,
            kinds,
        }
    }

    /// Picks a kind by weight.
    pub fn pick_kind(&mut self) -> Kind {
        let total: u64 = self.kinds.iter().map(|k| k.weight()).sum();
        let mut r = self.rng.below(total);
        for &k in &self.kinds {
            if r < k.weight() {
                return k;
            }
            r -= k.weight();
        }
        self.kinds[0]
    }

    /// One step of `kind` for the engine in state `model`; `last_bestmove` is the engine's last move.
    pub fn step(&mut self, kind: Kind, model: &Model, last_bestmove: Option<&str>) -> Step {
        let mut s = Vec::new();
        match kind {
            Kind::Game => self.game_step(&mut s, model, last_bestmove),
            Kind::Search => self.search_step(&mut s, model),
            Kind::Infinite => {
                for _ in 0..self.rng.range(1..=4) {
                    s.push(send(self.position_line(model, true)));
                    s.push(send("go infinite"));
                    s.push(self.sleep(60));
                    s.push(send("stop"));
                }
            }
            Kind::Storm => {
                s.push(send(self.position_line(model, false)));
                let go = match self.rng.below(4) {
                    0 => "go infinite".to_string(),
                    1 => "go ponder btime 1000 wtime 1000 byoyomi 100".to_string(),
                    2 => format!("go depth {}", self.rng.range(10..=40)),
                    _ => format!("go nodes {}", self.rng.range(100..=10_000_000)),
                };
                s.push(send(go));
                s.push(self.sleep(20));
                for _ in 0..self.rng.range(3..=40) {
                    s.push(send(if self.rng.chance(50) {
                        "stop"
                    } else {
                        "ponderhit"
                    }));
                    if self.rng.chance(20) {
                        s.push(self.sleep(3));
                    }
                }
            }
            Kind::Ponder => {
                s.push(send(self.position_line(model, false)));
                let (b, w, y) = (
                    self.rng.below(3000),
                    self.rng.below(3000),
                    self.rng.below(500),
                );
                s.push(send(format!("go ponder btime {b} wtime {w} byoyomi {y}")));
                s.push(self.sleep(100));
                match self.rng.below(3) {
                    0 => s.push(send("stop")),
                    1 => s.push(send("ponderhit")),
                    _ => s.push(send(format!("ponderhit btime {b} wtime {w} byoyomi {y}"))),
                }
            }
            Kind::Mate => {
                s.push(send(self.position_line(model, true)));
                let go = match self.rng.below(4) {
                    0 => "go mate infinite".to_string(),
                    1 => format!("go mate {}", self.rng.below(2000)),
                    2 => "go infinite".to_string(),
                    _ => format!("go btime 0 wtime 0 byoyomi {}", self.rng.below(1000)),
                };
                s.push(send(go));
                s.push(self.sleep(150));
                if self.rng.chance(70) {
                    s.push(send("stop"));
                }
            }
            Kind::Perft => {
                s.push(send(self.position_line(model, false)));
                let d = self.rng.below(model.game().perft_depth() as u64 + 1);
                s.push(send(format!("go perft {d}")));
                if self.rng.chance(30) {
                    s.push(send("stop"));
                }
            }
            Kind::PerftHuge => {
                let d = *self.rng.pick(&[
                    "1000",
                    "64",
                    "20",
                    "4294967295",
                    "4294967297",
                    "99999999999",
                ]);
                s.push(send(format!("go perft {d}")));
                s.push(self.sleep(20));
                s.push(send("stop"));
            }
            Kind::Mutate => {
                let base = self.valid_command(model);
                let line = self.mutated(&base, false);
                if self.rng.chance(30) {
                    s.push(send(self.position_line(model, false)));
                }
                s.push(send(line));
            }
            Kind::Garbage => {
                for _ in 0..self.rng.range(1..=3) {
                    let line = self.garbage();
                    s.push(send(line));
                }
            }
            Kind::Sfen => {
                let sfen = self.pool_sfen(model.game(), false);
                let bad = self.mutated(sfen.as_bytes(), true);
                let mut line = b"position sfen ".to_vec();
                line.extend(bad);
                if self.rng.chance(30) {
                    line.extend(b" moves ");
                    line.extend(
                        self.rng
                            .pick(&["7g7f", "1a1b", "P*5e", "pass", "5e4d"])
                            .bytes(),
                    );
                }
                if safe(&line, &self.cfg) {
                    s.push(send(line));
                }
                s.push(send(self.quick_go()));
            }
            Kind::Moves => {
                let mut line = self.position_line(model, false);
                if !line.contains(" moves") {
                    line.push_str(" moves");
                }
                for _ in 0..self.rng.range(1..=3) {
                    let bad = match self.rng.below(8) {
                        0 => "7g7f".to_string(),
                        1 => "P*1a".to_string(),
                        2 => "pass".to_string(),
                        3 => "5a5a".to_string(),
                        4 => "9i9a+".to_string(),
                        5 => "K*2b".to_string(),
                        6 => "p*5e".to_string(),
                        _ => self.word(),
                    };
                    line.push(' ');
                    line.push_str(&bad);
                }
                if self.rng.chance(50) {
                    let m = self.mutated(line.as_bytes(), false);
                    if safe(&m, &self.cfg) {
                        s.push(send(m));
                    }
                } else {
                    s.push(send(line));
                }
                s.push(send(self.quick_go()));
            }
            Kind::Go => {
                s.push(send(self.position_line(model, false)));
                let keys = [
                    "btime",
                    "wtime",
                    "byoyomi",
                    "binc",
                    "winc",
                    "movetime",
                    "depth",
                    "nodes",
                    "movestogo",
                    "mate",
                    "infinite",
                    "ponder",
                    "searchmoves",
                    "bogus",
                ];
                let mut line = "go".to_string();
                for _ in 0..self.rng.range(1..=5) {
                    line.push(' ');
                    let k = self.rng.pick(&keys[..]).to_string();
                    line.push_str(&k);
                    if self.rng.chance(85) {
                        line.push(' ');
                        let v = self.rng.pick(&EXTREMES[..]).to_string();
                        line.push_str(&v);
                    }
                }
                if safe(line.as_bytes(), &self.cfg) {
                    s.push(send(line));
                }
                s.push(self.sleep(30));
            }
            Kind::Options => self.option_step(&mut s, model),
            Kind::Variant => {
                // Every name and alias of the registry, in other cases too, and names of no game.
                let mut names: Vec<String> = Game::ALL
                    .iter()
                    .flat_map(|g| std::iter::once(g.name()).chain(g.info().aliases.iter().copied()))
                    .map(str::to_string)
                    .collect();
                let upper: Vec<String> = names.iter().map(|n| n.to_ascii_uppercase()).collect();
                let odd: Vec<String> = names.iter().map(|n| format!("{n}9")).collect();
                names.extend(upper);
                names.extend(odd);
                names.extend(["chess".to_string(), String::new()]);
                let v = self.rng.pick(&names).clone();
                let name = if self.rng.chance(20) {
                    "UCI_Variant"
                } else {
                    "USI_Variant"
                };
                s.push(send(format!("setoption name {name} value {v}")));
                s.push(send("position startpos"));
                s.push(send(match self.rng.below(3) {
                    0 => "d".to_string(),
                    1 => "go perft 1".to_string(),
                    _ => self.quick_go(),
                }));
            }
            Kind::Misc => {
                for _ in 0..self.rng.range(1..=4) {
                    let l = *self.rng.pick(&[
                        "usi",
                        "isready",
                        "usinewgame",
                        "d",
                        "gameover win",
                        "gameover lose",
                        "gameover draw",
                        "stop",
                        "ponderhit",
                        "",
                        "ponderhit btime 100 wtime 100",
                    ]);
                    s.push(send(l));
                }
            }
            Kind::Long => {
                let n = *self.rng.pick(&[4096usize, 65536, 1 << 20]);
                let line: Vec<u8> = match self.rng.below(6) {
                    0 => vec![b'a'; n],
                    1 => {
                        let mut l = b"position startpos moves".to_vec();
                        while l.len() < n {
                            l.extend(b" 7g7f 3c3d");
                        }
                        l
                    }
                    2 => {
                        let mut l = b"go".to_vec();
                        while l.len() < n {
                            l.extend(b" depth 1");
                        }
                        l
                    }
                    3 => [
                        b"setoption name ".to_vec(),
                        vec![b'x'; n],
                        b" value 1".to_vec(),
                    ]
                    .concat(),
                    4 => [b"usi".to_vec(), vec![b' '; n]].concat(),
                    _ => [b"position sfen ".to_vec(), vec![b'/'; n]].concat(),
                };
                s.push(send(line));
                s.push(send("isready"));
            }
            Kind::Whitespace => {
                let base = self.valid_command(model);
                let line: Vec<u8> = match self.rng.below(7) {
                    0 => Vec::new(),
                    1 => base
                        .iter()
                        .map(|&b| if b == b' ' { b'\t' } else { b })
                        .collect(),
                    2 => [base.clone(), b"\r".to_vec()].concat(),
                    3 => [b"  ".to_vec(), base.clone(), b" \t ".to_vec()].concat(),
                    4 => base
                        .iter()
                        .flat_map(|&b| if b == b' ' { vec![b' ', b' '] } else { vec![b] })
                        .collect(),
                    5 => b"\t\r\x0b\x0c".to_vec(),
                    _ => {
                        let mut l = base.clone();
                        let at = self.rng.below(l.len() + 1);
                        l.insert(at, *self.rng.pick(&[0u8, 7, 8, 0x1b, 0x7f]));
                        l
                    }
                };
                if safe(&line, &self.cfg) {
                    s.push(send(line));
                }
            }
            Kind::Utf8 => {
                let base = self.valid_command(model);
                let choices: [&[u8]; 6] = [
                    b"\xff",
                    b"\xc0\xaf",
                    b"\xed\xa0\x80",
                    b"\x80",
                    b"\xe5\xb0",
                    b"\xfe\xfe\xff",
                ];
                let junk = *self.rng.pick(&choices);
                let at = self.rng.below(base.len() + 1);
                let line = [&base[..at], junk, &base[at..]].concat();
                if safe(&line, &self.cfg) {
                    s.push(send(line));
                }
            }
            Kind::Unicode => {
                let w = *self
                    .rng
                    .pick(&["将棋", "é", "ｇｏ", "go 深さ 3", "position ＳＦＥＮ"]);
                s.push(send(w));
            }
            Kind::Quit => {
                match self.rng.below(3) {
                    0 => {}
                    1 => {
                        s.push(send(self.position_line(model, false)));
                        s.push(send("go infinite"));
                        s.push(self.sleep(30));
                    }
                    _ => s.push(send("go ponder btime 500 wtime 500 byoyomi 100")),
                }
                s.push(send("quit"));
            }
            Kind::Tablebase => {
                let name = format!("garbage-{}.tb", self.rng.below(3));
                let path = self.cfg.scratch.join(&name);
                let len = self.rng.below(5000) as usize;
                let bytes: Vec<u8> = (0..len).map(|_| self.rng.next_u64() as u8).collect();
                let _ = std::fs::create_dir_all(&self.cfg.scratch);
                let _ = std::fs::write(&path, bytes);
                let v = match self.rng.below(4) {
                    0 => "/nonexistent/tsubame-fuzz/table.tb".to_string(),
                    1 => "<empty>".to_string(),
                    2 => self.cfg.scratch.display().to_string(),
                    _ => path.display().to_string(),
                };
                self.tablebase(&mut s, &v);
            }
            Kind::TbStdin => {
                let v = if self.cfg.dangerous && self.rng.chance(50) {
                    "/dev/zero"
                } else {
                    "/dev/stdin"
                };
                self.tablebase(&mut s, v);
            }
            Kind::Extra => {
                for _ in 0..self.rng.range(1..=4) {
                    let cmd = *self.rng.pick(&[
                        "usi",
                        "isready",
                        "usinewgame",
                        "stop",
                        "d",
                        "gameover",
                        "go mate",
                    ]);
                    let extra = match cmd {
                        "gameover" => self.rng.pick(&["", "3", "foo bar", "win now", "Win"]),
                        "go mate" => self.rng.pick(&["", "-1", "soon", "1.5"]),
                        _ => self.rng.pick(&["now", "*2!Gc", "please", "1", "stop"]),
                    }
                    .to_string();
                    if cmd == "go mate" {
                        s.push(send(self.position_line(model, true)));
                    }
                    let line = if extra.is_empty() {
                        cmd.to_string()
                    } else {
                        format!("{cmd} {extra}")
                    };
                    s.push(send(line));
                    if cmd == "go mate" {
                        s.push(self.sleep(50));
                        s.push(send("stop"));
                    }
                }
            }
            Kind::EvalDevice => {
                let device = *self
                    .rng
                    .pick(&["/dev/stdin", "/dev/zero", "/proc/self/fd/0"]);
                s.push(send(format!("setoption name EvalFile value {device}")));
                s.push(send("isready"));
                s.push(send(self.quick_go()));
            }
            Kind::Eof => {
                s.push(send(self.position_line(model, true)));
                let go = match self.rng.below(8) {
                    0 => format!("go depth {}", self.rng.range(1..=5)),
                    1 => format!("go nodes {}", self.rng.range(1..=20_000)),
                    2 => format!("go movetime {}", self.rng.range(1..=300)),
                    3 => format!("go btime 0 wtime 0 byoyomi {}", self.rng.range(1..=300)),
                    4 => format!("go mate {}", self.rng.range(1..=500)),
                    5 => "go infinite".to_string(),
                    6 => "go ponder btime 100 wtime 100 byoyomi 100".to_string(),
                    _ => format!("go perft {}", self.rng.range(1..=3)),
                };
                s.push(send(go));
                if self.rng.chance(50) {
                    s.push(self.sleep(30));
                }
                s.push(Action::Close);
            }
            Kind::HashHuge => {
                if self.cfg.dangerous {
                    s.push(send("setoption name USI_Hash value 65536"));
                    s.push(send("go mate 200"));
                    s.push(send("isready"));
                }
                s.push(send(format!(
                    "setoption name USI_Hash value {}",
                    crate::driver::HASH_MIB
                )));
            }
        }
        s
    }

    /// An exact table's option (of a game of the registry that has one) set to `value`, then a
    /// search and a mate search of the start position, and the option emptied again.
    fn tablebase(&mut self, s: &mut Step, value: &str) {
        let Some((game, exact)) = Game::with_exact_tables().next() else {
            return;
        };
        s.push(send(format!(
            "setoption name USI_Variant value {}",
            game.name()
        )));
        s.push(send(format!(
            "setoption name {} value {value}",
            exact.option
        )));
        s.push(send("isready"));
        s.push(send("position startpos"));
        s.push(send(if self.rng.chance(50) {
            "go depth 3"
        } else {
            "go mate 100"
        }));
        s.push(send(format!(
            "setoption name {} value <empty>",
            exact.option
        )));
    }

    fn sleep(&mut self, max_ms: u64) -> Action {
        Action::Sleep(self.rng.below(max_ms + 1))
    }

    fn word(&mut self) -> String {
        match self.rng.below(3) {
            0 => self.rng.pick(&WORDS).to_string(),
            1 => self.rng.pick(&EXTREMES).to_string(),
            _ => (0..self.rng.range(1..=8))
                .map(|_| (b'a' + self.rng.below(26) as u8) as char)
                .collect(),
        }
    }

    fn garbage(&mut self) -> Vec<u8> {
        loop {
            let line: Vec<u8> = match self.rng.below(3) {
                0 => (0..self.rng.below(80))
                    .map(|_| self.rng.range(0x20..=0x7e) as u8)
                    .collect(),
                1 => (0..self.rng.range(1..=8))
                    .map(|_| self.word())
                    .collect::<Vec<_>>()
                    .join(" ")
                    .into_bytes(),
                _ => (0..self.rng.below(40))
                    .map(|_| self.rng.range(1..=0x7f) as u8)
                    .filter(|&b| b != b'\n')
                    .collect(),
            };
            if safe(&line, &self.cfg) {
                return line;
            }
        }
    }

    /// A random valid command (ASCII), for mutation.
    fn valid_command(&mut self, model: &Model) -> Vec<u8> {
        let l = match self.rng.below(8) {
            0 | 1 => self.position_line(model, false),
            2 | 3 => self.quick_go(),
            4 => format!(
                "setoption name {} value {}",
                self.rng.pick(&[
                    "MultiPV",
                    "Threads",
                    "USI_Hash",
                    "MaxMovesToDraw",
                    "SlowMover"
                ]),
                self.rng.range(1..=2)
            ),
            5 => "go btime 100 wtime 100 byoyomi 10".to_string(),
            6 => self
                .rng
                .pick(&["isready", "usinewgame", "stop", "d", "gameover draw", "usi"])
                .to_string(),
            _ => "go infinite".to_string(),
        };
        l.into_bytes()
    }

    /// `line` with 1 to 4 random edits; `sfen` favours SFEN characters.
    fn mutated(&mut self, line: &[u8], sfen: bool) -> Vec<u8> {
        for _ in 0..20 {
            let mut l = line.to_vec();
            for _ in 0..self.rng.range(1..=4) {
                let at = self.rng.below(l.len() + 1);
                let ch = if sfen {
                    *self.rng.pick(b"plnsgbrkPLNSGBRK+-/ 0123456789bw*")
                } else {
                    self.rng.range(0x20..=0x7e) as u8
                };
                match self.rng.below(7) {
                    0 if at < l.len() => l[at] = ch,
                    1 => l.insert(at, ch),
                    2 if at < l.len() => {
                        let n = self.rng.range(1..=8) as usize;
                        l.drain(at..(at + n).min(l.len()));
                    }
                    3 if at < l.len() => {
                        let n = (self.rng.range(1..=12) as usize).min(l.len() - at);
                        let chunk = l[at..at + n].to_vec();
                        l.splice(at..at, chunk);
                    }
                    4 => l.truncate(at),
                    5 => {
                        let w = if sfen {
                            self.rng
                                .pick(&["99P", "0P", "18P", "+K", "10", "/", " - ", " w "])
                                .to_string()
                        } else {
                            self.word()
                        };
                        l.splice(at..at, w.bytes());
                    }
                    _ => {
                        // Replace one space-separated word.
                        let text = String::from_utf8_lossy(&l).into_owned();
                        let mut words: Vec<String> = text.split(' ').map(str::to_string).collect();
                        let i = self.rng.below(words.len());
                        words[i] = self.word();
                        l = words.join(" ").into_bytes();
                    }
                }
            }
            if l.as_slice() != line && safe(&l, &self.cfg) {
                return l;
            }
        }
        b"frobnicate".to_vec()
    }

    fn pool_sfen(&mut self, game: Game, mates: bool) -> String {
        let pool = &self.pools[&game];
        let list = match self.rng.below(10) {
            0..=5 if mates && !pool.mates.is_empty() => &pool.mates,
            6 if !pool.mated.is_empty() => &pool.mated,
            _ => &pool.sfens,
        };
        let i = self.rng.below(list.len());
        list[i].clone()
    }

    /// A valid `position` line for the current game (a pool position and a few legal moves).
    fn position_line(&mut self, model: &Model, mates: bool) -> String {
        let game = model.game();
        let (mut line, mut pos) = if self.rng.chance(25) {
            ("position startpos".to_string(), game.startpos())
        } else {
            let sfen = self.pool_sfen(game, mates);
            let pos = game.parse_sfen(&sfen).expect("pool positions are valid");
            (format!("position sfen {sfen}"), pos)
        };
        pos.begin_extra_moves(model.extra);
        let n = if mates { 0 } else { self.rng.below(6) };
        let mut moves = Vec::new();
        for _ in 0..n {
            let legal = pos.legal_moves();
            if legal.is_empty() {
                break;
            }
            let m = self.rng.pick(&legal).clone();
            pos.play_usi(&m);
            moves.push(m);
        }
        if !moves.is_empty() {
            line.push_str(" moves ");
            line.push_str(&moves.join(" "));
        }
        line
    }

    /// A search that ends by itself quickly.
    fn quick_go(&mut self) -> String {
        match self.rng.below(4) {
            0 => format!("go depth {}", self.rng.range(1..=4)),
            1 => format!("go nodes {}", self.rng.range(1..=5000)),
            2 => format!("go movetime {}", self.rng.range(1..=60)),
            _ => format!(
                "go btime {} wtime {} byoyomi {}",
                self.rng.below(500),
                self.rng.below(500),
                self.rng.below(50)
            ),
        }
    }

    fn search_step(&mut self, s: &mut Step, model: &Model) {
        s.push(send(self.position_line(model, false)));
        s.push(send("go infinite"));
        s.push(self.sleep(40));
        for _ in 0..self.rng.range(1..=5) {
            let l = match self.rng.below(8) {
                0 => "isready".to_string(),
                1 => "d".to_string(),
                2 => self.position_line(model, false),
                3 => format!("setoption name MultiPV value {}", self.rng.range(1..=3)),
                4 => "usinewgame".to_string(),
                5 => "usi".to_string(),
                6 => format!(
                    "setoption name USI_Variant value {}",
                    self.rng.pick(&Game::ALL).name()
                ),
                _ => "frobnicate".to_string(),
            };
            s.push(send(l));
            s.push(self.sleep(10));
        }
        if self.rng.chance(50) {
            s.push(send("go infinite"));
            s.push(self.sleep(20));
        }
        s.push(send("stop"));
    }

    fn option_step(&mut self, s: &mut Step, model: &Model) {
        if model.hash > 64 || model.threads > 2 || model.multipv > 4 {
            s.push(send(format!(
                "setoption name USI_Hash value {}",
                crate::driver::HASH_MIB
            )));
            s.push(send("setoption name Threads value 1"));
            s.push(send("setoption name MultiPV value 1"));
        }
        let names = [
            "USI_Hash",
            "Threads",
            "USI_Ponder",
            "MultiPV",
            "USI_MultiPV",
            "EnteringKingRule",
            "MaxMovesToDraw",
            "MinishogiRepetition",
            "MinishogiJishogi",
            "ByoyomiMargin",
            "MinimumThinkingTime",
            "SlowMover",
            "SearchPruning",
            "usi_hash",
            "THREADS",
            "NoSuchOption",
            "Bad Name With Spaces",
            "",
        ];
        for _ in 0..self.rng.range(1..=3) {
            let name = *self.rng.pick(&names);
            let value = match self.rng.below(4) {
                0 => self.rng.range(1..=2).to_string(),
                1 => match name {
                    "USI_Hash" | "usi_hash" => self
                        .rng
                        .pick(&[1u64, 2, 8, 16, 32, self.cfg.max_hash])
                        .to_string(),
                    "EnteringKingRule" => self
                        .rng
                        .pick(&["CSARule27", "CSARule24", "none", "TryRule"])
                        .to_string(),
                    "MinishogiRepetition" | "MinishogiJishogi" => self
                        .rng
                        .pick(&["initiator", "draw", "black", "white"])
                        .to_string(),
                    "USI_Ponder" | "SearchPruning" => self
                        .rng
                        .pick(&["true", "false", "TRUE", "maybe"])
                        .to_string(),
                    _ => self.rng.range(0..=1000).to_string(),
                },
                _ => self.rng.pick(&EXTREMES).to_string(),
            };
            let line = match self.rng.below(10) {
                0 => format!("setoption {name} {value}"),
                1 => format!("setoption name {name}"),
                2 => format!("setoption name {name} value"),
                _ => format!("setoption name {name} value {value}"),
            };
            if safe(line.as_bytes(), &self.cfg) {
                s.push(send(line));
            }
        }
        // Hash values that must be refused without harm, whatever the flags.
        if self.rng.chance(30) {
            let v = self
                .rng
                .pick(&["1000000000", "65537", "0", "-1", "99999999999999999999999"]);
            s.push(send(format!("setoption name USI_Hash value {v}")));
        }
        s.push(send("isready"));
        s.push(send(self.position_line(model, false)));
        s.push(send(self.quick_go()));
    }

    fn game_step(&mut self, s: &mut Step, model: &Model, last_bestmove: Option<&str>) {
        let fresh = |rng: &mut Rng| GameState {
            game: *rng.pick(&Game::ALL),
            moves: Vec::new(),
            max_plies: rng.range(300..=4000) as usize,
        };
        let mut st = self.game.take().unwrap_or_else(|| fresh(&mut self.rng));
        if st.game != model.game() {
            s.push(send(format!(
                "setoption name USI_Variant value {}",
                st.game.name()
            )));
        }
        let extra = if st.game == model.game() {
            model.extra
        } else {
            0
        };
        // Replay the game (options may have changed its legality); cut it at the first illegal move.
        let mut pos = st.game.startpos();
        pos.begin_extra_moves(extra);
        let mut kept = 0;
        for m in &st.moves {
            if !pos.play_usi(m) {
                break;
            }
            kept += 1;
        }
        st.moves.truncate(kept);
        if let Some(m) = last_bestmove
            && !st.moves.is_empty()
            && self.rng.chance(50)
            && pos.play_usi(m)
        {
            st.moves.push(m.to_string());
        }
        for _ in 0..self.rng.range(1..=40) {
            let legal = pos.legal_moves();
            if legal.is_empty() {
                break;
            }
            let m = self.rng.pick(&legal).clone();
            pos.play_usi(&m);
            st.moves.push(m);
        }
        let mut line = "position startpos".to_string();
        if !st.moves.is_empty() {
            line.push_str(" moves ");
            line.push_str(&st.moves.join(" "));
        }
        s.push(send(line));
        if pos.count_legal() > 0 {
            s.push(send(format!("go nodes {}", self.rng.range(50..=3000))));
        }
        if pos.count_legal() > 0 && st.moves.len() < st.max_plies {
            self.game = Some(st);
        }
    }
}

/// Random positions of `game`, positions with a mate in one, and mated positions.
fn make_pool(rng: &mut Rng, game: Game) -> Pool {
    let mut pool = Pool::default();
    let tools = game.info().tools;
    let hand_made = tools.fuzz_positions;
    let max_len = tools.random_walk_plies;
    for s in hand_made {
        if let Some(p) = game.parse_sfen(s) {
            classify_pool(&mut pool, &p);
        }
    }
    for _ in 0..24 {
        let mut p = game.startpos();
        let len = rng.below(max_len);
        for ply in 0..len {
            let legal = p.legal_moves();
            if legal.is_empty() {
                break;
            }
            if ply % 4 == 0 && pool.mates.len() < 8 {
                classify_pool(&mut pool, &p);
            }
            let m = rng.pick(&legal).clone();
            p.play_usi(&m);
        }
        pool.sfens.push(p.to_sfen());
        classify_pool(&mut pool, &p);
    }
    pool
}

fn classify_pool(pool: &mut Pool, p: &Pos) {
    let legal = p.legal_moves();
    if legal.is_empty() {
        pool.mated.push(p.to_sfen());
        return;
    }
    let mates = legal.iter().any(|m| {
        let mut q = p.clone();
        q.play_usi(m) && q.is_mated()
    });
    if mates {
        pool.mates.push(p.to_sfen());
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cfg() -> GenConfig {
        GenConfig {
            dangerous: false,
            max_hash: 1024,
            scratch: std::env::temp_dir().join("tsubame-fuzz-test"),
        }
    }

    #[test]
    fn the_safety_filter_refuses_what_it_should() {
        let c = cfg();
        assert!(!safe(b"quit", &c));
        assert!(!safe(b" quit\t", &c));
        assert!(!safe(b"bench", &c));
        assert!(!safe(b"go perft 7", &c));
        assert!(safe(b"go perft 3", &c));
        assert!(!safe(b"setoption name USI_Hash value 20000", &c));
        assert!(safe(b"setoption name USI_Hash value 1000000000", &c));
        assert!(!safe(b"setoption name threads value 64", &c));
        assert!(!safe(b"setoption name NanaTablebase value x", &c));
        assert!(safe(b"go depth 3", &c));
    }

    #[test]
    fn steps_are_deterministic_and_positions_valid() {
        let model = crate::driver::Driver::new(crate::driver::Config {
            engine: "x".into(),
            deadline: std::time::Duration::from_secs(1),
            quit_within: std::time::Duration::from_secs(1),
            stop_ms: 50.0,
            check_ascii: true,
            verbose: false,
        })
        .model;
        let mut a = Gen::new(3, cfg(), Kind::ALL.to_vec());
        let mut b = Gen::new(3, cfg(), Kind::ALL.to_vec());
        for _ in 0..300 {
            let (ka, kb) = (a.pick_kind(), b.pick_kind());
            assert_eq!(ka, kb);
            let (sa, sb) = (a.step(ka, &model, None), b.step(kb, &model, None));
            assert_eq!(sa, sb);
        }
        for g in Game::ALL {
            let pool = &a.pools[&g];
            assert!(!pool.sfens.is_empty());
            for m in &pool.mates {
                assert!(g.parse_sfen(m).is_some());
            }
        }
        assert!(!a.pools[&Game::Shogi].mates.is_empty());
        let line = a.position_line(&model, false);
        assert_ne!(
            crate::classify::classify(line.as_bytes()),
            crate::classify::Cmd::Raw
        );
    }
}
