//! End to end in headless Chromium: the page loads a real map, two sources of opposite teams
//! are placed by clicking it, the tension layer is shown, and what the canvas shows and what
//! the export says are checked against the library (and the `influence` command when it is
//! built). Without Chromium the tests print SKIP and pass.
//!
//! `cargo test -p influence-sandbox --test browser -- --ignored` also rewrites
//! `docs/img/sandbox.png` and prints the page's frame rate on an open 256 × 256 map.

mod common;

use std::path::{Path, PathBuf};

use std::time::Duration;

use common::cdp::{base64_decode, find_chromium, Chromium};
use common::{layer, ok, reference};
use influence::render::{self, RenderOptions};
use influence_sandbox::{start, Handle, ServeConfig};
use serde_json::json;

fn chromium_or_skip(test: &str) -> Option<PathBuf> {
    let found = find_chromium();
    if found.is_none() {
        println!("SKIP {test}: no Chromium (install Debian's `chromium`, or set INFLUENCE_CHROMIUM)");
    }
    found
}

/// Evaluates a page script that resolves to JSON text, and reads that.
fn evaluate_json(browser: &mut Chromium, script: &str, within: Duration) -> serde_json::Value {
    let result = browser.evaluate(script, within).unwrap();
    serde_json::from_str(result.as_str().unwrap()).unwrap()
}

/// A fresh sandbox open in headless Chromium, and what the page script `script` resolved to;
/// `None` (after printing SKIP for `test`) without Chromium.
fn page_after(test: &str, script: &str) -> Option<(Handle, Chromium, serde_json::Value)> {
    let binary = chromium_or_skip(test)?;
    let server = start(ServeConfig::default()).unwrap();
    let mut browser = Chromium::launch(&binary, 1280, 800).unwrap();
    browser.open_sandbox(&server.url()).unwrap();
    let out = evaluate_json(&mut browser, script, Duration::from_secs(120));
    Some((server, browser, out))
}

#[test]
fn placing_two_teams_shows_their_tension_and_exports_what_render_computes() {
    let Some((server, _browser, out)) = page_after("browser end-to-end test", include_str!("selftest.js"))
    else {
        return;
    };
    assert_eq!(out["ok"], true, "the page script failed: {}", out["error"]);
    assert_eq!(out["layer"], "tension");

    // The clicks landed on the cells meant, with the panel's team, strength and radius.
    let export = out["export"].as_str().unwrap();
    let sources = out["sources"].as_array().unwrap();
    let placed: Vec<_> = sources.iter().map(|s| (s["team"].as_str().unwrap(), s["at"].clone())).collect();
    assert_eq!(placed, [("red", json!([100.5, 98.5])), ("blue", json!([190.5, 225.5]))]);
    assert!(sources.iter().all(|s| s["strength"] == 10.0 && s["radius"] == 40.0), "{sources:?}");

    // The export, rendered by the library as `influence render` does, gives the numbers the
    // server sent the page...
    let want = reference::render(export);
    for name in ["red", "blue", "tension", "influence", "vulnerability", "frontline"] {
        common::assert_same_bits(name, &layer(server.addr(), name).values, want.layers[name].values());
    }
    // ...and the command itself, when built, agrees bit for bit.
    common::assert_cli_agrees(export, &want);

    // The canvas shows the tension as `influence render` draws it (colour tables sampled at
    // 1024 points: within 2 of 255 per channel), and exactly the cells that gained tension
    // changed colour.
    let (w, h) = (out["width"].as_u64().unwrap() as usize, out["height"].as_u64().unwrap() as usize);
    assert_eq!((w, h), (want.grid.width(), want.grid.height()));
    let before = base64_decode(out["before"].as_str().unwrap()).unwrap();
    let after = base64_decode(out["after"].as_str().unwrap()).unwrap();
    let image = render::render_rgb(&want.grid, &want.layers["tension"], &RenderOptions::default()).unwrap();
    let tension = want.layers["tension"].values();
    let peak = tension.iter().fold(0f32, |a, &b| a.max(b));
    assert!(peak > 9.0, "tension peak {peak}");
    let (mut changed, mut warm) = (0, 0);
    for (i, &t) in tension.iter().enumerate() {
        let px = |img: &[u8]| [img[3 * i], img[3 * i + 1], img[3 * i + 2]];
        let (x, y) = (i % w, i / w);
        let drawn = image.pixel(x as u32, y as u32).unwrap();
        let close = px(&after).iter().zip(drawn).all(|(a, b)| a.abs_diff(b) <= 2);
        assert!(close, "cell ({x}, {y}): canvas {:?}, influence render {drawn:?}", px(&after));
        if t == 0.0 {
            assert_eq!(px(&before), px(&after), "cell ({x}, {y}) has no tension but changed colour");
        } else if t >= 0.01 * peak {
            assert_ne!(px(&before), px(&after), "cell ({x}, {y}) gained tension {t} but kept its colour");
            warm += 1;
        }
        changed += usize::from(px(&before) != px(&after));
    }
    assert!(warm > 1000 && changed >= warm, "{warm} warm cells, {changed} changed pixels");
}

