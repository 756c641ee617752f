//! Propagation: influence that spreads over time, remembers, fades, and floods.
//!
//! * [`Diffusion`] and [`Propagator`]: the step of "The Core Mechanics of Influence Mapping"
//!   (Champandard) and "Influence Maps: Part 1" — every walkable cell takes the strongest
//!   neighbour's value decayed by the distance to it, and moves towards it by `momentum`,
//!   double-buffered. Written once over any [`Space`](crate::Space), plus a row-wise kernel
//!   for grids that gives bit-identical results.
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

mod best_first;
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
