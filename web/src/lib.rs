//! tsubame's engine as a WebAssembly module: the USI loop, and the page's side of the engine
//! (`tsubame::page`, the JSON messages `tsubame serve` answers on its WebSocket), behind a C ABI
//! that a Web Worker or node drives one message at a time. Built for `wasm32-unknown-unknown`:
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
//! - `env.tsubame_interrupted() -> i32`: nonzero when the running search or mate search must end
//!   now, as at `stop` (polled with the clock; see `tsubame::core::job::interrupted`).
//! - `env.tsubame_emit(ptr: *const u8, len: usize)`: one message of the page's protocol, JSON
//!   text of `len` bytes at `ptr`, sent the moment the engine makes it (a search's `info` lines
//!   come while it runs); the bytes are valid only during the call.
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
//! - `tsubame_page(ptr: *const u8, len: usize)`: one message of the page (JSON text, as on
//!   `tsubame serve`'s WebSocket); every answer and every message of a search it starts goes to
//!   `tsubame_emit`, and a search runs to its end inside the call. Without `tsubame_page_open`
//!   before, the first call opens the page's engine.
//! - `tsubame_page_open()`: makes the page's engine afresh (as a new WebSocket session of `tsubame
//!   serve` does) and emits `hello`.
//! - `tsubame_network(ptr: *const u8, len: usize) -> i32`: a network file (`len` bytes) for the
//!   game its header names, used by every engine of the module from its next search: how the
//!   page gives it the shogi network, which this build leaves out. 0 when taken; otherwise the
//!   reason is the text `tsubame_reply_len()` bytes long at `tsubame_reply()`.
//! - `tsubame_reply() -> *const u8`: the start of the last reply.
//! - `tsubame_wants_network(ptr: *const u8, len: usize) -> i32`: 1 when the game named by the
//!   `len` bytes at `ptr` (a registry name) has a learned evaluation but no network yet (the host
//!   should fetch `NAME.nnue` and give it to `tsubame_network`), else 0.
//!
//! The USI engine is made at the first call of `tsubame_usi` (the default game, options at their
//! defaults) and kept from call to call; after `quit` the next call starts a fresh one. The
//! page's engine is another, made at the first call of `tsubame_page`.
//!
//! # Threads
//!
//! The module has one thread: a search, a mate search or a perft runs on it, inside the call
//! that starts it (see `tsubame::core::job`), so `go depth 6` or `go mate 5000` returns with its
//! answer. `stop` and `ponderhit` can therefore only come after the command has answered: `go
//! infinite` and `go ponder` answer when their search ends by its own limits (give them a
//! depth or node limit) or when `tsubame_interrupted` says so, and `Threads` above 1 searches
//! with one thread. A trap (a bug in the engine) leaves the instance unusable: instantiate the
//! module again.

#[cfg(target_arch = "wasm32")]
mod exports {
    use std::cell::RefCell;
    use std::sync::{Arc, Mutex};

    use serde_json::Number;
    use tsubame::engine::{Engine, Events};
    use tsubame::page::protocol::{Caps, ServerMsg, message};
    use tsubame::page::session::{Request, request};
    use tsubame::usi::{Output, Usi};

    #[link(wasm_import_module = "env")]
    unsafe extern "C" {
        /// Sends one message of the page's protocol (JSON text) to the host.
        fn tsubame_emit(ptr: *const u8, len: usize);
    }

    /// Sends `msg` to the host.
    fn emit(msg: &ServerMsg) {
        let text = msg.to_json();
        // SAFETY: the import reads `len` bytes at `ptr` during the call only.
        unsafe { tsubame_emit(text.as_ptr(), text.len()) }
    }

    /// The caps of the page's engine: one session, one thread, 64 MiB of tables, no rate cap
    /// (the host is the page's own worker) and no idle close.
    fn caps() -> Caps {
        tsubame::page::caps(1, 1, 64, u32::MAX, 0)
    }

    /// The page's engine and the id of its search (the events from its start carry it).
    struct Page {
        engine: Engine,
        search_id: Arc<Mutex<Option<Number>>>,
    }

