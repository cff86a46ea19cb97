//! The events an inspected entity was in: after every tick, each queue of the tick's events
//! (the one event list, `EVENT_KINDS`, so a new kind needs nothing here) is read field by
//! field, and the events naming the entity in an id field are kept in a small ring.

use ludus_core::{
    ActionId, ArchetypeId, EVENT_KINDS, EventField, FieldSink, FieldType, Game, GameDef, WorldId,
    encode_events,
};
use std::collections::VecDeque;

/// The most events a watch keeps (the latest).
pub const EVENTS_KEPT: usize = 8;

/// One field's value, as scripts see it (names for archetypes, tags, actions and choices).
#[derive(Clone, Debug, PartialEq)]
pub enum Value {
    /// An optional field that is absent.
    Null,
    Int(i64),
    /// An entity id.
    Id(u64),
    Num(f32),
    Num64(f64),
    Bool(bool),
    Text(String),
    /// Tag names.
    Names(Vec<String>),
}

/// An event the entity was in: the tick it happened in, its handler and its fields (each with
/// its declaration in the event list) in declared order; an event like one kept before (the
/// same handler and fields but for the tick and the positions: a contact that stays, say)
/// takes its place, counting the times.
#[derive(Clone, Debug)]
pub struct Seen {
    pub tick: u64,
    /// The tick of the first of its like while it was kept, and how many there were (at
    /// least 1, this one included).
    pub first_tick: u64,
    pub times: u32,
    /// The handler it is delivered to: `on_collision_enter`.
    pub handler: &'static str,
    pub fields: Vec<(&'static EventField, Value)>,
}

impl PartialEq for Seen {
    fn eq(&self, other: &Seen) -> bool {
        let named = |s: &Seen| -> Vec<(&str, Value)> {
            s.fields.iter().map(|(f, v)| (f.name, v.clone())).collect()
        };
        self.tick == other.tick
            && (self.first_tick, self.times) == (other.first_tick, other.times)
            && self.handler == other.handler
            && named(self) == named(other)
    }
}

impl Seen {
    /// Whether `other` is an event like this one: the same handler and fields, but for the
    /// tick and the positions, normals and depths (which change while a contact stays).
    fn like(&self, other: &Seen) -> bool {
        let kept = |s: &'_ Seen| {
            s.fields
                .iter()
                .filter(|(f, _)| !matches!(f.ty, FieldType::Num | FieldType::OptNum))
                .filter(|(f, _)| f.name != "tick")
                .map(|(f, v)| (f.name, v.clone()))
                .collect::<Vec<_>>()
        };
        self.handler == other.handler && kept(self) == kept(other)
    }
}

/// The entity the inspector follows, by id, and the last events it was in.
///
/// The id may name an entity that does not exist yet (a spawn to come): it is followed from
/// when it does.
///
/// Invariants: `events` holds at most [`EVENTS_KEPT`] events, by their latest tick, oldest
/// first, no two alike, each of the world `world` and no later than the last tick fed;
/// `born`: the entity was in the world after a tick fed; `gone` is the tick after which it was
/// found missing, having been in it (a rewind to before that clears it again).
#[derive(Clone, Debug)]
pub struct Watch {
    pub seq: u64,
    world: WorldId,
    events: VecDeque<Seen>,
    /// Its archetype's name, once it was in the world (the panel names a gone entity by it).
    kind: Option<String>,
    born: bool,
    gone: Option<u64>,
    /// One event's raw fields, reused from event to event.
    scratch: Vec<Raw>,
}

impl Watch {
    /// Follows entity `seq` of `game`'s world from now on.
    pub fn new(seq: u64, game: &Game) -> Watch {
        Watch {
            seq,
            world: game.world().id(),
            events: VecDeque::with_capacity(EVENTS_KEPT),
            kind: kind_of(seq, game),
            born: game.world().entity(seq).is_some(),
            gone: None,
            scratch: Vec::new(),
        }
    }

    /// After a completed tick: keeps the tick's events naming the entity, and notes when it
    /// is gone. A new world (a restart, another level) starts the events afresh; a tick run
    /// again (after a rewind) replaces what was kept of it and after it.
    pub fn after_tick(&mut self, game: &Game) {
        let world = game.world();
        let tick = world.tick();
        if world.id() != self.world {
            self.world = world.id();
            self.events.clear();
            self.kind = None;
            self.born = false;
            self.gone = None;
        }
        self.events.retain(|e| e.tick < tick);
        self.gone = self.gone.filter(|t| *t < tick);
        if self.gone.is_some() {
            return;
        }
        let def = game.def();
        for (kind, spec) in EVENT_KINDS.iter().enumerate() {
            if ludus_core::event_count(game.events(), kind) == 0
                || !spec.fields.iter().any(|f| is_id(f.ty))
            {
                continue;
            }
            let mut sink = Sink {
                fields: spec.fields,
                seq: self.seq,
                raw: &mut self.scratch,
                involved: false,
                found: Vec::new(),
            };
            encode_events(game.events(), kind, &mut sink);
            for raw in sink.found {
                let fields = spec
                    .fields
                    .iter()
                    .zip(raw)
                    .map(|(f, r)| (f, r.value(f, def)))
                    .collect();
                self.keep(Seen {
                    tick,
                    first_tick: tick,
                    times: 1,
                    handler: spec.handler,
                    fields,
                });
            }
        }
        match world.entity(self.seq) {
            Some(_) if !self.born => {
                self.born = true;
                self.kind = kind_of(self.seq, game);
            }
            Some(_) => {}
            None if self.born => self.gone = Some(tick),
            None => {}
        }
    }

