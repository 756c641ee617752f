//! Arguments from Python, checked before the library sees them. Each function names the
//! argument and shows the value it was given (its `repr`) in the error it raises:
//! `TypeError` for the wrong kind of object or dtype, `ValueError` for the wrong shape or a
//! value out of range (NaN, infinities, points off the grid).
//!
//! Arrays go through numpy itself (`numpy.asarray`, `numpy.ascontiguousarray`), so lists,
//! tuples, python-sc2's `Point2`s and arrays of any real dtype are accepted alike.

use influence::glam::Vec2;
use influence::Grid;
use numpy::{PyArrayDescrMethods, PyArrayDyn, PyArrayMethods, PyUntypedArray, PyUntypedArrayMethods};
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyDict, PyFloat, PyInt, PyString};
use serde::de::{DeserializeOwned, IntoDeserializer};

/// `ValueError(message)`.
pub(crate) fn value_error(message: impl Into<String>) -> PyErr {
    PyValueError::new_err(message.into())
}

/// `TypeError(message)`.
pub(crate) fn type_error(message: impl Into<String>) -> PyErr {
    PyTypeError::new_err(message.into())
}

/// An error of the library as `ValueError`, after `context` (the argument it came from).
pub(crate) fn library_error(context: impl std::fmt::Display, e: &influence::Error) -> PyErr {
    value_error(format!("{context}: {e}"))
}

/// The name of one item of an argument, for messages: `points` when one value was given,
/// `points[3]` when an array was. Formatted only when a message is written, so the loops
/// over points allocate nothing for names.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Item<'a> {
    /// The argument.
    pub(crate) arg: &'a str,
    /// The index within it, if an array was given.
    pub(crate) index: Option<usize>,
}

impl<'a> Item<'a> {
    /// Item `i` of `arg`: `arg` itself when `single` (one value for all).
    pub(crate) fn new(arg: &'a str, i: usize, single: bool) -> Self {
        Self { arg, index: (!single).then_some(i) }
    }
}

impl std::fmt::Display for Item<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.index {
            Some(i) => write!(f, "{}[{i}]", self.arg),
            None => f.write_str(self.arg),
        }
    }
}

/// `repr(obj)`, shortened to 80 characters.
pub(crate) fn shown(obj: &Bound<'_, PyAny>) -> String {
    let text = obj.repr().map_or_else(|_| "<unprintable object>".to_owned(), |r| r.to_string());
    let text = text.split_whitespace().collect::<Vec<_>>().join(" ");
    if text.chars().count() > 80 {
        format!("{}...", text.chars().take(77).collect::<String>())
    } else {
        text
    }
}

/// A shape as Python prints it: `(3, 4)`, `(3,)`, `()`.
pub(crate) fn shape_text(shape: &[usize]) -> String {
    match shape {
        [n] => format!("({n},)"),
        _ => format!("({})", shape.iter().map(ToString::to_string).collect::<Vec<_>>().join(", ")),
    }
}

/// A float as Python prints it (`nan`, `inf`, `1.5`, `2.0`).
pub(crate) fn float_text(v: f64) -> String {
    if v.is_nan() {
        "nan".to_owned()
    } else if v.is_infinite() {
        if v > 0.0 { "inf" } else { "-inf" }.to_owned()
    } else if v != 0.0 && !(1e-4..1e16).contains(&v.abs()) {
        // Python's repr: 1e+40, 1e-05.
        let text = format!("{v:e}");
        match text.split_once('e') {
            Some((m, e)) if !e.starts_with('-') => format!("{m}e+{e:0>2}"),
            Some((m, e)) => format!("{m}e-{:0>2}", &e[1..]),
            None => text,
        }
    } else if v == v.trunc() {
        format!("{v:.1}")
    } else {
        format!("{v}")
    }
}

/// A world point as Python prints a pair of floats: `(12.0, 1.5)`.
pub(crate) fn point_text(p: Vec2) -> String {
    format!("({}, {})", float_text(f64::from(p.x)), float_text(f64::from(p.y)))
}

