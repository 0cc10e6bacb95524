//! Shogi-family positions packed for training data ([`Packable`]).
//!
//! A little-endian bit stream: the side to move (1 bit, 1 for White); for each square in index
//! order, 1 bit "occupied" followed, when set, by the 5-bit piece code ([`Piece`]'s
//! `colour << 4 | kind + 1`); then each player's hand (Black first), 5 bits per kind from pawn to
//! gold; zero bits up to [`Packable::PACKED_LEN`]. Shogi: at most 1 + 81 + 40·5 + 70 = 352 bits
//! (44 of 48 bytes); minishogi: at most 1 + 25 + 12·5 + 70 = 156 bits (20 of 24 bytes).

use std::fmt::Write as _;

use bitstream_io::{BitRead, BitReader, BitWrite, BitWriter, LittleEndian};

use super::Variant;
use super::position::Board;
use super::types::{HAND_KIND_COUNT, Kind, Piece};
use crate::core::color::Color;
use crate::core::game::Position;
use crate::core::pack::Packable;
use crate::core::square::Square;

/// Bytes of a packed position for a board of `squares` squares and a set of `pieces` pieces.
const fn packed_len(squares: usize, pieces: usize) -> usize {
    let bits = 1 + squares + 5 * pieces + 5 * 2 * HAND_KIND_COUNT;
    bits.div_ceil(8).next_multiple_of(8)
}

impl<V: Variant> Packable for Board<V> {
    const PACKED_LEN: usize = packed_len(
        V::GEOMETRY.square_count(),
        (V::PIECE_SET[0]
            + V::PIECE_SET[1]
            + V::PIECE_SET[2]
            + V::PIECE_SET[3]
            + V::PIECE_SET[4]
            + V::PIECE_SET[5]
            + V::PIECE_SET[6]
            + V::PIECE_SET[7]) as usize,
    );

    fn pack(&self, out: &mut [u8]) -> bool {
        let Some(out) = out.get_mut(..Self::PACKED_LEN) else {
            return false;
        };
        out.fill(0);
        let mut w = BitWriter::endian(&mut *out, LittleEndian);
        let mut write = || -> std::io::Result<()> {
            w.write_bit(self.side_to_move() == Color::White)?;
            for i in 0..V::GEOMETRY.square_count() {
                let p = self.piece_at(Square(i as u8));
                w.write_bit(!p.is_none())?;
                if !p.is_none() {
                    w.write::<5, u8>(p.0)?;
                }
            }
            for c in Color::ALL {
                for &n in &self.hand(c).0[..HAND_KIND_COUNT] {
                    if n > 31 {
                        return Err(std::io::ErrorKind::InvalidData.into());
                    }
                    w.write::<5, u8>(n)?;
                }
            }
            w.byte_align()
        };
        write().is_ok()
    }

