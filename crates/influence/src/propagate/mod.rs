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
//! One grid step is about fifteen (4 neighbours) to twenty-five (8) vector instructions per
//! 16 cells: arithmetic-bound while the map fits in cache, then bound by memory as well.
//! [`Propagator::steps_grid`] fuses up to 16 steps in one pass over memory, so at sizes
//! beyond the cache a step costs what its arithmetic costs; `par_step_grid` and
//! `par_steps_grid` (feature `rayon`) split the rows among threads. On maps of 2²² cells or
//! more a pass writes its output past the caches (non-temporal stores): an ordinary store
//! reads each line before writing it, a third of a single step's memory traffic.
//! The crate is built for the target's baseline (SSE2 on x86-64); the step runs a
//! hand-written AVX-512 kernel where the CPU has AVX-512, else the portable kernel compiled
//! for AVX2 where it has that. All of these give the same bits. The environment variable
//! `INFLUENCE_KERNEL=avx2` or `=portable` caps the choice, to compare them.
//!
//! Nanoseconds per cell and step, all measured in one run of
//! `cargo bench -p influence --bench propagate --features rayon -- --quick` on a shared
//! 2-core AMD EPYC (Zen 4: AVX-512 on 256-bit units) — read the ratios, the times move
//! with the machine's load:
//!
//! | ns per cell and step                      | 4-nb 1024² | 4-nb 4096² | 8-nb 1024² | 8-nb 4096² |
//! |-------------------------------------------|-----------:|-----------:|-----------:|-----------:|
//! | plain copy of one map (`copy`)            |      0.091 |      0.432 |      0.088 |      0.432 |
//! | `step_grid` (`step`)                      |      0.362 |      0.729 |      0.606 |      0.814 |
//! | `steps_grid`, 16 fused (`fused16`)        |      0.301 |      0.226 |      0.470 |      0.347 |
//! | `par_step_grid`, 2 threads                |      0.209 |      0.413 |      0.326 |      0.521 |
//! | `par_steps_grid`, 16 fused, 2 threads     |      0.154 |      0.127 |      0.223 |      0.224 |
//! | `DiffusionReference` (`reference`)        |       8.60 |       9.32 |       10.7 |       12.4 |
//!
//! So beyond the caches (4096²) a single step takes 1.7 (4 neighbours) and 1.9 (8) copies'
//! time on one thread, and a fused step 0.52 and 0.80 of one copy. Within the cache
//! (1024²) the copy runs from the last-level cache at about 100 GB/s and the step is
//! bound by its arithmetic: 4 and 7 copies' time on Zen 4, whose AVX-512 units are 256
//! bits wide (on a Zen 5 with full-width units an earlier run measured 2.0 and 4.7). The
//! bench's `arithmetic` group shows that bound: a step on a 1024 × 32 map, which never
//! leaves the second-level cache, took 0.22 (4 neighbours) and 0.42 (8) ns per cell in a
//! later, busier run whose copy of a 1024² map took 0.105 — the arithmetic alone is 2.1
//! and 4 copies' time there. A step is 15–30 times faster than the reference.
//! `influence bench` measures the same kernels with the copy timed in turns with each,
//! which holds the ratios steadier on a shared machine; from run to run they still move
//! by about 10 %.
//!
//! A frame of a game on a 256 × 256 map — 1,000 agents stamped, then 50 steps with their
//! cells re-written before each — takes 1.9 ms with fused steps and 2.7 ms with single
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
