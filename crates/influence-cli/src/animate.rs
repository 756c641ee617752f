//! `influence animate`: a scenario's `[propagation]` as frames — an animated GIF and/or a
//! numbered PNG sequence — drawn exactly as `render` draws a layer, on one colour scale
//! fixed across the frames so the picture does not flicker. The frames are computed twice
//! (the propagation is deterministic): once for the scale, once to draw them, so memory
//! does not grow with the number of frames.

use std::path::{Path, PathBuf};

use influence::render::{figure, Scale};
use influence::Layer;

use influence_scenario::layers::{Compound, LayerName};
use influence_scenario::propagation::Kind;
use influence_scenario::scenario::Scenario;

use crate::error::CliError;
use crate::frames::Frames;
use crate::gif_writer::GifWriter;
use crate::output::Look;
use crate::{gif_writer, output, progress};

/// What to write, from the command line.
#[derive(Debug)]
pub struct Options {
    /// At most this many frames.
    pub frames: Option<usize>,
    /// Steps between frames.
    pub every: usize,
    /// The layer shown.
    pub layer: Option<String>,
    /// Write `<layer>.gif`.
    pub gif: bool,
    /// Write `frame-0000.png`, ...
    pub png: bool,
    /// GIF frames per second.
    pub fps: u16,
    /// Figures (title, step counter, colour bar, legend) or bare heatmaps.
    pub look: Look,
}

/// What was written.
#[derive(Debug)]
pub struct Animation {
    /// The layer shown.
    pub layer: String,
    /// Frames written.
    pub frames: usize,
    /// The step of the last frame.
    pub last_step: usize,
    /// The colour scale of every frame.
    pub scale: Scale,
    /// Files written, in order.
    pub files: Vec<PathBuf>,
}

/// Writes the frames of `scenario` into `dir`.
///
/// # Errors
/// [`CliError::Usage`] for a scenario without `[propagation]`, an unknown layer or bad
/// options; [`CliError::Output`] if a file cannot be written.
pub fn animate(scenario: &Scenario, dir: &Path, opts: &Options) -> Result<Animation, CliError> {
    if opts.every == 0 || opts.frames == Some(0) {
        return Err(CliError::Usage("--every and --frames must be at least 1".to_owned()));
    }
    if !(1..=100).contains(&opts.fps) {
        return Err(CliError::Usage(format!("--fps must be within 1..=100, got {}", opts.fps)));
    }
    // Fails first for a scenario without [propagation].
    let mut frames = Frames::new(scenario.clone(), opts.frames, opts.every)?;
    let flood = scenario.propagation.as_ref().is_some_and(|p| p.kind() == Kind::Flood);
    let name = opts.layer.clone().unwrap_or_else(|| if flood { "heat" } else { "influence" }.to_owned());
    let layer = scenario.layer_named(&name).map_err(|m| CliError::Usage(format!("--layer: {m}")))?;
    let (gif, png) = (opts.gif || !opts.png, opts.png);
    std::fs::create_dir_all(dir).map_err(|e| CliError::output(dir, &e))?;

    // A figure of the front line shows it over the faded influence map, on that map's scale.
    let faint = opts.look == Look::Figure && layer == LayerName::Frontline;
    let scaled = if faint { LayerName::Analysis(Compound::Influence) } else { layer };

    // Pass 1: the range of the layer over every frame.
    let bar = progress::bar(None, "computing the colour scale", "frames");
    let (mut lo, mut hi, mut count) = (f32::INFINITY, f32::NEG_INFINITY, 0);
    while let Some((_, view)) = frames.next_view()? {
        for &v in view.layer(scaled).values().iter().filter(|v| v.is_finite()) {
            (lo, hi) = (lo.min(v), hi.max(v));
        }
        count += 1;
        bar.inc(1);
    }
    bar.finish_and_clear();
    let last_step = frames.step();
    let scale = if lo <= hi {
        Scale::auto(&Layer::from_vec(vec![lo, hi]))
    } else {
        Scale::auto(&Layer::from_vec(Vec::new()))
    };

    // Pass 2: draw.
    let bar = progress::bar(Some(count), "writing frames", "frames");
    let mut frames = Frames::new(scenario.clone(), opts.frames, opts.every)?;
    let gif_path = dir.join(format!("{name}.gif"));
    let mut writer: Option<GifWriter> = None;
    let mut files = Vec::new();
    let mut i = 0;
    while let Some((step, view)) = frames.next_view()? {
        let png_path = dir.join(format!("frame-{i:04}.png"));
        let path = if png { &png_path } else { &gif_path };
        let image = match opts.look {
            Look::Plain => output::picture(&view, layer, Some(scale), path)?,
            Look::Figure => {
                let counter = format!("step {step} / {last_step}");
                output::figure(&view, (&name, layer), Some(scale), Some(counter), path)?
            }
        };
        if png {
            output::write_png(&image, &png_path)?;
            files.push(png_path);
        }
        if gif {
            let w = match &mut writer {
                Some(w) => w,
                None => {
                    let palette = match opts.look {
                        Look::Plain => gif_writer::plain_palette(scale, &output::MARKER_COLORS),
                        Look::Figure => {
                            let fade = |c| if faint { figure::faded(c) } else { c };
                            let mut colors = output::figure_colors(&view);
                            let levels = gif_writer::levels(scale, 256 - colors.len(), fade);
                            colors.splice(0..0, levels);
                            colors
                        }
                    };
                    writer.insert(GifWriter::create(
                        &gif_path,
                        (image.width(), image.height()),
                        palette,
                        100 / opts.fps,
                    )?)
                }
            };
            w.frame(&image)?;
        }
        i += 1;
        bar.inc(1);
    }
    bar.finish_and_clear();
    if let Some(w) = writer {
        w.finish()?;
        files.push(gif_path);
    }
    Ok(Animation { layer: name, frames: i, last_step, scale, files })
}

/// `n` and `noun`, plural unless `n` is 1: "1 file", "13 files".
pub fn count(n: usize, noun: &str) -> String {
    if n == 1 {
        format!("1 {noun}")
    } else {
        format!("{n} {noun}s")
    }
}

/// One line saying what was written.
pub fn describe(a: &Animation, dir: &Path) -> String {
    format!(
        "animated {}: {} up to step {}, colour scale {} — wrote {} to {}",
        a.layer,
        count(a.frames, "frame"),
        a.last_step,
        a.scale,
        count(a.files.len(), "file"),
        dir.display()
    )
}
