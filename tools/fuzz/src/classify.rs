//! What a line sent to the engine means, read strictly by the protocol contract.
//!
//! Only plain lines are read: printable ASCII, words separated by single spaces. Anything else
//! (tabs, CR, other bytes, doubled spaces, unclear numbers) is [`Cmd::Raw`]: the fuzzer does not
//! guess how the engine reads it and learns the resulting position from the engine (`d`) instead.

/// A `go` command.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Go {
    /// `go infinite`.
    pub infinite: bool,
    /// `go ponder`.
    pub ponder: bool,
    /// `go mate <ms|infinite>`: the time limit, `Some(None)` for infinite.
    pub mate: Option<Option<u64>>,
    /// `go perft <depth>`.
    pub perft: Option<u64>,
    /// Depth limit.
    pub depth: Option<u64>,
    /// Node limit.
    pub nodes: Option<u64>,
    /// Fixed time per move.
    pub movetime: Option<u64>,
    /// Largest of the clock values given (`btime`, `wtime`, `byoyomi`, `binc`, `winc`).
    pub clock: Option<u64>,
    /// The `searchmoves` given.
    pub searchmoves: Vec<String>,
    /// The command has a negative or non-numeric number, or an unknown word: the engine must say so
    /// with an `info string`.
    pub bad: bool,
    /// `go mate` with a missing or bad limit: the engine says so and searches as `go mate
    /// infinite` (so `mate` is `Some(None)`).
    pub bad_mate: bool,
}

impl Go {
    /// True when the search ends by itself soon without `stop` (the fuzzer stops it otherwise).
    pub fn bounded(&self) -> bool {
        if self.infinite || self.ponder || self.bad {
            return false;
        }
        if let Some(limit) = self.mate {
            return limit.is_some_and(|ms| ms <= 3000);
        }
        self.depth.is_some_and(|d| d <= 6)
            || self.nodes.is_some_and(|n| n <= 300_000)
            // `movetime` replaces the clock when both are given.
            || match self.movetime {
                Some(t) => t <= 3000,
                None => self.clock.is_some_and(|t| t <= 3000),
            }
    }
}

/// A line as the fuzzer reads it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Cmd {
    /// An empty line (ignored).
    Empty,
    /// `usi`.
    Usi,
    /// `isready`.
    IsReady,
    /// `usinewgame`.
    UsiNewGame,
    /// `stop`.
    Stop,
    /// `quit`.
    Quit,
    /// `d`.
    D,
    /// `ponderhit`, with the largest clock value it gives.
    Ponderhit(Option<u64>),
    /// `gameover …`.
    Gameover,
    /// `setoption name <name> [value <value>]`.
    SetOption {
        /// The option name.
        name: String,
        /// The value (empty when none).
        value: String,
    },
    /// `setoption` without `name`: refused.
    BadSetOption,
    /// `position startpos|sfen <SFEN> [moves …]`: the setup (`None` for startpos) and the moves.
    Position {
        /// The SFEN text, `None` for `startpos`.
        sfen: Option<String>,
        /// The moves after `moves`.
        moves: Vec<String>,
    },
    /// `position` with neither `startpos` nor `sfen`: refused.
    BadPosition,
    /// `go …`.
    Go(Go),
    /// A plain word that is no command: refused with an `info string`.
    Unknown,
    /// A command with extra or wrong words (`stop now`, `gameover 3`): the engine reports them
    /// with an `info string` and still does the command.
    Flawed(Box<Cmd>),
    /// Anything the fuzzer does not read (see the module comment); also commands it never sends
    /// on purpose (`bench`).
    Raw,
}

/// A non-negative number, `Err(true)` for a clearly bad one (negative or not a number) and
/// `Err(false)` for one the fuzzer does not judge (say `+5` or an overflow).
/// True when `word` is a minus sign followed by digits that fit an `i64`.
fn negative_integer(word: Option<&&str>) -> bool {
    word.is_some_and(|w| w.starts_with('-') && w.parse::<i64>().is_ok())
}

