//! The mate solver's transposition table: a fixed number of buckets, allocated once, indexed by the
//! position's board key (hands left out) so that entries differing only in the attacker's hand sit in
//! the same bucket and hand dominance can be checked there.
//!
//! An entry is keyed by (board key, attacker's packed hand). It holds the working proof and disproof
//! numbers of that exact position, and two solved facts that also apply to dominated hands:
//! "mate within `proof_len` plies" (for every attacker hand containing the entry's hand) and
//! "no mate within `dis_len` plies" (for every attacker hand contained in it). A disproof that depends
//! on a repetition on the current path is stored only with a hash of that path and is used for
//! nothing else.

use std::sync::atomic::{AtomicBool, Ordering};

use crate::core::zeroed::ZeroedSlice;

/// Proof or disproof number "infinity".
pub const INF: u32 = 1 << 30;
/// No proof length known.
pub const NO_LEN: u16 = u16::MAX;
/// A disproof that does not depend on the path.
pub const NO_REP: u16 = u16::MAX;

const HIGH: u64 = 0x8080_8080_8080_8080;

/// True when hand `a` holds at least the pieces of hand `b` (every byte count of `a` ≥ that of `b`).
#[inline(always)]
pub fn hand_ge(a: u64, b: u64) -> bool {
    ((a | HIGH).wrapping_sub(b & !HIGH)) & HIGH == HIGH
}

/// Per kind, the larger count.
#[inline]
pub fn hand_max(a: u64, b: u64) -> u64 {
    bytewise(a, b, |x, y| x.max(y))
}

/// Per kind, the smaller count.
#[inline]
pub fn hand_min(a: u64, b: u64) -> u64 {
    bytewise(a, b, |x, y| x.min(y))
}

/// Total pieces of a packed hand.
#[inline]
pub fn hand_total(a: u64) -> u32 {
    a.to_le_bytes().iter().map(|&c| c as u32).sum()
}

/// Applies `f` to each pair of byte counts.
#[inline]
pub fn bytewise(a: u64, b: u64, f: impl Fn(u8, u8) -> u8) -> u64 {
    let (a, b) = (a.to_le_bytes(), b.to_le_bytes());
    let mut r = [0u8; 8];
    for i in 0..8 {
        r[i] = f(a[i], b[i]);
    }
    u64::from_le_bytes(r)
}

/// What the table knows about a position for a search allowing `d` more plies.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Look {
    /// Proof number (0: proven within the bound).
    pub pn: u32,
    /// Disproof number (0: disproven within the bound).
    pub dn: u32,
    /// When proven: the length of a known mate.
    pub proof_len: u16,
    /// When disproven: no mate exists within this many plies.
    pub dis_len: u16,
    /// When proven: the attacker's hand that suffices; when disproven: the largest hand for which
    /// the disproof holds.
    pub hand: u64,
    /// When the disproof depends on a repetition on the current path: the path index (plies from
    /// the search root) of the earliest repeated position; [`NO_REP`] otherwise.
    pub rep: u16,
}

impl Look {
    /// An unexplored position.
    pub const fn unknown(pn: u32, dn: u32) -> Look {
        Look {
            pn,
            dn,
            proof_len: NO_LEN,
            dis_len: 0,
            hand: 0,
            rep: NO_REP,
        }
    }

    /// Proven: mate in `len` plies with attacker hand `hand`.
    pub const fn proven(len: u16, hand: u64) -> Look {
        Look {
            pn: 0,
            dn: INF,
            proof_len: len,
            dis_len: 0,
            hand,
            rep: NO_REP,
        }
    }

    /// Disproven: no mate within `len` plies for attacker hands within `hand`.
    pub const fn disproven(len: u16, hand: u64, rep: u16) -> Look {
        Look {
            pn: INF,
            dn: 0,
            proof_len: NO_LEN,
            dis_len: len,
            hand,
            rep,
        }
    }
}

/// One table entry (40 bytes; its board key is kept apart, in its bucket's tags).
#[derive(Clone, Copy, Default)]
#[repr(C)]
struct Entry {
    hand: u64,
    /// Hash of the path for which a repetition-dependent disproof holds (0: none).
    path: u64,
    pn: u32,
    dn: u32,
    /// Search effort spent on this entry, for replacement.
    amount: u32,
    proof_len: u16,
    dis_len: u16,
    rep_len: u16,
    rep_ply: u16,
    best: u16,
    _unused: u16,
}

