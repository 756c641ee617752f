//! Team colours: `color = "#rrggbb"` on a `[[source]]` names its team's colour; a value that
//! is not a colour, or a second colour for one team, is an error at the key, line and column.

use influence_scenario::color::PALETTE;
use influence_scenario::error::Problem;
use influence_scenario::map::MapFiles;
use influence_scenario::scenario;

fn text(red: &str, blue: &str) -> String {
    format!(
        "[map]\nwidth = 8\nheight = 4\n\n\
         [[source]]\nteam = \"red\"\nat = [1, 1]\nstrength = 5\nfalloff = \"linear\"\nradius = 4\n{red}\n\
         [[source]]\nteam = \"blue\"\nat = [6, 1]\nstrength = 5\nfalloff = \"linear\"\nradius = 4\n{blue}\n\
         [[source]]\nteam = \"red\"\nat = [2, 2]\nstrength = 5\nfalloff = \"linear\"\nradius = 4\n"
    )
}

fn parse(text: &str) -> Result<scenario::Scenario, influence_scenario::error::Located> {
    scenario::parse("s.toml", text, &MapFiles::Dir(std::path::PathBuf::from(".")))
}

#[test]
fn a_given_colour_is_the_teams_and_the_others_take_the_palette() {
    let s = parse(&text("", "color = \"#1F77b4\"")).unwrap();
    assert_eq!(s.teams, ["red", "blue"]);
    assert_eq!(s.team_color(0), PALETTE[0]);
    assert_eq!(s.team_color(1), [0x1f, 0x77, 0xb4]);
    let s = parse(&text("", "")).unwrap();
    assert_eq!((s.team_color(0), s.team_color(1)), (PALETTE[0], PALETTE[1]));
}

#[test]
fn a_bad_colour_is_refused_at_its_key_line_and_column() {
    for bad in ["\"ff8800\"", "\"#ff880\"", "\"orange\"", "\"#ff88zz\""] {
        let e = parse(&text("", &format!("color = {bad}"))).unwrap_err();
        assert_eq!(e.problem, Problem::Value, "{e}");
        assert_eq!(e.key.as_ref().map(ToString::to_string).as_deref(), Some("source[1].color"), "{e}");
        assert_eq!((e.line, e.column), (Some(18), Some(1)), "{e}");
        assert!(e.message.contains("a colour like \"#ff8800\""), "{e}");
    }
    let e = parse(&text("", "color = 7")).unwrap_err();
    assert_eq!(e.key.as_ref().map(ToString::to_string).as_deref(), Some("source[1].color"), "{e}");
}

#[test]
fn one_team_has_one_colour() {
    let two = text("color = \"#ff0000\"", "").replacen("at = [2, 2]", "at = [2, 2]\ncolor = \"#ee0000\"", 1);
    let e = parse(&two).unwrap_err();
    assert_eq!(e.key.as_ref().map(ToString::to_string).as_deref(), Some("source[2].color"), "{e}");
    assert!(e.message.contains("already has colour \"#ff0000\""), "{e}");
    let same = text("color = \"#ff0000\"", "").replacen("at = [2, 2]", "at = [2, 2]\ncolor = \"#FF0000\"", 1);
    assert_eq!(parse(&same).unwrap().team_color(0), [255, 0, 0]);
}