fn number(word: Option<&&str>) -> Result<u64, bool> {
    let Some(w) = word else { return Err(true) };
    if !w.is_empty() && w.bytes().all(|b| b.is_ascii_digit()) {
        return w.parse().map_err(|_| false);
    }
    if let Some(d) = w.strip_prefix('-')
        && !d.is_empty()
        && d.bytes().all(|b| b.is_ascii_digit())
    {
        return Err(true);
    }
    if w.bytes().all(|b| b.is_ascii_alphabetic()) {
        return Err(true);
    }
    Err(false)
}

fn parse_go(words: &[&str]) -> Option<Go> {
    let mut g = Go::default();
    let mut i = 0;
    while i < words.len() {
        let w = words[i];
        match w {
            "infinite" => g.infinite = true,
            "ponder" => g.ponder = true,
            "searchmoves" => {
                while i + 1 < words.len() && !tsubame::usi::GO_KEYWORDS.contains(&words[i + 1]) {
                    g.searchmoves.push(words[i + 1].to_string());
                    i += 1;
                }
            }
            "mate" if words.get(i + 1) == Some(&"infinite") => {
                g.mate = Some(None);
                i += 1;
            }
            "btime" | "wtime" | "byoyomi" | "binc" | "winc" | "movetime" | "movestogo"
            | "depth" | "nodes" | "perft" | "mate" => {
                let clock = !matches!(w, "depth" | "nodes" | "perft" | "mate");
                match number(words.get(i + 1)) {
                    // Clock values below zero (sent by some GUIs when time has run out) count
                    // as 0, without an error.
                    Err(true) if clock && negative_integer(words.get(i + 1)) => match w {
                        "movetime" => g.movetime = Some(0),
                        "movestogo" => {}
                        _ => g.clock = Some(g.clock.unwrap_or(0)),
                    },
                    Ok(v) => match w {
                        "depth" => g.depth = Some(v),
                        "nodes" => g.nodes = Some(v),
                        "movetime" => g.movetime = Some(v),
                        "perft" => g.perft = Some(v),
                        "mate" => g.mate = Some(Some(v)),
                        "movestogo" => {}
                        _ => g.clock = Some(g.clock.unwrap_or(0).max(v)),
                    },
                    // A bad mate limit: the engine searches without one.
                    Err(true) if w == "mate" => {
                        g.mate = Some(None);
                        g.bad_mate = true;
                    }
                    Err(true) => {
                        g.bad = true;
                        // A bad number makes a perft request unclear: leave it to the engine.
                        if w == "perft" {
                            return None;
                        }
                    }
                    Err(false) => return None,
                }
                i += 1;
            }
            _ => g.bad = true,
        }
        i += 1;
    }
    // A bad search request may be answered by some fallback search: fine, but not for mate/perft.
    // The engine answers a malformed `go` naming `mate` or `perft` anywhere as that request.
    if g.bad
        && (g.mate.is_some()
            || g.perft.is_some()
            || words.iter().any(|&w| w == "mate" || w == "perft"))
    {
        return None;
    }
    // A bad mate limit with anything else wrong, or with a perft, is left to the engine too.
    if g.bad_mate && (g.bad || g.perft.is_some() || words.contains(&"perft")) {
        return None;
    }
    g.bad |= g.bad_mate;
    Some(g)
}

