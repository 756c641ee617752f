//! Seeds: sources written straight into cells, for any space.
//!
//! A [`Source`] has a world position and a falloff and needs a [`Grid`] and a [`Stamper`];
//! a [`Seed`] is a cell index and a value, so it works on graphs too, and writing a list of
//! seeds is a plain loop. [`seeds_from_sources`] turns grid sources into the seeds that
//! stamping them would write, so fixed sources are stamped once, not every step.

use crate::error::{finite, Error};
use crate::layer::Layer;
use crate::source::{Mode, Source};
use crate::space::{Grid, Space};
use crate::stamp::Stamper;

/// A value written into one cell before each step, combined with what the cell holds per
/// its [`Mode`]. A seed on a blocked cell writes nothing (a wall holds no influence):
/// seeds are cells chosen by the caller, and [`seeds_from_sources`] never makes one there,
/// since the stamper refuses a source on a wall ([`Error::Unplaced`]).
///
/// ```
/// use influence::{propagate::Seed, Mode};
/// let turret = Seed::new(12, 5.0); // a reference source: the cell is set to 5 ("Part 1")
/// let shots = Seed::new(12, 1.0).with_mode(Mode::Add); // additive, e.g. gunfire
/// assert_eq!((turret.mode, shots.mode), (Mode::Set, Mode::Add));
/// ```
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Seed {
    /// The cell (or node) index.
    pub cell: usize,
    /// The value written (finite).
    pub strength: f32,
    /// How it combines with the cell's value.
    pub mode: Mode,
}

impl Seed {
    /// A seed that sets its cell to `strength` ([`Mode::Set`]): the source of
    /// "Influence Maps: Part 1", whose buffer cell is reset to the strength before each step.
    pub fn new(cell: usize, strength: f32) -> Self {
        Self { cell, strength, mode: Mode::Set }
    }

    /// The same seed with another mode.
    #[must_use]
    pub fn with_mode(mut self, mode: Mode) -> Self {
        self.mode = mode;
        self
    }
}

/// Checks every seed before anything is written, so a bad list leaves the layer unchanged.
pub(super) fn check(len: usize, seeds: &[Seed]) -> Result<(), Error> {
    for s in seeds {
        if s.cell >= len {
            return Err(Error::OutOfBounds { index: s.cell, len });
        }
        finite("seed strength", s.strength)?;
    }
    Ok(())
}

/// Writes checked seeds into `values` in order, calling `written(cell)` for each walkable one.
pub(super) fn apply<S: Space>(space: &S, values: &mut [f32], seeds: &[Seed], mut written: impl FnMut(usize)) {
    for s in seeds.iter().filter(|s| space.is_walkable(s.cell)) {
        values[s.cell] = s.mode.apply(values[s.cell], s.strength);
        written(s.cell);
    }
}

/// Appends to `out` the seeds that stamping `sources` in order would write: one seed per
/// cell each source touches, with the stamped value and the source's mode as a seed
/// ([`Mode::Set`] unless the source chose one, see [`Source::mode`], so that a source
/// under diffusion holds its value instead of piling up). With the same modes, writing these
/// seeds gives bit-for-bit the layer that `stamper.stamp_all` gives, so a propagator with
/// fixed sources can stamp them once; [`SteadyState`](super::SteadyState) and
/// [`SparsePropagator`](super::SparsePropagator) take seeds only.
///
/// A source that cannot be placed ([`Stamper::stamp`]) gives no seeds; the others still
/// do, and the first refusal is returned.
///
/// This is a set-up step: it allocates a scratch layer of the grid's size.
///
/// # Errors
/// [`Error::Unplaced`] for the first source on a blocked cell.
///
/// ```
/// use influence::{propagate::{seeds_from_sources, Seed}, Cell, Falloff, Grid, Layer, Mode, Source, Stamper};
/// let grid = Grid::new(5, 5)?;
/// let sources = [Source::new(grid.center(Cell::new(2, 2)), 3.0, Falloff::Linear, 1.5)?];
/// let mut seeds = Vec::new();
/// seeds_from_sources(&grid, &mut Stamper::new(), &sources, &mut seeds)?;
/// assert_eq!(seeds.len(), 9); // the cell, four at distance 1, four at √2
/// assert!(seeds.iter().all(|s| s.mode == Mode::Set)); // no mode given: a seed sets its cell
/// let (mut stamped, mut seeded) = (Layer::for_space(&grid), Layer::for_space(&grid));
/// Stamper::new().stamp_all(&grid, &mut stamped, &sources)?;
/// for s in &seeds { seeded[s.cell] = s.strength; } // onto zeros, as stamping adds
/// assert_eq!(stamped, seeded);
/// # Ok::<(), influence::Error>(())
/// ```
pub fn seeds_from_sources(
    grid: &Grid,
    stamper: &mut Stamper,
    sources: &[Source],
    out: &mut Vec<Seed>,
) -> Result<(), Error> {
    // Stamp each source alone, in Set mode, into a layer of NaNs: the cells it touches are
    // exactly those that are no longer NaN, and they hold its value.
    let mut scratch = Layer::from_vec(vec![f32::NAN; grid.len()]);
    let mut first = Ok(());
    for source in sources {
        if let Err(e) = stamper.stamp(grid, &mut scratch, &source.clone().with_mode(Mode::Set)) {
            if first.is_ok() {
                first = Err(e);
            }
            continue;
        }
        let (x0, x1, y0, y1) = footprint_box(grid, source);
        for y in y0..y1 {
            for i in y * grid.width() + x0..y * grid.width() + x1 {
                let v = scratch[i];
                if !v.is_nan() {
                    out.push(Seed { cell: i, strength: v, mode: source.seed_mode() });
                    scratch[i] = f32::NAN;
                }
            }
        }
    }
    first
}

