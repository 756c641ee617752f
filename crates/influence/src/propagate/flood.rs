//! Flood fill for the chase: where did the target go after we lost sight of it?
//!
//! The Dishonored 2 technique (Couvidou, "Flooding the Influence Map for Chase in
//! Dishonored 2", Game AI Pro Online 2021) as Tayebi describes it in "Influence Maps in Game
//! AI": heat starts at the last-seen cell; a barrier is raised behind the target, where its
//! velocity says it did not go; each step the newest heat spreads to untouched walkable
//! neighbours (at full heat, 1 unless [`Chase::initial_heat`] says otherwise) while older
//! heat cools; the prediction is the heat-weighted centre of the warm cells.
//!
//! Two choices differ from Tayebi's code and are deliberate: a cell is heated once only —
//! cooled cells are not reheated, so the wave never turns back and the fill always ends —
//! and the barrier is computed on the fly (cells within `barrier_radius` of the last-seen
//! position whose offset from it points against the velocity) instead of being a
//! propagated layer.

use glam::Vec3;

use crate::error::{finite, non_negative, positive, Error};
use crate::space::Space;

/// Parameters of a chase flood fill: plain data, checked by [`Chase::new`] and again by
/// [`FloodFill::predict`].
///
/// ```
/// use influence::propagate::Chase;
/// let chase = Chase::new(0.1, 200, 12, 3.0)?; // Tayebi's cooling of 0.1 per step
/// assert_eq!((chase.max_steps, chase.initial_heat), (12, 1.0));
/// let short = Chase { initial_heat: 0.5, ..chase }; // warm for 5 steps
/// assert_eq!(short.initial_heat / short.cooling, 5.0);
/// assert!(Chase::new(-0.1, 200, 12, 3.0).is_err());
/// # Ok::<(), influence::Error>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Chase {
    /// The heat a cell gets when the fill reaches it (finite and > 0; 1 from [`Chase::new`]):
    /// with `cooling`, it says for how many steps a cell stays warm
    /// (`initial_heat / cooling`), and so how far back the trail the guess still looks.
    pub initial_heat: f32,
    /// Heat lost per step by every heated cell, floored at 0 (finite and ≥ 0).
    pub cooling: f32,
    /// The fill stops after a step that heats more than this many cells (the target could
    /// be anywhere).
    pub max_new: usize,
    /// The fill stops after this many steps; fewer show the fill as it stands after that
    /// many, for pictures of a fill step by step.
    pub max_steps: usize,
    /// The barrier covers cells behind the target within this many world units of where it
    /// was last seen (finite and ≥ 0; 0 for none).
    pub barrier_radius: f32,
}

impl Chase {
    /// A fill heating new cells to 1, with the given cooling, limits and barrier.
    ///
    /// # Errors
    /// [`Error::BadNumber`] naming `cooling` or `barrier_radius` unless finite and ≥ 0.
    pub fn new(cooling: f32, max_new: usize, max_steps: usize, barrier_radius: f32) -> Result<Self, Error> {
        Self { initial_heat: 1.0, cooling, max_new, max_steps, barrier_radius }.checked()
    }

    /// The same parameters if every number is in range.
    fn checked(self) -> Result<Self, Error> {
        non_negative("cooling", self.cooling)?;
        non_negative("barrier_radius", self.barrier_radius)?;
        positive("initial_heat", self.initial_heat)?;
        Ok(self)
    }
}

/// The fill's guess.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Prediction {
    /// The predicted cell: the warm cell nearest the centroid in a straight line.
    pub cell: usize,
    /// The heat-weighted centroid of the warm cells (may lie in a wall).
    pub centroid: Vec3,
    /// Steps taken.
    pub steps: usize,
    /// Cells with heat > 0 at the end.
    pub warm: usize,
    /// The fill stopped because a step found no untouched cell to heat: the reachable area
    /// is covered.
    pub front_empty: bool,
    /// The fill stopped because the last step heated more than [`Chase::max_new`] cells
    /// (that step is kept). When neither this nor [`front_empty`](Self::front_empty)
    /// holds, the fill took [`Chase::max_steps`] steps.
    pub too_many_new: bool,
}

/// Why the fill stopped.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Stop {
    FrontEmpty,
    TooManyNew,
    MaxSteps,
}

