//! `ludus check`'s lints of a game's Lua: the files of `[scripts] files` and every module they
//! `require` (by a literal name, found where `require` finds it), parsed with full_moon.
//!
//! Each file is compiled by Lua itself, which decides whether it is valid. A file Lua refuses
//! is one error with Lua's message, at the parser's line and column when the parser refuses it
//! too, else at Lua's line. A file Lua accepts but the parser does not (the two disagree, as on
//! `;;`) is a warning that its lints were skipped, never an error. [`rules`] lists the lints
//! and their severities; [`walk`] what they look at.

mod rules;
mod source;
mod walk;

#[cfg(test)]
mod tests;

pub use rules::Names;

use full_moon::LuaVersion;
use ludus_content::Diagnostic;
use ludus_core::GameDef;
use ludus_script::{ModuleSource, Script, module_paths};
use source::Source;
use walk::Named;

/// What a file is to the host: one of `[scripts] files`, whose global `on_*` functions are its
/// handlers, or a module loaded by `require`, whose globals only it sees.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Role {
    Script,
    Module,
}

/// Every lint of the game's scripts and their modules, file by file (scripts in their order,
/// then modules in the order they are first required), each file's in source order. `shown`
/// turns a path in the game folder into the path messages show.
pub fn lint_game(
    def: &GameDef,
    scripts: &[Script],
    modules: &dyn ModuleSource,
    shown: &dyn Fn(&str) -> String,
) -> Vec<Diagnostic> {
    let names = Names::of_game(def);
    let mut queue: Vec<(String, String, Role)> = scripts
        .iter()
        .map(|s| (s.path.clone(), s.text.clone(), Role::Script))
        .collect();
    let mut out = Vec::new();
    let mut next = 0;
    while let Some((path, text, role)) = queue.get(next).cloned() {
        next += 1;
        let shown_path = shown(&path);
        let source = Source::new(&shown_path, &text);
        let Linted {
            mut diagnostics,
            requires,
        } = lint_file(&source, &path, role, &names);
        for module in requires {
            match find_module(modules, &module.name) {
                Ok((path, text)) => {
                    if !queue.iter().any(|(p, _, _)| *p == path) {
                        queue.push((path, text, Role::Module));
                    }
                }
                Err((message, help)) => {
                    diagnostics.push(source.at(module.span, message).with_help(help));
                }
            }
        }
        diagnostics.sort_by_key(|d| (d.line, d.col));
        out.extend(diagnostics);
    }
    out
}

/// What one file's lints found, and the modules it requires.
#[derive(Debug, Default)]
pub struct Linted {
    pub diagnostics: Vec<Diagnostic>,
    pub requires: Vec<Named>,
}

/// Every lint of one file (`path` in the game folder), not sorted. A file that does not compile
/// has that one error and no lints.
pub fn lint_file(source: &Source, path: &str, role: Role, names: &Names) -> Linted {
    let compiled = ludus_script::compile_check(path, source.text());
    let parsed = full_moon::parse_fallible(source.text(), LuaVersion::lua54()).into_result();
    let problem = match (compiled, parsed) {
        (Ok(()), Ok(ast)) => {
            let facts = walk::facts(&ast);
            return Linted {
                diagnostics: rules::lint(source, &facts, role, names),
                requires: facts.requires,
            };
        }
        (Err(fault), parsed) => {
            let lua_says = fault.message.lines().next().unwrap_or("").to_string();
            let message = format!("the script does not compile: {lua_says}");
            // The parser's position has a column; Lua's has only the line.
            match parsed.err().as_deref().and_then(<[_]>::first) {
                Some(e) => source
                    .at(error_span(e), message)
                    .with_help(e.error_message().to_string()),
                None => {
                    let line = fault.location.as_deref().and_then(|l| l.rsplit(':').next());
                    source.at_line(line.and_then(|l| l.parse().ok()).unwrap_or(1), message)
                }
            }
        }
        (Ok(()), Err(errors)) => {
            let parser_says = errors.first().map(|e| e.error_message().to_string());
            let span = errors.first().map(error_span).unwrap_or_default();
            source
                .at(
                    span,
                    "the script linter cannot parse this file, so it was not linted",
                )
                .with_help(format!(
                    "{} (Lua itself accepts the file)",
                    parser_says.unwrap_or_default()
                ))
                .warning()
        }
    };
    Linted {
        diagnostics: vec![problem],
        requires: Vec::new(),
    }
}

fn error_span(e: &full_moon::Error) -> walk::Span {
    let (start, end) = e.range();
    walk::Span {
        start: start.bytes(),
        end: end.bytes(),
    }
}

/// The path and text of module `name`, found where `require` looks; else the error and a help.
fn find_module(
    modules: &dyn ModuleSource,
    name: &str,
) -> Result<(String, String), (String, String)> {
    let Some(paths) = module_paths(name) else {
        return Err((
            format!("`{name}` is not a module name"),
            "module names are dotted identifiers such as \"util\" or \"ai.steering\", found in \
             the game folder"
                .into(),
        ));
    };
    let mut refusals = Vec::new();
    for path in paths {
        match modules.read(&path) {
            Ok(text) => return Ok((path, text)),
            Err(e) => refusals.push(format!("`{path}` ({e})")),
        }
    }
    Err((
        format!("no module `{name}` could be read"),
        format!("`require` reads {}", refusals.join(" or ")),
    ))
}
