//! # influence-scenario
//!
//! The scenario format of `influence` (`docs/scenario.md`), shared by the `influence` command
//! and the sandbox so that both read, check and write it alike:
//!
//! * the tables as written — [`file::ScenarioFile`] and its `[map]`, `[[source]]`,
//!   `[propagation]`, `[field]`, `[[path]]` and `[output]` tables — with serde, unknown keys
//!   refused, and [`ScenarioFile::to_toml`](file::ScenarioFile::to_toml) to put a scenario back into TOML;
//! * their validation into library objects (`Grid`, `Source`, `Diffusion`, `Chase`, routes):
//!   each table on its own, returning [`Invalid`] (the key path at fault), or a whole file
//!   with [`scenario::parse`], whose errors are [`Located`] at file, line and key through the
//!   spans of [`doc::Doc`];
//! * the one engine that runs a scenario, [`engine::Run`]: stamping, diffusion (fused),
//!   steady state, flood fill, the compound maps, routes and the summary, with the edits the
//!   sandbox makes; the command, the sandbox and the fuzz targets all drive it.
//!
//! ```
//! use influence_scenario::{map::MapFiles, scenario};
//! let text = "[map]\nwidth = 8\nheight = 4\n\n[[source]]\nteam = \"red\"\nat = [1, 1]\n\
//!             strength = 5\nfalloff = \"linear\"\nradius = 4\n";
//! let s = scenario::parse("s.toml", text, &MapFiles::Embedded(&[]))?;
//! assert_eq!((s.grid.width(), s.teams.len()), (8, 1));
//! let bad = scenario::parse("s.toml", &text.replace("radius = 4", "radius = -4"), &MapFiles::Embedded(&[]));
//! assert!(bad.unwrap_err().to_string().starts_with("s.toml:10:1: source[0].radius: "));
//! # Ok::<(), influence_scenario::Located>(())
//! ```
#![forbid(unsafe_code)]
#![deny(missing_docs)]

pub mod color;
pub mod demo;
pub mod doc;
pub mod engine;
pub mod error;
pub mod falloff;
pub mod field;
pub mod file;
mod fixed;
mod key;
pub mod known;
pub mod layers;
pub mod map;
mod map_files;
pub mod memory;
pub mod propagation;
pub mod report;
pub mod route;
mod rule;
pub mod scenario;
pub mod source;
mod vocab;
mod write;

pub use error::{Invalid, Located};
pub use fixed::Fixed;
pub use key::KeyPath;
pub use map_files::read_movingai;