/// Reads one line as the fuzzer understands it.
pub fn classify(line: &[u8]) -> Cmd {
    if line.is_empty() {
        return Cmd::Empty;
    }
    if !line.iter().all(|&b| (0x20..0x7f).contains(&b)) {
        return Cmd::Raw;
    }
    let text = std::str::from_utf8(line).expect("ASCII");
    if text.starts_with(' ') || text.ends_with(' ') || text.contains("  ") {
        return Cmd::Raw;
    }
    let words: Vec<&str> = text.split(' ').collect();
    let rest = &words[1..];
    let bare = |cmd: Cmd| {
        if rest.is_empty() {
            cmd
        } else {
            Cmd::Flawed(Box::new(cmd))
        }
    };
    match words[0] {
        "usi" => bare(Cmd::Usi),
        "isready" => bare(Cmd::IsReady),
        "usinewgame" => bare(Cmd::UsiNewGame),
        "stop" => bare(Cmd::Stop),
        "d" => bare(Cmd::D),
        "gameover" if matches!(rest, ["win"] | ["lose"] | ["draw"]) => Cmd::Gameover,
        "gameover" => Cmd::Flawed(Box::new(Cmd::Gameover)),
        "quit" if rest.is_empty() => Cmd::Quit,
        "ponderhit" => match parse_go(rest) {
            Some(g)
                if !g.bad
                    && g == (Go {
                        clock: g.clock,
                        ..Go::default()
                    }) =>
            {
                Cmd::Ponderhit(g.clock)
            }
            _ => Cmd::Raw,
        },
        "setoption" => {
            if rest.first() != Some(&"name") {
                return Cmd::BadSetOption;
            }
            let after = &rest[1..];
            let (name, value) = match after.iter().position(|&w| w == "value") {
                Some(i) => (after[..i].join(" "), after[i + 1..].join(" ")),
                None => (after.join(" "), String::new()),
            };
            if name.is_empty() {
                return Cmd::Raw;
            }
            Cmd::SetOption { name, value }
        }
        "position" => {
            let (setup, moves) = match rest.iter().position(|&w| w == "moves") {
                Some(i) => (&rest[..i], rest[i + 1..].to_vec()),
                None => (rest, Vec::new()),
            };
            let moves = moves.into_iter().map(str::to_string).collect();
            match setup.first() {
                Some(&"startpos") if setup.len() == 1 => Cmd::Position { sfen: None, moves },
                Some(&"sfen") if setup.len() > 1 => Cmd::Position {
                    sfen: Some(setup[1..].join(" ")),
                    moves,
                },
                Some(&"startpos") | Some(&"sfen") => Cmd::Raw,
                // A bare SFEN (no word `sfen`), which the engine reads as YaneuraOu does.
                Some(board) if board.contains('/') => Cmd::Position {
                    sfen: Some(setup.join(" ")),
                    moves,
                },
                _ => Cmd::BadPosition,
            }
        }
        "go" => parse_go(rest).map_or(Cmd::Raw, Cmd::Go),
        w if w.bytes().all(|b| b.is_ascii_lowercase())
            && !matches!(
                w,
                "usi"
                    | "isready"
                    | "usinewgame"
                    | "stop"
                    | "quit"
                    | "d"
                    | "bench"
                    | "ponderhit"
                    | "setoption"
                    | "position"
                    | "go"
                    | "gameover"
            ) =>
        {
            Cmd::Unknown
        }
        _ => Cmd::Raw,
    }
}

/// A short name for the kind of a line, for the summary.
pub fn kind_name(cmd: &Cmd) -> &'static str {
    match cmd {
        Cmd::Empty => "empty",
        Cmd::Usi => "usi",
        Cmd::IsReady => "isready",
        Cmd::UsiNewGame => "usinewgame",
        Cmd::Stop => "stop",
        Cmd::Quit => "quit",
        Cmd::D => "d",
        Cmd::Ponderhit(_) => "ponderhit",
        Cmd::Gameover => "gameover",
        Cmd::SetOption { .. } | Cmd::BadSetOption => "setoption",
        Cmd::Position { .. } | Cmd::BadPosition => "position",
        Cmd::Go(_) => "go",
        Cmd::Unknown => "unknown",
        Cmd::Flawed(cmd) => kind_name(cmd),
        Cmd::Raw => "raw",
    }
}

