//! Nana shogi solved: a retrograde tablebase of every legal position.
//!
//! The table holds one byte per position of the perfect index ([`index`]): the distance to mate in
//! plies plus one (odd distances are wins for the side to move, even ones losses; a position without
//! a legal move is lost in 0), 0 for a draw, 255 for an index that is no legal position (the side to
//! move could capture the enemy king) or lies outside a partial build. Values ignore the game's
//! history, as usual for tablebases: a cycle nobody can force out of is a draw, which is also what
//! nana's fourfold repetition makes of it.
//!
//! The table stores Black-to-move positions with both kings on the board; [`Tablebase::probe`]
//! answers any legal position, flipping colours for White to move and searching the at most two
//! plies of king drops that separate a position with a king in hand from the table.
//!
//! [`build`] computes the table (retrograde analysis with unmoves over both cores), [`verify`]
//! checks every value against the values of the position's successors, and [`Tablebase::save`] /
//! [`Tablebase::load`] keep it in a file guarded by a checksum.

mod build;
pub mod index;

use std::io::{Read, Write};
use std::path::Path;

use super::movegen::MATE_RULE_LEVELS;
use super::position::Nana;
use super::types::Kind;
use crate::core::color::Color;
use crate::core::game::Position;
use crate::core::moves::{Move, MoveList};
use crate::games::info::{ExactTable, ExactValue};
pub use build::{BuildStats, build, verify};
use index::{INDEXER, oriented};

/// The stored byte of a draw (also "not yet decided" while building).
pub const DRAW_BYTE: u8 = 0;
/// The stored byte of an index that is no legal position, or lies outside a partial build.
pub const ABSENT_BYTE: u8 = 255;
/// The longest distance to mate a byte can hold.
pub const MAX_DISTANCE: u32 = 253;

/// The game-theoretic value of a position for the side to move, with the distance to mate in plies.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
pub enum TbValue {
    /// The side to move mates in this many plies (odd).
    Win(u32),
    /// The side to move is mated in this many plies (even; 0 when he has no legal move).
    Loss(u32),
    /// Neither side can force a win.
    Draw,
}

impl TbValue {
    /// The value of a stored byte (`None` for [`ABSENT_BYTE`]).
    #[inline(always)]
    pub fn from_byte(b: u8) -> Option<TbValue> {
        match b {
            DRAW_BYTE => Some(TbValue::Draw),
            ABSENT_BYTE => None,
            b => {
                let d = b as u32 - 1;
                Some(if d % 2 == 1 {
                    TbValue::Win(d)
                } else {
                    TbValue::Loss(d)
                })
            }
        }
    }

    /// The value of a position whose successors (from their mover's side) have `children` values.
    pub fn from_children(children: impl IntoIterator<Item = TbValue>) -> TbValue {
        let mut best_loss: Option<u32> = None;
        let mut longest_win: Option<u32> = None;
        let mut draw = false;
        for c in children {
            match c {
                TbValue::Loss(d) => best_loss = Some(best_loss.map_or(d, |b| b.min(d))),
                TbValue::Win(d) => longest_win = Some(longest_win.map_or(d, |b| b.max(d))),
                TbValue::Draw => draw = true,
            }
        }
        match (best_loss, draw, longest_win) {
            (Some(d), _, _) => TbValue::Win(d + 1),
            (None, true, _) => TbValue::Draw,
            (None, false, Some(d)) => TbValue::Loss(d + 1),
            (None, false, None) => TbValue::Loss(0),
        }
    }

    /// The USI score text: `mate N` (negative when being mated) or `cp 0`.
    pub fn usi_score(self) -> String {
        match self {
            TbValue::Win(d) => format!("mate {d}"),
            TbValue::Loss(d) => format!("mate -{d}"),
            TbValue::Draw => "cp 0".into(),
        }
    }

    /// Plies to the end of the game with best play (0 for a draw).
    pub fn distance(self) -> u32 {
        match self {
            TbValue::Win(d) | TbValue::Loss(d) => d,
            TbValue::Draw => 0,
        }
    }
}

