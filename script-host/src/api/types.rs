//! The types of the API: each function's call in the API list is written with them
//! (`spawn(kind: archetype, x: number, y: number [, opts: spawn_opts]) -> id`), and the docs
//! tables and editors' stubs (`ludus stubs`) are read from those calls, so a function's
//! arguments, their types and what it returns are written once.
//!
//! A type is a Lua type (`integer`, `number`, `string`, `boolean`, `table`, `nil`, `any`),
//! one of [`TYPES`] (an entity id, a name the game declares...), or made of them: `a|b`
//! (either), `a?` (or nil), `a[]` (an array of them).

use super::args::{SPAWN_OPTIONS, TIMER_OPTIONS};
use super::behave::{ATTACH_OPTIONS, BEHAVIOUR_OPTIONS};
use super::looks::LOOK_KEYS;
use super::spec::ApiFunction;

/// The types scripts pass and get that are not plain Lua types: each with what it is.
pub const TYPES: &[(&str, &str)] = &[
    (
        "id",
        "an entity id: an integer, its creation sequence, unique within a level",
    ),
    (
        "timer_id",
        "a timer's id, as `ludus.after` and `ludus.every` return it: an integer",
    ),
    ("tags", "a tag set (an integer): test it with `ludus.has`"),
    (
        "archetype",
        "the name of an archetype the game declares (`[archetypes.NAME]`)",
    ),
    (
        "effect",
        "the name of an effect the game declares (`[effects.NAME]`)",
    ),
    (
        "sound",
        "the name of a sound the game declares (`[sounds.NAME]`)",
    ),
    (
        "music",
        "the name of a track the game declares (`[music.NAME]`)",
    ),
    ("level", "the name of one of the game's levels"),
    (
        "cooldown",
        "the name of a cooldown some archetype declares (`cooldowns`)",
    ),
    (
        "animation",
        "the name of an animation some archetype declares (`animations`)",
    ),
    (
        "action",
        "the name of an input action the game declares (`[input.actions.NAME]`)",
    ),
    ("tag", "one of the game's `tags`"),
    ("constant", "the name of one of the game's `[constants]`"),
    (
        "variable",
        "a game variable's name: any name, those of `[variables]` set from the start",
    ),
    (
        "color",
        "a colour: a name such as `\"red\"`, or `\"#rgb\"`, `\"#rrggbb\"`, `\"#rrggbbaa\"`",
    ),
    (
        "behaviour",
        "a behaviour's kind, as an archetype's `behaviour` table names it",
    ),
    ("spawn_opts", "a table of spawn options"),
    ("timer_opts", "a table of timer options"),
    ("look", "a table of how an entity is drawn"),
    ("behaviour_opts", "a table of behaviour options"),
    ("attach_opts", "a table of attachment options"),
];

/// The Lua types a call may name.
pub const LUA_TYPES: &[&str] = &[
    "integer", "number", "string", "boolean", "table", "nil", "any",
];

/// Option tables, by their type: each key and its type.
pub const OPTION_TABLES: &[(&str, &[(&str, &str)])] = &[
    ("spawn_opts", &SPAWN_OPTIONS),
    ("timer_opts", &TIMER_OPTIONS),
    ("look", &LOOK_KEYS),
    ("behaviour_opts", &BEHAVIOUR_OPTIONS),
    ("attach_opts", &ATTACH_OPTIONS),
];

/// A function's call, read from its text in the API list.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Call<'a> {
    /// The arguments, in order.
    pub params: Vec<Param<'a>>,
    /// The type of each value it returns, in order (none: it returns nothing).
    pub returns: Vec<&'a str>,
    /// A value rather than a function (`const.NAME`).
    pub field: bool,
}

/// One argument of a [`Call`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Param<'a> {
    /// Its name; `...` for any number of values.
    pub name: &'a str,
    /// Its type (empty when the call does not say).
    pub ty: &'a str,
    /// It may be left out (written after a `[`).
    pub optional: bool,
}

impl ApiFunction {
    /// The function's call, read (see [`Call`]).
    pub fn signature(&self) -> Call<'static> {
        Call::parse(self.call)
    }
}

