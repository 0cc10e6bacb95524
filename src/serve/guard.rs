//! What keeps the server to its own page and within its caps: the `Host` and `Origin` checks,
//! the per-session message rate, and the count of live sessions.

use std::net::SocketAddr;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

/// The `Host` values the server answers to: `127.0.0.1:PORT`, `localhost:PORT`, `[::1]:PORT` and
/// the bound address, compared without regard to case.
#[derive(Clone, Debug)]
pub struct Hosts {
    allowed: Vec<String>,
}

impl Hosts {
    /// The hosts of a server listening on `bound` (its real port, after binding).
    pub fn new(bound: SocketAddr) -> Hosts {
        let port = bound.port();
        let mut allowed = vec![
            format!("127.0.0.1:{port}"),
            format!("localhost:{port}"),
            format!("[::1]:{port}"),
        ];
        let own = bound.to_string().to_ascii_lowercase();
        if !allowed.contains(&own) {
            allowed.push(own);
        }
        Hosts { allowed }
    }

    /// True when a request's `Host` header names this server.
    pub fn host_ok(&self, host: Option<&str>) -> bool {
        host.is_some_and(|h| self.allowed.iter().any(|a| a.eq_ignore_ascii_case(h)))
    }

    /// True when a WebSocket upgrade's `Origin` is `http://` followed by its (accepted) `Host`:
    /// the page this server served, not another site's script.
    pub fn origin_ok(&self, host: Option<&str>, origin: Option<&str>) -> bool {
        match (host, origin) {
            (Some(h), Some(o)) if self.host_ok(Some(h)) => o
                .strip_prefix("http://")
                .is_some_and(|rest| rest.eq_ignore_ascii_case(h)),
            _ => false,
        }
    }
}

/// Counts a session's messages in windows of one second and refuses those beyond the cap.
#[derive(Debug)]
pub struct RateLimit {
    per_second: u32,
    window_start: Instant,
    count: u32,
}

impl RateLimit {
    /// A limit of `per_second` messages in each second.
    pub fn new(per_second: u32) -> RateLimit {
        RateLimit {
            per_second,
            window_start: Instant::now(),
            count: 0,
        }
    }

    /// Counts one message received now; false when it is over the limit (and must be dropped).
    pub fn allow(&mut self) -> bool {
        let now = Instant::now();
        if now.duration_since(self.window_start) >= Duration::from_secs(1) {
            self.window_start = now;
            self.count = 0;
        }
        self.count += 1;
        self.count <= self.per_second
    }
}

/// The number of live sessions, shared by the server and every session, with its cap.
#[derive(Debug)]
pub struct Sessions {
    live: AtomicUsize,
    max: usize,
}

/// A place among the live sessions, given back when dropped (when the session's engine is gone).
#[derive(Debug)]
pub struct Slot {
    sessions: Arc<Sessions>,
}

impl Sessions {
    /// No session yet, at most `max` at once.
    pub fn new(max: usize) -> Arc<Sessions> {
        Arc::new(Sessions {
            live: AtomicUsize::new(0),
            max,
        })
    }

    /// The number of live sessions.
    pub fn live(&self) -> usize {
        self.live.load(Ordering::SeqCst)
    }

    /// Takes a place for a new session, or `None` when all are taken.
    pub fn acquire(self: &Arc<Sessions>) -> Option<Slot> {
        self.live
            .fetch_update(Ordering::SeqCst, Ordering::SeqCst, |n| {
                (n < self.max).then_some(n + 1)
            })
            .ok()
            .map(|_| Slot {
                sessions: Arc::clone(self),
            })
    }
}

impl Drop for Slot {
    fn drop(&mut self) {
        self.sessions.live.fetch_sub(1, Ordering::SeqCst);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hosts_and_origins() {
        let hosts = Hosts::new("127.0.0.1:8080".parse().unwrap());
        assert!(hosts.host_ok(Some("127.0.0.1:8080")));
        assert!(hosts.host_ok(Some("LOCALHOST:8080")));
        assert!(hosts.host_ok(Some("[::1]:8080")));
        assert!(!hosts.host_ok(Some("127.0.0.1:8081")));
        assert!(!hosts.host_ok(Some("evil.example:8080")));
        assert!(!hosts.host_ok(None));
        assert!(hosts.origin_ok(Some("localhost:8080"), Some("http://localhost:8080")));
        assert!(!hosts.origin_ok(Some("localhost:8080"), Some("http://127.0.0.1:8080")));
        assert!(!hosts.origin_ok(Some("localhost:8080"), Some("http://evil.example")));
        assert!(!hosts.origin_ok(Some("localhost:8080"), None));
        assert!(!hosts.origin_ok(Some("evil:8080"), Some("http://evil:8080")));
        let lan = Hosts::new("192.168.1.5:80".parse().unwrap());
        assert!(lan.host_ok(Some("192.168.1.5:80")));
    }

    #[test]
    fn rate_and_slots() {
        let mut rate = RateLimit::new(3);
        assert!((0..3).all(|_| rate.allow()));
        assert!(!rate.allow());
        let sessions = Sessions::new(2);
        let a = sessions.acquire().unwrap();
        let b = sessions.acquire().unwrap();
        assert!(sessions.acquire().is_none());
        assert_eq!(sessions.live(), 2);
        drop(a);
        drop(b);
        assert_eq!(sessions.live(), 0);
    }
}