/// Scratch and result of a chase flood fill over any space, empty by default; reused between
/// calls, it allocates only while growing.
///
/// ```
/// use influence::{propagate::{Chase, FloodFill}, glam::Vec3, Cell, Grid, Space};
/// let grid = Grid::from_rows(&[
///     "@@@@@@@@@@@@",
///     "@..........@",
///     "@@@@@@@@@@@@",
/// ])?;
/// let seen = grid.index(Cell::new(4, 1)).unwrap();
/// let mut fill = FloodFill::default();
/// let guess = fill.predict(&grid, seen, Vec3::X, &Chase::new(0.1, 50, 5, 3.0)?)?;
/// // Running right along the corridor: the guess lies ahead, never behind.
/// assert!(grid.cell(guess.cell).x > 4);
/// assert_eq!(fill.heat()[grid.index(Cell::new(2, 1)).unwrap()], 0.0);
/// # Ok::<(), influence::Error>(())
/// ```
#[derive(Debug, Clone, Default)]
pub struct FloodFill {
    heat: Vec<f32>,
    /// Equal to `generation` for cells heated this fill.
    marks: Vec<u32>,
    generation: u32,
    /// Cells heated this fill, in order.
    heated: Vec<usize>,
    front: Vec<usize>,
    next: Vec<usize>,
}

impl FloodFill {
    /// The heat of every cell after the last fill (0 where untouched).
    pub fn heat(&self) -> &[f32] {
        &self.heat
    }

    /// Floods from `last_seen`, the target moving with `velocity` (world units per second;
    /// only its direction matters, and a zero velocity raises no barrier), and returns the
    /// prediction. The heat stays readable through [`heat`](Self::heat).
    ///
    /// The prediction snaps the centroid to the nearest *warm* cell in a straight line
    /// (ties to the smaller index): the centroid is a point, not a cell, so it has no path
    /// distance, and every warm cell is connected to the last-seen cell through the fill —
    /// a centroid between two corridors never snaps into one the target could not reach.
    ///
    /// # Errors
    /// [`Error::OutOfBounds`] if `last_seen` is outside the space, [`Error::Blocked`] if
    /// it is blocked, [`Error::BadNumber`] for a non-finite velocity or a chase number out
    /// of range (as [`Chase::new`], or `initial_heat` unless finite and > 0).
    pub fn predict<S: Space>(
        &mut self,
        space: &S,
        last_seen: usize,
        velocity: Vec3,
        chase: &Chase,
    ) -> Result<Prediction, Error> {
        if last_seen >= space.len() {
            return Err(Error::OutOfBounds { index: last_seen, len: space.len() });
        }
        if !space.is_walkable(last_seen) {
            return Err(Error::Blocked { index: last_seen });
        }
        for c in velocity.to_array() {
            finite("velocity", c)?;
        }
        let chase = chase.checked()?;
        self.begin(space.len());
        let origin = space.position(last_seen);
        let behind = |p: Vec3| {
            let off = p - origin;
            off.dot(velocity) < 0.0 && off.length() <= chase.barrier_radius
        };
        self.heat_cell(last_seen, chase.initial_heat);
        self.front.push(last_seen);
        let mut steps = 0;
        let stop = loop {
            if steps == chase.max_steps {
                break Stop::MaxSteps;
            }
            let Self { marks, generation, front, next, .. } = self;
            next.clear();
            for &c in front.iter() {
                space.for_each_neighbour(c, |j, _| {
                    if marks[j] != *generation && !behind(space.position(j)) {
                        marks[j] = *generation;
                        next.push(j);
                    }
                });
            }
            if next.is_empty() {
                break Stop::FrontEmpty;
            }
            for &c in &self.heated {
                self.heat[c] = (self.heat[c] - chase.cooling).max(0.0);
            }
            std::mem::swap(&mut self.front, &mut self.next);
            for i in 0..self.front.len() {
                let c = self.front[i];
                self.heat_cell(c, chase.initial_heat);
            }
            steps += 1;
            if self.front.len() > chase.max_new {
                break Stop::TooManyNew;
            }
        };
        Ok(self.predict_from_heat(space, steps, stop))
    }

    /// Clears the last fill's heat and starts a new generation of marks.
    fn begin(&mut self, len: usize) {
        if self.heat.len() != len || self.generation == u32::MAX {
            self.heat = vec![0.0; len];
            self.marks = vec![0; len];
            self.generation = 0;
        } else {
            for &c in &self.heated {
                self.heat[c] = 0.0;
            }
        }
        self.generation += 1;
        self.heated.clear();
        self.front.clear();
    }

