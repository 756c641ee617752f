//! The JSON API without a browser: a server on 127.0.0.1, port 0, driven with an HTTP
//! client (reqwest; hyper's own client where one connection matters). Edits compute what
//! the library computes for the exported scenario; bad requests get 4xx with a message and
//! change nothing; the server keeps answering through malformed input, oversize bodies, too
//! many connections and a burst of concurrent clients.

mod common;

use influence::Cell;
use std::net::{SocketAddr, TcpStream};
use std::time::{Duration, Instant};

use common::{assert_same_bits, get, layer, ok, reference, request, send, status_of_raw};
use influence_sandbox::{start, Handle, Limits, ServeConfig};
use serde_json::{json, Value};

/// A sandbox on an empty den012d (it opens on the demo scenario, which holds sources).
fn server() -> Handle {
    let s = start(ServeConfig::default()).expect("the sandbox starts on a free port");
    ok(s.addr(), "POST", "/api/map", &json!({ "bundled": "den012d" }));
    s
}

#[test]
fn the_sandbox_opens_on_the_demo_scenario() {
    let s = start(ServeConfig::default()).unwrap();
    let scene = get(s.addr(), "/api/scene").json();
    let demo = influence_scenario::demo::scenario().unwrap();
    assert_eq!(scene["sources"].as_array().unwrap().len(), demo.sources.len(), "{scene}");
    assert_eq!(scene["perspective"], "red");
    assert_eq!(scene["map"]["width"], 310);
}

/// A small map with walls: a room and a corridor.
fn small_map(a: SocketAddr) {
    let rows = [
        "................................",
        "..........@@@@@@@@..............",
        "..........@.....................",
        "..........@......@@@@@@@@@@.....",
        "..........@.............@.......",
        "..........@@@@@@@@......@.......",
        ".........................@......",
        "................................",
        "....@@@@@@@@@@@@@@@@@@..........",
        "................................",
        "................................",
        "................................",
    ];
    ok(
        a,
        "POST",
        "/api/map",
        &json!({ "width": 32, "height": 12, "rows": rows, "cell_size": 2.5, "origin": [10, -5] }),
    );
}

/// [`assert_matches_export`], and `influence render` (when built) agrees with it.
fn assert_matches_export_and_cli(a: SocketAddr) -> reference::Rendered {
    let want = assert_matches_export(a);
    common::assert_cli_agrees(&get(a, "/api/export").text(), &want);
    want
}

/// Every layer the server shows equals the library's rendering of the export, bit for bit.
fn assert_matches_export(a: SocketAddr) -> reference::Rendered {
    let export = get(a, "/api/export");
    assert_eq!(export.status, 200);
    let want = reference::render(&export.text());
    let scene = get(a, "/api/scene").json();
    let names: Vec<&str> = scene["layers"].as_array().unwrap().iter().map(|n| n.as_str().unwrap()).collect();
    assert_eq!(names.len(), want.layers.len(), "layers {names:?} vs {:?}", want.layers.keys());
    for name in names {
        let frame = layer(a, name);
        assert_eq!(frame.done, frame.target, "{name}: the replay has caught up");
        assert_same_bits(name, &frame.values, want.layers[name].values());
        let routes: Vec<Vec<usize>> = want.routes.iter().map(|r| r.clone().unwrap_or_default()).collect();
        assert_eq!(frame.routes, routes, "routes");
    }
    want
}

#[test]
fn the_page_and_its_assets_are_served() {
    let s = server();
    let page = get(s.addr(), "/");
    assert_eq!((page.status, page.content_type.as_str()), (200, "text/html; charset=utf-8"));
    assert!(page.text().contains("influence <span>sandbox</span>") && page.text().contains("/app.js"));
    assert!(!page.text().contains("http://") && !page.text().contains("https://"), "nothing from elsewhere");
    for (path, kind) in [("/app.js", "text/javascript"), ("/style.css", "text/css")] {
        let r = get(s.addr(), path);
        assert_eq!(r.status, 200);
        assert!(r.content_type.starts_with(kind));
        assert!(!r.text().contains("https://"), "{path} loads nothing from elsewhere");
    }
    let maps = get(s.addr(), "/api/maps").json();
    assert_eq!(maps.as_array().unwrap().len(), 3);
    let colormap = get(s.addr(), "/api/colormap").json();
    assert_eq!(colormap["size"], 1024);
    assert_eq!(
        colormap["diverging"][1023],
        json!(influence::render::Scale::Diverging { max_abs: 1.0 }.color(1.0))
    );
    let scene = get(s.addr(), "/api/scene").json();
    assert_eq!((scene["map"]["name"].as_str(), scene["map"]["width"].as_u64()), (Some("den012d"), Some(310)));
}

