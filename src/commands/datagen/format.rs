//! The training-data file: a header, then one frame per game, each checked by a CRC-32, so that
//! a file cut short or damaged at its end is recognised and the damaged part skipped. The byte
//! layout is documented in `docs/datagen.md`.

use crate::core::pack::Packable;

/// The first bytes of every data file.
pub const FILE_MAGIC: &[u8; 8] = b"TSUBDATA";
/// Version of the layout.
pub const VERSION: u16 = 1;
/// Bytes of the file header.
pub const HEADER_LEN: usize = 32;
/// The first bytes of every game frame.
pub const FRAME_MAGIC: &[u8; 4] = b"GAME";
/// Bytes of a frame header (magic, seed, game number, record count, CRC).
pub const FRAME_HEADER_LEN: usize = 28;
/// Bytes of a record before the packed position (score, result, ply, move).
pub const RECORD_PREFIX_LEN: usize = 8;
/// Longest variant name the header holds.
const NAME_LEN: usize = 20;

/// The outcome of the game for the side to move at a recorded position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GameResult {
    /// The side to move lost.
    Loss = 0,
    /// The game was drawn.
    Draw = 1,
    /// The side to move won.
    Win = 2,
}

impl GameResult {
    /// The result as a target in [0, 1] (loss 0, draw ½, win 1).
    pub fn target(self) -> f32 {
        self as u8 as f32 / 2.0
    }
}

/// One recorded position, unpacked.
#[derive(Clone, Debug, PartialEq)]
pub struct Record<G> {
    /// The position.
    pub pos: G,
    /// The search's score, centipawns for the side to move.
    pub score: i16,
    /// The game's result for the side to move.
    pub result: GameResult,
    /// Plies played from the start position to this one.
    pub ply: u16,
    /// The move the search chose (the engine's 16-bit encoding).
    pub mv: u16,
}

/// Bytes of one record of game `G`.
pub const fn record_len<G: Packable>() -> usize {
    RECORD_PREFIX_LEN + G::PACKED_LEN
}

/// Appends the record of `pos` to `out`; false (nothing appended) when the position does not pack.
pub fn push_record<G: Packable>(
    out: &mut Vec<u8>,
    pos: &G,
    score: i16,
    result: GameResult,
    ply: u16,
    mv: u16,
) -> bool {
    let start = out.len();
    out.extend_from_slice(&score.to_le_bytes());
    out.push(result as u8);
    out.push(0);
    out.extend_from_slice(&ply.to_le_bytes());
    out.extend_from_slice(&mv.to_le_bytes());
    out.resize(start + record_len::<G>(), 0);
    if pos.pack(&mut out[start + RECORD_PREFIX_LEN..]) {
        true
    } else {
        out.truncate(start);
        false
    }
}

/// Reads one record (`record_len::<G>()` bytes).
pub fn read_record<G: Packable>(bytes: &[u8]) -> Result<Record<G>, String> {
    if bytes.len() < record_len::<G>() {
        return Err(format!("a record needs {} bytes", record_len::<G>()));
    }
    let result = match bytes[2] {
        0 => GameResult::Loss,
        1 => GameResult::Draw,
        2 => GameResult::Win,
        r => return Err(format!("result byte {r} is not 0, 1 or 2")),
    };
    Ok(Record {
        pos: G::unpack(&bytes[RECORD_PREFIX_LEN..record_len::<G>()])?,
        score: i16::from_le_bytes([bytes[0], bytes[1]]),
        result,
        ply: u16::from_le_bytes([bytes[4], bytes[5]]),
        mv: u16::from_le_bytes([bytes[6], bytes[7]]),
    })
}

/// The file header for game `G`.
pub fn header<G: Packable>() -> [u8; HEADER_LEN] {
    let mut h = [0u8; HEADER_LEN];
    h[..8].copy_from_slice(FILE_MAGIC);
    h[8..10].copy_from_slice(&VERSION.to_le_bytes());
    h[10..12].copy_from_slice(&(record_len::<G>() as u16).to_le_bytes());
    let name = G::NAME.as_bytes();
    let n = name.len().min(NAME_LEN);
    h[12..12 + n].copy_from_slice(&name[..n]);
    h
}

/// One game's frame: its header fields and the place of its records.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Frame {
    /// The seed of the run that played the game.
    pub seed: u64,
    /// The game's number within that run.
    pub game: u64,
    /// Byte offset of the first record in the file.
    pub offset: usize,
    /// Number of records.
    pub count: usize,
}

