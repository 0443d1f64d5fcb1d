//! What a server's author must hear (a dialect a listing crosses a budget in, what a dialect
//! cannot say), logged on standard error at warn: over stdio, standard output is the
//! protocol's. Each server example calls it first.

/// Installs the log subscriber.
pub fn install() {
    tracing_subscriber::fmt()
        .with_writer(std::io::stderr)
        .with_max_level(tracing_subscriber::filter::LevelFilter::WARN)
        .init();
}