#[test]
fn stamped_scenes_match_the_library_and_the_export_round_trips() {
    let s = server();
    let a = s.addr();
    small_map(a);
    let sources = [
        json!({ "team": "red", "at": [16.25, 1.25], "strength": 10, "falloff": "linear", "radius": 30 }),
        json!({ "team": "blue", "at": [80, 20], "strength": 6.5, "falloff": "gaussian", "sigma": 8, "radius": 40, "distance": "path" }),
        json!({ "team": "red", "at": [50, 5], "strength": 3, "falloff": "band", "full": 4, "accuracy_end": 10, "accuracy": 0.5, "movement_end": 20, "mode": "max" }),
        json!({ "team": "green", "at": [30.1, 24.9], "strength": -2, "falloff": "exponential", "rate": 0.1, "radius": 25, "distance": "manhattan" }),
        json!({ "team": "blue", "at": [60, 12.5], "strength": 4, "falloff": "point" }),
    ];
    let mut ids = Vec::new();
    for src in &sources {
        ids.push(ok(a, "POST", "/api/sources", src)["id"].as_u64().unwrap());
    }
    ok(a, "PUT", "/api/perspective", &json!({ "team": "blue" }));
    assert_matches_export_and_cli(a);

    // Moving, editing and deleting sources, and painting walls, keep it exact.
    let moved = json!({ "team": "red", "at": [40, 22.5], "strength": 10, "falloff": "polynomial", "power": 2, "radius": 30 });
    ok(a, "PUT", &format!("/api/sources/{}", ids[0]), &moved);
    ok(a, "DELETE", &format!("/api/sources/{}", ids[3]), &json!({}));
    let wall: Vec<[u32; 2]> = (0..10).map(|y| [20, y]).collect();
    ok(a, "POST", "/api/walls", &json!({ "cells": wall, "blocked": true }));
    ok(a, "POST", "/api/walls", &json!({ "cells": [[12, 1], [13, 1]], "blocked": false }));
    let want = assert_matches_export(a);
    assert!(want.grid.is_blocked(Cell::new(20, 5)) && !want.grid.is_blocked(Cell::new(12, 1)));
    let scene = get(a, "/api/scene").json();
    assert_eq!(scene["teams"], json!(["red", "blue"]));
    assert_eq!(scene["sources"][0]["at"], json!([40.0, 22.5]), "a moved source keeps its place in the order");

    // Export → import → export gives the same text.
    let first = get(a, "/api/export").text();
    let r = request(a, "POST", "/api/import", Some("application/toml"), first.as_bytes());
    assert_eq!(r.status, 200, "{}", r.text());
    assert_eq!(get(a, "/api/export").text(), first);
}

#[test]
fn propagation_matches_the_library_step_by_step() {
    let s = server();
    let a = s.addr();
    small_map(a);
    ok(
        a,
        "POST",
        "/api/sources",
        &json!({ "team": "red", "at": [12.5, 0], "strength": 8, "falloff": "point" }),
    );
    ok(
        a,
        "POST",
        "/api/sources",
        &json!({ "team": "blue", "at": [85, 25], "strength": 5, "falloff": "linear", "radius": 6 }),
    );
    let diffuse = json!({ "kind": "diffuse", "decay": 0.05, "momentum": 0.6, "steps": 3, "neighbours": 4 });
    ok(a, "PUT", "/api/propagation", &diffuse);
    assert_matches_export(a);
    // Stepping, then an edit (which replays the steps from rest), then a parameter change.
    let stepped = ok(a, "POST", "/api/step", &json!({ "steps": 17 }));
    assert_eq!(stepped["steps"], json!({ "target": 20, "done": 20 }));
    assert_matches_export(a);
    ok(a, "POST", "/api/walls", &json!({ "cells": [[5, 6], [6, 6], [7, 6]], "blocked": true }));
    ok(
        a,
        "PUT",
        "/api/propagation",
        &json!({ "kind": "diffuse", "decay": 0.02, "decay_kind": "linear", "momentum": 1 }),
    );
    assert_eq!(get(a, "/api/scene").json()["propagation"]["steps"], 20, "the step count stays");
    assert_matches_export(a);
    // A long run converges; the replay after an edit stops at the fixed point.
    ok(a, "POST", "/api/step", &json!({ "steps": 1000 }));
    ok(
        a,
        "POST",
        "/api/sources",
        &json!({ "team": "blue", "at": [40, 24], "strength": 2, "falloff": "point" }),
    );
    assert_matches_export(a);

    // The steady state, and a steady state refusing an additive source.
    ok(a, "PUT", "/api/propagation", &json!({ "kind": "steady", "decay": 0.05, "momentum": 0.5 }));
    assert_matches_export_and_cli(a);
    let add = send(
        a,
        "POST",
        "/api/sources",
        &json!({ "team": "red", "at": [5, 5], "strength": 1, "falloff": "point", "mode": "add" }),
    );
    assert_eq!(add.status, 422, "{}", add.text());
    assert!(add.error().contains("steady"), "{}", add.error());

    // The flood fill: heat and guess, step by step.
    let flood = json!({ "kind": "flood", "last_seen": [16.25, 20], "velocity": [1, 0], "barrier_radius": 6, "heat": 2, "cooling": 0.1, "max_steps": 4 });
    ok(a, "PUT", "/api/propagation", &flood);
    let want = assert_matches_export(a);
    ok(a, "POST", "/api/step", &json!({ "steps": 5 }));
    let scene = get(a, "/api/scene").json();
    assert_eq!(scene["propagation"]["max_steps"], 9);
    let want_after = assert_matches_export_and_cli(a);
    assert_ne!(want.layers["heat"], want_after.layers["heat"]);
    // The newest cells hold the table's heat, 2.
    assert_eq!(want_after.layers["heat"].values().iter().copied().fold(0.0, f32::max), 2.0);
    let guess = want_after.predicted.unwrap();
    assert_eq!(scene["prediction"]["cell"], json!([guess % 32, guess / 32]));
    assert_eq!(layer(a, "heat").predicted, Some(guess));
    // Painting over the last-seen cell leaves it open.
    ok(a, "POST", "/api/walls", &json!({ "cells": [[2, 10]], "blocked": true }));
    assert_eq!(get(a, "/api/cell?x=2&y=10").json()["walkable"], true);

    // Back to stamping.
    ok(a, "PUT", "/api/propagation", &json!({ "kind": "none" }));
    assert!(get(a, "/api/scene").json()["propagation"].is_null());
    assert_matches_export(a);
}

