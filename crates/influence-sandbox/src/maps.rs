//! The real maps built into the sandbox (MovingAI benchmark maps from `data/maps/`, origins in
//! `data/README.md`), so the page offers them with nothing to download.

/// A bundled map: the name the API uses, its file name, and its text.
#[derive(Debug, Clone, Copy)]
pub struct Bundled {
    /// The name `/api/map` takes (`{"bundled": "den012d"}`).
    pub name: &'static str,
    /// The file name in `data/maps/`; a scenario's `map.file` ending in it loads this map.
    pub file: &'static str,
    /// What it is, for the page.
    pub title: &'static str,
    /// The MovingAI text.
    pub text: &'static str,
}

/// The bundled maps, the default first.
pub const BUNDLED: [Bundled; 3] = [
    Bundled {
        name: "den012d",
        file: "den012d.map",
        title: "Dragon Age: Origins, den012d (310×350)",
        text: include_str!("../../../data/maps/den012d.map"),
    },
    Bundled {
        name: "London_0_512",
        file: "London_0_512.map",
        title: "London streets (512×512)",
        text: include_str!("../../../data/maps/London_0_512.map"),
    },
    Bundled {
        name: "maze512-8-6",
        file: "maze512-8-6.map",
        title: "Maze with 8-wide corridors (512×512)",
        text: include_str!("../../../data/maps/maze512-8-6.map"),
    },
];

/// The bundled map called `name`.
pub fn by_name(name: &str) -> Option<&'static Bundled> {
    BUNDLED.iter().find(|b| b.name == name)
}

/// The bundled map a scenario's `map.file` names: its last path component is a bundled file
/// name (`../../data/maps/den012d.map` → `den012d`).
pub fn by_file(file: &str) -> Option<&'static Bundled> {
    let base = file.rsplit(['/', '\\']).next().unwrap_or(file);
    BUNDLED.iter().find(|b| b.file == base)
}