/// Builds the frame of one game from its records' bytes.
pub fn frame(seed: u64, game: u64, records: &[u8], record_len: usize) -> Vec<u8> {
    let count = (records.len() / record_len) as u32;
    let mut out = Vec::with_capacity(FRAME_HEADER_LEN + records.len());
    out.extend_from_slice(FRAME_MAGIC);
    out.extend_from_slice(&seed.to_le_bytes());
    out.extend_from_slice(&game.to_le_bytes());
    out.extend_from_slice(&count.to_le_bytes());
    let mut crc = crc32fast::Hasher::new();
    crc.update(&out[4..24]);
    crc.update(records);
    out.extend_from_slice(&crc.finalize().to_le_bytes());
    out.extend_from_slice(records);
    out
}

/// What a scan of a data file found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Scan {
    /// The complete, undamaged games, in file order.
    pub frames: Vec<Frame>,
    /// Length of the file up to the end of the last good frame.
    pub valid_len: usize,
    /// Bytes after it that were skipped (a game cut short or damaged); 0 for a sound file.
    pub skipped: usize,
    /// Why the skipped bytes were skipped.
    pub skip_reason: Option<String>,
}

impl Scan {
    /// Total number of records in the good frames.
    pub fn records(&self) -> usize {
        self.frames.iter().map(|f| f.count).sum()
    }
}

/// Checks the header of `bytes` against game `G` and finds every sound frame. A file whose
/// header does not match (another game, another layout) is an error; a damaged or truncated
/// frame ends the scan, and it and everything after it are reported as skipped.
pub fn scan<G: Packable>(bytes: &[u8]) -> Result<Scan, String> {
    if bytes.len() < HEADER_LEN || &bytes[..8] != FILE_MAGIC {
        return Err("not a tsubame data file (no TSUBDATA header)".into());
    }
    let version = u16::from_le_bytes([bytes[8], bytes[9]]);
    if version != VERSION {
        return Err(format!(
            "data file version {version}, this build reads {VERSION}"
        ));
    }
    if bytes[12..HEADER_LEN] != header::<G>()[12..] {
        let name = String::from_utf8_lossy(&bytes[12..HEADER_LEN]);
        return Err(format!(
            "the data file holds {}, not {}",
            name.trim_end_matches('\0'),
            G::NAME
        ));
    }
    let rec = u16::from_le_bytes([bytes[10], bytes[11]]) as usize;
    if rec != record_len::<G>() {
        return Err(format!(
            "records of {rec} bytes, {} expected",
            record_len::<G>()
        ));
    }
    let mut frames = Vec::new();
    let mut at = HEADER_LEN;
    let mut skip_reason = None;
    while at < bytes.len() {
        let rest = &bytes[at..];
        if rest.len() < FRAME_HEADER_LEN {
            skip_reason = Some("a frame header cut short".to_string());
            break;
        }
        if &rest[..4] != FRAME_MAGIC {
            skip_reason = Some("no frame marker where a game should start".to_string());
            break;
        }
        let u64_at = |i: usize| u64::from_le_bytes(rest[i..i + 8].try_into().unwrap());
        let count = u32::from_le_bytes(rest[20..24].try_into().unwrap()) as usize;
        let stored_crc = u32::from_le_bytes(rest[24..28].try_into().unwrap());
        let len = FRAME_HEADER_LEN + count * rec;
        if rest.len() < len {
            skip_reason = Some(format!(
                "a game of {count} records cut short ({} of {len} bytes)",
                rest.len()
            ));
            break;
        }
        let mut crc = crc32fast::Hasher::new();
        crc.update(&rest[4..24]);
        crc.update(&rest[FRAME_HEADER_LEN..len]);
        if crc.finalize() != stored_crc {
            skip_reason = Some("a game whose checksum does not match".to_string());
            break;
        }
        frames.push(Frame {
            seed: u64_at(4),
            game: u64_at(12),
            offset: at + FRAME_HEADER_LEN,
            count,
        });
        at += len;
    }
    Ok(Scan {
        frames,
        valid_len: at,
        skipped: bytes.len() - at,
        skip_reason,
    })
}

/// Every record of the sound frames of `bytes`, unpacked, with the scan that found them.
pub fn read_all<G: Packable>(bytes: &[u8]) -> Result<(Vec<Record<G>>, Scan), String> {
    let scan = scan::<G>(bytes)?;
    let rec = record_len::<G>();
    let mut records = Vec::with_capacity(scan.records());
    for f in &scan.frames {
        for i in 0..f.count {
            let at = f.offset + i * rec;
            records.push(read_record::<G>(&bytes[at..at + rec])?);
        }
    }
    Ok((records, scan))
}
