//! Openings: read from a file (one position a line, optionally with moves) or made of random legal
//! moves.

use tsubame::core::game::Position;
use tsubame::core::moves::{ListStore, MoveList};
use tsubame::core::repetition::HistoryEntry;
use tsubame::core::rules::RuleOptions;
use tsubame::rng::Rng;

use tsubame::games::Game;

/// A start position and the moves played from it before the engines take over.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Opening {
    /// `startpos` or `sfen <SFEN>`, as in the USI `position` command.
    pub base: String,
    /// Moves in USI notation.
    pub moves: Vec<String>,
}

impl Opening {
    /// The USI `position` arguments of the opening followed by `extra` moves.
    pub fn position_args(&self, extra: &[String]) -> String {
        let mut s = self.base.clone();
        if !self.moves.is_empty() || !extra.is_empty() {
            s.push_str(" moves");
            for m in self.moves.iter().chain(extra) {
                s.push(' ');
                s.push_str(m);
            }
        }
        s
    }

    /// The start position (before the opening moves).
    pub fn root<P: Position>(&self) -> Result<P, String> {
        if self.base == "startpos" {
            Ok(P::startpos())
        } else {
            let sfen = self.base.strip_prefix("sfen ").unwrap_or(&self.base);
            P::from_sfen(sfen).map_err(|e| format!("bad SFEN '{sfen}': {e}"))
        }
    }

    /// Plays the opening: the position reached, the history of positions (root first) and the
    /// parsed moves. Fails on an illegal move or when the game is over before the engines play.
    pub fn replay<P: Position>(
        &self,
        rules: &RuleOptions<P::Rules>,
    ) -> Result<(P, Vec<HistoryEntry>), String> {
        let mut pos: P = self.root()?;
        let mut history = vec![entry(&pos)];
        for (i, m) in self.moves.iter().enumerate() {
            let mv = pos
                .parse_move(m)
                .map_err(|e| format!("opening move {}: {e}", i + 1))?;
            pos.play(mv);
            history.push(entry(&pos));
        }
        if let Some(v) = pos.verdict(&history, rules) {
            return Err(format!("the game is already over ({:?})", v.reason));
        }
        Ok((pos, history))
    }

    /// Parses an opening line: optional `position`, then `startpos`, `sfen <SFEN>` or a bare
    /// SFEN, then optionally `moves …`. Empty lines and `#` comments give `None`.
    pub fn parse_line(line: &str) -> Option<Result<Opening, String>> {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            return None;
        }
        let line = line.strip_prefix("position ").unwrap_or(line).trim();
        let (setup, moves) = match line.split_once(" moves") {
            Some((s, m)) => (s.trim(), m.split_whitespace().map(str::to_string).collect()),
            None if line.ends_with("moves") => (line.trim_end_matches("moves").trim(), Vec::new()),
            None => (line, Vec::new()),
        };
        let base = if setup == "startpos" {
            "startpos".to_string()
        } else {
            let sfen = setup.strip_prefix("sfen ").unwrap_or(setup).trim();
            let fields: Vec<&str> = sfen.split_whitespace().collect();
            if fields.len() < 3 {
                return Some(Err(format!("'{line}' is not startpos or an SFEN")));
            }
            format!("sfen {}", fields.join(" "))
        };
        Some(Ok(Opening { base, moves }))
    }
}

fn entry<P: Position>(pos: &P) -> HistoryEntry {
    HistoryEntry {
        key: pos.key(),
        in_check: pos.in_check(),
    }
}

/// Reads an opening file, checking every opening with the game's rules.
pub fn read_file<P: Position>(
    text: &str,
    rules: &RuleOptions<P::Rules>,
) -> Result<Vec<Opening>, String> {
    let mut out = Vec::new();
    for (n, line) in text.lines().enumerate() {
        let Some(parsed) = Opening::parse_line(line) else {
            continue;
        };
        let opening = parsed.map_err(|e| format!("line {}: {e}", n + 1))?;
        opening
            .replay::<P>(rules)
            .map_err(|e| format!("line {}: {e}", n + 1))?;
        out.push(opening);
    }
    if out.is_empty() {
        return Err("the opening file holds no opening".into());
    }
    Ok(out)
}

