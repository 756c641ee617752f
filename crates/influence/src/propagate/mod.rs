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
//! One grid step is a few dozen vector instructions per 8 cells: arithmetic-bound while the
//! map fits in cache, then bound by memory as well. [`Propagator::steps_grid`] fuses up to 16
//! steps in one pass over memory, so at sizes beyond the cache a step costs what its
//! arithmetic costs; `par_step_grid` and `par_steps_grid` (feature `rayon`) split the rows
//! among threads.
//! The kernels are built for the target's baseline (SSE2 on x86-64) and run as AVX2 where
//! the CPU has it, about twice as fast; all of these give the same bits.
//!
//! Nanoseconds per cell and step, all measured in one run of
//! `cargo bench -p influence --bench propagate --features rayon` on a shared 2-core AMD EPYC
//! (AVX2) — read the ratios, the times move with the machine's load:
//!
//! | ns per cell and step                      | 4-nb 1024² | 4-nb 4096² | 8-nb 1024² | 8-nb 4096² |
//! |-------------------------------------------|-----------:|-----------:|-----------:|-----------:|
//! | plain copy of one map (`copy`)            |      0.068 |      0.197 |      0.061 |      0.178 |
//! | `step_grid` (`step`)                      |       0.25 |       0.66 |       0.49 |       0.78 |
//! | `steps_grid`, 16 fused (`fused16`)        |       0.23 |       0.24 |       0.50 |       0.44 |
//! | `par_step_grid`, 2 threads                |       0.15 |       0.35 |       0.25 |       0.39 |
//! | `par_steps_grid`, 16 fused, 2 threads     |       0.12 |       0.13 |       0.25 |       0.24 |
//! | `DiffusionReference` (`reference`)        |        4.8 |        4.7 |        7.4 |        7.6 |
//!
//! So a step is 7–20 times faster than the reference, and fused steps 15–20 times. A copy
//! only moves bytes; a step does a few dozen operations per 8 cells besides, which is why it
//! takes 3.5–8 copies' time (less than 2 only with fused steps on 2 threads). Forcing the
//! SSE2 path instead of AVX2 takes 4-neighbour steps at 1024² from 0.23 to 0.42 ns per cell
//! and 8-neighbour ones from 0.38 to 0.88.
//!
//! A frame of a game on a 256 × 256 map — 1,000 agents stamped, then 50 steps with their
//! cells re-written before each — takes 2.1–2.4 ms (`frame` in the same bench: single or fused steps,
//! alike at a size that stays in cache), against the one 16 ms frame that "Influence Maps in
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
