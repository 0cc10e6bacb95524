//! How the process gets its memory back from the C library.
//!
//! Each search thread's history tables (13 MB, `search::history`) are made for every session of
//! `tsubame serve` and every new game, and freed after. glibc's allocator serves such a block
//! with its own mapping the first time, but then raises its mapping threshold to the size of the
//! block freed (up to 32 MiB), so that the next ones come from its per-thread heaps, which keep
//! them resident once freed: a page server playing and analysing in four tabs for four minutes
//! grew from 26 MiB to 289 MiB and kept 170 MiB after the tabs closed, none of it in use
//! (`malloc_trim` gave it back). With the threshold fixed at glibc's own starting value every
//! large block is mapped and unmapped, and resident memory follows what the engine holds.

/// Fixes the C library's threshold for mapping large blocks (glibc on Linux; elsewhere
/// nothing to do), so that freed tables go back to the system. Call once, first thing.
pub fn return_freed_tables() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    {
        // `mallopt`'s parameter number for the mapping threshold (glibc's malloc.h), and
        // glibc's starting value of it, in bytes.
        const M_MMAP_THRESHOLD: i32 = -3;
        const MMAP_THRESHOLD: i32 = 128 * 1024;
        unsafe extern "C" {
            fn mallopt(param: i32, value: i32) -> i32;
        }
        // SAFETY: `mallopt` is glibc's, with its C signature; setting the threshold is valid at
        // any time, and a refusal (return value 0) leaves glibc's default behaviour.
        unsafe {
            mallopt(M_MMAP_THRESHOLD, MMAP_THRESHOLD);
        }
    }
}
