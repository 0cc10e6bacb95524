//! Minishogi (5×5): the shogi-family position on a 5×5 board with a one-rank promotion zone.

use std::sync::LazyLock;

use crate::core::square::Geometry;
use crate::games::shogi::Variant;
use crate::games::shogi::attacks::Tables;
use crate::games::shogi::position::Board;

/// The minishogi variant of the shogi family.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
pub struct Mini;

static MINI_TABLES: LazyLock<Tables> =
    LazyLock::new(|| Tables::new(Mini::GEOMETRY, Mini::ZONE_RANKS));

impl Variant for Mini {
    const NAME: &'static str = "minishogi";
    const GEOMETRY: Geometry = Geometry { files: 5, ranks: 5 };
    const ZONE_RANKS: u8 = 1;
    const START_SFEN: &'static str = "rbsgk/4p/5/P4/KGSBR b - 1";
    // The lance only appears in handicap level 5, where it replaces White's rook.
    const PIECE_SET: [u8; 8] = [2, 1, 0, 2, 2, 2, 2, 2];
    #[inline(always)]
    fn tables() -> &'static Tables {
        &MINI_TABLES
    }
}

/// A minishogi position.
pub type Minishogi = Board<Mini>;
