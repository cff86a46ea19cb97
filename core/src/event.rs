//! Typed events: value records of facts that happened in a tick.
//!
//! Events are plain copies: a consumer never dereferences a component through an event, so an
//! event about an entity destroyed later in the tick is still safe to read. Queues belong to the
//! world, are cleared at BeginTick and are bounded by `[limits] events` (spawn events by the
//! spawns of one Commit, at most `[limits] entities`); a full queue faults, because gameplay
//! events are required.

use crate::def::{ArchetypeId, TriggerOn};
use crate::fault::Fault;
use crate::frame::input::ActionId;
use crate::limits::{Limit, push_within};
use crate::math::Vec2;
use crate::timer::TimerId;
use serde::{Deserialize, Serialize};
use std::sync::Arc;

/// One party of an event, copied when the event was raised.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Party {
    /// Creation sequence: the entity's stable identity within its world.
    pub seq: u64,
    pub archetype: ArchetypeId,
    pub tags: u64,
    pub pos: Vec2,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum ContactPhase {
    Enter,
    Stay,
    Exit,
}

/// A collision or trigger contact. For collisions `a.seq < b.seq`; for triggers `a` is the
/// trigger (the lower sequence when both are) and `b` the other party.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct ContactEvent {
    pub tick: u64,
    pub phase: ContactPhase,
    pub a: Party,
    pub b: Party,
    /// The contact normal, from `a` toward `b` (zero for an exit).
    pub normal: Vec2,
    /// How deep they overlap along it (0 for an exit).
    pub depth: f32,
}

/// A timer came due.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TimerEvent {
    pub tick: u64,
    pub id: TimerId,
    pub name: Arc<str>,
    /// The tick it was due (equal to `tick` unless it was scheduled for a paused stretch).
    pub due: u64,
    pub target: Option<Party>,
    pub data: f64,
}

/// A controlled entity's action fired (see the archetype's control triggers).
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct ActionEvent {
    pub tick: u64,
    pub action: ActionId,
    pub on: TriggerOn,
    pub entity: Party,
    /// The entity's last non-zero movement direction.
    pub facing: Vec2,
    /// Unit direction to the nearest entity with the trigger's aim tags, else the facing.
    pub aim: Vec2,
}

/// An entity became part of the world (at the previous tick's Commit, or at level start).
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct SpawnEvent {
    /// The tick whose Commit created it (0 for level placements).
    pub tick: u64,
    pub entity: Party,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum ExpireReason {
    Lifetime = 0,
    Bounds = 1,
}

/// An entity reached the end of its lifetime or left the bounds; it is destroyed at Commit.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct ExpireEvent {
    pub tick: u64,
    pub entity: Party,
    pub reason: ExpireReason,
}

/// Damage was applied by Rust after gameplay stage 1 (or stage 2 of the previous tick).
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct DamageEvent {
    pub tick: u64,
    pub target: Party,
    pub source: Option<u64>,
    pub amount: i32,
    /// Health after the damage.
    pub health: i32,
    pub max: i32,
}

/// The level began (delivered once, on its first tick), or a tick began (every tick).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct StartEvent {
    pub tick: u64,
    /// The level's name.
    pub level: Arc<str>,
}

/// Event kinds, for phase declarations and counters.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum EventKind {
    LevelStarted,
    Tick,
    Spawned,
    Action,
    Collision,
    Trigger,
    Expired,
    Timer,
    Damage,
}

/// The tick-local event queues, in the order stage 1 hands them to consequences.
#[derive(Clone, Debug, Default)]
pub struct Events {
    /// The level start (one event on the level's first tick, else none).
    pub level_start: Vec<StartEvent>,
    /// The tick (one event every tick).
    pub ticked: Vec<StartEvent>,
    pub spawned: Vec<SpawnEvent>,
    pub actions: Vec<ActionEvent>,
    pub collision_enter: Vec<ContactEvent>,
    pub collision_stay: Vec<ContactEvent>,
    pub collision_exit: Vec<ContactEvent>,
    pub trigger_enter: Vec<ContactEvent>,
    pub trigger_stay: Vec<ContactEvent>,
    pub trigger_exit: Vec<ContactEvent>,
    pub expired: Vec<ExpireEvent>,
    pub timers: Vec<TimerEvent>,
    /// Stage 2 input.
    pub damage: Vec<DamageEvent>,
}

impl Events {
    pub fn clear(&mut self) {
        self.level_start.clear();
        self.ticked.clear();
        self.spawned.clear();
        self.actions.clear();
        self.collision_enter.clear();
        self.collision_stay.clear();
        self.collision_exit.clear();
        self.trigger_enter.clear();
        self.trigger_stay.clear();
        self.trigger_exit.clear();
        self.expired.clear();
        self.timers.clear();
        self.damage.clear();
    }

    /// Whether this is the level's first tick.
    pub fn level_started(&self) -> bool {
        !self.level_start.is_empty()
    }

    /// Total events of stage 1 kinds.
    pub fn stage1_len(&self) -> usize {
        self.level_start.len()
            + self.ticked.len()
            + self.spawned.len()
            + self.actions.len()
            + self.collision_enter.len()
            + self.collision_stay.len()
            + self.collision_exit.len()
            + self.trigger_enter.len()
            + self.trigger_stay.len()
            + self.trigger_exit.len()
            + self.expired.len()
            + self.timers.len()
    }
}

/// Pushes into a bounded event queue; a full queue is a capacity fault naming the queue and
/// `[limits] events`. The queue never reserves room past `capacity`.
pub(crate) fn push_bounded<T>(
    queue: &mut Vec<T>,
    event: T,
    capacity: u32,
    name: &str,
) -> Result<(), Fault> {
    if push_within(queue, event, capacity as usize) {
        Ok(())
    } else {
        Err(Limit::Events.exceeded(capacity, format_args!("{name} events in one tick")))
    }
}
