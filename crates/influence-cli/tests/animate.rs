//! `influence animate`: the frames are there in the number promised, the GIF decodes, and
//! the picture changes over time; a scenario without `[propagation]` is refused.

mod common;

use std::path::Path;

use common::{influence, influence_ok, repo};

fn animate(scenario: &str, out: &Path, extra: &[&str]) -> String {
    let file = repo(scenario);
    let mut args = vec!["animate", file.to_str().unwrap(), "--out", out.to_str().unwrap()];
    args.extend_from_slice(extra);
    influence_ok(&args)
}

/// The frames of a GIF as palette indices, with its size.
fn gif_frames(path: &Path) -> ((u16, u16), Vec<Vec<u8>>) {
    let mut options = gif::DecodeOptions::new();
    options.set_color_output(gif::ColorOutput::Indexed);
    let mut decoder = options.read_info(std::fs::File::open(path).unwrap()).unwrap();
    let size = (decoder.width(), decoder.height());
    let mut frames = Vec::new();
    while let Some(frame) = decoder.read_next_frame().unwrap() {
        assert_eq!((frame.width, frame.height), size);
        frames.push(frame.buffer.to_vec());
    }
    (size, frames)
}

#[test]
fn diffusion_animates_as_a_gif_every_k_steps() {
    let out = tempfile::tempdir().unwrap();
    // spread.toml diffuses for 40 steps: frames at steps 0, 5, ..., 40.
    let stdout = animate("examples/scenarios/spread.toml", out.path(), &["--every", "5", "--plain"]);
    assert!(stdout.contains("animated influence: 9 frames up to step 40"), "{stdout}");
    let ((w, h), frames) = gif_frames(&out.path().join("influence.gif"));
    assert_eq!((w, h), (32 * 8, 16 * 8), "the scenario's automatic upscale");
    assert_eq!(frames.len(), 9);
    // The influence spreads: each of the first frames differs from the next, and colours
    // reach more pixels as time goes on.
    for pair in frames[..4].windows(2) {
        assert_ne!(pair[0], pair[1]);
    }
    assert!(!out.path().join("frame-0000.png").exists(), "PNGs only with --png");
}

#[test]
fn frames_flag_limits_and_png_writes_a_numbered_sequence() {
    let out = tempfile::tempdir().unwrap();
    let stdout =
        animate("examples/scenarios/spread.toml", out.path(), &["--frames", "4", "--png", "--layer", "red"]);
    assert!(stdout.contains("animated red: 4 frames up to step 3"), "{stdout}");
    let mut pngs: Vec<String> = std::fs::read_dir(out.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    pngs.sort();
    assert_eq!(pngs, ["frame-0000.png", "frame-0001.png", "frame-0002.png", "frame-0003.png"]);
    let bytes: Vec<Vec<u8>> = pngs.iter().map(|p| std::fs::read(out.path().join(p)).unwrap()).collect();
    assert!(bytes.iter().all(|b| b.starts_with(b"\x89PNG")));
    assert_ne!(bytes[0], bytes[3]);
}

#[test]
fn a_flood_animates_its_heat_until_the_fill_stops() {
    let out = tempfile::tempdir().unwrap();
    let stdout = animate("examples/scenarios/chase.toml", out.path(), &["--gif", "--png", "--every", "4"]);
    // max_steps = 16: steps 0, 4, 8, 12, 16.
    assert!(stdout.contains("animated heat: 5 frames up to step 16"), "{stdout}");
    let (_, frames) = gif_frames(&out.path().join("heat.gif"));
    assert_eq!(frames.len(), 5);
    assert!(out.path().join("frame-0004.png").is_file() && !out.path().join("frame-0005.png").exists());
    assert_ne!(frames[1], frames[4]);
}

#[test]
fn scenarios_without_propagation_and_bad_options_are_refused() {
    let out = tempfile::tempdir().unwrap();
    let file = repo("examples/scenarios/outpost.toml");
    let o = influence(&["animate", file.to_str().unwrap(), "--out", out.path().to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("has no [propagation] table"));
    let spread = repo("examples/scenarios/spread.toml");
    for bad in [&["--every", "0"][..], &["--layer", "heat"], &["--fps", "0"]] {
        let mut args = vec!["animate", spread.to_str().unwrap(), "--out", out.path().to_str().unwrap()];
        args.extend_from_slice(bad);
        let o = influence(&args);
        assert_eq!(o.status.code(), Some(2), "{bad:?}");
        assert!(!String::from_utf8_lossy(&o.stderr).contains("panicked"));
    }
}
