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
//! minimum accumulation is exactly this split. Such maps also step faster: where every value
//! is finite and at least +0, the grid kernels skip their guards against the others (see
//! [Speed](#speed)).
//!
//! ```
//! use influence::propagate::{Diffusion, Propagator, Seed, Steps};
//! use influence::{Analysis, Grid};
//! let grid = Grid::from_rows(&["........"])?;
//! let diffusion = Diffusion::new(0.3, 1.0)?;
//! let (mut red, mut blue) = (Propagator::new(&grid, diffusion), Propagator::new(&grid, diffusion));
//! for _ in 0..8 {
//!     red.write_seeds(&grid, &[Seed::new(0, 1.0)])?;
//!     blue.write_seeds(&grid, &[Seed::new(7, 1.0)])?;
//!     red.step(&grid, Steps::default())?;
//!     blue.step(&grid, Steps::default())?;
//! }
//! let maps = Analysis::from_teams(red.values(), &[blue.values()]);
//! assert!(maps.influence[1] > 0.0 && maps.influence[6] < 0.0);
//! # Ok::<(), influence::Error>(())
//! ```
//!
//! ## Speed
//!
//! One grid step is about fifteen (4 neighbours) to twenty-five (8) vector instructions per
//! 16 cells: arithmetic-bound while the map fits in cache, then bound by memory as well.
//! [`Propagator::step`] fuses up to 16 steps in one pass over memory ([`Steps::count`]), so
//! at sizes beyond the cache a step costs what its arithmetic costs; [`Steps`]`::parallel`
//! (feature `rayon`) splits the rows among threads. A step alone on a map beyond the core's
//! L2 (on the AVX-512 kernel) is written over the map it reads, which moves two lines of
//! memory per line of the map instead of three. On maps of 2²² cells or more a pass of
//! several steps writes its output past the caches (non-temporal stores): an ordinary store
//! reads each line before writing it, a third of a single step's memory traffic.
//! A [`Propagator`] knows when its map holds only finite values of at least +0 (never −0):
//! seeds of such strengths and steps keep it so, and after
//! [`values_mut`](Propagator::values_mut) the next step checks, in the same pass that clears
//! the walls. On such a map the AVX-512 kernel skips the guards the step needs against
//! negative values, −0, NaN and infinities, two vector operations of 13 with 4 neighbours
//! and 3 of 23 with 8, with the same bits.
//! The crate is built for the target's baseline (SSE2 on x86-64); the step runs a
//! hand-written AVX-512 kernel where the CPU has AVX-512, else the portable kernel compiled
//! for AVX2 where it has that. All of these give the same bits. The environment variable
//! `INFLUENCE_KERNEL=avx2` or `=portable` caps the choice, to compare them.
//!
//! Nanoseconds per cell and step, all measured in one run of
//! `cargo bench -p influence-bench --bench propagate -- --quick` on a shared
//! 2-core AMD EPYC (Zen 4: AVX-512 on 256-bit units) — read the ratios, the times move
//! with the machine's load (10–20 % from run to run):
//!
//! | ns per cell and step                      | 4-nb 1024² | 4-nb 4096² | 8-nb 1024² | 8-nb 4096² |
//! |-------------------------------------------|-----------:|-----------:|-----------:|-----------:|
//! | plain copy of one map (`copy`)            |      0.097 |      0.377 |      0.085 |      0.380 |
//! | one step (`step`)                         |      0.340 |      0.675 |      0.442 |      0.689 |
//! | 16 fused steps (`fused16`)                |      0.291 |      0.240 |      0.414 |      0.374 |
//! | one step, parallel, 2 threads             |      0.272 |      0.372 |      0.322 |      0.429 |
//! | 16 fused steps, parallel, 2 threads       |      0.160 |      0.138 |      0.262 |      0.233 |
//! | `DiffusionReference` (`reference`)        |       6.48 |       8.69 |       10.6 |       12.1 |
//! | the step in cache (`arithmetic`, 1024 × 32) |    0.209 |            |      0.409 |            |
//!
//! So beyond the caches (4096²) a single step takes 1.8 copies' time on one thread, and a
//! fused step 0.64 (4 neighbours) and 0.98 (8) of one copy: fused 8-neighbour steps cost
//! their arithmetic and no more. Within the cache (1024²) the copy runs from the
//! last-level cache at about 100 GB/s, and a step costs its arithmetic — the `arithmetic`
//! row, a map that never leaves the second-level cache, is already 2.2 and 4.8 copies'
//! time — plus 10–60 %. That is on Zen 4, whose AVX-512 units are 256 bits wide; on a
//! Zen 5 with full-width units an earlier run measured 1024² steps at 2.0 and 4.7 copies.
//! A step is 10–25 times faster than the reference. `influence bench` measures the same
//! kernels with the copy timed in turns with each, which holds the ratios steadier on a
//! shared machine.
//!
//! (Those figures predate the kernel's chunks on cache lines; `docs/PERFORMANCE.md` has the
//! current ratios against a flat hand-written loop.)
//!
//! A frame of a game on a 256 × 256 map — 1,000 agents stamped, then 50 steps with their
//! cells re-written before each — takes 1.8 ms with fused steps and 2.0 ms with single
//! ones (`frame` in the same bench), against the one 16 ms frame that "Influence Maps in
//! Game AI" (Tayebi) gives it.

mod apart;
#[cfg(target_arch = "x86_64")]
mod avx2;
#[cfg(target_arch = "x86_64")]
mod avx512;
mod bound;
mod diffuse;
mod dispatch;
mod events;
mod flood;
mod fused;
mod in_place;
mod memory;
mod portable;
mod propagator;
mod schedule;
mod seed;
mod single;
mod sparse;
mod steady;

pub use diffuse::Diffusion;
pub use events::Events;
pub use flood::{Chase, FloodFill, Prediction};
pub use memory::MemoryLayer;
pub use propagator::{Propagator, Steps};
pub use schedule::Schedule;
pub use seed::{seeds_from_sources, Seed};
pub use sparse::SparsePropagator;
pub use steady::SteadyState;
