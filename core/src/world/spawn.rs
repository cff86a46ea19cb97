//! Creating entities from archetypes (level construction and Commit only).
//!
//! Every new entity's components are computed once, as a [`NewEntity`], then stored in one of
//! two ways that give the same world: one at a time through a reused `EntityBuilder`, or, for a
//! run of consecutive spawns with the same component set, as one hecs column batch (a column
//! per component, filled in order, moved into the archetype at once). Entities keep their
//! order inside an archetype either way, and archetypes are created in the same order, so
//! queries visit the same entities in the same order whichever way they were stored.

use crate::def::{ArchetypeDef, ArchetypeId, BoundsPolicy, GameDef, Overrides};
use crate::event::{Party, SpawnEvent};
use crate::fault::{Fault, FaultKind};
use crate::math::Vec2;
use crate::world::SimWorld;
use crate::world::components::*;
use hecs::{BatchWriter, ColumnBatchBuilder, ColumnBatchType};

/// Runs shorter than this are stored one entity at a time: a column batch allocates its own
/// columns before moving them into the world, which only pays off for several entities.
const BATCH_MIN: usize = 16;

/// Which optional components an entity has, one bit each (the always-present ones are
/// implied). Consecutive spawns with the same archetype and shape share a column batch.
#[derive(Clone, Copy, PartialEq, Eq)]
struct Shape(u16);

impl Shape {
    const TAGS: u16 = 1;
    const COLLIDER: u16 = 1 << 1;
    const HEALTH: u16 = 1 << 2;
    const SPRITE: u16 = 1 << 3;
    const BRAIN: u16 = 1 << 4;
    const CONTROL: u16 = 1 << 5;
    const COOLDOWNS: u16 = 1 << 6;
    const LIFETIME: u16 = 1 << 7;
    const BOUNDS: u16 = 1 << 8;
    const CAMERA: u16 = 1 << 9;

    fn of(a: &ArchetypeDef, overrides: &Overrides) -> Shape {
        let flags = [
            (a.tags != 0, Self::TAGS),
            (a.collider.is_some(), Self::COLLIDER),
            (a.health.is_some(), Self::HEALTH),
            (a.sprite.is_some(), Self::SPRITE),
            (a.behaviour.is_some(), Self::BRAIN),
            (a.control.is_some(), Self::CONTROL),
            (!a.cooldowns.is_empty(), Self::COOLDOWNS),
            (overrides.lifetime.or(a.lifetime).is_some(), Self::LIFETIME),
            (a.bounds != BoundsPolicy::Ignore, Self::BOUNDS),
            (a.camera_target, Self::CAMERA),
        ];
        Shape(
            flags
                .iter()
                .filter(|(on, _)| *on)
                .fold(0, |bits, (_, bit)| bits | bit),
        )
    }

    fn has(self, bit: u16) -> bool {
        self.0 & bit != 0
    }

    fn batch_type(self) -> ColumnBatchType {
        fn add<T: hecs::Component>(t: &mut ColumnBatchType) {
            t.add::<T>();
        }
        let mut t = ColumnBatchType::new();
        t.add::<Identity>()
            .add::<Position>()
            .add::<PrevPosition>()
            .add::<Velocity>()
            .add::<Speed>();
        let optional: [(u16, AddColumn); 10] = [
            (Self::TAGS, add::<Tags>),
            (Self::COLLIDER, add::<Collider>),
            (Self::HEALTH, add::<Health>),
            (Self::SPRITE, add::<Sprite>),
            (Self::BRAIN, add::<Brain>),
            (Self::CONTROL, add::<Control>),
            (Self::COOLDOWNS, add::<Cooldowns>),
            (Self::LIFETIME, add::<Lifetime>),
            (Self::BOUNDS, add::<BoundsRule>),
            (Self::CAMERA, add::<CameraTarget>),
        ];
        for (bit, add) in optional {
            if self.has(bit) {
                add(&mut t);
            }
        }
        t
    }
}

/// Adds one component type to a batch type.
type AddColumn = fn(&mut ColumnBatchType);

/// All components of one new entity; `None` ones are absent.
struct NewEntity {
    identity: Identity,
    pos: Vec2,
    velocity: Velocity,
    speed: Speed,
    tags: Option<Tags>,
    collider: Option<Collider>,
    health: Option<Health>,
    sprite: Option<Sprite>,
    brain: Option<Brain>,
    control: Option<Control>,
    cooldowns: Option<Cooldowns>,
    lifetime: Option<Lifetime>,
    bounds: Option<BoundsRule>,
    camera: bool,
}

