//! The transposition table: a lock-free hash table shared by all search threads.
//!
//! Layout: buckets of four 16-byte entries (one cache line). An entry is two `AtomicU64` words:
//! `check = key ^ data` and `data`; a torn write from another thread makes `check ^ data` differ from
//! the probing key, so the entry reads as a miss (the lockless XOR scheme). `data` packs:
//!
//! | bits  | field                                                   |
//! |-------|---------------------------------------------------------|
//! | 0–15  | the best move's code (`GameMove::code`, 0 for none)     |
//! | 16–31 | value (i16, mate scores relative to the node)           |
//! | 32–47 | static evaluation (i16)                                 |
//! | 48–55 | depth + 1 (0 marks an empty entry)                      |
//! | 56–57 | bound: 1 upper, 2 lower, 3 exact                        |
//! | 58–63 | generation (search number modulo 64), for aging         |

use std::sync::atomic::{AtomicU8, AtomicU64, Ordering};

use crate::core::zeroed::ZeroedSlice;

/// How a stored value bounds the true value.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Bound {
    /// The true value is at most the stored one (fail low).
    Upper = 1,
    /// The true value is at least the stored one (fail high).
    Lower = 2,
    /// The stored value is exact.
    Exact = 3,
}

/// What a probe found.
#[derive(Clone, Copy, Debug)]
pub struct TtHit {
    /// The code ([`crate::core::moves::GameMove::code`]) of the best move found at that node,
    /// 0 if none; the search turns it back into a move through the position.
    pub mv: u16,
    /// Stored value (mate scores relative to the node; see [`value_from_tt`]).
    pub value: i32,
    /// Stored static evaluation.
    pub eval: i32,
    /// Depth of the search that stored it.
    pub depth: i32,
    /// Bound type of the value.
    pub bound: Bound,
}

/// The depth quiescence stores its entries at: a deeper entry was stored by the main search.
pub const DEPTH_QS: i32 = 0;

const ENTRIES_PER_BUCKET: usize = 4;

#[repr(align(64))]
struct Bucket {
    words: [AtomicU64; 2 * ENTRIES_PER_BUCKET],
}

// SAFETY: a bucket is atomic integers only, and all zero is a valid (empty) bucket.
unsafe impl bytemuck::Zeroable for Bucket {}

/// The shared table.
pub struct TranspositionTable {
    buckets: ZeroedSlice<Bucket>,
    generation: AtomicU8,
}

fn pack(mv: u16, value: i32, eval: i32, depth: i32, bound: Bound, generation: u8) -> u64 {
    mv as u64
        | ((value as i16 as u16) as u64) << 16
        | ((eval as i16 as u16) as u64) << 32
        | ((depth + 1).clamp(1, 255) as u64) << 48
        | (bound as u64) << 56
        | ((generation & 63) as u64) << 58
}

fn unpack(data: u64) -> TtHit {
    TtHit {
        mv: data as u16,
        value: (data >> 16) as u16 as i16 as i32,
        eval: (data >> 32) as u16 as i16 as i32,
        depth: ((data >> 48) & 0xff) as i32 - 1,
        bound: match (data >> 56) & 3 {
            1 => Bound::Upper,
            2 => Bound::Lower,
            _ => Bound::Exact,
        },
    }
}

impl TranspositionTable {
    /// A table of about `mib` mebibytes (at least one bucket). Panics if memory runs out; the USI
    /// layer uses [`TranspositionTable::try_new`].
    pub fn new(mib: usize) -> TranspositionTable {
        Self::try_new(mib).expect("memory for the transposition table")
    }

    /// A table of about `mib` mebibytes (one bucket for 0), or an error when the memory cannot be
    /// had.
    pub fn try_new(mib: usize) -> Result<TranspositionTable, String> {
        let count = (mib.saturating_mul(1024 * 1024) / std::mem::size_of::<Bucket>()).max(1);
        // Untouched zero pages: made at once, touched only as the search uses them.
        let buckets =
            ZeroedSlice::new(count).map_err(|e| format!("cannot allocate {mib} MiB: {e}"))?;
        Ok(TranspositionTable {
            buckets,
            generation: AtomicU8::new(0),
        })
    }

    /// An empty table of the same size, made at once (untouched zero pages), for replacing this
    /// one at a new game rather than clearing it (which touches every page).
    pub fn emptied(&self) -> Result<TranspositionTable, String> {
        let buckets = ZeroedSlice::new(self.buckets.len())?;
        Ok(TranspositionTable {
            buckets,
            generation: AtomicU8::new(0),
        })
    }

    /// The table's memory, handed over to a table of another layout (the mate table of `go
    /// mate`, which then needs no fresh pages).
    pub fn into_memory<U: bytemuck::AnyBitPattern>(self) -> ZeroedSlice<U> {
        self.buckets.recast()
    }

    /// Has the system supply the table's pages now rather than during a search (see
    /// [`ZeroedSlice::fault_in`]); the entries are unchanged.
    pub fn fault_in(&mut self) {
        self.buckets.fault_in();
    }

    /// Size in mebibytes.
    pub fn size_mib(&self) -> usize {
        self.buckets.len() * std::mem::size_of::<Bucket>() / (1024 * 1024)
    }

    /// Empties the table (for `usinewgame`).
    pub fn clear(&self) {
        for b in self.buckets.iter() {
            for w in &b.words {
                w.store(0, Ordering::Relaxed);
            }
        }
    }

    /// Starts a new search: older entries become cheaper to replace.
    pub fn new_search(&self) {
        self.generation.fetch_add(1, Ordering::Relaxed);
    }

