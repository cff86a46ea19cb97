//! The components archetypes declare. Plain data; systems live in the phases.

pub use crate::def::Look;
use crate::def::{
    ArchetypeId, BehaviourDef, BehaviourKind, ControlKind, GameDef, RotateMode, SpriteDef,
    TriggerDef,
};
use crate::math::{Vec2, top_or_at_most8};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

mod collider;
pub use collider::*;

mod identity;
pub use identity::*;

/// Where the entity is now, in world units.
///
/// The previous position lives in its own component ([`PrevPosition`]) so that motion, which
/// reads and writes only this one, streams half the memory.
#[repr(transparent)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Position(pub Vec2);

/// Where the entity was at the start of the tick. Rendering interpolates from here to
/// [`Position`]; a teleport or a spawn sets both equal.
#[repr(transparent)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct PrevPosition(pub Vec2);

/// World units per second.
#[repr(transparent)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Velocity(pub Vec2);

/// A component that is one [`Vec2`] and nothing else.
///
/// # Safety
///
/// Only for `repr(transparent)` wrappers of one `Vec2`: [`vectors`] reads a column of them as
/// its vectors.
pub(crate) unsafe trait OneVec2 {}
// SAFETY: each is a `repr(transparent)` wrapper of one `Vec2`.
unsafe impl OneVec2 for Position {}
// SAFETY: as above.
unsafe impl OneVec2 for PrevPosition {}
// SAFETY: as above.
unsafe impl OneVec2 for Velocity {}

/// A column of one-vector components as its vectors (the packed loops of
/// [`math`](crate::math) take vectors).
#[inline(always)]
pub(crate) fn vectors<T: OneVec2>(col: &[T]) -> &[Vec2] {
    // SAFETY: `T` has `Vec2`'s layout (`OneVec2`): the same bytes, read as vectors.
    unsafe { std::slice::from_raw_parts(col.as_ptr().cast::<Vec2>(), col.len()) }
}

/// [`vectors`], to write.
#[inline(always)]
pub(crate) fn vectors_mut<T: OneVec2>(col: &mut [T]) -> &mut [Vec2] {
    // SAFETY: as in `vectors`; written through, the bytes stay valid `T`s.
    unsafe { std::slice::from_raw_parts_mut(col.as_mut_ptr().cast::<Vec2>(), col.len()) }
}

/// An entity's own movement speed in world units per second (behaviours and control), where it
/// is not its archetype's: spawned with another (`speed` of the spawn's options) or given one
/// by `ludus.set_speed`, which brains and control read from the next tick.
///
/// Invariant: only an entity whose speed has been other than its archetype's `speed` holds
/// one; every other entity moves at its archetype's ([`Speed::of`]), and holds nothing for it
/// (4 bytes an entity fewer, and the rows of a crowd read no column for it).
#[repr(transparent)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Speed(pub f32);

impl Speed {
    /// The speed of an entity of `archetype` holding `own`: its own, else its archetype's (0
    /// for an archetype `def` does not have).
    #[inline]
    pub fn of(own: Option<&Speed>, archetype: ArchetypeId, def: &GameDef) -> f32 {
        own.map_or_else(
            || def.archetype(archetype).map_or(0.0, |a| a.speed),
            |s| s.0,
        )
    }

    /// A group of speeds as their floats.
    #[inline(always)]
    pub(crate) fn floats<const N: usize>(group: &[Speed; N]) -> &[f32; N] {
        // SAFETY: `Speed` is a `repr(transparent)` `f32`: the same bytes, read as floats.
        unsafe { &*group.as_ptr().cast::<[f32; N]>() }
    }

    /// The speed an entity of archetype speed `archetype` holds for `speed`: none where they
    /// are the same (bit for bit: a speed of -0 is its own, as it gives velocities of -0).
    #[inline]
    pub fn own(speed: f32, archetype: f32) -> Option<Speed> {
        (speed.to_bits() != archetype.to_bits()).then_some(Speed(speed))
    }
}

/// Marks an entity whose archetype has tags: its tags are its archetype's, never changed
/// ([`GameDef::tags_of`](crate::def::GameDef::tags_of)), so the entity holds no copy. The
/// marker keeps the set of components, and so hecs's grouping and order of entities, what it
/// was when each entity held its tag word.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Tags;

