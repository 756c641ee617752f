//! The `influence` command's machinery as a library: running a scenario (read and checked
//! by `influence_scenario`) and writing its outputs. `src/main.rs` is the command line over
//! it; the fuzz targets in `fuzz/` run and summarise scenarios through it.
#![forbid(unsafe_code)]

pub mod animate;
pub mod demo;
pub mod error;
pub mod frames;
pub mod gif_writer;
pub mod npy;
pub mod output;
pub mod progress;
