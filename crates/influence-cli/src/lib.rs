//! The `influence` command's machinery as a library: the scenario model and loader, running
//! a scenario, and writing its outputs. `src/main.rs` is the command line over it; the fuzz
//! targets in `fuzz/` use [`scenario::parse`] directly.
#![forbid(unsafe_code)]

pub mod animate;
pub mod bench;
pub mod bench_field;
pub mod demo;
pub mod doc;
pub mod error;
pub mod falloff;
pub mod field;
pub mod frames;
pub mod gif_writer;
pub mod map;
pub mod npy;
pub mod output;
pub mod propagation;
pub mod route;
pub mod run;
pub mod scenario;
pub mod spread;
pub mod summary;
