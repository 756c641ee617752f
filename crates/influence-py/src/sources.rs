//! Sources from Python arguments: points, strengths, radii, a falloff with its parameters,
//! a distance, a mode and what to do about a point on a wall — checked, then handed to the
//! library's `Source` and its placement rule (`Source::check_placement`).

use std::sync::{Arc, Mutex};

use influence::{Band, Cell, Error, Falloff, Grid, Metric, Mode, Source};
use influence_scenario::falloff::FalloffKind;
use pyo3::prelude::*;

use crate::args::{self, given, value_error};

/// What a point on a blocked cell does (the scenario files' `on_blocked` has no `skip`).
const ON_BLOCKED: [&str; 3] = ["error", "snap", "skip"];

/// What a source-taking call gives its sources when `falloff` or `mode` is left out.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Defaults {
    /// The falloff.
    pub(crate) falloff: FalloffKind,
    /// How a source's value combines with the cell's.
    pub(crate) mode: Mode,
}

/// `Layer.add`: stamps that fall off linearly and add up.
pub(crate) const STAMP: Defaults = Defaults { falloff: FalloffKind::Linear, mode: Mode::Add };
/// `Diffusion.set_sources`: seeds on the source's own cell, held at their value.
pub(crate) const SEED: Defaults = Defaults { falloff: FalloffKind::Point, mode: Mode::Set };

/// The keyword arguments every source-taking call shares, as given (`None` or left out:
/// the default, `strength=1.0`, `distance="euclidean"`, `on_blocked="error"`, and
/// [`Defaults`]).
pub(crate) struct SourceArgs<'a, 'py> {
    /// `(N, 2)` points or one `(x, y)`.
    points: &'a Bound<'py, PyAny>,
    /// A number or one per point.
    strength: Option<&'a Bound<'py, PyAny>>,
    /// A number or one per point; `None` for the falloff's default.
    radius: Option<&'a Bound<'py, PyAny>>,
    /// A name of [`FalloffKind`] or a callable.
    falloff: Option<&'a Bound<'py, PyAny>>,
    /// A name of [`Metric`].
    distance: Option<&'a Bound<'py, PyAny>>,
    /// A name of [`Mode`].
    mode: Option<&'a Bound<'py, PyAny>>,
    /// `"error"`, `"snap"` or `"skip"`.
    on_blocked: Option<&'a Bound<'py, PyAny>>,
    /// Exponential: decay per world unit.
    rate: Option<&'a Bound<'py, PyAny>>,
    /// Halving: the distance over which the value halves.
    step: Option<&'a Bound<'py, PyAny>>,
    /// Polynomial: the exponent.
    power: Option<&'a Bound<'py, PyAny>>,
    /// Gaussian: the standard deviation.
    sigma: Option<&'a Bound<'py, PyAny>>,
    /// Band: `(distance, factor)` points.
    band: Option<&'a Bound<'py, PyAny>>,
    /// The falloff and mode of arguments left out.
    defaults: Defaults,
}

impl<'a, 'py> SourceArgs<'a, 'py> {
    /// The arguments of `Layer.add` or `Diffusion.set_sources`, in their order, with the
    /// call's `defaults`.
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn new(
        defaults: Defaults,
        points: &'a Bound<'py, PyAny>,
        strength: Option<&'a Bound<'py, PyAny>>,
        radius: Option<&'a Bound<'py, PyAny>>,
        falloff: Option<&'a Bound<'py, PyAny>>,
        distance: Option<&'a Bound<'py, PyAny>>,
        mode: Option<&'a Bound<'py, PyAny>>,
        on_blocked: Option<&'a Bound<'py, PyAny>>,
        [rate, step, power, sigma, band]: [Option<&'a Bound<'py, PyAny>>; 5],
    ) -> Self {
        Self {
            points,
            strength,
            radius,
            falloff,
            distance,
            mode,
            on_blocked,
            rate,
            step,
            power,
            sigma,
            band,
            defaults,
        }
    }
}

/// The first exception a Python falloff callable raised while stamping.
pub(crate) type Raised = Arc<Mutex<Option<PyErr>>>;

