//! Scenarios the tests and the benchmark share (the benchmark includes this file by path).

/// A scenario on an open 1024 × 1024 map with `n` sources that walk the map (each stamp a
/// search over all of it), alternately red and blue: rebuilding them is a long edit.
pub fn walking_sources(n: usize) -> String {
    let mut text = String::from("[map]\nwidth = 1024\nheight = 1024\n");
    for i in 0..n {
        let team = if i % 2 == 0 { "red" } else { "blue" };
        let (x, y) = (60 + (i * 97) % 900, 40 + (i * 211) % 940);
        text += &format!(
            "\n[[source]]\nteam = \"{team}\"\nat = [{x}.5, {y}.5]\nstrength = 10\nfalloff = \"linear\"\n\
             radius = 3000\ndistance = \"path\"\n"
        );
    }
    text
}
