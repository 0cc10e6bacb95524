//! One game in progress: the root position, the moves played from it, and the history of keys.

use super::output::excerpt;
use crate::core::game::Position;
use crate::core::repetition::HistoryEntry;

/// The current position of one game, as set by `position`, with its history for repetition.
pub struct Session<P: Position> {
    pos: P,
    history: Vec<HistoryEntry>,
}

impl<P: Position> Default for Session<P> {
    fn default() -> Self {
        Self::new()
    }
}

impl<P: Position> Session<P> {
    /// A session at the game's start position.
    pub fn new() -> Session<P> {
        Session::at(P::startpos())
    }

    fn at(pos: P) -> Session<P> {
        let history = vec![HistoryEntry {
            key: pos.key(),
            in_check: pos.in_check(),
        }];
        Session { pos, history }
    }

    /// The game's `USI_Variant` name.
    pub fn game_name(&self) -> &'static str {
        P::NAME
    }

    /// The current position.
    pub fn position(&self) -> &P {
        &self.pos
    }

    /// Plies played in the game before the current position: the SFEN move number less one, or
    /// the moves given after the setup if more.
    pub fn game_ply(&self) -> u32 {
        let moves = (self.history.len() - 1) as u32;
        crate::core::sfen::split(&self.pos.to_sfen())
            .map_or(moves, |f| moves.max(f.move_number - 1))
    }

    /// The positions of the game so far, the current one last.
    pub fn history(&self) -> &[HistoryEntry] {
        &self.history
    }

    /// Applies the arguments of a `position` command: `startpos|sfen <SFEN> [moves …]`, under the
    /// game's rule options `rules` (those that change a game's first position, such as a handicap,
    /// apply to the position given: [`Position::begin_game`]).
    /// Words are separated by any ASCII whitespace; `moves` must be a word of its own.
    ///
    /// A malformed position keeps the previous one and returns the error. An illegal or malformed
    /// move stops the list there: the position before it is kept and the error is returned.
    pub fn set_position(&mut self, args: &str, rules: &P::Rules) -> Result<(), String> {
        let words: Vec<&str> = args.split_ascii_whitespace().collect();
        let (setup, rest) = match words.iter().position(|&w| w == "moves") {
            Some(i) => (&words[..i], Some(&words[i + 1..])),
            None => (&words[..], None),
        };
        let mut base = match setup {
            ["startpos"] => P::startpos(),
            ["startpos", extra, ..] => {
                return Err(format!(
                    "unexpected '{}' after 'startpos' (only 'moves ...' may follow); position kept",
                    excerpt(extra, 40)
                ));
            }
            ["sfen", fields @ ..] => {
                let sfen = fields.join(" ");
                P::from_sfen(&sfen).map_err(|e| {
                    format!("bad SFEN '{}': {e}; position kept", excerpt(&sfen, 100))
                })?
            }
            _ => {
                return Err(format!(
                    "position needs 'startpos' or 'sfen <SFEN>', got '{}'; position kept",
                    excerpt(&setup.join(" "), 100)
                ));
            }
        };
        base.begin_game(rules);
        let mut session = Session::at(base);
        let mut result = Ok(());
        for (i, text) in rest.unwrap_or_default().iter().enumerate() {
            match session.pos.parse_move(text) {
                Ok(mv) => session.push(mv),
                Err(e) => {
                    result = Err(format!(
                        "move {} {e}; the moves from there on were ignored",
                        i + 1
                    ));
                    break;
                }
            }
        }
        *self = session;
        result
    }

    /// Plays a legal move and records the new position.
    pub fn push(&mut self, mv: P::Move) {
        self.pos.play(mv);
        self.history.push(HistoryEntry {
            key: self.pos.key(),
            in_check: self.pos.in_check(),
        });
    }

    /// The `d` command's text: diagram, SFEN and key.
    pub fn describe(&self) -> String {
        format!(
            "{}\nSFEN: {}\nKey: {:016x}",
            self.pos.diagram(),
            self.pos.to_sfen(),
            self.pos.key()
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::shogi::Shogi;
    use crate::games::shogi::rules::ShogiRules;

    #[test]
    fn moves_must_be_a_word_of_its_own() {
        let mut s: Session<Shogi> = Session::new();
        s.set_position("startpos moves 7g7f", &ShogiRules::default())
            .unwrap();
        let after = s.position().to_sfen();
        let e = s
            .set_position("startpos moves1g1f", &ShogiRules::default())
            .unwrap_err();
        assert!(e.contains("'moves1g1f'"), "{e}");
        assert_eq!(s.position().to_sfen(), after, "position kept");
        assert!(
            s.set_position("startposmoves 7g7f", &ShogiRules::default())
                .is_err()
        );
        let sfen = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1";
        assert!(
            s.set_position(&format!("sfen {sfen} moves7g7f"), &ShogiRules::default())
                .is_err()
        );
        assert_eq!(s.position().to_sfen(), after);
    }

    #[test]
    fn tabs_separate_words_as_spaces_do() {
        let mut s: Session<Shogi> = Session::new();
        let sfen = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL\tb - 1";
        s.set_position(
            &format!("sfen\t{sfen}\tmoves\t7g7f \t3c3d"),
            &ShogiRules::default(),
        )
        .unwrap();
        assert_eq!(s.history().len(), 3);
        s.set_position("startpos\tmoves\t2g2f", &ShogiRules::default())
            .unwrap();
        assert_eq!(s.history().len(), 2);
    }
}
