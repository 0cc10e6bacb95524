//! The WebAssembly module's stack: the search and the mate solver recurse deeply (natively they
//! run on threads with 64 MiB and 512 MiB stacks; in the browser they run on the module's one
//! stack), and wasm-ld's default is 1 MiB. Natively nothing is set.

/// The stack of the WebAssembly module, in bytes: part of its linear memory from the start.
const WASM_STACK: usize = 32 << 20;

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    if std::env::var("CARGO_CFG_TARGET_ARCH").as_deref() == Ok("wasm32") {
        println!("cargo:rustc-link-arg-cdylib=-zstack-size={WASM_STACK}");
    }
}