#[test]
fn routes_avoid_the_chosen_layer_and_follow_the_propagation() {
    let s = server();
    let a = s.addr();
    small_map(a);
    ok(
        a,
        "POST",
        "/api/sources",
        &json!({ "team": "red", "at": [12.5, 0], "strength": 4, "falloff": "linear", "radius": 30 }),
    );
    ok(
        a,
        "POST",
        "/api/sources",
        &json!({ "team": "blue", "at": [50, 10], "strength": 9, "falloff": "linear", "radius": 25 }),
    );
    let paths = json!({ "paths": [
        { "from": [11.25, 23.75], "to": [86.25, 1.25] },
        { "from": [11.25, 23.75], "to": [86.25, 1.25], "layer": "tension", "weight": 0 },
        { "from": [11.25, 1.25], "to": [86.25, 23.75], "layer": "blue", "weight": 5 },
    ] });
    let scene = ok(a, "PUT", "/api/paths", &paths);
    assert_eq!(scene["paths"].as_array().unwrap().len(), 3);
    assert!(scene["paths"].as_array().unwrap().iter().all(|p| p["reachable"] == true));
    let want = assert_matches_export(a);
    assert!(want.routes[0].as_ref().unwrap().len() >= want.routes[1].as_ref().unwrap().len());
    // Routes follow the layers as a diffusion steps, and survive the export round trip.
    ok(a, "PUT", "/api/propagation", &json!({ "kind": "diffuse", "decay": 0.05, "steps": 2 }));
    ok(a, "POST", "/api/step", &json!({ "steps": 12 }));
    assert_matches_export_and_cli(a);
    let text = get(a, "/api/export").text();
    assert_eq!(text.matches("[[path]]").count(), 3);
    assert_eq!(request(a, "POST", "/api/import", Some("application/toml"), text.as_bytes()).status, 200);
    assert_eq!(get(a, "/api/export").text(), text);
    // Walls never cover a route's ends; bad tables are refused whole.
    ok(a, "POST", "/api/walls", &json!({ "cells": [[0, 11], [1, 11]], "blocked": true }));
    assert_eq!(get(a, "/api/cell?x=0&y=11").json()["walkable"], true, "a route's start stays open");
    assert_eq!(get(a, "/api/cell?x=1&y=11").json()["walkable"], false);
    for bad in [
        json!({ "paths": [{ "from": [11.25, 23.75], "to": [41.25, -1.25] }] }),
        json!({ "paths": [{ "from": [11.25, 23.75], "to": [1000, 5] }] }),
        json!({ "paths": [{ "from": [11.25, 23.75], "to": [86.25, 1.25], "layer": "heat" }] }),
        json!({ "paths": [{ "from": [11.25, 23.75], "to": [86.25, 1.25], "weight": -1 }] }),
        json!({ "paths": vec![json!({ "from": [11.25, 23.75], "to": [86.25, 1.25] }); 9] }),
    ] {
        let r = send(a, "PUT", "/api/paths", &bad);
        assert_eq!(r.status, 422, "{bad}: {}", r.text());
    }
    assert_eq!(get(a, "/api/scene").json()["paths"].as_array().unwrap().len(), 3);
    // A route whose layer goes with its team's last source says so.
    ok(a, "DELETE", "/api/sources/2", &json!({}));
    let third = &get(a, "/api/scene").json()["paths"][2];
    assert_eq!(third["reachable"], false);
    assert!(third["note"].as_str().unwrap().contains("\"blue\""), "{third}");
    // A route avoiding the flood's heat follows the fill as it steps.
    ok(
        a,
        "POST",
        "/api/sources",
        &json!({ "team": "blue", "at": [50, 10], "strength": 9, "falloff": "point" }),
    );
    let flood = json!({ "kind": "flood", "last_seen": [47.5, 23.75], "max_steps": 2 });
    ok(a, "PUT", "/api/propagation", &flood);
    let heat =
        json!({ "paths": [{ "from": [11.25, 23.75], "to": [86.25, 23.75], "layer": "heat", "weight": 50 }] });
    ok(a, "PUT", "/api/paths", &heat);
    let before = layer(a, "heat").routes;
    ok(a, "POST", "/api/step", &json!({ "steps": 6 }));
    assert_ne!(layer(a, "heat").routes, before);
    assert_matches_export_and_cli(a);
}

#[test]
fn the_example_scenarios_import() {
    let s = server();
    let a = s.addr();
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../../examples/scenarios");
    for file in ["outpost.toml", "london.toml", "spread.toml", "chase.toml", "ambush.toml"] {
        let text = std::fs::read_to_string(format!("{dir}/{file}")).unwrap();
        let r = request(a, "POST", "/api/import", Some("application/toml"), text.as_bytes());
        assert_eq!(r.status, 200, "{file}: {}", r.text());
        assert_matches_export(a);
        if file == "london.toml" {
            assert_eq!(get(a, "/api/scene").json()["map"]["name"], "London_0_512");
        }
    }
    // A scenario given on the command line reads its map file from beside it.
    let path = format!("{dir}/london.toml");
    let count = std::fs::read_to_string(&path).unwrap().matches("[[source]]").count();
    let from_file = start(ServeConfig { scenario: Some(path.into()), ..ServeConfig::default() }).unwrap();
    assert_eq!(get(from_file.addr(), "/api/scene").json()["sources"].as_array().unwrap().len(), count);
    // A bad scenario on the command line is an error naming the file.
    let bad =
        start(ServeConfig { scenario: Some(format!("{dir}/missing.toml").into()), ..ServeConfig::default() });
    assert!(bad.unwrap_err().to_string().contains("missing.toml"));
}

/// The scene's version: unchanged by a refused request.
fn version(a: SocketAddr) -> Value {
    get(a, "/api/scene").json()["version"].clone()
}

/// A source on [`small_map`].
fn red_source() -> Value {
    json!({ "team": "red", "at": [20, 5], "strength": 5, "falloff": "linear", "radius": 10 })
}

