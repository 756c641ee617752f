//! Every `influence` command that README.md and docs/ show is run as written, and what the
//! documents say about it is checked against what it does: the files and frames it says it
//! wrote (counted, in the right singular or plural), the files the comments name, and the
//! printed output the documents quote. A command added to a document is run here without
//! any change to this file; a shell line that is not an `influence` command must be one of
//! the kinds listed in [`RUN_ELSEWHERE`].

mod common;

use std::collections::BTreeSet;
use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use common::repo;

/// Shell lines of the documents that are not `influence` commands, and where they run.
const RUN_ELSEWHERE: &[(&str, &str)] = &[
    ("cargo test", "the test command itself: CI runs it (.ci/run)"),
    ("cargo bench", "criterion benches: minutes each, run by hand"),
    ("pip install", "the Python module: .ci/run installs it into a venv"),
    ("python -m pytest", "the Python tests: .ci/run runs them"),
    ("python ", "Python scripts: .ci/run runs the module's"),
];

/// The `influence` invocations of a document, as `cargo run` spells them.
const PREFIXES: &[&str] =
    &["cargo run --release -p influence-cli -- ", "cargo run --release -- ", "influence "];

/// The documents: README.md and every Markdown file under docs/.
fn documents() -> Vec<PathBuf> {
    let mut docs = vec![repo("README.md")];
    let mut more: Vec<PathBuf> = std::fs::read_dir(repo("docs"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "md"))
        .collect();
    more.sort();
    docs.extend(more);
    docs
}

/// The lines of the fenced blocks of `text` whose language is one of `langs`.
fn blocks<'a>(text: &'a str, langs: &[&str]) -> Vec<Vec<&'a str>> {
    let mut out = Vec::new();
    let mut current: Option<Vec<&str>> = None;
    for line in text.lines() {
        let fence = line.trim_start().strip_prefix("```");
        match (fence, current.take()) {
            (Some(_), Some(block)) => out.push(block),
            (Some(lang), None) => current = langs.contains(&lang.trim()).then(Vec::new),
            (None, Some(mut block)) => {
                block.push(line);
                current = Some(block);
            }
            (None, None) => {}
        }
    }
    out
}

/// A shell line of a document: the command, and its comment.
struct Shown {
    doc: String,
    args: Vec<String>,
    comment: String,
}

/// Every `influence` command of the documents; panics on a shell line of any other kind
/// not listed in [`RUN_ELSEWHERE`].
fn shown_commands() -> Vec<Shown> {
    let mut shown = Vec::new();
    for doc in documents() {
        let text = std::fs::read_to_string(&doc).unwrap();
        let name = doc.file_name().unwrap().to_string_lossy().into_owned();
        for line in blocks(&text, &["sh", "bash", "shell", "console"]).concat() {
            let (command, comment) = line.split_once(" #").unwrap_or((line, ""));
            let command = command.trim().trim_start_matches("$ ");
            if command.is_empty() || command.starts_with('#') {
                continue;
            }
            if let Some(rest) = PREFIXES.iter().find_map(|p| command.strip_prefix(p)) {
                let args = rest.split_whitespace().map(str::to_owned).collect();
                shown.push(Shown { doc: name.clone(), args, comment: comment.trim().to_owned() });
            } else {
                assert!(
                    RUN_ELSEWHERE.iter().any(|(prefix, _)| command.starts_with(prefix)),
                    "{name}: `{command}` is neither an influence command nor one of RUN_ELSEWHERE"
                );
            }
        }
    }
    shown
}

