//! The quantised network: its file format and a reference evaluation from scratch.
//!
//! Architecture: `FEATURES → HIDDEN` (one weight matrix shared by both perspectives), the two
//! accumulators concatenated with the side to move's first, SCReLU (`clamp(x, 0, 1)²`), one linear
//! output. In integers: accumulators in units of 1/[`QA`], output weights in units of 1/[`QB`];
//! the output, in units of 1/(QA·QB), times [`SCALE`] is centipawns.
//!
//! File (little-endian): `TSUBNNUE`, version `u16` (2), the game's name padded to 20 bytes, feature
//! count `u32`, hidden size `u32`, feature set `u32` ([`FeatureSet::code`]); the feature weights
//! (`i16`, feature-major), the hidden biases (`i16`), the output weights (`i16`, 2 × hidden), the
//! output bias (`i32`); a CRC-32 of everything before it. Version 1 had no feature set field (its
//! networks are [`FeatureSet::Plain`]) and is still read.

use super::FeatureSet;
use super::simd::{self, MAX_OUT_WEIGHT};
use std::io::Read;
use std::ops::Deref;
use std::path::Path;

/// Quantisation of the first layer (its weights, biases and the accumulators).
pub const QA: i32 = 255;
/// Quantisation of the output weights.
pub const QB: i32 = 64;
/// Centipawns per unit of the network's output: the trainer fits `sigmoid(output)` to
/// `sigmoid(score / SCALE)`, so one unit of output is `SCALE` centipawns.
pub const SCALE: i32 = 400;
/// Widest accumulator the engine's search holds (per perspective).
pub const MAX_HIDDEN: usize = 512;
/// The first bytes of a network file.
pub const MAGIC: &[u8; 8] = b"TSUBNNUE";
/// Version of the file layout this build writes.
pub const VERSION: u16 = 2;
/// Bytes of the game's name in the header.
const NAME_LEN: usize = 20;
/// Bytes of the header of version 1: magic, version, the game's name, feature count and hidden
/// size.
const HEADER_V1: usize = 8 + 2 + NAME_LEN + 8;
/// Bytes of the header of version 2: version 1's and the feature set.
const HEADER_LEN: usize = HEADER_V1 + 4;

/// What a header says: its length, the feature set, the feature count and the hidden size;
/// an error for a file that is no network of a version this build reads.
fn parse_header(bytes: &[u8]) -> Result<(usize, FeatureSet, usize, usize), String> {
    if bytes.len() < HEADER_V1 || &bytes[..8] != MAGIC {
        return Err("not a tsubame network (no TSUBNNUE header)".into());
    }
    let u32_at = |i: usize| u32::from_le_bytes(bytes[i..i + 4].try_into().unwrap());
    let (f, h) = (
        u32_at(10 + NAME_LEN) as usize,
        u32_at(14 + NAME_LEN) as usize,
    );
    match u16::from_le_bytes([bytes[8], bytes[9]]) {
        1 => Ok((HEADER_V1, FeatureSet::Plain, f, h)),
        2 if bytes.len() >= HEADER_LEN => {
            let code = u32_at(HEADER_V1);
            let set = FeatureSet::from_code(code).ok_or_else(|| {
                format!("the network's feature set {code} is unknown to this build")
            })?;
            Ok((HEADER_LEN, set, f, h))
        }
        2 => Err("the network file is cut short in its header".into()),
        v => Err(format!(
            "network version {v}, this build reads 1 and {VERSION}"
        )),
    }
}

/// Reads the network file at `path` for [`Network::from_bytes`]. Only a regular file is read
/// (never a device, pipe or terminal such as `/dev/stdin` or `/dev/zero`, which would block or
/// never end), and only when its size is the one its header gives for the game it names, whose
/// feature count in the file's feature set `features` tells (`None`: a game without networks):
/// so at most the size of the largest network the engine accepts is ever read or allocated.
pub fn read_file(
    path: &Path,
    features: impl Fn(&str, FeatureSet) -> Option<usize>,
) -> Result<Vec<u8>, String> {
    let cannot = |e: std::io::Error| format!("cannot read it: {e}");
    // Checked before opening: opening a named pipe would block until someone writes to it.
    let meta = std::fs::metadata(path).map_err(cannot)?;
    let file = std::fs::File::open(path).map_err(cannot)?;
    let meta_open = file.metadata().map_err(cannot)?;
    if !meta.is_file() || !meta_open.is_file() {
        return Err("it is not a regular file".into());
    }
    let mut file = file.take(meta_open.len());
    let mut header = Vec::with_capacity(HEADER_LEN);
    (&mut file)
        .take(HEADER_LEN as u64)
        .read_to_end(&mut header)
        .map_err(cannot)?;
    let (head_len, set, _, h) = parse_header(&header)?;
    let name = String::from_utf8_lossy(&header[10..10 + NAME_LEN])
        .trim_end_matches('\0')
        .to_string();
    let Some(f) = features(&name, set) else {
        return Err(format!(
            "the network is for '{}', a game without a learned evaluation",
            name.escape_debug()
        ));
    };
    if h == 0 || h > MAX_HIDDEN {
        return Err(format!("the network's hidden size {h} is not supported"));
    }
    // Header, weights and biases (`i16`), output bias (`i32`), checksum (`u32`).
    let expected = (head_len + 2 * (f * h + h + 2 * h) + 8) as u64;
    if meta_open.len() != expected {
        return Err(format!(
            "the file has {} bytes, a {name} network ({set} features) of hidden size {h} has \
             {expected}",
            meta_open.len()
        ));
    }
    let mut bytes = Vec::new();
    bytes
        .try_reserve_exact(expected as usize)
        .map_err(|e| format!("cannot read it: {e}"))?;
    bytes.extend_from_slice(&header);
    file.read_to_end(&mut bytes).map_err(cannot)?;
    if bytes.len() as u64 != expected {
        return Err(format!(
            "the file changed while read ({} of {expected} bytes)",
            bytes.len()
        ));
    }
    Ok(bytes)
}