/// A sandbox on [`small_map`] with [`red_source`] placed, and the scene's version then.
fn small_scene_with_a_source() -> (Handle, Value) {
    let s = server();
    let a = s.addr();
    small_map(a);
    ok(a, "POST", "/api/sources", &red_source());
    let before = version(a);
    (s, before)
}

#[test]
fn bad_requests_get_4xx_with_a_message_and_change_nothing() {
    let (s, before) = small_scene_with_a_source();
    let a = s.addr();
    let json_type = Some("application/json");
    let src = |extra: Value| {
        let mut s = red_source();
        s.as_object_mut().unwrap().extend(extra.as_object().unwrap().clone());
        s.to_string()
    };
    let cases: Vec<(u16, &str, &str, Option<&str>, String)> = vec![
        (400, "POST", "/api/sources", json_type, "{\"team\": ".into()),
        (400, "POST", "/api/sources", json_type, "[1, 2]".into()),
        (400, "POST", "/api/sources", json_type, src(json!({ "colour": "red" }))),
        (400, "POST", "/api/sources", json_type, src(json!({ "at": [1, 2, 3] }))),
        (400, "POST", "/api/sources", json_type, src(json!({ "strength": "strong" }))),
        (422, "POST", "/api/sources", json_type, src(json!({ "radius": -1 }))),
        (422, "POST", "/api/sources", json_type, src(json!({ "strength": 1e300 }))),
        (422, "POST", "/api/sources", json_type, src(json!({ "at": [1e30, 0] }))),
        (422, "POST", "/api/sources", json_type, src(json!({ "team": "tension" }))),
        (422, "POST", "/api/sources", json_type, src(json!({ "team": "a b" }))),
        (422, "POST", "/api/sources", json_type, src(json!({ "falloff": "gaussian" }))),
        (422, "POST", "/api/sources", json_type, src(json!({ "sigma": 3 }))),
        (415, "POST", "/api/sources", Some("text/plain"), src(json!({}))),
        (415, "POST", "/api/sources", None, src(json!({}))),
        (404, "PUT", "/api/sources/999", json_type, src(json!({}))),
        (404, "PUT", "/api/sources/abc", json_type, src(json!({}))),
        (404, "DELETE", "/api/sources/999", None, String::new()),
        (422, "POST", "/api/map", json_type, json!({ "width": 100000, "height": 100000 }).to_string()),
        (422, "POST", "/api/map", json_type, json!({ "width": 0, "height": 5 }).to_string()),
        (422, "POST", "/api/map", json_type, json!({ "movingai": "type octile\nheight 99999\nwidth 99999\nmap\n" }).to_string()),
        (422, "POST", "/api/map", json_type, json!({ "movingai": "type octile\nheight 2\nwidth 2\nmap\n..\n." }).to_string()),
        (404, "POST", "/api/map", json_type, json!({ "bundled": "nowhere" }).to_string()),
        (422, "POST", "/api/map", json_type, json!({ "width": 4, "height": 4, "cell_size": -1 }).to_string()),
        (422, "POST", "/api/walls", json_type, json!({ "cells": [[0, 0], [32, 0]], "blocked": true }).to_string()),
        (400, "POST", "/api/walls", json_type, json!({ "cells": [[-1, 0]], "blocked": true }).to_string()),
        (422, "PUT", "/api/perspective", json_type, json!({ "team": "nobody" }).to_string()),
        (422, "PUT", "/api/propagation", json_type, json!({ "kind": "diffuse", "decay": 0.1, "momentum": 2 }).to_string()),
        (422, "PUT", "/api/propagation", json_type, json!({ "kind": "diffuse", "decay": -1 }).to_string()),
        (422, "PUT", "/api/propagation", json_type, json!({ "kind": "diffuse", "decay": 0.1, "steps": 0 }).to_string()),
        (422, "PUT", "/api/propagation", json_type, json!({ "kind": "diffuse", "decay": 0.1, "steps": 1_000_000 }).to_string()),
        (422, "PUT", "/api/propagation", json_type, json!({ "kind": "steady", "decay": 0.1, "cooling": 1 }).to_string()),
        (422, "PUT", "/api/propagation", json_type, json!({ "kind": "flood", "last_seen": [-100, -100] }).to_string()),
        (422, "PUT", "/api/propagation", json_type, json!({ "kind": "flood", "last_seen": [5, 5], "heat": 0 }).to_string()),
        (422, "PUT", "/api/propagation", json_type, json!({ "kind": "none", "decay": 1 }).to_string()),
        (400, "PUT", "/api/propagation", json_type, json!({ "kind": "spread" }).to_string()),
        (422, "POST", "/api/step", json_type, json!({ "steps": 5000 }).to_string()),
        (404, "GET", "/api/layer/nothing", None, String::new()),
        (400, "POST", "/api/frame", json_type, json!({ "layer": 3 }).to_string()),
        (400, "GET", "/api/cell?x=1", None, String::new()),
        (422, "GET", "/api/cell?x=1&y=9999", None, String::new()),
        (400, "POST", "/api/import", Some("application/toml"), "[map\nwidth = ".into()),
        (400, "POST", "/api/import", Some("application/toml"), "[map]\nwidth = 4\nheight = 4\ncolour = 1\n".into()),
        (422, "POST", "/api/import", Some("application/toml"), "[map]\nfile = \"/etc/passwd\"\n".into()),
        (422, "POST", "/api/import", Some("application/toml"), "[map]\nwidth = 4\nheight = 4\n[[source]]\nteam = \"red\"\nat = [1, 1]\nstrength = nan\nfalloff = \"constant\"\nradius = 1\n".into()),
        (415, "POST", "/api/import", json_type, "{}".into()),
        (405, "GET", "/api/sources", None, String::new()),
        (405, "DELETE", "/api/scene", None, String::new()),
        (405, "POST", "/", json_type, "{}".into()),
        (404, "GET", "/api/nothing", None, String::new()),
        (404, "GET", "/secret.txt", None, String::new()),
    ];
    for (status, method, path, kind, body) in cases {
        let r = request(a, method, path, kind, body.as_bytes());
        assert_eq!(r.status, status, "{method} {path} {body}: {}", r.text());
        assert!(!r.error().is_empty(), "{method} {path}: no message");
        assert_eq!(version(a), before, "{method} {path} {body} changed the scene");
    }

    // Heads no client would send, and bodies over the limit, at the HTTP level (hyper
    // answers the malformed heads itself, with a bare status).
    let port = a.port();
    let raw_cases: Vec<(u16, Vec<u8>)> = vec![
        (413, format!("POST /api/sources HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nContent-Type: application/json\r\nContent-Length: 1000000000000\r\n\r\n").into_bytes()),
        (413, format!("POST /api/sources HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n", 3 << 20).into_bytes()),
        // A chunked body is read like any other: this one is not JSON.
        (400, b"POST /api/sources HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n0\r\n\r\n".to_vec()),
        (431, format!("GET /{} HTTP/1.1\r\n\r\n", "a".repeat(20_000)).into_bytes()),
        (431, format!("GET / HTTP/1.1\r\n{}\r\n", "X-A: b\r\n".repeat(100)).into_bytes()),
        (400, b"HELLO\r\n\r\n".to_vec()),
        (400, b"GET / HTTP/1.1\r\nno colon here\r\n\r\n".to_vec()),
        (400, b"GET / HTTP/2.0\r\n\r\n".to_vec()),
        (400, vec![0xff, 0xfe, b'\r', b'\n', b'\r', b'\n']),
    ];
    for (status, bytes) in raw_cases {
        let got = status_of_raw(a, &bytes);
        assert_eq!(got, status, "{:?}", String::from_utf8_lossy(&bytes[..bytes.len().min(80)]));
    }
    // Another Host (DNS rebinding), or a request from another page.
    let evil = common::reply(
        common::client().get(format!("http://{a}/api/scene")).header("Host", "evil.example:80"),
    );
    assert_eq!(evil.status, 403, "{}", evil.text());
    assert!(evil.error().contains("Host"), "{}", evil.error());
    for origin in ["http://evil.example", "null", "http://127.0.0.1:1"] {
        let r = common::reply(
            common::client()
                .post(format!("http://{a}/api/reset"))
                .header("Content-Type", "application/json")
                .header("Origin", origin)
                .body("{}"),
        );
        assert_eq!(r.status, 403, "{origin}: {}", r.text());
        assert!(r.error().contains("Origin"), "{}", r.error());
        assert_eq!(r.header("access-control-allow-origin"), None, "no CORS headers");
    }
    assert_eq!(version(a), before);
    // A body of exactly the cap is read (and refused for what it is, not its size).
    let big = format!("{{\"cells\": [{}[0, 0]], \"blocked\": true}}", "[0, 0], ".repeat(262_000));
    assert!(big.len() <= 2 << 20);
    let r = request(a, "POST", "/api/walls", Some("application/json"), big.as_bytes());
    assert_eq!(r.status, 200, "{}", r.text());
    assert_eq!(get(a, "/api/scene").json()["sources"].as_array().unwrap().len(), 1);
}