/// `obj` as a numpy array, if it is one.
fn as_array<'a, 'py>(obj: &'a Bound<'py, PyAny>) -> Option<&'a Bound<'py, PyUntypedArray>> {
    obj.cast::<PyUntypedArray>().ok()
}

/// Whether `obj` is a single number: a Python `int` or `float` (not `bool`), or a numpy
/// scalar or 0-d array of a real dtype.
pub(crate) fn is_number(obj: &Bound<'_, PyAny>) -> bool {
    if obj.is_instance_of::<PyBool>() {
        return false;
    }
    if obj.is_instance_of::<PyFloat>() || obj.is_instance_of::<PyInt>() {
        return true;
    }
    if let Some(a) = as_array(obj) {
        return a.ndim() == 0 && matches!(a.dtype().kind(), b'i' | b'u' | b'f');
    }
    // numpy scalars (np.float32(1), np.int64(2)) are neither arrays nor Python numbers.
    let numpy_scalar = obj
        .py()
        .import("numpy")
        .and_then(|np| np.getattr("number"))
        .and_then(|number| obj.is_instance(&number))
        .unwrap_or(false);
    numpy_scalar && !obj.is_instance_of::<PyString>()
}

/// A number (any real Python or numpy number; not `bool`), as `f64`.
pub(crate) fn number(obj: &Bound<'_, PyAny>, arg: &str) -> PyResult<f64> {
    if !is_number(obj) {
        return Err(type_error(format!("{arg} must be a number, got {}", shown(obj))));
    }
    obj.extract::<f64>().map_err(|_| type_error(format!("{arg} must be a number, got {}", shown(obj))))
}

/// What the range checks ask for, in the words of the library and the scenario files
/// (`influence::Error::BadNumber`): "radius must be a finite number greater than 0, got 0".
const FINITE: &str = "a finite number";
const POSITIVE: &str = "a finite number greater than 0";
const NON_NEGATIVE: &str = "a finite number, 0 or more";
const UNIT: &str = "a number from 0 to 1";

/// A finite number that fits an `f32`.
pub(crate) fn finite(obj: &Bound<'_, PyAny>, arg: &str) -> PyResult<f32> {
    let v = number(obj, arg)?;
    if v.is_finite() && v.abs() <= f64::from(f32::MAX) {
        Ok(v as f32)
    } else {
        Err(value_error(format!("{arg} must be {FINITE}, got {}", shown(obj))))
    }
}

/// A finite number greater than 0.
pub(crate) fn positive(obj: &Bound<'_, PyAny>, arg: &str) -> PyResult<f32> {
    let v = number(obj, arg)?;
    if v.is_finite() && v.abs() <= f64::from(f32::MAX) && v as f32 > 0.0 {
        Ok(v as f32)
    } else {
        Err(value_error(format!("{arg} must be {POSITIVE}, got {}", shown(obj))))
    }
}

/// A finite number, 0 or more.
pub(crate) fn non_negative(obj: &Bound<'_, PyAny>, arg: &str) -> PyResult<f32> {
    let v = number(obj, arg)?;
    if v.is_finite() && v.abs() <= f64::from(f32::MAX) && v >= 0.0 {
        Ok(v as f32)
    } else {
        Err(value_error(format!("{arg} must be {NON_NEGATIVE}, got {}", shown(obj))))
    }
}

/// A number from 0 to 1.
pub(crate) fn unit(obj: &Bound<'_, PyAny>, arg: &str) -> PyResult<f32> {
    let v = number(obj, arg)?;
    if (0.0..=1.0).contains(&v) {
        Ok(v as f32)
    } else {
        Err(value_error(format!("{arg} must be {UNIT}, got {}", shown(obj))))
    }
}

