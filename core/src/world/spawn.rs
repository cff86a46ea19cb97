//! Creating entities from archetypes (level construction and Commit only).
//!
//! Every new entity's components are computed once, as a [`NewEntity`], then stored in one of
//! two ways that give the same world: one at a time through a reused `EntityBuilder`, or, for a
//! run of consecutive spawns with the same component set, as one hecs column batch (a column
//! per component, filled in order, moved into the archetype at once). Entities keep their
//! order inside an archetype either way, and archetypes are created in the same order, so
//! queries visit the same entities in the same order whichever way they were stored.

use crate::def::{
    ArchetypeDef, ArchetypeId, BodyKind, BoundsPolicy, ControlKind, GameDef, Overrides, RotationDef,
};
use crate::event::{Party, SpawnEvent};
use crate::fault::{Fault, FaultKind};
use crate::math::Vec2;
use crate::world::SimWorld;
use crate::world::components::*;
use hecs::{BatchWriter, ColumnBatchBuilder, ColumnBatchType};

/// Runs shorter than this are stored one entity at a time: a column batch allocates its own
/// columns before moving them into the world, which only pays off for several entities.
/// Measured (callgrind, runs of k spawns with an option each tick): one at a time costs about
/// 5,000 instructions less a run of 2, the same at 4, 5,500 more at 6 and 10,600 more at 8.
const BATCH_MIN: usize = 4;

/// Which optional components an entity has, one bit each in `optional!`'s order (the
/// always-present ones are implied). Consecutive spawns with the same archetype and shape share
/// a column batch.
#[derive(Clone, Copy, PartialEq, Eq)]
struct Shape(u32);

/// One entity of a spawn, in order: its components are its archetype's template at `pos`, or
/// its own (`own`: it has overrides), the next of those computed for the spawn.
struct Made {
    archetype: ArchetypeId,
    shape: Shape,
    own: bool,
    tags: u64,
    pos: Vec2,
    /// Its maximum health, where a spawn's health raised it past its archetype's.
    raised: Option<i32>,
}

/// Each archetype's template of a spawn (its shape and components at no place), by archetype
/// index, where the spawn holds one of it without overrides.
/// Each archetype spawned without overrides in one spawn, its shape and template, in the order
/// first spawned (a spawn holds a few archetypes: found by a walk, not indexed by archetype,
/// whose list up to the largest id spawned cost a template's bytes an archetype).
struct Templates(Vec<(ArchetypeId, Shape, NewEntity)>);

impl Templates {
    fn get(&self, a: ArchetypeId) -> Option<&(ArchetypeId, Shape, NewEntity)> {
        self.0.iter().find(|t| t.0 == a)
    }
}

/// Adds one component type to a batch type.
type AddColumn = fn(&mut ColumnBatchType);