#[test]
fn caps_on_sources_and_teams() {
    let s = server();
    let a = s.addr();
    for i in 0..8 {
        ok(
            a,
            "POST",
            "/api/sources",
            &json!({ "team": format!("t{i}"), "at": [100.5, 100.5], "strength": 1, "falloff": "point" }),
        );
    }
    let ninth = send(
        a,
        "POST",
        "/api/sources",
        &json!({ "team": "t8", "at": [100.5, 100.5], "strength": 1, "falloff": "point" }),
    );
    assert_eq!(ninth.status, 422, "{}", ninth.text());
    // A team named like another but for letter case, which `influence render` would refuse
    // in the export (replacing a source of that team as well).
    let cased = json!({ "team": "T1", "at": [100.5, 100.5], "strength": 1, "falloff": "point" });
    for (method, path) in [("POST", "/api/sources"), ("PUT", "/api/sources/1")] {
        let refused = send(a, method, path, &cased);
        assert_eq!(refused.status, 422, "{}", refused.text());
        assert!(refused.error().contains("only in letter case"), "{}", refused.error());
    }
    for _ in 8..128 {
        ok(
            a,
            "POST",
            "/api/sources",
            &json!({ "team": "t0", "at": [100.5, 100.5], "strength": 1, "falloff": "point" }),
        );
    }
    let over = send(
        a,
        "POST",
        "/api/sources",
        &json!({ "team": "t0", "at": [100.5, 100.5], "strength": 1, "falloff": "point" }),
    );
    assert_eq!(over.status, 422, "{}", over.text());
    assert!(over.error().contains("128"));
}

