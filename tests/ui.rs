//! Compile-fail tests: every misuse is a compile error with a clear message at its span;
//! `ui-pass/` holds what must compile (the guard's contracts once their exceptions are named).
//! The `.stderr` files are for the toolchain on our machines (Rust 1.95);
//! `TRYBUILD=overwrite cargo test --test ui` rewrites them.

#[test]
fn misuse_is_a_compile_error() {
    let cases = trybuild::TestCases::new();
    cases.compile_fail("tests/ui/*.rs");
    cases.pass("tests/ui-pass/*.rs");
}
