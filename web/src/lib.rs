//! tsubame's engine as a WebAssembly module: the USI loop behind a C ABI that a page, a Web Worker
//! or node drives one line at a time. Built for `wasm32-unknown-unknown`:
//!
//! ```text
//! cargo build --release --target wasm32-unknown-unknown -p tsubame-web
//! # → target/wasm32-unknown-unknown/release/tsubame_web.wasm
//! ```
//!
//! Natively the crate is empty (every item is `#[cfg(target_arch = "wasm32")]`), so the workspace's
//! native builds and tests pay nothing for it.
//!
//! # Imports
//!
//! - `env.tsubame_now_ms() -> f64`: the host's monotonic clock in milliseconds
//!   (`performance.now()`), read by the search's time control and the mate solver's time limit
//!   (see `tsubame::core::clock`).
//!
//! # Exports
//!
//! - `memory`: the module's linear memory. It may grow during any call (the hash tables are
//!   allocated in it): read `memory.buffer` again after each call.
//! - `tsubame_alloc(len: usize) -> *mut u8`: a buffer of `len` bytes for the host to write a
//!   command into; free it with `tsubame_free(ptr, len)` (null when `len` is 0).
//! - `tsubame_free(ptr: *mut u8, len: usize)`: frees a buffer from `tsubame_alloc` (the same
//!   `len`).
//! - `tsubame_usi(ptr: *const u8, len: usize) -> *const u8`: feeds the `len` bytes at `ptr` to the
//!   engine as USI input, one command per line (`\n` or `\r\n` ends a line; one line without an
//!   end is one command), and returns the start of everything the engine printed for them, UTF-8,
//!   each line ending in `\n`. The text stays valid until the next call of `tsubame_usi`; its
//!   length in bytes is `tsubame_reply_len()`. A line that is not valid UTF-8 is answered with an
//!   error and ignored, as the native loop does.
//! - `tsubame_reply_len() -> usize`: the length of the last reply.
//!
//! The engine is made at the first call (the default game, options at their defaults) and kept
//! from call to call; after `quit` the next call starts a fresh one.
//!
//! # Threads
//!
//! The module has one thread: a search, a mate search or a perft runs on it, inside the call
//! that starts it (see `tsubame::core::job`), so `go depth 6` or `go mate 5000` returns with its
//! answer. `stop` and `ponderhit` can therefore only come after the command has answered: `go
//! infinite` and `go ponder` answer when their search ends by its own limits (give them a
//! depth or node limit), and `Threads` above 1 searches with one thread. A trap (a bug in the
//! engine) leaves the instance unusable: instantiate the module again.

#[cfg(target_arch = "wasm32")]
mod exports {
    use std::cell::RefCell;
    use std::sync::{Arc, Mutex};

    use tsubame::usi::{Output, Usi};

    /// The engine and the buffer its output goes to.
    struct State {
        usi: Usi,
        printed: Arc<Mutex<Vec<u8>>>,
    }

    thread_local! {
        /// The engine, made at the first line and dropped at `quit`.
        static ENGINE: RefCell<Option<State>> = const { RefCell::new(None) };
        /// The text of the last reply, kept until the next call.
        static REPLY: RefCell<Vec<u8>> = const { RefCell::new(Vec::new()) };
    }

    /// A buffer of `len` bytes for the host to write into (null for 0 bytes).
    #[unsafe(no_mangle)]
    pub extern "C" fn tsubame_alloc(len: usize) -> *mut u8 {
        if len == 0 {
            return std::ptr::null_mut();
        }
        let mut bytes = std::mem::ManuallyDrop::new(vec![0u8; len].into_boxed_slice());
        bytes.as_mut_ptr()
    }

    /// Frees a buffer of `len` bytes made by [`tsubame_alloc`].
    ///
    /// # Safety
    ///
    /// `ptr` comes from `tsubame_alloc(len)` with the same `len` and is freed once (null is
    /// ignored).
    #[unsafe(no_mangle)]
    pub unsafe extern "C" fn tsubame_free(ptr: *mut u8, len: usize) {
        if ptr.is_null() || len == 0 {
            return;
        }
        // SAFETY: the caller passes back a boxed slice of `len` bytes from `tsubame_alloc`.
        drop(unsafe { Box::from_raw(std::ptr::slice_from_raw_parts_mut(ptr, len)) });
    }

    /// Feeds the lines in the `len` bytes at `ptr` to the engine and returns the start of its
    /// reply ([`tsubame_reply_len`] bytes, valid until the next call).
    ///
    /// # Safety
    ///
    /// `ptr` points to `len` readable bytes (it may be null when `len` is 0).
    #[unsafe(no_mangle)]
    pub unsafe extern "C" fn tsubame_usi(ptr: *const u8, len: usize) -> *const u8 {
        let input: &[u8] = if len == 0 {
            &[]
        } else {
            // SAFETY: the caller gives `len` readable bytes at `ptr`.
            unsafe { std::slice::from_raw_parts(ptr, len) }
        };
        let mut reply = Vec::new();
        ENGINE.with_borrow_mut(|engine| {
            let mut lines: Vec<&[u8]> = input.split(|&b| b == b'\n').collect();
            if input.ends_with(b"\n") {
                lines.pop();
            }
            for line in lines {
                let line = line.strip_suffix(b"\r").unwrap_or(line);
                let state = engine.get_or_insert_with(|| {
                    let (out, printed) = Output::memory();
                    State {
                        usi: Usi::new(out),
                        printed,
                    }
                });
                let go_on = state.usi.handle_bytes(line);
                reply.append(&mut lock(&state.printed));
                if !go_on {
                    // `quit`: the next line starts a fresh engine.
                    *engine = None;
                }
            }
        });
        REPLY.with_borrow_mut(|r| {
            *r = reply;
            r.as_ptr()
        })
    }

    /// The length in bytes of the reply [`tsubame_usi`] returned last.
    #[unsafe(no_mangle)]
    pub extern "C" fn tsubame_reply_len() -> usize {
        REPLY.with_borrow(|r| r.len())
    }

    /// The buffer, whatever a panic elsewhere left in it.
    fn lock(buf: &Mutex<Vec<u8>>) -> std::sync::MutexGuard<'_, Vec<u8>> {
        buf.lock().unwrap_or_else(|e| e.into_inner())
    }
}
