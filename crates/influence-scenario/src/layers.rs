//! Layer names: each team's, the compound maps of `Analysis`, `frontline`, and `heat` after a
//! flood fill. Team names become file and layer names, so they are kept plain and distinct
//! from the others.

use influence::analysis::Compound;

use crate::vocab::name_of;

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
        return Err(format!("team names use letters, digits, '_' and '-' only, got {name:?}"));
    }
    if name == "frontline" || name == "heat" || Compound::ALL.iter().any(|c| name_of(c) == name) {
        return Err(format!("{name:?} is the name of a compound layer; pick another team name"));
    }
    Ok(())
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
    } else if let Some(&a) = Compound::ALL.iter().find(|a| name_of(*a) == name) {
        Ok(LayerName::Analysis(a))
    } else if name == "frontline" {
        Ok(LayerName::Frontline)
    } else if heat && name == "heat" {
        Ok(LayerName::Heat)
    } else {
        let hint = if name == "heat" { " (it comes with [propagation] kind = \"flood\")" } else { "" };
        let known = names(teams, heat).collect::<Vec<_>>().join(", ");
        Err(format!("unknown layer {name:?}{hint}; known: {known}"))
    }
}
