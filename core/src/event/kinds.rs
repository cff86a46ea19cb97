//! Every event kind scripts receive, declared once: its records, and one entry in the
//! `event_kinds!` list below (its stage, its queues with their handlers and bounds, and each
//! record layout's fields).
//!
//! The list is the only place a kind is written: [`Events`] and its queues, [`EventKind`]
//! and each stage's kinds, the bounded-queue table, [`EVENT_KINDS`] (from which the script
//! host builds its Lua dispatch and record decoding, and docs/scripting.md its handler and
//! field tables) and [`encode_events`] are generated from it (`declare.rs`). Adding a kind is
//! its entry here (and its record, if no record below fits) plus the system that produces it.

use crate::def::{ArchetypeId, TriggerOn};
use crate::event::declare::event_kinds;
use crate::frame::input::ActionId;
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
    /// Out of the camera's view after being in it (`offscreen = "destroy"`).
    Offscreen = 2,
}

/// An entity reached the end of its lifetime, left its bounds or (after being in it) the
/// camera's view; it is destroyed at Commit.
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
    /// This damage took health from above 0 to 0 or below: the entity died, and its one
    /// death event is delivered with this one. Damage never lands on a dead entity.
    pub killed: bool,
}

/// The level began (delivered once, on its first tick), or a tick began (every tick).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct StartEvent {
    pub tick: u64,
    /// The level's name.
    pub level: Arc<str>,
}

/// `on`: how a control trigger fired.
pub const TRIGGER_ON: &[&str] = &["press", "hold", "release"];
/// `reason`: why an entity expired.
pub const EXPIRE_REASONS: &[&str] = &["lifetime", "bounds", "offscreen"];

