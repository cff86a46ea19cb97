//! The program's folders are layers that import only downwards: `cli/` and `web/` over
//! `app/`, over `runtime/`, over `platform/` (the floor, which knows nothing of the others).
//! Every `crate::` path in a folder's files is checked against the folders it may use.

use std::path::Path;

/// Each folder of `src/` and the folders of `src/` it may import.
const LAYERS: &[(&str, &[&str])] = &[
    ("platform", &[]),
    ("runtime", &["platform"]),
    ("app", &["runtime", "platform"]),
    ("cli", &["app", "runtime", "platform"]),
    ("web", &["app", "runtime", "platform"]),
];

/// The Rust files under `dir`, recursively.
fn rust_files(dir: &Path, out: &mut Vec<std::path::PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// The top folders of `src/` that `text` names through `crate::` (`crate::x::...`, and each
/// name of `crate::{x, y}`).
fn imported(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let ident = |s: &str| -> String {
        s.chars()
            .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
            .collect()
    };
    for (at, _) in text.match_indices("crate::") {
        let rest = &text[at + "crate::".len()..];
        if let Some(group) = rest.strip_prefix('{') {
            let group = &group[..group.find('}').unwrap_or(group.len())];
            out.extend(group.split(',').map(|p| ident(p.trim())));
        } else {
            out.push(ident(rest));
        }
    }
    out
}

#[test]
fn the_programs_layers_import_only_downwards() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let folders: Vec<&str> = LAYERS.iter().map(|(f, _)| *f).collect();
    let mut wrong = Vec::new();
    for (folder, may) in LAYERS {
        let mut files = Vec::new();
        rust_files(&src.join(folder), &mut files);
        assert!(!files.is_empty(), "src/{folder} holds Rust files");
        for file in files {
            let text = std::fs::read_to_string(&file).unwrap();
            for name in imported(&text) {
                if name != *folder && folders.contains(&name.as_str()) && !may.contains(&&*name) {
                    wrong.push(format!("{} imports {name}", file.display()));
                }
            }
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

#[test]
fn imports_are_read_from_paths_and_groups() {
    let text =
        "use crate::app::App;\nuse crate::{runtime, platform::log};\nlet x = crate::cli::main();";
    assert_eq!(imported(text), ["app", "runtime", "platform", "cli"]);
}
