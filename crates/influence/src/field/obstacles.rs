//! Obstacles for obstacle-aware propagation: "before placing a new influence source, the new
//! point is queried to determine if that point is obstructed" ("Escaping the Grid", §29.7).
//! [`Field::propagate`](super::Field::propagate) asks a predicate `Fn(P) -> bool`: a grid's
//! blocked cells, [`Polygon`]s, floors of a building, or anything else.

use glam::Vec2;

use crate::error::{finite, Error};

/// A simple polygon (no self-intersections needed for sensible results; the even-odd rule
/// decides otherwise), tested by ray casting with a bounding-box pre-check: an obstacle for
/// [`Field::propagate`](super::Field::propagate) as `|p| wall.contains(p)` (a 3D point by its
/// `x`, `y`: `|p: Vec3| wall.contains(p.truncate())`, a wall extruded vertically).
///
/// ```
/// use influence::field::Polygon;
/// use influence::glam::Vec2;
/// let wall = Polygon::new(vec![Vec2::new(0.0, 0.0), Vec2::new(4.0, 0.0), Vec2::new(4.0, 1.0), Vec2::new(0.0, 1.0)])?;
/// assert!(wall.contains(Vec2::new(2.0, 0.5)));
/// assert!(!wall.contains(Vec2::new(2.0, 1.5)));
/// # Ok::<(), influence::Error>(())
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct Polygon {
    vertices: Vec<Vec2>,
    min: Vec2,
    max: Vec2,
}

impl Polygon {
    /// A polygon through `vertices` in order (either winding; the last joins the first).
    ///
    /// # Errors
    /// [`Error::BadNumber`] for fewer than 3 vertices (`"polygon vertex count"`) or a
    /// non-finite coordinate (`"polygon vertex"`).
    pub fn new(vertices: Vec<Vec2>) -> Result<Self, Error> {
        if vertices.len() < 3 {
            return Err(Error::BadNumber {
                what: "polygon vertex count",
                expected: "at least 3",
                value: vertices.len() as f64,
            });
        }
        for v in &vertices {
            finite("polygon vertex", v.x)?;
            finite("polygon vertex", v.y)?;
        }
        let min = vertices.iter().copied().fold(Vec2::INFINITY, Vec2::min);
        let max = vertices.iter().copied().fold(Vec2::NEG_INFINITY, Vec2::max);
        Ok(Self { vertices, min, max })
    }

    /// The vertices.
    pub fn vertices(&self) -> &[Vec2] {
        &self.vertices
    }

    /// Even-odd point-in-polygon test on `x`, `y`.
    pub fn contains(&self, p: Vec2) -> bool {
        if p.cmplt(self.min).any() || p.cmpgt(self.max).any() {
            return false;
        }
        let mut inside = false;
        let mut j = self.vertices.len() - 1;
        for (i, &a) in self.vertices.iter().enumerate() {
            let b = self.vertices[j];
            if (a.y > p.y) != (b.y > p.y) && p.x < a.x + (p.y - a.y) * (b.x - a.x) / (b.y - a.y) {
                inside = !inside;
            }
            j = i;
        }
        inside
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn concave_polygon() {
        // A "U": the notch between the arms is outside.
        let u = Polygon::new(
            [(0.0, 0.0), (3.0, 0.0), (3.0, 3.0), (2.0, 3.0), (2.0, 1.0), (1.0, 1.0), (1.0, 3.0), (0.0, 3.0)]
                .map(|(x, y)| Vec2::new(x, y))
                .to_vec(),
        )
        .unwrap();
        assert!(u.contains(Vec2::new(0.5, 2.0)) && u.contains(Vec2::new(1.5, 0.5)));
        assert!(!u.contains(Vec2::new(1.5, 2.0)) && !u.contains(Vec2::new(-0.1, 1.0)));
    }

    #[test]
    fn rejects_degenerate_polygons() {
        assert!(Polygon::new(vec![Vec2::ZERO, Vec2::X]).is_err());
        let err = Polygon::new(vec![Vec2::ZERO, Vec2::X, Vec2::new(f32::NAN, 1.0)]).unwrap_err();
        assert!(err.to_string().contains("polygon vertex"), "{err}");
    }
}