/// An integer ≥ 0 (a Python `int` or numpy integer; not `bool` or `float`).
pub(crate) fn count(obj: &Bound<'_, PyAny>, arg: &str) -> PyResult<usize> {
    let integer = !obj.is_instance_of::<PyBool>()
        && (obj.is_instance_of::<PyInt>()
            || as_array(obj).is_none() && obj.hasattr("__index__").unwrap_or(false));
    if !integer {
        return Err(type_error(format!("{arg} must be an integer, got {}", shown(obj))));
    }
    match obj.extract::<i64>() {
        Ok(n) if n >= 0 => usize::try_from(n)
            .map_err(|_| value_error(format!("{arg} is too large for this machine, got {}", shown(obj)))),
        _ => Err(value_error(format!("{arg} must be an integer from 0 to 2**63 - 1, got {}", shown(obj)))),
    }
}

/// One of `options`, given as a string.
pub(crate) fn choice<'a>(obj: &Bound<'_, PyAny>, arg: &str, options: &[&'a str]) -> PyResult<&'a str> {
    let quoted = || options.iter().map(|o| format!("'{o}'")).collect::<Vec<_>>().join(", ");
    let Ok(text) = obj.cast::<PyString>() else {
        return Err(type_error(format!("{arg} must be a string, one of {}; got {}", quoted(), shown(obj))));
    };
    let text = text.to_cow()?;
    options
        .iter()
        .find(|o| **o == text)
        .copied()
        .ok_or_else(|| value_error(format!("{arg} must be one of {}; got {}", quoted(), shown(obj))))
}

/// The names of enum `T` in declaration order, as the scenario files spell them: its serde
/// variant names (`FalloffKind`, `Metric`, `Mode`, `CurveName`, `DecayName`), so that each
/// name is written once, where the enum is.
pub(crate) fn names<T: DeserializeOwned>() -> &'static [&'static str] {
    serde_aux::serde_introspection::serde_introspect::<T>()
}

/// One of the [`names`] of `T`, given as a string, as that value; refused as [`choice`]
/// refuses.
pub(crate) fn named<T: DeserializeOwned>(obj: &Bound<'_, PyAny>, arg: &str) -> PyResult<T> {
    let name = choice(obj, arg, names::<T>())?;
    let de: serde::de::value::StrDeserializer<'_, serde::de::value::Error> = name.into_deserializer();
    T::deserialize(de).map_err(|e| value_error(format!("{arg}: {e}")))
}

/// `4` or `8` as a connectivity.
pub(crate) fn neighbours(obj: &Bound<'_, PyAny>, arg: &str) -> PyResult<influence::Connectivity> {
    match count(obj, arg) {
        Ok(4) => Ok(influence::Connectivity::Four),
        Ok(8) => Ok(influence::Connectivity::Eight),
        Err(e) if e.is_instance_of::<PyTypeError>(obj.py()) => Err(e),
        _ => Err(value_error(format!("{arg} must be 4 or 8, got {}", shown(obj)))),
    }
}

/// `obj` through `numpy.asarray`, with its dtype's kind checked against `kinds` (numpy's
/// letters: `b` bool, `i` signed, `u` unsigned, `f` float). `what` describes the expected
/// value for messages.
fn array<'py>(
    obj: &Bound<'py, PyAny>,
    arg: &str,
    what: &str,
    kinds: &[u8],
) -> PyResult<Bound<'py, PyUntypedArray>> {
    let py = obj.py();
    let np = py.import("numpy")?;
    let arr = np.call_method1("asarray", (obj,)).map_err(|e| {
        let why = e.value(py).to_string();
        value_error(format!("{arg} must be {what}, got {} ({why})", shown(obj)))
    })?;
    let arr = arr.cast_into::<PyUntypedArray>().map_err(|_| type_error(format!("{arg} must be {what}")))?;
    if !kinds.contains(&arr.dtype().kind()) {
        return Err(type_error(format!(
            "{arg} must be {what}, got an array of dtype {} ({})",
            arr.dtype(),
            shown(obj)
        )));
    }
    Ok(arr)
}

