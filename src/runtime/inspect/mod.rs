//! The entity inspector's data, with no window: one entity's record ([`Inspected`], built by
//! [`Watch::record`]) that the window's panel shows (`lines.rs`) and `ludus sim --inspect`
//! writes in its summary ([`Inspected::json`]); the events it was in (`seen.rs`); which
//! entity is under the pointer and where it is drawn (`pick.rs`).

mod lines;
mod pick;
mod seen;
#[cfg(test)]
pub(crate) mod tests;

pub use lines::world_lines;
pub use pick::{Extent, pick, screen_at, world_at};
pub use seen::{Seen, Value, Watch};

use ludus_core::{
    Animation, Attached, Brain, Cooldowns, EventField, Game, Health, Identity, Position, Rotation,
    ScriptState, Velocity,
};
use serde::ser::{SerializeMap, SerializeStruct};
use serde::{Serialize, Serializer};

/// What the inspector shows of one live entity, read from the world after its last completed
/// tick. Names are the game's (archetype, tags, cooldowns, animation); lists are in a fixed
/// order (state keys by name, cooldowns and timers as declared and due), so two equal worlds
/// give equal records.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Inspected {
    /// The creation sequence: the id scripts use.
    pub id: u64,
    /// The archetype's name.
    pub kind: String,
    pub tags: Vec<String>,
    pub x: f32,
    pub y: f32,
    pub vx: f32,
    pub vy: f32,
    /// Radians (0 for one that never rotated).
    pub angle: f32,
    /// Current and maximum health, for an entity with health.
    pub health: Option<i32>,
    pub max_health: Option<i32>,
    /// The script state (`ludus.set_state`), by key.
    #[serde(serialize_with = "numbers")]
    pub state: Vec<(String, f64)>,
    /// Each cooldown its archetype declares, with the ticks until it is ready (0: ready).
    #[serde(serialize_with = "counts")]
    pub cooldowns: Vec<(String, u64)>,
    pub animation: Option<Playing>,
    /// The behaviour its brain follows (`chase`, `flee`, `wander`, `straight`), if any.
    pub behaviour: Option<&'static str>,
    /// The entity it is attached to, if it is.
    pub parent: Option<u64>,
    /// The pending timers that target it, by due tick.
    pub timers: Vec<TimerShown>,
    /// The last events it was in, oldest first (at most [`seen::EVENTS_KEPT`]).
    pub events: Vec<Seen>,
}

/// The animation an entity plays and the tick it started.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Playing {
    pub name: String,
    pub since: u64,
}

/// A pending timer that targets the entity.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct TimerShown {
    pub name: String,
    /// The tick it comes due.
    pub due: u64,
    /// Ticks between repeats, for a repeating timer.
    pub period: Option<u64>,
    #[serde(serialize_with = "number")]
    pub data: f64,
}

