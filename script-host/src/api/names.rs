//! Arguments that name something the game declares (an archetype, a tag...), typed by what
//! they name: a function of the API list takes `Name<Tag>` where it takes a tag's name, and
//! [`NAME_ARGS`](super::list::NAME_ARGS) (which `ludus check` reads) comes from those types,
//! so the converter a function uses and what `ludus check` checks cannot disagree.
//!
//! A [`Name`] holds the Lua value as given; converting it (in the function's body, in the
//! order the body asks) measures and copies the string and looks it up, with the errors every
//! other argument gives (`archetype must be a string, got nil`, ``unknown tag `x` (did you
//! mean `y`?)``).

use super::args::{Arg, NAME_MAX, text, unknown, with_text};
use super::spec::NameKind;
use ludus_core::{ActionId, ArchetypeId, EffectId, GameDef, SoundId};
use mlua::{FromLua, Lua, Value};
use std::marker::PhantomData;

/// A kind of name a game declares (the markers below).
pub(crate) trait Declared: 'static {
    const KIND: NameKind;
}

/// A [`Declared`] kind the definition looks names of up.
pub(crate) trait Lookup: Declared {
    type Id;
    fn find(def: &GameDef, name: &str) -> Option<Self::Id>;
    fn known(def: &GameDef) -> impl Iterator<Item = &str>;
}

/// An argument naming a `K`: see the module documentation. `A` is the argument as the entry
/// gives it (an mlua value, or a fast entry's argument: see [`Arg`]).
pub(crate) struct Name<K, A = Value>(A, PhantomData<K>);

impl<K> FromLua for Name<K> {
    fn from_lua(value: Value, _: &Lua) -> mlua::Result<Self> {
        Ok(Name(value, PhantomData))
    }
}

impl<K, A> Name<K, A> {
    /// The argument `a`, naming a `K`.
    pub fn new(a: A) -> Self {
        Name(a, PhantomData)
    }
}

impl<K: Declared, A: Arg> Name<K, A> {
    /// Whether the argument is nil (an optional name left out).
    pub fn is_nil(&self) -> bool {
        self.0.is_nil()
    }

    /// The name, as text of at most [`NAME_MAX`] bytes.
    pub fn text(&self) -> Result<String, String> {
        text(&self.0, K::KIND.noun())
    }
}

impl<K: Lookup, A: Arg> Name<K, A> {
    /// What the name names in `def`.
    pub fn resolve(&self, def: &GameDef) -> Result<K::Id, String> {
        let noun = K::KIND.noun();
        with_text(&self.0, noun, NAME_MAX, |name| {
            K::find(def, name).ok_or_else(|| unknown(noun, name, K::known(def)))
        })?
    }
}

/// Declares the marker types: `Marker => NameKind` and, for kinds the definition looks up,
/// `: Id, find |def, name| ..., known |def| ...`.
macro_rules! declared {
    ($($(#[doc = $doc:literal])* $marker:ident => $kind:ident $(: $id:ty,
        find |$fd:ident, $n:ident| $find:expr, known |$kd:ident| $known:expr)?;)*) => {$(
        $(#[doc = $doc])*
        pub(crate) enum $marker {}

        impl Declared for $marker {
            const KIND: NameKind = NameKind::$kind;
        }

        $(impl Lookup for $marker {
            type Id = $id;
            fn find($fd: &GameDef, $n: &str) -> Option<$id> {
                $find
            }
            fn known($kd: &GameDef) -> impl Iterator<Item = &str> {
                $known
            }
        })?
    )*};
}

declared! {
    /// `[archetypes.NAME]`.
    Archetype => Archetype: ArchetypeId,
        find |d, n| d.archetype_id(n),
        known |d| d.archetypes.iter().map(|a| a.name.as_str());
    /// `[effects.NAME]`.
    Effect => Effect: EffectId,
        find |d, n| d.effect_id(n),
        known |d| d.effects.iter().map(|e| e.name.as_str());
    /// `[sounds.NAME]`.
    Sound => Sound: SoundId,
        find |d, n| d.sound_id(n),
        known |d| d.sounds.iter().map(|s| s.name.as_str());
    /// A level's `name` (its index).
    Level => Level: usize,
        find |d, n| d.level_index(n),
        known |d| d.levels.iter().map(|l| l.name.as_str());
    /// `[input.actions.NAME]`.
    Action => Action: ActionId,
        find |d, n| d.actions.find(n),
        known |d| d.actions.iter().map(|(_, a)| a.name.as_str());
    /// One of `tags` (its bit).
    Tag => Tag: u64,
        find |d, n| d.tag_bit(n),
        known |d| d.tags.iter().map(String::as_str);
    /// A cooldown of the entity's archetype (looked up on the entity, not in the definition).
    Cooldown => Cooldown;
    /// An animation of the entity's archetype (looked up on the entity, as a cooldown).
    Animation => Animation;
}

/// What an argument type names: `Some` for a [`Name`].
pub(crate) trait ArgKind {
    const NAMES: Option<NameKind>;
}

impl ArgKind for Value {
    const NAMES: Option<NameKind> = None;
}

impl<K: Declared> ArgKind for Name<K> {
    const NAMES: Option<NameKind> = Some(K::KIND);
}

/// A function's arguments (one type, or a tuple): which one names something, and what.
pub(crate) trait Signature {
    /// The 0-based index and kind of the argument that names something the game declares.
    const NAME_ARG: Option<(usize, NameKind)>;
}

/// The one `Some` of `kinds`, with its index; two are a compile-time error.
const fn name_arg(kinds: &[Option<NameKind>]) -> Option<(usize, NameKind)> {
    let mut found = None;
    let mut i = 0;
    while i < kinds.len() {
        if let Some(kind) = kinds[i] {
            assert!(
                found.is_none(),
                "a function of the API takes at most one name"
            );
            found = Some((i, kind));
        }
        i += 1;
    }
    found
}

impl Signature for () {
    const NAME_ARG: Option<(usize, NameKind)> = None;
}

impl Signature for Value {
    const NAME_ARG: Option<(usize, NameKind)> = None;
}

impl<K: Declared> Signature for Name<K> {
    const NAME_ARG: Option<(usize, NameKind)> = Some((0, K::KIND));
}

macro_rules! tuple_signature {
    ($($t:ident),*) => {
        impl<$($t: ArgKind),*> Signature for ($($t,)*) {
            const NAME_ARG: Option<(usize, NameKind)> = name_arg(&[$($t::NAMES),*]);
        }
    };
}

tuple_signature!(A, B);
tuple_signature!(A, B, C);
tuple_signature!(A, B, C, D);
tuple_signature!(A, B, C, D, E);