impl NewEntity {
    fn new(
        def: &GameDef,
        a: &ArchetypeDef,
        identity: Identity,
        pos: Vec2,
        overrides: &Overrides,
        tick: u64,
    ) -> Result<NewEntity, Fault> {
        let velocity = overrides.velocity.unwrap_or(a.velocity);
        let lifetime = match overrides.lifetime.or(a.lifetime) {
            Some(life) => Some(Lifetime(
                Deadline::after(tick, u64::from(life)).ok_or_else(|| {
                    Fault::new(
                        FaultKind::Exhausted,
                        "lifetime deadline overflows the tick counter",
                    )
                })?,
            )),
            None => None,
        };
        Ok(NewEntity {
            identity,
            pos,
            velocity: Velocity(velocity),
            speed: Speed(overrides.speed.unwrap_or(a.speed)),
            tags: (a.tags != 0).then_some(Tags(a.tags)),
            collider: a.collider.map(Collider),
            health: a.health.map(|h| {
                let current = overrides.health.unwrap_or(h.max);
                Health {
                    current,
                    max: h.max.max(current),
                    invulnerable_ticks: h.invulnerable_ticks,
                    invulnerable_until: Deadline::Inactive,
                }
            }),
            sprite: a.sprite.as_ref().map(|s| {
                let mut s = s.clone();
                if let Some(c) = overrides.color {
                    s.color = c;
                }
                Sprite(s)
            }),
            brain: a.behaviour.map(|bh| Brain {
                kind: bh.kind,
                target_tags: bh.target,
                cadence: bh.cadence.unwrap_or(def.ai.default_cadence).max(1),
                intent: velocity.normalized_or_zero(),
                target: None,
                decided: false,
                next_decision: 0,
                navigate: bh.navigate,
            }),
            control: a.control.as_ref().map(|c| Control {
                move_x: c.move_x,
                move_y: c.move_y,
                triggers: c.triggers.clone(),
                facing: Vec2::new(1.0, 0.0),
            }),
            cooldowns: (!a.cooldowns.is_empty())
                .then(|| Cooldowns(vec![Deadline::Inactive; a.cooldowns.len()])),
            lifetime,
            bounds: (a.bounds != BoundsPolicy::Ignore).then_some(BoundsRule(a.bounds)),
            camera: a.camera_target,
        })
    }

    fn add_to(self, b: &mut hecs::EntityBuilder) {
        b.add(self.identity)
            .add(Position(self.pos))
            .add(PrevPosition(self.pos))
            .add(self.velocity)
            .add(self.speed);
        if let Some(c) = self.tags {
            b.add(c);
        }
        if let Some(c) = self.collider {
            b.add(c);
        }
        if let Some(c) = self.health {
            b.add(c);
        }
        if let Some(c) = self.sprite {
            b.add(c);
        }
        if let Some(c) = self.brain {
            b.add(c);
        }
        if let Some(c) = self.control {
            b.add(c);
        }
        if let Some(c) = self.cooldowns {
            b.add(c);
        }
        if let Some(c) = self.lifetime {
            b.add(c);
        }
        if let Some(c) = self.bounds {
            b.add(c);
        }
        if self.camera {
            b.add(CameraTarget);
        }
    }
}

/// One writer per column of a batch; the optional ones exist when the shape has them.
struct Columns<'a> {
    identity: BatchWriter<'a, Identity>,
    pos: BatchWriter<'a, Position>,
    prev: BatchWriter<'a, PrevPosition>,
    velocity: BatchWriter<'a, Velocity>,
    speed: BatchWriter<'a, Speed>,
    tags: Option<BatchWriter<'a, Tags>>,
    collider: Option<BatchWriter<'a, Collider>>,
    health: Option<BatchWriter<'a, Health>>,
    sprite: Option<BatchWriter<'a, Sprite>>,
    brain: Option<BatchWriter<'a, Brain>>,
    control: Option<BatchWriter<'a, Control>>,
    cooldowns: Option<BatchWriter<'a, Cooldowns>>,
    lifetime: Option<BatchWriter<'a, Lifetime>>,
    bounds: Option<BatchWriter<'a, BoundsRule>>,
    camera: Option<BatchWriter<'a, CameraTarget>>,
}

