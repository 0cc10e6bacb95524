//! Parsing the arguments of `go` and `ponderhit`.

use crate::core::text::excerpt;
use crate::engine::GoParams;
use crate::engine::check_perft_depth;

/// The words `ponderhit` may bring: the clock of the move, the first words of [`KEYWORDS`].
const CLOCK_WORDS: &[&str] = KEYWORDS.split_at(7).0;

/// What is wrong with the words after `ponderhit`, which may bring only the clock
/// ([`CLOCK_WORDS`] with their numbers); empty when nothing is. The clock of the pondering `go` is
/// kept when the words give none that can be read.
pub fn ponderhit_problems(args: &str) -> Vec<String> {
    let (_, warnings) = match parse(args) {
        Ok(parsed) => parsed,
        Err(e) => return vec![format!("ponderhit: {e}; the clock of the go is kept")],
    };
    let mut problems: Vec<String> = warnings
        .into_iter()
        .map(|w| format!("ponderhit: {w}"))
        .collect();
    let others: Vec<&str> = args
        .split_ascii_whitespace()
        .filter(|w| KEYWORDS.contains(w) && !CLOCK_WORDS.contains(w))
        .collect();
    if !others.is_empty() {
        problems.push(format!(
            "ponderhit takes only the clock ({}); ignored {}",
            CLOCK_WORDS.join(", "),
            others.join(", ")
        ));
    }
    problems
}

/// The words of `go` (a `searchmoves` list ends at the first of them); the clock's come first
/// ([`CLOCK_WORDS`]).
pub const KEYWORDS: [&str; 14] = [
    "btime",
    "wtime",
    "byoyomi",
    "binc",
    "winc",
    "movetime",
    "movestogo",
    "depth",
    "nodes",
    "infinite",
    "ponder",
    "searchmoves",
    "mate",
    "perft",
];