/// Sources checked and placed, ready to stamp.
pub(crate) struct Checked {
    /// The sources, in the order of the points (less those skipped).
    pub(crate) sources: Vec<Source>,
    /// Set when the falloff is a Python callable: stamping must then hold the GIL and use
    /// a stamper of its own (kernels are cached by the curve's address), and the first
    /// exception the callable raised is kept here.
    pub(crate) custom: Option<Raised>,
}

/// A falloff as given: one of the scenario files' names, or a Python callable.
#[derive(Clone, Copy)]
enum Given<'a, 'py> {
    Named(FalloffKind),
    Callable(&'a Bound<'py, PyAny>),
}

/// A falloff chosen by [`falloff`].
struct Chosen {
    /// Its name; `None` for a Python callable.
    kind: Option<FalloffKind>,
    /// The library's curve with its parameters.
    curve: Falloff,
    /// The radius when none is given: one cell for `point`, the band's extent for `band`.
    default_radius: Option<f32>,
    /// For a callable, where the first exception it raises is kept.
    custom: Option<Raised>,
}

/// The falloff named (or the callable given) in `a`, with its parameters; every parameter
/// given must belong to it.
fn falloff(a: &SourceArgs<'_, '_>, cell_size: f32) -> PyResult<Chosen> {
    let params =
        [("rate", a.rate), ("step", a.step), ("power", a.power), ("sigma", a.sigma), ("band", a.band)];
    let given_falloff = match given(a.falloff) {
        None => Given::Named(a.defaults.falloff),
        Some(f) if f.is_callable() && !f.is_instance_of::<pyo3::types::PyString>() => Given::Callable(f),
        Some(f) => Given::Named(args::named::<FalloffKind>(f, "falloff")?),
    };
    let kind = match given_falloff {
        Given::Named(kind) => Some(kind),
        Given::Callable(_) => None,
    };
    // For messages only (the name is written by serde).
    let name = || kind.map_or_else(|| "custom".to_owned(), |k| k.to_string());
    let takes: &[&str] = match kind {
        // The scenario files' parameters of each curve, but a band's points are `band=`.
        Some(FalloffKind::Band) => &["band"],
        Some(k) => k.params(),
        None => &[],
    };
    for (key, value) in params {
        if given(value).is_some() && !takes.contains(&key) {
            let takes_text = if takes.is_empty() {
                "it takes no parameters".to_owned()
            } else {
                format!("it takes {}", takes.join(", "))
            };
            return Err(value_error(format!("{key} does not apply to falloff '{}': {takes_text}", name())));
        }
    }
    let needs = |key: &str| format!("falloff '{}' needs {key}", name());
    let mut custom = None;
    let (curve, default_radius) = match given_falloff {
        Given::Named(FalloffKind::Linear) => (Falloff::Linear, None),
        Given::Named(FalloffKind::Exponential) => (
            Falloff::Exponential {
                rate: args::non_negative(args::required(a.rate, || needs("rate"))?, "rate")?,
            },
            None,
        ),
        Given::Named(FalloffKind::Halving) => {
            let step = match given(a.step) {
                Some(s) => args::positive(s, "step")?,
                None => cell_size,
            };
            (Falloff::Halving { step }, None)
        }
        Given::Named(FalloffKind::Polynomial) => (
            Falloff::Polynomial {
                power: args::positive(args::required(a.power, || needs("power"))?, "power")?,
            },
            None,
        ),
        Given::Named(FalloffKind::Gaussian) => (
            Falloff::Gaussian {
                sigma: args::positive(args::required(a.sigma, || needs("sigma"))?, "sigma")?,
            },
            None,
        ),
        Given::Named(FalloffKind::Constant) => (Falloff::Constant, None),
        Given::Named(FalloffKind::Point) => (Falloff::Point, Some(cell_size)),
        Given::Named(FalloffKind::Band) => {
            let band = band(args::required(a.band, || needs("band"))?)?;
            let extent = band.extent();
            (Falloff::Band(band), Some(extent))
        }
        Given::Callable(f) => {
            let errors: Raised = Arc::new(Mutex::new(None));
            let (f, keep) = (f.clone().unbind(), Arc::clone(&errors));
            custom = Some(errors);
            let curve = Falloff::custom(move |d, r| {
                if keep.lock().map_or(true, |first| first.is_some()) {
                    return 0.0; // it raised already: the call fails, no need to ask again
                }
                Python::attach(|py| {
                    let factor = f.call1(py, (d, r)).and_then(|v| {
                        let v = v.bind(py);
                        args::number(v, "the falloff's result")
                    });
                    factor.unwrap_or_else(|e| {
                        let mut first = keep.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
                        first.get_or_insert(e);
                        0.0
                    }) as f32
                })
            });
            (curve, None)
        }
    };
    Ok(Chosen { kind, curve, default_radius, custom })
}

