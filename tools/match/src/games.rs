//! The games the runner plays, reached through the engine's registry: every game type is a
//! [`Game`], whose [`tsubame::games::MatchSupport`] gives what the runner asks beyond the rules
//! (CSA notation, a material balance for random openings, the 24-point impasse).

use tsubame::core::color::Color;
use tsubame::games::{Game, GameId};

/// A computation generic over the game, run by [`dispatch`].
pub trait GameFn {
    /// What it returns.
    type Output;
    /// Runs it for game `P`.
    fn call<P: Game>(self) -> Self::Output;
}

/// Runs `f` for the game type of `game`, through the engine's registry.
pub fn dispatch<F: GameFn>(game: GameId, f: F) -> F::Output {
    tsubame::dispatch!(game, G => f.call::<G>())
}

/// The player who moves first from `game`'s start position (Black in the shogi games, White in
/// Give and Take). Result strings put this player's score first.
pub fn first_mover(game: GameId) -> Color {
    struct First;
    impl GameFn for First {
        type Output = Color;
        fn call<P: Game>(self) -> Color {
            P::startpos().side_to_move()
        }
    }
    dispatch(game, First)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_first_mover_follows_the_start_position() {
        assert_eq!(first_mover(GameId::Shogi), Color::Black);
        assert_eq!(first_mover(GameId::GiveAndTake), Color::White);
    }
}
