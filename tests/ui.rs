//! Compile-fail tests: every misuse is a compile error with a clear message at its span;
//! `ui-pass/` holds what must compile (the guard's contracts once their exceptions are named).
//!
//! The `.stderr` files are rustc's words, which change from one release to the next: they
//! are judged only with the toolchain they were blessed with ([`BLESSED_WITH`]); with
//! another, the compile-fail cases are skipped, saying so, and the passing ones still run.
//! `TRYBUILD=overwrite cargo test --test ui --all-features` rewrites them (then bump
//! `BLESSED_WITH` if the toolchain changed).

/// The rustc release the `.stderr` files were written by.
const BLESSED_WITH: &str = "rustc 1.95.";

/// The version line of the rustc that builds the cases (`$RUSTC`, as cargo runs it).
fn rustc_version() -> String {
    let rustc = std::env::var_os("RUSTC").unwrap_or_else(|| "rustc".into());
    let output = std::process::Command::new(rustc)
        .arg("--version")
        .output()
        .expect("rustc runs");
    String::from_utf8_lossy(&output.stdout).trim().to_owned()
}

#[test]
fn misuse_is_a_compile_error() {
    let cases = trybuild::TestCases::new();
    let version = rustc_version();
    if version.starts_with(BLESSED_WITH) {
        cases.compile_fail("tests/ui/*.rs");
    } else {
        eprintln!(
            "the compile-fail cases are skipped: their messages were blessed with \
             {BLESSED_WITH}x, and this is {version}"
        );
    }
    cases.pass("tests/ui-pass/*.rs");
}