/// One cache line of weights, the unit [`Weights`] are stored in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(C, align(64))]
struct Line([i16; LINE]);

/// Weights per cache line.
const LINE: usize = 32;

// SAFETY: `Line` is 32 `i16` (64 bytes) aligned to 64 bytes: no padding, and every bit pattern
// is a valid value.
unsafe impl bytemuck::Zeroable for Line {}
// SAFETY: as above; `Line` is `Copy`, `repr(C)` and holds no pointers.
unsafe impl bytemuck::Pod for Line {}

/// Integer weights that start on a cache line (64 bytes), so that the rows of a width that is a
/// multiple of 32 do too: each vector load of a row then reads one line, not two. (A `Vec<i16>`
/// is only 2-byte aligned; the allocator put the feature weights 16 bytes past a line, and half
/// of the accumulator updates' loads were split across two lines.) Read as a slice of `i16`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Weights {
    lines: Vec<Line>,
    len: usize,
}

impl Deref for Weights {
    type Target = [i16];

    #[inline(always)]
    fn deref(&self) -> &[i16] {
        &bytemuck::cast_slice::<Line, i16>(&self.lines)[..self.len]
    }
}

impl FromIterator<i16> for Weights {
    fn from_iter<I: IntoIterator<Item = i16>>(iter: I) -> Self {
        let mut lines = Vec::new();
        let mut len = 0;
        for w in iter {
            if len % LINE == 0 {
                lines.push(Line([0; LINE]));
            }
            lines[len / LINE].0[len % LINE] = w;
            len += 1;
        }
        Weights { lines, len }
    }
}

/// A quantised network as stored in a file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Network {
    /// The name of the game it evaluates, as the registry spells it.
    pub game: String,
    /// The input features it sees.
    pub feature_set: FeatureSet,
    /// Number of input features.
    pub features: usize,
    /// Accumulator width per perspective.
    pub hidden: usize,
    /// Feature weights, `features × hidden`, feature-major.
    pub ft_weights: Weights,
    /// Accumulator biases, `hidden`.
    pub ft_bias: Vec<i16>,
    /// Output weights, `2 × hidden` (side to move's half first).
    pub out_weights: Weights,
    /// Output bias, in units of 1/(QA·QB).
    pub out_bias: i32,
}

