//! Propagation: influence that spreads over time, remembers, fades, and floods.
//!
//! * [`Diffusion`] and [`Propagator`]: the step of "The Core Mechanics of Influence Mapping"
//!   (Champandard) and "Influence Maps: Part 1" — every walkable cell takes the strongest
//!   neighbour's value decayed by the distance to it, and moves towards it by `momentum`,
//!   double-buffered. Written once over any [`Space`](crate::Space), plus a vectorised row
//!   kernel for grids that gives bit-identical results, alone, several steps fused in one
//!   pass over memory, or in parallel bands of rows (feature `rayon`) — see [Speed](#speed).
//! * [`SteadyState`]: where the step ends up for fixed sources, in one best-first sweep.
//! * [`SparsePropagator`]: the same step visiting only influenced cells and their
//!   neighbours (the optimisation of Tayebi, "Influence Maps in Game AI").
//! * [`MemoryLayer`], [`Events`], [`Schedule`]: breadcrumbs and historical maps, dynamic
//!   and static layers, timed events, and per-layer update rates with time slicing.
//! * [`FloodFill`]: the Dishonored 2 chase prediction as Tayebi describes it.
//!
//! ## Signs: one non-negative layer per team
//!
//! The step spreads *positive* influence: a cell takes the maximum over its neighbours,
//! starting from 0, so negative values never spread (they only relax towards 0). Keep one
//! layer per team, each non-negative, let each spread on its own, and combine them
//! afterwards — influence = mine − theirs, tension, vulnerability — with
//! [`Analysis`](crate::Analysis). Champandard's remark that negative influence needs its own
//! minimum accumulation is exactly this split.
//!
//! ```
//! use influence::propagate::{Diffusion, Propagator, Seed};
//! use influence::{Analysis, Grid};
//! let grid = Grid::from_rows(&["........"])?;
//! let diffusion = Diffusion::new(0.3, 1.0)?;
//! let (mut red, mut blue) = (Propagator::new(&grid, diffusion), Propagator::new(&grid, diffusion));
//! for _ in 0..8 {
//!     red.write_seeds(&grid, &[Seed::new(0, 1.0)])?;
//!     blue.write_seeds(&grid, &[Seed::new(7, 1.0)])?;
//!     red.step_grid(&grid);
//!     blue.step_grid(&grid);
//! }
//! let maps = Analysis::from_teams(&[red.values(), blue.values()], 0);
//! assert!(maps.influence[1] > 0.0 && maps.influence[6] < 0.0);
//! # Ok::<(), influence::Error>(())
//! ```
//!
//! ## Speed
//!
//! One grid step is about twenty vector instructions per 16 cells: arithmetic-bound while
//! the map fits in cache, then bound by memory as well. [`Propagator::steps_grid`] fuses up
//! to 16 steps in one pass over memory, so at sizes beyond the cache a step costs what its
//! arithmetic costs; `par_step_grid` and `par_steps_grid` (feature `rayon`) split the rows
//! among threads.
//! The crate is built for the target's baseline (SSE2 on x86-64); the step runs a
//! hand-written AVX-512 kernel where the CPU has AVX-512, else the portable kernel compiled
//! for AVX2 where it has that. All of these give the same bits. The environment variable
//! `INFLUENCE_KERNEL=avx2` or `=portable` caps the choice, to compare them.
//!
//! Nanoseconds per cell and step, all measured in one run of
//! `cargo bench -p influence --bench propagate --features rayon` on a shared 2-core AMD EPYC
//! (Zen 5, AVX-512) — read the ratios, the times move with the machine's load:
//!
//! | ns per cell and step                      | 4-nb 1024² | 4-nb 4096² | 8-nb 1024² | 8-nb 4096² |
//! |-------------------------------------------|-----------:|-----------:|-----------:|-----------:|
//! | plain copy of one map (`copy`)            |      0.062 |      0.172 |      0.062 |      0.185 |
//! | `step_grid` (`step`)                      |      0.123 |      0.315 |      0.290 |      0.465 |
//! | `steps_grid`, 16 fused (`fused16`)        |      0.121 |      0.133 |      0.196 |      0.239 |
//! | `par_step_grid`, 2 threads                |      0.077 |      0.208 |      0.161 |      0.265 |
//! | `par_steps_grid`, 16 fused, 2 threads     |      0.066 |      0.074 |      0.103 |      0.119 |
//! | `DiffusionReference` (`reference`)        |       4.98 |       5.03 |       7.95 |       8.09 |
//!
//! So a 4-neighbour step takes 1.8–2 copies' time on one thread, and fused steps on a map
//! beyond the cache take 0.77 of a copy each; 8-neighbour steps, with twice the arithmetic,
//! take 2.5–4.7 copies (1.3 fused). A step is 16–40 times faster than the reference.
//! With `INFLUENCE_KERNEL=avx2` (`influence bench` in one run) single 4-neighbour steps take
//! 0.23 ns per cell at 1024² and 0.67 at 4096², 8-neighbour ones 0.41 and 0.74; with
//! `portable` (SSE2) 0.46 / 0.72 and 0.89 / 1.07.
//!
//! A frame of a game on a 256 × 256 map — 1,000 agents stamped, then 50 steps with their
//! cells re-written before each — takes 1.24 ms with fused steps and 1.36 ms with single
//! ones (`frame` in the same bench), against the one 16 ms frame that "Influence Maps in
//! Game AI" (Tayebi) gives it.

#[cfg(target_arch = "x86_64")]
mod avx512;
mod blocked;
mod diffuse;
mod dispatch;
mod events;
mod flood;
mod grid_kernel;
mod memory;
mod propagator;
mod schedule;
mod seed;
mod sparse;
mod steady;

pub use diffuse::{DecayKind, Diffusion};
pub use events::{Events, Fade, TimedEvent};
pub use flood::{Chase, FloodFill, Prediction, Stop};
pub use memory::{MemoryLayer, Persistence};
pub use propagator::Propagator;
pub use schedule::Schedule;
pub use seed::{seeds_from_sources, Seed};
pub use sparse::SparsePropagator;
pub use steady::SteadyState;