/// A band's `(distance, factor)` points.
fn band(obj: &Bound<'_, PyAny>) -> PyResult<Band> {
    let (pairs, _) = args::points(obj, "band").map_err(|e| {
        value_error(format!("band must be a list of (distance, factor) pairs: {}", e.value(obj.py())))
    })?;
    Band::new(pairs.iter().map(|p| (p.x, p.y)).collect()).map_err(|e| args::library_error("band", &e))
}

/// Checks every argument of `a` and makes the sources, placed on `grid` by the library's rule:
/// a point off the grid is an error; one on a blocked cell (or a walking-distance or point
/// source with no walkable cell under it) is an error naming the nearest walkable cell, or
/// is moved to that cell's centre (`on_blocked="snap"`), or left out (`"skip"`).
pub(crate) fn checked(grid: &Grid, a: &SourceArgs<'_, '_>) -> PyResult<Checked> {
    let (points, single) = args::points(a.points, "points")?;
    let n = points.len();
    let strength = match given(a.strength) {
        Some(s) => args::per_point(s, "strength", n)?,
        None => args::PerPoint::All(1.0),
    };
    let Chosen { kind, curve, default_radius, custom } = falloff(a, grid.cell_size())?;
    let radius = match given(a.radius) {
        Some(r) => args::per_point(r, "radius", n)?,
        None => match default_radius {
            Some(r) => args::PerPoint::All(r),
            None => {
                let name = kind.map_or_else(|| "a custom falloff".to_owned(), |k| format!("falloff '{k}'"));
                return Err(value_error(format!("radius is required for {name}")));
            }
        },
    };
    let metric =
        given(a.distance).map(|d| args::named::<Metric>(d, "distance")).transpose()?.unwrap_or_default();
    let mode = given(a.mode).map(|m| args::named::<Mode>(m, "mode")).transpose()?.unwrap_or(a.defaults.mode);
    let on_blocked =
        given(a.on_blocked).map_or(Ok("error"), |o| args::choice(o, "on_blocked", &ON_BLOCKED))?;
    let mut sources = Vec::with_capacity(n);
    for (i, &p) in points.iter().enumerate() {
        let name = args::Item::new("points", i, single);
        args::cell_of(grid, p, name)?;
        let r = radius.positive_at(i, "radius")?;
        let mut source = Source::new(p, strength.at(i), curve.clone(), r)
            .map_err(|e| args::library_error(name, &e))?
            .with_metric(metric)
            .with_mode(mode);
        match source.check_placement(grid) {
            Ok(()) => {}
            Err(Error::Unplaced { cell, nearest, .. }) => match (on_blocked, nearest) {
                ("skip", _) => continue,
                ("snap", Some(nearest)) => {
                    let centre = grid.center(Cell::from(nearest));
                    source.set_position(centre).map_err(|e| args::library_error(name, &e))?;
                }
                (_, nearest) => {
                    let on =
                        cell.map_or_else(String::new, |[x, y]| format!(" is on blocked cell ({x}, {y})"));
                    let there = nearest.map_or_else(
                        || "; no cell of the grid is walkable".to_owned(),
                        |[x, y]| {
                            let c = grid.center(Cell::new(x, y));
                            format!(
                                "; the nearest walkable cell is ({x}, {y}), centre {}: move it there, or pass on_blocked=\"snap\" or \"skip\"",
                                args::point_text(c)
                            )
                        },
                    );
                    return Err(value_error(format!("{name} = {}{on}{there}", args::point_text(p))));
                }
            },
            Err(e) => return Err(args::library_error(name, &e)),
        }
        sources.push(source);
    }
    Ok(Checked { sources, custom })
}
