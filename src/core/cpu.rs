//! The processor the engine runs on, against the one it was built for: a build for a CPU level
//! (the default Linux and Windows builds are for x86-64-v3, with AVX2 and BMI2) checks at start
//! that the processor has every feature the compiler was allowed to use, and says so plainly when
//! it lacks one, instead of dying on the first instruction it cannot run.
//!
//! [`runs_here`] and [`refuse`] run before anything else, so they are written to compile to
//! plain integer code: a build for x86-64-v3 encodes every 16-byte move in AVX, which an older
//! processor cannot run, so they build no vector, string or formatted text (checked under
//! `qemu-x86_64 -cpu Nehalem` by `tools/release`).

/// The feature bits this build needs, as CPUID reports them: leaf 1 ECX, leaf 7 EBX, leaf
/// 0x8000_0001 ECX. (Read only on x86-64.)
#[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]
const NEEDED: (u32, u32, u32) = {
    const fn f(on: bool, bit: u32) -> u32 {
        if on { 1 << bit } else { 0 }
    }
    (
        f(cfg!(target_feature = "sse3"), 0)
            | f(cfg!(target_feature = "ssse3"), 9)
            | f(cfg!(target_feature = "fma"), 12)
            | f(cfg!(target_feature = "cmpxchg16b"), 13)
            | f(cfg!(target_feature = "sse4.1"), 19)
            | f(cfg!(target_feature = "sse4.2"), 20)
            | f(cfg!(target_feature = "movbe"), 22)
            | f(cfg!(target_feature = "popcnt"), 23)
            | f(cfg!(target_feature = "xsave"), 26)
            | f(cfg!(target_feature = "avx"), 28)
            | f(cfg!(target_feature = "f16c"), 29),
        f(cfg!(target_feature = "bmi1"), 3)
            | f(cfg!(target_feature = "avx2"), 5)
            | f(cfg!(target_feature = "bmi2"), 8),
        f(cfg!(target_feature = "lzcnt"), 5),
    )
};

/// True when the processor has every feature this build was compiled to use (and, for AVX, the
/// system saves the AVX registers).
#[inline(never)]
pub fn runs_here() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        use std::arch::x86_64::__cpuid_count;
        let (leaf1, leaf7, ext1) = NEEDED;
        // Leaves 7 and 0x8000_0001 are read only when the processor reports them.
        let top = __cpuid_count(0, 0).eax;
        let ecx1 = __cpuid_count(1, 0).ecx;
        let ebx7 = if top >= 7 { __cpuid_count(7, 0).ebx } else { 0 };
        let top_ext = __cpuid_count(0x8000_0000, 0).eax;
        let ecx_ext = if top_ext >= 0x8000_0001 {
            __cpuid_count(0x8000_0001, 0).ecx
        } else {
            0
        };
        let has = ecx1 & leaf1 == leaf1 && ebx7 & leaf7 == leaf7 && ecx_ext & ext1 == ext1;
        // A build for AVX also needs the system to save the AVX registers: OSXSAVE set, XGETBV
        // says whether it saves SSE and AVX state.
        #[cfg(target_feature = "avx")]
        // SAFETY: XGETBV is asked only when the processor reports OSXSAVE.
        let has = has
            && ecx1 & (1 << 27) != 0
            && unsafe { std::arch::x86_64::_xgetbv(0) } & 0b110 == 0b110;
        has
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        true
    }
}

/// What [`refuse`] says.
const WRONG_CPU: &[u8] = b"this tsubame is built for x86-64-v3 CPUs (AVX2, BMI1, BMI2, FMA, \
LZCNT, MOVBE), and this processor lacks some of them: use the build for any x86-64 CPU \
(tsubame-x86-64 in the release archive), or build from source on this machine\n";

/// Says that this build cannot run on this processor (on standard output as a USI error, for a
/// GUI that shows only that, and on standard error) and ends the process with status 3.
#[inline(never)]
pub fn refuse() -> ! {
    use std::io::Write;
    let _ = std::io::stdout().write_all(b"info string error: ");
    let _ = std::io::stdout().write_all(WRONG_CPU);
    let _ = std::io::stdout().flush();
    let _ = std::io::stderr().write_all(b"error: ");
    let _ = std::io::stderr().write_all(WRONG_CPU);
    std::process::exit(3)
}

/// The features this build was compiled to use, by name, and whether the processor has each.
fn features() -> Vec<(&'static str, bool)> {
    #[allow(unused_mut)]
    let mut list = Vec::new();
    #[cfg(target_arch = "x86_64")]
    {
        macro_rules! built_for {
            ($($feature:tt),*) => {
                $(
                    if cfg!(target_feature = $feature) {
                        list.push(($feature, std::arch::is_x86_feature_detected!($feature)));
                    }
                )*
            };
        }
        built_for!(
            "sse3",
            "ssse3",
            "sse4.1",
            "sse4.2",
            "popcnt",
            "cmpxchg16b",
            "avx",
            "avx2",
            "bmi1",
            "bmi2",
            "fma",
            "lzcnt",
            "movbe",
            "f16c",
            "xsave"
        );
    }
    list
}

/// The features this build needs that the processor lacks (empty: it runs here).
pub fn missing_features() -> Vec<&'static str> {
    features()
        .into_iter()
        .filter(|&(_, has)| !has)
        .map(|(name, _)| name)
        .collect()
}

/// The CPU level this build was compiled for.
pub fn build_level() -> &'static str {
    if !cfg!(target_arch = "x86_64") {
        // Another processor family (wasm32 for the browser): its name.
        std::env::consts::ARCH
    } else if cfg!(all(target_feature = "avx2", target_feature = "bmi2")) {
        "x86-64-v3"
    } else if cfg!(all(target_feature = "sse4.2", target_feature = "popcnt")) {
        "x86-64-v2"
    } else {
        "x86-64"
    }
}

/// Whether the processor runs the network's AVX2 kernels (they are chosen at run time, whatever
/// the build's level).
pub fn has_avx2() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        std::arch::is_x86_feature_detected!("avx2")
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        false
    }
}

/// One line for people: the build's CPU level and the network kernels in use.
pub fn describe() -> String {
    format!(
        "built for {} CPUs; network kernels: {}",
        build_level(),
        if has_avx2() { "avx2" } else { "scalar" }
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_machine_that_ran_the_tests_has_what_the_build_needs() {
        // The tests run on the machine they were built for: nothing may be missing, and each
        // feature the level names is one the build was compiled with.
        assert_eq!(missing_features(), Vec::<&str>::new());
        assert!(runs_here());
        // The bits asked of CPUID are those of the features the build was compiled with.
        let names: Vec<&str> = features().into_iter().map(|(n, _)| n).collect();
        assert_eq!(NEEDED.1 & (1 << 5) != 0, names.contains(&"avx2"));
        assert_eq!(NEEDED.0 & (1 << 23) != 0, names.contains(&"popcnt"));
        let names: Vec<&str> = features().into_iter().map(|(n, _)| n).collect();
        match build_level() {
            "x86-64-v3" => assert!(names.contains(&"avx2") && names.contains(&"bmi2")),
            "x86-64-v2" => assert!(names.contains(&"popcnt")),
            _ => assert!(!names.contains(&"avx2")),
        }
        assert!(describe().starts_with("built for x86-64"));
    }
}