    /// The same watch over `game`, which replaced the game it was fed from (a rewind or a
    /// reload): events after its tick are the future no more, and an entity gone after it is
    /// back.
    pub fn carried(mut self, game: &Game) -> Watch {
        let world = game.world();
        self.world = world.id();
        self.events.retain(|e| e.tick <= world.tick());
        self.gone = self.gone.filter(|t| *t <= world.tick());
        self.born = self.gone.is_some() || world.entity(self.seq).is_some();
        self
    }

    /// Keeps `seen` as the latest event: in the place of one like it, or else in the place of
    /// the oldest when [`EVENTS_KEPT`] are kept.
    pub(super) fn keep(&mut self, mut seen: Seen) {
        match self.events.iter().position(|e| e.like(&seen)) {
            Some(i) => {
                if let Some(old) = self.events.remove(i) {
                    seen.first_tick = old.first_tick;
                    seen.times = old.times.saturating_add(1);
                }
            }
            None if self.events.len() == EVENTS_KEPT => {
                self.events.pop_front();
            }
            None => {}
        }
        self.events.push_back(seen);
    }

    /// The events kept, oldest first.
    pub fn events(&self) -> impl DoubleEndedIterator<Item = &Seen> {
        self.events.iter()
    }

    /// The tick after which the entity was found missing, if it was.
    pub fn gone(&self) -> Option<u64> {
        self.gone
    }

    /// Its archetype's name, once it was in the world.
    pub fn kind(&self) -> Option<&str> {
        self.kind.as_deref()
    }
}

/// The archetype's name of entity `seq` of `game`'s world, if it is there.
fn kind_of(seq: u64, game: &Game) -> Option<String> {
    let world = game.world();
    let e = world.entity(seq)?;
    let id = *world.ecs().get::<&ludus_core::Identity>(e).ok()?;
    game.def().archetype(id.archetype).map(|a| a.name.clone())
}

fn is_id(ty: FieldType) -> bool {
    matches!(ty, FieldType::Id | FieldType::OptId)
}

/// A field as the event list writes it, before names are looked up.
#[derive(Clone, Debug)]
enum Raw {
    Int(i64),
    Id(Option<u64>),
    Num(Option<f32>),
    Num64(f64),
    Kind(Option<ArchetypeId>),
    Tags(Option<u64>),
    Action(ActionId),
    Choice(u8),
    Text(String),
    Bool(bool),
}

impl Raw {
    /// The value scripts see for field `f`.
    fn value(self, f: &EventField, def: &GameDef) -> Value {
        match self {
            Raw::Int(v) => Value::Int(v),
            Raw::Id(v) => v.map_or(Value::Null, Value::Id),
            Raw::Num(v) => v.map_or(Value::Null, Value::Num),
            Raw::Num64(v) => Value::Num64(v),
            Raw::Kind(k) => match k.and_then(|k| def.archetype(k)) {
                Some(a) => Value::Text(a.name.clone()),
                None => Value::Null,
            },
            Raw::Tags(t) => t.map_or(Value::Null, |t| {
                Value::Names(def.tag_names(t).map(str::to_string).collect())
            }),
            Raw::Action(a) => def
                .actions
                .get(a)
                .map_or(Value::Null, |a| Value::Text(a.name.clone())),
            Raw::Choice(c) => match f.ty {
                FieldType::Choice(names) => names
                    .get(c as usize)
                    .map_or(Value::Null, |n| Value::Text(n.to_string())),
                _ => Value::Int(i64::from(c)),
            },
            Raw::Text(t) => Value::Text(t),
            Raw::Bool(b) => Value::Bool(b),
        }
    }
}

/// Collects, from one queue, the events whose id fields name `seq`.
struct Sink<'a> {
    fields: &'static [EventField],
    seq: u64,
    raw: &'a mut Vec<Raw>,
    involved: bool,
    found: Vec<Vec<Raw>>,
}

impl Sink<'_> {
    fn push(&mut self, r: Raw) {
        self.raw.push(r);
        if self.raw.len() == self.fields.len() {
            if std::mem::take(&mut self.involved) {
                // Only the latest are kept: never more than that is held.
                if self.found.len() == EVENTS_KEPT {
                    self.found.remove(0);
                }
                self.found.push(self.raw.clone());
            }
            self.raw.clear();
        }
    }
}

impl FieldSink for Sink<'_> {
    fn int(&mut self, v: i64) {
        self.push(Raw::Int(v));
    }
    fn id(&mut self, v: u64) {
        self.opt_id(Some(v));
    }
    fn opt_id(&mut self, v: Option<u64>) {
        self.involved |= v == Some(self.seq);
        self.push(Raw::Id(v));
    }
    fn num(&mut self, v: f32) {
        self.push(Raw::Num(Some(v)));
    }
    fn num64(&mut self, v: f64) {
        self.push(Raw::Num64(v));
    }
    fn kind(&mut self, v: ArchetypeId) {
        self.push(Raw::Kind(Some(v)));
    }
    fn tags(&mut self, v: u64) {
        self.push(Raw::Tags(Some(v)));
    }
    fn action(&mut self, v: ActionId) {
        self.push(Raw::Action(v));
    }
    fn choice(&mut self, v: u8) {
        self.push(Raw::Choice(v));
    }
    fn text(&mut self, v: &str) {
        self.push(Raw::Text(v.to_string()));
    }
    fn opt_kind(&mut self, v: Option<ArchetypeId>) {
        self.push(Raw::Kind(v));
    }
    fn opt_tags(&mut self, v: Option<u64>) {
        self.push(Raw::Tags(v));
    }
    fn opt_num(&mut self, v: Option<f32>) {
        self.push(Raw::Num(v));
    }
    fn bool(&mut self, v: bool) {
        self.push(Raw::Bool(v));
    }
}