    fn generation(&self) -> u8 {
        self.generation.load(Ordering::Relaxed) & 63
    }

    #[inline(always)]
    fn bucket(&self, key: u64) -> &Bucket {
        let i = ((key as u128 * self.buckets.len() as u128) >> 64) as usize;
        &self.buckets[i]
    }

    /// Asks the processor to bring `key`'s bucket into the cache, so that a probe of it soon
    /// after (the child node's, right after the move is played) does not wait for memory.
    #[inline(always)]
    pub fn prefetch(&self, key: u64) {
        #[cfg(target_arch = "x86_64")]
        {
            use std::arch::x86_64::{_MM_HINT_T0, _mm_prefetch};
            let bucket: *const Bucket = self.bucket(key);
            // SAFETY: prefetching is a hint that never faults, and SSE is part of x86-64.
            unsafe { _mm_prefetch::<_MM_HINT_T0>(bucket.cast::<i8>()) };
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = key;
    }

    /// Looks up `key`.
    #[inline]
    pub fn probe(&self, key: u64) -> Option<TtHit> {
        let b = self.bucket(key);
        for e in 0..ENTRIES_PER_BUCKET {
            let check = b.words[2 * e].load(Ordering::Relaxed);
            let data = b.words[2 * e + 1].load(Ordering::Relaxed);
            if data != 0 && check ^ data == key {
                return Some(unpack(data));
            }
        }
        None
    }

    /// Stores a result for `key`, replacing the same position or else the least useful entry
    /// (shallowest, oldest).
    #[inline]
    pub fn store(&self, key: u64, mv: u16, value: i32, eval: i32, depth: i32, bound: Bound) {
        let b = self.bucket(key);
        let generation = self.generation();
        let mut victim = 0;
        let mut worst = i32::MAX;
        for e in 0..ENTRIES_PER_BUCKET {
            let check = b.words[2 * e].load(Ordering::Relaxed);
            let data = b.words[2 * e + 1].load(Ordering::Relaxed);
            if data == 0 || check ^ data == key {
                victim = e;
                if data != 0 {
                    let old = unpack(data);
                    // Keep a deeper result of the same search unless this one is exact.
                    if bound != Bound::Exact
                        && old.depth > depth + 2
                        && ((data >> 58) as u8) == generation
                    {
                        return;
                    }
                    // Keep the old move when the new result has none.
                    if mv == 0 {
                        let data = pack(old.mv, value, eval, depth, bound, generation);
                        b.words[2 * e].store(key ^ data, Ordering::Relaxed);
                        b.words[2 * e + 1].store(data, Ordering::Relaxed);
                        return;
                    }
                }
                break;
            }
            let age = (generation.wrapping_sub((data >> 58) as u8) & 63) as i32;
            let worth = unpack(data).depth - 8 * age;
            if worth < worst {
                worst = worth;
                victim = e;
            }
        }
        let data = pack(mv, value, eval, depth, bound, generation);
        b.words[2 * victim].store(key ^ data, Ordering::Relaxed);
        b.words[2 * victim + 1].store(data, Ordering::Relaxed);
    }

    /// Permille of sampled entries written by the current search (USI `hashfull`).
    pub fn hashfull(&self) -> u32 {
        let generation = self.generation();
        let sample = self.buckets.len().min(250);
        let mut used = 0;
        for b in &self.buckets[..sample] {
            for e in 0..ENTRIES_PER_BUCKET {
                let data = b.words[2 * e + 1].load(Ordering::Relaxed);
                if data != 0 && (data >> 58) as u8 == generation {
                    used += 1;
                }
            }
        }
        (used * 1000 / (sample * ENTRIES_PER_BUCKET).max(1)) as u32
    }
}

/// Converts a value to store: mate scores become relative to the node at `ply`.
pub fn value_to_tt(value: i32, ply: usize) -> i32 {
    use super::value::is_mate_score;
    if is_mate_score(value) {
        if value > 0 {
            value + ply as i32
        } else {
            value - ply as i32
        }
    } else {
        value
    }
}

impl TtHit {
    /// A better guess than the evaluation `eval` of the node's value: the stored value where its
    /// bound says the true value lies beyond `eval` (exact, a lower bound above it or an upper
    /// bound below it), else `eval`. A mate score is never taken for an evaluation.
    #[inline]
    pub fn refine(&self, eval: i32) -> i32 {
        use super::value::is_mate_score;
        // Not a mate score, so the stored value needs no conversion to the root-relative form.
        let beyond = !is_mate_score(self.value)
            && match self.bound {
                Bound::Exact => true,
                Bound::Lower => self.value > eval,
                Bound::Upper => self.value < eval,
            };
        if beyond { self.value } else { eval }
    }

    /// True when the entry shows that the side to move has no mate in one the game's test finds,
    /// `ply` plies from the root: every node of the main search and of quiescence that is not in
    /// check asks that test before it stores, and returns a mate in one when it finds one, so an
    /// entry of the position whose value is anything else was stored after the test found none
    /// (and its answer cannot differ for the same position).
    #[inline]
    pub fn rules_out_mate_in_one(&self, ply: usize) -> bool {
        value_from_tt(self.value, ply) != super::value::mate_in(ply + 1)
    }
}

/// Converts a stored value back to the root-relative form at `ply`.
pub fn value_from_tt(value: i32, ply: usize) -> i32 {
    use super::value::is_mate_score;
    if is_mate_score(value) {
        if value > 0 {
            value - ply as i32
        } else {
            value + ply as i32
        }
    } else {
        value
    }
}
