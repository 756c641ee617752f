//! The `influence` command (being written on the cli branch).
fn main() {}
