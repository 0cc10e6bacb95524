//! The networks the engine evaluates with, one per game that has a learned evaluation: the
//! embedded ones until `EvalFile` (or `--eval-file`) loads another.

use std::sync::Arc;

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

    /// The network for `game`, if one is loaded.
    pub fn get(&self, game: GameId) -> Option<Arc<Network>> {
        self.slots[game as usize].clone()
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
        let name = Network::game_in_header(&bytes).map_err(|e| format!("'{path}': {e}"))?;
        let game = GameId::parse(&name)
            .filter(|g| g.has_network())
            .ok_or_else(|| {
                format!("'{path}': the network is for '{name}', which is not a game with networks")
            })?;
        let net = Network::from_bytes(&bytes, game.name(), |set| game.features(set), None)
            .map_err(|e| format!("'{path}': {e}"))?;
        let text = format!(
            "{game} network {path}: {} features ({}), {} hidden per side",
            net.features, net.feature_set, net.hidden
        );
        self.slots[game as usize] = Some(Arc::new(net));
        Ok((game, text))
    }
}