#[test]
fn the_editing_tools_change_the_scene_where_clicked() {
    let Some((server, _browser, out)) = page_after("browser editing test", include_str!("tools.js")) else {
        return;
    };
    let a = server.addr();
    let scene = &out["scene"];
    assert_eq!(scene["map"]["width"], 128);
    // The red source was dragged from (20, 64) to (30, 70).
    let at: Vec<_> =
        scene["sources"].as_array().unwrap().iter().map(|s| (s["team"].clone(), s["at"].clone())).collect();
    assert_eq!(at, [(json!("red"), json!([30.5, 70.5])), (json!("blue"), json!([100.5, 64.5]))]);
    // The wall stroke, with the brush of radius 2.
    let walkable =
        |x: u32, y: u32| common::get(a, &format!("/api/cell?x={x}&y={y}")).json()["walkable"] == true;
    assert!(!walkable(60, 10) && !walkable(60, 55) && !walkable(61, 100) && !walkable(58, 30));
    assert!(walkable(60, 5) && walkable(60, 105) && walkable(64, 50));
    // Play ran steps; Step added one; Reset went back to 1.
    let played = out["played"].as_u64().unwrap();
    assert!(played > 2, "played {played} steps in a second");
    assert_eq!((out["stepped"].as_u64(), out["reset"].as_u64()), (Some(played + 1), Some(1)));
    // The route and the chase.
    let path = &scene["paths"][0];
    assert_eq!(
        (path["from"].clone(), path["to"].clone(), path["layer"].clone()),
        (json!([5.5, 5.5]), json!([120.5, 120.5]), json!("theirs"))
    );
    assert_eq!(path["reachable"], true);
    let p = &scene["propagation"];
    assert_eq!(
        (p["kind"].clone(), p["last_seen"].clone(), p["velocity"].clone()),
        (json!("flood"), json!([40.5, 40.5]), json!([5, 0]))
    );
    assert!(scene["prediction"]["cell"].is_array());
    assert_eq!(out["round_trip"], true);
    assert_eq!(out["after_delete"], json!(["red"]));
    assert_eq!(out["toast"], "", "the page showed an error");
}

