//! One game in progress: the root position, the moves played from it, and the history of keys.

use crate::core::game::Position;
use crate::core::moves::Move;
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

    /// Applies the arguments of a `position` command: `startpos|sfen <SFEN> [moves …]`, with
    /// `extra_moves` the extra-move handicap (`MinishogiExtraMoves`) begun at a game's first position.
    ///
    /// A malformed position keeps the previous one and returns the error. An illegal or malformed
    /// move stops the list there: the position before it is kept and the error is returned.
    pub fn set_position(&mut self, args: &str, extra_moves: u8) -> Result<(), String> {
        let (setup, moves) = match args.split_once(" moves") {
            Some((s, m)) => (s.trim(), Some(m)),
            None => (args.trim(), None),
        };
        let mut base = if setup == "startpos" {
            P::startpos()
        } else if let Some(sfen) = setup.strip_prefix("sfen ") {
            P::from_sfen(sfen.trim())
                .map_err(|e| format!("bad SFEN '{}': {e}; position kept", sfen.trim()))?
        } else {
            return Err(format!(
                "position needs 'startpos' or 'sfen <SFEN>', got '{setup}'; position kept"
            ));
        };
        base.begin_extra_moves(extra_moves);
        let mut session = Session::at(base);
        let mut result = Ok(());
        for (i, text) in moves.unwrap_or("").split_whitespace().enumerate() {
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
    pub fn push(&mut self, mv: Move) {
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
