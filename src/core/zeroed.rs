//! Large zero-filled tables that cost nothing until used.
//!
//! The transposition tables want cache-line-aligned buckets, and the standard allocator zeroes
//! memory of that alignment by writing every byte: a 1 GiB table took half a second to make and
//! as long to free, during which `stop` went unanswered. An anonymous memory mapping instead gives
//! pages that the system zeroes on first touch, so a table is made at once and only the part the
//! search uses is ever touched.
//!
//! Where the system is slow to supply pages (a large page is zeroed when first touched, 1–2 ms
//! each on some machines), a search that touches a fresh table at random pays that on most of its
//! first nodes; [`ZeroedSlice::fault_in`] pays it up front instead, at `isready`, as engines do.
//!
//! The browser build (wasm32) has no mappings: there the memory is the allocator's, zeroed, and
//! `fault_in` does nothing.

use std::marker::PhantomData;
use std::ops::{Deref, DerefMut};

use bytemuck::Zeroable;

use pages::Pages;

/// The size of a small page: writing one byte of each makes the system supply all of them.
const PAGE: usize = 4096;

/// Zero-filled memory aligned to [`PAGE`]: natively an anonymous memory mapping.
#[cfg(not(target_arch = "wasm32"))]
mod pages {
    pub use memmap2::MmapMut as Pages;

    /// The size of a large page (x86-64 and most 64-bit systems): smaller tables are not worth
    /// one.
    #[cfg(target_os = "linux")]
    const HUGE_PAGE: usize = 2 << 20;

    /// `bytes` (more than 0) zero bytes, or why the memory cannot be had.
    pub fn zeroed(bytes: usize) -> Result<Pages, String> {
        let map = Pages::map_anon(bytes).map_err(|e| e.to_string())?;
        // Large pages where the system offers them on request: a table probed at random
        // addresses then misses the address-translation cache far less often. Only a hint;
        // the table works the same without.
        #[cfg(target_os = "linux")]
        if bytes >= HUGE_PAGE {
            let _ = map.advise(memmap2::Advice::HugePage);
        }
        Ok(map)
    }

    /// Has the system supply every page now, on all cores. Each page's first byte is written
    /// back as it is: the values are unchanged.
    pub fn fault_in(map: &mut Pages) {
        use rayon::prelude::*;
        map.par_chunks_mut(super::PAGE).for_each(|page| {
            let first: *mut u8 = &mut page[0];
            // SAFETY: `first` points to a byte of the mapping, borrowed mutably here. Volatile,
            // so that writing back the same value is not left out.
            unsafe { first.write_volatile(first.read_volatile()) }
        });
    }
}

/// Zero-filled memory aligned to [`PAGE`]: on wasm32, which has no mappings, zeroed memory from
/// the allocator (linear memory the module grows is zero already, so nothing is written).
#[cfg(target_arch = "wasm32")]
mod pages {
    use std::alloc::Layout;
    use std::ops::{Deref, DerefMut};
    use std::ptr::NonNull;

    /// `layout.size()` zero bytes at `ptr`, owned, freed when dropped.
    pub struct Pages {
        ptr: NonNull<u8>,
        layout: Layout,
    }

    // SAFETY: `Pages` owns its memory alone, like a `Box<[u8]>`.
    unsafe impl Send for Pages {}
    // SAFETY: shared access only reads, like a `Box<[u8]>`'s.
    unsafe impl Sync for Pages {}

    /// `bytes` (more than 0) zero bytes, or why the memory cannot be had.
    pub fn zeroed(bytes: usize) -> Result<Pages, String> {
        let layout = Layout::from_size_align(bytes, super::PAGE).map_err(|e| e.to_string())?;
        // SAFETY: `layout` has a size above 0.
        let ptr = NonNull::new(unsafe { std::alloc::alloc_zeroed(layout) })
            .ok_or_else(|| format!("cannot allocate {bytes} bytes"))?;
        Ok(Pages { ptr, layout })
    }

    /// Nothing to do: the module's memory has no pages for a system to supply later.
    pub fn fault_in(_: &mut Pages) {}

    impl Deref for Pages {
        type Target = [u8];

        fn deref(&self) -> &[u8] {
            // SAFETY: `ptr` holds `layout.size()` initialised bytes, owned by `self`.
            unsafe { std::slice::from_raw_parts(self.ptr.as_ptr(), self.layout.size()) }
        }
    }

    impl DerefMut for Pages {
        fn deref_mut(&mut self) -> &mut [u8] {
            // SAFETY: as in `deref`, borrowed mutably with `self`.
            unsafe { std::slice::from_raw_parts_mut(self.ptr.as_ptr(), self.layout.size()) }
        }
    }

    impl Drop for Pages {
        fn drop(&mut self) {
            // SAFETY: allocated in `zeroed` with this layout, freed once.
            unsafe { std::alloc::dealloc(self.ptr.as_ptr(), self.layout) }
        }
    }
}