#[test]
fn the_page_explains_its_picture_as_figures_do() {
    let Some((_server, _browser, out)) = page_after("browser figure test", include_str!("figure.js")) else {
        return;
    };
    assert_eq!(out["ok"], true, "the page script failed: {}", out["error"]);
    assert_eq!(out["toast"], "", "the page showed an error");
    // The title names the layer; the step shows and moves on.
    assert!(out["title"].as_str().unwrap().ends_with(": influence"), "{}", out["title"]);
    assert_eq!((out["step"].as_str(), out["stepAfter"].as_str()), (Some("step 6"), Some("step 7")));
    // The colour bar has numbers, a unit and says which side is whose.
    let unit = out["unit"].as_str().unwrap();
    assert!(
        unit.contains("influence") && unit.contains("blue ahead") && unit.contains("red ahead"),
        "{unit}"
    );
    let ticks: Vec<f64> =
        out["ticks"].as_array().unwrap().iter().map(|t| t.as_str().unwrap().parse().unwrap()).collect();
    assert!(ticks[0] < 0.0 && ticks[1] == 0.0 && ticks[2] == -ticks[0], "{ticks:?}");
    // The legend names each team in its colour: red's own, blue's from the palette.
    let legend = out["legend"].as_array().unwrap();
    let team = |i: usize| (legend[i]["team"].as_str().unwrap(), legend[i]["color"].as_str().unwrap());
    let [r, g, b] = influence_scenario::color::PALETTE[1];
    assert_eq!(team(0), ("red", "rgb(240, 72, 60)"));
    assert_eq!(team(1), ("blue", format!("rgb({r}, {g}, {b})").as_str()));
    assert_eq!(legend[2]["name"], "front line");
    // Markers in the teams' colours, and of different shapes: red's disc and blue's square
    // cover different pixels round their centres.
    let rgb = |v: &serde_json::Value| -> Vec<u64> {
        v.as_array().unwrap()[..3].iter().map(|c| c.as_u64().unwrap()).collect()
    };
    let markers = out["markers"].as_array().unwrap();
    assert_eq!(rgb(&markers[0]["centre"]), [240, 72, 60]);
    assert_eq!(rgb(&markers[1]["centre"]), [u64::from(r), u64::from(g), u64::from(b)]);
    let mask = |m: &serde_json::Value| -> Vec<u64> {
        m["mask"].as_array().unwrap().iter().map(|v| v.as_u64().unwrap()).collect()
    };
    let (disc, square) = (mask(&markers[0]), mask(&markers[1]));
    let filled = |m: &[u64]| m.iter().sum::<u64>();
    let differ = disc.iter().zip(&square).filter(|(a, b)| a != b).count();
    assert!(
        filled(&disc) > 60 && filled(&square) > 60 && differ > 15,
        "{} {} {differ}",
        filled(&disc),
        filled(&square)
    );
    // The front line in its own colour, exactly on the front cells; under it, on the
    // front-line layer, the influence map faded.
    let [fr, fg, fb] = influence::render::figure::FRONT_COLOR;
    let front = &out["influenceFront"];
    assert!(front["front"].as_u64().unwrap() > 5 && front["wrong"] == 0, "{front}");
    let faint = &out["frontlineFront"];
    assert!(faint["front"] == front["front"] && faint["wrong"] == 0 && faint["bold"] == 0, "{faint}");
    assert!(out["frontlineTitle"].as_str().unwrap().ends_with(": frontline"));
    assert!(out["frontlineUnit"].as_str().unwrap().contains("faded"));
    assert!((fr, fg, fb) != (0, 0, 0));
    // A chase marks its last-seen and predicted cells, and the legend says which is which.
    assert!(out["lastSeenPixels"].as_u64().unwrap() > 4 && out["lastSeenBefore"] == 0, "{out}");
    assert!(out["predictedPixels"].as_u64().unwrap() > 10, "{}", out["predictedPixels"]);
    let chase = out["chaseLegend"].as_array().unwrap();
    assert!(chase.contains(&json!("last seen")) && chase.contains(&json!("predicted")), "{chase:?}");
    assert!(out["chaseStep"].as_str().unwrap().starts_with("step "), "{}", out["chaseStep"]);
}

#[test]
fn the_page_follows_another_clients_long_edit_showing_computing_meanwhile() {
    let Some(binary) = chromium_or_skip("browser live-update test") else { return };
    let server = start(ServeConfig::default()).unwrap();
    let a = server.addr();
    // An open 1024 × 1024 map whose sources walk the map: a wall rebuilds them all, which
    // takes a while (more sources in an optimised build, which stamps them faster).
    let n = if cfg!(debug_assertions) { 4 } else { 48 };
    let text = common::scenes::walking_sources(n);
    let r = common::request(a, "POST", "/api/import", Some("application/toml"), text.as_bytes());
    assert_eq!(r.status, 200, "{}", r.text());
    let mut browser = Chromium::launch(&binary, 1280, 800).unwrap();
    browser.open_sandbox(&server.url()).unwrap();
    let before = common::get(a, "/api/scene").json()["version"].as_u64().unwrap();
    // Another client (this test) paints a wall; the page watches.
    let edit = std::thread::spawn(move || {
        ok(a, "POST", "/api/walls", &json!({ "cells": [[3, 3]], "blocked": true }))
    });
    let watch = "new Promise((resolve) => { let saw = false; const t0 = performance.now(); \
        const poll = () => { const text = document.getElementById('computing').textContent; \
        saw = saw || text === 'computing…'; const s = window.sandbox.state.scene; \
        if ((saw && text === '' && s.version > VERSION) || performance.now() - t0 > 60000) \
        resolve(JSON.stringify({ saw, version: s.version, toast: document.getElementById('toast').textContent })); \
        else setTimeout(poll, 10); }; poll(); })"
        .replace("VERSION", &before.to_string());
    let out = evaluate_json(&mut browser, &watch, Duration::from_secs(90));
    let edited = edit.join().unwrap();
    assert_eq!(out["saw"], true, "the page never showed computing…: {out}");
    assert_eq!(out["version"], edited["version"], "the page shows the edited scene: {out}");
    assert_eq!(out["toast"], "", "the page showed an error");
    // And the wall is in the frame the page drew.
    browser.evaluate("window.sandbox.idle()", Duration::from_secs(30)).unwrap();
    let blocked = browser
        .evaluate("window.sandbox.state.frame.flags[3 * 1024 + 3] & 1", Duration::from_secs(10))
        .unwrap();
    assert_eq!(blocked, 1);
}