/// A u64 tick deadline with an explicit inactive state. Additions are checked: a deadline that
/// would overflow is an error, never a wrap.
///
/// Invariant: one word, `u64::MAX` when inactive (so [`Health`] and [`Lifetime`] carry no tag
/// word); a deadline at `u64::MAX` is an overflow ([`Deadline::after`] refuses it). The state
/// hash has always written an inactive deadline as `u64::MAX`, and serde keeps the enum form
/// (`"Inactive"`, `{"At": t}`). Laid out as its word (`repr(transparent)`): the state hash
/// compares a column of lifetimes as words.
#[repr(transparent)]
#[derive(Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(into = "DeadlineForm", try_from = "DeadlineForm")]
pub struct Deadline(u64);

/// [`Deadline`]'s serialized form.
#[derive(Clone, Copy, Serialize, Deserialize)]
enum DeadlineForm {
    Inactive,
    At(u64),
}

impl From<Deadline> for DeadlineForm {
    fn from(d: Deadline) -> DeadlineForm {
        d.at().map_or(DeadlineForm::Inactive, DeadlineForm::At)
    }
}

impl TryFrom<DeadlineForm> for Deadline {
    type Error = &'static str;
    fn try_from(f: DeadlineForm) -> Result<Deadline, &'static str> {
        match f {
            DeadlineForm::Inactive => Ok(Deadline::INACTIVE),
            DeadlineForm::At(t) => Deadline::after(t, 0).ok_or("a deadline past the last tick"),
        }
    }
}

impl Default for Deadline {
    fn default() -> Deadline {
        Deadline::INACTIVE
    }
}

impl std::fmt::Debug for Deadline {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.at() {
            None => f.write_str("Inactive"),
            Some(t) => f.debug_tuple("At").field(&t).finish(),
        }
    }
}

impl Deadline {
    /// No deadline: always [`ready`](Self::ready).
    pub const INACTIVE: Deadline = Deadline(u64::MAX);

    /// `ticks` after `now`, or `None` on overflow (`u64::MAX` is past the last tick).
    pub fn after(now: u64, ticks: u64) -> Option<Deadline> {
        now.checked_add(ticks)
            .filter(|&t| t != u64::MAX)
            .map(Deadline)
    }

    /// The tick it is at, or `None` when inactive.
    #[inline]
    pub fn at(self) -> Option<u64> {
        (self.0 != u64::MAX).then_some(self.0)
    }

    /// The state hash's word: the tick, or `u64::MAX` when inactive.
    #[inline]
    pub(crate) fn word(self) -> u64 {
        self.0
    }

    /// Whether the deadline is inactive or has been reached at `tick`.
    #[inline]
    pub fn ready(self, tick: u64) -> bool {
        self.0 == u64::MAX || tick >= self.0
    }

    pub fn is_active(self) -> bool {
        self.0 != u64::MAX
    }

    /// Active and ready at `tick` (`is_active() && ready(tick)`), without a branch.
    #[inline(always)]
    pub fn due(self, tick: u64) -> bool {
        (self.0 <= tick) & (self.0 != u64::MAX)
    }
}

/// Hit points. Damage is blocked while the entity is invulnerable: its deadline is kept by
/// the world, only for entities that have taken damage with ticks of invulnerability after
/// it (their archetype's `health.invulnerable`; see `SimWorld::invulnerable`), so the many
/// entities of archetypes without invulnerability hold no deadline, and entities share hecs
/// archetypes as their components alone decide. The maximum is the world's too
/// ([`SimWorld::max_health`](crate::SimWorld::max_health)): the archetype's, but for an
/// entity spawned with more.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[repr(transparent)]
pub struct Health {
    pub current: i32,
}

// Every live entity with health holds one, and every timed one a lifetime: no tag word.
const _: () = assert!(std::mem::size_of::<Health>() == 4);
const _: () = assert!(std::mem::size_of::<Lifetime>() == 8);

/// Cooldown deadlines, one per slot the archetype declares.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Cooldowns(pub Vec<Deadline>);

