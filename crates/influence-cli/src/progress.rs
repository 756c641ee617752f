//! Progress bars on standard error for work that takes a while: shown only once the work
//! has run for [`DELAY`], and never when standard error is not a terminal (a pipe, a test,
//! CI) or with `--quiet`.

use std::io::IsTerminal;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

/// Work shorter than this shows no bar.
const DELAY: Duration = Duration::from_secs(1);

/// Set by `--quiet`: no bar at all.
static QUIET: AtomicBool = AtomicBool::new(false);

/// Turns every later bar off (`--quiet`).
pub fn set_quiet(quiet: bool) {
    QUIET.store(quiet, Ordering::Relaxed);
}

/// Whether bars may be drawn at all: not quiet, and standard error is a terminal.
fn allowed(quiet: bool, terminal: bool) -> bool {
    !quiet && terminal
}

/// A bar of `len` `unit`s (a spinner when the length is not known) saying `message`. It
/// starts hidden and appears after [`DELAY`] unless it was finished by then.
pub fn bar(len: Option<usize>, message: &'static str, unit: &str) -> ProgressBar {
    let bar = match len {
        Some(n) => ProgressBar::with_draw_target(Some(n as u64), ProgressDrawTarget::hidden())
            .with_message(message)
            .with_style(
                ProgressStyle::with_template(&format!(
                    "{{msg}} {{bar:40}} {{pos}}/{{len}} {unit}, {{eta}} left"
                ))
                .unwrap_or_else(|_| ProgressStyle::default_bar()),
            ),
        None => ProgressBar::with_draw_target(None, ProgressDrawTarget::hidden())
            .with_style(ProgressStyle::default_spinner())
            .with_message(message),
    };
    if allowed(QUIET.load(Ordering::Relaxed), std::io::stderr().is_terminal()) {
        let shown = bar.clone();
        // A detached timer: if the process ends first, there was nothing to show.
        let _ = std::thread::Builder::new().name("progress".into()).spawn(move || {
            std::thread::sleep(DELAY);
            if !shown.is_finished() {
                shown.set_draw_target(ProgressDrawTarget::stderr());
            }
        });
    }
    bar
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bars_only_on_a_terminal_and_never_when_quiet() {
        assert!(allowed(false, true));
        assert!(!allowed(true, true));
        assert!(!allowed(false, false));
        assert!(!allowed(true, false));
    }

    #[test]
    fn a_bar_starts_hidden() {
        assert!(bar(Some(3), "work", "steps").is_hidden());
        assert!(bar(None, "work", "steps").is_hidden());
    }
}
