//! Text the engine echoes back to whoever sent it.

/// Input text as it may be echoed in a reply: at most `max` characters (then `...`), every
/// character outside printable ASCII escaped (`\u{ff}`), so that a reply is always one short line
/// of ASCII whatever was sent.
pub fn excerpt(text: &str, max: usize) -> String {
    let mut out = String::new();
    for (i, c) in text.chars().enumerate() {
        if i == max {
            out.push_str("...");
            break;
        }
        if c == ' ' || c.is_ascii_graphic() {
            out.push(c);
        } else {
            out.extend(c.escape_default());
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::excerpt;

    #[test]
    fn excerpts_are_short_printable_ascii() {
        assert_eq!(excerpt("hello", 100), "hello");
        assert_eq!(
            excerpt(&"x".repeat(1_000_000), 100),
            format!("{}...", "x".repeat(100))
        );
        assert_eq!(
            excerpt("a\u{1}\u{ff}\u{fffd}\tb", 100),
            "a\\u{1}\\u{ff}\\u{fffd}\\tb"
        );
    }
}
