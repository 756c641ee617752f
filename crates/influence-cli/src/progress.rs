//! Progress bars on standard error for work that takes a while, hidden when standard error
//! is not a terminal (a pipe, a test, CI).

use std::io::IsTerminal;

use indicatif::{ProgressBar, ProgressStyle};

/// A bar of `len` `unit`s (a spinner when the length is not known) saying `message`.
pub fn bar(len: Option<usize>, message: &'static str, unit: &str) -> ProgressBar {
    if !std::io::stderr().is_terminal() {
        return ProgressBar::hidden();
    }
    match len {
        Some(n) => ProgressBar::new(n as u64).with_message(message).with_style(
            ProgressStyle::with_template(&format!("{{msg}} {{bar:40}} {{pos}}/{{len}} {unit}, {{eta}} left"))
                .unwrap_or_else(|_| ProgressStyle::default_bar()),
        ),
        None => ProgressBar::new_spinner().with_message(message),
    }
}