/// Rewrites docs/img/sandbox.png: a diffusion between two armies on den012d.
#[test]
#[ignore = "writes docs/img/sandbox.png; run by hand after changing the page"]
fn screenshot_for_the_docs() {
    let Some(binary) = chromium_or_skip("screenshot") else { return };
    let server = start(ServeConfig::default()).unwrap();
    let a = server.addr();
    let units = [
        ("red", [97.5, 50.5], 8.0),
        ("red", [150.5, 100.5], 6.0),
        ("red", [42.5, 180.5], 6.0),
        ("blue", [190.5, 225.5], 8.0),
        ("blue", [268.5, 190.5], 6.0),
        ("blue", [120.5, 262.5], 6.0),
    ];
    for (team, at, strength) in units {
        let color = if team == "red" { "#f0483c" } else { "#4a90e2" };
        let s = json!({ "team": team, "at": at, "strength": strength, "falloff": "point", "color": color });
        ok(a, "POST", "/api/sources", &s);
    }
    let p = json!({ "kind": "diffuse", "decay": 0.003, "momentum": 0.8, "steps": 300 });
    ok(a, "PUT", "/api/propagation", &p);
    let route = json!({ "from": [97.5, 20.5], "to": [255.5, 250.5], "layer": "theirs", "weight": 3 });
    ok(a, "PUT", "/api/paths", &json!({ "paths": [route] }));
    // Read the values on the front line, in the south-west corridor.
    let front = layer(a, "frontline");
    let w = front.width;
    let cell = (0..front.values.len())
        .filter(|&i| front.values[i] == 1.0)
        .min_by_key(|&i| (i % w).abs_diff(40).pow(2) + (i / w).abs_diff(250).pow(2))
        .expect("a front line");
    let mut browser = Chromium::launch(&binary, 1400, 860).unwrap();
    let url = format!("{}?layer=influence&cell={},{}", server.url(), cell % w, cell / w);
    browser.open_sandbox(&url).unwrap();
    browser
        .evaluate(
            "sandbox.setTool('select'); new Promise((r) => setTimeout(r, 500))",
            Duration::from_secs(10),
        )
        .unwrap();
    let png = browser.screenshot().unwrap();
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../docs/img/sandbox.png");
    std::fs::write(&path, png).unwrap();
    println!("wrote {}", path.display());
}

/// Prints the frames per second the page draws while playing a diffusion on an open
/// 256 × 256 map with walls, one step per frame.
#[test]
#[ignore = "a measurement, not a check: run by hand"]
fn frame_rate_on_256_by_256() {
    let Some(binary) = chromium_or_skip("frame rate") else { return };
    let server = start(ServeConfig::default()).unwrap();
    let a = server.addr();
    ok(a, "POST", "/api/map", &json!({ "width": 256, "height": 256 }));
    let wall: Vec<[u32; 2]> = (20..236).map(|y| [128, y]).collect();
    ok(a, "POST", "/api/walls", &json!({ "cells": wall, "blocked": true }));
    for (team, x) in [("red", 40.5), ("blue", 215.5)] {
        let s = json!({ "team": team, "at": [x, 128.5], "strength": 10, "falloff": "point" });
        ok(a, "POST", "/api/sources", &s);
    }
    ok(
        a,
        "PUT",
        "/api/propagation",
        &json!({ "kind": "diffuse", "decay": 0.02, "momentum": 0.5, "steps": 1 }),
    );
    let mut browser = Chromium::launch(&binary, 1280, 800).unwrap();
    browser.open_sandbox(&server.url()).unwrap();
    for layer in ["influence", "tension"] {
        let script = format!("sandbox.setLayer('{layer}').then(() => sandbox.bench(5000))");
        let fps = browser.evaluate(&script, Duration::from_secs(60)).unwrap();
        println!(
            "256×256, two teams diffusing, layer {layer}: {:.1} frames per second",
            fps.as_f64().unwrap()
        );
    }
}
