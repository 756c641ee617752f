//! What `influence render` computes for an exported scenario: the export read back by the
//! scenario model and run by the one engine, as the command runs it. The sandbox's layers
//! must equal these bit for bit, which checks the export's round trip (every number, table
//! and step count the page shows is written so that it reads back the same).

use std::collections::BTreeMap;

use influence::{Grid, Layer};
use influence_scenario::engine::Run;
use influence_scenario::layers;
use influence_scenario::map::MapFiles;
use influence_scenario::scenario;

/// A scenario's layers by name, as `influence render` would write them.
pub struct Rendered {
    pub grid: Grid,
    pub layers: BTreeMap<String, Layer>,
    /// The flood fill's predicted cell.
    pub predicted: Option<usize>,
    /// Each `[[path]]`'s route cells (`None` where unreachable).
    pub routes: Vec<Option<Vec<usize>>>,
}

/// Renders the exported scenario `text` (its map given as `rows`).
pub fn render(text: &str) -> Rendered {
    let s = scenario::parse("export.toml", text, &MapFiles::Embedded(&[])).expect("the export reads back");
    let flood = s.propagation.is_some_and(|p| p.kind() == influence_scenario::propagation::Kind::Flood);
    let names: Vec<String> = layers::names(&s.teams, flood).collect();
    let mut run = Run::new(s).expect("the export runs");
    run.finish(&mut |_| {}).expect("the export runs to its end");
    let view = run.view();
    let layers = names.iter().map(|n| (n.clone(), view.layer_named(n).unwrap().into_owned())).collect();
    Rendered {
        grid: view.scenario().grid.clone(),
        layers,
        predicted: view.prediction().map(|p| p.cell),
        routes: view.routes().iter().map(|r| r.as_ref().map(|r| r.cells.clone())).collect(),
    }
}