    fn unpack(bytes: &[u8]) -> Result<Self, String> {
        let bytes = bytes
            .get(..Self::PACKED_LEN)
            .ok_or_else(|| format!("{} bytes given, {} needed", bytes.len(), Self::PACKED_LEN))?;
        let mut r = BitReader::endian(bytes, LittleEndian);
        let truncated = |e: std::io::Error| format!("packed position: {e}");
        let white = r.read_bit().map_err(truncated)?;
        let geo = V::GEOMETRY;
        let mut squares = [Piece::NONE; crate::core::square::MAX_SQUARES];
        for sq in squares.iter_mut().take(geo.square_count()) {
            if r.read_bit().map_err(truncated)? {
                let code = r.read::<5, u8>().map_err(truncated)?;
                let kind = (code & 15).wrapping_sub(1);
                if kind as usize >= super::types::KIND_COUNT {
                    return Err(format!("packed position: piece code {code} is no piece"));
                }
                *sq = Piece(code);
            }
        }
        let mut hands = [[0u8; HAND_KIND_COUNT]; 2];
        for hand in &mut hands {
            for n in hand.iter_mut() {
                *n = r.read::<5, u8>().map_err(truncated)?;
            }
        }
        // The SFEN parser checks everything a position must satisfy.
        let mut sfen = String::new();
        for rank in 0..geo.ranks {
            let mut empty = 0;
            for file in (0..geo.files).rev() {
                let p = squares[geo.square(file, rank).index()];
                if p.is_none() {
                    empty += 1;
                } else {
                    if empty > 0 {
                        let _ = write!(sfen, "{empty}");
                        empty = 0;
                    }
                    sfen.push_str(&p.sfen());
                }
            }
            if empty > 0 {
                let _ = write!(sfen, "{empty}");
            }
            if rank + 1 < geo.ranks {
                sfen.push('/');
            }
        }
        sfen.push_str(if white { " w " } else { " b " });
        let mut hand_text = String::new();
        for (c, hand) in hands.iter().enumerate() {
            for (k, &n) in hand.iter().enumerate() {
                if n > 0 {
                    let letter = Kind::from_code(k as u8).letter();
                    let letter = if c == 0 {
                        letter
                    } else {
                        letter.to_ascii_lowercase()
                    };
                    let _ = write!(hand_text, "{n}{letter}");
                }
            }
        }
        sfen.push_str(if hand_text.is_empty() {
            "-"
        } else {
            &hand_text
        });
        sfen.push_str(" 1");
        Board::from_sfen(&sfen).map_err(|e| format!("packed position: {e}"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::moves::{ListStore, MoveList};
    use crate::games::minishogi::Minishogi;
    use crate::games::shogi::Shogi;

    /// Packs and unpacks every position of random games: the same position comes back.
    fn round_trip<G: Packable>(games: usize, seed: u64) {
        use crate::rng::Rng;
        let mut rng = Rng::new(seed);
        let mut buf = vec![0u8; G::PACKED_LEN];
        let mut positions = 0;
        for _ in 0..games {
            let mut pos = G::startpos();
            for _ in 0..300 {
                assert!(pos.pack(&mut buf), "{}", pos.to_sfen());
                let back = G::unpack(&buf).unwrap_or_else(|e| panic!("{}: {e}", pos.to_sfen()));
                assert_eq!(back.key(), pos.key(), "{}", pos.to_sfen());
                let strip = |s: String| s.rsplit_once(' ').unwrap().0.to_string();
                assert_eq!(strip(back.to_sfen()), strip(pos.to_sfen()));
                positions += 1;
                let mut list = MoveList::<G::Move>::new();
                pos.legal_moves(&mut list);
                if list.is_empty() {
                    break;
                }
                pos.play(list[rng.below(list.len())]);
            }
        }
        assert!(positions > games * 10);
    }

    #[test]
    fn shogi_positions_survive_packing() {
        assert_eq!(Shogi::PACKED_LEN, 48);
        round_trip::<Shogi>(30, 1);
    }

    #[test]
    fn minishogi_positions_survive_packing() {
        assert_eq!(Minishogi::PACKED_LEN, 24);
        round_trip::<Minishogi>(60, 2);
    }

    #[test]
    fn corrupt_bytes_are_refused() {
        let mut buf = vec![0u8; Shogi::PACKED_LEN];
        assert!(Shogi::startpos().pack(&mut buf));
        // A piece code that names no piece is an error.
        assert!(Shogi::unpack(&[0xffu8; 48]).is_err());
        // So is a position whose side to move could take the enemy king (side bit flipped).
        let check = Shogi::from_sfen("4k4/4R4/9/9/9/9/9/9/4K4 w - 1").unwrap();
        assert!(check.pack(&mut buf));
        assert!(Shogi::unpack(&buf).is_ok());
        buf[0] ^= 1;
        let err = Shogi::unpack(&buf).unwrap_err();
        assert!(err.contains("king"), "{err}");
        assert!(Shogi::unpack(&buf[..10]).is_err());
    }
}
