//! One game in progress: the root position, the moves played from it, and the history of keys.

use crate::core::game::Position;
use crate::core::repetition::HistoryEntry;
use crate::core::text::excerpt;

/// What [`Session::set_position`]'s error about a bad move ends with: the moves before it were
/// kept. A caller that refuses the whole position leaves it out.
pub const REST_IGNORED: &str = "; the moves from there on were ignored";

/// Where a position starts: the game's start, or a position of the game written as SFEN.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Start {
    /// The game's start position.
    StartPos,
    /// A position written in the game's SFEN.
    Sfen(String),
}

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

    /// Sets the position: `start` and then `moves` (in the game's notation), under the game's
    /// rule options `rules` (those that change a game's first position, such as a handicap,
    /// apply to the position given: [`Position::begin_game`]).
    ///
    /// A malformed position keeps the previous one and returns the error. An illegal or malformed
    /// move stops the list there: the position before it is kept and the error is returned.
    pub fn set_position<S: AsRef<str>>(
        &mut self,
        start: &Start,
        moves: &[S],
        rules: &P::Rules,
    ) -> Result<(), String> {
        let mut base = match start {
            Start::StartPos => P::startpos(),
            Start::Sfen(sfen) => P::from_sfen(sfen)
                .map_err(|e| format!("bad SFEN '{}': {e}; position kept", excerpt(sfen, 100)))?,
        };
        base.begin_game(rules);
        let mut session = Session::at(base);
        let mut result = Ok(());
        for (i, text) in moves.iter().enumerate() {
            match session.pos.parse_move(text.as_ref()) {
                Ok(mv) => session.push(mv),
                Err(e) => {
                    result = Err(format!("move {} {e}{REST_IGNORED}", i + 1));
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
    fn a_bad_move_keeps_the_position_before_it() {
        let mut s: Session<Shogi> = Session::new();
        let rules = ShogiRules::default();
        let e = s
            .set_position(&Start::StartPos, &["7g7f", "3c3d", "7f7f"], &rules)
            .unwrap_err();
        assert!(e.starts_with("move 3 "), "{e}");
        assert_eq!(s.history().len(), 3);
        let before = s.position().to_sfen();
        assert!(
            s.set_position(&Start::Sfen("9/9 b - 1".into()), &[] as &[&str], &rules)
                .is_err()
        );
        assert_eq!(s.position().to_sfen(), before, "position kept");
    }
}