/// A slice of `len` values of `T`, all zero at first, in pages of its own.
pub struct ZeroedSlice<T: Zeroable> {
    /// `None` for an empty slice (a mapping cannot be empty).
    map: Option<Pages>,
    len: usize,
    _values: PhantomData<T>,
}

impl<T: Zeroable> ZeroedSlice<T> {
    /// `len` zero values, or an error when the memory cannot be had.
    pub fn new(len: usize) -> Result<Self, String> {
        assert!(
            std::mem::align_of::<T>() <= 4096,
            "pages are aligned to 4096 bytes"
        );
        let bytes = len
            .checked_mul(std::mem::size_of::<T>())
            .ok_or_else(|| "the size overflows".to_string())?;
        let map = if bytes == 0 {
            None
        } else {
            Some(pages::zeroed(bytes)?)
        };
        Ok(ZeroedSlice {
            map,
            len,
            _values: PhantomData,
        })
    }
}

impl<T: Zeroable> ZeroedSlice<T> {
    /// Has the system supply every page now (on all cores), so that later use finds them in
    /// memory. Each page's first byte is written back as it is: the values are unchanged.
    pub fn fault_in(&mut self) {
        if let Some(map) = &mut self.map {
            pages::fault_in(map);
        }
    }
}

impl<T: Zeroable> ZeroedSlice<T> {
    /// The same memory as a slice of as many `U` as fit in it, for handing one table's memory
    /// (pages already supplied) to a table of another layout. The values are whatever bytes are
    /// there, which `U: AnyBitPattern` makes valid.
    pub fn recast<U: bytemuck::AnyBitPattern>(self) -> ZeroedSlice<U> {
        assert!(
            std::mem::align_of::<U>() <= 4096,
            "pages are aligned to 4096 bytes"
        );
        let bytes = self.len * std::mem::size_of::<T>();
        let len = bytes / std::mem::size_of::<U>().max(1);
        ZeroedSlice {
            map: if len == 0 { None } else { self.map },
            len,
            _values: PhantomData,
        }
    }
}

impl<T: Zeroable> Deref for ZeroedSlice<T> {
    type Target = [T];

    fn deref(&self) -> &[T] {
        match &self.map {
            // SAFETY: the mapping is page-aligned (enough for `T`, checked in `new` and
            // `recast`), holds at least `len * size_of::<T>()` bytes, was zero-filled by the
            // system, and all zero is a valid `T` (`Zeroable`; after `recast`, any bytes are:
            // `AnyBitPattern`); it lives as long as `self`.
            Some(map) => unsafe { std::slice::from_raw_parts(map.as_ptr().cast::<T>(), self.len) },
            None => &[],
        }
    }
}

impl<T: Zeroable> DerefMut for ZeroedSlice<T> {
    fn deref_mut(&mut self) -> &mut [T] {
        match &mut self.map {
            // SAFETY: as in `deref`, and the mapping is borrowed mutably with `self`.
            Some(map) => unsafe {
                std::slice::from_raw_parts_mut(map.as_mut_ptr().cast::<T>(), self.len)
            },
            None => &mut [],
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tables_start_zeroed_and_keep_what_is_written() {
        let mut s = ZeroedSlice::<[u64; 8]>::new(100_000).unwrap();
        assert_eq!(s.len(), 100_000);
        assert!(s.iter().all(|b| b.iter().all(|&w| w == 0)));
        s[99_999][7] = 5;
        assert_eq!(s[99_999][7], 5);
        assert_eq!(s.as_ptr() as usize % 64, 0);
        assert!(ZeroedSlice::<u64>::new(0).unwrap().is_empty());
        assert!(ZeroedSlice::<u64>::new(usize::MAX).is_err());
    }

    #[test]
    fn recasting_keeps_the_memory_and_counts_whole_values() {
        let mut s = ZeroedSlice::<u64>::new(1000).unwrap();
        s[8] = 7;
        let at = s.as_ptr() as usize;
        let lines = s.recast::<[u64; 8]>();
        assert_eq!(lines.len(), 125);
        assert_eq!(lines.as_ptr() as usize, at);
        assert_eq!(lines[1][0], 7);
        let few = ZeroedSlice::<u8>::new(63).unwrap().recast::<[u64; 8]>();
        assert!(few.is_empty());
    }

    #[test]
    fn faulting_in_keeps_the_table_zero() {
        let mut s = ZeroedSlice::<[u64; 8]>::new(300_000).unwrap();
        s[64][0] = 9; // the first byte of the second page
        s.fault_in();
        assert_eq!(s[64][0], 9);
        s[64][0] = 0;
        assert!(s.iter().all(|b| b.iter().all(|&w| w == 0)));
        ZeroedSlice::<u64>::new(0).unwrap().fault_in();
    }
}