/// Parses `go` (or `ponderhit`) arguments, words separated by any ASCII whitespace. Problems that
/// leave the command usable are returned as warnings; a missing or malformed number for a limit is
/// an error. Clock values below zero (some GUIs send them when time has run out) count as 0; a
/// negative `depth`, `nodes`, `perft` or `mate` is an error.
pub fn parse(args: &str) -> Result<(GoParams, Vec<String>), String> {
    let mut p = GoParams::default();
    let mut warnings = Vec::new();
    let words: Vec<&str> = args.split_ascii_whitespace().collect();
    let mut i = 0;
    let word = |i: usize| words.get(i + 1).copied().unwrap_or("");
    // A clock value: whole milliseconds, negative ones read as 0.
    let num = |i: usize, name: &str| -> Result<u64, String> {
        let w = word(i);
        w.parse::<i64>()
            .map(|v| v.max(0) as u64)
            .or_else(|_| w.parse::<u64>())
            .map_err(|_| format!("go {name} needs a number, got '{}'", excerpt(word(i), 40)))
    };
    // A limit: a whole number of 0 or more.
    let count = |i: usize, name: &str| -> Result<u64, String> {
        word(i).parse::<u64>().map_err(|_| {
            format!(
                "go {name} needs a number of 0 or more, got '{}'",
                excerpt(word(i), 40)
            )
        })
    };
    while i < words.len() {
        let w = words[i];
        p.clock_given |= matches!(w, "btime" | "wtime" | "byoyomi" | "binc" | "winc");
        match w {
            "btime" => p.time[0] = Some(num(i, w)?),
            "wtime" => p.time[1] = Some(num(i, w)?),
            "byoyomi" => p.byoyomi = num(i, w)?,
            "binc" => p.inc[0] = num(i, w)?,
            "winc" => p.inc[1] = num(i, w)?,
            "movetime" => p.movetime = Some(num(i, w)?),
            "movestogo" => p.movestogo = Some(num(i, w)?),
            "depth" => p.depth = Some(count(i, w)?.min(1000) as i32),
            "nodes" => p.nodes = Some(count(i, w)?),
            "perft" => {
                let depth = count(i, w)?;
                check_perft_depth(depth)?;
                p.perft = Some(depth as u32);
            }
            "mate" => {
                p.mate = Some(match words.get(i + 1) {
                    Some(&"infinite") => None,
                    _ => Some(count(i, w)?),
                });
            }
            "infinite" => {
                p.infinite = true;
                i += 1;
                continue;
            }
            "ponder" => {
                p.ponder = true;
                i += 1;
                continue;
            }
            "searchmoves" => {
                i += 1;
                while i < words.len() && !KEYWORDS.contains(&words[i]) {
                    p.searchmoves.push(words[i].to_string());
                    i += 1;
                }
                continue;
            }
            other => {
                warnings.push(format!(
                    "unknown go parameter '{}' ignored",
                    excerpt(other, 40)
                ));
                i += 1;
                continue;
            }
        }
        i += 2;
    }
    Ok((p, warnings))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::color::Color;

    #[test]
    fn parses_every_form() {
        let (p, w) = parse("btime 1000 wtime 2000 byoyomi 500 binc 10 winc 20").unwrap();
        assert!(w.is_empty());
        assert_eq!(p.time, [Some(1000), Some(2000)]);
        assert_eq!((p.byoyomi, p.inc), (500, [10, 20]));
        let c = parse("btime 1000 wtime 2000 movestogo 5")
            .unwrap()
            .0
            .clock(Color::White, 7);
        assert_eq!((c.time, c.moves_to_go, c.ply), (Some(2000), Some(5), 7));
        // Only White's time given, Black to move: Black has no time left, not unlimited time.
        let c = parse("wtime 2").unwrap().0.clock(Color::Black, 0);
        assert_eq!(c.time, Some(0));
        assert!(crate::search::time::budget(&c, &Default::default()).is_some());
        let c = parse("binc 7").unwrap().0.clock(Color::White, 0);
        assert!(crate::search::time::budget(&c, &Default::default()).is_some());
        assert!(!parse("depth 3").unwrap().0.clock_given);
        assert_eq!(
            parse("binc 18446744073709551615").unwrap().0.inc[0],
            u64::MAX
        );
        let (p, _) = parse("ponder btime 0 wtime 0 byoyomi 1000").unwrap();
        assert!(p.ponder && p.byoyomi == 1000);
        let (p, _) = parse("searchmoves 7g7f 2g2f depth 3").unwrap();
        assert_eq!(p.searchmoves, ["7g7f", "2g2f"]);
        assert_eq!(p.depth, Some(3));
        assert_eq!(parse("mate infinite").unwrap().0.mate, Some(None));
        assert_eq!(parse("mate 3000").unwrap().0.mate, Some(Some(3000)));
        assert!(parse("depth x").is_err());
        assert_eq!(parse("bogus 3 infinite").unwrap().1.len(), 2);
    }

    #[test]
    fn negative_limits_are_errors_and_negative_clocks_zero() {
        for args in [
            "depth -1", "nodes -1", "perft -1", "mate -1", "depth", "mate",
        ] {
            let e = parse(args).unwrap_err();
            assert!(e.contains("needs a number"), "{args}: {e}");
        }
        let (p, _) = parse("btime -5 wtime -1 byoyomi 100").unwrap();
        assert_eq!(p.time, [Some(0), Some(0)]);
        // A depth above the cap is refused as it was sent, however large.
        for depth in ["65", "4294967297", "99999999999"] {
            let e = parse(&format!("perft {depth}")).unwrap_err();
            assert!(e.contains(&format!("perft depth {depth} is above")), "{e}");
        }
        assert_eq!(parse("perft 64").unwrap().0.perft, Some(64));
    }

    #[test]
    fn ponderhit_takes_only_the_clock() {
        assert!(ponderhit_problems("").is_empty());
        assert!(ponderhit_problems("btime 100 wtime 200 byoyomi 1000").is_empty());
        let p = ponderhit_problems("depth 3 btime 5");
        assert_eq!(p.len(), 1, "{p:?}");
        assert!(p[0].contains("ignored depth"), "{p:?}");
        let p = ponderhit_problems("*2!Gc");
        assert!(p[0].contains("unknown go parameter '*2!Gc'"), "{p:?}");
        let p = ponderhit_problems("btime x");
        assert!(p[0].contains("btime needs a number"), "{p:?}");
    }

    #[test]
    fn only_stop_ends_an_open_ended_command() {
        let open = |args: &str| parse(args).unwrap().0.is_open_ended();
        for args in [
            "",
            "infinite",
            "ponder",
            "mate infinite",
            "searchmoves 7g7f",
        ] {
            assert!(open(args), "{args}");
        }
        for args in [
            "depth 8",
            "nodes 10",
            "byoyomi 1000",
            "binc 10",
            "movetime 5",
            "btime 0 wtime 0",
            "mate 100",
            "perft 3",
            "infinite depth 3",
        ] {
            assert!(!open(args), "{args}");
        }
    }

    #[test]
    fn any_ascii_whitespace_separates_words() {
        let (p, w) = parse("depth\t3 \x0c nodes\t\t100").unwrap();
        assert!(w.is_empty());
        assert_eq!((p.depth, p.nodes), (Some(3), Some(100)));
    }
}