/// The tick the entity expires at (laid out as its deadline's word: `repr(transparent)`).
#[repr(transparent)]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Lifetime(pub Deadline);

impl Lifetime {
    /// A column of lifetimes as their deadlines' words ([`Deadline::word`]).
    #[inline]
    pub(crate) fn words(col: &[Lifetime]) -> &[u64] {
        // SAFETY: a lifetime is a deadline is a `u64` (`repr(transparent)` both), its word.
        unsafe { std::slice::from_raw_parts(col.as_ptr().cast::<u64>(), col.len()) }
    }
}

/// AI state kept between decisions: the last decided intent (a unit direction), when to
/// decide next, and the behaviour's kind (from its archetype's `behaviour`, whose other
/// settings the decisions read there). 16 bytes: every brain's due check and velocity read it
/// every tick. Its current target is a column of its own ([`Aim`]), read only on a tick some
/// target was lost. Laid out as written (`repr(C)`): `Brain::heads` reads the intents of a
/// group of brains as packed floats.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[repr(C)]
pub struct Brain {
    pub intent: Vec2,
    /// The next cadence tick in the low [`Brain::TICK_BITS`] bits (0 until the first decision:
    /// every later one is after a tick), the kind above them.
    word: u64,
}

impl Brain {
    /// Bits of the next decision's tick (2^60 ticks outlast any game: the tick is saturated
    /// there).
    const TICK_BITS: u32 = 60;
    const TICK_MASK: u64 = (1 << Self::TICK_BITS) - 1;
    /// The kind's code of [`BehaviourKind::Straight`] (see [`Brain::new`]).
    const STRAIGHT: u64 = 3;

    /// A brain of `kind` that has not decided yet, heading along `intent`.
    pub fn new(kind: BehaviourKind, intent: Vec2) -> Brain {
        let code: u64 = match kind {
            BehaviourKind::Chase => 0,
            BehaviourKind::Flee => 1,
            BehaviourKind::Wander => 2,
            BehaviourKind::Straight => Self::STRAIGHT,
        };
        Brain {
            intent,
            word: code << Self::TICK_BITS,
        }
    }

    /// The behaviour's kind.
    #[inline(always)]
    pub fn kind(&self) -> BehaviourKind {
        match self.word >> Self::TICK_BITS {
            0 => BehaviourKind::Chase,
            1 => BehaviourKind::Flee,
            2 => BehaviourKind::Wander,
            _ => BehaviourKind::Straight,
        }
    }

    /// Whether the kind is [`BehaviourKind::Straight`] (its velocity is its own).
    #[inline(always)]
    pub fn straight(&self) -> bool {
        self.word >> Self::TICK_BITS == Self::STRAIGHT
    }

    /// Whether any of `group` is [`BehaviourKind::Straight`] (the greatest kind code), and
    /// which may be due at `tick` (their next decision at or before it), bit `k` for brain
    /// `k`: every due brain's bit is set, and others' may be (see
    /// [`top_or_at_most8`]). One read of each brain's word.
    #[inline(always)]
    pub(crate) fn straight_and_due(group: &[Brain; 8], tick: u64) -> (bool, u32) {
        const _: () = assert!(size_of::<Brain>() == size_of::<[u64; 2]>());
        // SAFETY: `Brain` is `repr(C)`: its intent's eight bytes, then its word, 16 bytes with
        // no padding, all initialised, aligned to 8: two words, the second the brain's word.
        let records = unsafe { &*group.as_ptr().cast::<[[u64; 2]; 8]>() };
        // Words are below 2^62 (a kind code under 4 above 60 bits); a tick past 2^60 - 1 is
        // as that tick (every next decision is below it).
        let tick = tick.min(Self::TICK_MASK);
        top_or_at_most8(
            records,
            Self::TICK_MASK,
            tick,
            Self::STRAIGHT << Self::TICK_BITS,
        )
    }

