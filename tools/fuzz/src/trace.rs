//! Command sequences: what the fuzzer sends, step by step, and their text form (the reproducer
//! files that `--replay` reads).
//!
//! A file holds one line per command sent. Lines that are not plain (bytes outside printable
//! ASCII, a leading or trailing space, a leading `#`, `@` or a backslash) are written
//! `@raw <escaped>`, where `\\` is a backslash, `\xHH` a byte, and `\*N:HH;` the byte HH N times.
//! `@sleep MS` pauses; `@sync` ends a step (the fuzzer then checks that the engine answers
//! `isready`, see [`crate::driver`]). Lines starting with `#` are comments.

/// One thing the fuzzer does.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Action {
    /// Send this line (a `\n` is appended).
    Send(Vec<u8>),
    /// Close the engine's standard input (the end of input, as a pipe ends): the engine must
    /// answer what it runs, then exit.
    Close,
    /// Wait this many milliseconds.
    Sleep(u64),
}

/// A step: actions followed by a synchronisation with the engine.
pub type Step = Vec<Action>;

fn plain(line: &[u8]) -> bool {
    !line.is_empty()
        && line
            .iter()
            .all(|&b| (0x20..0x7f).contains(&b) && b != b'\\')
        && !matches!(line[0], b'#' | b'@' | b' ')
        && line.last() != Some(&b' ')
        && line.len() <= 4096
}

/// The escaped form of a line (see the module comment).
pub fn escape(line: &[u8]) -> String {
    let mut out = String::new();
    let mut i = 0;
    while i < line.len() {
        let b = line[i];
        let run = line[i..].iter().take_while(|&&c| c == b).count();
        if run >= 16 {
            out.push_str(&format!("\\*{run}:{b:02x};"));
            i += run;
            continue;
        }
        let end = i == 0 || i + 1 == line.len();
        match b {
            b'\\' => out.push_str("\\\\"),
            b' ' if !end => out.push(' '),
            0x21..0x7f => out.push(b as char),
            _ => out.push_str(&format!("\\x{b:02x}")),
        }
        i += 1;
    }
    out
}

/// The bytes of an escaped line.
pub fn unescape(text: &str) -> Result<Vec<u8>, String> {
    let bytes = text.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    let hex = |s: &[u8]| -> Result<u8, String> {
        std::str::from_utf8(s)
            .ok()
            .and_then(|h| u8::from_str_radix(h, 16).ok())
            .ok_or_else(|| format!("bad hex byte in '{text}'"))
    };
    while i < bytes.len() {
        if bytes[i] != b'\\' {
            out.push(bytes[i]);
            i += 1;
            continue;
        }
        match bytes.get(i + 1) {
            Some(b'\\') => {
                out.push(b'\\');
                i += 2;
            }
            Some(b'x') if i + 4 <= bytes.len() => {
                out.push(hex(&bytes[i + 2..i + 4])?);
                i += 4;
            }
            Some(b'*') => {
                let end = text[i..]
                    .find(';')
                    .map(|e| i + e)
                    .ok_or_else(|| format!("unterminated run in '{text}'"))?;
                let (n, h) = text[i + 2..end]
                    .split_once(':')
                    .ok_or_else(|| format!("bad run in '{text}'"))?;
                let n: usize = n
                    .parse()
                    .map_err(|_| format!("bad run length in '{text}'"))?;
                if n > 1 << 26 {
                    return Err(format!("run too long in '{text}'"));
                }
                let b = hex(h.as_bytes())?;
                out.extend(std::iter::repeat_n(b, n));
                i = end + 1;
            }
            _ => return Err(format!("bad escape in '{text}'")),
        }
    }
    Ok(out)
}

/// The text of a reproducer: `header` lines as comments, then the steps.
pub fn write(header: &[String], steps: &[Step]) -> String {
    let mut out = String::new();
    for h in header {
        out.push_str(&format!("# {h}\n"));
    }
    for step in steps {
        for a in step {
            match a {
                Action::Send(l) if plain(l) => {
                    out.push_str(&String::from_utf8_lossy(l));
                    out.push('\n');
                }
                Action::Send(l) => out.push_str(&format!("@raw {}\n", escape(l))),
                Action::Sleep(ms) => out.push_str(&format!("@sleep {ms}\n")),
                Action::Close => out.push_str("@close\n"),
            }
        }
        out.push_str("@sync\n");
    }
    out
}

/// Reads a reproducer's steps (a last step without `@sync` counts too).
pub fn read(text: &str) -> Result<Vec<Step>, String> {
    let mut steps = Vec::new();
    let mut step = Vec::new();
    for (n, line) in text.lines().enumerate() {
        let line = line.strip_suffix('\r').unwrap_or(line);
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        if line == "@sync" {
            steps.push(std::mem::take(&mut step));
        } else if let Some(ms) = line.strip_prefix("@sleep ") {
            let ms = ms
                .trim()
                .parse()
                .map_err(|_| format!("line {}: bad @sleep", n + 1))?;
            step.push(Action::Sleep(ms));
        } else if line == "@close" {
            step.push(Action::Close);
        } else if line == "@raw" {
            step.push(Action::Send(Vec::new()));
        } else if let Some(raw) = line.strip_prefix("@raw ") {
            step.push(Action::Send(
                unescape(raw).map_err(|e| format!("line {}: {e}", n + 1))?,
            ));
        } else if line.starts_with('@') {
            return Err(format!("line {}: unknown directive '{line}'", n + 1));
        } else {
            step.push(Action::Send(line.as_bytes().to_vec()));
        }
    }
    if !step.is_empty() {
        steps.push(step);
    }
    Ok(steps)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn files_round_trip() {
        let long = [b"go ".to_vec(), vec![b'x'; 100_000]].concat();
        let steps = vec![
            vec![
                Action::Send(b"position startpos moves 7g7f".to_vec()),
                Action::Send(b"".to_vec()),
                Action::Send(b"\xff\xfe go\t\r".to_vec()),
                Action::Sleep(20),
                Action::Close,
                Action::Send(b"# not a comment \\".to_vec()),
            ],
            vec![Action::Send(long), Action::Send(b"@x ".to_vec())],
        ];
        let text = write(&["a header".into()], &steps);
        assert!(text.len() < 1000, "runs are compressed");
        assert_eq!(read(&text).unwrap(), steps);
        assert!(read("@bogus\n").is_err());
        assert!(unescape("\\x4").is_err());
    }
}
