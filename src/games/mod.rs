//! The games tsubame plays, each in its own folder on the shared core, and the registry that
//! knows them: [`GameId`] names a game, [`GameInfo`] holds what the rest of the engine needs to
//! know of it, and [`dispatch!`](crate::dispatch) turns a [`GameId`] into code generic over the
//! game's type.
//!
//! The games are listed once, in [`__games!`](crate::__games): adding a game is a new folder and
//! a line there (`docs/architecture.md`).

pub mod giveandtake;
pub mod info;
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
pub use info::{AnyTable, ExactTable, GameInfo, HasExactTable, Learns, MatchSupport};

/// The one list of the games: every other list (the [`GameId`] enum, [`GameId::ALL`], [`GAMES`],
/// [`EveryGameRules`], the [`Game`] impls and [`dispatch!`](crate::dispatch)) is made from it.
/// Each line: the variant of [`GameId`] with its doc, the game's module and type, its field of
/// [`EveryGameRules`], its USI name (and aliases), and `packable` for a game that stores
/// training data. The first game is the default of every program.
#[doc(hidden)]
#[macro_export]
macro_rules! __games {
    ($then:ident $args:tt) => {
        $crate::$then! { $args
            /// Standard shogi (9×9).
            Shogi: shogi::Shogi, shogi, "shogi" [], packable;
            /// Minishogi (5×5).
            Minishogi: minishogi::Minishogi, minishogi, "minishogi" [], packable;
            /// Nana shogi (3×3, cube pieces).
            Nanashogi: nana::Nana, nana, "nanashogi" ["nana"], ;
            /// Give and Take (8×8 draughts).
            GiveAndTake: giveandtake::GiveAndTake, giveandtake, "giveandtake" [], packable;
        }
    };
}

