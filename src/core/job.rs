//! Work that runs on a thread of its own where the platform has threads, and on the caller's
//! thread where it has none: the one place that decides which.
//!
//! Natively every function here spawns a thread exactly as `std::thread::Builder` does. In the
//! browser build (`wasm32`) `std::thread::Builder::spawn` always fails, so [`start`] and
//! [`on_stack`] run the work on the calling thread instead and return when it is done: a search
//! started by `go depth 6` there has given its `bestmove` before `go` returns. [`INLINE`] says
//! which of the two this build does, for the few places that wait for a flag another thread
//! would set.

use std::io;
use std::thread::JoinHandle;

/// True where work runs on the caller's thread (wasm32): nothing else runs while a job does, so
/// a job must never wait for a flag that only another command could set (`stop`, `ponderhit`).
pub const INLINE: bool = cfg!(target_arch = "wasm32");

/// Work started by [`start`].
#[derive(Debug)]
pub enum Job {
    /// Running, or finished, on its own thread.
    Thread(JoinHandle<()>),
    /// Ran to its end on the caller's thread before [`start`] returned.
    Done,
}

impl Job {
    /// True when the work has ended.
    pub fn is_finished(&self) -> bool {
        match self {
            Job::Thread(h) => h.is_finished(),
            Job::Done => true,
        }
    }

    /// Waits for the work to end; `Err` with the panic's payload when it panicked.
    pub fn join(self) -> std::thread::Result<()> {
        match self {
            Job::Thread(h) => h.join(),
            Job::Done => Ok(()),
        }
    }
}

/// Starts `f` on a thread named `name` with a stack of `stack` bytes (`None`: the default), or,
/// where there are no threads ([`INLINE`]), runs it here and now. The error is the system's
/// refusal of a thread (never on wasm32).
pub fn start(
    name: &str,
    stack: Option<usize>,
    f: impl FnOnce() + Send + 'static,
) -> io::Result<Job> {
    if INLINE {
        let _ = (name, stack);
        f();
        return Ok(Job::Done);
    }
    let mut builder = std::thread::Builder::new().name(name.into());
    if let Some(bytes) = stack {
        builder = builder.stack_size(bytes);
    }
    builder.spawn(f).map(Job::Thread)
}

/// Runs `f` on a thread named `name` with a stack of `stack` bytes, for recursion deeper than
/// the caller's stack allows, and waits for its result: `Err` when the thread could not be had,
/// `Ok(Err(payload))` when `f` panicked. Where there are no threads ([`INLINE`]) `f` runs on the
/// caller's stack, whose size the program sets at link time (the web build's `build.rs`).
pub fn on_stack<T: Send>(
    name: &str,
    stack: usize,
    f: impl FnOnce() -> T + Send,
) -> io::Result<std::thread::Result<T>> {
    if INLINE {
        let _ = (name, stack);
        return Ok(Ok(f()));
    }
    std::thread::scope(|s| {
        std::thread::Builder::new()
            .name(name.into())
            .stack_size(stack)
            .spawn_scoped(s, f)
            .map(|h| h.join())
    })
}

/// Whether the host asked the work running on its thread to end: a search or a mate search
/// polls it with its clock and ends as at `stop` when it says yes. Only the browser build has a
/// host to ask, through the import
///
/// ```text
/// import "env" "tsubame_interrupted": () -> i32     (nonzero: end the work now)
/// ```
///
/// (the page's Web Worker answers from a flag the page sets, or at the end of a slice of an
/// analysis). Natively it is always false: a stop comes from another thread, through the
/// search's own flag.
#[inline(always)]
pub fn interrupted() -> bool {
    #[cfg(target_arch = "wasm32")]
    {
        #[link(wasm_import_module = "env")]
        unsafe extern "C" {
            fn tsubame_interrupted() -> i32;
        }
        // SAFETY: the import takes nothing and returns a number; the host provides it (the
        // module does not instantiate without it).
        unsafe { tsubame_interrupted() != 0 }
    }
    #[cfg(not(target_arch = "wasm32"))]
    {
        false
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Arc;
    use std::sync::atomic::{AtomicBool, Ordering};

    #[test]
    fn a_job_runs_and_is_joined() {
        let ran = Arc::new(AtomicBool::new(false));
        let flag = Arc::clone(&ran);
        let job = start("test-job", Some(1 << 20), move || {
            flag.store(true, Ordering::SeqCst)
        })
        .unwrap();
        job.join().unwrap();
        assert!(ran.load(Ordering::SeqCst));
        assert!(Job::Done.is_finished());
    }

    #[test]
    fn on_stack_returns_the_result_and_the_panic() {
        let x = 20;
        assert_eq!(
            on_stack("test-stack", 1 << 20, || x + 1).unwrap().unwrap(),
            21
        );
        let panicked = on_stack("test-panic", 1 << 20, || -> u32 { panic!("on purpose") });
        assert!(panicked.unwrap().is_err());
    }
}