impl Watch {
    /// The record of the entity followed, as `game`'s world has it now with the events kept
    /// (`None`: it is not in the world). The window's panel and `ludus sim --inspect` both
    /// take it from here.
    pub fn record(&self, game: &Game) -> Option<Inspected> {
        let world = game.world();
        let def = game.def();
        let e = world.entity(self.seq)?;
        let ecs = world.ecs();
        let id = *ecs.get::<&Identity>(e).ok()?;
        let archetype = def.archetype(id.archetype)?;
        let pos = ecs.get::<&Position>(e).map_or(Default::default(), |p| p.0);
        let vel = ecs.get::<&Velocity>(e).map_or(Default::default(), |v| v.0);
        let health = ecs.get::<&Health>(e).ok().map(|h| *h);
        let tick = world.tick();
        let cooldowns = ecs.get::<&Cooldowns>(e).map_or(Vec::new(), |c| c.0.clone());
        let cooldowns = archetype
            .cooldowns
            .iter()
            .enumerate()
            .map(|(i, c)| {
                let left = cooldowns
                    .get(i)
                    .and_then(|d| d.at())
                    .map_or(0, |t| t.saturating_sub(tick));
                (c.name.clone(), left)
            })
            .collect();
        let animation = ecs.get::<&Animation>(e).ok().and_then(|a| {
            let name = archetype.animations.get(a.slot as usize)?.name.clone();
            Some(Playing {
                name,
                since: a.since,
            })
        });
        let state = ecs.get::<&ScriptState>(e).map_or(Vec::new(), |s| {
            s.iter().map(|(k, v)| (k.to_string(), v)).collect()
        });
        let timers = world
            .timers()
            .pending()
            .into_iter()
            .filter(|t| t.target == Some(self.seq))
            .map(|t| TimerShown {
                name: t.name.to_string(),
                due: t.due,
                period: t.period,
                data: t.data,
            })
            .collect();
        Some(Inspected {
            id: self.seq,
            kind: archetype.name.clone(),
            tags: def.tag_names(archetype.tags).map(str::to_string).collect(),
            x: pos.x,
            y: pos.y,
            vx: vel.x,
            vy: vel.y,
            angle: ecs.get::<&Rotation>(e).map_or(0.0, |r| r.angle),
            health: health.map(|h| h.current),
            max_health: health.map(|_| world.max_health(&id)),
            state,
            cooldowns,
            animation,
            behaviour: ecs.get::<&Brain>(e).ok().map(|b| b.kind().name()),
            parent: ecs.get::<&Attached>(e).ok().map(|a| a.parent),
            timers,
            events: self.events().filter(|s| s.tick <= tick).cloned().collect(),
        })
    }
}

impl Inspected {
    /// The record as one JSON object (the summary's `inspect`), its strings safe on a
    /// terminal.
    pub fn json(&self) -> String {
        let json = serde_json::to_string(self).unwrap_or_else(|_| "null".into());
        crate::runtime::headless::terminal_safe(json)
    }
}

/// A number as the summary writes game variables: whole numbers without a fraction.
fn number<S: Serializer>(n: &f64, s: S) -> Result<S::Ok, S::Error> {
    if n.fract() == 0.0 && n.abs() < 9e15 {
        s.serialize_i64(*n as i64)
    } else {
        s.serialize_f64(*n)
    }
}

/// Wraps a number for [`number`].
struct Number(f64);

impl Serialize for Number {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        number(&self.0, s)
    }
}

/// Named numbers as a JSON object, in order.
fn numbers<S: Serializer>(pairs: &[(String, f64)], s: S) -> Result<S::Ok, S::Error> {
    let mut map = s.serialize_map(Some(pairs.len()))?;
    for (k, v) in pairs {
        map.serialize_entry(k, &Number(*v))?;
    }
    map.end()
}

/// Named counts as a JSON object, in order.
fn counts<S: Serializer>(pairs: &[(String, u64)], s: S) -> Result<S::Ok, S::Error> {
    let mut map = s.serialize_map(Some(pairs.len()))?;
    for (k, v) in pairs {
        map.serialize_entry(k, v)?;
    }
    map.end()
}

impl Serialize for Seen {
    /// `{"tick": T, "first_tick": F, "times": N, "handler": "on_damage", "event": {fields as
    /// scripts see them}}`.
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        struct Fields<'a>(&'a [(&'static EventField, Value)]);
        impl Serialize for Fields<'_> {
            fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                let mut map = s.serialize_map(Some(self.0.len()))?;
                for (k, v) in self.0 {
                    map.serialize_entry(k.name, v)?;
                }
                map.end()
            }
        }
        let mut st = s.serialize_struct("Seen", 5)?;
        st.serialize_field("tick", &self.tick)?;
        st.serialize_field("first_tick", &self.first_tick)?;
        st.serialize_field("times", &self.times)?;
        st.serialize_field("handler", self.handler)?;
        st.serialize_field("event", &Fields(&self.fields))?;
        st.end()
    }
}

impl Serialize for Value {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            Value::Null => s.serialize_none(),
            Value::Int(v) => s.serialize_i64(*v),
            Value::Id(v) => s.serialize_u64(*v),
            Value::Num(v) => s.serialize_f32(*v),
            Value::Num64(v) => number(v, s),
            Value::Bool(v) => s.serialize_bool(*v),
            Value::Text(v) => s.serialize_str(v),
            Value::Names(v) => v.serialize(s),
        }
    }
}
