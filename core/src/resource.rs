//! What a system can touch ([`Resource`]), and in debug builds the record of what it did
//! touch, which the schedule checks against its declaration.
//!
//! The state a tick changes is held in [`Tracked`] values (the world's fields, the tick's
//! buffers, what the tick is given) and in the world's ECS, whose wrapper maps component
//! columns to resources (`world::ecs`). In debug builds each access through them is
//! recorded, per thread: the schedule clears the record before a system runs and compares it
//! with the system's declaration after, and a system that touched what it does not declare
//! faults. Release builds record nothing: a `Tracked` is its value.
//!
//! The record is per thread because it has to see every access, through `&` and `&mut`
//! borrows of single fields, without a log passed through every function; a tick's passes
//! that run on a second thread work on slices borrowed (and recorded) before they start.

use std::ops::{Deref, DerefMut};

/// Declares [`Resource`] and [`Resource::ALL`] from one list.
macro_rules! resources {
    ($($(#[doc = $doc:literal])* $name:ident,)+) => {
        /// State a system reads or writes.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub enum Resource {$(
            $(#[doc = $doc])*
            $name,
        )+}

        impl Resource {
            /// Every resource, in declaration order.
            pub const ALL: [Resource; [$(stringify!($name)),+].len()] = [$(Resource::$name),+];
        }
    };
}

resources! {
    /// The `Position` component.
    Position,
    /// The `PrevPosition` component.
    PrevPosition,
    Velocity,
    Health,
    /// Brains: their intent and decisions, and their targets (`Aim`).
    Brain,
    Control,
    Cooldowns,
    Lifetime,
    /// Entities' script state, and the bytes it takes.
    ScriptState,
    /// Angles and spins.
    Rotation,
    /// Whether platformer-controlled bodies stand on something.
    Footing,
    /// The animation an entity plays.
    Animation,
    /// The timer queue, and the timers due this tick.
    Timers,
    ContactCache,
    Score,
    Vars,
    /// The game's saved data (`ludus.save`).
    Saved,
    Rng,
    /// Which entities exist, looked up by creation sequence or tag (the index, the next
    /// sequence, the tag index). Iterating components does not read it.
    EntitySet,
    SpawnOutcomes,
    /// Damage applied after stage 2, delivered with the next tick's stage 2.
    CarriedDamage,
    /// The damage archetypes' `contact_damage` does in this tick's contacts, applied with
    /// stage 1's commands.
    ContactDamage,
    /// Destroys, teleports and spawns recorded for Commit, and the entities marked for
    /// destruction.
    StructuralCommands,
    /// The commands a gameplay stage sent, and what they add to bounded tables.
    Commands,
    StagedPresentation,
    Outbox,
    TickNumber,
    Input,
    /// The background-work service: results waiting for BeginTick, requests submitted.
    Completions,
    /// The navigation state: the installed flow field and the request in flight.
    NavField,
    /// The camera's zoom and shake scripts set.
    Camera,
    /// Whether the game is over, and the level a script asked for.
    Flow,
    /// The keys scripts bound to actions at run time (`ludus.bind`).
    Bindings,
    /// The bursts each level spawner has done.
    Spawners,
    /// The colliders recorded for this tick's broadphase.
    Broadphase,
    /// Chase and flee targets collected for the brains, and whether they changed.
    Targets,
    /// How entities whose look changed are drawn (`Look`).
    Look,
    /// The `Speed` component: what brains and control move an entity at.
    Speed,
    /// Which entity is attached to which (the `Attached` component).
    Attachment,
    /// Whether entities destroyed off screen have been in view, and where the simulation's
    /// camera looks.
    Offscreen,
    /// The level's tiles as scripts changed them, and the tile changes recorded for Commit.
    Tiles,
}

impl Resource {
    /// The components: what an entity carries that a tick may change.
    pub const COMPONENTS: [Resource; 16] = [
        Resource::Position,
        Resource::PrevPosition,
        Resource::Velocity,
        Resource::Health,
        Resource::Brain,
        Resource::Control,
        Resource::Cooldowns,
        Resource::Lifetime,
        Resource::ScriptState,
        Resource::Rotation,
        Resource::Footing,
        Resource::Animation,
        Resource::Look,
        Resource::Speed,
        Resource::Attachment,
        Resource::Offscreen,
    ];

    /// Whether every tick starts it empty (BeginTick's `clear` empties it): no tick reads
    /// what an earlier tick left in it, so a phase may read it although a later phase writes
    /// it.
    pub const fn tick_local(self) -> bool {
        matches!(self, Resource::StructuralCommands | Resource::Commands)
    }

    /// Its bit in a [`Touched`] set.
    pub(crate) const fn bit(self) -> u64 {
        1 << self as u8
    }

    /// The set of `resources`.
    pub(crate) fn bits(resources: &[Resource]) -> u64 {
        resources.iter().fold(0, |acc, r| acc | r.bit())
    }
}

const _: () = assert!(Resource::ALL.len() <= 64, "a Touched set is one u64");

/// A value a tick changes, standing for `resource`: reading it (through `Deref`) and changing
/// it (through `DerefMut`) are recorded in debug builds (see the module documentation).
pub(crate) struct Tracked<T> {
    value: T,
    #[cfg(debug_assertions)]
    resource: Resource,
}

impl<T> Tracked<T> {
    #[inline(always)]
    pub const fn new(value: T, resource: Resource) -> Tracked<T> {
        #[cfg(not(debug_assertions))]
        let _ = resource;
        Tracked {
            value,
            #[cfg(debug_assertions)]
            resource,
        }
    }
}

impl<T> Deref for Tracked<T> {
    type Target = T;

    #[inline(always)]
    fn deref(&self) -> &T {
        #[cfg(debug_assertions)]
        touch(self.resource, false);
        &self.value
    }
}

impl<T> DerefMut for Tracked<T> {
    #[inline(always)]
    fn deref_mut(&mut self) -> &mut T {
        #[cfg(debug_assertions)]
        touch(self.resource, true);
        &mut self.value
    }
}

/// What a system touched: sets of [`Resource`] bits, and a component fixed at spawn it tried
/// to change.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Touched {
    pub reads: u64,
    pub writes: u64,
    pub fixed: Option<&'static str>,
}

#[cfg(debug_assertions)]
thread_local! {
    static TOUCHED: std::cell::Cell<Touched> = const {
        std::cell::Cell::new(Touched {
            reads: 0,
            writes: 0,
            fixed: None,
        })
    };
}

/// Records a read (or with `write`, a change) of `resource` (debug builds).
#[inline(always)]
pub(crate) fn touch(resource: Resource, write: bool) {
    #[cfg(debug_assertions)]
    TOUCHED.with(|t| {
        let mut now = t.get();
        if write {
            now.writes |= resource.bit();
        } else {
            now.reads |= resource.bit();
        }
        t.set(now);
    });
    #[cfg(not(debug_assertions))]
    let _ = (resource, write);
}

/// Records a change of `component`, which is fixed at spawn (debug builds).
#[cfg(debug_assertions)]
pub(crate) fn touch_fixed(component: &'static str) {
    TOUCHED.with(|t| {
        let mut now = t.get();
        now.fixed = now.fixed.or(Some(component));
        t.set(now);
    });
}

/// What was touched since the last call, clearing the record (always empty in release
/// builds).
#[inline(always)]
pub(crate) fn take() -> Touched {
    #[cfg(debug_assertions)]
    return TOUCHED.with(|t| t.replace(Touched::default()));
    #[cfg(not(debug_assertions))]
    Touched::default()
}