// SAFETY: `repr(C)` integers without padding (40 bytes).
unsafe impl bytemuck::Zeroable for Entry {}
// SAFETY: as above; any bytes are a valid entry.
unsafe impl bytemuck::Pod for Entry {}

const BUCKET: usize = 8;

/// One cache line of the table's memory.
#[derive(Clone, Copy, Default)]
#[repr(C, align(64))]
struct Line([u64; 8]);

// SAFETY: integers only, no padding; all zero is a line of empty keys.
unsafe impl bytemuck::Zeroable for Line {}
// SAFETY: as above; any bytes are a valid line.
unsafe impl bytemuck::Pod for Line {}

/// The cache lines of one bucket's entries.
const ENTRY_LINES: usize = BUCKET * std::mem::size_of::<Entry>() / std::mem::size_of::<Line>();

/// Buckets whose keys are emptied between two reads of the stop flag (1 MiB of keys).
const CLEAR_SLICE: usize = 1 << 14;

/// The transposition table. Its memory holds first the board keys of every bucket, one cache
/// line per bucket, then the buckets' entries, [`ENTRY_LINES`] lines each: a lookup reads the
/// keys (a compact region, kind to the address-translation cache), then only the entries whose
/// key matches. An entry is read only behind a matching key and rewritten whole when its slot is
/// taken, so emptying the keys empties the table, whatever bytes its entries hold.
///
/// A stored key is the board key with its low byte replaced by the table's generation (1 to
/// 255): emptying the table moves to the next generation, which makes every key of an earlier
/// one a free slot that matches nothing, so that a solve does not begin by writing all the keys
/// (only every 255th emptying does, and the first after the memory was taken over).
pub struct Table {
    memory: ZeroedSlice<Line>,
    /// The number of buckets.
    count: usize,
    /// The generation of the keys stored now (never 0, so that zeroed keys are free slots).
    generation: u8,
    /// False while the table holds no entry of the current generation.
    used: bool,
    /// The keys may hold any bytes (memory taken over from another table): the next emptying
    /// writes them all.
    dirty: bool,
}

impl Table {
    /// A table using at most `mib` MiB (at least one bucket). Panics when the memory cannot be had;
    /// the engine and the command line use [`Table::try_new`].
    pub fn new(mib: usize) -> Table {
        Self::try_new(mib).expect("memory for the mate table")
    }

    /// A table using at most `mib` MiB (at least one bucket, so 0 gives the smallest), or an
    /// error when the memory cannot be had (the allocation is fallible: a size too large for the
    /// machine is refused, not aborted).
    pub fn try_new(mib: usize) -> Result<Table, String> {
        let lines = mib.saturating_mul(1 << 20) / std::mem::size_of::<Line>();
        let count = (lines / (1 + ENTRY_LINES)).max(1);
        // Untouched zero pages: made at once, touched only as the solver uses them.
        let memory = ZeroedSlice::new(count * (1 + ENTRY_LINES))
            .map_err(|e| format!("cannot allocate a mate table of {mib} MiB: {e}"))?;
        Ok(Table {
            memory,
            count,
            generation: 1,
            used: false,
            dirty: false,
        })
    }

    /// A table in memory taken over from another table (the engine's search table, whose pages
    /// the system has already supplied), so that `go mate` neither waits for fresh pages nor
    /// uses more memory than the budget. Its keys are emptied before its first solve. `None`
    /// when the memory holds no whole bucket.
    pub fn reusing<T: bytemuck::Zeroable>(memory: ZeroedSlice<T>) -> Option<Table> {
        let memory = memory.recast::<Line>();
        let count = memory.len() / (1 + ENTRY_LINES);
        (count > 0).then_some(Table {
            memory,
            count,
            generation: 1,
            used: true,
            dirty: true,
        })
    }

    /// The keys of bucket `b`.
    #[inline(always)]
    fn tags(&self, b: usize) -> &[u64; BUCKET] {
        &self.memory[b].0
    }

    /// The entries of bucket `b`.
    #[inline(always)]
    fn entries(&self, b: usize) -> &[Entry; BUCKET] {
        let at = self.count + b * ENTRY_LINES;
        let lines: &[Line; ENTRY_LINES] = self.memory[at..at + ENTRY_LINES]
            .try_into()
            .expect("a bucket's lines");
        bytemuck::cast_ref(lines)
    }

