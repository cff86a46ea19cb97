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

/// A kind of name a game declares, which scripts pass as a string.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum NameKind {
    /// `[archetypes.NAME]`.
    Archetype,
    /// `[effects.NAME]`.
    Effect,
    /// `[sounds.NAME]`.
    Sound,
    /// A level's `name`.
    Level,
    /// A cooldown some archetype declares in `cooldowns` (each entity has its archetype's).
    Cooldown,
    /// `[input.actions.NAME]`.
    Action,
    /// One of `tags`.
    Tag,
    /// A key of `[constants]`, read as `ludus.const.NAME` (never an argument).
    Constant,
}

impl NameKind {
    /// The word for one such name in a sentence: `archetype`.
    pub fn noun(self) -> &'static str {
        match self {
            NameKind::Archetype => "archetype",
            NameKind::Effect => "effect",
            NameKind::Sound => "sound",
            NameKind::Level => "level",
            NameKind::Cooldown => "cooldown",
            NameKind::Action => "action",
            NameKind::Tag => "tag",
            NameKind::Constant => "constant",
        }
    }
}

/// Which argument of which `ludus.*` function names something the game declares: the
/// function, the argument's 0-based index, and the kind of name. A call with a name the game
/// does not declare faults when it runs; `ludus check` reports string literals passed there.
/// Every function named here is in [`API`](super::API) (a test checks), and each takes at most
/// one name.
pub const NAME_ARGS: &[(&str, usize, NameKind)] = &[
    ("spawn", 0, NameKind::Archetype),
    ("effect", 0, NameKind::Effect),
    ("sound", 0, NameKind::Sound),
    ("load_level", 0, NameKind::Level),
    ("use_cooldown", 1, NameKind::Cooldown),
    ("cooldown", 1, NameKind::Cooldown),
    ("axis", 0, NameKind::Action),
    ("held", 0, NameKind::Action),
    ("pressed", 0, NameKind::Action),
    ("released", 0, NameKind::Action),
    ("find", 0, NameKind::Tag),
    ("count", 0, NameKind::Tag),
    ("nearest", 2, NameKind::Tag),
    ("within", 3, NameKind::Tag),
    ("has", 1, NameKind::Tag),
];

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

#[cfg(test)]
mod tests {
    use super::*;

    /// The argument's name in the function's documented call: `spawn(kind, x, y [, opts])`
    /// has `kind` at 0.
    fn argument(call: &str, index: usize) -> Option<String> {
        let inside = call.split_once('(')?.1.rsplit_once(')')?.0;
        let names: Vec<String> = inside
            .split(',')
            .map(|a| a.trim_matches(|c: char| c == '[' || c == ']' || c.is_whitespace()))
            .map(str::to_string)
            .collect();
        names.get(index).cloned()
    }

    #[test]
    fn every_name_argument_is_an_argument_of_a_function_of_the_api() {
        let expect = [
            ("spawn", "kind"),
            ("effect", "name"),
            ("sound", "name"),
            ("load_level", "name"),
            ("use_cooldown", "name"),
            ("cooldown", "name"),
            ("axis", "name"),
            ("held", "name"),
            ("pressed", "name"),
            ("released", "name"),
            ("find", "tag"),
            ("count", "tag"),
            ("nearest", "tag"),
            ("within", "tag"),
            ("has", "name"),
        ];
        assert_eq!(NAME_ARGS.len(), expect.len(), "one row per name argument");
        for ((function, index, kind), (name, arg)) in NAME_ARGS.iter().zip(expect) {
            assert_eq!(*function, name, "rows in order");
            let f = super::super::API.iter().find(|f| f.name == *function);
            let Some(f) = f else {
                panic!("ludus.{function} is in NAME_ARGS but not in the API list");
            };
            assert_eq!(
                argument(f.call, *index).as_deref(),
                Some(arg),
                "argument {index} of ludus.{} names the {}",
                f.call,
                kind.noun()
            );
            assert_ne!(*kind, NameKind::Constant, "constants are never arguments");
        }
        let mut functions: Vec<&str> = NAME_ARGS.iter().map(|(f, _, _)| *f).collect();
        functions.sort_unstable();
        functions.dedup();
        assert_eq!(functions.len(), NAME_ARGS.len(), "one name per function");
    }
}
