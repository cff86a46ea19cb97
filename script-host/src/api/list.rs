//! What is derived from the API list ([`API`]): the arguments that name something the game
//! declares, and the docs' tables.

use super::functions::API;
use super::spec::{NameKind, Section};
use super::types::{OPTION_TABLES, TYPES};

/// Which argument of which `ludus.*` function names something the game declares: the
/// function, the argument's 0-based index, and the kind of name, in the order of
/// [`API`]. A call with a name the game does not declare faults when it runs;
/// `ludus check` reports string literals passed there. It comes from the argument types of the
/// API list ([`ApiFunction::name_arg`](super::spec::ApiFunction::name_arg)), so it names exactly the arguments the functions
/// convert as names.
pub const NAME_ARGS: &[(&str, usize, NameKind)] = &NAME_ARG_LIST;

const NAME_ARG_COUNT: usize = {
    let mut n = 0;
    let mut i = 0;
    while i < API.len() {
        if API[i].name_arg.is_some() {
            n += 1;
        }
        i += 1;
    }
    n
};

const NAME_ARG_LIST: [(&str, usize, NameKind); NAME_ARG_COUNT] = {
    let mut list = [("", 0, NameKind::Tag); NAME_ARG_COUNT];
    let (mut i, mut n) = (0, 0);
    while i < API.len() {
        if let Some((index, kind)) = API[i].name_arg {
            list[n] = (API[i].name, index, kind);
            n += 1;
        }
        i += 1;
    }
    list
};

/// The docs tables: commands, then reads and helpers.
pub fn markdown(section: &[Section]) -> String {
    let head = if section.contains(&Section::Command) {
        "| command | effect |\n| --- | --- |\n"
    } else {
        "| function | returns |\n| --- | --- |\n"
    };
    let mut out = String::from(head);
    for f in API.iter().filter(|f| section.contains(&f.section)) {
        // A `|` of a type would end the table's cell.
        let call = f.call.replace('|', "\\|");
        out.push_str(&format!("| `ludus.{call}` | {} |\n", f.doc.trim()));
    }
    out
}

/// The docs table of the types the calls name ([`TYPES`]), with each option table's keys.
pub fn types_markdown() -> String {
    let mut out = String::from("| type | what it is |\n| --- | --- |\n");
    for (word, doc) in TYPES {
        let keys = OPTION_TABLES
            .iter()
            .find(|(t, _)| t == word)
            .map(|(_, keys)| {
                let keys: Vec<String> = keys
                    .iter()
                    .map(|(k, ty)| format!("`{k}`: `{}`", ty.replace('|', "\\|")))
                    .collect();
                format!(": {}", keys.join(", "))
            });
        out.push_str(&format!(
            "| `{word}` | {doc}{} |\n",
            keys.unwrap_or_default()
        ));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::api::spec::ApiFunction;

    /// The argument's name in the function's documented call: `spawn(kind: archetype, ...)`
    /// has `kind` at 0.
    fn argument(f: &ApiFunction, index: usize) -> Option<&'static str> {
        f.signature().params.get(index).map(|p| p.name)
    }

    #[test]
    fn every_name_argument_is_an_argument_of_a_function_of_the_api() {
        // (function, index, kind, the argument's name in the documented call), in API order.
        let expect = [
            ("bind", 0, NameKind::Action, "name"),
            ("bindings", 0, NameKind::Action, "name"),
            ("spawn", 0, NameKind::Archetype, "kind"),
            ("effect", 0, NameKind::Effect, "name"),
            ("sound", 0, NameKind::Sound, "name"),
            ("use_cooldown", 1, NameKind::Cooldown, "name"),
            ("animate", 1, NameKind::Animation, "name"),
            ("load_level", 0, NameKind::Level, "name"),
            ("find", 0, NameKind::Tag, "tag"),
            ("count", 0, NameKind::Tag, "tag"),
            ("nearest", 2, NameKind::Tag, "tag"),
            ("within", 3, NameKind::Tag, "tag"),
            ("cooldown", 1, NameKind::Cooldown, "name"),
            ("axis", 0, NameKind::Action, "name"),
            ("held", 0, NameKind::Action, "name"),
            ("pressed", 0, NameKind::Action, "name"),
            ("released", 0, NameKind::Action, "name"),
            ("has", 1, NameKind::Tag, "name"),
        ];
        assert_eq!(NAME_ARGS.len(), expect.len(), "one row per name argument");
        for (row, (name, index, kind, arg)) in NAME_ARGS.iter().zip(expect) {
            assert_eq!(*row, (name, index, kind), "rows in API order");
            let f = super::super::API.iter().find(|f| f.name == name);
            let Some(f) = f else {
                panic!("ludus.{name} is in NAME_ARGS but not in the API list");
            };
            assert_eq!(
                argument(f, index),
                Some(arg),
                "argument {index} of ludus.{} names the {}",
                f.call,
                kind.noun()
            );
        }
    }
}