    /// The keys and the entries of bucket `b`, to change.
    #[inline(always)]
    fn bucket_mut(&mut self, b: usize) -> (&mut [u64; BUCKET], &mut [Entry; BUCKET]) {
        let (keys, rest) = self.memory.split_at_mut(self.count);
        let at = b * ENTRY_LINES;
        let lines: &mut [Line; ENTRY_LINES] = (&mut rest[at..at + ENTRY_LINES])
            .try_into()
            .expect("a bucket's lines");
        (&mut keys[b].0, bytemuck::cast_mut(lines))
    }

    /// Has the system supply the table's pages now rather than during a solve (see
    /// [`ZeroedSlice::fault_in`]); the entries are unchanged.
    pub fn fault_in(&mut self) {
        self.memory.fault_in();
    }

    /// Empties the table (each solve starts from an empty table, so its answer does not depend on
    /// earlier solves).
    pub fn clear(&mut self) {
        let never = AtomicBool::new(false);
        self.clear_unless_stopped(&never);
    }

    /// Empties the table: moves to the next generation, or, every 255th time (and when the keys
    /// hold any bytes), writes every key, slice by slice, reading `stop` between slices; false
    /// when `stop` was set before the end (the table then still counts as used).
    pub fn clear_unless_stopped(&mut self, stop: &AtomicBool) -> bool {
        if !self.used && !self.dirty {
            return true;
        }
        if self.generation < u8::MAX && !self.dirty {
            self.generation += 1;
            self.used = false;
            return true;
        }
        let count = self.count;
        for slice in self.memory[..count].chunks_mut(CLEAR_SLICE) {
            if stop.load(Ordering::Relaxed) {
                return false;
            }
            slice.fill(Line::default());
        }
        self.generation = 1;
        self.used = false;
        self.dirty = false;
        true
    }

    /// Bytes allocated.
    pub fn bytes(&self) -> usize {
        self.memory.len() * std::mem::size_of::<Line>()
    }

    /// The index of the bucket of `board` (any number of buckets: the key's high bits scaled
    /// to the table's length).
    #[inline(always)]
    fn bucket(&self, board: u64) -> usize {
        ((board as u128 * self.count as u128) >> 64) as usize
    }

    /// The stored key of `board`: its low byte is the generation.
    #[inline(always)]
    fn tag(&self, board: u64) -> u64 {
        board & !0xff | self.generation as u64
    }

    /// True when a stored key belongs to the current generation (a slot in use).
    #[inline(always)]
    fn live(&self, tag: u64) -> bool {
        tag as u8 == self.generation
    }

