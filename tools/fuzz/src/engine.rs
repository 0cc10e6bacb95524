//! The engine process: its standard input, a reader thread per output stream, and waits with
//! deadlines (a silent engine never blocks the fuzzer).

use std::collections::VecDeque;
use std::io::{BufRead, BufReader, Read, Write};
use std::path::Path;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::{Duration, Instant};

/// What the reader thread saw on the engine's standard output.
#[derive(Debug)]
pub enum Event {
    /// A line (without its `\n`), stamped with when it arrived.
    Line(Instant, Vec<u8>),
    /// End of output: the process closed it, normally by exiting.
    Eof,
}

/// Bytes of the engine's standard error kept for failure reports.
const STDERR_TAIL: usize = 4096;

/// A running engine.
pub struct Engine {
    child: Child,
    stdin: Option<ChildStdin>,
    events: Receiver<Event>,
    stderr: Arc<Mutex<VecDeque<u8>>>,
    /// Print every line sent and received on standard error.
    pub verbose: bool,
}

impl Engine {
    /// Starts `path` with piped standard streams.
    pub fn start(path: &Path, verbose: bool) -> std::io::Result<Engine> {
        let mut child = Command::new(path)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()?;
        let stdout = child.stdout.take().expect("piped");
        let mut stderr_pipe = child.stderr.take().expect("piped");
        let (tx, events) = channel();
        thread::spawn(move || {
            let mut reader = BufReader::new(stdout);
            loop {
                let mut line = Vec::new();
                match reader.read_until(b'\n', &mut line) {
                    Ok(0) | Err(_) => {
                        let _ = tx.send(Event::Eof);
                        return;
                    }
                    Ok(_) => {
                        if line.last() == Some(&b'\n') {
                            line.pop();
                        }
                        if tx.send(Event::Line(Instant::now(), line)).is_err() {
                            return;
                        }
                    }
                }
            }
        });
        let stderr = Arc::new(Mutex::new(VecDeque::new()));
        let tail = Arc::clone(&stderr);
        thread::spawn(move || {
            let mut buf = [0u8; 4096];
            while let Ok(n) = stderr_pipe.read(&mut buf) {
                if n == 0 {
                    return;
                }
                if let Ok(mut t) = tail.lock() {
                    t.extend(&buf[..n]);
                    while t.len() > STDERR_TAIL {
                        t.pop_front();
                    }
                }
            }
        });
        let stdin = child.stdin.take();
        Ok(Engine {
            child,
            stdin,
            events,
            stderr,
            verbose,
        })
    }

    /// Writes one line; the time it was flushed, or an error when the engine no longer reads.
    pub fn send(&mut self, line: &[u8]) -> std::io::Result<Instant> {
        if self.verbose {
            eprintln!(">> {}", shorten(line));
        }
        let stdin = self
            .stdin
            .as_mut()
            .ok_or_else(|| std::io::Error::other("standard input closed"))?;
        let mut buf = Vec::with_capacity(line.len() + 1);
        buf.extend_from_slice(line);
        buf.push(b'\n');
        stdin.write_all(&buf)?;
        stdin.flush()?;
        Ok(Instant::now())
    }

    /// Closes the engine's standard input: the end of input.
    pub fn close_input(&mut self) {
        if self.verbose {
            eprintln!(">> (end of input)");
        }
        self.stdin = None;
    }

    /// The next output event, waiting until `deadline`; `None` when the deadline passed.
    pub fn next_event(&mut self, deadline: Instant) -> Option<Event> {
        let wait = deadline.saturating_duration_since(Instant::now());
        let event = match self.events.recv_timeout(wait) {
            Ok(e) => Some(e),
            Err(RecvTimeoutError::Timeout) => None,
            Err(RecvTimeoutError::Disconnected) => Some(Event::Eof),
        };
        if self.verbose
            && let Some(Event::Line(_, l)) = &event
        {
            eprintln!("<< {}", shorten(l));
        }
        event
    }

    /// Waits up to `within` for the process to exit; its status text, or `None` if it still runs.
    pub fn wait_exit(&mut self, within: Duration) -> Option<String> {
        let deadline = Instant::now() + within;
        loop {
            if let Ok(Some(status)) = self.child.try_wait() {
                return Some(status.to_string());
            }
            if Instant::now() >= deadline {
                return None;
            }
            thread::sleep(Duration::from_millis(2));
        }
    }

    /// The end of what the engine wrote on standard error.
    pub fn stderr_tail(&self) -> String {
        self.stderr
            .lock()
            .map(|t| String::from_utf8_lossy(&t.iter().copied().collect::<Vec<u8>>()).into_owned())
            .unwrap_or_default()
    }

    /// Ends the process now (after a failure) and reaps it.
    pub fn kill(&mut self) {
        self.stdin = None;
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        self.kill();
    }
}

/// A line made printable and cut to a readable length, for logs and messages.
pub fn shorten(line: &[u8]) -> String {
    const MAX: usize = 160;
    let text = String::from_utf8_lossy(&line[..line.len().min(MAX)]);
    let text: String = text
        .chars()
        .map(|c| if c.is_control() { '?' } else { c })
        .collect();
    if line.len() > MAX {
        format!("{text}… ({} bytes)", line.len())
    } else {
        text
    }
}
