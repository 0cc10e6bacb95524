//! What the runner needs from a game beyond [`Position`]: CSA notation (standard shogi only, written
//! by the engine's `games::shogi::record`), a
//! material balance for random openings, and the 24-point impasse adjudication.
//!
//! Every game the runner plays implements [`GameExt`]; the defaults suit a game without those
//! features, so a new game of the engine's registry needs one `impl GameExt for NewGame {}` line.

use tsubame::core::color::Color;
use tsubame::core::game::Position;
use tsubame::core::moves::Move;
use tsubame::games::minishogi::{Mini, Minishogi};
use tsubame::games::shogi::position::Board;
use tsubame::games::shogi::record;
use tsubame::games::shogi::types::Kind;
use tsubame::games::shogi::{Shogi, Standard, Variant};
use tsubame::games::{Game, GameId};

/// A computation generic over the game, run by [`dispatch`].
pub trait GameFn {
    /// What it returns.
    type Output;
    /// Runs it for game `P`.
    fn call<P: GameExt>(self) -> Self::Output;
}

/// Runs `f` for the game type of `game`, through the engine's registry.
pub fn dispatch<F: GameFn>(game: GameId, f: F) -> F::Output {
    tsubame::dispatch!(game, G => f.call::<G>())
}

/// The player who moves first from `game`'s start position: Black in the shogi games, White in
/// Give and Take. Result strings put this player's score first.
pub fn first_mover(game: GameId) -> Color {
    struct First;
    impl GameFn for First {
        type Output = Color;
        fn call<P: GameExt>(self) -> Color {
            P::startpos().side_to_move()
        }
    }
    dispatch(game, First)
}

impl GameExt for tsubame::games::nana::Nana {}

impl GameExt for tsubame::games::giveandtake::GiveAndTake {}

/// Runner features a game may offer.
pub trait GameExt: Game {
    /// The position as a CSA v2.2 start position (`PI` or `P1`… lines, hands, side to move), for
    /// games that CSA can record.
    fn csa_position(&self) -> Option<String> {
        None
    }

    /// A legal move of this position in CSA notation (`+7776FU`).
    fn csa_move(&self, _mv: Self::Move) -> Option<String> {
        None
    }

    /// Material of the side to move minus the opponent's (board and hand, in pawns), used to
    /// reject lopsided random openings; `None` when the game has no such measure.
    fn material_balance(&self) -> Option<i32> {
        None
    }

    /// The 24-point impasse adjudication: once both kings stand in the enemy camp, a player with
    /// fewer than 24 points loses (`Some(Some(winner))`), else it is a draw (`Some(None)`).
    fn impasse_24(&self) -> Option<Option<Color>> {
        None
    }
}

impl GameExt for Minishogi {
    fn material_balance(&self) -> Option<i32> {
        Some(balance::<Mini>(self))
    }
}

/// Piece values in pawns for the opening balance check (promoted pieces as their base piece).
fn value(kind: Kind) -> i32 {
    match kind.unpromoted() {
        Kind::Pawn => 1,
        Kind::Lance => 3,
        Kind::Knight => 4,
        Kind::Silver => 5,
        Kind::Gold => 6,
        Kind::Bishop => 8,
        Kind::Rook => 10,
        _ => 0,
    }
}

fn balance<V: Variant>(pos: &Board<V>) -> i32 {
    let side = |c: Color| -> i32 {
        let board: i32 = pos
            .color_bb(c)
            .map(|sq| value(pos.piece_at(sq).kind()))
            .sum();
        let hand = pos.hand(c);
        board
            + Kind::HAND
                .iter()
                .map(|&k| hand.count(k) as i32 * value(k))
                .sum::<i32>()
    };
    let us = pos.side_to_move();
    side(us) - side(!us)
}

impl GameExt for Shogi {
    fn csa_position(&self) -> Option<String> {
        Some(record::csa_position(self))
    }

    fn csa_move(&self, mv: Move) -> Option<String> {
        Some(record::csa_move(self, mv))
    }

    fn material_balance(&self) -> Option<i32> {
        Some(balance::<Standard>(self))
    }

    fn impasse_24(&self) -> Option<Option<Color>> {
        let geo = Standard::GEOMETRY;
        let bk = self.king(Color::Black)?;
        let wk = self.king(Color::White)?;
        if geo.rank(bk) > 2 || geo.rank(wk) < 6 {
            return None;
        }
        let b = self.declaration_points(Color::Black).0;
        let w = self.declaration_points(Color::White).0;
        Some(match (b >= 24, w >= 24) {
            (true, false) => Some(Color::Black),
            (false, true) => Some(Color::White),
            _ => None,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn balance_and_impasse() {
        assert_eq!(Shogi::startpos().material_balance(), Some(0));
        assert_eq!(Minishogi::startpos().material_balance(), Some(0));
        assert_eq!(Shogi::startpos().impasse_24(), None);
        let p = Shogi::from_sfen("4K4/9/9/9/9/9/9/9/4k4 b RB2G2S2N2L9Prb2g2s2n2l9p 1").unwrap();
        // Black: hand R B 5+5, 2G 2S 2N 2L 9P = 17: 27 points; White the same: a draw.
        assert_eq!(p.impasse_24(), Some(None));
        let p = Shogi::from_sfen("4K4/9/9/9/9/9/9/9/4k4 b RB2G2S2N2L9Prb2g2s2n2l9p 1").unwrap();
        assert_eq!(p.impasse_24(), Some(None));
        let p = Shogi::from_sfen("4K4/9/9/9/9/9/9/9/4k4 b 2R2B2G2S2N2L9P2g2s2n2l9p 1").unwrap();
        assert_eq!(p.impasse_24(), Some(Some(Color::Black)));
    }

    #[test]
    fn the_first_mover_follows_the_start_position() {
        assert_eq!(first_mover(GameId::Shogi), Color::Black);
        assert_eq!(first_mover(GameId::GiveAndTake), Color::White);
    }
}