/// `f` of the values of a numeric array in C order, converted by numpy to `T` (`f64`,
/// `f32`, `i64`, `bool`); read in place, without a copy of numpy's array.
fn with_contiguous<T: numpy::Element, R>(
    arr: &Bound<'_, PyUntypedArray>,
    dtype: &str,
    f: impl FnOnce(&[T]) -> PyResult<R>,
) -> PyResult<R> {
    let py = arr.py();
    let np = py.import("numpy")?;
    let kwargs = PyDict::new(py);
    kwargs.set_item("dtype", dtype)?;
    let converted = np.call_method("ascontiguousarray", (arr,), Some(&kwargs))?;
    let typed = converted.cast_into::<PyArrayDyn<T>>().map_err(|e| type_error(e.to_string()))?;
    let readonly = typed.try_readonly().map_err(|e| value_error(e.to_string()))?;
    f(readonly.as_slice().map_err(|e| value_error(e.to_string()))?)
}

/// Pairs: an `(N, 2)` array-like of `kinds` (`[]` for none) or one pair, converted by numpy
/// to `T`; `each(i, single, pair)` makes the item of pair `i` (`single`: one pair was
/// given). Returns the items and whether one pair was given.
fn pairs<T: numpy::Element + Copy, U>(
    obj: &Bound<'_, PyAny>,
    arg: &str,
    what: &str,
    (kinds, dtype): (&[u8], &str),
    mut each: impl FnMut(usize, bool, [T; 2]) -> PyResult<U>,
) -> PyResult<(Vec<U>, bool)> {
    let arr = array(obj, arg, what, kinds)?;
    let single = match arr.shape() {
        [2] => true,
        [0] | [_, 2] => false,
        shape => return Err(value_error(format!("{arg} must be {what}, got shape {}", shape_text(shape)))),
    };
    let out = with_contiguous(&arr, dtype, |flat: &[T]| {
        flat.chunks_exact(2).enumerate().map(|(i, p)| each(i, single, [p[0], p[1]])).collect()
    })?;
    Ok((out, single))
}

/// Points `(x, y)` in world units: an `(N, 2)` array-like (a list of pairs, an array of any
/// real dtype; `[]` for none) or one pair. Returns the points and whether one pair was given.
/// Every coordinate must be finite (as `f32`).
pub(crate) fn points(obj: &Bound<'_, PyAny>, arg: &str) -> PyResult<(Vec<Vec2>, bool)> {
    let what = "an (N, 2) array or a list of (x, y) points";
    pairs(obj, arg, what, (b"iuf", "float64"), |i, single, [x, y]: [f64; 2]| {
        let fits = |v: f64| v.is_finite() && v.abs() <= f64::from(f32::MAX);
        if !(fits(x) && fits(y)) {
            return Err(value_error(format!(
                "{} must be finite, got ({}, {})",
                Item::new(arg, i, single),
                float_text(x),
                float_text(y)
            )));
        }
        Ok(Vec2::new(x as f32, y as f32))
    })
}

/// One point `(x, y)`.
pub(crate) fn point(obj: &Bound<'_, PyAny>, arg: &str) -> PyResult<Vec2> {
    match points(obj, arg)? {
        (p, true) => Ok(p[0]),
        _ => Err(value_error(format!("{arg} must be one point (x, y), got {}", shown(obj)))),
    }
}

/// Cells `(x, y)` as integers: an `(N, 2)` integer array-like or one pair; each inside `grid`.
pub(crate) fn cells(
    obj: &Bound<'_, PyAny>,
    arg: &str,
    grid: &Grid,
) -> PyResult<(Vec<influence::Cell>, bool)> {
    let what = "an (N, 2) array or a list of integer (x, y) cells";
    pairs(obj, arg, what, (b"iu", "int64"), |i, single, [x, y]: [i64; 2]| {
        let inside = |v: i64, n: usize| usize::try_from(v).ok().filter(|&v| v < n);
        match (inside(x, grid.width()), inside(y, grid.height())) {
            (Some(cx), Some(cy)) => Ok(influence::Cell::new(cx, cy)),
            _ => Err(value_error(format!(
                "{} must be a cell of the grid (x in 0..{}, y in 0..{}), got ({x}, {y})",
                Item::new(arg, i, single),
                grid.width(),
                grid.height()
            ))),
        }
    })
}

