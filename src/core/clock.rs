//! The clock the search, the mate solver and the engine's jobs read: [`Instant`], a point in time
//! with `std::time::Instant`'s methods.
//!
//! Natively it *is* `std::time::Instant` (a re-export: nothing changes and nothing is paid). In
//! the browser build (`wasm32`), where `std::time::Instant::now` panics, it reads the host's
//! monotonic clock through one function the host must provide to the WebAssembly module:
//!
//! ```text
//! import "env" "tsubame_now_ms": () -> f64
//! ```
//!
//! milliseconds since any fixed origin, never going back (in a page or a Web Worker:
//! `performance.now()`; in node the same). [`seed`] reads the same clock on wasm32.

#[cfg(not(target_arch = "wasm32"))]
pub use std::time::Instant;

/// A number that differs from one call to the next (a limited strength's choice of move is
/// seeded with it): the wall clock's nanoseconds natively, the host's clock on wasm32.
pub fn seed() -> u64 {
    #[cfg(not(target_arch = "wasm32"))]
    {
        let since = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH);
        since.map_or(0, |d| d.as_nanos() as u64)
    }
    #[cfg(target_arch = "wasm32")]
    {
        wasm::now().as_nanos() as u64
    }
}

#[cfg(target_arch = "wasm32")]
pub use wasm::Instant;

/// The browser's clock.
#[cfg(target_arch = "wasm32")]
mod wasm {
    use std::ops::{Add, AddAssign, Sub, SubAssign};
    use std::time::Duration;

    #[link(wasm_import_module = "env")]
    unsafe extern "C" {
        /// The host's monotonic clock in milliseconds (`performance.now()`).
        fn tsubame_now_ms() -> f64;
    }

    /// The host's clock as a time since its origin; a value that is not a finite, positive
    /// number of milliseconds counts as the origin.
    pub(super) fn now() -> Duration {
        // SAFETY: the import takes nothing and returns a number; the host provides it (the
        // module does not instantiate without it).
        let ms = unsafe { tsubame_now_ms() };
        if ms.is_finite() && ms > 0.0 {
            Duration::from_secs_f64(ms / 1000.0)
        } else {
            Duration::ZERO
        }
    }

    /// A point in time on the host's monotonic clock, with the methods of `std::time::Instant`
    /// that the engine uses.
    #[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
    pub struct Instant(Duration);

    impl Instant {
        /// Now.
        pub fn now() -> Instant {
            Instant(now())
        }

        /// The time since `self` (zero if the clock went back).
        pub fn elapsed(&self) -> Duration {
            Instant::now().saturating_duration_since(*self)
        }

        /// The time from `earlier` to `self` (zero if `earlier` is later).
        pub fn duration_since(&self, earlier: Instant) -> Duration {
            self.saturating_duration_since(earlier)
        }

        /// The time from `earlier` to `self`, or `None` if `earlier` is later.
        pub fn checked_duration_since(&self, earlier: Instant) -> Option<Duration> {
            self.0.checked_sub(earlier.0)
        }

        /// The time from `earlier` to `self` (zero if `earlier` is later).
        pub fn saturating_duration_since(&self, earlier: Instant) -> Duration {
            self.0.saturating_sub(earlier.0)
        }

        /// `self + d`, or `None` on overflow.
        pub fn checked_add(&self, d: Duration) -> Option<Instant> {
            self.0.checked_add(d).map(Instant)
        }

        /// `self - d`, or `None` before the clock's origin.
        pub fn checked_sub(&self, d: Duration) -> Option<Instant> {
            self.0.checked_sub(d).map(Instant)
        }
    }

    impl Add<Duration> for Instant {
        type Output = Instant;
        fn add(self, d: Duration) -> Instant {
            self.checked_add(d)
                .expect("overflow when adding a duration to an instant")
        }
    }

    impl AddAssign<Duration> for Instant {
        fn add_assign(&mut self, d: Duration) {
            *self = *self + d;
        }
    }

    impl Sub<Duration> for Instant {
        type Output = Instant;
        fn sub(self, d: Duration) -> Instant {
            self.checked_sub(d)
                .expect("overflow when subtracting a duration from an instant")
        }
    }

    impl SubAssign<Duration> for Instant {
        fn sub_assign(&mut self, d: Duration) {
            *self = *self - d;
        }
    }

    impl Sub<Instant> for Instant {
        type Output = Duration;
        fn sub(self, earlier: Instant) -> Duration {
            self.saturating_duration_since(earlier)
        }
    }
}
