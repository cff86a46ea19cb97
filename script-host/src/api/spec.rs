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
    /// The call as the docs show it, without `ludus.`, each argument and result typed
    /// (`api/types.rs`): `damage(id: id, amount: integer [, source: id])`,
    /// `pos(id: id) -> number?, number?`. The docs and editors' stubs read it
    /// ([`ApiFunction::signature`]).
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
    /// An animation some archetype declares in `animations` (each entity has its archetype's).
    Animation,
    /// `[input.actions.NAME]`.
    Action,
    /// One of `tags`.
    Tag,
    /// A key of `[constants]`, read as `ludus.const.NAME` (never an argument).
    Constant,
}

impl NameKind {
    /// Every kind.
    pub const ALL: [NameKind; 9] = [
        NameKind::Archetype,
        NameKind::Effect,
        NameKind::Sound,
        NameKind::Level,
        NameKind::Cooldown,
        NameKind::Animation,
        NameKind::Action,
        NameKind::Tag,
        NameKind::Constant,
    ];

    /// The word for one such name in a sentence: `archetype`.
    pub fn noun(self) -> &'static str {
        match self {
            NameKind::Archetype => "archetype",
            NameKind::Effect => "effect",
            NameKind::Sound => "sound",
            NameKind::Level => "level",
            NameKind::Cooldown => "cooldown",
            NameKind::Animation => "animation",
            NameKind::Action => "action",
            NameKind::Tag => "tag",
            NameKind::Constant => "constant",
        }
    }
}
