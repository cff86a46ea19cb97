//! `ludus check --format json`: one JSON object per diagnostic on standard output, the same
//! diagnostics as the text output in the same order, each with its span, severity, help and
//! kind (`code`); the exit code is the text output's.

mod support;

use serde_json::Value;
use std::path::{Path, PathBuf};
use support::{ludus, scratch};

/// A diagnostic as both outputs give it: (file, line, column, severity, message).
type Seen = (String, u64, u64, String, String);

/// `ludus check DIR` in text: its diagnostics' first lines, and the exit code.
fn text(dir: &Path) -> (Vec<Seen>, i32) {
    let o = ludus().arg("check").arg(dir).output().unwrap();
    let err = String::from_utf8_lossy(&o.stderr).into_owned();
    let mut seen = Vec::new();
    for line in err.lines() {
        for severity in ["error", "warning"] {
            let Some((place, message)) = line.split_once(&format!(": {severity}: ")) else {
                continue;
            };
            if place.starts_with(' ') || place == "ludus" {
                continue;
            }
            let mut parts = place.rsplitn(3, ':');
            let (c, l, f) = (parts.next(), parts.next(), parts.next());
            let at = match (
                f,
                l.and_then(|l| l.parse().ok()),
                c.and_then(|c| c.parse().ok()),
            ) {
                (Some(f), Some(l), Some(c)) => (f.to_string(), l, c),
                _ => (place.to_string(), 1, 1),
            };
            seen.push((at.0, at.1, at.2, severity.to_string(), message.to_string()));
        }
    }
    (seen, o.status.code().unwrap_or(-1))
}

/// `ludus check DIR --format json`: its objects and the exit code.
fn json(dir: &Path) -> (Vec<Value>, i32) {
    let o = ludus()
        .arg("check")
        .arg(dir)
        .args(["--format", "json"])
        .output()
        .unwrap();
    let out = String::from_utf8_lossy(&o.stdout).into_owned();
    let found = out
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{e}: {l}")))
        .collect();
    (found, o.status.code().unwrap_or(-1))
}

fn as_seen(v: &Value) -> Seen {
    (
        v["file"].as_str().unwrap().to_string(),
        v["line"].as_u64().unwrap(),
        v["column"].as_u64().unwrap(),
        v["severity"].as_str().unwrap().to_string(),
        v["message"].as_str().unwrap().to_string(),
    )
}

const KEYS: [&str; 9] = [
    "file",
    "line",
    "column",
    "end_line",
    "end_column",
    "severity",
    "message",
    "help",
    "code",
];

fn same_in_both(dir: &Path) -> Vec<Value> {
    let (seen, code) = text(dir);
    let (found, json_code) = json(dir);
    assert_eq!(json_code, code, "{}", dir.display());
    let listed: Vec<Seen> = found.iter().map(as_seen).collect();
    assert_eq!(listed, seen, "{}", dir.display());
    let codes: Vec<&str> = ludus_content::CODES.iter().map(|(c, _)| *c).collect();
    for v in &found {
        let keys: Vec<&str> = v.as_object().unwrap().keys().map(String::as_str).collect();
        let mut expected = KEYS.to_vec();
        expected.sort_unstable();
        let mut keys_sorted = keys.clone();
        keys_sorted.sort_unstable();
        assert_eq!(keys_sorted, expected, "{v}");
        assert!(codes.contains(&v["code"].as_str().unwrap()), "{v}");
        assert!(
            v["end_column"].as_u64() > v["column"].as_u64() || v["line"] == 1,
            "{v}"
        );
    }
    found
}

/// Every known-bad content case: the same diagnostics, in the same order, in both formats.
#[test]
fn every_bad_content_case_gives_the_same_diagnostics_in_json() {
    let bad = Path::new(env!("CARGO_MANIFEST_DIR")).join("content/tests/bad");
    let mut cases: Vec<PathBuf> = std::fs::read_dir(&bad)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.join("game.toml").is_file())
        .collect();
    cases.sort();
    assert!(cases.len() > 50);
    for case in cases {
        let found = same_in_both(&case);
        assert!(!found.is_empty(), "{}", case.display());
    }
}

/// Scripts: lints (errors and warnings), a script that does not compile, one whose top level
/// fails; and kinds named by `code`.
#[test]
fn script_problems_and_kinds() {
    #[rustfmt::skip]
    let cases: &[(&str, &str, &[&str])] = &[
        ("lints", "ludus.spwn('gem', 0, 0)\nfunction on_tik(t) end\nludus.play('nosound')\n",
         &["unknown-function", "not-a-handler"]),
        ("syntax", "function on_tick(t)\n  if then\nend\n", &["lua-syntax"]),
        ("load", "error('no start')\n", &["lua-load"]),
        ("module", "local m = require('nowhere')\n", &["module"]),
    ];
    for (name, script, codes) in cases {
        let tmp = scratch("check-json", name);
        let dir = tmp.join("g");
        assert!(ludus().arg("new").arg(&dir).status().unwrap().success());
        std::fs::write(dir.join("scripts/main.lua"), script).unwrap();
        let found = same_in_both(&dir);
        let kinds: Vec<&str> = found.iter().map(|v| v["code"].as_str().unwrap()).collect();
        for c in *codes {
            assert!(kinds.contains(c), "{name}: {kinds:?}");
        }
    }
    let (found, code) = json(Path::new("no/such/folder"));
    assert_eq!(code, 1);
    assert_eq!(found.len(), 1);
    assert_eq!(found[0]["code"], "file");
}

/// Content kinds: a key, a type, a range, a name, TOML itself; the span of the value.
#[test]
fn content_kinds_and_spans() {
    let tmp = scratch("check-json", "content");
    let dir = tmp.join("g");
    assert!(ludus().arg("new").arg(&dir).status().unwrap().success());
    let toml = std::fs::read_to_string(dir.join("game.toml")).unwrap();
    let window = "[window]\ncolour = 1\nwidth = \"wide\"\nheight = 5\n\n[tick]";
    let bad = toml.replacen("[tick]", window, 1);
    assert_ne!(bad, toml, "the template has a [tick] table");
    std::fs::write(dir.join("game.toml"), &bad).unwrap();
    let found = same_in_both(&dir);
    let kinds: Vec<(&str, u64, u64)> = found
        .iter()
        .map(|v| {
            (
                v["code"].as_str().unwrap(),
                v["column"].as_u64().unwrap(),
                v["end_column"].as_u64().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        kinds,
        [
            ("unknown-key", 1, 7),
            ("wrong-type", 9, 15),
            ("out-of-range", 10, 11)
        ],
        "{found:?}"
    );
    std::fs::write(dir.join("game.toml"), "name = \n").unwrap();
    let found = same_in_both(&dir);
    assert_eq!(found[0]["code"], "toml-syntax");
}

/// docs/editors.md lists the kinds as `CODES` declares them.
#[test]
fn the_docs_list_every_code() {
    let doc =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/editors.md"))
            .unwrap();
    let table: Vec<&str> = doc
        .lines()
        .skip_while(|l| *l != "| code | meaning |")
        .skip(2)
        .take_while(|l| l.starts_with('|'))
        .collect();
    let expected: Vec<String> = ludus_content::CODES
        .iter()
        .map(|(c, m)| format!("| `{c}` | {m} |"))
        .collect();
    assert_eq!(table, expected);
}
