//! The games tsubame plays, each in its own folder on the shared core, and the registry that
//! knows them: [`GameId`] names a game, [`GameInfo`] holds what the rest of the engine needs to
//! know of it, and [`dispatch!`](crate::dispatch) turns a [`GameId`] into code generic over the
//! game's type.
//!
//! This file is the only place outside the game folders that lists the games: adding a game is a
//! new folder, a variant of [`GameId`], an entry in [`GAMES`] and an arm in `dispatch!`
//! (`docs/architecture.md`).

pub mod giveandtake;
pub mod minishogi;
pub mod nana;
pub mod networks;
pub mod shogi;

use std::sync::Arc;

use crate::core::game::Position;
use crate::core::pack::Packable;
use crate::core::rules::{GameRules, RuleOption, RuleOptions};
use crate::core::search_game::SearchGame;
use crate::core::search_params::SearchParams;
use crate::mate::MateGame;
use crate::nnue::network::Network;

/// One of the games, as chosen by `USI_Variant`, `--variant` or `--game`.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, PartialOrd, Ord, clap::ValueEnum)]
pub enum GameId {
    /// Standard shogi (9×9).
    #[value(name = "shogi")]
    Shogi,
    /// Minishogi (5×5).
    #[value(name = "minishogi")]
    Minishogi,
    /// Nana shogi (3×3, cube pieces).
    #[value(name = "nanashogi", alias = "nana")]
    Nanashogi,
    /// Give and Take (8×8 draughts).
    #[value(name = "giveandtake")]
    GiveAndTake,
}

/// What the engine needs to know of a game besides its type: names, board, network, data.
#[derive(Debug)]
pub struct GameInfo {
    /// Other names accepted for it (case is ignored for all).
    pub aliases: &'static [&'static str],
    /// The name for people (`--help`, the page).
    pub title: &'static str,
    /// Ranks of the board: how a bare SFEN tells the game (`tsubame mate`).
    pub ranks: usize,
    /// The network built into the binary, if the game has one.
    pub embedded_network: fn() -> Option<Arc<Network>>,
    /// Depth of the signature bench's search of the game's positions (`tsubame bench`).
    pub bench_depth: i32,
    /// Depth of `tsubame bench perft` from the game's start position.
    pub bench_perft_depth: u32,
}

/// Every game, in the order of [`GameId`]'s variants.
pub const GAMES: [GameInfo; 4] = [shogi::INFO, minishogi::INFO, nana::INFO, giveandtake::INFO];

impl GameId {
    /// Every game, in the registry's order.
    pub const ALL: [GameId; 4] = [
        GameId::Shogi,
        GameId::Minishogi,
        GameId::Nanashogi,
        GameId::GiveAndTake,
    ];

    /// The game's registry entry.
    pub fn info(self) -> &'static GameInfo {
        &GAMES[self as usize]
    }

    /// The game's name (`shogi`, `minishogi`, …) as USI and the files spell it.
    pub fn name(self) -> &'static str {
        crate::dispatch!(self, G => G::NAME)
    }

    /// Input features of the game's networks (0: the game has no learned evaluation).
    pub fn features(self) -> usize {
        crate::dispatch!(self, G => G::NNUE_FEATURES)
    }

    /// The game of a name or alias, ignoring case.
    pub fn parse(text: &str) -> Option<GameId> {
        GameId::ALL.into_iter().find(|g| {
            g.name().eq_ignore_ascii_case(text)
                || g.info()
                    .aliases
                    .iter()
                    .any(|a| a.eq_ignore_ascii_case(text))
        })
    }

    /// The names of every game, joined by `sep` (for messages and declarations).
    pub fn names(sep: &str) -> String {
        GameId::ALL.map(GameId::name).join(sep)
    }

    /// The names of every game for people, as a list in words ("a, b, c and d").
    pub fn titles() -> String {
        let titles = GameId::ALL.map(|g| g.info().title);
        let (last, rest) = titles.split_last().expect("there are games");
        format!("{} and {last}", rest.join(", "))
    }

    /// The game whose board has `ranks` ranks, when only one has.
    pub fn by_ranks(ranks: usize) -> Option<GameId> {
        let mut found = GameId::ALL.into_iter().filter(|g| g.info().ranks == ranks);
        let first = found.next()?;
        found.next().is_none().then_some(first)
    }

    /// True when the game stores training data (`tsubame datagen`, [`Game::with_packable`]).
    pub fn has_training_data(self) -> bool {
        struct Probe;
        impl PackableVisitor for Probe {
            type Output = ();
            fn visit<G: Game + Packable>(self) {}
        }
        crate::dispatch!(self, G => G::with_packable(Probe).is_some())
    }

    /// The network built into the binary for the game, if it has one.
    pub fn embedded_network(self) -> Option<Arc<Network>> {
        (self.info().embedded_network)()
    }

    /// The game's default search parameters ([`SearchGame::default_params`]).
    pub fn default_params(self) -> SearchParams {
        crate::dispatch!(self, G => G::default_params())
    }
}