impl From<TbValue> for ExactValue {
    fn from(v: TbValue) -> ExactValue {
        match v {
            TbValue::Win(d) => ExactValue::Win(d),
            TbValue::Loss(d) => ExactValue::Loss(d),
            TbValue::Draw => ExactValue::Draw,
        }
    }
}

impl ExactTable<Nana> for Tablebase {
    fn probe(&self, pos: &Nana) -> Option<ExactValue> {
        Tablebase::probe(self, pos).map(ExactValue::from)
    }

    fn best_move(&self, pos: &Nana) -> Option<Move> {
        Tablebase::best_move(self, pos).map(|(mv, _)| mv)
    }

    fn line(&self, pos: &Nana, plies: usize) -> Vec<Move> {
        self.pv(pos, plies)
    }

    fn len(&self) -> u32 {
        self.values.len() as u32
    }

    fn entry(&self, index: u32) -> Option<(Nana, ExactValue)> {
        let value = self.value_at(index)?;
        Some((INDEXER.unrank(index), value.into()))
    }
}

/// The solved table: one byte per index of [`index::INDEXER`].
pub struct Tablebase {
    values: Vec<u8>,
}

/// File layout: magic, format version, rule and index fingerprint, checksum, then the values.
const MAGIC: &[u8; 8] = b"TSBNANA\x1a";
const FORMAT_VERSION: u32 = 1;
const HEADER_LEN: usize = 8 + 4 * 4 + 8;

/// A 64-bit checksum of `bytes` (a multiply-rotate hash over 8-byte words with a final avalanche).
pub fn checksum(bytes: &[u8]) -> u64 {
    const K: u64 = 0x9e37_79b9_7f4a_7c15;
    let mut h: u64 = bytes.len() as u64 ^ 0x5851_f42d_4c95_7f2d;
    let mut chunks = bytes.chunks_exact(8);
    for c in &mut chunks {
        let w = u64::from_le_bytes(c.try_into().expect("8 bytes"));
        h = (h ^ w).wrapping_mul(K).rotate_left(29);
    }
    for &b in chunks.remainder() {
        h = (h ^ b as u64).wrapping_mul(K).rotate_left(29);
    }
    h ^= h >> 33;
    h = h.wrapping_mul(0xff51_afd7_ed55_8ccd);
    h ^= h >> 33;
    h
}

impl Tablebase {
    /// Wraps built values.
    pub(crate) fn from_values(values: Vec<u8>) -> Tablebase {
        assert_eq!(values.len(), INDEXER.size as usize);
        Tablebase { values }
    }

    /// The stored bytes.
    pub fn bytes(&self) -> &[u8] {
        &self.values
    }

    /// The value stored at `idx`.
    pub fn value_at(&self, idx: u32) -> Option<TbValue> {
        TbValue::from_byte(self.values[idx as usize])
    }

    /// The value of any legal position for its side to move; `None` for an illegal set-up (the side
    /// to move could capture the enemy king) or a position a partial table does not hold.
    pub fn probe(&self, pos: &Nana) -> Option<TbValue> {
        if pos.king(Color::Black).is_some() && pos.king(Color::White).is_some() {
            if !pos.enemy_king_safe() {
                return None;
            }
            return self.value_at(INDEXER.rank(&oriented(pos)));
        }
        // A side without a king at all (a mate problem's attacker) never reaches the table.
        let king_missing = |c| pos.king(c).is_none() && pos.hand(c).count(Kind::King) == 0;
        if Color::ALL.into_iter().any(king_missing) {
            return None;
        }
        // A king in hand: at most two plies of king drops (and moves) lead into the table.
        let mut list = MoveList::<Move>::new();
        pos.legal_moves(&mut list);
        let mut children = Vec::with_capacity(list.len());
        for &mv in &list {
            let mut next = pos.clone();
            next.play(mv);
            children.push(self.probe(&next)?);
        }
        Some(TbValue::from_children(children))
    }