/// `args` as run here: repository paths made absolute (the command runs in a scratch
/// folder, so `out/...` lands there), the sandbox on a free port, and the work of `bench`
/// cut to a token (its flags and kernels are checked, not its speed).
fn as_run(args: &[String]) -> Vec<String> {
    let mut out: Vec<String> = args
        .iter()
        .map(|a| {
            let in_repo = repo(a);
            if !a.starts_with('-') && !a.starts_with("out/") && in_repo.exists() {
                in_repo.display().to_string()
            } else {
                a.clone()
            }
        })
        .collect();
    if out.first().is_some_and(|c| c == "bench") {
        // A debug build times nothing well: the smallest work that runs every kernel.
        let field = out.iter().any(|a| a == "--field");
        let frame = out.iter().any(|a| a == "--frame");
        // The frame on the smallest map: the file, where the document names map files.
        let files = out.iter().any(|a| a.split(',').any(|m| m.ends_with(".map")));
        let den =
            if files { repo("data/maps/den012d.map").display().to_string() } else { "den012d".to_owned() };
        let light: &[(&str, &str)] = if field {
            &[("--seconds", "0.001"), ("--quick", "")]
        } else if frame {
            &[("--seconds", "0.001"), ("--maps", &den)]
        } else {
            &[("--seconds", "0.001"), ("--sizes", "16")]
        };
        for &(flag, value) in light {
            match out.iter().position(|a| a == flag) {
                Some(i) if !value.is_empty() => out[i + 1] = value.to_owned(),
                Some(_) => {}
                None => out.extend([flag.to_owned(), value.to_owned()].into_iter().filter(|a| !a.is_empty())),
            }
        }
    }
    if out.first().is_some_and(|c| c == "serve") {
        out.extend(["--port".to_owned(), "0".to_owned()]);
    }
    out
}

/// Runs `args` in `dir`; returns standard output. `serve` runs until it prints its address.
fn run(dir: &Path, args: &[String]) -> String {
    let mut child = Command::new(env!("CARGO_BIN_EXE_influence"))
        .args(args)
        .current_dir(dir)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    if args[0] == "serve" {
        let mut line = String::new();
        let started = Instant::now();
        BufReader::new(child.stdout.take().unwrap()).read_line(&mut line).unwrap();
        child.kill().unwrap();
        child.wait().unwrap();
        assert!(line.contains("http://127.0.0.1:"), "serve {args:?} printed {line:?}");
        assert!(started.elapsed() < Duration::from_secs(60));
        return line;
    }
    let out = child.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "influence {args:?} failed: {stderr}");
    String::from_utf8(out.stdout).unwrap()
}

/// `count` and the noun after it, for each "N noun" in `text` with a noun of `nouns`
/// (singular or plural).
fn counts<'a>(text: &'a str, nouns: &[&str]) -> Vec<(usize, &'a str)> {
    let words: Vec<&str> = text.split_whitespace().collect();
    words
        .windows(2)
        .filter_map(|w| {
            let n = w[0].parse().ok()?;
            let noun = w[1].trim_end_matches([',', '.', ':']);
            nouns.iter().any(|s| noun == *s || noun == format!("{s}s")).then_some((n, noun))
        })
        .collect()
}

/// The files directly in `dir`.
fn files_in(dir: &Path) -> usize {
    std::fs::read_dir(dir).unwrap().filter(|e| e.as_ref().unwrap().path().is_file()).count()
}

/// The frames of the GIF at `path`.
fn gif_frames(path: &Path) -> usize {
    let mut options = gif::DecodeOptions::new();
    options.set_color_output(gif::ColorOutput::Indexed);
    let mut decoder = options.read_info(std::fs::File::open(path).unwrap()).unwrap();
    let mut n = 0;
    while decoder.read_next_frame().unwrap().is_some() {
        n += 1;
    }
    n
}

/// Checks what `stdout` of `args` claims, run in `dir`.
fn check_claims(dir: &Path, args: &[String], stdout: &str) {
    for (n, noun) in counts(stdout, &["file", "frame"]) {
        assert_eq!(noun.ends_with('s'), n != 1, "{args:?}: \"{n} {noun}\" in:\n{stdout}");
    }
    for line in stdout.lines() {
        // "... wrote N file(s) to DIR"
        if let Some((before, folder)) = line.rsplit_once(" to ") {
            if let Some(&(n, _)) = counts(before, &["file"]).last() {
                let folder = dir.join(folder.trim());
                assert_eq!(files_in(&folder), n, "{args:?}: {line}");
                // "N frames" of an animation: the GIF holds that many.
                if let Some(&(frames, _)) = counts(before, &["frame"]).first() {
                    for gif in std::fs::read_dir(&folder).unwrap().map(|e| e.unwrap().path()) {
                        if gif.extension().is_some_and(|e| e == "gif") {
                            assert_eq!(gif_frames(&gif), frames, "{args:?}: {line}");
                        }
                    }
                }
            }
        }
    }
}

/// The output paths a command's comment names (`# out/spread/influence.gif`): they exist.
fn check_comment(dir: &Path, shown: &Shown) {
    for word in shown.comment.split_whitespace() {
        let word = word.trim_end_matches([',', ';', ')', ':']);
        if word.starts_with("out/") {
            let path = dir.join(word);
            assert!(path.exists(), "{}: `{}` says it writes {word}", shown.doc, shown.args.join(" "));
        }
    }
}