    fn heat_cell(&mut self, c: usize, heat: f32) {
        self.marks[c] = self.generation;
        self.heat[c] = heat;
        self.heated.push(c);
    }

    fn predict_from_heat<S: Space>(&self, space: &S, steps: usize, stop: Stop) -> Prediction {
        let (mut sum, mut weight, mut warm) = ([0f64; 3], 0f64, 0);
        for &c in &self.heated {
            let h = f64::from(self.heat[c]);
            if h > 0.0 {
                let p = space.position(c);
                for (s, x) in sum.iter_mut().zip([p.x, p.y, p.z]) {
                    *s += h * f64::from(x);
                }
                weight += h;
                warm += 1;
            }
        }
        // The newest cells always hold the initial heat, so the weight is positive.
        let centroid =
            Vec3::new((sum[0] / weight) as f32, (sum[1] / weight) as f32, (sum[2] / weight) as f32);
        let cell = self
            .heated
            .iter()
            .copied()
            .filter(|&c| self.heat[c] > 0.0)
            .min_by(|&a, &b| {
                let (da, db) = (
                    space.position(a).distance_squared(centroid),
                    space.position(b).distance_squared(centroid),
                );
                da.total_cmp(&db).then(a.cmp(&b))
            })
            .unwrap_or(self.heated[0]);
        Prediction {
            cell,
            centroid,
            steps,
            warm,
            front_empty: stop == Stop::FrontEmpty,
            too_many_new: stop == Stop::TooManyNew,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::space::{Connectivity, Grid};

    #[test]
    fn heat_cools_by_step_and_new_cells_are_hot() {
        let grid = Grid::new(9, 1).unwrap().with_connectivity(Connectivity::Four);
        let mut fill = FloodFill::default();
        let p = fill.predict(&grid, 4, Vec3::ZERO, &Chase::new(0.25, 10, 3, 0.0).unwrap()).unwrap();
        assert!(!p.front_empty && !p.too_many_new); // max_steps
        assert_eq!(fill.heat(), &[0.0, 1.0, 0.75, 0.5, 0.25, 0.5, 0.75, 1.0, 0.0]);
        assert_eq!(p.cell, 4); // symmetric heat: the centroid is the start
        assert_eq!(p.warm, 7);
    }

    #[test]
    fn stops_when_covered_or_when_too_many_cells_heat() {
        let grid = Grid::new(3, 1).unwrap();
        let mut fill = FloodFill::default();
        let p = fill.predict(&grid, 0, Vec3::ZERO, &Chase::new(0.1, 10, 100, 0.0).unwrap()).unwrap();
        assert_eq!((p.front_empty, p.too_many_new, p.steps), (true, false, 2));
        let open = Grid::new(9, 9).unwrap();
        let p = fill.predict(&open, 40, Vec3::ZERO, &Chase::new(0.1, 10, 100, 0.0).unwrap()).unwrap();
        assert_eq!((p.front_empty, p.too_many_new, p.steps), (false, true, 2)); // 8, then 16 new cells
    }

    #[test]
    fn bad_start_cells_are_typed_errors() {
        let grid = Grid::from_rows(&[".@"]).unwrap();
        let chase = Chase::new(0.1, 10, 10, 1.0).unwrap();
        let mut fill = FloodFill::default();
        assert_eq!(fill.predict(&grid, 1, Vec3::X, &chase), Err(Error::Blocked { index: 1 }));
        assert_eq!(fill.predict(&grid, 2, Vec3::X, &chase), Err(Error::OutOfBounds { index: 2, len: 2 }));
        assert!(fill.predict(&grid, 0, Vec3::NAN, &chase).is_err());
        let cold = Chase { initial_heat: 0.0, ..chase };
        assert!(matches!(
            fill.predict(&grid, 0, Vec3::X, &cold),
            Err(Error::BadNumber { what: "initial_heat", .. })
        ));
        let bad = Chase { cooling: f32::NAN, ..chase };
        assert!(matches!(
            fill.predict(&grid, 0, Vec3::X, &bad),
            Err(Error::BadNumber { what: "cooling", .. })
        ));
    }
}
