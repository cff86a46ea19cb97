//! No function of the workspace runs past a hundred lines without saying why: each longer
//! one has a doc line that begins `Long because` (CONTRIBUTING.md's conventions). A function
//! is measured from the line of its `fn` to the line of its closing brace, reading the
//! sources with the import reader's tokens (so braces in strings, characters and comments do
//! not count).

#[allow(dead_code)] // The import reader's `use` parser is not needed here.
#[path = "architecture/tokens.rs"]
mod tokens;

use std::path::{Path, PathBuf};
use tokens::{Tok, is_ident, tokens};

/// The most lines a function may take without a reason in its doc.
const MAX_LINES: u32 = 100;

/// What begins the doc line that gives a long function's reason.
const MARKER: &str = "Long because";

/// One function: its name, the line of its `fn` and its length in lines.
#[derive(Debug, PartialEq)]
struct Function {
    name: String,
    line: u32,
    lines: u32,
}

/// Every function with a body in `src` (nested ones too), in source order.
fn functions(src: &str) -> Vec<Function> {
    let toks = tokens(src);
    let mut out = Vec::new();
    for (i, t) in toks.iter().enumerate() {
        let Some(name) = toks
            .get(i + 1)
            .filter(|n| t.text == "fn" && is_ident(&n.text))
        else {
            continue;
        };
        if let Some(end) = body_end(&toks, i + 2) {
            out.push(Function {
                name: name.text.clone(),
                line: t.line,
                lines: end - t.line + 1,
            });
        }
    }
    out
}

/// The line of the closing brace of the body that the signature at `toks[i]` opens; `None`
/// for a declaration without a body (`fn f();`).
fn body_end(toks: &[Tok], mut i: usize) -> Option<u32> {
    // The signature: its first `{` opens the body; a `;` outside brackets ends it.
    let mut brackets = 0i32;
    loop {
        match toks.get(i)?.text.as_str() {
            "(" | "[" => brackets += 1,
            ")" | "]" => brackets -= 1,
            ";" if brackets == 0 => return None,
            "{" => break,
            _ => {}
        }
        i += 1;
    }
    let mut depth = 0i32;
    for t in &toks[i..] {
        match t.text.as_str() {
            "{" => depth += 1,
            "}" => {
                depth -= 1;
                if depth == 0 {
                    return Some(t.line);
                }
            }
            _ => {}
        }
    }
    None
}

/// The doc comment and attributes right above line `line` (1-based) of `lines`.
fn doc_above<'s>(lines: &[&'s str], line: u32) -> Vec<&'s str> {
    let mut doc: Vec<&str> = lines[..line as usize - 1]
        .iter()
        .rev()
        .map(|l| l.trim())
        .take_while(|l| l.starts_with("///") || l.starts_with("#["))
        .collect();
    doc.reverse();
    doc
}

/// Whether a doc (as [`doc_above`] gives it) says why its function is long.
fn says_why(doc: &[&str]) -> bool {
    doc.iter().any(|l| {
        l.strip_prefix("///")
            .is_some_and(|text| text.trim_start().starts_with(MARKER))
    })
}

/// Functions of `src` past [`MAX_LINES`] whose doc does not say why, as `name (n lines)`
/// with their lines.
fn unexplained(src: &str) -> Vec<(u32, String)> {
    let lines: Vec<&str> = src.lines().collect();
    functions(src)
        .into_iter()
        .filter(|f| f.lines > MAX_LINES && !says_why(&doc_above(&lines, f.line)))
        .map(|f| (f.line, format!("{} ({} lines)", f.name, f.lines)))
        .collect()
}

/// The Rust files under `dir`, recursively, leaving out build outputs and hidden folders.
fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let entries = std::fs::read_dir(dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display()));
    for entry in entries {
        let path = entry.expect("a folder entry").path();
        let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("");
        if path.is_dir() {
            if !(name.starts_with('.') || ["target", "node_modules", "dist"].contains(&name)) {
                rust_files(&path, out);
            }
        } else if name.ends_with(".rs") {
            out.push(path);
        }
    }
}

#[test]
fn every_function_past_a_hundred_lines_says_why_in_its_doc() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let mut files = Vec::new();
    rust_files(&root, &mut files);
    files.sort();
    assert!(
        files.len() > 200,
        "the workspace's Rust files are found: {}",
        files.len()
    );
    let mut wrong = Vec::new();
    for file in &files {
        let src = std::fs::read_to_string(file).unwrap_or_else(|e| panic!("{file:?}: {e}"));
        let shown = file
            .strip_prefix(&root)
            .unwrap_or(file)
            .display()
            .to_string();
        for (line, what) in unexplained(&src) {
            wrong.push(format!("{shown}:{line}: {what}"));
        }
    }
    assert!(
        wrong.is_empty(),
        "functions over {MAX_LINES} lines need a doc line beginning `{MARKER}` (or a split):\n{}",
        wrong.join("\n")
    );
}

#[test]
fn functions_are_measured_past_strings_characters_and_comments() {
    let src = "fn a() {\n    let s = \"}}\";\n    let c = '}';\n    // }\n}\n\
               trait T {\n    fn b(x: [u8; 2]);\n    fn c(&self) -> [u8; 2] { [0; 2] }\n}\n\
               fn d() {\n    let r = r#\"{\n\"#;\n    fn e() {}\n    let f: fn(u8) = drop;\n}\n";
    let found: Vec<(String, u32, u32)> = functions(src)
        .into_iter()
        .map(|f| (f.name, f.line, f.lines))
        .collect();
    let expected = [("a", 1, 5), ("c", 8, 1), ("d", 10, 6), ("e", 13, 1)];
    assert_eq!(
        found,
        expected.map(|(n, line, lines)| (n.to_string(), line, lines)),
        "each function's name, first line and length"
    );
}

#[test]
fn a_long_function_passes_only_with_the_reason_in_its_doc() {
    let long = |doc: &str| format!("{doc}fn f() {{\n{}}}\n", "    x();\n".repeat(99));
    let cases = [
        ("", 1),
        ("/// Does x.\n", 1),
        ("/// Does x. Long because it is one table.\n", 1),
        ("/// Does x.\n///\n/// Long because it is one table.\n", 0),
        (
            "/// Long because it is one table.\n#[test]\n#[allow(unused)]\n",
            0,
        ),
        ("/// Long because it is one table.\n\n", 1),
    ];
    for (doc, flagged) in cases {
        assert_eq!(
            unexplained(&long(doc)).len(),
            flagged,
            "a 101-line function with doc {doc:?}"
        );
    }
    let short = format!("fn f() {{\n{}}}\n", "    x();\n".repeat(98));
    assert_eq!(unexplained(&short), [], "a function of exactly 100 lines");
}