/// The optional components, listed once: the new entity's fields, its shape, how it is added
/// one at a time and how it is written to a column batch all follow from this list.
macro_rules! optional {
    ($($field:ident: $ty:ty),* $(,)?) => {
        /// All components of one new entity; `None` ones are absent.
        #[derive(Clone)]
        struct NewEntity {
            identity: Identity,
            pos: Vec2,
            velocity: Velocity,
            $($field: Option<$ty>,)*
        }

        impl NewEntity {
            /// Which optional components it has.
            fn shape(&self) -> Shape {
                let mut bits = 0u32;
                let mut bit = 1u32;
                $(
                    if self.$field.is_some() {
                        bits |= bit;
                    }
                    bit <<= 1;
                )*
                let _ = bit;
                Shape(bits)
            }

            fn add_to(self, b: &mut hecs::EntityBuilder) {
                b.add(self.identity)
                    .add(Position(self.pos))
                    .add(PrevPosition(self.pos))
                    .add(self.velocity);
                $(
                    if let Some(c) = self.$field {
                        b.add(c);
                    }
                )*
            }
        }

        impl Shape {
            fn batch_type(self) -> ColumnBatchType {
                fn add<T: hecs::Component>(t: &mut ColumnBatchType) {
                    t.add::<T>();
                }
                let mut t = ColumnBatchType::new();
                t.add::<Identity>()
                    .add::<Position>()
                    .add::<PrevPosition>()
                    .add::<Velocity>();
                let optional: &[AddColumn] = &[$(add::<$ty>),*];
                for (i, add) in optional.iter().enumerate() {
                    if self.0 & (1 << i) != 0 {
                        add(&mut t);
                    }
                }
                t
            }
        }

        /// One writer per column of a batch; the optional ones exist when the shape has them.
        struct Columns<'a> {
            identity: BatchWriter<'a, Identity>,
            pos: BatchWriter<'a, Position>,
            prev: BatchWriter<'a, PrevPosition>,
            velocity: BatchWriter<'a, Velocity>,
            $($field: Option<BatchWriter<'a, $ty>>,)*
        }

        impl<'a> Columns<'a> {
            /// The batch's writers: of every column its `shape` has (the batch's), and no
            /// other (whose writer hecs would look for in vain).
            fn new(batch: &'a ColumnBatchBuilder, shape: Shape) -> Columns<'a> {
                let required = "the batch type has every always-present column";
                // The optional columns' bits, in the list's order (as `Shape` numbers them).
                let mut bit = 1u32;
                let mut has = || {
                    let has = shape.0 & bit != 0;
                    bit <<= 1;
                    has
                };
                Columns {
                    identity: batch.writer().expect(required),
                    pos: batch.writer().expect(required),
                    prev: batch.writer().expect(required),
                    velocity: batch.writer().expect(required),
                    $($field: if has() { batch.writer() } else { None },)*
                }
            }

            /// Appends one entity. Its shape is the batch's, so every present value has its
            /// column and every column gets a value; a column's capacity is the run's length.
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
                    & self.velocity.push(e.velocity).is_ok();
                debug_assert!(pushed, "a column holds the whole run");
                $(put(&mut self.$field, e.$field);)*
            }

            /// Appends a run of entities of one template (`t`, whose shape is the batch's),
            /// column by column: each at its place in `run`, with sequences from `seq`.
            fn fill(&mut self, t: &NewEntity, run: &[Made], seq: u64) {
                fn fill<T: Clone>(w: &mut Option<BatchWriter<'_, T>>, v: &Option<T>, n: usize) {
                    if let (Some(w), Some(v)) = (w, v) {
                        for _ in 0..n {
                            let pushed = w.push(v.clone()).is_ok();
                            debug_assert!(pushed, "a column holds the whole run");
                        }
                    }
                }
                let mut pushed = true;
                for (k, m) in run.iter().enumerate() {
                    let identity = Identity::new(seq + k as u64, t.identity.archetype);
                    pushed &= self.identity.push(identity).is_ok()
                        & self.pos.push(Position(m.pos)).is_ok()
                        & self.prev.push(PrevPosition(m.pos)).is_ok();
                }
                for _ in run {
                    pushed &= self.velocity.push(t.velocity).is_ok();
                }
                debug_assert!(pushed, "a column holds the whole run");
                $(fill(&mut self.$field, &t.$field, run.len());)*
            }
        }
    };
}

optional! {
    speed: Speed,
    tags: Tags,
    collider: Collider,
    shared_collider: SharedCollider,
    health: Health,
    sprite: Sprite,
    drawn: Drawn,
    brain: Brain,
    aim: Aim,
    control: Control,
    cooldowns: Cooldowns,
    lifetime: Lifetime,
    bounds: BoundsRule,
    camera: CameraTarget,
    motion: Motion,
    rotation: Rotation,
    fixed: StaticBody,
    footing: Footing,
    animation: Animation,
    label: Label,
    look: Look,
    margin: BoundsMargin,
    offscreen: Offscreen,
}

