//! `ludus check`'s lints of a game's Lua: the files of `[scripts] files` and every module they
//! `require` (by a literal name, found where `require` finds it), parsed with full_moon.
//!
//! Each file is compiled by Lua itself, which decides whether it is valid. A file Lua refuses
//! is one error with Lua's message, at the parser's line and column when the parser refuses it
//! too, else at Lua's line. A file Lua accepts but the parser does not (the two disagree, as on
//! `;;`) is a warning that its lints were skipped, never an error; so is a file too long or
//! nested too deep for the parser ([`shape`] says which: they are not parsed). [`rules`] lists
//! the lints and their severities; [`walk`] what they look at.

mod args;
mod hud;
mod rules;
mod shape;
mod source;
mod walk;

#[cfg(test)]
mod tests;

pub use rules::{Names, Role};

use full_moon::LuaVersion;
use ludus_content::{Diagnostic, HudName};
use ludus_core::GameDef;
use ludus_script::{ModuleSource, Script, module_paths};
use shape::{Bound, MAX_TOKENS, TooLarge};
use source::Source;
use walk::Named;

/// Every lint of the game's scripts and their modules, file by file (scripts in their order,
/// then modules in the order they are first required), each file's in source order; before
/// them, the names the HUD reads that neither the content declares nor a script sets
/// (`hud_names`, see [`hud::unset`]). `shown` turns a path in the game folder into the path
/// messages show.
pub fn lint_game(
    def: &GameDef,
    scripts: &[Script],
    modules: &dyn ModuleSource,
    hud_names: &[HudName],
    shown: &dyn Fn(&str) -> String,
) -> Vec<Diagnostic> {
    let names = Names::of_game(def);
    let mut set = hud::Set::default();
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
            variables,
        } = lint_file(&source, &path, role, &names);
        set.add(variables);
        for module in requires {
            match find_module(modules, &module.name) {
                Ok((path, text)) => {
                    if !queue.iter().any(|(p, _, _)| *p == path) {
                        queue.push((path, text, Role::Module));
                    }
                }
                Err((message, help)) => {
                    diagnostics.push(
                        (source.at(module.span, message).with_help(help)).with_code("module"),
                    );
                }
            }
        }
        diagnostics.sort_by_key(|d| (d.line, d.col));
        out.extend(diagnostics);
    }
    let mut hud = hud::unset(hud_names, def, &set);
    hud.append(&mut out);
    hud
}

/// What one file's lints found, and the modules it requires.
#[derive(Debug, Default)]
pub struct Linted {
    pub diagnostics: Vec<Diagnostic>,
    pub requires: Vec<Named>,
    /// The variables the file sets (see [`hud::Set`]): `None` when it was not linted.
    pub variables: Option<hud::Set>,
}

/// Every lint of one file (`path` in the game folder), not sorted. A file that does not compile
/// has that one error and no lints; a file Lua accepts and the parser cannot read, one warning.
pub fn lint_file(source: &Source, path: &str, role: Role, names: &Names) -> Linted {
    let compiled = ludus_script::compile_check(path, source.text());
    let parsed = parse(source.text());
    let problem = match (compiled, parsed) {
        (Ok(()), Parsed::Facts(facts)) => {
            return Linted {
                diagnostics: rules::lint(source, &facts, role, names),
                variables: Some(hud::Set {
                    names: facts.variables_set.iter().cloned().collect(),
                    computed: facts.variables_set_computed,
                }),
                requires: facts.requires,
            };
        }
        (Err(fault), parsed) => {
            let lua_says = fault.message.lines().next().unwrap_or("").to_string();
            let message = format!("the script does not compile: {lua_says}");
            // The parser's position has a column; Lua's has only the line (and would have
            // none if its own stack ran out: then where the file passed the parser's bound,
            // inside the same nesting).
            let line = fault.location.as_deref().and_then(|l| l.rsplit(':').next());
            let d = match (parsed, line.and_then(|l| l.parse().ok())) {
                (Parsed::Refused { span, message: e }, _) => source.at(span, message).with_help(e),
                (_, Some(line)) => source.at_line(line, message),
                (Parsed::TooLarge(too), None) => source.at(too.span, message),
                (_, None) => source.at_line(1, message),
            };
            d.with_code("lua-syntax")
        }
        (Ok(()), Parsed::Refused { span, message }) => source
            .at(
                span,
                "the script linter cannot parse this file, so it was not linted",
            )
            .with_help(format!("{message} (Lua itself accepts the file)"))
            .warning()
            .with_code("not-linted"),
        (Ok(()), Parsed::TooLarge(too)) => {
            let (message, help) = match too.why {
                Bound::Tokens => (
                    "this file is too long for the script linter, so it was not linted",
                    format!(
                        "the linter reads at most {MAX_TOKENS} tokens of a file (names, \
                         numbers, strings and symbols), and this is the first past them; Lua \
                         itself accepts the file"
                    ),
                ),
                Bound::Depth => (
                    "the script linter cannot read code nested this deep, so the file was not \
                     linted",
                    "the linter reads nested blocks and brackets, and chains of operators in \
                     one expression, up to a bound that this passes here; Lua itself accepts \
                     the file: split the expression (or the nesting) to have it linted"
                        .to_string(),
                ),
            };
            source
                .at(too.span, message)
                .with_help(help)
                .warning()
                .with_code("not-linted")
        }
        (Ok(()), Parsed::Failed(why)) => source
            .at_line(
                1,
                "the script linter failed on this file, so it was not linted",
            )
            .with_help(format!("{why} (Lua itself accepts the file)"))
            .warning()
            .with_code("not-linted"),
    };
    Linted {
        diagnostics: vec![problem],
        requires: Vec::new(),
        variables: None,
    }
}

/// What the parser made of a file.
enum Parsed {
    /// What the file defines and names.
    Facts(Box<walk::Facts>),
    /// The parser's first error: where, and its message.
    Refused { span: walk::Span, message: String },
    /// Not parsed: the file passes one of the parser's bounds (see [`shape`]).
    TooLarge(TooLarge),
    /// The parser could not run, or failed (why).
    Failed(String),
}

/// Parses `text` and collects its [`walk::Facts`], on a thread with the stack [`shape`] sizes
/// for it, when it is within the parser's bounds. The tree never leaves the thread: its drop
/// recurses too.
fn parse(text: &str) -> Parsed {
    if let Err(too) = shape::measure(text) {
        return Parsed::TooLarge(too);
    }
    let work = move || match full_moon::parse_fallible(text, LuaVersion::lua54()).into_result() {
        Ok(ast) => Parsed::Facts(Box::new(walk::facts(&ast))),
        Err(errors) => match errors.first() {
            Some(e) => Parsed::Refused {
                span: error_span(e),
                message: e.error_message().to_string(),
            },
            None => Parsed::Failed("the script parser gave no reason".into()),
        },
    };
    std::thread::scope(|scope| {
        let thread = std::thread::Builder::new()
            .name("lint".into())
            .stack_size(shape::PARSER_STACK)
            .spawn_scoped(scope, work);
        match thread {
            Ok(thread) => thread
                .join()
                .unwrap_or_else(|_| Parsed::Failed("the script parser stopped on it".into())),
            Err(e) => Parsed::Failed(format!("the script parser's thread did not start: {e}")),
        }
    })
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