impl<'a> Columns<'a> {
    fn new(batch: &'a ColumnBatchBuilder) -> Columns<'a> {
        let required = "the batch type has every always-present column";
        Columns {
            identity: batch.writer().expect(required),
            pos: batch.writer().expect(required),
            prev: batch.writer().expect(required),
            velocity: batch.writer().expect(required),
            speed: batch.writer().expect(required),
            tags: batch.writer(),
            collider: batch.writer(),
            health: batch.writer(),
            sprite: batch.writer(),
            brain: batch.writer(),
            control: batch.writer(),
            cooldowns: batch.writer(),
            lifetime: batch.writer(),
            bounds: batch.writer(),
            camera: batch.writer(),
        }
    }

    /// Appends one entity. Its shape is the batch's, so every present value has its column
    /// and every column gets a value; a column's capacity is the run's length.
    fn push(&mut self, e: NewEntity) {
        fn put<T>(w: &mut Option<BatchWriter<'_, T>>, v: Option<T>) {
            if let (Some(w), Some(v)) = (w, v) {
                let pushed = w.push(v).is_ok();
                debug_assert!(pushed, "a column holds the whole run");
            }
        }
        let pushed = self.identity.push(e.identity).is_ok()
            & self.pos.push(Position(e.pos)).is_ok()
            & self.prev.push(PrevPosition(e.pos)).is_ok()
            & self.velocity.push(e.velocity).is_ok()
            & self.speed.push(e.speed).is_ok();
        debug_assert!(pushed, "a column holds the whole run");
        put(&mut self.tags, e.tags);
        put(&mut self.collider, e.collider);
        put(&mut self.health, e.health);
        put(&mut self.sprite, e.sprite);
        put(&mut self.brain, e.brain);
        put(&mut self.control, e.control);
        put(&mut self.cooldowns, e.cooldowns);
        put(&mut self.lifetime, e.lifetime);
        put(&mut self.bounds, e.bounds);
        put(&mut self.camera, e.camera.then_some(CameraTarget));
    }
}

fn archetype(def: &GameDef, id: ArchetypeId) -> Result<&ArchetypeDef, Fault> {
    def.archetype(id)
        .ok_or_else(|| Fault::new(FaultKind::Load, format!("unknown archetype id {}", id.0)))
}

impl SimWorld {
    /// Creates one entity per item, in order, and records a spawn outcome (at `tick`) for
    /// each. `get` reads an item's archetype, position and overrides. On a fault, the
    /// entities of earlier runs exist and the rest do not.
    pub(crate) fn spawn_all<'a, T>(
        &mut self,
        def: &GameDef,
        items: &'a [T],
        tick: u64,
        get: impl Fn(&'a T) -> (ArchetypeId, Vec2, &'a Overrides),
    ) -> Result<(), Fault> {
        self.spawn_runs(def, items, tick, get, BATCH_MIN)
    }

