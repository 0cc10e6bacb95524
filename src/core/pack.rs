//! A position as a fixed number of bytes: the form in which training data (`tsubame datagen`)
//! stores positions. The layout of each game is described in `docs/datagen.md`.

use crate::core::game::Position;

/// A game whose positions can be stored in [`Packable::PACKED_LEN`] bytes and read back.
pub trait Packable: Position {
    /// Bytes of one packed position (the same for every position of the game).
    const PACKED_LEN: usize;

    /// Writes the position into `out` (`PACKED_LEN` bytes); false when it does not fit (a test
    /// position with more pieces than one set holds), in which case `out` is meaningless.
    fn pack(&self, out: &mut [u8]) -> bool;

    /// The position that `bytes` (`PACKED_LEN` bytes) hold, checked as strictly as an SFEN;
    /// the move number is not stored and reads back as 1.
    fn unpack(bytes: &[u8]) -> Result<Self, String>;
}