    impl Page {
        fn new() -> Page {
            let search_id: Arc<Mutex<Option<Number>>> = Arc::default();
            let id = Arc::clone(&search_id);
            let events = Events::new(move |event| {
                let id = lock(&id).clone();
                if let Some(msg) = message(&event, id) {
                    emit(&msg);
                }
            });
            let mut engine = Engine::new(events);
            if let Err(e) = engine.set_option("USI_Hash", &caps().hash.to_string()) {
                emit(&ServerMsg::error(None, e.to_string()));
            }
            Page { engine, search_id }
        }
    }

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
        /// The page's engine, made at the first message.
        static PAGE: RefCell<Option<Page>> = const { RefCell::new(None) };
    }

    /// The `len` bytes at `ptr` (none when `len` is 0).
    ///
    /// # Safety
    ///
    /// `ptr` points to `len` readable bytes that outlive the slice.
    unsafe fn bytes<'a>(ptr: *const u8, len: usize) -> &'a [u8] {
        if len == 0 {
            &[]
        } else {
            // SAFETY: the caller gives `len` readable bytes at `ptr`.
            unsafe { std::slice::from_raw_parts(ptr, len) }
        }
    }

    /// Makes the page's engine afresh and emits `hello`.
    #[unsafe(no_mangle)]
    pub extern "C" fn tsubame_page_open() {
        PAGE.with_borrow_mut(|page| {
            *page = None;
            emit(&tsubame::page::hello(caps(), |_| false));
            *page = Some(Page::new());
        });
    }

    /// Carries out one message of the page: its answers, and the messages of the search it
    /// starts, go to the host through `tsubame_emit`.
    ///
    /// # Safety
    ///
    /// `ptr` points to `len` readable bytes (it may be null when `len` is 0).
    #[unsafe(no_mangle)]
    pub unsafe extern "C" fn tsubame_page(ptr: *const u8, len: usize) {
        // SAFETY: as the caller promises.
        let input = unsafe { bytes(ptr, len) };
        PAGE.with_borrow_mut(|page| {
            let page = page.get_or_insert_with(|| {
                emit(&tsubame::page::hello(caps(), |_| false));
                Page::new()
            });
            let Ok(text) = std::str::from_utf8(input) else {
                emit(&ServerMsg::error(None, "message refused: not UTF-8"));
                return;
            };
            match request(text, &caps()) {
                Request::Reply(msg) => emit(&msg),
                Request::Stop => page.engine.stop(),
                Request::Search(search) => {
                    let id = Arc::clone(&page.search_id);
                    let last = lock(&id).clone();
                    search.start(
                        &mut page.engine,
                        |new| *lock(&id) = new,
                        |e| emit(&ServerMsg::error(last.clone(), e)),
                    );
                }
            }
        });
    }

    /// Takes a network file for the game its header names (`tsubame::games::networks::supply`):
    /// 0 when taken, else 1 with the reason as the reply ([`tsubame_reply`]).
    ///
    /// # Safety
    ///
    /// `ptr` points to `len` readable bytes (it may be null when `len` is 0).
    #[unsafe(no_mangle)]
    pub unsafe extern "C" fn tsubame_network(ptr: *const u8, len: usize) -> i32 {
        // SAFETY: as the caller promises.
        let input = unsafe { bytes(ptr, len) };
        let (status, text) = match tsubame::games::networks::supply(input) {
            Ok((_, text)) => (0, text),
            Err(e) => (1, e),
        };
        REPLY.with_borrow_mut(|r| *r = text.into_bytes());
        status
    }

    /// 1 when the game named at `ptr` has a learned evaluation and no network yet, else 0.
    ///
    /// # Safety
    ///
    /// `ptr` points to `len` readable bytes (it may be null when `len` is 0).
    #[unsafe(no_mangle)]
    pub unsafe extern "C" fn tsubame_wants_network(ptr: *const u8, len: usize) -> i32 {
        // SAFETY: as the caller promises.
        let name = std::str::from_utf8(unsafe { bytes(ptr, len) }).unwrap_or("");
        let game = tsubame::games::GameId::parse(name);
        i32::from(game.is_some_and(tsubame::games::networks::missing))
    }

    /// The start of the last reply (of [`tsubame_usi`] or [`tsubame_network`]).
    #[unsafe(no_mangle)]
    pub extern "C" fn tsubame_reply() -> *const u8 {
        REPLY.with_borrow(|r| r.as_ptr())
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
        // SAFETY: as the caller promises.
        let input = unsafe { bytes(ptr, len) };
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

    /// The mutex's value, whatever a panic elsewhere left in it.
    fn lock<T>(buf: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
        buf.lock().unwrap_or_else(|e| e.into_inner())
    }
}
