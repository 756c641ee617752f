//! The built-in demo: two armies on the Dragon Age map `den012d` (310 × 350), the scenario
//! `influence demo` renders and the sandbox opens on. It is an ordinary scenario file,
//! `demo.toml`, beside this one; its map is built in under the same relative name the file
//! uses, so `influence render crates/influence-scenario/src/demo.toml` gives the same result.

use crate::error::Located;
use crate::map::MapFiles;
use crate::scenario::{self, Scenario};

/// The demo scenario's text.
pub const SCENARIO: &str = include_str!("demo.toml");

/// How messages name the demo scenario.
pub const NAME: &str = "demo.toml (built in)";

/// The maps the demo names, with the relative paths `demo.toml` uses for them.
pub const MAPS: &[(&str, &str)] =
    &[("../../../data/maps/den012d.map", include_str!("../../../data/maps/den012d.map"))];

/// The demo scenario, validated.
///
/// # Errors
/// Only if the embedded scenario were broken; the command's tests render it.
pub fn scenario() -> Result<Scenario, Located> {
    scenario::parse(NAME, SCENARIO, &MapFiles::Embedded(MAPS))
}
