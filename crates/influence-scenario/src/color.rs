//! Team colours: the optional `color = "#rrggbb"` of a `[[source]]` (one colour per team,
//! given by any of its sources), else [`PALETTE`] in team order — so a team has the same
//! colour in every picture of a scenario, the page's included.

use crate::error::Invalid;
use crate::key::KeyPath;
use crate::source::SourceSpec;

/// The colours of teams without a `color`, by team index (cycling): the Okabe–Ito colours
/// that read on both colour maps and on a dark frame, without their green (the figures' front
/// line is green) and black (routes), then a lavender and a brown.
pub const PALETTE: [[u8; 3]; 8] = [
    [0xe6, 0x9f, 0x00], // orange
    [0x56, 0xb4, 0xe9], // sky blue
    [0xd5, 0x5e, 0x00], // vermillion
    [0xf0, 0xe4, 0x42], // yellow
    [0x00, 0x72, 0xb2], // blue
    [0xcc, 0x79, 0xa7], // reddish purple
    [0xa0, 0x78, 0xff], // lavender
    [0xb5, 0x7a, 0x56], // brown
];

/// What a colour looks like, for messages.
pub const EXPECTED: &str = "a colour like \"#ff8800\" (# and six hex digits)";

/// `"#rrggbb"` (either case) as RGB, or `None`.
pub fn parse(text: &str) -> Option<[u8; 3]> {
    let hex = text.strip_prefix('#')?;
    if hex.len() != 6 || !hex.bytes().all(|b| b.is_ascii_hexdigit()) {
        return None;
    }
    let byte = |i: usize| u8::from_str_radix(&hex[i..i + 2], 16).ok();
    Some([byte(0)?, byte(2)?, byte(4)?])
}

/// RGB as `"#rrggbb"`.
pub fn hex(c: [u8; 3]) -> String {
    format!("#{:02x}{:02x}{:02x}", c[0], c[1], c[2])
}

/// The colours the sources give their teams, by team name, in order of first appearance.
///
/// # Errors
/// [`Invalid`] at `source[i].color` for a value that is not a colour, or a colour other than
/// the one an earlier source gave the same team.
pub fn given(specs: &[SourceSpec]) -> Result<Vec<(String, [u8; 3])>, Invalid> {
    let mut colors: Vec<(String, [u8; 3], usize)> = Vec::new();
    for (i, spec) in specs.iter().enumerate() {
        let Some(text) = &spec.color else { continue };
        let key = KeyPath::root("source").index(i).key("color");
        let c = parse(text).ok_or_else(|| Invalid::at(&key, format!("expected {EXPECTED}, got {text:?}")))?;
        match colors.iter().find(|(team, _, _)| *team == spec.team) {
            Some(&(_, earlier, j)) if earlier != c => {
                return Err(Invalid::at(
                    &key,
                    format!(
                        "team {:?} already has colour \"{}\" (source[{j}].color); a team has one \
                         colour: give it once, or the same on every source",
                        spec.team,
                        hex(earlier)
                    ),
                ));
            }
            Some(_) => {}
            None => colors.push((spec.team.clone(), c, i)),
        }
    }
    Ok(colors.into_iter().map(|(team, c, _)| (team, c)).collect())
}

/// The colour of team `index`, named `name`: its given colour, else the palette's.
pub fn team_color(given: &[(String, [u8; 3])], index: usize, name: &str) -> [u8; 3] {
    given.iter().find(|(t, _)| t == name).map_or(PALETTE[index % PALETTE.len()], |&(_, c)| c)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_hex_colours_only() {
        assert_eq!(parse("#ff8800"), Some([255, 136, 0]));
        assert_eq!(parse("#FF8800"), Some([255, 136, 0]));
        for bad in ["ff8800", "#ff880", "#ff88000", "#gg8800", "red", "", "#+f8800"] {
            assert_eq!(parse(bad), None, "{bad}");
        }
        assert_eq!(hex([255, 136, 0]), "#ff8800");
    }

    #[test]
    fn the_palette_has_distinct_colours() {
        for (i, a) in PALETTE.iter().enumerate() {
            assert!(PALETTE[i + 1..].iter().all(|b| a != b));
            assert_ne!(*a, [0, 0, 0]);
        }
    }

    #[test]
    fn given_colours_win_and_the_palette_goes_by_team_order() {
        let given = vec![("blue".to_owned(), [0, 0, 255])];
        assert_eq!(team_color(&given, 0, "red"), PALETTE[0]);
        assert_eq!(team_color(&given, 1, "blue"), [0, 0, 255]);
        assert_eq!(team_color(&given, 9, "x"), PALETTE[1]);
    }
}