impl std::fmt::Display for GameId {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// The rule options of every game at once, as the USI options keep them: a GUI may set a game's
/// options before or after it selects the game (`USI_Variant`).
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub struct EveryGameRules {
    /// `MaxMovesToDraw`: plies after which any game is drawn (0: no limit).
    pub max_moves_to_draw: u32,
    shogi: <shogi::Shogi as Position>::Rules,
    minishogi: <minishogi::Minishogi as Position>::Rules,
    nana: <nana::Nana as Position>::Rules,
    giveandtake: <giveandtake::GiveAndTake as Position>::Rules,
}

impl EveryGameRules {
    /// The rule options of the game `G`.
    pub fn of<G: Game>(&self) -> RuleOptions<G::Rules> {
        RuleOptions {
            max_moves_to_draw: self.max_moves_to_draw,
            game: *G::rules_in(self),
        }
    }

    /// Sets the game rule option `name` (any case) to `value` in every game that has it:
    /// `Ok(true)` when some game has it, `Ok(false)` when none has (nothing changes), `Err(why)`
    /// for a bad value (nothing changes).
    pub fn set(&mut self, name: &str, value: &str) -> Result<bool, String> {
        let mut next = *self;
        let mut known = false;
        for id in GameId::ALL {
            known |= crate::dispatch!(id, G => G::rules_in_mut(&mut next).set(name, value))?;
        }
        *self = next;
        Ok(known)
    }

    /// The `option` lines of the rule options of the games `ids`, in that order.
    pub fn declarations(ids: &[GameId]) -> Vec<String> {
        ids.iter()
            .flat_map(
                |&id| crate::dispatch!(id, G => <<G as Position>::Rules as GameRules>::OPTIONS),
            )
            .map(RuleOption::declaration)
            .collect()
    }
}

/// A game's type, tied to its registry entry.
pub trait Game: SearchGame + MateGame {
    /// The game's registry id.
    const ID: GameId;

    /// The game's rule options among every game's.
    fn rules_in(all: &EveryGameRules) -> &Self::Rules;

    /// The same, to change them.
    fn rules_in_mut(all: &mut EveryGameRules) -> &mut Self::Rules;

