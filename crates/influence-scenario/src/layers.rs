//! Layer names: each team's, the compound maps of `Analysis`, `frontline`, and `heat` after a
//! flood fill. Team names become file and layer names, so they are kept plain and distinct
//! from the others.

use influence::{Analysis, Layer};
use serde::{Deserialize, Serialize};

use crate::known::shorten;
use crate::vocab::{name_of, parse_name};

/// The longest team name, in bytes: it names files (`red.npy`), which most file systems
/// cap at 255 bytes.
pub const MAX_TEAM_NAME: usize = 64;

/// The compound maps of the perspective team's `Analysis`, by the names scenario files and
/// the sandbox use for them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Compound {
    /// Its own layer.
    Mine,
    /// Every other team's, summed.
    Theirs,
    /// mine − theirs.
    Influence,
    /// mine + theirs.
    Tension,
    /// mine × theirs.
    TensionProduct,
    /// tension − |influence|.
    Vulnerability,
    /// tension + influence.
    DirectedVulnerability,
}

impl Compound {
    /// Every compound map, in the order layer lists show them.
    pub const ALL: [Self; 7] = [
        Self::Mine,
        Self::Theirs,
        Self::Influence,
        Self::Tension,
        Self::TensionProduct,
        Self::Vulnerability,
        Self::DirectedVulnerability,
    ];

    /// This map of `analysis`.
    pub fn of(self, analysis: &Analysis) -> &Layer {
        match self {
            Self::Mine => &analysis.mine,
            Self::Theirs => &analysis.theirs,
            Self::Influence => &analysis.influence,
            Self::Tension => &analysis.tension,
            Self::TensionProduct => &analysis.tension_product,
            Self::Vulnerability => &analysis.vulnerability,
            Self::DirectedVulnerability => &analysis.directed_vulnerability,
        }
    }
}

/// A layer of a run, by what it is.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum LayerName {
    /// A team's own influence, by team index.
    Team(usize),
    /// A compound map of the perspective team's `Analysis`.
    Analysis(Compound),
    /// The front line as a 0/1 mask.
    Frontline,
    /// The chase flood fill's heat.
    Heat,
}

/// Letters, digits, `_` and `-`, and not the name of another layer.
///
/// # Errors
/// A message saying why `name` cannot be a team's.
pub fn check_team_name(name: &str) -> Result<(), String> {
    if name.is_empty() || !name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-') {
        let name = shorten(name);
        return Err(format!("expected a team name of letters, digits, '_' and '-', got {name:?}"));
    }
    if name.len() > MAX_TEAM_NAME {
        return Err(format!(
            "a team name has at most {MAX_TEAM_NAME} characters (it names files), got {} in {:?}",
            name.len(),
            shorten(name)
        ));
    }
    if name == "frontline" || name == "heat" || Compound::ALL.iter().any(|c| name_of(c) == name) {
        return Err(format!("{name:?} is the name of a compound layer; pick another team name"));
    }
    Ok(())
}

/// A team already named `name` but for letter case, which would write files that differ
/// only in case (the same file on many systems).
///
/// # Errors
/// A message naming both spellings.
pub fn check_case(teams: &[String], name: &str) -> Result<(), String> {
    match teams.iter().find(|t| t.as_str() != name && t.eq_ignore_ascii_case(name)) {
        Some(t) => {
            Err(format!("team {name:?} differs from team {t:?} only in letter case; use one spelling"))
        }
        None => Ok(()),
    }
}

/// The index of team `name`, added at the end if new.
pub fn team_index(teams: &mut Vec<String>, name: &str) -> usize {
    teams.iter().position(|t| t == name).unwrap_or_else(|| {
        teams.push(name.to_owned());
        teams.len() - 1
    })
}

/// Every layer name, in order: the teams, the compound maps, `frontline`, and `heat` when
/// there is a flood fill.
pub fn names(teams: &[String], heat: bool) -> impl Iterator<Item = String> + '_ {
    let heat = heat.then(|| "heat".to_owned());
    let compound = Compound::ALL.iter().map(name_of);
    teams.iter().cloned().chain(compound).chain(["frontline".to_owned()]).chain(heat)
}

/// The layer called `name`, among the teams' and the compound ones (and `heat` after a
/// flood fill).
///
/// # Errors
/// A message listing the known names.
pub fn layer_named(teams: &[String], heat: bool, name: &str) -> Result<LayerName, String> {
    if let Some(t) = teams.iter().position(|t| t == name) {
        Ok(LayerName::Team(t))
    } else if let Some(a) = parse_name::<Compound>(name) {
        Ok(LayerName::Analysis(a))
    } else if name == "frontline" {
        Ok(LayerName::Frontline)
    } else if heat && name == "heat" {
        Ok(LayerName::Heat)
    } else {
        let hint = if name == "heat" { " (it comes with [propagation] kind = \"flood\")" } else { "" };
        let known = names(teams, heat).collect::<Vec<_>>();
        let name = shorten(name);
        match crate::vocab::suggest(&name, known.iter().map(String::as_str)) {
            Some(near) if hint.is_empty() => Err(format!("unknown layer {name:?}; did you mean {near:?}?")),
            _ => Err(format!("unknown layer {name:?}{hint}; known: {}", known.join(", "))),
        }
    }
}