/// A random opening of `plies` legal moves from the start, the same for the same `seed` and
/// `index`. A move that ends the game is never chosen, and an opening whose material balance
/// differs by more than `max_imbalance` pawns is drawn again (up to a bound, after which the most
/// balanced one found is kept).
pub fn random<P: Game>(
    plies: usize,
    seed: u64,
    index: u64,
    max_imbalance: i32,
    rules: &RuleOptions<P::Rules>,
) -> Opening {
    let mut rng = Rng::stream(seed, index);
    let mut best: Option<(i32, Opening)> = None;
    for _ in 0..200 {
        let Some((opening, imbalance)) = try_random::<P>(plies, &mut rng, rules) else {
            continue;
        };
        if imbalance <= max_imbalance {
            return opening;
        }
        if best.as_ref().is_none_or(|(b, _)| imbalance < *b) {
            best = Some((imbalance, opening));
        }
    }
    best.map(|(_, o)| o).unwrap_or(Opening {
        base: "startpos".into(),
        moves: Vec::new(),
    })
}

fn try_random<P: Game>(
    plies: usize,
    rng: &mut Rng,
    rules: &RuleOptions<P::Rules>,
) -> Option<(Opening, i32)> {
    let mut pos = P::startpos();
    let mut history = vec![entry(&pos)];
    let mut moves = Vec::new();
    for _ in 0..plies {
        let mut list = MoveList::<P::Move>::new();
        pos.legal_moves(&mut list);
        // Try the moves in random order until one keeps the game going.
        let mut candidates: Vec<_> = list.to_vec();
        let mut chosen = None;
        while !candidates.is_empty() {
            let mv = candidates.swap_remove(rng.below(candidates.len()));
            let mut next = pos.clone();
            next.play(mv);
            history.push(entry(&next));
            let over = next.verdict(&history, rules).is_some() || next.can_declare(rules);
            history.pop();
            if !over {
                chosen = Some((mv, next));
                break;
            }
        }
        let (mv, next) = chosen?;
        moves.push(pos.move_to_usi(mv));
        pos = next;
        history.push(entry(&pos));
    }
    let imbalance = pos.material_balance().map_or(0, i32::abs);
    Some((
        Opening {
            base: "startpos".into(),
            moves,
        },
        imbalance,
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use tsubame::games::MatchSupport;
    use tsubame::games::minishogi::Minishogi;
    use tsubame::games::shogi::Shogi;

    #[test]
    fn parses_lines() {
        assert_eq!(Opening::parse_line("  # comment"), None);
        assert_eq!(Opening::parse_line(""), None);
        let o = Opening::parse_line("startpos moves 7g7f 3c3d")
            .unwrap()
            .unwrap();
        assert_eq!(o.base, "startpos");
        assert_eq!(o.moves, vec!["7g7f", "3c3d"]);
        assert_eq!(
            o.position_args(&["2g2f".into()]),
            "startpos moves 7g7f 3c3d 2g2f"
        );
        let o = Opening::parse_line("position sfen rbsgk/4p/5/P4/KGSBR b - 1")
            .unwrap()
            .unwrap();
        assert_eq!(o.base, "sfen rbsgk/4p/5/P4/KGSBR b - 1");
        assert_eq!(o.position_args(&[]), "sfen rbsgk/4p/5/P4/KGSBR b - 1");
        let o = Opening::parse_line("rbsgk/4p/5/P4/KGSBR b - 1 moves 2e3d")
            .unwrap()
            .unwrap();
        assert_eq!(o.moves, vec!["2e3d"]);
        assert!(Opening::parse_line("nonsense").unwrap().is_err());
    }

    #[test]
    fn checks_file_openings() {
        let ok = read_file::<Minishogi>(
            "# x\nstartpos moves 5e4d\nrbsgk/4p/5/P4/KGSBR w - 1\n",
            &RuleOptions::default(),
        )
        .unwrap();
        assert_eq!(ok.len(), 2);
        let err = read_file::<Minishogi>("startpos moves 5e4d 5e4d\n", &RuleOptions::default())
            .unwrap_err();
        assert!(
            err.contains("line 1") && err.contains("opening move 2"),
            "{err}"
        );
        assert!(read_file::<Shogi>("\n", &RuleOptions::default()).is_err());
    }

    #[test]
    fn random_openings_are_legal_reproducible_and_balanced() {
        for i in 0..20 {
            let a = random::<Minishogi>(6, 42, i, 1, &RuleOptions::default());
            let b = random::<Minishogi>(6, 42, i, 1, &RuleOptions::default());
            assert_eq!(a, b);
            assert_eq!(a.moves.len(), 6);
            let (pos, _) = a.replay::<Minishogi>(&RuleOptions::default()).unwrap();
            assert!(pos.material_balance().unwrap().abs() <= 1);
        }
        let a = random::<Shogi>(8, 1, 0, 0, &RuleOptions::default());
        let c = random::<Shogi>(8, 1, 1, 0, &RuleOptions::default());
        assert_ne!(a, c);
    }
}
