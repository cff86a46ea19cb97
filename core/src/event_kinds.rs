//! Every event kind scripts receive, declared once: its handler, stage, queue and fields.
//!
//! [`EVENT_KINDS`] is the list the script host builds its Lua dispatch and record decoding
//! from, and that docs/scripting.md's handler and field tables are generated from;
//! [`encode_events`] writes a kind's queue field by field, in the declared order and types,
//! to any [`FieldSink`]. Adding an event kind means adding one entry to the `event_kinds!`
//! list below, plus its queue in [`Events`] and the code that produces it.

use crate::command::Stage;
use crate::def::ArchetypeId;
use crate::event::{
    ActionEvent, ContactEvent, DamageEvent, Events, ExpireEvent, SpawnEvent, StartEvent, TimerEvent,
};
use crate::frame::input::ActionId;

/// What a field holds, as scripts see it. Optional fields may be absent (nil).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FieldType {
    /// A whole number (ticks, amounts, timer ids).
    Int,
    /// An entity id.
    Id,
    /// An entity id or nil.
    OptId,
    /// A number stored as f32 (positions, directions).
    Num,
    /// A number stored as f64 (timer data).
    Num64,
    /// An archetype, given to scripts by name.
    Kind,
    /// A tag set (test it with `ludus.has`).
    Tags,
    /// An input action, given by name.
    Action,
    /// One of a fixed list of names.
    Choice(&'static [&'static str]),
    /// Text.
    Text,
    /// The same as these, but absent (nil) for some events.
    OptKind,
    OptTags,
    OptNum,
}

/// One field of an event record.
#[derive(Clone, Copy, Debug)]
pub struct EventField {
    pub name: &'static str,
    pub ty: FieldType,
    pub doc: &'static str,
}

/// One event kind.
#[derive(Clone, Copy, Debug)]
pub struct EventSpec {
    /// The Lua handler: `on_collision_enter`.
    pub handler: &'static str,
    pub stage: Stage,
    /// The handler gets one table (not a list of events): `on_start`.
    pub single: bool,
    /// An event is not delivered once an earlier handler of the stage cancelled it (timers).
    pub cancellable: bool,
    pub doc: &'static str,
    pub fields: &'static [EventField],
}

/// Receives event fields in declared order (the script host packs them into bytes).
pub trait FieldSink {
    fn int(&mut self, v: i64);
    fn id(&mut self, v: u64);
    fn opt_id(&mut self, v: Option<u64>);
    fn num(&mut self, v: f32);
    fn num64(&mut self, v: f64);
    fn kind(&mut self, v: ArchetypeId);
    fn tags(&mut self, v: u64);
    fn action(&mut self, v: ActionId);
    /// The index of the value in the field's [`FieldType::Choice`] list.
    fn choice(&mut self, v: u8);
    fn text(&mut self, v: &str);
    fn opt_kind(&mut self, v: Option<ArchetypeId>);
    fn opt_tags(&mut self, v: Option<u64>);
    fn opt_num(&mut self, v: Option<f32>);
}

macro_rules! sink_call {
    ($w:ident, Int, $v:expr) => {
        $w.int($v)
    };
    ($w:ident, Id, $v:expr) => {
        $w.id($v)
    };
    ($w:ident, OptId, $v:expr) => {
        $w.opt_id($v)
    };
    ($w:ident, Num, $v:expr) => {
        $w.num($v)
    };
    ($w:ident, Num64, $v:expr) => {
        $w.num64($v)
    };
    ($w:ident, Kind, $v:expr) => {
        $w.kind($v)
    };
    ($w:ident, Tags, $v:expr) => {
        $w.tags($v)
    };
    ($w:ident, Action, $v:expr) => {
        $w.action($v)
    };
    ($w:ident, Choice($list:expr), $v:expr) => {
        $w.choice($v)
    };
    ($w:ident, Text, $v:expr) => {
        $w.text($v)
    };
    ($w:ident, OptKind, $v:expr) => {
        $w.opt_kind($v)
    };
    ($w:ident, OptTags, $v:expr) => {
        $w.opt_tags($v)
    };
    ($w:ident, OptNum, $v:expr) => {
        $w.opt_num($v)
    };
}

