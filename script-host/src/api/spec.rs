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
    /// The argument that names something the game declares, if any: its 0-based index and
    /// the kind of name (from the argument types the function converts).
    pub name_arg: Option<(usize, NameKind)>,
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
        // (function, index, kind, the argument's name in the documented call), in API order.
        let expect = [
            ("spawn", 0, NameKind::Archetype, "kind"),
            ("effect", 0, NameKind::Effect, "name"),
            ("sound", 0, NameKind::Sound, "name"),
            ("use_cooldown", 1, NameKind::Cooldown, "name"),
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
                argument(f.call, index).as_deref(),
                Some(arg),
                "argument {index} of ludus.{} names the {}",
                f.call,
                kind.noun()
            );
        }
    }
}