/// The cell holding world point `p`, or `ValueError` naming `name` if it lies off the grid.
pub(crate) fn cell_of(grid: &Grid, p: Vec2, name: impl std::fmt::Display) -> PyResult<influence::Cell> {
    grid.cell_at(p).ok_or_else(|| {
        let lo = grid.origin();
        let hi = lo + grid.world_size();
        value_error(format!(
            "{name} must lie on the grid (x in [{}, {}), y in [{}, {})), got {}",
            float_text(f64::from(lo.x)),
            float_text(f64::from(hi.x)),
            float_text(f64::from(lo.y)),
            float_text(f64::from(hi.y)),
            point_text(p)
        ))
    })
}

/// Per-point numbers: one for all, or one per point.
#[derive(Debug, Clone)]
pub(crate) enum PerPoint {
    /// The same value for every point.
    All(f32),
    /// One value per point.
    Each(Vec<f32>),
}

impl PerPoint {
    /// The value for point `i`.
    pub(crate) fn at(&self, i: usize) -> f32 {
        match self {
            Self::All(v) => *v,
            Self::Each(v) => v[i],
        }
    }

    /// The name of the value for point `i` in messages: `arg`, or `arg[i]` when one was
    /// given per point.
    pub(crate) fn item<'a>(&self, arg: &'a str, i: usize) -> Item<'a> {
        Item::new(arg, i, matches!(self, Self::All(_)))
    }

    /// The value for point `i`, which must be greater than 0 (a radius; the values are
    /// finite already), or `ValueError` naming it.
    pub(crate) fn positive_at(&self, i: usize, arg: &str) -> PyResult<f32> {
        let v = self.at(i);
        if v > 0.0 {
            Ok(v)
        } else {
            Err(value_error(format!(
                "{} must be {POSITIVE}, got {}",
                self.item(arg, i),
                float_text(f64::from(v))
            )))
        }
    }
}

/// A number for every point, or a length-`n` array-like of them; each finite.
pub(crate) fn per_point(obj: &Bound<'_, PyAny>, arg: &str, n: usize) -> PyResult<PerPoint> {
    if is_number(obj) {
        return finite(obj, arg).map(PerPoint::All);
    }
    let what = format!("a number or an array of {n} numbers (one per point)");
    let arr = array(obj, arg, &what, b"iuf")?;
    if arr.shape() != [n] {
        return Err(value_error(format!("{arg} must be {what}, got shape {}", shape_text(arr.shape()))));
    }
    with_contiguous(&arr, "float64", |values: &[f64]| {
        values
            .iter()
            .enumerate()
            .map(|(i, &v)| {
                if v.is_finite() && v.abs() <= f64::from(f32::MAX) {
                    Ok(v as f32)
                } else {
                    Err(value_error(format!("{arg}[{i}] must be {FINITE}, got {}", float_text(v))))
                }
            })
            .collect::<PyResult<Vec<f32>>>()
    })
    .map(PerPoint::Each)
}

