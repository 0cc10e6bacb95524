//! The fuzzer's command line: it refuses to run without an engine, saying where it looked. (The
//! test also has cargo build the fuzzer with the other test binaries, which `tools/test-all` then
//! runs.)

use std::process::Command;

#[test]
fn a_missing_engine_is_named_and_fails_the_run() {
    let out = Command::new(env!("CARGO_BIN_EXE_tsubame-fuzz"))
        .args(["--ci", "--engine", "/no/such/engine"])
        .output()
        .expect("the fuzzer runs");
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("no engine at /no/such/engine"), "{err}");
}