#[test]
fn teams_have_one_colour_given_or_from_the_palette() {
    let s = server();
    let a = s.addr();
    let source = |team: &str, color: Option<&str>| {
        let mut s = json!({ "team": team, "at": [100.5, 100.5], "strength": 1, "falloff": "point" });
        if let Some(c) = color {
            s["color"] = json!(c);
        }
        s
    };
    ok(a, "POST", "/api/sources", &source("red", Some("#F0483C")));
    ok(a, "POST", "/api/sources", &source("blue", None));
    let scene = get(a, "/api/scene").json();
    let [r, g, b] = influence_scenario::color::PALETTE[1];
    assert_eq!(scene["team_colors"], json!(["#f0483c", format!("#{r:02x}{g:02x}{b:02x}")]));
    // A second colour for a team, or a value that is not a colour, is refused.
    let before = version(a);
    let other = send(a, "POST", "/api/sources", &source("red", Some("#00ff00")));
    assert_eq!(other.status, 422, "{}", other.text());
    assert!(other.error().contains("already has colour \"#f0483c\""), "{}", other.error());
    let bad = send(a, "POST", "/api/sources", &source("green", Some("green")));
    assert_eq!(bad.status, 422, "{}", bad.text());
    assert!(bad.error().contains("a colour like \"#ff8800\""), "{}", bad.error());
    assert_eq!(version(a), before);
    // The same colour again is fine, and the export keeps it.
    ok(a, "POST", "/api/sources", &source("red", Some("#f0483c")));
    assert!(get(a, "/api/export").text().contains("color = \"#F0483C\""));
    let colormap = get(a, "/api/colormap").json();
    assert_eq!(colormap["shapes"][0], "circle");
    assert_eq!(colormap["frontline"], json!(influence::render::figure::FRONT_COLOR));
}

#[test]
fn keep_alive_serves_several_requests_on_one_connection_then_closes_it_when_idle() {
    let idle = Duration::from_millis(1500);
    let limits = Limits { idle_timeout: idle, ..Limits::default() };
    let s = start(ServeConfig { limits, ..ServeConfig::default() }).unwrap();
    let addr = s.addr();
    let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
    runtime.block_on(async move {
        // hyper's client on one TCP connection: every request goes over it.
        let stream = tokio::net::TcpStream::connect(addr).await.unwrap();
        let (mut sender, connection) =
            hyper::client::conn::http1::handshake(hyper_util::rt::TokioIo::new(stream)).await.unwrap();
        let closed = tokio::spawn(connection);
        for _ in 0..3 {
            let request = hyper::Request::get("/api/maps")
                .header("Host", format!("127.0.0.1:{}", addr.port()))
                .body(http_body_util::Empty::<bytes::Bytes>::new())
                .unwrap();
            let response = sender.send_request(request).await.unwrap();
            assert_eq!(response.status(), 200);
            let body = http_body_util::BodyExt::collect(response.into_body()).await.unwrap().to_bytes();
            assert!(body.starts_with(b"[{"));
        }
        // Left idle, the connection is closed by the server.
        let started = Instant::now();
        let ended = tokio::time::timeout(Duration::from_secs(10), closed).await;
        assert!(ended.is_ok(), "the idle connection was not closed");
        let after = started.elapsed();
        assert!(after >= idle - Duration::from_millis(300) && after < idle * 3, "closed after {after:?}");
    });
}

#[test]
fn a_burst_of_concurrent_clients_is_served_and_the_server_stays_up() {
    let s = server();
    let a = s.addr();
    small_map(a);
    let started = Instant::now();
    let workers: Vec<_> = (0..6)
        .map(|t| {
            std::thread::spawn(move || {
                let mut statuses = Vec::new();
                for i in 0..20 {
                    let r = match i % 5 {
                        0 => send(a, "POST", "/api/sources", &json!({ "team": "red", "at": [t * 10 + 15, -4], "strength": 3, "falloff": "linear", "radius": 8 })),
                        1 => send(a, "POST", "/api/frame", &json!({ "layer": "influence", "advance": 1 })),
                        2 => request(a, "POST", "/api/sources", Some("application/json"), b"{oops"),
                        3 => get(a, "/api/cell?x=3&y=3"),
                        _ => get(a, "/api/scene"),
                    };
                    statuses.push((i % 5, r.status));
                }
                statuses
            })
        })
        .collect();
    for w in workers {
        for (kind, status) in w.join().unwrap() {
            let want = if kind == 2 { 400 } else { 200 };
            assert!(status == want || (kind == 0 && status == 422), "request kind {kind}: {status}");
        }
    }
    assert!(started.elapsed() < Duration::from_secs(60), "the burst took {:?}", started.elapsed());
    assert_eq!(get(a, "/api/scene").json()["sources"].as_array().unwrap().len(), 24);
    assert_matches_export(a);
}

#[test]
fn too_many_connections_are_turned_away_then_served_again() {
    let limits = Limits { max_connections: 8, ..Limits::default() };
    let s = start(ServeConfig { limits, ..ServeConfig::default() }).unwrap();
    let a = s.addr();
    let idle: Vec<TcpStream> = (0..8).map(|_| TcpStream::connect(a).unwrap()).collect();
    std::thread::sleep(Duration::from_millis(200));
    let full = get(a, "/api/scene");
    assert_eq!(full.status, 503);
    assert!(full.error().contains("too many connections"), "{}", full.error());
    drop(idle);
    let deadline = Instant::now() + Duration::from_secs(10);
    while get(a, "/api/scene").status != 200 {
        assert!(Instant::now() < deadline, "the server did not recover");
        std::thread::sleep(Duration::from_millis(50));
    }
}

#[test]
fn stop_closes_the_port() {
    let s = server();
    let a = s.addr();
    assert_eq!(get(a, "/api/maps").status, 200);
    s.stop();
    assert!(TcpStream::connect_timeout(&a, Duration::from_secs(1)).is_err());
}

/// One route of the bad-request table: what each kind of bad request is for it, the status
/// it gets, and a word its message must contain (the key at fault). `None` where the kind
/// does not apply: a route without a body has no body to malform or to type.
struct Route {
    method: &'static str,
    path: &'static str,
    /// A body (or query) that does not parse.
    malformed: Option<(&'static str, u16, &'static str)>,
    /// One that parses but has the wrong shape or a key of the wrong type.
    wrong_shape: Option<(&'static str, u16, &'static str)>,
    /// Whether a body is read (and so refused as `text/plain`).
    typed: bool,
    /// What completes `path` into a valid request, for a route without a body.
    valid: &'static str,
}