impl Network {
    /// The file's bytes.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = Vec::new();
        out.extend_from_slice(MAGIC);
        out.extend_from_slice(&VERSION.to_le_bytes());
        let mut name = [0u8; NAME_LEN];
        let n = self.game.len().min(NAME_LEN);
        name[..n].copy_from_slice(&self.game.as_bytes()[..n]);
        out.extend_from_slice(&name);
        out.extend_from_slice(&(self.features as u32).to_le_bytes());
        out.extend_from_slice(&(self.hidden as u32).to_le_bytes());
        out.extend_from_slice(&self.feature_set.code().to_le_bytes());
        for w in self
            .ft_weights
            .iter()
            .chain(&self.ft_bias)
            .chain(self.out_weights.iter())
        {
            out.extend_from_slice(&w.to_le_bytes());
        }
        out.extend_from_slice(&self.out_bias.to_le_bytes());
        let crc = crc32fast::hash(&out);
        out.extend_from_slice(&crc.to_le_bytes());
        out
    }

    /// The game a network file's header names, read without checking the rest of the file.
    pub fn game_in_header(bytes: &[u8]) -> Result<String, String> {
        if bytes.len() < 10 + NAME_LEN || &bytes[..8] != MAGIC {
            return Err("not a tsubame network (no TSUBNNUE header)".into());
        }
        Ok(String::from_utf8_lossy(&bytes[10..10 + NAME_LEN])
            .trim_end_matches('\0')
            .to_string())
    }

    /// Reads a network file, checking its header, size and checksum; `game` must be the one
    /// the caller expects, the feature count the one `features` gives for the file's feature
    /// set, and the hidden size `hidden` (`None`: any).
    pub fn from_bytes(
        bytes: &[u8],
        game: &str,
        features: impl Fn(FeatureSet) -> usize,
        hidden: Option<usize>,
    ) -> Result<Network, String> {
        if bytes.len() < HEADER_V1 + 8 || &bytes[..8] != MAGIC {
            return Err("not a tsubame network (no TSUBNNUE header)".into());
        }
        let (body, crc) = bytes.split_at(bytes.len() - 4);
        if crc32fast::hash(body) != u32::from_le_bytes(crc.try_into().unwrap()) {
            return Err("the network file is damaged (checksum mismatch)".into());
        }
        let (head, feature_set, f, h) = parse_header(body)?;
        let name = String::from_utf8_lossy(&bytes[10..10 + NAME_LEN])
            .trim_end_matches('\0')
            .to_string();
        if name != game {
            return Err(format!("the network is for {name}, not {game}"));
        }
        let want = features(feature_set);
        if f != want {
            return Err(format!(
                "the network has {f} input features, {game} needs {want} for {feature_set} features"
            ));
        }
        if h == 0 || h > MAX_HIDDEN || hidden.is_some_and(|want| want != h) {
            return Err(format!("the network's hidden size {h} is not supported"));
        }
        let count = f * h + h + 2 * h;
        if body.len() != head + 2 * count + 4 {
            return Err(format!(
                "the network file has {} bytes, {} expected",
                bytes.len(),
                head + 2 * count + 8
            ));
        }
        let mut values = body[head..head + 2 * count]
            .chunks_exact(2)
            .map(|c| i16::from_le_bytes([c[0], c[1]]));
        let ft_weights: Weights = values.by_ref().take(f * h).collect();
        let ft_bias: Vec<i16> = values.by_ref().take(h).collect();
        let out_weights: Weights = values.by_ref().take(2 * h).collect();
        let out_bias = i32::from_le_bytes(body[head + 2 * count..].try_into().unwrap());
        if let Some(w) = out_weights.iter().find(|w| w.abs() > MAX_OUT_WEIGHT) {
            return Err(format!(
                "an output weight is {w}, beyond the ±{MAX_OUT_WEIGHT} the engine computes with"
            ));
        }
        Ok(Network {
            game: name,
            feature_set,
            features: f,
            hidden: h,
            ft_weights,
            ft_bias,
            out_weights,
            out_bias,
        })
    }

    /// The rows of the features `active`.
    pub fn rows<'a>(&'a self, active: &'a [u16]) -> impl Iterator<Item = &'a [i16]> + 'a {
        active
            .iter()
            .map(|&f| &self.ft_weights[f as usize * self.hidden..][..self.hidden])
    }

    /// Sets `acc` (of `hidden` values) to the accumulator of one perspective with the given
    /// active features, without allocating.
    pub fn accumulate_into(&self, acc: &mut [i16], active: &[u16]) {
        acc.copy_from_slice(&self.ft_bias);
        for chunk in active.chunks(8) {
            let mut rows: [&[i16]; 8] = [&[]; 8];
            for (r, row) in rows.iter_mut().zip(self.rows(chunk)) {
                *r = row;
            }
            simd::add_rows(acc, &rows[..chunk.len()]);
        }
    }

    /// The accumulator of one perspective with the given active features.
    pub fn accumulate(&self, active: &[u16]) -> Vec<i16> {
        let mut acc = vec![0; self.hidden];
        self.accumulate_into(&mut acc, active);
        acc
    }

    /// Brings an accumulator up to date after a move: subtracts the rows of the features that
    /// went off, adds those that came on.
    pub fn update(&self, acc: &mut [i16], removed: &[u16], added: &[u16]) {
        let subs: Vec<&[i16]> = self.rows(removed).collect();
        let adds: Vec<&[i16]> = self.rows(added).collect();
        let src = acc.to_vec();
        simd::update(acc, &src, &subs, &adds);
    }

    /// The output in centipawns for the side to move, from both accumulators (the side to
    /// move's first).
    pub fn output(&self, us: &[i16], them: &[i16]) -> i32 {
        let (w_us, w_them) = self.out_weights.split_at(self.hidden);
        let sum = simd::screlu_dot(us, w_us) + simd::screlu_dot(them, w_them);
        let raw = sum / QA as i64 + self.out_bias as i64;
        (raw * SCALE as i64 / (QA as i64 * QB as i64)) as i32
    }

    /// The evaluation from scratch of a position whose perspectives have these active features.
    pub fn evaluate(&self, us: &[u16], them: &[u16]) -> i32 {
        self.output(&self.accumulate(us), &self.accumulate(them))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tiny() -> Network {
        Network {
            game: "testgame".into(),
            feature_set: FeatureSet::Plain,
            features: 3,
            hidden: 2,
            ft_weights: [100, -50, 20, 30, -5, 255].into_iter().collect(),
            ft_bias: vec![10, 0],
            out_weights: [64, -32, 16, 8].into_iter().collect(),
            out_bias: 1000,
        }
    }

    #[test]
    fn a_network_survives_its_file() {
        let n = tiny();
        let bytes = n.to_bytes();
        assert_eq!(
            Network::from_bytes(&bytes, "testgame", |_| 3, None),
            Ok(n.clone())
        );
        assert!(
            Network::from_bytes(&bytes, "othergame", |_| 3, None)
                .unwrap_err()
                .contains("testgame")
        );
        assert!(Network::from_bytes(&bytes, "testgame", |_| 4, None).is_err());
        assert!(Network::from_bytes(&bytes, "testgame", |_| 3, Some(8)).is_err());
        let mut bad = bytes.clone();
        bad[40] ^= 1;
        assert!(
            Network::from_bytes(&bad, "testgame", |_| 3, None)
                .unwrap_err()
                .contains("damaged")
        );
        assert!(Network::from_bytes(&bytes[..bytes.len() - 3], "testgame", |_| 3, None).is_err());
    }

    #[test]
    fn the_feature_set_is_read_from_the_file() {
        let mut n = tiny();
        n.feature_set = FeatureSet::KingBuckets;
        n.features = 6;
        n.ft_weights = (0..12).collect();
        let bytes = n.to_bytes();
        let count = |set| match set {
            FeatureSet::Plain => 3,
            FeatureSet::KingBuckets => 6,
            FeatureSet::KingRegions => 9,
        };
        assert_eq!(Network::from_bytes(&bytes, "testgame", count, None), Ok(n));
        // A game whose king buckets have another count refuses it, naming the set.
        let err = Network::from_bytes(&bytes, "testgame", |_| 3, None).unwrap_err();
        assert!(err.contains("king-buckets"), "{err}");
        // An unknown set is refused (the checksum made right, so that only the set is wrong).
        let mut bad = bytes[..bytes.len() - 4].to_vec();
        bad[HEADER_V1] = 7;
        let crc = crc32fast::hash(&bad);
        bad.extend_from_slice(&crc.to_le_bytes());
        let err = Network::from_bytes(&bad, "testgame", count, None).unwrap_err();
        assert!(err.contains("feature set 7"), "{err}");
    }

    #[test]
    fn a_version_1_file_is_read_as_plain() {
        // Version 1: no feature set field.
        let v2 = tiny().to_bytes();
        let mut v1 = v2[..HEADER_V1].to_vec();
        v1[8..10].copy_from_slice(&1u16.to_le_bytes());
        v1.extend_from_slice(&v2[HEADER_LEN..v2.len() - 4]);
        let crc = crc32fast::hash(&v1);
        v1.extend_from_slice(&crc.to_le_bytes());
        assert_eq!(
            Network::from_bytes(&v1, "testgame", |_| 3, None),
            Ok(tiny())
        );
        let mut v3 = v2.clone();
        v3[8] = 3;
        let body = &v3[..v3.len() - 4];
        let crc = crc32fast::hash(body);
        let n = v3.len();
        v3[n - 4..].copy_from_slice(&crc.to_le_bytes());
        let err = Network::from_bytes(&v3, "testgame", |_| 3, None).unwrap_err();
        assert!(err.contains("version 3"), "{err}");
    }

    #[test]
    fn weights_read_back_what_was_put_in() {
        // Weights read back what was put in, whatever the length.
        let w: Weights = (0..77).collect();
        assert_eq!(&w[..], (0..77).collect::<Vec<i16>>().as_slice());
    }

    #[test]
    fn the_output_follows_the_formula() {
        let n = tiny();
        // us: features 0 and 2 → acc [10+100-5, 0-50+255] = [105, 205]; them: feature 1 → [30, 30].
        let (us, them) = (n.accumulate(&[0, 2]), n.accumulate(&[1]));
        assert_eq!((us.clone(), them.clone()), (vec![105, 205], vec![30, 30]));
        let sum = 105 * 105 * 64 + 205 * 205 * -32 + 30 * 30 * 16 + 30 * 30 * 8;
        let want = ((sum / 255 + 1000) as i64 * 400 / (255 * 64)) as i32;
        assert_eq!(n.output(&us, &them), want);
    }
}
