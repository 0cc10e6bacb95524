//! The four games behind one type, so that the fuzzer's model of the engine can hold any of
//! them; every rule question is answered by the tsubame library.

use tsubame::core::game::Position;
use tsubame::core::moves::{ListStore, MoveList};
use tsubame::games::giveandtake::GiveAndTake;
use tsubame::games::minishogi::Minishogi;
use tsubame::games::nana::Nana;
use tsubame::games::shogi::Shogi;

/// A game the engine plays.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Game {
    /// Standard shogi, 9x9.
    Shogi,
    /// Minishogi, 5x5.
    Minishogi,
    /// Nana shogi, 3x3.
    Nana,
    /// Give and Take, 8x8 draughts.
    GiveAndTake,
}

impl Game {
    /// Every game.
    pub const ALL: [Game; 4] = [Game::Shogi, Game::Minishogi, Game::Nana, Game::GiveAndTake];

    /// The `USI_Variant` value.
    pub fn name(self) -> &'static str {
        match self {
            Game::Shogi => "shogi",
            Game::Minishogi => "minishogi",
            Game::Nana => "nanashogi",
            Game::GiveAndTake => "giveandtake",
        }
    }

    /// The game a `USI_Variant` value names (case-insensitive; `nana` for nana shogi; `UCI_Variant`
    /// takes the same values), as the notation contract defines them.
    pub fn from_variant(value: &str) -> Option<Game> {
        match value.to_ascii_lowercase().as_str() {
            "shogi" => Some(Game::Shogi),
            "minishogi" => Some(Game::Minishogi),
            "nanashogi" | "nana" => Some(Game::Nana),
            "giveandtake" => Some(Game::GiveAndTake),
            _ => None,
        }
    }

    /// The start position.
    pub fn startpos(self) -> Pos {
        match self {
            Game::Shogi => Pos::Shogi(Shogi::startpos()),
            Game::Minishogi => Pos::Minishogi(Minishogi::startpos()),
            Game::Nana => Pos::Nana(Nana::startpos()),
            Game::GiveAndTake => Pos::GiveAndTake(GiveAndTake::startpos()),
        }
    }

    /// The position an SFEN describes in this game, if it is valid.
    pub fn parse_sfen(self, sfen: &str) -> Option<Pos> {
        match self {
            Game::Shogi => Shogi::from_sfen(sfen).ok().map(Pos::Shogi),
            Game::Minishogi => Minishogi::from_sfen(sfen).ok().map(Pos::Minishogi),
            Game::Nana => Nana::from_sfen(sfen).ok().map(Pos::Nana),
            Game::GiveAndTake => GiveAndTake::from_sfen(sfen).ok().map(Pos::GiveAndTake),
        }
    }

    /// Deepest `go perft` whose count the fuzzer checks (kept cheap for both sides).
    pub fn perft_depth(self) -> u32 {
        match self {
            Game::Shogi => 3,
            Game::Minishogi => 4,
            Game::Nana => 5,
            Game::GiveAndTake => 4,
        }
    }
}

/// A position of any of the games.
#[derive(Clone, Debug)]
pub enum Pos {
    /// A shogi position.
    Shogi(Shogi),
    /// A minishogi position.
    Minishogi(Minishogi),
    /// A nana shogi position.
    Nana(Nana),
    /// A Give and Take position.
    GiveAndTake(GiveAndTake),
}

/// Runs `$body` with `$p` bound to the position inside `$pos`.
macro_rules! with_pos {
    ($pos:expr, $p:ident => $body:expr) => {
        match $pos {
            Pos::Shogi($p) => $body,
            Pos::Minishogi($p) => $body,
            Pos::Nana($p) => $body,
            Pos::GiveAndTake($p) => $body,
        }
    };
}

fn legal_usi<P: Position>(p: &P) -> Vec<String> {
    let mut list = MoveList::<P::Move>::new();
    p.legal_moves(&mut list);
    list.iter().map(|&m| p.move_to_usi(m)).collect()
}

fn play_usi<P: Position>(p: &mut P, text: &str) -> bool {
    match p.parse_move(text) {
        Ok(mv) => {
            p.play(mv);
            true
        }
        Err(_) => false,
    }
}

impl Pos {
    /// The game of the position.
    pub fn game(&self) -> Game {
        match self {
            Pos::Shogi(_) => Game::Shogi,
            Pos::Minishogi(_) => Game::Minishogi,
            Pos::Nana(_) => Game::Nana,
            Pos::GiveAndTake(_) => Game::GiveAndTake,
        }
    }

    /// The position as SFEN.
    pub fn to_sfen(&self) -> String {
        with_pos!(self, p => p.to_sfen())
    }

    /// Every legal move in USI notation.
    pub fn legal_moves(&self) -> Vec<String> {
        with_pos!(self, p => legal_usi(p))
    }

    /// The number of legal moves.
    pub fn count_legal(&self) -> usize {
        with_pos!(self, p => p.count_legal_moves())
    }

    /// Plays `text` if it is a legal move here; returns false (and changes nothing) otherwise.
    pub fn play_usi(&mut self, text: &str) -> bool {
        with_pos!(self, p => play_usi(p, text))
    }

    /// True when `text` is a legal move here.
    pub fn is_legal(&self, text: &str) -> bool {
        with_pos!(self, p => p.parse_move(text).is_ok())
    }

    /// Begins minishogi's extra-move handicap as the engine does at a game's first position.
    pub fn begin_extra_moves(&mut self, moves: u8) {
        with_pos!(self, p => p.begin_extra_moves(moves))
    }

    /// The perft count of `depth`.
    pub fn perft(&self, depth: u32) -> u64 {
        with_pos!(self, p => tsubame::core::perft::perft(p, depth.max(1)))
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
            assert_eq!(Game::from_variant(g.name()), Some(g));
        }
        let mut p = Game::Shogi.startpos();
        assert!(p.is_legal("7g7f") && !p.is_legal("7g7e"));
        assert!(p.play_usi("7g7f"));
        assert!(!p.play_usi("7g7f"));
        assert_eq!(p.first_illegal(&["3c3d", "8h2b+", "8h2b"]), Some(2));
        assert_eq!(Game::Minishogi.startpos().perft(1), 14);
        assert_eq!(Game::from_variant("NANA"), Some(Game::Nana));
        assert_eq!(Game::GiveAndTake.startpos().perft(1), 8);
    }
}