macro_rules! field_type {
    (Choice($list:expr)) => {
        FieldType::Choice($list)
    };
    ($t:ident) => {
        FieldType::$t
    };
}

/// Groups of event kinds that share one record layout:
/// `FIELDS, encode(e: &Event) in [queue => "handler", Stage, single, cancellable, "doc"; ...]
/// { field: Type = value, "doc"; ... }`.
macro_rules! event_kinds {
    ($(
        $fields:ident, $encode:ident($e:ident: $ty:ty) in [
            $( $queue:ident => $handler:literal, $stage:ident, $single:literal, $cancel:literal, $doc:literal; )+
        ]
        { $( $fname:ident : $fty:ident $(($fchoice:expr))? = $fval:expr, $fdoc:literal; )+ }
    )+) => {
        $(
            const $fields: &[EventField] = &[$( EventField {
                name: stringify!($fname),
                ty: field_type!($fty $(($fchoice))?),
                doc: $fdoc,
            } ),+];

            fn $encode<W: FieldSink>($e: $ty, w: &mut W) {
                $( sink_call!(w, $fty $(($fchoice))?, $fval); )+
            }
        )+

        /// Every event kind, in the order a stage delivers them.
        pub const EVENT_KINDS: &[EventSpec] = &[$($(
            EventSpec {
                handler: $handler,
                stage: Stage::$stage,
                single: $single,
                cancellable: $cancel,
                doc: $doc,
                fields: $fields,
            },
        )+)+];

        /// Writes the events of kind `kind` (an index into [`EVENT_KINDS`]) to `w`; returns
        /// how many there were.
        pub fn encode_events<W: FieldSink>(events: &Events, kind: usize, w: &mut W) -> usize {
            let mut index = 0;
            $($(
                if kind == index {
                    for e in events.$queue.iter() {
                        $encode(e, w);
                    }
                    return events.$queue.len();
                }
                index += 1;
            )+)+
            let _ = index;
            0
        }

        /// How many events of kind `kind` the queues hold.
        pub fn event_count(events: &Events, kind: usize) -> usize {
            let mut index = 0;
            $($(
                if kind == index {
                    return events.$queue.len();
                }
                index += 1;
            )+)+
            let _ = index;
            0
        }
    };
}

/// `on`: how a control trigger fired.
pub const TRIGGER_ON: &[&str] = &["press", "hold", "release"];
/// `reason`: why an entity expired.
pub const EXPIRE_REASONS: &[&str] = &["lifetime", "bounds"];

