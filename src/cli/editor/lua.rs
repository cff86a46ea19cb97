//! `.ludus/ludus.d.lua`: lua-language-server annotations (`---@meta`) of the `ludus` API and
//! the handlers, with the game's own names, made from the declarations the docs come from:
//! the API list's typed calls and types (`ludus_script::API`, `TYPES`, `OPTION_TABLES`) and
//! the event list (`ludus_core::EVENT_KINDS`). `.luarc.json` points the server at it.
//!
//! A type of the API list becomes `ludus.` and its name in CamelCase (`spawn_opts`:
//! `ludus.SpawnOpts`); a handler's type is its name (`ludus.on_collision_enter`), which a
//! script's handler takes with `---@type ludus.on_collision_enter` above it.

use crate::cli::lint::Names;
use ludus_core::{BehaviourKind, Color, Constant, EVENT_KINDS, FieldType, GameDef, Stage};
use ludus_script::{API, Call, LUA_TYPES, NameKind, OPTION_TABLES, TYPES, type_words};
use std::fmt::Write;

/// `.luarc.json`: Lua 5.4, the libraries the sandbox leaves out disabled, and the stubs.
pub fn luarc() -> String {
    r#"{
  "runtime": {
    "version": "Lua 5.4",
    "builtin": { "io": "disable", "os": "disable", "debug": "disable", "package": "disable" }
  },
  "workspace": { "library": [".ludus"], "checkThirdParty": false }
}
"#
    .to_string()
}

/// The stubs of the API for the game `def` declares.
pub fn stubs(def: &GameDef) -> String {
    let mut out = String::from(HEAD);
    let names = Names::of_game(def);
    out.push_str("\n-- Types and the game's names.\n\n");
    for (word, doc) in TYPES {
        let _ = writeln!(out, "---{}", line(doc));
        out.push_str(&definition(word, def, &names));
        out.push('\n');
    }
    constants(&mut out, def);
    out.push_str("-- Events, and the handlers that receive them.\n\n");
    events(&mut out);
    out.push_str("-- The functions.\n\n");
    functions(&mut out);
    out.push_str(REQUIRE);
    out
}

const HEAD: &str = "---@meta ludus
-- The Ludus API for lua-language-server, with this game's names: written by `ludus stubs`
-- and `ludus new`, and by `ludus run` when the game's content changes (edits here are lost).
-- A handler takes its argument's type from a line above it:
--   ---@type ludus.on_collision_enter
--   function on_collision_enter(events) ... end

---The API: commands, reads and helpers (docs/scripting.md).
ludus = {}
";

const REQUIRE: &str =
    "---Loads `name.lua` (dots become folders) from the game folder or its `scripts/` folder,
---once, and returns what it returned.
---@param name string
---@return any
function require(name) end
";

/// One line of documentation (the declarations' texts are one line; this keeps it so).
fn line(text: &str) -> String {
    text.trim()
        .chars()
        .map(|c| if c.is_control() { ' ' } else { c })
        .collect()
}

/// `spawn_opts`: `SpawnOpts`.
fn camel(word: &str) -> String {
    word.split('_')
        .map(|w| {
            let mut c = w.chars();
            c.next()
                .map(|f| f.to_ascii_uppercase().to_string() + c.as_str())
                .unwrap_or_default()
        })
        .collect()
}

/// The annotation type of an API type: `id[]|nil` is `ludus.Id[]|nil`.
pub fn lua_type(ty: &str) -> String {
    let parts: Vec<String> = ty
        .split('|')
        .map(|part| {
            let part = part.trim();
            let word = type_words(part).next().unwrap_or(part);
            let suffix = &part[word.len()..];
            if LUA_TYPES.contains(&word) {
                part.to_string()
            } else {
                format!("ludus.{}{suffix}", camel(word))
            }
        })
        .collect();
    parts.join("|")
}