    /// [`spawn_all`](Self::spawn_all) with runs of at least `batch_min` entities stored as
    /// column batches.
    fn spawn_runs<'a, T>(
        &mut self,
        def: &GameDef,
        items: &'a [T],
        tick: u64,
        get: impl Fn(&'a T) -> (ArchetypeId, Vec2, &'a Overrides),
        batch_min: usize,
    ) -> Result<(), Fault> {
        // One outcome per item: room for exactly these, however the queue grew before.
        self.spawn_outcomes.reserve_exact(items.len());
        let mut start = 0;
        while start < items.len() {
            let (id, _, overrides) = get(&items[start]);
            let a = archetype(def, id)?;
            let shape = Shape::of(a, overrides);
            let len = items[start..]
                .iter()
                .take_while(|item| {
                    let (other, _, o) = get(item);
                    other == id && Shape::of(a, o) == shape
                })
                .count();
            let run = &items[start..start + len];
            if len < batch_min {
                for item in run {
                    let (_, pos, overrides) = get(item);
                    let e = self.next_entity(def, a, id, pos, overrides, tick)?;
                    let b = &mut self.scratch.builder;
                    e.add_to(b);
                    let entity = self.ecs.spawn(b.build());
                    self.index.insert(self.next_seq - 1, entity);
                }
            } else {
                let first = self.next_seq;
                let batch = shape.batch_type().into_batch(len as u32);
                {
                    let mut columns = Columns::new(&batch);
                    for item in run {
                        let (_, pos, overrides) = get(item);
                        columns.push(self.next_entity(def, a, id, pos, overrides, tick)?);
                    }
                }
                let batch = batch.build().map_err(|_| {
                    Fault::new(FaultKind::Invariant, "a spawn batch was left incomplete")
                })?;
                for (seq, entity) in (first..).zip(self.ecs.spawn_column_batch(batch)) {
                    self.index.insert(seq, entity);
                }
            }
            self.counters.spawned += len as u64;
            start += len;
        }
        Ok(())
    }

    /// Takes the next sequence number, computes the entity's components and records its
    /// spawn outcome.
    fn next_entity(
        &mut self,
        def: &GameDef,
        a: &ArchetypeDef,
        archetype: ArchetypeId,
        pos: Vec2,
        overrides: &Overrides,
        tick: u64,
    ) -> Result<NewEntity, Fault> {
        let seq = self.next_seq;
        let e = NewEntity::new(def, a, Identity { seq, archetype }, pos, overrides, tick)?;
        self.next_seq += 1;
        self.spawn_outcomes.push(SpawnEvent {
            tick,
            entity: Party {
                seq,
                archetype,
                tags: a.tags,
                pos,
            },
        });
        Ok(e)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::def::*;
    use crate::math::Color;
    use crate::world::WorldId;

    fn def() -> GameDef {
        let sprite = SpriteDef {
            shape: SpriteShape::Circle,
            size: Vec2::new(4.0, 4.0),
            color: Color::WHITE,
            layer: 1,
            depth: 0.0,
        };
        let full = ArchetypeDef {
            name: "full".into(),
            sprite: Some(sprite.clone()),
            collider: Some(ColliderDef {
                shape: crate::def::Shape::Circle { radius: 2.0 },
                layer: 1,
                mask: 1,
                push: 0,
                trigger: false,
                stay: false,
            }),
            health: Some(HealthDef {
                max: 5,
                invulnerable_ticks: 3,
            }),
            speed: 7.0,
            velocity: Vec2::new(1.0, 2.0),
            behaviour: Some(BehaviourDef {
                kind: BehaviourKind::Chase,
                target: 1,
                cadence: None,
                navigate: false,
            }),
            control: Some(ControlDef {
                move_x: None,
                move_y: None,
                triggers: vec![],
            }),
            cooldowns: vec![CooldownDef {
                name: "fire".into(),
                ticks: 4,
            }],
            lifetime: Some(90),
            tags: 1,
            bounds: BoundsPolicy::Confine,
            camera_target: true,
        };
        let plain = ArchetypeDef {
            name: "plain".into(),
            sprite: Some(sprite),
            speed: 1.0,
            ..ArchetypeDef::default()
        };
        GameDef {
            tags: vec!["t".into()],
            archetypes: vec![full, plain],
            levels: vec![LevelDef::default()],
            ..GameDef::default()
        }
    }

    /// Every entity's components, in storage order (archetype by archetype).
    fn contents(w: &SimWorld) -> Vec<String> {
        w.ecs
            .iter()
            .map(|e| {
                format!(
                    "{:?}",
                    (
                        e.get::<&Identity>().map(|c| *c),
                        e.get::<&Position>().map(|c| *c),
                        e.get::<&PrevPosition>().map(|c| *c),
                        e.get::<&Velocity>().map(|c| *c),
                        e.get::<&Speed>().map(|c| *c),
                        e.get::<&Tags>().map(|c| *c),
                        e.get::<&Collider>().map(|c| *c),
                        e.get::<&Health>().map(|c| *c),
                        e.get::<&Sprite>().map(|c| Sprite::clone(&c)),
                        e.get::<&Brain>().map(|c| *c),
                        e.get::<&Control>().map(|c| Control::clone(&c)),
                        (
                            e.get::<&Cooldowns>().map(|c| Cooldowns::clone(&c)),
                            e.get::<&Lifetime>().map(|c| *c),
                            e.get::<&BoundsRule>().map(|c| *c),
                            e.has::<CameraTarget>(),
                            e.component_types().count(),
                        ),
                    )
                )
            })
            .collect()
    }

    #[test]
    fn batched_and_single_spawns_build_the_same_world() {
        let def = def();
        let (full, plain) = (ArchetypeId(0), ArchetypeId(1));
        let none = Overrides::default();
        let short = Overrides {
            lifetime: Some(5),
            ..Overrides::default()
        };
        let red = Overrides {
            color: Some(Color::rgb(255, 0, 0)),
            health: Some(9),
            velocity: Some(Vec2::new(-3.0, 0.0)),
            speed: Some(2.0),
            ..Overrides::default()
        };
        let mut items = Vec::new();
        for i in 0..200 {
            let pos = Vec2::new(i as f32, -(i as f32));
            // Runs of one, of a few and of many, and shapes that differ only by overrides.
            let (a, o) = match i {
                0..20 => (full, &none),
                20..23 => (plain, &none),
                23..60 => (plain, if i % 2 == 0 { &short } else { &none }),
                60..100 => (plain, &red),
                100..117 => (full, &red),
                _ => (if i % 7 == 0 { full } else { plain }, &none),
            };
            items.push((a, pos, o));
        }
        let build = |batch_min: usize| {
            let mut w = SimWorld::build(&def, 0, WorldId(1), 0).unwrap();
            w.spawn_runs(&def, &items, 3, |(a, p, o)| (*a, *p, *o), batch_min)
                .unwrap();
            w
        };
        let single = build(usize::MAX);
        for batch_min in [1, 2, BATCH_MIN] {
            let batched = build(batch_min);
            assert_eq!(
                contents(&batched),
                contents(&single),
                "batch_min {batch_min}"
            );
            assert_eq!(batched.spawn_outcomes, single.spawn_outcomes);
            assert_eq!(batched.next_seq, single.next_seq);
            assert_eq!(batched.counters.spawned, 200);
            for seq in batched.next_seq - 200..batched.next_seq {
                let e = batched.index[&seq];
                assert_eq!(batched.ecs.get::<&Identity>(e).unwrap().seq, seq);
            }
        }
    }
}
