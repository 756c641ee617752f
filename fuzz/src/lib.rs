//! The checks behind the fuzz targets, one `fn check_*(data: &[u8])` per target. The targets
//! in `fuzz_targets/` call these; so does `cargo test` here, replaying the corpora.
//! Every check must not panic on any input; a panic is a bug in `influence`.

use arbitrary::{Arbitrary, Unstructured};
use influence::glam::Vec2;
use influence::space::Graph;
use influence::{Band, Falloff, Grid, Layer, Source, Space, Stamper};

/// A small map the fuzzed scenarios may name as `map.file = "tiny.map"`.
const TINY_MAP: &str = "type octile\nheight 4\nwidth 6\nmap\n......\n.@@...\n....@.\n......\n";

/// The scenario loader (`influence_scenario`) on arbitrary text: an input error or a
/// scenario. A small one (at most 4096 cells, at most 64 diffusion steps) is also run and
/// summarised as the command does, and every layer it would write must be free of NaN.
pub fn check_scenario(data: &[u8]) {
    use influence_scenario::map::MapFiles;
    use influence_scenario::propagation::Method;
    let Ok(text) = std::str::from_utf8(data) else { return };
    let maps = [("tiny.map", TINY_MAP)];
    let Ok(scenario) = influence_scenario::scenario::parse("fuzz.toml", text, &MapFiles::Embedded(&maps)) else {
        return;
    };
    let long = scenario.propagation.as_ref().is_some_and(|p| match p.method {
        Method::Diffuse { steps, .. } => steps > 64,
        _ => false,
    });
    if scenario.grid.len() > 4096 || long {
        return;
    }
    let layers = scenario.layers.clone();
    let Ok(mut run) = influence_scenario::engine::Run::new(scenario) else { return };
    if run.finish(&mut |_| {}).is_err() {
        return;
    }
    let view = run.view();
    let _summary = view.summary();
    for (name, layer) in layers {
        assert!(view.layer(layer).values().iter().all(|v| !v.is_nan()), "NaN in layer {name}");
    }
}

/// `Grid::from_movingai` on arbitrary text: an error or a grid whose size adds up.
pub fn check_movingai(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else { return };
    if let Ok(grid) = Grid::from_movingai(text) {
        assert_eq!(grid.len(), grid.width() * grid.height());
    }
}

/// `Graph::from_text` on arbitrary text; a graph it accepts writes back to text that reads
/// back equal.
pub fn check_graph_text(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else { return };
    if let Ok(graph) = Graph::from_text(text) {
        let again = Graph::from_text(&graph.to_text()).expect("to_text output parses");
        assert_eq!(again, graph, "text round trip");
    }
}

/// `Graph::from_json` on arbitrary text; a graph it accepts writes back to JSON that reads
/// back equal.
pub fn check_graph_json(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else { return };
    if let Ok(graph) = Graph::from_json(text) {
        let again = Graph::from_json(&graph.to_json()).expect("to_json output parses");
        assert_eq!(again, graph, "JSON round trip");
    }
}

/// Skip inputs that hit the known bug of `Stamper::stamp` with a source beside the grid
/// (see `check_falloff_stamp`); `false` once it is fixed in `influence`.
pub const KNOWN_BUG_SOURCE_BESIDE_GRID: bool = false;

/// Skip Gaussian curves whose `2·σ²` underflows (NaN at distance 0); `false` once fixed.
pub const KNOWN_BUG_TINY_SIGMA: bool = false;

/// Skip bands whose factor × strength overflows to infinity; `false` once fixed.
pub const KNOWN_BUG_BAND_OVERFLOW: bool = false;

/// A falloff curve from arbitrary floats.
#[derive(Arbitrary, Debug)]
pub enum FalloffSpec {
    Linear,
    Exponential(f32),
    Halving(f32),
    Polynomial(f32),
    Gaussian(f32),
    Constant,
    Point,
    Band(Vec<(f32, f32)>),
}

/// A source, a small grid and the curve, all from arbitrary numbers.
#[derive(Arbitrary, Debug)]
pub struct StampSpec {
    pub width: u8,
    pub height: u8,
    pub cell_size: f32,
    pub x: f32,
    pub y: f32,
    pub strength: f32,
    pub radius: f32,
    pub falloff: FalloffSpec,
}

/// `Falloff` / `Band::new` / `Source::new` with arbitrary floats: errors are fine, panics are
/// not, and a source they accept stamps no NaN or infinity into a small grid.
pub fn check_falloff_stamp(data: &[u8]) {
    let Ok(spec) = StampSpec::arbitrary(&mut Unstructured::new(data)) else { return };
    let falloff = match spec.falloff {
        FalloffSpec::Linear => Falloff::Linear,
        FalloffSpec::Exponential(rate) => Falloff::Exponential { rate },
        FalloffSpec::Halving(step) => Falloff::Halving { step },
        FalloffSpec::Polynomial(power) => Falloff::Polynomial { power },
        // Known bug (regressions/falloff_stamp/gaussian-*-sigma-nan): 2·σ² underflows to 0
        // or overflows to inf, and 0/0 or inf/inf makes the factor NaN; skipped while KNOWN_BUG_TINY_SIGMA holds.
        FalloffSpec::Gaussian(sigma) if KNOWN_BUG_TINY_SIGMA && !(2.0 * sigma * sigma).is_normal() => return,
        FalloffSpec::Gaussian(sigma) => Falloff::Gaussian { sigma },
        FalloffSpec::Constant => Falloff::Constant,
        FalloffSpec::Point => Falloff::Point,
        FalloffSpec::Band(mut points) => {
            points.truncate(16);
            // Known issue (regressions/falloff_stamp/band-huge-factor-overflows-inf): any
            // finite factor is accepted, and strength × factor can overflow to infinity.
            let overflows = |&(_, f): &(f32, f32)| f.abs() > 1e18 || (f * spec.strength).is_infinite();
            if KNOWN_BUG_BAND_OVERFLOW && points.iter().any(overflows) {
                return;
            }
            match Band::new(points) {
                Ok(band) => Falloff::Band(band),
                Err(_) => return,
            }
        }
    };
    let Ok(source) = Source::new(Vec2::new(spec.x, spec.y), spec.strength, falloff, spec.radius) else {
        return;
    };
    let (w, h) = (usize::from(spec.width % 32) + 1, usize::from(spec.height % 32) + 1);
    let Ok(grid) = Grid::new(w, h).and_then(|g| g.with_cell_size(spec.cell_size)) else { return };
    if KNOWN_BUG_SOURCE_BESIDE_GRID {
        // Known bug (regressions/falloff_stamp/stamp-outside-grid-clamp*): a source to the
        // side of the grid (its column outside 0..width) can panic in `Stamper::stamp`.
        // Skipped so the target keeps looking for other bugs; set the constant to false once
        // it is fixed.
        if !(0.0..=grid.world_size().x).contains(&source.position().x) {
            return;
        }
    }
    let mut layer = Layer::for_space(&grid);
    if let Err(e) = Stamper::new().stamp(&grid, &mut layer, &source) {
        // A grid without walls refuses only a point or walking-distance source off the map.
        assert!(grid.cell_at(source.position()).is_none(), "{e}");
    }
    assert_eq!(layer.len(), grid.len());
    for (i, v) in layer.values().iter().enumerate() {
        assert!(v.is_finite(), "cell {i} is {v} after stamping {source:?} into {w}x{h} grid");
    }
}