impl<'a> Call<'a> {
    /// Reads `name(a: t [, b: u]) -> r, s`; text after the name without `(` is a field.
    pub fn parse(text: &'a str) -> Call<'a> {
        let (head, returns) = match text.split_once(" -> ") {
            Some((head, r)) => (head, r.split(',').map(str::trim).collect()),
            None => (text, Vec::new()),
        };
        let Some((_, rest)) = head.split_once('(') else {
            return Call {
                params: Vec::new(),
                returns,
                field: true,
            };
        };
        let inside = rest.rsplit_once(')').map_or(rest, |(inside, _)| inside);
        let mut params = Vec::new();
        let mut optional = false;
        let mut start = 0;
        let bytes = inside.as_bytes();
        let mut push = |part: &'a str, optional: bool| {
            let part = part.trim_matches(|c: char| c == ']' || c.is_whitespace());
            let part = part.trim_start_matches(|c: char| c == '[' || c.is_whitespace());
            if part.is_empty() {
                return;
            }
            let (name, ty) = match part.split_once(':') {
                Some((name, ty)) => (name.trim(), ty.trim()),
                None => (part, ""),
            };
            params.push(Param { name, ty, optional });
        };
        let mut i = 0;
        while i < bytes.len() {
            match bytes[i] {
                // `[]` is part of a type: an array.
                b'[' if bytes.get(i + 1) == Some(&b']') => i += 1,
                b'[' => {
                    push(&inside[start..i], optional);
                    start = i + 1;
                    optional = true;
                }
                b',' => {
                    push(&inside[start..i], optional);
                    start = i + 1;
                }
                _ => {}
            }
            i += 1;
        }
        push(&inside[start..], optional);
        Call {
            params,
            returns,
            field: false,
        }
    }
}

/// The names a type is made of: `id[]|nil` is made of `id` and `nil`.
pub fn type_words(ty: &str) -> impl Iterator<Item = &str> {
    ty.split('|')
        .map(|t| t.trim().trim_end_matches('?').trim_end_matches("[]"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::api::API;
    use crate::api::spec::NameKind;

    #[test]
    fn calls_are_read_with_their_types() {
        let p = |name, ty, optional| Param { name, ty, optional };
        // (text, params, returns, field)
        let cases = [
            (
                "spawn(kind: archetype, x: number, y: number [, opts: spawn_opts]) -> id",
                vec![
                    p("kind", "archetype", false),
                    p("x", "number", false),
                    p("y", "number", false),
                    p("opts", "spawn_opts", true),
                ],
                vec!["id"],
                false,
            ),
            (
                "sound(name: sound [, volume: number [, pitch: number]])",
                vec![
                    p("name", "sound", false),
                    p("volume", "number", true),
                    p("pitch", "number", true),
                ],
                vec![],
                false,
            ),
            (
                "random([m: integer [, n: integer]]) -> number",
                vec![p("m", "integer", true), p("n", "integer", true)],
                vec!["number"],
                false,
            ),
            (
                "pos(id: id) -> number?, number?",
                vec![p("id", "id", false)],
                vec!["number?", "number?"],
                false,
            ),
            (
                "find(tag: tag) -> id[]",
                vec![p("tag", "tag", false)],
                vec!["id[]"],
                false,
            ),
            (
                "set(name: variable, value: number|string)",
                vec![
                    p("name", "variable", false),
                    p("value", "number|string", false),
                ],
                vec![],
                false,
            ),
            ("log(...: any)", vec![p("...", "any", false)], vec![], false),
            ("restart()", vec![], vec![], false),
            ("const.NAME", vec![], vec![], true),
        ];
        for (text, params, returns, field) in cases {
            let call = Call::parse(text);
            assert_eq!(call.params, params, "{text}: arguments");
            assert_eq!(call.returns, returns, "{text}: returns");
            assert_eq!(call.field, field, "{text}: field");
        }
    }

    /// Every argument and result of every function has a type, made of Lua types and
    /// [`TYPES`]; each option table's keys too; and an argument that names something the
    /// game declares has that kind's type.
    #[test]
    fn every_function_is_typed_with_known_types() {
        let known = |w: &str| LUA_TYPES.contains(&w) || TYPES.iter().any(|(t, _)| *t == w);
        for f in API {
            let call = f.signature();
            if call.field {
                continue;
            }
            for (i, p) in call.params.iter().enumerate() {
                assert!(
                    !p.ty.is_empty(),
                    "ludus.{}: `{}` has a type",
                    f.name,
                    p.name
                );
                for w in type_words(p.ty) {
                    assert!(
                        known(w),
                        "ludus.{}: `{}` has the unknown type `{w}`",
                        f.name,
                        p.name
                    );
                }
                if let Some((index, kind)) = f.name_arg
                    && index == i
                {
                    assert_eq!(p.ty, kind.noun(), "ludus.{}: `{}`", f.name, p.name);
                }
            }
            for r in &call.returns {
                assert!(type_words(r).all(known), "ludus.{}: returns `{r}`", f.name);
            }
        }
        for (table, keys) in OPTION_TABLES {
            assert!(known(table), "`{table}` is a type");
            for (key, ty) in keys.iter() {
                assert!(type_words(ty).all(known), "{table}.{key}: `{ty}`");
            }
        }
        for kind in NameKind::ALL {
            assert!(
                known(kind.noun()),
                "the names of a {} are a type",
                kind.noun()
            );
        }
        for (word, _) in TYPES
            .iter()
            .filter(|(w, _)| w.ends_with("_opts") || *w == "look")
        {
            assert!(
                OPTION_TABLES.iter().any(|(t, _)| t == word),
                "`{word}` has its keys"
            );
        }
    }
}