#[test]
fn every_route_refuses_malformed_wrong_shaped_too_big_and_wrongly_typed_requests() {
    let (s, before) = small_scene_with_a_source();
    let a = s.addr();
    let r = |method, path, malformed, wrong_shape, typed| Route {
        method,
        path,
        malformed,
        wrong_shape,
        typed,
        valid: "",
    };
    #[rustfmt::skip]
    let table = [
        r("POST", "/api/map", Some((r#"{"width": "#, 400, "width")), Some((r#"{"width": "wide", "height": 4}"#, 400, "width")), true),
        r("POST", "/api/walls", Some((r#"{"cells": [[1, "#, 400, "cells[0]")), Some((r#"{"cells": [[1, 2, 3]], "blocked": true}"#, 400, "cells[0]")), true),
        r("POST", "/api/sources", Some((r#"{"team": "#, 400, "team")), Some((r#"{"team": "red", "at": "here", "strength": 1, "falloff": "point"}"#, 400, "at")), true),
        r("PUT", "/api/sources/1", Some((r#"{"team": "red", "strength": "#, 400, "strength")), Some((r#"{"team": "red", "at": [1, 1], "strength": "strong", "falloff": "point"}"#, 400, "strength")), true),
        r("PUT", "/api/perspective", Some((r#"{"team": "#, 400, "team")), Some((r#"{"team": 5}"#, 400, "team")), true),
        r("PUT", "/api/propagation", Some((r#"{"kind": "diffuse", "decay": "#, 400, "decay")), Some((r#"{"kind": "diffuse", "decay": "fast"}"#, 400, "decay")), true),
        r("PUT", "/api/paths", Some((r#"{"paths": [{"from": "#, 400, "paths[0].from")), Some((r#"{"paths": [{"from": [1, 2], "to": "there"}]}"#, 400, "paths[0].to")), true),
        r("POST", "/api/step", Some((r#"{"steps": "#, 400, "steps")), Some((r#"{"steps": "many"}"#, 400, "steps")), true),
        r("POST", "/api/reset", Some(("{", 400, "body")), Some((r#"{"steps": 1}"#, 400, "steps")), true),
        r("POST", "/api/frame", Some((r#"{"layer": "#, 400, "layer")), Some((r#"{"layer": 3}"#, 400, "layer")), true),
        r("POST", "/api/import", Some(("[map\nwidth = ", 400, "scenario:1")), Some(("[map]\nwidth = \"wide\"\nheight = 4\n", 400, "map.width")), true),
        // Without a body: the query, the path.
        Route { valid: "?x=1&y=1", ..r("GET", "/api/cell", Some(("?x=one&y=2", 400, "x")), Some(("?x=1", 400, "y")), false) },
        Route { valid: "influence", ..r("GET", "/api/layer/", Some(("no%20such", 404, "no such")), None, false) },
        Route { valid: "1", ..r("DELETE", "/api/sources/", Some(("abc", 404, "abc")), None, false) },
        r("GET", "/api/scene", None, None, false),
        r("GET", "/api/maps", None, None, false),
        r("GET", "/api/colormap", None, None, false),
        r("GET", "/api/export", None, None, false),
        r("GET", "/api/live", None, None, false),
        r("GET", "/", None, None, false),
    ];
    let big = vec![b' '; influence_sandbox::MAX_BODY + 1];
    let check =
        |what: &str, method: &str, path: &str, kind: Option<&str>, body: &[u8], status: u16, needle: &str| {
            let r = request(a, method, path, kind, body);
            let shown = String::from_utf8_lossy(&body[..body.len().min(60)]);
            assert_eq!(r.status, status, "{what}: {method} {path} {shown}: {}", r.text());
            let message = r.error();
            assert!(
                message.contains(needle),
                "{what}: {method} {path} {shown}: {message:?} does not name {needle:?}"
            );
            assert_eq!(version(a), before, "{what}: {method} {path} changed the scene");
        };
    for route in &table {
        let Route { method, path, typed, .. } = *route;
        let kind = if path == "/api/import" { "application/toml" } else { "application/json" };
        let full = |suffix: &str| if typed { path.to_owned() } else { format!("{path}{suffix}") };
        let content = |body: &str| if typed { body.as_bytes().to_vec() } else { Vec::new() };
        let typed_kind = typed.then_some(kind);
        if let Some((body, status, needle)) = route.malformed {
            check("malformed", method, &full(body), typed_kind, &content(body), status, needle);
        }
        if let Some((body, status, needle)) = route.wrong_shape {
            check("wrong shape", method, &full(body), typed_kind, &content(body), status, needle);
        }
        // Too big: every route, with or without a body of its own.
        let path = full(route.valid);
        check("too big", method, &path, typed_kind, &big, 413, "2 MiB");
        if typed {
            check("wrong type", method, &path, Some("text/plain"), b"{}", 415, "Content-Type");
            check("no type", method, &path, None, b"{}", 415, "Content-Type");
            if kind == "application/json" {
                // A body that is JSON but not an object.
                for body in ["[]", "\"text\"", "3"] {
                    check("not an object", method, &path, Some(kind), body.as_bytes(), 400, "body");
                }
            }
        }
    }
}

/// The next JSON text message of a live connection (within 30 s).
async fn next_message<S>(ws: &mut S) -> Value
where
    S: futures_util::Stream<
            Item = Result<tokio_tungstenite::tungstenite::Message, tokio_tungstenite::tungstenite::Error>,
        > + Unpin,
{
    use futures_util::StreamExt;
    loop {
        let message =
            tokio::time::timeout(Duration::from_secs(30), ws.next()).await.expect("a message in 30 s");
        match message.expect("the connection is open").expect("a message") {
            tokio_tungstenite::tungstenite::Message::Text(text) => {
                return serde_json::from_str(&text).unwrap()
            }
            tokio_tungstenite::tungstenite::Message::Close(frame) => panic!("closed: {frame:?}"),
            _ => {}
        }
    }
}

#[test]
fn live_updates_show_every_clients_edits_to_every_watcher() {
    use tokio_tungstenite::tungstenite::{client::IntoClientRequest, Error};
    let s = server();
    let a = s.addr();
    let runtime = tokio::runtime::Builder::new_multi_thread().worker_threads(2).enable_all().build().unwrap();
    runtime.block_on(async move {
        let url = format!("ws://{a}/api/live");
        let (mut one, _) = tokio_tungstenite::connect_async(&url).await.unwrap();
        let (mut two, _) = tokio_tungstenite::connect_async(&url).await.unwrap();
        let scene = tokio::task::spawn_blocking(move || get(a, "/api/scene").json()).await.unwrap();
        for ws in [&mut one, &mut two] {
            let hello = next_message(ws).await;
            assert_eq!(
                (&hello["version"], &hello["computing"]),
                (&scene["version"], &json!(false)),
                "{hello}"
            );
        }
        // A script adds a source: both watchers see the new version, computed.
        let add =
            json!({ "team": "red", "at": [100.5, 100.5], "strength": 5, "falloff": "linear", "radius": 20 });
        let edited = tokio::task::spawn_blocking(move || ok(a, "POST", "/api/sources", &add)).await.unwrap();
        let version = edited["scene"]["version"].clone();
        for ws in [&mut one, &mut two] {
            let mut seen = next_message(ws).await;
            while seen["version"] != version || seen["computing"] == true {
                seen = next_message(ws).await;
            }
        }
        // Steps show too (a step is not an edit: the version stays).
        let propagation = json!({ "kind": "diffuse", "decay": 0.05, "steps": 1 });
        let edited = tokio::task::spawn_blocking(move || {
            ok(a, "PUT", "/api/propagation", &propagation);
            ok(a, "POST", "/api/step", &json!({ "steps": 3 }))
        })
        .await
        .unwrap();
        let mut seen = next_message(&mut one).await;
        while seen["steps"]["target"] != 4 || seen["steps"]["done"] != 4 {
            seen = next_message(&mut one).await;
        }
        assert_eq!(seen["version"], edited["version"]);

        // Another page may not watch (a WebSocket is not bound by CORS: the origin is checked).
        let mut request = url.as_str().into_client_request().unwrap();
        request.headers_mut().insert("Origin", "http://evil.example".parse().unwrap());
        match tokio_tungstenite::connect_async(request).await {
            Err(Error::Http(response)) => assert_eq!(response.status(), 403),
            other => panic!("a foreign origin was let in: {other:?}"),
        }
        let mut request = url.as_str().into_client_request().unwrap();
        request.headers_mut().insert("Origin", format!("http://127.0.0.1:{}", a.port()).parse().unwrap());
        assert!(tokio_tungstenite::connect_async(request).await.is_ok(), "the page's own origin");
    });
}

#[test]
fn stopping_finishes_the_request_under_way_and_closes_live_connections() {
    use http_body_util::BodyExt;
    let s = server();
    let a = s.addr();
    let runtime = tokio::runtime::Builder::new_multi_thread().worker_threads(2).enable_all().build().unwrap();
    let (stopped, live_closed, answer) = runtime.block_on(async move {
        let (mut live, _) = tokio_tungstenite::connect_async(format!("ws://{a}/api/live")).await.unwrap();
        next_message(&mut live).await;
        // A request under way: its head sent, its body not yet.
        let stream = tokio::net::TcpStream::connect(a).await.unwrap();
        let (mut sender, connection) =
            hyper::client::conn::http1::handshake(hyper_util::rt::TokioIo::new(stream)).await.unwrap();
        tokio::spawn(connection);
        let (mut body, channel) = http_body_util::channel::Channel::<bytes::Bytes>::new(1);
        let request = hyper::Request::post("/api/step")
            .header("Host", format!("127.0.0.1:{}", a.port()))
            .header("Content-Type", "application/json")
            .header("Content-Length", "12")
            .body(channel)
            .unwrap();
        let pending = tokio::spawn(sender.send_request(request));
        body.send_data(bytes::Bytes::from_static(b"{\"steps\"")).await.unwrap();
        tokio::time::sleep(Duration::from_millis(300)).await;
        // Stop meanwhile (stop blocks until the server has stopped).
        let stopping = tokio::task::spawn_blocking(move || {
            let timed = Instant::now();
            s.stop();
            timed.elapsed()
        });
        tokio::time::sleep(Duration::from_millis(300)).await;
        // The live connection is told, and closed.
        use futures_util::StreamExt;
        let mut closed = None;
        while let Ok(Some(message)) = tokio::time::timeout(Duration::from_secs(5), live.next()).await {
            if let Ok(tokio_tungstenite::tungstenite::Message::Close(frame)) = message {
                closed = frame.map(|f| u16::from(f.code));
                break;
            }
        }
        // The request under way still gets its answer.
        body.send_data(bytes::Bytes::from_static(b": 2}")).await.unwrap();
        drop(body);
        let response = pending.await.unwrap().unwrap();
        let status = response.status().as_u16();
        let text = response.into_body().collect().await.unwrap().to_bytes();
        (stopping.await.unwrap(), closed, (status, text))
    });
    assert_eq!(live_closed, Some(1001), "the live connection was closed as going away");
    assert_eq!(answer.0, 200, "{:?}", answer.1);
    assert!(stopped < Duration::from_secs(5), "stopping took {stopped:?}");
    assert!(TcpStream::connect_timeout(&a, Duration::from_secs(1)).is_err(), "the port is closed");
}
