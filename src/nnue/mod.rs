//! The learned evaluation (NNUE): the input features of each game ([`features`]) and the
//! quantised network file with its reference evaluation ([`network`]). The trainer
//! (`tools/train`) uses the same features and writes the same file.

pub mod accumulator;
pub mod features;
pub mod nana;
pub mod network;
pub mod simd;

use std::sync::{Arc, LazyLock};

use crate::games::minishogi::Mini;
use crate::games::shogi::Standard;
use features::Layout;
use network::Network;

/// Reads a network built into the binary; the files are part of the source, and the tests
/// check that each loads.
fn built_in(bytes: &[u8], game: &str, features: usize) -> Arc<Network> {
    let net = Network::from_bytes(bytes, game, features, None);
    Arc::new(net.unwrap_or_else(|e| panic!("the embedded {game} network is unsound: {e}")))
}

/// The shogi network built into the binary (how it was made: `docs/nnue.md`).
static EMBEDDED_SHOGI: LazyLock<Arc<Network>> = LazyLock::new(|| {
    built_in(
        include_bytes!("nets/shogi.nnue"),
        "shogi",
        Layout::<Standard>::FEATURES,
    )
});

/// The minishogi network built into the binary (how it was made: `docs/nnue.md`).
static EMBEDDED_MINISHOGI: LazyLock<Arc<Network>> = LazyLock::new(|| {
    built_in(
        include_bytes!("nets/minishogi.nnue"),
        "minishogi",
        Layout::<Mini>::FEATURES,
    )
});

/// The nana shogi network built into the binary, trained on the solved table (how it was made:
/// `docs/nnue.md`).
static EMBEDDED_NANA: LazyLock<Arc<Network>> = LazyLock::new(|| {
    built_in(
        include_bytes!("nets/nanashogi.nnue"),
        "nanashogi",
        nana::FEATURES,
    )
});

/// The network built into the binary for `game`, if it has one.
pub fn embedded(game: &str) -> Option<Arc<Network>> {
    match game {
        "shogi" => Some(Arc::clone(&EMBEDDED_SHOGI)),
        "minishogi" => Some(Arc::clone(&EMBEDDED_MINISHOGI)),
        "nanashogi" => Some(Arc::clone(&EMBEDDED_NANA)),
        _ => None,
    }
}

/// The number of input features of `game`'s networks (`None`: the game has no learned
/// evaluation).
fn feature_count(game: &str) -> Option<usize> {
    match game {
        "shogi" => Some(Layout::<Standard>::FEATURES),
        "minishogi" => Some(Layout::<Mini>::FEATURES),
        "nanashogi" => Some(nana::FEATURES),
        _ => None,
    }
}

/// The networks the engine holds, one per game that has a learned evaluation; they start as
/// the embedded ones.
#[derive(Clone, Debug)]
pub struct Networks {
    shogi: Option<Arc<Network>>,
    minishogi: Option<Arc<Network>>,
    nana: Option<Arc<Network>>,
}

impl Default for Networks {
    fn default() -> Self {
        Networks {
            shogi: embedded("shogi"),
            minishogi: embedded("minishogi"),
            nana: embedded("nanashogi"),
        }
    }
}

impl Networks {
    /// Goes back to the embedded networks (none for a game the binary has none for).
    pub fn reset(&mut self) {
        *self = Networks::default();
    }

    /// The slot of `game`'s network, for the games that have one.
    fn slot(&mut self, game: &str) -> Option<&mut Option<Arc<Network>>> {
        match game {
            "shogi" => Some(&mut self.shogi),
            "minishogi" => Some(&mut self.minishogi),
            "nanashogi" => Some(&mut self.nana),
            _ => None,
        }
    }

    /// The network for `game` (`shogi`, `minishogi`, `nanashogi`), if one is loaded.
    pub fn get(&self, game: &str) -> Option<Arc<Network>> {
        match game {
            "shogi" => self.shogi.clone(),
            "minishogi" => self.minishogi.clone(),
            "nanashogi" => self.nana.clone(),
            _ => None,
        }
    }

    /// Loads the network file at `path` for the game its header names, replacing that game's
    /// network; a file that is not a sound network for a game of ours is refused and nothing
    /// changes (only a regular file of the size its header gives is read: [`network::read_file`]). Returns the game and a description.
    pub fn load_file(&mut self, path: &str) -> Result<(String, String), String> {
        let bytes = network::read_file(std::path::Path::new(path), feature_count)
            .map_err(|e| format!("'{path}': {e}"))?;
        let name_bytes = bytes.get(10..30).unwrap_or_default();
        let game = String::from_utf8_lossy(name_bytes)
            .trim_end_matches('\0')
            .to_string();
        let features = feature_count(&game).expect("read_file refuses games without networks");
        let net = Network::from_bytes(&bytes, &game, features, None)
            .map_err(|e| format!("'{path}': {e}"))?;
        let slot = self
            .slot(&game)
            .expect("every game with features has a slot");
        let text = format!(
            "{game} network {path}: {} features, {} hidden per side",
            net.features, net.hidden
        );
        *slot = Some(Arc::new(net));
        Ok((game, text))
    }
}