    /// A group's brains as four floats each: the intent's x and y, then the word's bits (which
    /// [`scale8`](crate::math::scale8) does not read).
    #[inline(always)]
    pub(crate) fn heads(group: &[Brain; 8]) -> &[[f32; 4]; 8] {
        const _: () = assert!(size_of::<Brain>() == size_of::<[f32; 4]>());
        // SAFETY: `Brain` is `repr(C)`: its intent's two `f32`s, then a `u64`, 16 bytes with
        // no padding, all initialised, aligned to 8; any bits are a valid `f32`, and the
        // shared borrow keeps the brains unchanged while the floats are read.
        unsafe { &*group.as_ptr().cast::<[[f32; 4]; 8]>() }
    }

    /// The tick of the next decision; 0 before the first.
    #[inline(always)]
    pub fn next_decision(&self) -> u64 {
        self.word & Self::TICK_MASK
    }

    /// Sets the tick of the next decision (saturated at 2^60 - 1).
    #[inline]
    pub fn set_next_decision(&mut self, tick: u64) {
        self.word = (self.word & !Self::TICK_MASK) | tick.min(Self::TICK_MASK);
    }

    /// Whether a decision has been made since spawn.
    #[inline(always)]
    pub fn decided(&self) -> bool {
        self.next_decision() != 0
    }
}

/// A behaviour set while the game runs (`ludus.set_behaviour`), in place of the archetype's:
/// only on entities that had one set. Its kind is its [`Brain`]'s kind; its other settings
/// are what the brain's decisions read in place of the archetype's.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct OwnBehaviour(pub BehaviourDef);

/// Player control: which axes move the entity and which buttons raise events.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Control {
    pub kind: ControlKind,
    pub move_x: Option<crate::frame::input::ActionId>,
    pub move_y: Option<crate::frame::input::ActionId>,
    /// Top-down: units/s² toward the target velocity (`None`: at once).
    pub accel: Option<f32>,
    pub triggers: Vec<TriggerDef>,
    /// The last non-zero movement direction (initially +x).
    pub facing: Vec2,
}

/// How the entity is drawn, where its spawn changed its archetype's sprite (a colour or a
/// size). An entity drawn as its archetype declares holds [`Drawn`] instead.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Sprite(pub SpriteDef);

/// Drawn with its archetype's sprite as declared (`sprite` of its [`Identity::archetype`]):
/// the entities of an archetype share that one sprite rather than each holding a copy
/// ([`Sprite`], 32 bytes), so this marker takes no memory per entity. An entity has at most one
/// of the two.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Drawn;

/// The animation its sprite plays: a slot in its archetype's `animations` and the tick it
/// started. The frame drawn follows from the tick (see [`crate::AnimationDef::frame_at`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Animation {
    pub slot: u8,
    pub since: u64,
}

/// Text drawn with the entity (see [`crate::LabelDef`]).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Label {
    pub text: std::sync::Arc<str>,
    pub size: f32,
    pub color: crate::math::Color,
    pub offset: Vec2,
    pub font: Option<crate::FontId>,
}

/// Marks the entity the camera follows.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct CameraTarget;

/// What one entry of an entity's script state costs against `[scripts] memory`, besides its
/// key's bytes: the value and the table's share.
pub const STATE_ENTRY_BYTES: usize = 16;

/// The bytes one script-state entry with this key takes.
pub fn state_entry_bytes(key: &str) -> usize {
    key.len() + STATE_ENTRY_BYTES
}

/// A small per-entity key/value store scripts write through commands and read back, in key
/// order. Gameplay holds it to `[limits] state_keys` keys per entity.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct ScriptState(BTreeMap<String, f64>);

impl ScriptState {
    pub fn get(&self, key: &str) -> Option<f64> {
        self.0.get(key).copied()
    }

    /// Sets a value; `O(log n)` in the number of keys.
    pub fn set(&mut self, key: &str, value: f64) {
        match self.0.get_mut(key) {
            Some(v) => *v = value,
            None => {
                self.0.insert(key.to_string(), value);
            }
        }
    }

    /// Keys and values in key order.
    pub fn iter(&self) -> impl Iterator<Item = (&str, f64)> {
        self.0.iter().map(|(k, v)| (k.as_str(), *v))
    }

    pub fn len(&self) -> usize {
        self.0.len()
    }