    /// Runs `visit` with the game as one whose positions can be packed (training data,
    /// `tsubame datagen`); `None` for a game that stores none (nana shogi learns from its solved
    /// table instead).
    fn with_packable<V: PackableVisitor>(visit: V) -> Option<V::Output>;
}

/// Code generic over a game whose positions can be packed, for [`Game::with_packable`].
pub trait PackableVisitor {
    /// What the code returns.
    type Output;
    /// Runs the code for the game `G`.
    fn visit<G: Game + Packable>(self) -> Self::Output;
}

/// Ties a game type to its registry id and its field of [`EveryGameRules`]; `packable` marks a
/// game that stores training data ([`Game::with_packable`]).
macro_rules! impl_game {
    ($ty:ty, $id:ident, $field:ident $(, $packable:ident)?) => {
        impl Game for $ty {
            const ID: GameId = GameId::$id;

            fn rules_in(all: &EveryGameRules) -> &Self::Rules {
                &all.$field
            }

            fn rules_in_mut(all: &mut EveryGameRules) -> &mut Self::Rules {
                &mut all.$field
            }

            impl_game!(@packable $($packable)?);
        }
    };
    (@packable packable) => {
        fn with_packable<V: PackableVisitor>(visit: V) -> Option<V::Output> {
            Some(visit.visit::<Self>())
        }
    };
    (@packable) => {
        fn with_packable<V: PackableVisitor>(_: V) -> Option<V::Output> {
            None
        }
    };
}

impl_game!(shogi::Shogi, Shogi, shogi, packable);
impl_game!(minishogi::Minishogi, Minishogi, minishogi, packable);
impl_game!(nana::Nana, Nanashogi, nana);
impl_game!(giveandtake::GiveAndTake, GiveAndTake, giveandtake, packable);

/// Runs `$body` with the type name `$G` bound to the game type of the [`GameId`] `$id`: the one
/// way from a game chosen at run time to code generic over the game.
///
/// ```
/// use tsubame::core::game::Position;
/// use tsubame::games::GameId;
/// let sfen = tsubame::dispatch!(GameId::Minishogi, G => G::startpos().to_sfen());
/// assert_eq!(sfen, "rbsgk/4p/5/P4/KGSBR b - 1");
/// ```
#[macro_export]
macro_rules! dispatch {
    ($id:expr, $G:ident => $body:expr) => {
        match $id {
            $crate::games::GameId::Shogi => {
                type $G = $crate::games::shogi::Shogi;
                $body
            }
            $crate::games::GameId::Minishogi => {
                type $G = $crate::games::minishogi::Minishogi;
                $body
            }
            $crate::games::GameId::Nanashogi => {
                type $G = $crate::games::nana::Nana;
                $body
            }
            $crate::games::GameId::GiveAndTake => {
                type $G = $crate::games::giveandtake::GiveAndTake;
                $body
            }
        }
    };
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_registry_agrees_with_the_game_types() {
        for id in GameId::ALL {
            assert_eq!(id, dispatch!(id, G => G::ID));
            assert_eq!(GameId::parse(id.name()), Some(id));
            assert_eq!(GameId::parse(&id.name().to_uppercase()), Some(id));
            let ranks = dispatch!(id, G => G::startpos().to_sfen())
                .split(' ')
                .next()
                .unwrap()
                .split('/')
                .count();
            assert_eq!(ranks, id.info().ranks);
            let net = id.embedded_network();
            assert_eq!(net.is_some(), id.features() > 0);
            if let Some(net) = net {
                assert_eq!(net.features, id.features());
                assert_eq!(net.game, id.name());
            }
        }
        assert_eq!(GameId::parse("nana"), Some(GameId::Nanashogi));
        assert_eq!(GameId::parse("chess"), None);
    }

    #[test]
    fn every_row_of_an_embedded_network_starts_on_a_cache_line() {
        for id in GameId::ALL {
            let Some(net) = id.embedded_network() else {
                continue;
            };
            assert_eq!(net.hidden % 32, 0, "{id}: rows of whole cache lines");
            for f in 0..net.features {
                let row = &net.ft_weights[f * net.hidden..];
                assert_eq!(row.as_ptr() as usize % 64, 0, "{id}: feature {f}'s row");
            }
            assert_eq!(net.out_weights.as_ptr() as usize % 64, 0);
        }
    }

    #[test]
    fn the_board_size_tells_the_game_only_when_one_game_has_it() {
        assert_eq!(GameId::by_ranks(9), Some(GameId::Shogi));
        assert_eq!(GameId::by_ranks(5), Some(GameId::Minishogi));
        assert_eq!(GameId::by_ranks(3), Some(GameId::Nanashogi));
        assert_eq!(GameId::by_ranks(8), Some(GameId::GiveAndTake));
        assert_eq!(GameId::by_ranks(7), None);
    }
}
