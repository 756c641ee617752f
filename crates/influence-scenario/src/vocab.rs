//! The scenario's vocabulary, read off its serde definitions so that each key and name is
//! written once: the keys a table takes and the names an enum takes ([`names`]),
//! a value's own name ([`name_of`]), "did you mean" for a misspelling ([`suggest`]), and
//! serde's type errors said in words ([`in_words`]).

use serde::de::{DeserializeOwned, IntoDeserializer};
use serde::Serialize;
use serde_aux::serde_introspection::serde_introspect;

use crate::key::KeyPath;

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

/// A serde or TOML error `message` about `key`, said in words: "expected a whole number
/// from 1 to 1,000,000, got 2.5" rather than "invalid type: floating point `2.5`, expected
/// u64". The value quoted is cut to 80 characters; other messages pass unchanged.
pub(crate) fn in_words(message: &str, key: Option<&KeyPath>) -> String {
    if let Some(field) = message.strip_prefix("missing field `").and_then(|r| r.strip_suffix('`')) {
        return match field {
            "map" => "missing the required table [map] (a map `file`, or `width` and `height`)".to_owned(),
            field => format!("missing the required key `{field}`"),
        };
    }
    let rest = message.strip_prefix("invalid type: ").or_else(|| message.strip_prefix("invalid value: "));
    let Some((got, expected)) = rest.and_then(|r| r.rsplit_once(", expected ")) else {
        return message.to_owned();
    };
    if let Some(n) = got.strip_prefix("integer `").and_then(|g| g.strip_suffix("` as i128")) {
        return format!(
            "the integer {} is too large: TOML integers go up to 9,223,372,036,854,775,807",
            crate::known::shorten(n)
        );
    }
    let wanted = match key.and_then(KeyPath::last_key).and_then(expected_for_key) {
        Some(words) => words.to_owned(),
        None => expected_for_type(expected),
    };
    format!("expected {wanted}, got {}", got_words(got))
}

/// What the key named `key` takes, in words, where its type alone does not say.
fn expected_for_key(key: &str) -> Option<&'static str> {
    Some(match key {
        "width" | "height" => "a whole number from 1 to 268,435,456",
        "steps" | "max_steps" => "a whole number from 1 to 1,000,000",
        "max_new" => "a whole number, 0 or more",
        "neighbours" => "4 or 8",
        "dimensions" => "2 or 3",
        "upscale" => "a whole number from 1 to 64",
        "at" | "origin" | "last_seen" | "velocity" | "from" | "to" => "an array of numbers such as [10, 20]",
        "rows" => "an array of strings, one per row of the map",
        "layers" => "an array of layer names such as [\"red\", \"tension\"]",
        "points" => "an array of [distance, factor] pairs",
        "ring" => "an array of 4 distances",
        "team" | "perspective" => "a team name in quotes, such as \"red\"",
        "markers" => "true or false",
        _ => return None,
    })
}

/// A serde type name in words.
fn expected_for_type(expected: &str) -> String {
    match expected {
        "f32" | "f64" => "a number",
        "usize" | "u64" | "u32" | "u16" => "a whole number, 0 or more",
        "u8" => "a whole number from 0 to 255",
        "a sequence" => "an array",
        "a boolean" => "true or false",
        "a string" => "a string in quotes",
        other => other,
    }
    .to_owned()
}

/// Serde's description of the value it got, as a person would say it.
fn got_words(got: &str) -> String {
    let bare = |prefix: &str| got.strip_prefix(prefix).and_then(|g| g.strip_prefix('`')?.strip_suffix('`'));
    if let Some(text) = got.strip_prefix("string ") {
        let inner = text.strip_prefix('"').and_then(|t| t.strip_suffix('"')).unwrap_or(text);
        return format!("the string \"{}\"", crate::known::shorten(inner));
    }
    if let Some(v) = bare("boolean ").or_else(|| bare("integer ")).or_else(|| bare("floating point ")) {
        return crate::known::shorten(v);
    }
    match got {
        "sequence" => "an array".to_owned(),
        "map" => "a table".to_owned(),
        other => crate::known::shorten(other),
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

    #[test]
    fn serde_errors_in_words() {
        let steps = KeyPath::root("propagation").key("steps");
        assert_eq!(
            in_words("invalid type: floating point `2.5`, expected u64", Some(&steps)),
            "expected a whole number from 1 to 1,000,000, got 2.5"
        );
        assert_eq!(
            in_words("invalid type: string \"x\", expected f32", None),
            "expected a number, got the string \"x\""
        );
        assert_eq!(in_words("missing field `team`", None), "missing the required key `team`");
        assert_eq!(in_words("something else", None), "something else");
    }
}
