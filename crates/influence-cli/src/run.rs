//! Running a scenario: every source stamped into its team's layer — or, under
//! `[propagation]`, spread from there — then the compound maps from the perspective team's
//! point of view.

use std::borrow::Cow;

use influence::route::{Route, Router};
use influence::{Analysis, Layer};
use influence_scenario::layers::LayerName;
use influence_scenario::propagation::Method;
use influence_scenario::route;
use influence_scenario::scenario::Scenario;
use influence_scenario::spread::{self, Chased, Diffusing};

use crate::error::CliError;

/// A scenario with its computed layers.
#[derive(Debug)]
pub struct Run {
    /// The scenario that was run.
    pub scenario: Scenario,
    /// One layer per team, in the scenario's team order.
    pub teams: Vec<Layer>,
    /// The compound maps from the perspective team's point of view.
    pub analysis: Analysis,
    /// The chase flood fill's heat and guess, under `[propagation] kind = "flood"`.
    pub chase: Option<Chased>,
    /// The `[[path]]` routes, in order; `None` where the goal cannot be reached.
    pub routes: Vec<Option<Route>>,
    /// The `[field]` sampled on the map, per team that has field sources: added to the team
    /// layers given to [`Run::with_layers`] and [`Run::set_layers`].
    fields: Vec<(usize, Layer)>,
}

impl Run {
    /// Stamps (and propagates) the scenario's sources and computes its compound maps.
    ///
    /// # Errors
    /// [`CliError::Input`] if the propagation refuses the scenario's values.
    pub fn new(scenario: Scenario) -> Result<Self, CliError> {
        let failed = |e: influence::Error| CliError::from(scenario.propagation_failed(&e));
        let (teams, chase) = match scenario.propagation.as_ref().map(|p| (&p.method, p.grid(&scenario.grid)))
        {
            None => (scenario.stamped(), None),
            Some((Method::Diffuse { diffusion, steps }, grid)) => {
                let mut diffusing = Diffusing::new(grid, *diffusion, scenario.seeds()).map_err(failed)?;
                for _ in 0..*steps {
                    diffusing.step();
                }
                (diffusing.layers(), None)
            }
            Some((Method::Steady { diffusion }, grid)) => {
                (spread::steady(&grid, diffusion, &scenario.seeds()).map_err(failed)?, None)
            }
            Some((Method::Flood { last_seen, velocity, chase }, grid)) => {
                let chased = spread::flood(&grid, *last_seen, *velocity, chase).map_err(failed)?;
                (scenario.stamped(), Some(chased))
            }
        };
        Ok(Self::with_layers(scenario, teams, chase))
    }

    /// A run of `scenario` whose team layers (and chase) were computed elsewhere: a frame of
    /// an animation.
    /// The `[field]`, if any, is sampled here and added to `teams`.
    pub fn with_layers(scenario: Scenario, teams: Vec<Layer>, chase: Option<Chased>) -> Self {
        let fields = scenario.fields.teams.iter().map(|f| (f.team, f.field.sample(&scenario.grid))).collect();
        let mut run = Self {
            analysis: Analysis::new(scenario.grid.len()),
            scenario,
            teams: Vec::new(),
            chase: None,
            routes: Vec::new(),
            fields,
        };
        run.set_layers(teams, chase);
        run
    }

    /// Replaces the team layers (and chase), adds the field, and recomputes the compound maps in place.
    pub fn set_layers(&mut self, mut teams: Vec<Layer>, chase: Option<Chased>) {
        for (team, field) in &self.fields {
            teams[*team].add(field);
        }
        self.analysis.update(&teams.iter().collect::<Vec<_>>(), self.scenario.perspective);
        self.teams = teams;
        self.chase = chase;
        let mut router = Router::new();
        let s = &self.scenario;
        self.routes =
            s.paths.iter().map(|p| route::find(&mut router, &s.grid, p, &self.layer(p.layer))).collect();
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
            // The scenario offers `heat` only with a flood fill, which every run of it has.
            LayerName::Heat => match &self.chase {
                Some(c) => Cow::Borrowed(&c.heat),
                None => Cow::Owned(Layer::for_space(&self.scenario.grid)),
            },
        }
    }
}
