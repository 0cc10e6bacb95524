//! The four games behind one type, so that the fuzzer's model of the engine can hold any of
//! them; every rule question is answered by the tsubame library, through its game registry.

use tsubame::core::game::Position;
use tsubame::core::moves::{ListStore, MoveList};
use tsubame::dispatch;
pub use tsubame::games::GameId as Game;

/// What the fuzzer asks of a game besides its registry entry.
pub trait FuzzGame {
    /// The start position.
    fn startpos(self) -> Pos;
    /// The position an SFEN describes in this game, if it is valid.
    fn parse_sfen(self, sfen: &str) -> Option<Pos>;
    /// Deepest `go perft` whose count the fuzzer checks (kept cheap for both sides).
    fn perft_depth(self) -> u32;
}

impl FuzzGame for Game {
    fn startpos(self) -> Pos {
        dispatch!(self, G => Pos(Box::new(G::startpos())))
    }

    fn parse_sfen(self, sfen: &str) -> Option<Pos> {
        dispatch!(self, G => G::from_sfen(sfen).ok().map(|p| Pos(Box::new(p))))
    }

    fn perft_depth(self) -> u32 {
        self.info().tools.fuzz_perft_depth
    }
}

/// A position of any of the games.
pub struct Pos(Box<dyn AnyPosition>);

impl Clone for Pos {
    fn clone(&self) -> Pos {
        Pos(self.0.boxed())
    }
}

impl std::fmt::Debug for Pos {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} {}", self.0.game(), self.0.to_sfen())
    }
}

/// A position of some game, behind a pointer (the object-safe part of [`Position`]).
trait AnyPosition: Send + Sync {
    fn game(&self) -> Game;
    fn to_sfen(&self) -> String;
    fn legal_moves(&self) -> Vec<String>;
    fn count_legal(&self) -> usize;
    fn play_usi(&mut self, text: &str) -> bool;
    fn is_legal(&self, text: &str) -> bool;
    fn begin_extra_moves(&mut self, moves: u8);
    fn perft(&self, depth: u32) -> u64;
    fn boxed(&self) -> Box<dyn AnyPosition>;
}

impl<P: tsubame::games::Game> AnyPosition for P {
    fn game(&self) -> Game {
        P::ID
    }

    fn to_sfen(&self) -> String {
        Position::to_sfen(self)
    }

    fn legal_moves(&self) -> Vec<String> {
        let mut list = MoveList::<P::Move>::new();
        Position::legal_moves(self, &mut list);
        list.iter().map(|&m| self.move_to_usi(m)).collect()
    }

    fn count_legal(&self) -> usize {
        self.count_legal_moves()
    }

    fn play_usi(&mut self, text: &str) -> bool {
        match self.parse_move(text) {
            Ok(mv) => {
                self.play(mv);
                true
            }
            Err(_) => false,
        }
    }

    fn is_legal(&self, text: &str) -> bool {
        self.parse_move(text).is_ok()
    }

    fn begin_extra_moves(&mut self, moves: u8) {
        let mut rules = tsubame::games::EveryGameRules::default();
        if rules.set("MinishogiExtraMoves", &moves.to_string()).is_ok() {
            self.begin_game(&rules.of::<P>().game);
        }
    }

    fn perft(&self, depth: u32) -> u64 {
        tsubame::core::perft::perft(self, depth.max(1))
    }

    fn boxed(&self) -> Box<dyn AnyPosition> {
        Box::new(self.clone())
    }
}

impl Pos {
    /// The game of the position.
    pub fn game(&self) -> Game {
        self.0.game()
    }

    /// The position as SFEN.
    pub fn to_sfen(&self) -> String {
        self.0.to_sfen()
    }

    /// Every legal move in USI notation.
    pub fn legal_moves(&self) -> Vec<String> {
        self.0.legal_moves()
    }

    /// The number of legal moves.
    pub fn count_legal(&self) -> usize {
        self.0.count_legal()
    }

    /// Plays `text` if it is a legal move here; returns false (and changes nothing) otherwise.
    pub fn play_usi(&mut self, text: &str) -> bool {
        self.0.play_usi(text)
    }

    /// True when `text` is a legal move here.
    pub fn is_legal(&self, text: &str) -> bool {
        self.0.is_legal(text)
    }

    /// Begins minishogi's extra-move handicap as the engine does at a game's first position.
    pub fn begin_extra_moves(&mut self, moves: u8) {
        self.0.begin_extra_moves(moves)
    }

    /// The perft count of `depth`.
    pub fn perft(&self, depth: u32) -> u64 {
        self.0.perft(depth)
    }

    /// Plays the moves of `line` in turn; the index of the first that is not legal, if any.
    pub fn first_illegal(&self, line: &[&str]) -> Option<usize> {
        let mut p = self.clone();
        line.iter().position(|m| !p.play_usi(m))
    }

    /// True when the side to move has just been mated (no legal move).
    pub fn is_mated(&self) -> bool {
        self.count_legal() == 0
    }
}

/// The position an SFEN describes in whichever game its board fits, `prefer` tried first.
pub fn parse_any_sfen(sfen: &str, prefer: Game) -> Option<Pos> {
    std::iter::once(prefer)
        .chain(Game::ALL.into_iter().filter(|&g| g != prefer))
        .find_map(|g| g.parse_sfen(sfen))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn positions_of_each_game() {
        for g in Game::ALL {
            let p = g.startpos();
            assert_eq!(p.game(), g);
            assert!(p.count_legal() > 0);
            let back = parse_any_sfen(&p.to_sfen(), Game::Shogi).unwrap();
            assert_eq!(back.game(), g);
            assert_eq!(Game::parse(g.name()), Some(g));
        }
        let mut p = Game::Shogi.startpos();
        assert!(p.is_legal("7g7f") && !p.is_legal("7g7e"));
        assert!(p.play_usi("7g7f"));
        assert!(!p.play_usi("7g7f"));
        assert_eq!(p.first_illegal(&["3c3d", "8h2b+", "8h2b"]), Some(2));
        assert_eq!(Game::Minishogi.startpos().perft(1), 14);
        assert_eq!(Game::parse("NANA"), Some(Game::Nanashogi));
        assert_eq!(Game::GiveAndTake.startpos().perft(1), 8);
    }
}
