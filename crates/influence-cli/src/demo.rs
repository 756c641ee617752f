//! The built-in demo: two armies on the Dragon Age map `den012d` (310 × 350). It is an
//! ordinary scenario, `demo.toml`, rendered exactly as `influence render` would; its map is
//! built into the program under the same relative name the file uses, so
//! `influence render crates/influence-cli/src/demo.toml` gives the same result.

use influence_scenario::map::MapFiles;
use influence_scenario::scenario::{self, Scenario};

use crate::error::CliError;

/// The demo scenario's text.
pub const SCENARIO: &str = include_str!("demo.toml");

/// The maps the demo may name, with the relative paths `demo.toml` uses for them.
const MAPS: &[(&str, &str)] =
    &[("../../../data/maps/den012d.map", include_str!("../../../data/maps/den012d.map"))];

/// The demo scenario, validated.
///
/// # Errors
/// Only if the embedded scenario were broken; a test renders it.
pub fn scenario() -> Result<Scenario, CliError> {
    Ok(scenario::parse("demo.toml (built in)", SCENARIO, &MapFiles::Embedded(MAPS))?)
}