#[test]
fn every_documented_command_runs_and_does_what_it_says() {
    let shown = shown_commands();
    assert!(shown.len() >= 8, "found only {} commands", shown.len());
    let subcommands: BTreeSet<&str> = shown.iter().map(|s| s.args[0].as_str()).collect();
    for sub in ["demo", "render", "animate", "bench", "serve"] {
        assert!(subcommands.contains(sub), "no document shows `influence {sub}`");
    }
    let dir = tempfile::tempdir().unwrap();
    for s in &shown {
        let args = as_run(&s.args);
        let stdout = run(dir.path(), &args);
        check_claims(dir.path(), &args, &stdout);
        check_comment(dir.path(), s);
    }
}

/// The output the documents quote, each beside the command that prints it: every line of
/// the quote (but `...`) is printed as shown.
#[test]
fn quoted_output_is_what_the_commands_print() {
    let quotes: &[(&str, &str, &[&str])] = &[
        ("docs/scenario.md", "demo.toml (built in)", &["demo"]),
        (
            "docs/scenario.md",
            "animated influence:",
            &["animate", "examples/scenarios/spread.toml", "--out", "out/spread-anim"],
        ),
    ];
    let dir = tempfile::tempdir().unwrap();
    for (doc, first, command) in quotes {
        let text = std::fs::read_to_string(repo(doc)).unwrap();
        let quote = blocks(&text, &["text"])
            .into_iter()
            .find(|b| b.first().is_some_and(|l| l.starts_with(first)))
            .unwrap_or_else(|| panic!("{doc}: no quoted output starting {first:?}"));
        let args: Vec<String> = command.iter().map(|s| (*s).to_owned()).collect();
        let args = as_run(&args);
        let stdout = run(dir.path(), &args);
        for line in quote.iter().filter(|l| l.trim() != "...") {
            assert!(
                stdout.lines().any(|o| o == *line),
                "{doc}: {line:?} is not printed by {command:?}:\n{stdout}"
            );
        }
        check_claims(dir.path(), &args, &stdout);
    }
}

#[test]
fn counts_read_numbers_and_nouns() {
    assert_eq!(counts("wrote 13 files to out", &["file"]), [(13, "files")]);
    assert_eq!(
        counts("41 frames up to step 40, wrote 1 file", &["file", "frame"]),
        [(41, "frames"), (1, "file")]
    );
}

#[test]
fn the_docs_list_every_example_scenario() {
    let docs = std::fs::read_to_string(repo("docs/scenario.md")).unwrap();
    let mut examples = 0;
    for entry in std::fs::read_dir(repo("examples/scenarios")).unwrap() {
        let name = entry.unwrap().file_name().to_string_lossy().into_owned();
        if name.ends_with(".toml") {
            examples += 1;
            assert!(docs.contains(&format!("`{name}`")), "docs/scenario.md does not list {name}");
        }
    }
    assert!(examples >= 5);
}

/// README's pictures are what the commands draw today (`INFLUENCE_BLESS=1` rewrites them
/// after a deliberate change to the pictures).
#[test]
fn readme_pictures_are_what_the_commands_draw() {
    let dir = tempfile::tempdir().unwrap();
    let pictures: &[(&[&str], &str, &str)] = &[
        (&["demo", "-q"], "out/demo/influence.png", "docs/img/demo-influence.png"),
        (
            &["animate", "examples/scenarios/spread.toml", "--out", "out/spread", "-q"],
            "out/spread/influence.gif",
            "docs/img/spread.gif",
        ),
    ];
    let readme = std::fs::read_to_string(repo("README.md")).unwrap();
    let bless = std::env::var_os("INFLUENCE_BLESS").is_some();
    for (command, drawn, shown) in pictures {
        assert!(readme.contains(&format!("]({shown})")), "README.md does not show {shown}");
        let args: Vec<String> = command.iter().map(|s| (*s).to_owned()).collect();
        run(dir.path(), &as_run(&args));
        let drawn = std::fs::read(dir.path().join(drawn)).unwrap();
        if bless {
            std::fs::write(repo(shown), &drawn).unwrap();
        } else {
            assert!(
                drawn == std::fs::read(repo(shown)).unwrap(),
                "{shown} is not what `{}` draws now",
                command.join(" ")
            );
        }
    }
}