/// A string literal of Lua: names are letters, digits, `_` and `-`, but any text is escaped.
fn literal(text: &str) -> String {
    let mut out = String::from("\"");
    for c in text.chars() {
        match c {
            '"' | '\\' => {
                out.push('\\');
                out.push(c);
            }
            c if c.is_control() => {
                let _ = write!(out, "\\u{{{:x}}}", c as u32);
            }
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// `---@alias ludus.X` of string literals (and `|string` when `open`: other names are
/// allowed too); a plain string when there are none.
fn literals<S: AsRef<str>>(alias: &str, names: &[S], open: bool) -> String {
    if names.is_empty() {
        return format!("---@alias {alias} string\n");
    }
    let mut out = format!("---@alias {alias}\n");
    for n in names {
        let _ = writeln!(out, "---| {}", literal(n.as_ref()));
    }
    if open {
        out.push_str("---| string\n");
    }
    out
}

/// What a type of [`TYPES`] is: an integer, the names the game declares, a table's keys.
pub fn definition(word: &str, def: &GameDef, names: &Names) -> String {
    let alias = format!("ludus.{}", camel(word));
    if let Some((_, keys)) = OPTION_TABLES.iter().find(|(t, _)| *t == word) {
        let mut out = format!("---@class {alias}\n");
        for (key, ty) in keys.iter() {
            let _ = writeln!(out, "---@field {key}? {}", lua_type(ty));
        }
        return out;
    }
    if let Some(kind) = NameKind::ALL.iter().find(|k| k.noun() == word) {
        return literals(&alias, names.of(*kind), false);
    }
    match word {
        "id" | "timer_id" | "tags" => format!("---@alias {alias} integer\n"),
        "music" => {
            let tracks: Vec<&str> = def.music.iter().map(|m| m.name.as_str()).collect();
            literals(&alias, &tracks, false)
        }
        "variable" => {
            let vars: Vec<&String> = def.variables.keys().collect();
            literals(&alias, &vars, true)
        }
        "color" => {
            let colors: Vec<&str> = Color::NAMES.iter().map(|(n, _)| *n).collect();
            literals(&alias, &colors, true)
        }
        "behaviour" => literals(&alias, BehaviourKind::NAMES, false),
        // A type this list does not know yet: nothing checked (a test keeps the list whole).
        _ => format!("---@alias {alias} any\n"),
    }
}

/// `ludus.const`: each constant with its type.
fn constants(out: &mut String, def: &GameDef) {
    out.push_str("---The game's `[constants]`, read-only.\n---@class ludus.Constants\n");
    for (name, value) in &def.constants {
        let ty = match value {
            Constant::Bool(_) => "boolean",
            Constant::Int(_) => "integer",
            Constant::Float(_) => "number",
            Constant::Text(_) => "string",
        };
        let _ = writeln!(out, "---@field {name} {ty}");
    }
    out.push('\n');
}

/// The annotation type of an event field.
fn field_type(ty: FieldType) -> String {
    match ty {
        FieldType::Int => "integer".into(),
        FieldType::Id => "ludus.Id".into(),
        FieldType::OptId => "ludus.Id?".into(),
        FieldType::Num | FieldType::Num64 => "number".into(),
        FieldType::OptNum => "number?".into(),
        FieldType::Kind => "ludus.Archetype".into(),
        FieldType::OptKind => "ludus.Archetype?".into(),
        FieldType::Tags => "ludus.Tags".into(),
        FieldType::OptTags => "ludus.Tags?".into(),
        FieldType::Action => "ludus.Action".into(),
        FieldType::Bool => "boolean".into(),
        FieldType::Text => "string".into(),
        FieldType::Choice(options) => {
            let options: Vec<String> = options.iter().map(|o| literal(o)).collect();
            options.join("|")
        }
    }
}

/// The class of an event record layout: `contact` is `ludus.ContactEvent`.
pub fn event_class(layout: &str) -> String {
    format!("ludus.{}Event", camel(layout))
}

fn events(out: &mut String) {
    let mut done: Vec<&str> = Vec::new();
    for spec in EVENT_KINDS {
        if done.contains(&spec.layout) {
            continue;
        }
        done.push(spec.layout);
        let _ = writeln!(out, "---@class {}", event_class(spec.layout));
        // A field without a doc shares the doc of the field before it (`x`, `y`).
        let mut doc = "";
        for f in spec.fields {
            if !f.doc.is_empty() {
                doc = f.doc;
            }
            let _ = writeln!(
                out,
                "---@field {} {} {}",
                f.name,
                field_type(f.ty),
                line(doc)
            );
        }
        out.push('\n');
    }
    for spec in EVENT_KINDS {
        let stage = if spec.stage == Stage::One { 1 } else { 2 };
        let class = event_class(spec.layout);
        let (param, ty) = if spec.single {
            ("info", class)
        } else {
            ("events", format!("{class}[]"))
        };
        let _ = writeln!(
            out,
            "---`{}({param})`, stage {stage}: {}.\n---@alias ludus.{} fun({param}: {ty})\n",
            spec.handler,
            line(spec.doc),
            spec.handler
        );
    }
}

fn functions(out: &mut String) {
    for f in API {
        let call = Call::parse(f.call);
        let _ = writeln!(out, "---{}", line(f.doc));
        if call.field {
            // `ludus.const.NAME`.
            let _ = writeln!(out, "---@type ludus.Constants\nludus.{} = {{}}\n", f.name);
            continue;
        }
        for p in &call.params {
            let optional = if p.optional { "?" } else { "" };
            let _ = writeln!(out, "---@param {}{optional} {}", p.name, lua_type(p.ty));
        }
        for r in &call.returns {
            let _ = writeln!(out, "---@return {}", lua_type(r));
        }
        let params: Vec<&str> = call.params.iter().map(|p| p.name).collect();
        let _ = writeln!(
            out,
            "function ludus.{}({}) end\n",
            f.name,
            params.join(", ")
        );
    }
}
