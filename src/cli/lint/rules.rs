//! The lints: what a script's [`Facts`] say that cannot be right for this game.
//!
//! | lint | severity |
//! | --- | --- |
//! | a global function named like a handler (`on_*`, or close to one) that is not one and that nothing in the file calls | error when a handler is close (`on_strat`), else a warning |
//! | a handler defined in a module, where handlers are not called | warning |
//! | `ludus.X` that the API does not have and the script does not define | error |
//! | a literal name the game does not declare, passed to a `ludus.*` function | error |
//! | `ludus.const.Y` that `[constants]` does not declare | error |
//! | a literal argument of a kind its type refuses, or a required one left out (`args.rs`) | error |
//!
//! Each is a fault (or a handler never called) once the game runs; the warnings are names that
//! may be deliberate.

use super::source::Source;
use super::walk::{Facts, Named};
use ludus_content::Diagnostic;
use ludus_core::{EVENT_KINDS, GameDef, closest, edit_distance};
use ludus_script::{API, NameKind};
use std::cell::RefCell;
use std::collections::{HashMap, HashSet};

/// What a file is to the host: one of `[scripts] files`, whose global `on_*` functions are its
/// handlers, or a module loaded by `require`, whose globals only it sees.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Role {
    Script,
    Module,
}

/// The most unknown names of one file that are compared with the known ones for a "did you
/// mean": each comparison takes time in proportion to the names the game declares.
pub const MAX_SUGGESTED: usize = 100;

/// The most edits a global function's name may be from a handler's to be taken for a
/// misspelt handler when it does not start with `on_`.
const NEAR_HANDLER: usize = 2;

/// Every name the game declares, by kind, in the order the game declares them.
#[derive(Debug, Default)]
pub struct Names {
    pub archetypes: Vec<String>,
    pub effects: Vec<String>,
    pub sounds: Vec<String>,
    pub levels: Vec<String>,
    /// Every archetype's cooldowns, each name once.
    pub cooldowns: Vec<String>,
    /// Every archetype's animations, each name once.
    pub animations: Vec<String>,
    pub actions: Vec<String>,
    pub tags: Vec<String>,
    pub constants: Vec<String>,
    /// Each kind's names as a set, made at its first look (one look per use, however many
    /// names the game declares).
    pub index: RefCell<HashMap<NameKind, HashSet<String>>>,
}

impl Names {
    pub fn of_game(def: &GameDef) -> Names {
        let names = |it: &mut dyn Iterator<Item = &String>| it.cloned().collect::<Vec<_>>();
        // Each name once, in the order the archetypes declare them.
        let distinct = |it: &mut dyn Iterator<Item = &String>| {
            let mut seen = HashSet::new();
            it.filter(|n| seen.insert(n.as_str()))
                .cloned()
                .collect::<Vec<_>>()
        };
        let archetypes = &def.archetypes;
        let cooldowns = distinct(
            &mut archetypes
                .iter()
                .flat_map(|a| &a.cooldowns)
                .map(|c| &c.name),
        );
        let animations = distinct(
            &mut archetypes
                .iter()
                .flat_map(|a| &a.animations)
                .map(|a| &a.name),
        );
        Names {
            archetypes: names(&mut def.archetypes.iter().map(|a| &a.name)),
            effects: names(&mut def.effects.iter().map(|e| &e.name)),
            sounds: names(&mut def.sounds.iter().map(|s| &s.name)),
            levels: names(&mut def.levels.iter().map(|l| &l.name)),
            cooldowns,
            animations,
            actions: names(&mut def.actions.iter().map(|(_, a)| &a.name)),
            tags: def.tags.clone(),
            constants: names(&mut def.constants.keys()),
            index: RefCell::default(),
        }
    }

    /// Whether the game declares `name` as a `kind`.
    pub fn declares(&self, kind: NameKind, name: &str) -> bool {
        let mut index = self.index.borrow_mut();
        let names = index
            .entry(kind)
            .or_insert_with(|| self.of(kind).iter().cloned().collect());
        names.contains(name)
    }

    pub fn of(&self, kind: NameKind) -> &[String] {
        match kind {
            NameKind::Archetype => &self.archetypes,
            NameKind::Effect => &self.effects,
            NameKind::Sound => &self.sounds,
            NameKind::Level => &self.levels,
            NameKind::Cooldown => &self.cooldowns,
            NameKind::Animation => &self.animations,
            NameKind::Action => &self.actions,
            NameKind::Tag => &self.tags,
            NameKind::Constant => &self.constants,
        }
    }
}

/// `` `a`, `b`, `c` `` with at most a dozen names, then how many more.
fn list<S: AsRef<str>>(names: &[S]) -> String {
    const SHOWN: usize = 12;
    let mut out: Vec<String> = names
        .iter()
        .take(SHOWN)
        .map(|n| format!("`{}`", n.as_ref()))
        .collect();
    if names.len() > SHOWN {
        out.push(format!("and {} more", names.len() - SHOWN));
    }
    out.join(", ")
}

fn handlers() -> impl Iterator<Item = &'static str> {
    EVENT_KINDS.iter().map(|k| k.handler)
}

