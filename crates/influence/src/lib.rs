//! # influence
//!
//! Influence maps for game AI: units and events put influence on a map, it falls off with
//! distance (straight-line or around walls), layers combine into the classic influence,
//! tension and vulnerability maps, and queries answer "where is the front, where is it safe".
//!
//! Data flows one way through the modules:
//!
//! ```text
//! space (Grid, Space)  →  source + falloff (what to place)  →  stamp (writes into a Layer)
//!        →  layer algebra / analysis (compound maps)  →  query (answers)  /  render (pictures)
//! ```
//!
//! ```
//! use influence::{Analysis, Cell, Falloff, Grid, Layer, Metric, Source, Space, Stamper};
//! let grid = Grid::from_rows(&[
//!     "..........",
//!     "....@.....",
//!     "....@.....",
//!     "..........",
//! ])?;
//! let mut stamper = Stamper::new();
//! let (mut red, mut blue) = (Layer::for_space(&grid), Layer::for_space(&grid));
//! stamper.stamp(&grid, &mut red, &Source::new(grid.center(Cell::new(1, 2)), 4.0, Falloff::Linear, 5.0)?)?;
//! stamper.stamp(&grid, &mut blue, &Source::new(grid.center(Cell::new(8, 2)), 4.0, Falloff::Linear, 5.0)?
//!     .with_metric(Metric::Path))?;
//! let maps = Analysis::from_teams(&red, &[&blue]); // red's view of blue
//! // Red controls its own side, blue the other, and the front lies between.
//! assert!(maps.influence[grid.index(Cell::new(0, 2)).unwrap()] > 0.0);
//! assert!(maps.influence[grid.index(Cell::new(9, 2)).unwrap()] < 0.0);
//! # Ok::<(), influence::Error>(())
//! ```
//!
//! ## Features
//!
//! All off by default; the core needs only `glam`, `thiserror` and `rstar`.
//! The crate denies `unsafe` everywhere but the modules of the vector kernels, each of which
//! runs only after checking that the CPU has the instructions: `propagate::dispatch`, which
//! calls the AVX2 or AVX-512 build of the grid step, `propagate::avx512`, that step's AVX-512
//! intrinsics, `stamp::x86`, stamping's AVX-512 rows and prefetches, and `field::x86`, the
//! field's AVX-512 sum over a bin of sources.
//!
//! - `png`: `render::encode_png` and `render::write_png` (the `png` crate, default
//!   features off).
//! - `serde`: `Serialize`/`Deserialize` for [`Connectivity`], [`Metric`], [`Mode`] and
//!   [`query::Extreme`], and the JSON graph format (`Graph::from_json`, `Graph::to_json`).
//! - `petgraph`: `Graph::from_petgraph` and `Graph::to_petgraph`.
//! - `rayon`: `Steps::parallel` for `Propagator::step`, bit-identical to one thread.
//!
//! The algorithms come from five public articles, cited where used: Champandard, "The Core
//! Mechanics of Influence Mapping" (GameDev.net, 2011); "Influence Maps: Part 1" (2022);
//! Tayebi, "Influence Maps in Game AI"; "Influence Maps I" (the Ground Control 2 / World in
//! Conflict tension and vulnerability maps, 2010); and "Escaping the Grid" (infinite-resolution
//! influence maps, Game AI Pro).
#![deny(unsafe_code)]
#![deny(missing_docs)]
// The library's own lints, beyond the workspace's (Cargo.toml inherits those and cannot add
// to them there); CI lints with `-D warnings`, so each fails it. Integration tests are not
// held to them.
// `pub` means reachable from outside; everything else says `pub(crate)` or `pub(super)`:
#![warn(unreachable_pub)]
// Every unsafe operation, even in an `unsafe fn`, is in a block (whose `// SAFETY:` comment
// the workspace lint `clippy::undocumented_unsafe_blocks` requires):
#![warn(unsafe_op_in_unsafe_fn)]
// Types that borrow say so in paths (`Cost<'_>`, not `Cost`); public types can be printed:
#![warn(elided_lifetimes_in_paths, missing_debug_implementations)]
// Pedantic lints the code meets, each for a cost a reader or caller would otherwise pay:
// docs that render right and name their errors and panics, control flow without detours,
// iteration and ownership that say what they do, checked conversions and readable literals,
// and pointer casts in the SIMD kernels that keep their types. Left out on purpose: the
// cast-precision family and many_single_char_names (numeric kernels), inline_always (the
// kernels rely on it to inherit target features), must_use_candidate (nearly every
// function; builders are covered by return_self_not_must_use).
#![warn(
    clippy::doc_markdown,
    clippy::doc_link_with_quotes,
    clippy::missing_errors_doc,
    clippy::missing_panics_doc,
    clippy::manual_let_else,
    clippy::if_not_else,
    clippy::redundant_else,
    clippy::single_match_else,
    clippy::manual_assert,
    clippy::explicit_iter_loop,
    clippy::explicit_into_iter_loop,
    clippy::needless_for_each,
    clippy::cloned_instead_of_copied,
    clippy::flat_map_option,
    clippy::map_unwrap_or,
    clippy::trivially_copy_pass_by_ref,
    clippy::large_types_passed_by_value,
    clippy::implicit_clone,
    clippy::unnecessary_wraps,
    clippy::unused_self,
    clippy::return_self_not_must_use,
    clippy::default_trait_access,
    clippy::checked_conversions,
    clippy::unreadable_literal,
    clippy::bool_to_int_with_if,
    clippy::range_plus_one,
    clippy::ptr_as_ptr,
    clippy::borrow_as_ptr,
    clippy::ptr_cast_constness
)]

pub mod analysis;
pub mod error;
pub mod falloff;
pub mod field;
pub mod layer;
mod paths;
pub mod propagate;
pub mod query;
pub mod registry;
pub mod render;
pub mod route;
mod simd;
pub mod source;
pub mod space;
pub mod stamp;
#[cfg(test)]
mod test_rng;

pub use analysis::Analysis;
pub use error::Error;
pub use falloff::{Band, Falloff};
pub use glam;
pub use layer::Layer;
pub use query::Extreme;
pub use registry::{LayerId, Registry};
pub use source::{Metric, Mode, Source};
pub use space::{Cell, Connectivity, Graph, Grid, Space, MAX_CELLS};
pub use stamp::Stamper;

/// README.md's library example, run as a doc test, so it cannot drift from code that
/// compiles, runs and finds influence. Its map path is relative to the workspace root, which
/// `data` in this crate's folder links to (doc tests run in the crate's folder).
#[cfg(doctest)]
#[doc = include_str!("../../../README.md")]
struct ReadmeExample;