event_kinds! {
    layouts {
        start(e: &StartEvent) {
            tick: Int = e.tick as i64, "the tick, 1";
            level: Text = &e.level, "the level's name";
        }
        tick(e: &StartEvent) {
            tick: Int = e.tick as i64, "the tick";
            level: Text = &e.level, "the level's name";
        }
        spawn(e: &SpawnEvent) {
            tick: Int = e.tick as i64, "the tick whose Commit created it, 0 for level placements";
            id: Id = e.entity.seq, "the new entity";
            kind: Kind = e.entity.archetype, "its archetype";
            tags: Tags = e.entity.tags, "its tags";
            x: Num = e.entity.pos.x, "its position";
            y: Num = e.entity.pos.y, "";
        }
        action(e: &ActionEvent) {
            tick: Int = e.tick as i64, "the tick";
            action: Action = e.action, "the action's name";
            on: Choice(TRIGGER_ON) = e.on as u8, "`\"press\"`, `\"hold\"` or `\"release\"`";
            id: Id = e.entity.seq, "the entity";
            kind: Kind = e.entity.archetype, "its archetype";
            tags: Tags = e.entity.tags, "its tags";
            x: Num = e.entity.pos.x, "its position";
            y: Num = e.entity.pos.y, "";
            fx: Num = e.facing.x, "its facing: top-down, the last direction it moved in; thrust, where it points; platformer, the way it last ran";
            fy: Num = e.facing.y, "";
            aim_x: Num = e.aim.x, "toward the nearest entity with the trigger's `aim` tags, or the facing when there is none";
            aim_y: Num = e.aim.y, "";
        }
        contact(e: &ContactEvent) {
            tick: Int = e.tick as i64, "the tick";
            a: Id = e.a.seq, "one party: for collisions the lower id, for triggers the trigger";
            b: Id = e.b.seq, "the other party";
            a_kind: Kind = e.a.archetype, "their archetypes";
            b_kind: Kind = e.b.archetype, "";
            a_tags: Tags = e.a.tags, "their tags";
            b_tags: Tags = e.b.tags, "";
            ax: Num = e.a.pos.x, "their positions";
            ay: Num = e.a.pos.y, "";
            bx: Num = e.b.pos.x, "";
            by: Num = e.b.pos.y, "";
            nx: Num = e.normal.x, "the contact normal, from `a` toward `b` (0, 0 for exits)";
            ny: Num = e.normal.y, "";
            depth: Num = e.depth, "how deep they overlap along it (0 for exits)";
        }
        expire(e: &ExpireEvent) {
            tick: Int = e.tick as i64, "the tick";
            id: Id = e.entity.seq, "the entity";
            kind: Kind = e.entity.archetype, "its archetype";
            tags: Tags = e.entity.tags, "its tags";
            x: Num = e.entity.pos.x, "its position";
            y: Num = e.entity.pos.y, "";
            reason: Choice(EXPIRE_REASONS) = e.reason as u8, "`\"lifetime\"`, `\"bounds\"` or `\"offscreen\"`";
        }
        timer(e: &TimerEvent) {
            tick: Int = e.tick as i64, "the tick";
            id: Int = e.id.to_bits() as i64, "the timer's id, as `ludus.after` returned it";
            name: Text = &e.name, "its name";
            due: Int = e.due as i64, "the tick it was due";
            data: Num64 = e.data, "the number given as `data`";
            target: OptId = e.target.map(|p| p.seq), "the target entity, nil when the timer has none";
            target_kind: OptKind = e.target.map(|p| p.archetype), "its archetype";
            target_tags: OptTags = e.target.map(|p| p.tags), "its tags";
            x: OptNum = e.target.map(|p| p.pos.x), "its position";
            y: OptNum = e.target.map(|p| p.pos.y), "";
        }
        damage(e: &DamageEvent) {
            tick: Int = e.tick as i64, "the tick";
            id: Id = e.target.seq, "the damaged entity";
            kind: Kind = e.target.archetype, "its archetype";
            tags: Tags = e.target.tags, "its tags";
            x: Num = e.target.pos.x, "its position";
            y: Num = e.target.pos.y, "";
            amount: Int = i64::from(e.amount), "the damage";
            health: Int = i64::from(e.health), "health after it";
            max: Int = i64::from(e.max), "maximum health";
            source: OptId = e.source, "the `source` given to `ludus.damage`, or nil";
            killed: Bool = e.killed, "true when this damage took its health to 0: it died, and its one `on_death` follows";
        }
        death(e: &DamageEvent) {
            tick: Int = e.tick as i64, "the tick the killing damage was applied (as its `on_damage` event's)";
            id: Id = e.target.seq, "the entity that died";
            kind: Kind = e.target.archetype, "its archetype";
            tags: Tags = e.target.tags, "its tags";
            x: Num = e.target.pos.x, "its position";
            y: Num = e.target.pos.y, "";
            source: OptId = e.source, "the `source` of the damage that killed it, or nil";
        }
    }
    stage One {
        /// The level began (its first tick).
        LevelStarted {
            level_start: StartEvent as start => "on_start" [single], Once "level start",
                "once, on the level's first tick, before every other handler; gets one table, not a list";
        }
        /// A tick began (every tick).
        Tick {
            ticked: StartEvent as tick => "on_tick" [single], Once "tick",
                "every tick, first of the stage's handlers (after `on_start` on a level's first tick); gets one table, not a list";
        }
        /// Entities appeared (the previous tick's Commit, or the level start).
        Spawned {
            spawned: SpawnEvent as spawn => "on_spawn", Entities "spawned",
                "entities that appeared at the previous tick's Commit, or at level start";
        }
        /// A controlled entity's action fired.
        Action {
            actions: ActionEvent as action => "on_action", Events "action",
                "a controlled entity's trigger fired, as `[archetypes.X.control]` declares";
        }
        /// Two colliders touch.
        Collision {
            collision_enter: ContactEvent as contact => "on_collision_enter", Events "collision",
                "two colliders started touching";
            collision_stay: ContactEvent as contact => "on_collision_stay", Events "collision stay",
                "they still touch, for colliders with `stay = true`";
            collision_exit: ContactEvent as contact => "on_collision_exit", Events "collision exit",
                "they stopped touching";
        }
        /// Something overlaps a trigger.
        Trigger {
            trigger_enter: ContactEvent as contact => "on_trigger_enter", Events "trigger",
                "something entered a trigger";
            trigger_stay: ContactEvent as contact => "on_trigger_stay", Events "trigger stay",
                "it is still inside";
            trigger_exit: ContactEvent as contact => "on_trigger_exit", Events "trigger exit",
                "it left";
        }
        /// An entity reached the end of its lifetime, left its bounds or the camera's view.
        Expired {
            expired: ExpireEvent as expire => "on_expire", Events "expired",
                "an entity reached the end of its lifetime, left its bounds or the camera's view; it is destroyed at the end of the tick";
        }
        /// A timer came due.
        Timer {
            timers: TimerEvent as timer => "on_timer" [cancellable], Events "timer",
                "timers that came due, by due tick, then scheduling order";
        }
    }
    stage Two {
        /// Rust applied damage (after stage 1, or in the previous tick's stage 2).
        Damage {
            damage: DamageEvent as damage => "on_damage", Events "damage",
                "damage Rust applied after stage 1, or in the previous tick's stage 2";
        }
        /// An entity's health reached 0 (once per entity).
        Death {
            deaths: DamageEvent as death => "on_death", Entities "death",
                "an entity's health reached 0: exactly once per entity, with the damage that did it (after `on_damage`); later damage to it is blocked";
        }
    }
}
