//! Give and Take positions packed for training data ([`Packable`]), 18 bytes:
//! the occupied squares (`u64`, bit `file + 8 · rank`); then, over the occupied squares from the
//! lowest, one bit each "Black's" (`u32`) and one bit each "king" (`u32`); the side to move
//! (0 White, 1 Black); the last-moved square of the position string (0–63, 255 for none). The
//! move number is not stored.

use super::position::{GiveAndTake, bit};
use crate::core::color::Color;
use crate::core::pack::Packable;

/// Marks "no last-moved square" in the packed form.
const NO_SQUARE: u8 = 255;

impl Packable for GiveAndTake {
    const PACKED_LEN: usize = 18;

    fn pack(&self, out: &mut [u8]) -> bool {
        let occ = self.occupied();
        if occ.count_ones() > 32 {
            return false;
        }
        let (mut black, mut kings) = (0u32, 0u32);
        let mut rest = occ;
        let mut i = 0;
        while rest != 0 {
            let sq = rest.trailing_zeros() as u8;
            rest &= rest - 1;
            black |= ((self.pieces(Color::Black) & bit(sq) != 0) as u32) << i;
            kings |= ((self.kings() & bit(sq) != 0) as u32) << i;
            i += 1;
        }
        out[..8].copy_from_slice(&occ.to_le_bytes());
        out[8..12].copy_from_slice(&black.to_le_bytes());
        out[12..16].copy_from_slice(&kings.to_le_bytes());
        out[16] = (self.side_to_move() == Color::Black) as u8;
        out[17] = self.last_moved().unwrap_or(NO_SQUARE);
        true
    }

    /// Rebuilds the position string and parses it, so a damaged record is refused as strictly
    /// as a bad position string.
    fn unpack(bytes: &[u8]) -> Result<GiveAndTake, String> {
        if bytes.len() < Self::PACKED_LEN {
            return Err(format!(
                "{} bytes, {} expected",
                bytes.len(),
                Self::PACKED_LEN
            ));
        }
        let word = |a: usize| u32::from_le_bytes(bytes[a..a + 4].try_into().expect("4 bytes"));
        let occ = u64::from_le_bytes(bytes[..8].try_into().expect("8 bytes"));
        if occ.count_ones() > 32 {
            return Err(format!("{} pieces, at most 32", occ.count_ones()));
        }
        let (black, kings) = (word(8), word(12));
        let mut board = [None; 64];
        let mut rest = occ;
        let mut i = 0;
        while rest != 0 {
            let sq = rest.trailing_zeros() as usize;
            rest &= rest - 1;
            let letter = if kings >> i & 1 != 0 { 'k' } else { 'm' };
            board[sq] = Some(if black >> i & 1 != 0 {
                letter
            } else {
                letter.to_ascii_uppercase()
            });
            i += 1;
        }
        let mut fen = String::new();
        for rank in (0..8).rev() {
            let mut gap = 0;
            for file in 0..8 {
                match board[file + 8 * rank] {
                    Some(c) => {
                        if gap > 0 {
                            fen.push(char::from(b'0' + gap));
                            gap = 0;
                        }
                        fen.push(c);
                    }
                    None => gap += 1,
                }
            }
            if gap > 0 {
                fen.push(char::from(b'0' + gap));
            }
            if rank > 0 {
                fen.push('/');
            }
        }
        let side = match bytes[16] {
            0 => "w",
            1 => "b",
            other => return Err(format!("side-to-move byte {other}, 0 or 1 expected")),
        };
        let last = match bytes[17] {
            NO_SQUARE => "-".to_string(),
            sq @ 0..64 => super::position::square_name(sq),
            other => return Err(format!("last-moved square {other}, 0-63 or 255 expected")),
        };
        GiveAndTake::from_fen(&format!("{fen} {side} {last} 1")).map_err(|e| e.to_string())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::game::Position;
    use crate::core::moves::MoveList;

    #[test]
    fn positions_of_random_games_survive_packing() {
        let mut rng = crate::rng::Rng::new(7);
        let mut checked = 0;
        for _ in 0..20 {
            let mut pos = GiveAndTake::startpos();
            for _ in 0..150 {
                let mut bytes = [0u8; 18];
                assert!(pos.pack(&mut bytes));
                let back = GiveAndTake::unpack(&bytes).unwrap();
                assert_eq!(back.key(), pos.key(), "{}", pos.to_fen());
                assert_eq!(back.to_fen().rsplit_once(' ').unwrap().0, {
                    let fen = pos.to_fen();
                    fen.rsplit_once(' ').unwrap().0.to_string()
                });
                checked += 1;
                let mut list = MoveList::<super::super::GtMove>::new();
                pos.generate(&mut list);
                if list.is_empty() {
                    break;
                }
                let mv = list[rng.below(list.len())];
                pos.play(mv);
            }
        }
        assert!(checked > 1000, "only {checked} positions");
    }

    #[test]
    fn damaged_records_are_refused() {
        let mut bytes = [0u8; 18];
        assert!(GiveAndTake::startpos().pack(&mut bytes));
        let mut bad_side = bytes;
        bad_side[16] = 2;
        assert!(GiveAndTake::unpack(&bad_side).is_err());
        let mut bad_square = bytes;
        bad_square[17] = 64;
        assert!(GiveAndTake::unpack(&bad_square).is_err());
        let mut no_black = bytes;
        no_black[8..12].copy_from_slice(&0u32.to_le_bytes());
        assert!(
            GiveAndTake::unpack(&no_black).is_err(),
            "32 White men are more than 16"
        );
    }
}
