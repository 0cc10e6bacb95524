//! The networks the engine evaluates with, one per game that has a learned evaluation: the
//! embedded ones until `EvalFile` (or `--eval-file`) loads another. A build that leaves a network
//! out (the browser build's shogi network) takes it from its host at run time ([`supply`]).

use std::sync::{Arc, Mutex};

use super::GameId;
use crate::nnue::network::Network;

/// One network slot per game, indexed by [`GameId`]; a game without a learned evaluation keeps
/// `None`.
#[derive(Clone, Debug)]
pub struct Networks {
    slots: [Option<Arc<Network>>; GameId::ALL.len()],
}

impl Default for Networks {
    fn default() -> Self {
        Networks {
            slots: GameId::ALL.map(GameId::embedded_network),
        }
    }
}

impl Networks {
    /// Goes back to the embedded networks (none for a game the binary has none for).
    pub fn reset(&mut self) {
        *self = Networks::default();
    }

    /// The network for `game`: the one loaded, else the one the host supplied ([`supply`]), if
    /// any.
    pub fn get(&self, game: GameId) -> Option<Arc<Network>> {
        self.slots[game as usize].clone().or_else(|| supplied(game))
    }

    /// Loads the network file at `path` for the game its header names, replacing that game's
    /// network; a file that is not a sound network for a game of ours is refused and nothing
    /// changes (only a regular file of the size its header gives is read:
    /// [`Network::read_file`](crate::nnue::network::read_file)). Returns the game and a
    /// description.
    pub fn load_file(&mut self, path: &str) -> Result<(GameId, String), String> {
        let features = |name: &str, set| {
            GameId::parse(name)
                .filter(|g| g.has_network())
                .map(|g| g.features(set))
        };
        let bytes = crate::nnue::network::read_file(std::path::Path::new(path), features)
            .map_err(|e| format!("'{path}': {e}"))?;
        let (game, net) = network_of(&bytes).map_err(|e| format!("'{path}': {e}"))?;
        let text = format!(
            "{game} network {path}: {} features ({}), {} hidden per side",
            net.features, net.feature_set, net.hidden
        );
        self.slots[game as usize] = Some(Arc::new(net));
        Ok((game, text))
    }
}

/// The networks the host supplied, by game (see [`supply`]).
static SUPPLIED: Mutex<[Option<Arc<Network>>; GameId::ALL.len()]> =
    Mutex::new([const { None }; GameId::ALL.len()]);

/// The network the host supplied for `game`, if any.
fn supplied(game: GameId) -> Option<Arc<Network>> {
    SUPPLIED.lock().unwrap_or_else(|e| e.into_inner())[game as usize].clone()
}

/// Takes the network file in `bytes` for the game its header names, for every engine of the
/// process that has no other network for that game (not loaded by `EvalFile`, not built in): how
/// the browser build gets the shogi network it leaves out, fetched when shogi is chosen. A file
/// that is not a sound network for a game of ours is refused and nothing changes. Returns the
/// game and a description.
pub fn supply(bytes: &[u8]) -> Result<(GameId, String), String> {
    let (game, net) = network_of(bytes)?;
    let text = format!(
        "{game} network: {} features ({}), {} hidden per side",
        net.features, net.feature_set, net.hidden
    );
    SUPPLIED.lock().unwrap_or_else(|e| e.into_inner())[game as usize] = Some(Arc::new(net));
    Ok((game, text))
}

/// Whether `game` has a learned evaluation but no network in this process: none built in (the
/// browser build's shogi) and none [`supply`] gave. Such a game is played with its hand-written
/// evaluation until the host supplies the network.
pub fn missing(game: GameId) -> bool {
    game.has_network() && game.embedded_network().is_none() && supplied(game).is_none()
}

/// The network file in `bytes` and the game its header names, checked (a game with networks, the
/// feature count of that game).
fn network_of(bytes: &[u8]) -> Result<(GameId, Network), String> {
    let name = Network::game_in_header(bytes)?;
    let game = GameId::parse(&name)
        .filter(|g| g.has_network())
        .ok_or_else(|| format!("the network is for '{name}', which is not a game with networks"))?;
    let net = Network::from_bytes(bytes, game.name(), |set| game.features(set), None)?;
    Ok((game, net))
}
