//! Running a scenario: every source stamped into its team's layer, then the compound maps
//! from the perspective team's point of view.

use std::borrow::Cow;

use influence::{Analysis, Layer, Stamper};

use crate::scenario::{LayerName, Scenario};

/// A scenario with its computed layers.
#[derive(Debug)]
pub struct Run {
    /// The scenario that was run.
    pub scenario: Scenario,
    /// One layer per team, in the scenario's team order.
    pub teams: Vec<Layer>,
    /// The compound maps from the perspective team's point of view.
    pub analysis: Analysis,
}

impl Run {
    /// Stamps the scenario's sources and computes its compound maps.
    pub fn new(scenario: Scenario) -> Self {
        let grid = &scenario.grid;
        let mut teams = vec![Layer::for_space(grid); scenario.teams.len()];
        let mut stamper = Stamper::new();
        for (team, source) in &scenario.sources {
            stamper.stamp(grid, &mut teams[*team], source);
        }
        let analysis = Analysis::from_teams(&teams.iter().collect::<Vec<_>>(), scenario.perspective);
        Self { scenario, teams, analysis }
    }

    /// The compound maps from team `team`'s point of view.
    pub fn analysis_for(&self, team: usize) -> Analysis {
        Analysis::from_teams(&self.teams.iter().collect::<Vec<_>>(), team)
    }

    /// The values of a layer to write.
    pub fn layer(&self, name: LayerName) -> Cow<'_, Layer> {
        match name {
            LayerName::Team(t) => Cow::Borrowed(&self.teams[t]),
            // The scenario takes these names from `Analysis::NAMES`, all of which `by_name` knows.
            LayerName::Analysis(a) => {
                Cow::Borrowed(self.analysis.by_name(a).expect("a name from Analysis::NAMES"))
            }
            LayerName::Frontline => Cow::Owned(crate::summary::frontline_mask(self)),
        }
    }
}