impl NewEntity {
    /// An entity of archetype `a` with `overrides`, spawned at `tick`.
    ///
    /// Long because it is one struct literal with a field per component, each read from the
    /// archetype and the overrides; it runs for every entity spawned, inlined into the batch
    /// that writes the columns.
    #[inline]
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
        let body = a.collider.map(|c| c.body);
        let kind = a.control.as_ref().map(|c| c.kind);
        let platformer = matches!(kind, Some(ControlKind::Platformer(_)));
        let thrust = matches!(kind, Some(ControlKind::Thrust(_)));
        let restyled = overrides.color.is_some() || overrides.size.is_some();
        let shared = a.sprite.is_some() && !restyled;
        Ok(NewEntity {
            identity,
            pos,
            velocity: Velocity(if body == Some(BodyKind::Static) {
                Vec2::ZERO
            } else {
                velocity
            }),
            // Its own only where it is not its archetype's (see [`Speed`]).
            speed: overrides.speed.and_then(|s| Speed::own(s, a.speed)),
            tags: (a.tags != 0).then_some(Tags),
            // Shared where the sprite is (see [`SharedCollider`]).
            collider: a.collider.filter(|_| !shared).map(|c| {
                let shape = match overrides.size {
                    Some(size) if overrides.tile => crate::def::Shape::Box { half: size * 0.5 },
                    Some(size) => c.shape.sized(size),
                    None => c.shape,
                };
                Collider::new(identity.archetype, shape)
            }),
            shared_collider: a.collider.filter(|_| shared).map(|_| SharedCollider),
            // A spawn with more health than the archetype's maximum raises its maximum (see
            // `Made::raised`).
            health: a.health.map(|h| Health {
                current: overrides.health.unwrap_or(h.max),
            }),
            // Only a sprite the spawn changed is the entity's own (see [`Drawn`]).
            drawn: a.sprite.as_ref().filter(|_| !restyled).map(|_| Drawn),
            sprite: a.sprite.as_ref().filter(|_| restyled).map(|s| {
                let mut s = s.clone();
                if let Some(c) = overrides.color {
                    s.color = c;
                }
                if let Some(size) = overrides.size {
                    s.size = size;
                }
                Sprite(s)
            }),
            brain: a
                .behaviour
                .map(|bh| Brain::new(bh.kind, velocity.normalized_or_zero())),
            aim: a.behaviour.map(|_| Aim::default()),
            control: a.control.as_ref().map(|c| Control {
                kind: c.kind,
                move_x: c.move_x,
                move_y: c.move_y,
                accel: c.accel,
                triggers: c.triggers.clone(),
                facing: Vec2::new(1.0, 0.0),
            }),
            cooldowns: (!a.cooldowns.is_empty())
                .then(|| Cooldowns(vec![Deadline::INACTIVE; a.cooldowns.len()])),
            lifetime,
            bounds: (a.bounds != BoundsPolicy::Ignore).then_some(BoundsRule),
            margin: (a.bounds != BoundsPolicy::Ignore && a.bounds_margin != 0.0)
                .then_some(BoundsMargin(a.bounds_margin)),
            offscreen: a.offscreen_destroy.then_some(Offscreen::default()),
            camera: a.camera_target.then_some(CameraTarget),
            motion: motion(def, a),
            // Thrust control steers by the angle: such an entity always rotates, and so does
            // one spawned at an angle.
            rotation: a
                .rotation
                .or_else(|| (thrust || overrides.angle.is_some()).then(RotationDef::default))
                .map(|r| {
                    let angle = overrides.angle.map_or(r.angle, crate::math::wrap_angle);
                    Rotation {
                        angle,
                        prev: angle,
                        spin: r.spin,
                        mode: r.rotate,
                    }
                }),
            fixed: (body == Some(BodyKind::Static)).then_some(StaticBody),
            footing: platformer.then_some(Footing::default()),
            animation: (!a.animations.is_empty()).then_some(Animation {
                slot: 0,
                since: tick,
            }),
            label: a.label.as_ref().map(|l| Label {
                text: overrides.text.as_deref().unwrap_or(&l.text).into(),
                size: l.size,
                color: overrides.color.unwrap_or(l.color),
                offset: l.offset,
                font: l.font,
            }),
            look: overrides.scale.map(Look::scaled),
        })
    }
}