    /// The best move of `pos` with the position's value: the fastest mate when winning, a move that
    /// keeps the draw when drawn, the longest resistance when losing. `None` without a legal move
    /// (or outside a partial table).
    pub fn best_move(&self, pos: &Nana) -> Option<(Move, TbValue)> {
        let mut list = MoveList::<Move>::new();
        pos.legal_moves(&mut list);
        let mut best: Option<(Move, TbValue)> = None;
        // Ordering key: higher is better for the mover.
        let key = |v: TbValue| -> i64 {
            match v {
                TbValue::Loss(d) => 1_000_000 - d as i64,
                TbValue::Draw => 0,
                TbValue::Win(d) => -1_000_000 + d as i64,
            }
        };
        for &mv in &list {
            let mut next = pos.clone();
            next.play(mv);
            let v = self.probe(&next)?;
            if best.is_none_or(|(_, b)| key(v) > key(b)) {
                best = Some((mv, v));
            }
        }
        // The best child alone decides the position's value.
        best.map(|(mv, child)| (mv, TbValue::from_children([child])))
    }

    /// The principal variation of `pos`: best moves for both sides, at most `max_len` plies (a won or
    /// lost line ends at mate).
    pub fn pv(&self, pos: &Nana, max_len: usize) -> Vec<Move> {
        let mut line = Vec::new();
        let mut p = pos.clone();
        while line.len() < max_len {
            let Some((mv, _)) = self.best_move(&p) else {
                break;
            };
            line.push(mv);
            p.play(mv);
        }
        line
    }

    /// Writes the table to `path`: header (magic, version, rule and index fingerprint, checksum) then
    /// the values.
    pub fn save(&self, path: &Path) -> std::io::Result<()> {
        let mut f = std::io::BufWriter::new(std::fs::File::create(path)?);
        f.write_all(&header(checksum(&self.values)))?;
        f.write_all(&self.values)?;
        f.flush()
    }

    /// Reads a table written by [`Tablebase::save`]; a file of another format, index or rule set, a
    /// truncated one or one whose checksum does not match is refused with the reason. Only a regular
    /// file of the table's exact size is read (never a device, pipe or terminal such as
    /// `/dev/stdin` or `/dev/zero`, which would block or never end), and at most that many bytes.
    pub fn load(path: &Path) -> Result<Tablebase, String> {
        let expected = HEADER_LEN as u64 + INDEXER.size as u64;
        let cannot = |e: std::io::Error| format!("cannot read {}: {e}", path.display());
        // Checked before opening: opening a named pipe would block until someone writes to it.
        let meta = std::fs::metadata(path).map_err(cannot)?;
        let file = std::fs::File::open(path).map_err(cannot)?;
        let meta_open = file.metadata().map_err(cannot)?;
        if !meta.is_file() || !meta_open.is_file() {
            return Err(format!("{} is not a regular file", path.display()));
        }
        if meta_open.len() != expected {
            return Err(format!(
                "{} holds {} bytes, a table file has {expected} (truncated or mismatched)",
                path.display(),
                meta_open.len()
            ));
        }
        let mut bytes = Vec::new();
        bytes
            .try_reserve_exact(expected as usize)
            .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
        file.take(expected)
            .read_to_end(&mut bytes)
            .map_err(cannot)?;
        Tablebase::from_file_bytes(&bytes)
    }

    /// Parses the bytes of a table file (see [`Tablebase::load`]).
    pub fn from_file_bytes(bytes: &[u8]) -> Result<Tablebase, String> {
        if bytes.len() < HEADER_LEN || &bytes[..8] != MAGIC {
            return Err("not a tsubame nana shogi tablebase file".into());
        }
        let expected = header(0);
        if bytes[8..HEADER_LEN - 8] != expected[8..HEADER_LEN - 8] {
            return Err(
                "the table was made for another format, index or rule set (mismatched table)"
                    .into(),
            );
        }
        let values = &bytes[HEADER_LEN..];
        if values.len() != INDEXER.size as usize {
            return Err(format!(
                "the table holds {} values, {} expected (truncated or mismatched)",
                values.len(),
                INDEXER.size
            ));
        }
        let stored = u64::from_le_bytes(bytes[HEADER_LEN - 8..HEADER_LEN].try_into().expect("8"));
        if checksum(values) != stored {
            return Err("checksum mismatch: the table file is corrupted".into());
        }
        Ok(Tablebase {
            values: values.to_vec(),
        })
    }
}