/// True when a line the fuzzer does not read might still be `quit` to a lenient engine (its
/// first word, around any whitespace, is `quit`): the engine may then exit.
pub fn maybe_quit(line: &[u8]) -> bool {
    let text = String::from_utf8_lossy(line);
    text.split_whitespace().next() == Some("quit")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_plain_lines_and_leaves_the_rest() {
        assert_eq!(classify(b""), Cmd::Empty);
        assert_eq!(classify(b"stop"), Cmd::Stop);
        assert_eq!(classify(b"stop "), Cmd::Raw);
        assert_eq!(classify(b"go\tinfinite"), Cmd::Raw);
        assert_eq!(classify(b"\xffgo"), Cmd::Raw);
        assert_eq!(classify(b"frobnicate 3"), Cmd::Unknown);
        assert_eq!(classify(b"bench"), Cmd::Raw);
        let Cmd::Go(g) = classify(b"go depth -3") else {
            panic!()
        };
        assert!(g.bad && !g.bounded());
        let Cmd::Go(g) = classify(b"go btime 100 wtime 200 byoyomi 50") else {
            panic!()
        };
        assert_eq!(g.clock, Some(200));
        assert!(g.bounded() && !g.bad);
        assert_eq!(classify(b"go perft -1"), Cmd::Raw);
        let Cmd::Go(g) = classify(b"go btime -5 wtime -0 byoyomi 0") else {
            panic!()
        };
        assert!(!g.bad && g.bounded(), "negative clocks count as 0");
        assert_eq!(classify(b"go movetime mate -1 btime ponder"), Cmd::Raw);
        let Cmd::Go(g) = classify(b"go movetime 4294967296 winc 1") else {
            panic!()
        };
        assert!(!g.bounded(), "movetime replaces the clock");
        assert_eq!(classify(b"go depth +3"), Cmd::Raw);
        let Cmd::Go(g) = classify(b"go mate infinite") else {
            panic!()
        };
        assert_eq!(g.mate, Some(None));
        let Cmd::Go(g) = classify(b"go searchmoves 7g7f 2g2f depth 2") else {
            panic!()
        };
        assert_eq!(g.searchmoves, ["7g7f", "2g2f"]);
        assert_eq!(
            classify(b"setoption name USI_Hash value 16"),
            Cmd::SetOption {
                name: "USI_Hash".into(),
                value: "16".into()
            }
        );
        assert_eq!(classify(b"setoption USI_Hash"), Cmd::BadSetOption);
        assert_eq!(
            classify(b"position startpos moves 7g7f"),
            Cmd::Position {
                sfen: None,
                moves: vec!["7g7f".into()]
            }
        );
        assert_eq!(
            classify(b"position 3/3/3"),
            Cmd::Position {
                sfen: Some("3/3/3".into()),
                moves: vec![]
            }
        );
        assert_eq!(classify(b"position lnsg"), Cmd::BadPosition);
        assert_eq!(
            classify(b"ponderhit btime 5 wtime 6"),
            Cmd::Ponderhit(Some(6))
        );
        assert!(maybe_quit(b"  quit\r") && !maybe_quit(b"quitx"));
    }

    #[test]
    fn extra_words_and_bad_mate_limits_are_flaws_the_command_survives() {
        assert_eq!(classify(b"stop *2!Gc"), Cmd::Flawed(Box::new(Cmd::Stop)));
        assert_eq!(
            classify(b"isready now"),
            Cmd::Flawed(Box::new(Cmd::IsReady))
        );
        assert_eq!(
            classify(b"gameover 3"),
            Cmd::Flawed(Box::new(Cmd::Gameover))
        );
        assert_eq!(classify(b"gameover"), Cmd::Flawed(Box::new(Cmd::Gameover)));
        assert_eq!(classify(b"gameover lose"), Cmd::Gameover);
        for line in [&b"go mate"[..], b"go mate -1", b"go mate soon"] {
            let Cmd::Go(g) = classify(line) else { panic!() };
            assert!(g.bad && g.bad_mate && g.mate == Some(None) && !g.bounded());
        }
        assert_eq!(classify(b"go perft 3 mate x"), Cmd::Raw);
    }
}