/// A name the script uses that the API or the game may not have.
enum Use<'a> {
    Api(&'a Named),
    Declared(NameKind, &'a Named),
}

/// Every lint of one parsed file. Only the first [`MAX_SUGGESTED`] unknown names (in source
/// order) are compared with the known ones for a "did you mean".
pub fn lint(source: &Source, facts: &Facts, role: Role, names: &Names) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    for f in &facts.global_functions {
        out.extend(handler(source, facts, f, role));
    }
    if facts.ludus_replaced {
        return out;
    }
    let mut uses: Vec<Use> = facts.api.iter().map(Use::Api).collect();
    uses.extend(facts.names.iter().map(|u| Use::Declared(u.kind, &u.name)));
    uses.extend(
        facts
            .constants
            .iter()
            .map(|c| Use::Declared(NameKind::Constant, c)),
    );
    uses.sort_by_key(|u| match u {
        Use::Api(n) | Use::Declared(_, n) => n.span.start,
    });
    let mut suggestions = MAX_SUGGESTED;
    for u in uses {
        let problem = match u {
            Use::Api(f) => unknown_api(source, facts, f, &mut suggestions),
            Use::Declared(kind, n) => undeclared(source, names, kind, n, &mut suggestions),
        };
        out.extend(problem);
    }
    // A function the script puts in `ludus` itself takes what it takes.
    for call in facts
        .calls
        .iter()
        .filter(|c| !facts.api_defined.contains(&c.function))
    {
        out.extend(super::args::check(source, call));
    }
    out
}

/// `ludus.X` where the API has no `X` and the script defines none.
fn unknown_api(
    source: &Source,
    facts: &Facts,
    f: &Named,
    suggestions: &mut usize,
) -> Option<Diagnostic> {
    if API.iter().any(|a| a.name == f.name) || facts.api_defined.contains(&f.name) {
        return None;
    }
    let help = match suggest(&f.name, API.iter().map(|a| a.name), suggestions) {
        Some(k) => format!("did you mean `ludus.{k}`?"),
        None => "the `ludus` functions are listed in docs/scripting.md".into(),
    };
    let message = format!("`ludus.{}` does not exist", f.name);
    Some(
        source
            .at(f.span, message)
            .with_help(help)
            .with_code("unknown-function"),
    )
}

/// The closest of `known` to `name`, while `left` allows another comparison (one fewer after).
fn suggest<'a>(
    name: &str,
    known: impl IntoIterator<Item = &'a str>,
    left: &mut usize,
) -> Option<&'a str> {
    *left = left.checked_sub(1)?;
    closest(name, known)
}

/// A global function `f` that looks like a handler and is not one (or is one in a module).
fn handler(source: &Source, facts: &Facts, f: &Named, role: Role) -> Option<Diagnostic> {
    let name = f.name.as_str();
    if facts.used_globals.contains(name) {
        // Called or passed around by the script itself: a function of its own.
        return None;
    }
    let is_handler = handlers().any(|h| h == name);
    match role {
        Role::Module if is_handler => {
            let message = format!("`{name}` is defined in a module, where handlers are not called");
            let help = "handlers are called only in the files of `[scripts] files`: define it \
                        there (a module can return a function for a script to call)";
            return Some(
                source
                    .at(f.span, message)
                    .with_code("not-a-handler")
                    .with_help(help)
                    .warning(),
            );
        }
        Role::Module => return None,
        Role::Script if is_handler => return None,
        Role::Script => {}
    }
    let prefixed = name.starts_with("on_");
    // Without `on_`, only a name within `NEAR_HANDLER` edits (case counting) is taken for a
    // misspelt handler.
    let near =
        closest(name, handlers()).filter(|h| prefixed || edit_distance(name, h) <= NEAR_HANDLER);
    let message = format!("`{name}` is not an event handler");
    if let Some(h) = near {
        return Some(
            source
                .at(f.span, message)
                .with_code("not-a-handler")
                .with_help(format!("did you mean `{h}`?")),
        );
    }
    if !prefixed {
        return None;
    }
    let all: Vec<String> = handlers().map(|h| format!("`{h}`")).collect();
    let help = format!(
        "nothing in this file calls it, and the host calls only {}",
        all.join(", ")
    );
    Some(
        source
            .at(f.span, message)
            .with_code("not-a-handler")
            .with_help(help)
            .warning(),
    )
}

/// `name` as a `kind` the game does not declare.
fn undeclared(
    source: &Source,
    names: &Names,
    kind: NameKind,
    name: &Named,
    suggestions: &mut usize,
) -> Option<Diagnostic> {
    if names.declares(kind, &name.name) {
        return None;
    }
    let known = names.of(kind);
    let noun = kind.noun();
    let message = match kind {
        NameKind::Cooldown => format!("no archetype declares a cooldown `{}`", name.name),
        NameKind::Animation => format!("no archetype declares an animation `{}`", name.name),
        NameKind::Constant => format!("`ludus.const.{}` is not declared", name.name),
        _ => format!("unknown {noun} `{}`", name.name),
    };
    let help = match suggest(&name.name, known.iter().map(String::as_str), suggestions) {
        Some(k) => format!("did you mean `{k}`?"),
        None if known.is_empty() => format!("the game declares no {noun}s"),
        None => format!("the game's {noun}s are {}", list(known)),
    };
    Some(
        source
            .at(name.span, message)
            .with_help(help)
            .with_code("undeclared"),
    )
}