    /// What its entries count against `[scripts] memory` (`state_entry_bytes` each).
    pub fn bytes(&self) -> usize {
        self.0.keys().map(|k| state_entry_bytes(k)).sum()
    }

    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

/// Marks an entity whose archetype does something at the level's bounds (its `bounds` is not
/// `ignore`): the rule is its archetype's, never changed
/// ([`GameDef::bounds_of`](crate::def::GameDef::bounds_of)), so the entity holds no copy. The
/// marker keeps the set of components, and so hecs's grouping and order of entities, what it
/// was when each entity held its rule.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct BoundsRule;

/// How far past the level's bounds the entity's bounds rule applies, in world units (only
/// on entities whose archetype sets a margin other than 0, beside their [`BoundsRule`]).
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct BoundsMargin(pub f32);

/// Marks an entity destroyed once it has been in the camera's view and then is out of it by
/// more than its size; `seen`: it has been in view (only on entities whose archetype says
/// `offscreen = "destroy"`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Offscreen {
    pub seen: bool,
}

/// Motion rules beyond the velocity (only on entities that have any): the acceleration gravity
/// gives it, linear drag per second and a speed limit (infinite: none).
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Motion {
    pub gravity: Vec2,
    pub drag: f32,
    pub max_speed: f32,
}

/// An angle in radians (and the previous tick's, for drawing), a spin in radians per second
/// and what else turns it (only on entities that rotate).
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Rotation {
    pub angle: f32,
    pub prev: f32,
    pub spin: f32,
    pub mode: RotateMode,
}

/// Marks a static body: it never moves by its velocity or by pushes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct StaticBody;

/// Platformer control's memory between ticks: the last tick it stood on something and how
/// fast that ground moved, the tick jump was pressed (while waiting for ground) and whether a
/// jump is still rising.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Footing {
    pub grounded_at: Option<u64>,
    pub ground_velocity: Vec2,
    pub jump_pressed_at: Option<u64>,
    pub rising: bool,
}

/// An attachment to a parent entity (`ludus.attach`, or an archetype's `attach`): only on
/// attached entities.
///
/// Motion puts the entity at the parent's position plus `offset` (turned by the parent's angle
/// when `angle`, which then also sets its angle to the parent's) after every entity has moved
/// and been held to the level's bounds, before collisions; Commit does it again at the end of
/// the tick, its previous position from the parent's previous one, so it is drawn moving with
/// its parent. Attachments apply parents first (see `tick::motion::attach`). The entity is
/// destroyed with its parent, at the same Commit. The parent is never the entity itself nor
/// attached to it, through any chain (a command that would make a cycle is refused).
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Attached {
    /// The parent's creation sequence.
    pub parent: u64,
    pub offset: Vec2,
    pub angle: bool,
}

#[cfg(test)]
mod tests {
    use super::Deadline;

    #[test]
    fn a_deadline_is_one_word_with_the_enum_form() {
        let at = |t| Deadline::after(t, 0).unwrap();
        // (deadline, ready at tick 10, its tick, serialized: the enum's variant, then its tick)
        let table: [(Deadline, bool, Option<u64>, &[u8]); 4] = [
            (Deadline::INACTIVE, true, None, &[0]),
            (at(10), true, Some(10), &[1, 10]),
            (at(11), false, Some(11), &[1, 11]),
            (at(0), true, Some(0), &[1, 0]),
        ];
        for (d, ready, tick, bytes) in table {
            assert_eq!(d.ready(10), ready, "{d:?}");
            assert_eq!(d.at(), tick, "{d:?}");
            assert_eq!(postcard::to_allocvec(&d).unwrap(), bytes, "{d:?}");
            assert_eq!(postcard::from_bytes::<Deadline>(bytes).unwrap(), d);
        }
        // The last tick is the inactive word: a deadline there is an overflow.
        assert_eq!(Deadline::after(u64::MAX - 1, 1), None);
        assert_eq!(
            Deadline::after(u64::MAX - 2, 1).and_then(Deadline::at),
            Some(u64::MAX - 1)
        );
        let last = postcard::to_allocvec(&(1u8, u64::MAX)).unwrap();
        assert!(postcard::from_bytes::<Deadline>(&last).is_err());
    }
}
