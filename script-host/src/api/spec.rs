//! What the API list (`functions.rs`) says of each `ludus.*` function, and the docs tables made
//! from it.

/// What a function is for, and when it may be called.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Section {
    /// Asks for a change; checked when sent, applied after the stage. Handlers only.
    Command,
    /// Reads the state at the start of the stage. Handlers only.
    Read,
    /// Pure helpers (no world access); anywhere, top-level code included.
    Helper,
}

/// One `ludus.*` function.
#[derive(Clone, Copy, Debug)]
pub struct ApiFunction {
    pub name: &'static str,
    /// The call as the docs show it, without `ludus.`: `damage(id, amount [, source])`.
    pub call: &'static str,
    pub section: Section,
    /// Implemented by the prelude in Lua rather than registered from Rust.
    pub lua: bool,
    pub doc: &'static str,
}

/// The docs tables: commands, then reads and helpers.
pub fn markdown(section: &[Section]) -> String {
    let head = if section.contains(&Section::Command) {
        "| command | effect |\n| --- | --- |\n"
    } else {
        "| function | returns |\n| --- | --- |\n"
    };
    let mut out = String::from(head);
    for f in super::API.iter().filter(|f| section.contains(&f.section)) {
        out.push_str(&format!("| `ludus.{}` | {} |\n", f.call, f.doc.trim()));
    }
    out
}