fn header(sum: u64) -> [u8; HEADER_LEN] {
    let mut h = [0u8; HEADER_LEN];
    h[..8].copy_from_slice(MAGIC);
    let fields = [
        FORMAT_VERSION,
        MATE_RULE_LEVELS as u32,
        INDEXER.size,
        INDEXER.per_king_pair,
    ];
    for (i, v) in fields.iter().enumerate() {
        h[8 + 4 * i..12 + 4 * i].copy_from_slice(&v.to_le_bytes());
    }
    h[HEADER_LEN - 8..].copy_from_slice(&sum.to_le_bytes());
    h
}

/// `tsubame solve nanashogi`: builds the table (with progress bars when `show`), verifies it, writes
/// it to `out` if given, and returns the report lines. Fails if the verification finds an
/// inconsistent value or the file cannot be written.
pub fn solve(out: Option<&Path>, show: bool) -> Result<Vec<String>, String> {
    let start = std::time::Instant::now();
    let tb = build(None, show);
    let built = start.elapsed().as_secs_f64();
    let stats = verify(&tb, show);
    let verified = start.elapsed().as_secs_f64() - built;
    let mut lines = vec![
        format!(
            "positions: {} (legal positions with both kings on the board and Black to move; \
             White to move is their colour flip; index size {})",
            stats.positions, INDEXER.size
        ),
        format!(
            "wins: {}  losses: {}  draws: {}  (for the side to move)",
            stats.wins, stats.losses, stats.draws
        ),
        format!("longest distance to mate: {} plies", stats.max_distance),
    ];
    if stats.inconsistent > 0 {
        return Err(format!(
            "verification failed: {} positions disagree with their successors",
            stats.inconsistent
        ));
    }
    lines.push(format!(
        "verified: all {} values agree with their successors",
        stats.positions
    ));
    let startpos = Nana::startpos();
    let value = tb
        .probe(&startpos)
        .ok_or("the start position is not in the table")?;
    let text = match value {
        TbValue::Win(d) => format!("Black (to move) wins in {d} plies"),
        TbValue::Loss(d) => format!("Black (to move) loses in {d} plies"),
        TbValue::Draw => "draw".into(),
    };
    let pv: Vec<String> = tb
        .pv(&startpos, 12)
        .into_iter()
        .scan(startpos.clone(), |p, mv| {
            let s = p.move_to_usi(mv);
            p.play(mv);
            Some(s)
        })
        .collect();
    lines.push(format!(
        "start position: {text} (score {}); best line: {}",
        value.usi_score(),
        pv.join(" ")
    ));
    if let Some(path) = out {
        tb.save(path)
            .map_err(|e| format!("cannot write {}: {e}", path.display()))?;
        lines.push(format!(
            "table written to {} ({} bytes, checksum {:016x})",
            path.display(),
            HEADER_LEN + tb.values.len(),
            checksum(&tb.values)
        ));
    }
    lines.push(format!(
        "time: build {built:.1} s, verify {verified:.1} s, total {:.1} s; threads {}; peak memory {} MiB",
        start.elapsed().as_secs_f64(),
        rayon::current_num_threads(),
        crate::progress::peak_memory_mib().map_or("?".into(), |m| m.to_string())
    ));
    Ok(lines)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_position_without_a_king_is_outside_the_table() {
        // RULES.md §0 allows a side without a king; the table holds both kings, and no line of
        // play brings the missing one, so the probe answers `None` instead of recursing forever.
        let tb = Tablebase::from_values(vec![0; INDEXER.size as usize]);
        for sfen in ["k1R/2W/1BT b - 1", "3/3/3 b RBkrb 1", "3/3/3 w KRBrb 1"] {
            let pos = Nana::from_sfen(sfen).expect("a legal position");
            assert_eq!(tb.probe(&pos), None, "{sfen}");
            assert_eq!(tb.best_move(&pos), None, "{sfen}");
        }
    }
}
