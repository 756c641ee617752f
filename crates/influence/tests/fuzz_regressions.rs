//! Replays the fuzz inputs on stable `cargo test`: every file in `fuzz/seeds/<target>/`,
//! `fuzz/corpus/<target>/` (local runs only, not committed),
//! `fuzz/artifacts/<target>/` and `fuzz/regressions/<target>/` goes through the same check as
//! the libFuzzer target of that name (`fuzz/src/lib.rs`, repeated here because this crate
//! cannot depend on the fuzz crate). A check must not panic on any input.
//!
//! `falloff_stamp` decodes its bytes with `arbitrary`, which is not a dependency here; its
//! crashes become hand-written cases at the end of this file.

use influence::Space;
use std::path::{Path, PathBuf};

use influence::space::Graph;
use influence::Grid;

/// The files of `fuzz/<kind>/<target>/` for each kind, sorted; missing folders give none.
fn inputs(target: &str) -> Vec<PathBuf> {
    let fuzz = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fuzz");
    let mut files = Vec::new();
    for kind in ["seeds", "corpus", "artifacts", "regressions"] {
        let Ok(dir) = std::fs::read_dir(fuzz.join(kind).join(target)) else { continue };
        files.extend(
            dir.filter_map(Result::ok)
                .map(|e| e.path())
                .filter(|p| p.is_file() && p.file_name().is_some_and(|n| n != ".keep")),
        );
    }
    files.sort();
    files
}

/// Runs `check` on every input of `target`, naming the file that panics.
fn replay(target: &str, check: fn(&str)) {
    for path in inputs(target) {
        let bytes = std::fs::read(&path).expect("readable");
        let Ok(text) = std::str::from_utf8(&bytes) else { continue };
        let run = std::panic::catch_unwind(|| check(text));
        assert!(run.is_ok(), "{target}: {} panics", path.display());
    }
}

fn check_movingai(text: &str) {
    if let Ok(grid) = Grid::from_movingai(text) {
        assert_eq!(grid.len(), grid.width() * grid.height());
    }
}

fn check_graph_text(text: &str) {
    if let Ok(graph) = Graph::from_text(text) {
        let again = Graph::from_text(&graph.to_text()).expect("to_text output parses");
        assert_eq!(again, graph, "text round trip");
    }
}

#[test]
fn movingai_corpus() {
    replay("movingai", check_movingai);
}

#[test]
fn graph_text_corpus() {
    replay("graph_text", check_graph_text);
}

#[cfg(feature = "serde")]
#[test]
fn graph_json_corpus() {
    replay("graph_json", |text| {
        if let Ok(graph) = Graph::from_json(text) {
            let again = Graph::from_json(&graph.to_json()).expect("to_json output parses");
            assert_eq!(again, graph, "JSON round trip");
        }
    });
}

/// Fixed bug (found by the `falloff_stamp` target, input `fuzz/regressions/falloff_stamp/
/// stamp-outside-grid-clamp`): a source further than its reach beside the grid, but level
/// with its rows, panics in `Stamper::stamp` — `footprint_row` (src/stamp.rs, the `bound`
/// closure) calls `f32::clamp(dx_lo - 1, dx_hi + 1)` with `dx_lo > dx_hi`:
/// "min > max, or either was NaN. min = -10.0, max = -92.0". `Source::new` accepts any
/// finite position, so this is reachable from valid input (and from `influence render` with
/// `at = [100, 1]` on an 8-wide map). Expected: the source stamps nothing.
#[test]
fn stamp_source_beside_the_grid() {
    use influence::glam::Vec2;
    use influence::{Falloff, Layer, Source, Stamper};
    let grid = Grid::new(8, 8).unwrap();
    let mut layer = Layer::for_space(&grid);
    let source = Source::new(Vec2::new(100.0, 4.0), 1.0, Falloff::Linear, 8.0).unwrap();
    Stamper::new().stamp(&grid, &mut layer, &source).unwrap();
    assert!(layer.values().iter().all(|&v| v == 0.0));
    // The fuzzer's own input: x = 1024 on an 8 × 8 grid, a subnormal radius.
    let source = Source::new(Vec2::new(1024.0, 4.0), -8.789e-41, Falloff::Linear, 8.8e-44).unwrap();
    Stamper::new().stamp(&grid, &mut layer, &source).unwrap();
    assert!(layer.values().iter().all(|&v| v == 0.0));
    // `stamp-outside-grid-clamp-huge-radius`: inside in world units but not in cells — a
    // 23-wide grid of cell size 1.1e-13 with the source at x = 11.86 and a radius of 2.6e29;
    // "min = -31.0, max = -1099511600000.0".
    let grid = Grid::new(23, 29).unwrap().with_cell_size(1.121_154_6e-13).unwrap();
    let mut layer = Layer::for_space(&grid);
    let falloff = Falloff::Exponential { rate: 6.538_715e-39 };
    let source =
        Source::new(Vec2::new(11.859_563, 3.878_462_8e-22), -6.162_491, falloff, 2.553_311_2e29).unwrap();
    Stamper::new().stamp(&grid, &mut layer, &source).unwrap();
    assert!(layer.values().iter().all(|v| v.is_finite()));
}

