//! A scenario back into TOML, readable by [`scenario::parse`](crate::scenario::parse) into
//! the same values: the map's `rows` one per line, and every number as the shortest decimal
//! that reads back as the same `f32`.

use serde::Serialize;

use crate::field::FieldSpec;
use crate::file::{OutputSpec, ScenarioFile};
use crate::propagation::PropagationSpec;
use crate::route::PathSpec;
use crate::source::SourceSpec;

/// Everything after `[map]`, in the order written.
#[derive(Serialize)]
struct Rest<'a> {
    #[serde(skip_serializing_if = "<[_]>::is_empty")]
    source: &'a [SourceSpec],
    #[serde(skip_serializing_if = "<[_]>::is_empty")]
    path: &'a [PathSpec],
    #[serde(skip_serializing_if = "Option::is_none")]
    propagation: Option<&'a PropagationSpec>,
    #[serde(skip_serializing_if = "Option::is_none")]
    field: Option<&'a FieldSpec>,
    output: &'a OutputSpec,
}

/// The shortest decimal that reads back as `x` through `f64` (as TOML readers read it), as
/// an `f64`; `f64::from(x)` itself should the short one not.
fn tidy(x: f32) -> f64 {
    let short: f64 = x.to_string().parse().unwrap_or(f64::NAN);
    if (short as f32).to_bits() == x.to_bits() {
        short
    } else {
        f64::from(x)
    }
}

/// Rewrites every float of `v` (serialised from an `f32`) as its [`tidy`] form.
fn tidy_floats(v: &mut toml::Value) {
    match v {
        toml::Value::Float(f) => *f = tidy(*f as f32),
        toml::Value::Array(a) => a.iter_mut().for_each(tidy_floats),
        toml::Value::Table(t) => t.iter_mut().for_each(|(_, v)| tidy_floats(v)),
        _ => {}
    }
}

/// `x` as a TOML float.
fn float(x: f32) -> String {
    toml::Value::Float(tidy(x)).to_string()
}

/// `s` as a TOML string.
fn string(s: &str) -> String {
    toml::Value::String(s.to_owned()).to_string()
}

impl ScenarioFile {
    /// The scenario as TOML: `perspective`, `on_blocked`, `[map]`, `[[source]]`, `[[path]]`,
    /// `[propagation]`, `[field]`, `[output]`.
    ///
    /// # Errors
    /// Should serialisation fail (it does not for tables read from TOML or built from
    /// library values).
    pub fn to_toml(&self) -> Result<String, toml::ser::Error> {
        let mut out = String::new();
        if let Some(p) = &self.perspective {
            out += &format!("perspective = {}\n\n", string(p));
        }
        if let Some(b) = self.on_blocked {
            out += &format!("on_blocked = {}\n\n", string(&crate::vocab::name_of(&b)));
        }
        let m = &self.map;
        out += "[map]\n";
        if let Some(file) = &m.file {
            out += &format!("file = {}\n", string(file));
        }
        if let Some(w) = m.width {
            out += &format!("width = {w}\n");
        }
        if let Some(h) = m.height {
            out += &format!("height = {h}\n");
        }
        if let Some(c) = m.cell_size {
            out += &format!("cell_size = {}\n", float(c));
        }
        if let Some(o) = m.origin {
            out += &format!("origin = [{}, {}]\n", float(o.0[0]), float(o.0[1]));
        }
        if let Some(n) = m.neighbours {
            out += &format!("neighbours = {n}\n");
        }
        if let Some(rows) = &m.rows {
            out += "rows = [\n";
            for row in rows {
                out += &format!("  {},\n", string(row));
            }
            out += "]\n";
        }
        out += "\n";
        let rest = Rest {
            source: &self.sources,
            path: &self.paths,
            propagation: self.propagation.as_ref(),
            field: self.field.as_ref(),
            output: &self.output,
        };
        let mut value = toml::Value::try_from(&rest)?;
        tidy_floats(&mut value);
        out += &toml::to_string(&value)?;
        Ok(out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tidy_numbers_read_back_exactly() {
        for x in [0.1f32, 1.0 / 3.0, 16_777_217.0, 1e-7, -0.0, 123.456] {
            assert_eq!((tidy(x) as f32).to_bits(), x.to_bits(), "{x}");
        }
        assert_eq!(tidy(0.1), 0.1);
        assert_eq!(float(2.0), "2.0");
    }
}