/// Defines the registry's types and impls from the list of [`__games!`](crate::__games).
#[doc(hidden)]
#[macro_export]
macro_rules! __define_games {
    (() $( $(#[$doc:meta])* $variant:ident : $module:ident :: $ty:ident, $field:ident,
        $name:literal [$($alias:literal),*], $($packable:ident)? ; )*) => {
        /// One of the games, as chosen by `USI_Variant`, `--variant` or `--game`.
        #[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, PartialOrd, Ord, clap::ValueEnum)]
        pub enum GameId {
            $( $(#[$doc])* #[value(name = $name $(, alias = $alias)*)] $variant, )*
        }

        /// Every game's registry entry, in the order of [`GameId`]'s variants.
        pub const GAMES: [GameInfo; GameId::ALL.len()] = [$($module::INFO),*];

        impl GameId {
            /// Every game, in the registry's order.
            pub const ALL: [GameId; [$(GameId::$variant),*].len()] = [$(GameId::$variant),*];
        }

        /// The rule options of every game at once, as the USI options keep them: a GUI may set a
        /// game's options before or after it selects the game (`USI_Variant`).
        #[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
        pub struct EveryGameRules {
            /// `MaxMovesToDraw`: plies after which any game is drawn (0: no limit).
            pub max_moves_to_draw: u32,
            $( $field: <$module::$ty as Position>::Rules, )*
        }

        $(
            impl Game for $module::$ty {
                const ID: GameId = GameId::$variant;

                fn rules_in(all: &EveryGameRules) -> &Self::Rules {
                    &all.$field
                }

                fn rules_in_mut(all: &mut EveryGameRules) -> &mut Self::Rules {
                    &mut all.$field
                }

                $crate::__define_games!(@packable $($packable)?);
            }
        )*
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

/// The arms of [`dispatch!`](crate::dispatch), made from the list of [`__games!`](crate::__games).
#[doc(hidden)]
#[macro_export]
macro_rules! __dispatch_arms {
    (($id:expr, $G:ident, $body:expr) $( $(#[$doc:meta])* $variant:ident : $module:ident :: $ty:ident,
        $field:ident, $name:literal [$($alias:literal),*], $($packable:ident)? ; )*) => {
        match $id {
            $( $crate::games::GameId::$variant => {
                type $G = $crate::games::$module::$ty;
                $body
            } )*
        }
    };
}

crate::__games!(__define_games());

impl GameId {
    /// The game every program plays unless told otherwise: the first of the registry.
    pub const DEFAULT: GameId = GameId::ALL[0];

    /// The game's registry entry.
    pub fn info(self) -> &'static GameInfo {
        &GAMES[self as usize]
    }

    /// The game's name (`USI_Variant`'s value) as USI and the files spell it.
    pub fn name(self) -> &'static str {
        crate::dispatch!(self, G => G::NAME)
    }

    /// Input features of the game's networks of feature set `set` (0: the game has no learned
    /// evaluation, or none of that set).
    pub fn features(self, set: crate::nnue::FeatureSet) -> usize {
        crate::dispatch!(self, G => G::nnue_feature_count(set))
    }

    /// True when the game has a learned evaluation.
    pub fn has_network(self) -> bool {
        self.features(crate::nnue::FeatureSet::Plain) > 0
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

    /// The names of the games for which `has` holds, joined by `sep`.
    pub fn names_where(has: impl Fn(GameId) -> bool, sep: &str) -> String {
        let names: Vec<&str> = GameId::ALL
            .into_iter()
            .filter(|&g| has(g))
            .map(GameId::name)
            .collect();
        names.join(sep)
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

    /// The game's start position, as its SFEN.
    pub fn start_sfen(self) -> String {
        crate::dispatch!(self, G => G::startpos().to_sfen())
    }

    /// The game's default search parameters ([`SearchGame::default_params`]).
    pub fn default_params(self) -> SearchParams {
        crate::dispatch!(self, G => G::default_params())
    }

    /// The games with an exact table, with its entry.
    pub fn with_exact_tables() -> impl Iterator<Item = (GameId, &'static info::ExactInfo)> {
        GameId::ALL
            .into_iter()
            .filter_map(|g| g.info().exact.as_ref().map(|e| (g, e)))
    }

    /// The game whose record format is named `name` (any case), with the format.
    pub fn record_format(name: &str) -> Option<(GameId, &'static info::RecordFormat)> {
        GameId::ALL.into_iter().find_map(|g| {
            g.info()
                .records
                .iter()
                .find(|f| f.name.eq_ignore_ascii_case(name))
                .map(|f| (g, f))
        })
    }
}

impl std::fmt::Display for GameId {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
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

    /// The rule options of the games `ids`, in that order.
    pub fn options(ids: &[GameId]) -> Vec<RuleOption> {
        ids.iter()
            .flat_map(
                |&id| crate::dispatch!(id, G => <<G as Position>::Rules as GameRules>::OPTIONS),
            )
            .copied()
            .collect()
    }
}

/// A game's type, tied to its registry entry.
pub trait Game: SearchGame + MateGame + HasExactTable + MatchSupport + Learns {
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
        $crate::__games!(__dispatch_arms($id, $G, $body))
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
            if cfg!(feature = "shogi-network") {
                assert_eq!(net.is_some(), id.has_network());
            }
            if let Some(net) = net {
                assert_eq!(net.features, id.features(net.feature_set));
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
    fn a_game_tuned_by_its_weights_has_a_linear_evaluation_and_the_option() {
        for id in GameId::ALL {
            let info = id.info();
            match (info.learning, info.tools.weights) {
                (info::Learning::Linear { names, weights }, Some(tuning)) => {
                    assert_eq!(tuning.steps.len(), names.len(), "{id}");
                    assert_eq!(weights.len(), names.len(), "{id}");
                    assert!(weights.iter().all(|w| w.abs() <= tuning.limit), "{id}");
                    assert!(
                        info.param_options.iter().any(|o| o.name == tuning.option),
                        "{id}: {} is none of its options",
                        tuning.option
                    );
                }
                (info::Learning::Linear { .. }, None) => {}
                (_, weights) => assert_eq!(weights, None, "{id}: weights without a linear sum"),
            }
            assert_eq!(
                info.page.first,
                id.start_sfen().split(' ').nth(1).unwrap(),
                "{id}: the first mover is the start's side to move"
            );
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
