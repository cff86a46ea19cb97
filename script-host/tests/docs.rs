//! docs/scripting.md's handler, event and API tables are generated from the event and API lists; this test fails when they
//! drift. `LUDUS_BLESS=1 cargo test -p ludus-script --test docs` rewrites them.

use ludus_script::{Section, api_markdown, api_types_markdown};

/// Replaces the text between each `<!-- generated from ...: NAME -->` marker and the next
/// `<!-- end of generated text -->` with its generated text.
fn regenerate(doc: &str, parts: &[(&str, String)]) -> String {
    let mut out = doc.to_string();
    for (name, text) in parts {
        let marker = format!(": {name} -->\n");
        let start = out
            .find(&marker)
            .unwrap_or_else(|| panic!("docs/scripting.md has no `{name}` marker"))
            + marker.len();
        let end = start
            + out[start..]
                .find("<!-- end of generated text -->")
                .expect("an end marker");
        out.replace_range(start..end, text);
    }
    out
}

#[test]
fn scripting_reference_tables_are_current() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../docs/scripting.md");
    let doc = std::fs::read_to_string(path).unwrap();
    let parts = [
        ("stages", ludus_core::stages_markdown()),
        ("events", ludus_core::events_markdown()),
        ("commands", api_markdown(&[Section::Command])),
        ("reads", api_markdown(&[Section::Read, Section::Helper])),
        ("types", api_types_markdown()),
    ];
    let fresh = regenerate(&doc, &parts);
    if std::env::var_os("LUDUS_BLESS").is_some() {
        std::fs::write(path, &fresh).unwrap();
    } else {
        assert!(
            fresh == doc,
            "docs/scripting.md is out of date: run LUDUS_BLESS=1 cargo test -p ludus-script --test docs"
        );
    }
}