event_kinds! {
    START_FIELDS, encode_start(e: &StartEvent) in [
        level_start => "on_start", One, true, false,
            "once, on the level's first tick, before every other handler; gets one table, not a list";
    ] {
        tick: Int = e.tick as i64, "the tick, 1";
        level: Text = &e.level, "the level's name";
    }
    TICK_FIELDS, encode_tick(e: &StartEvent) in [
        ticked => "on_tick", One, true, false,
            "every tick, first of the stage's handlers (after `on_start` on a level's first tick); gets one table, not a list";
    ] {
        tick: Int = e.tick as i64, "the tick";
        level: Text = &e.level, "the level's name";
    }
    SPAWN_FIELDS, encode_spawn(e: &SpawnEvent) in [
        spawned => "on_spawn", One, false, false, "entities that appeared at the previous tick's Commit, or at level start";
    ] {
        tick: Int = e.tick as i64, "the tick whose Commit created it, 0 for level placements";
        id: Id = e.entity.seq, "the new entity";
        kind: Kind = e.entity.archetype, "its archetype";
        tags: Tags = e.entity.tags, "its tags";
        x: Num = e.entity.pos.x, "its position";
        y: Num = e.entity.pos.y, "";
    }
    ACTION_FIELDS, encode_action(e: &ActionEvent) in [
        actions => "on_action", One, false, false, "a controlled entity's trigger fired, as `[archetypes.X.control]` declares";
    ] {
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
    CONTACT_FIELDS, encode_contact(e: &ContactEvent) in [
        collision_enter => "on_collision_enter", One, false, false, "two colliders started touching";
        collision_stay => "on_collision_stay", One, false, false, "they still touch, for colliders with `stay = true`";
        collision_exit => "on_collision_exit", One, false, false, "they stopped touching";
        trigger_enter => "on_trigger_enter", One, false, false, "something entered a trigger";
        trigger_stay => "on_trigger_stay", One, false, false, "it is still inside";
        trigger_exit => "on_trigger_exit", One, false, false, "it left";
    ] {
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
    EXPIRE_FIELDS, encode_expire(e: &ExpireEvent) in [
        expired => "on_expire", One, false, false, "an entity reached the end of its lifetime or left the bounds; it is destroyed at the end of the tick";
    ] {
        tick: Int = e.tick as i64, "the tick";
        id: Id = e.entity.seq, "the entity";
        kind: Kind = e.entity.archetype, "its archetype";
        tags: Tags = e.entity.tags, "its tags";
        x: Num = e.entity.pos.x, "its position";
        y: Num = e.entity.pos.y, "";
        reason: Choice(EXPIRE_REASONS) = e.reason as u8, "`\"lifetime\"` or `\"bounds\"`";
    }
    TIMER_FIELDS, encode_timer(e: &TimerEvent) in [
        timers => "on_timer", One, false, true, "timers that came due, by due tick, then scheduling order";
    ] {
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
    DAMAGE_FIELDS, encode_damage(e: &DamageEvent) in [
        damage => "on_damage", Two, false, false, "damage Rust applied after stage 1, or in the previous tick's stage 2";
    ] {
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
    }
}

/// The handler and field tables of docs/scripting.md: when each handler is called, then the
/// fields of each record layout (kinds sharing a layout share a row).
pub fn events_markdown() -> String {
    let mut out = String::from("| handler | stage | called for |\n| --- | --- | --- |\n");
    for spec in EVENT_KINDS {
        let stage = if spec.stage == Stage::One { 1 } else { 2 };
        out.push_str(&format!(
            "| `{}` | {stage} | {} |\n",
            spec.handler, spec.doc
        ));
    }
    out.push_str("\n| handlers | fields |\n| --- | --- |\n");
    let mut done: Vec<*const EventField> = Vec::new();
    for spec in EVENT_KINDS {
        if done.contains(&spec.fields.as_ptr()) {
            continue;
        }
        done.push(spec.fields.as_ptr());
        let handlers: Vec<String> = EVENT_KINDS
            .iter()
            .filter(|s| std::ptr::eq(s.fields, spec.fields))
            .map(|s| format!("`{}`", s.handler))
            .collect();
        // A field without a doc shares the doc of the field before it: `x`, `y`: its position.
        let mut groups: Vec<(Vec<&str>, &str)> = Vec::new();
        for f in spec.fields {
            match groups.last_mut() {
                Some((names, _)) if f.doc.is_empty() => names.push(f.name),
                _ => groups.push((vec![f.name], f.doc)),
            }
        }
        let fields: Vec<String> = groups
            .iter()
            .map(|(names, doc)| {
                let names: Vec<String> = names.iter().map(|n| format!("`{n}`")).collect();
                format!("{}: {doc}", names.join(", "))
            })
            .collect();
        out.push_str(&format!(
            "| {} | {} |\n",
            handlers.join(", "),
            fields.join("; ")
        ));
    }
    out
}

/// The stage table of docs/scripting.md: which handlers each stage calls, in order.
pub fn stages_markdown() -> String {
    let handlers = |stage: Stage| {
        EVENT_KINDS
            .iter()
            .filter(|s| s.stage == stage)
            .map(|s| format!("`{}`", s.handler))
            .collect::<Vec<_>>()
            .join(", ")
    };
    format!(
        "| stage | handlers, in this order | then Rust |\n| --- | --- | --- |\n\
         | 1 | {} | applies the commands in the order sent; damage produces damage events |\n\
         | 2 | {} | applies the commands; damage sent here is delivered to the next tick's `on_damage` |\n",
        handlers(Stage::One),
        handlers(Stage::Two)
    )
}
