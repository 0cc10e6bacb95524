//! The answers the docs quote are the engine's: wherever a doc says that a USI command "is
//! answered" with a line (`` `position …` is answered `info string error: …` ``), the engine
//! under test is sent that command and must print that exact line. A message reworded in the
//! code and not in the docs fails here.

use std::io::Write;
use std::process::Stdio;

/// The docs whose quoted answers are checked.
const DOCS: &[&str] = &["docs/rules.md", "README.md", "ENGINE.md"];

/// Every (command, answer) pair quoted as `` `COMMAND` is answered `ANSWER` `` in `text`, with
/// line breaks inside the quotes read as spaces.
fn quoted_answers(text: &str) -> Vec<(String, String)> {
    let flat = text.split_whitespace().collect::<Vec<_>>().join(" ");
    let mut pairs = Vec::new();
    let mut rest = flat.as_str();
    while let Some(at) = rest.find("` is answered `") {
        let before = &rest[..at];
        let after = &rest[at + "` is answered `".len()..];
        let command = &before[before.rfind('`').map_or(0, |i| i + 1)..];
        let Some(end) = after.find('`') else { break };
        pairs.push((command.to_string(), after[..end].to_string()));
        rest = &after[end..];
    }
    pairs
}

/// The engine's output for `command` alone.
fn answer(command: &str) -> String {
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_tsubame"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("the engine starts");
    writeln!(child.stdin.take().unwrap(), "{command}").unwrap();
    let out = child
        .wait_with_output()
        .expect("the engine ends at the end of input");
    String::from_utf8_lossy(&out.stdout).into_owned()
}

#[test]
fn every_answer_the_docs_quote_is_the_one_the_engine_gives() {
    let root = env!("CARGO_MANIFEST_DIR");
    let mut checked = 0;
    for doc in DOCS {
        let text = std::fs::read_to_string(format!("{root}/{doc}")).unwrap();
        for (command, expected) in quoted_answers(&text) {
            let got = answer(&command);
            assert!(
                got.lines().any(|l| l == expected),
                "{doc}: `{command}` is said to be answered\n  {expected}\nbut the engine said\n{got}"
            );
            checked += 1;
        }
    }
    // The rules' example of a position with more pawns than the set is one of them.
    assert!(checked >= 1, "no quoted answer found in {DOCS:?}");
}

#[test]
fn quoted_answers_are_read_across_line_breaks() {
    let text =
        "refused: `position sfen\n9/9 b - 1` is answered `info string error:\n bad`. And `x`.";
    assert_eq!(
        quoted_answers(text),
        vec![(
            "position sfen 9/9 b - 1".to_string(),
            "info string error: bad".to_string()
        )]
    );
}