    /// Asks the processor to fetch the bucket of `board` into the cache, so that a lookup of it a
    /// little later does not wait for memory (the solver prefetches all children of a node before
    /// looking any of them up).
    #[inline(always)]
    pub fn prefetch(&self, board: u64) {
        #[cfg(target_arch = "x86_64")]
        {
            use std::arch::x86_64::{_MM_HINT_T0, _mm_prefetch};
            let keys: *const [u64; BUCKET] = self.tags(self.bucket(board));
            // SAFETY: prefetching is a hint that never faults, and SSE is part of x86-64.
            unsafe { _mm_prefetch::<_MM_HINT_T0>(keys.cast::<i8>()) };
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = board;
    }

    /// Looks up the position (`board`, attacker hand `hand`) for a search allowing `d` more plies
    /// along the path whose hash is `path`; `None` when nothing applies.
    pub fn lookup(&self, board: u64, hand: u64, d: u16, path: u64) -> Option<(Look, u16)> {
        let tag = self.tag(board);
        let mut exact: Option<&Entry> = None;
        let mut proof: Option<Look> = None;
        let mut dis: Option<Look> = None;
        let b = self.bucket(board);
        for (i, &t) in self.tags(b).iter().enumerate() {
            if t != tag {
                continue;
            }
            let e = &self.entries(b)[i];
            if e.proof_len <= d
                && hand_ge(hand, e.hand)
                && proof.is_none_or(|p| e.proof_len < p.proof_len)
            {
                proof = Some(Look::proven(e.proof_len, e.hand));
            }
            if e.dis_len >= d && e.dis_len > 0 && hand_ge(e.hand, hand) && dis.is_none() {
                dis = Some(Look::disproven(e.dis_len, e.hand, NO_REP));
            }
            if e.hand == hand {
                exact = Some(e);
            }
        }
        let best = exact.map_or(0, |e| e.best);
        if let Some(p) = proof {
            return Some((p, best));
        }
        if let Some(x) = dis {
            return Some((x, best));
        }
        let e = exact?;
        if e.path != 0 && e.path == path && d <= e.rep_len {
            return Some((Look::disproven(e.rep_len, hand, e.rep_ply), best));
        }
        if e.pn == 0 || e.dn == 0 {
            // Solved, but not within this bound: a hint only.
            return Some((Look::unknown(1, 1), best));
        }
        Some((Look::unknown(e.pn, e.dn), best))
    }

    /// Stores what a search allowing `d` plies found for (`board`, attacker hand `hand`) on the path
    /// `path`. Proofs are stored under their proof hand, disproofs under their disproof hand.
    #[allow(clippy::too_many_arguments)]
    pub fn store(
        &mut self,
        board: u64,
        hand: u64,
        d: u16,
        look: &Look,
        path: u64,
        amount: u64,
        best: u16,
    ) {
        let amount = amount.min(u32::MAX as u64) as u32;
        if look.pn == 0 {
            if look.hand != hand {
                self.forget(board, hand);
            }
            let e = self.slot(board, look.hand);
            e.proof_len = e.proof_len.min(look.proof_len);
            e.pn = 0;
            e.dn = INF;
            e.path = 0;
            e.amount = e.amount.max(amount);
            e.best = best;
        } else if look.dn == 0 && look.rep == NO_REP {
            let e = self.slot(board, look.hand);
            e.dis_len = e.dis_len.max(look.dis_len);
            if e.proof_len == NO_LEN {
                e.pn = INF;
                e.dn = 0;
            }
            e.path = 0;
            e.amount = e.amount.max(amount);
        } else if look.dn == 0 {
            // The working numbers stay: reached along another path, the position is searched on
            // from them rather than from scratch.
            let e = self.slot(board, hand);
            e.path = path | 1;
            e.rep_len = look.dis_len.max(d);
            e.rep_ply = look.rep;
            e.amount = e.amount.max(amount);
        } else {
            let e = self.slot(board, hand);
            e.pn = look.pn;
            e.dn = look.dn;
            e.path = 0;
            e.amount = e.amount.max(amount);
            e.best = best;
        }
    }

    /// Frees the exact entry of a position (its working numbers are superseded by a proof).
    fn forget(&mut self, board: u64, hand: u64) {
        let tag = self.tag(board);
        let b = self.bucket(board);
        let (tags, entries) = self.bucket_mut(b);
        for (t, e) in tags.iter_mut().zip(entries.iter()) {
            if *t == tag && e.hand == hand && e.proof_len == NO_LEN && e.dis_len == 0 {
                *t = 0;
            }
        }
    }

    /// The entry of (`board`, `hand`), or a fresh one replacing the least valuable of the bucket.
    fn slot(&mut self, board: u64, hand: u64) -> &mut Entry {
        self.used = true;
        let tag = self.tag(board);
        let generation = self.generation;
        let b = self.bucket(board);
        let (tags, bucket) = self.bucket_mut(b);
        let mut victim = 0;
        let mut worst = u64::MAX;
        for (i, e) in bucket.iter().enumerate() {
            if tags[i] == tag && e.hand == hand {
                victim = i;
                break;
            }
            let value = if tags[i] as u8 != generation {
                0
            } else {
                // Solved entries are worth more than working numbers of the same effort.
                let solved = e.proof_len != NO_LEN || e.dis_len > 0;
                1 + e.amount as u64 * if solved { 4 } else { 1 }
            };
            if value < worst {
                worst = value;
                victim = i;
            }
        }
        let e = &mut bucket[victim];
        if tags[victim] != tag || e.hand != hand {
            tags[victim] = tag;
            *e = Entry {
                hand,
                proof_len: NO_LEN,
                pn: 1,
                dn: 1,
                ..Entry::default()
            };
        }
        e
    }

    /// Permille of the first thousand slots in use.
    pub fn hashfull(&self) -> u32 {
        let n = (self.count * BUCKET).min(1000);
        let used = self.memory[..self.count]
            .iter()
            .flat_map(|line| line.0)
            .take(n)
            .filter(|&t| self.live(t))
            .count();
        (used * 1000 / n.max(1)) as u32
    }
}