/// A 2-D array-like `[y, x]` of `height × width` finite values, as `f32` in row-major order
/// (the library's layout). `shape` is `(height, width)`.
pub(crate) fn values(obj: &Bound<'_, PyAny>, arg: &str, shape: (usize, usize)) -> PyResult<Vec<f32>> {
    let what =
        format!("a 2-D array of numbers indexed [y, x] with shape {}", shape_text(&[shape.0, shape.1]));
    let arr = array(obj, arg, &what, b"iuf")?;
    if arr.shape() != [shape.0, shape.1] {
        let hint =
            if arr.shape() == [shape.1, shape.0] { " (transposed? arrays are indexed [y, x])" } else { "" };
        return Err(value_error(format!(
            "{arg} must be {what}, got shape {}{hint}",
            shape_text(arr.shape())
        )));
    }
    let refuse = |i: usize, v: f64| {
        value_error(format!(
            "{arg} must hold finite float32 values, got {} at [{}, {}]",
            float_text(v),
            i / shape.1,
            i % shape.1
        ))
    };
    if arr.dtype().is_equiv_to(&numpy::dtype::<f32>(arr.py())) {
        // A layer's own dtype (a layer's view, or arithmetic on one): copied once, as is.
        return with_contiguous(&arr, "float32", |narrow: &[f32]| {
            match narrow.iter().position(|v| !v.is_finite()) {
                Some(i) => Err(refuse(i, f64::from(narrow[i]))),
                None => Ok(narrow.to_vec()),
            }
        });
    }
    with_contiguous(&arr, "float64", |wide: &[f64]| {
        match wide.iter().position(|v| !(v.is_finite() && v.abs() <= f64::from(f32::MAX))) {
            Some(i) => Err(refuse(i, wide[i])),
            None => Ok(wide.iter().map(|&v| v as f32).collect()),
        }
    })
}

/// A non-empty 2-D array-like `[y, x]` of walkable flags (bool, integers or floats; nonzero
/// is walkable; NaN refused): its shape `(height, width)` and the flags in row-major order.
/// The size is checked against the library's limit before anything is converted.
pub(crate) fn walkable(obj: &Bound<'_, PyAny>, arg: &str) -> PyResult<((usize, usize), Vec<bool>)> {
    let what = "a non-empty 2-D array indexed [y, x] (nonzero = walkable)";
    let arr = array(obj, arg, what, b"biuf")?;
    let shape = arr.shape().to_vec();
    let [h, w] = shape[..] else {
        return Err(value_error(format!("{arg} must be {what}, got shape {}", shape_text(&shape))));
    };
    if h == 0 || w == 0 {
        return Err(value_error(format!("{arg} must be {what}, got shape {}", shape_text(&shape))));
    }
    if h.checked_mul(w).is_none_or(|n| n > influence::MAX_CELLS) {
        return Err(value_error(format!(
            "{arg} has {h} × {w} cells, more than the 2**28 a grid may have, got shape {}",
            shape_text(&shape)
        )));
    }
    let py = obj.py();
    let np = py.import("numpy")?;
    if arr.dtype().kind() == b'f' {
        let nan = np.call_method1("isnan", (&arr,))?;
        if nan.call_method0("any")?.is_truthy()? {
            let at: Vec<usize> = np.call_method1("argwhere", (nan,))?.get_item(0)?.extract()?;
            return Err(value_error(format!("{arg} must not hold NaN, got one at [{}, {}]", at[0], at[1])));
        }
    }
    let nonzero = np.call_method1("not_equal", (&arr, 0))?;
    let flags = nonzero.cast_into::<PyUntypedArray>().map_err(|e| type_error(e.to_string()))?;
    Ok(((h, w), with_contiguous(&flags, "bool", |flags: &[bool]| Ok(flags.to_vec()))?))
}

/// A required keyword argument (`message` says what asked for it), if given and not `None`.
pub(crate) fn required<'a, 'py>(
    obj: Option<&'a Bound<'py, PyAny>>,
    message: impl FnOnce() -> String,
) -> PyResult<&'a Bound<'py, PyAny>> {
    given(obj).ok_or_else(|| value_error(message()))
}

/// An optional argument, if given and not `None`.
pub(crate) fn given<'a, 'py>(obj: Option<&'a Bound<'py, PyAny>>) -> Option<&'a Bound<'py, PyAny>> {
    obj.filter(|o| !o.is_none())
}