/// Fixed bug (found by `falloff_stamp`, input `fuzz/regressions/falloff_stamp/
/// gaussian-subnormal-sigma-nan`): `Falloff::Gaussian { sigma }` accepts any sigma > 0, but
/// for a tiny one `2·σ²` underflows to 0 and `factor(0, r)` is `exp(-0/0)` = NaN
/// (src/falloff.rs, `Falloff::factor`, the `Gaussian` arm), so the cell under the source is
/// stamped NaN — even with strength 0. Fuzzer message: "cell 0 is NaN after stamping Source
/// { position: (5.9e-39, 4.6e-40), strength: 0.0, falloff: Gaussian { sigma: 2.881e-42 },
/// radius: 1.7e10 } into 9x32 grid". Expected: validation rejects such a sigma, or the
/// factor at d = 0 is 1.
#[test]
fn gaussian_tiny_sigma_is_not_nan() {
    use influence::Falloff;
    let falloff = Falloff::Gaussian { sigma: 1e-30 };
    assert!(falloff.validate().is_ok());
    assert!(falloff.factor(0.0, 1.0).is_finite(), "{}", falloff.factor(0.0, 1.0));
    // `gaussian-huge-sigma-nan`: the other end — σ = 1.2e30 makes 2·σ² inf, and a distance
    // whose square overflows gives inf/inf = NaN ("cell 0 is NaN after stamping … Gaussian
    // { sigma: 1.1955647e30 }, radius: 1.6852366e22 … into 5x5 grid").
    let falloff = Falloff::Gaussian { sigma: 1.195_564_7e30 };
    assert!(falloff.validate().is_ok());
    assert!(falloff.factor(1e22, 1e23).is_finite(), "{}", falloff.factor(1e22, 1e23));
}

/// Fixed issue (found by `falloff_stamp`, input `fuzz/regressions/falloff_stamp/
/// band-huge-factor-overflows-inf`): `Band::new` accepts any finite factor and `Source::new`
/// any finite strength, so their product can overflow: a band `[(716, 6.5e37)]` with strength
/// 12.27 stamps `inf` ("cell 0 is inf after stamping … into 9x9 grid"). Expected: a bound on
/// factors (e.g. |f| ≤ 1, as the documented areas and rings use) or on the product.
#[test]
fn band_huge_factor_stays_finite() {
    use influence::glam::Vec2;
    use influence::{Band, Falloff, Layer, Source, Stamper};
    // Factors are now confined to [-1, 1], like every other curve's.
    assert!(Band::new(vec![(716.0, 6.543_237e37)]).is_err());
    let grid = Grid::new(9, 9).unwrap();
    let mut layer = Layer::for_space(&grid);
    let band = Falloff::Band(Band::new(vec![(0.0, -1.0), (716.0, 1.0)]).unwrap());
    let source = Source::new(Vec2::new(0.5, 4.5), f32::MAX, band, 785.0).unwrap();
    Stamper::new().stamp(&grid, &mut layer, &source).unwrap();
    assert!(layer.values().iter().all(|v| v.is_finite()));
}