/// Cell ranges `[x0, x1) × [y0, y1)` that hold every cell a source can touch: its radius
/// bounds the straight-line distance and the path distance alike.
fn footprint_box(grid: &Grid, source: &Source) -> (usize, usize, usize, usize) {
    let c = grid.to_cell_space(source.position());
    let reach = (source.radius() / grid.cell_size()).ceil() + 2.0;
    let span = |centre: f32, n: usize| {
        let lo = (centre - reach).floor().clamp(0.0, n as f32) as usize;
        let hi = (centre + reach).ceil().clamp(0.0, n as f32) as usize;
        (lo, hi)
    };
    let ((x0, x1), (y0, y1)) = (span(c.x, grid.width()), span(c.y, grid.height()));
    (x0, x1, y0, y1)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::falloff::Falloff;
    use crate::source::Metric;
    use crate::Cell;

    #[test]
    fn a_source_without_a_mode_holds_its_value_under_diffusion() {
        use crate::propagate::{Diffusion, Propagator, Steps};
        let grid = Grid::new(9, 9).unwrap();
        let unit = Source::new(grid.center(Cell::new(4, 4)), 5.0, Falloff::Linear, 2.0).unwrap();
        let at = grid.index(Cell::new(4, 4)).unwrap();
        let run = |source: Source| {
            let mut seeds = Vec::new();
            seeds_from_sources(&grid, &mut Stamper::new(), &[source], &mut seeds).unwrap();
            let mut p = Propagator::new(&grid, Diffusion::new(0.9, 0.0).unwrap());
            p.step(&grid, Steps { count: 10, seeds: &seeds, ..Steps::default() }).unwrap();
            p.values()[at]
        };
        assert_eq!(run(unit.clone()), 5.0, "a reference source holds its cell");
        assert!(run(unit.with_mode(Mode::Add)) > 10.0, "an additive one, asked for, piles up");
    }

    #[test]
    fn seeds_reproduce_stamping_for_every_mode_and_metric() {
        let grid = Grid::from_rows(&["........", "..@@....", "....@...", "........"]).unwrap();
        for metric in [Metric::Euclidean, Metric::Path] {
            for mode in [Mode::Add, Mode::Set, Mode::Max] {
                let sources: Vec<Source> = [(1, 1, 2.0), (5, 2, 3.0), (2, 3, -1.0)]
                    .iter()
                    .map(|&(x, y, s)| {
                        Source::new(grid.center(Cell::new(x, y)), s, Falloff::Linear, 2.5)
                            .unwrap()
                            .with_metric(metric)
                            .with_mode(mode)
                    })
                    .collect();
                let mut seeds = Vec::new();
                seeds_from_sources(&grid, &mut Stamper::new(), &sources, &mut seeds).unwrap();
                let mut stamped = Layer::from_vec(vec![0.5; grid.len()]);
                let mut seeded = stamped.clone();
                Stamper::new().stamp_all(&grid, &mut stamped, &sources).unwrap();
                check(grid.len(), &seeds).unwrap();
                apply(&grid, seeded.values_mut(), &seeds, |_| {});
                assert_eq!(stamped, seeded, "{metric:?} {mode:?}");
            }
        }
    }

    #[test]
    fn bad_seeds_are_refused_before_anything_is_written() {
        let seeds = [Seed::new(0, 1.0), Seed::new(9, 1.0)];
        assert_eq!(check(4, &seeds), Err(Error::OutOfBounds { index: 9, len: 4 }));
        let err = check(4, &[Seed::new(0, f32::NAN)]).unwrap_err();
        assert!(matches!(err, Error::BadNumber { what: "seed strength", .. }));
    }
}
