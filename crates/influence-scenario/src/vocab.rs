//! The scenario's vocabulary, read off its serde definitions so that each key and name is
//! written once: the keys a table takes and the names an enum takes ([`names`]),
//! a value's own name ([`name_of`]), and "did you mean" for a misspelling ([`suggest`]).

use serde::de::{DeserializeOwned, IntoDeserializer};
use serde::Serialize;
use serde_aux::serde_introspection::serde_introspect;

/// The names `T` takes, in declaration order: a table's keys (a struct with serde derives)
/// or an enum's names (its serde variant names).
pub fn names<T: DeserializeOwned>() -> &'static [&'static str] {
    serde_introspect::<T>()
}

/// The name `value` is written as.
pub fn name_of<T: Serialize>(value: &T) -> String {
    match toml::Value::try_from(value) {
        Ok(toml::Value::String(s)) => s,
        _ => String::new(),
    }
}

/// The value of enum `T` called `name`, if there is one.
pub fn parse_name<T: DeserializeOwned>(name: &str) -> Option<T> {
    let de: serde::de::value::StrDeserializer<'_, serde::de::value::Error> = name.into_deserializer();
    T::deserialize(de).ok()
}

/// The candidate closest to `given`, if one is close enough to be a likely misspelling.
pub fn suggest<'a>(given: &str, candidates: impl IntoIterator<Item = &'a str>) -> Option<&'a str> {
    candidates
        .into_iter()
        .map(|c| (strsim::jaro_winkler(given, c), c))
        .filter(|&(score, _)| score >= 0.8)
        .max_by(|a, b| a.0.total_cmp(&b.0))
        .map(|(_, c)| c)
}

/// `` `a`, `b` or `c` ``: a list of names for a message.
pub fn list(names: &[&str]) -> String {
    let quoted: Vec<String> = names.iter().map(|n| format!("`{n}`")).collect();
    match quoted.as_slice() {
        [] => "none".to_owned(),
        [one] => one.clone(),
        [init @ .., last] => format!("{} or {last}", init.join(", ")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::propagation::Kind;

    #[test]
    fn names_come_from_serde() {
        assert_eq!(names::<Kind>(), ["diffuse", "steady", "flood"]);
        assert_eq!(name_of(&Kind::Steady), "steady");
        assert_eq!(parse_name::<Kind>("flood"), Some(Kind::Flood));
        assert_eq!(parse_name::<Kind>("flod"), None);
        assert_eq!(suggest("flod", names::<Kind>().iter().copied()), Some("flood"));
        assert_eq!(suggest("xyz", names::<Kind>().iter().copied()), None);
        assert_eq!(list(&["a", "b", "c"]), "`a`, `b` or `c`");
    }
}