/// The entity's motion rules, if it has any: gravity pulls a dynamic non-trigger collider (or
/// anything with a `gravity_scale`), drag and a speed limit apply where declared.
fn motion(def: &GameDef, a: &ArchetypeDef) -> Option<Motion> {
    let m = a.motion.unwrap_or_default();
    let pulled = a
        .collider
        .is_some_and(|c| c.body == BodyKind::Dynamic && !c.trigger);
    let scale = m.gravity_scale.unwrap_or(if pulled { 1.0 } else { 0.0 });
    let gravity = def.physics.gravity * scale;
    let max_speed = m.max_speed.unwrap_or(f32::INFINITY);
    (gravity != Vec2::ZERO || m.drag > 0.0 || max_speed.is_finite()).then_some(Motion {
        gravity,
        drag: m.drag,
        max_speed,
    })
}

fn archetype(def: &GameDef, id: ArchetypeId) -> Result<&ArchetypeDef, Fault> {
    def.archetype(id)
        .ok_or_else(|| Fault::new(FaultKind::Load, format!("unknown archetype id {}", id.0)))
}

impl SimWorld {
    /// Creates one entity per item, in order, and records a spawn outcome (at `tick`) for
    /// each. `get` reads an item's archetype, position and overrides; `builder` is reused for
    /// entities spawned one at a time. On a fault, the entities of earlier runs exist and the
    /// rest do not.
    pub(crate) fn spawn_all<'a, T>(
        &mut self,
        def: &GameDef,
        builder: &mut hecs::EntityBuilder,
        items: &'a [T],
        tick: u64,
        get: impl Fn(&'a T) -> (ArchetypeId, Vec2, &'a Overrides),
    ) -> Result<(), Fault> {
        self.spawn_runs(def, builder, items, tick, get, BATCH_MIN)
    }

    /// [`spawn_all`](Self::spawn_all) with runs of at least `batch_min` entities stored as
    /// column batches.
    fn spawn_runs<'a, T>(
        &mut self,
        def: &GameDef,
        b: &mut hecs::EntityBuilder,
        items: &'a [T],
        tick: u64,
        get: impl Fn(&'a T) -> (ArchetypeId, Vec2, &'a Overrides),
        batch_min: usize,
    ) -> Result<(), Fault> {
        let (made, own, templates) = self.plan_spawns(def, items, tick, get)?;
        let mut seq = *self.next_seq - made.len() as u64;
        let mut own = own.into_iter();
        // The entity `m` (of sequence `seq`) stands for.
        let mut entity = |m: &Made, seq: u64| -> NewEntity {
            let mut e = match m.own {
                true => own.next().expect("one own entity per item with overrides"),
                false => {
                    let t = templates.get(m.archetype);
                    t.expect("a template per archetype spawned without overrides")
                        .2
                        .clone()
                }
            };
            e.identity.set_seq(seq);
            e.pos = m.pos;
            e
        };
        let mut i = 0;
        while i < made.len() {
            let (key, first) = ((made[i].archetype, made[i].shape), i);
            let len = made[i..]
                .iter()
                .take_while(|m| (m.archetype, m.shape) == key)
                .count();
            i += len;
            let run = &made[first..first + len];
            if len < batch_min {
                for m in run {
                    entity(m, seq).add_to(b);
                    let spawned = self.ecs.spawn(b.build());
                    self.index.insert(seq, spawned, self.ecs.raw());
                    self.tagged.add(&self.index, seq, m.tags);
                    if let Some(max) = m.raised {
                        self.max_health.raised(seq, max);
                    }
                    seq += 1;
                }
            } else {
                let batch = key.1.batch_type().into_batch(len as u32);
                {
                    let mut columns = Columns::new(&batch, key.1);
                    // None where every spawn of the archetype had overrides.
                    let template = templates.get(key.0);
                    match template.filter(|_| run.iter().all(|m| !m.own)) {
                        // The archetype's template everywhere (no overrides): column by column.
                        Some((_, _, t)) => columns.fill(t, run, seq),
                        None => {
                            for (k, m) in run.iter().enumerate() {
                                columns.push(entity(m, seq + k as u64));
                            }
                        }
                    }
                }
                let batch = batch.build().map_err(|_| {
                    Fault::new(FaultKind::Invariant, "a spawn batch was left incomplete")
                })?;
                let entities = self.ecs.spawn_column_batch(batch);
                for (spawned, m) in entities.into_iter().zip(run) {
                    self.index.insert(seq, spawned, self.ecs.raw());
                    self.tagged.add(&self.index, seq, m.tags);
                    if let Some(max) = m.raised {
                        self.max_health.raised(seq, max);
                    }
                    seq += 1;
                }
            }
            self.counters.spawned += len as u64;
        }
        Ok(())
    }

    /// The first half of a spawn, in order (sequences and outcomes follow it): every entity's
    /// archetype, shape and place, and the components of those with overrides; those without
    /// are their archetype's template (built once per archetype and spawn) at their place.
    /// Takes the sequences and records the spawn outcomes.
    fn plan_spawns<'a, T>(
        &mut self,
        def: &GameDef,
        items: &'a [T],
        tick: u64,
        get: impl Fn(&'a T) -> (ArchetypeId, Vec2, &'a Overrides),
    ) -> Result<(Vec<Made>, Vec<NewEntity>, Templates), Fault> {
        // One outcome per item: room for exactly these, however the queue grew before.
        self.spawn_outcomes.reserve_exact(items.len());
        let mut made = Vec::with_capacity(items.len());
        let mut own = Vec::new();
        let mut templates = Templates(Vec::new());
        let level = def.levels.get(self.level).map(|l| l.bounds);
        for item in items {
            let (id, pos, overrides) = get(item);
            let a = archetype(def, id)?;
            if a.bounds != BoundsPolicy::Ignore
                && let Some(bounds) = level
                && !a.bounds_area(bounds).contains(pos)
            {
                self.spawned_outside(a, id.0, pos);
            }
            let seq = *self.next_seq;
            if seq >= Identity::SEQ_END {
                return Err(Fault::new(
                    FaultKind::Exhausted,
                    format!(
                        "the world has spawned {} entities: no creation sequence is left",
                        Identity::SEQ_END - 1
                    ),
                ));
            }
            let identity = Identity::new(seq, id);
            let shape = if overrides.is_none() {
                match templates.get(id) {
                    Some((_, shape, _)) => *shape,
                    None => {
                        let e = NewEntity::new(def, a, identity, pos, overrides, tick)?;
                        let shape = e.shape();
                        templates.0.push((id, shape, e));
                        shape
                    }
                }
            } else {
                let e = NewEntity::new(def, a, identity, pos, overrides, tick)?;
                let shape = e.shape();
                own.push(e);
                shape
            };
            self.record_spawn(a, identity, pos, tick);
            made.push(Made {
                archetype: id,
                shape,
                own: !overrides.is_none(),
                tags: a.tags,
                pos,
                raised: a
                    .health
                    .and_then(|h| overrides.health.filter(|&current| current > h.max)),
            });
        }
        Ok((made, own, templates))
    }

    /// Takes the next sequence number (`identity`'s) and records the entity's spawn outcome.
    fn record_spawn(&mut self, a: &ArchetypeDef, identity: Identity, pos: Vec2, tick: u64) {
        *self.next_seq += 1;
        self.spawn_outcomes.push(SpawnEvent {
            tick,
            entity: Party {
                seq: identity.seq(),
                archetype: identity.archetype,
                tags: a.tags,
                pos,
            },
        });
    }
}

#[cfg(test)]
#[path = "spawn_tests.rs"]
mod tests;
