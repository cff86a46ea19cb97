//! The swarm example's stress drones, by hand: chasers that head for the nearest target on
//! their cadence, move, stay inside the arena and touch the targets they reach.

use crate::def::*;
use crate::frame::input::{ActionKind, ActionSet};
use crate::math::{Color, Rect, Vec2};
use crate::par;
use crate::reference::{Confine, Counts, Entity, entities, hash_columns};
use crate::world::SimWorld;
use rows::{Rows, Rule, Target};

mod rows;

const L_PLAYER: u32 = 1;
const L_ENEMY: u32 = 2;
const L_BULLET: u32 = 4;
const L_GEM: u32 = 8;
const L_WALL: u32 = 16;
const T_PLAYER: u64 = 1;
const T_ENEMY: u64 = 2;

/// The swarm example's stress setting built in code: its player (with its controls) alone in
/// its 1800 x 1200 arena at (0, 0), and its `drone` archetype as the `[stress]` archetype, so
/// `Game::with_entities(def, consequences, n)` adds `n` drones at random places. The pillars,
/// waves, bullets and gems are left out: drones never meet them.
pub fn drones_def() -> GameDef {
    let mut actions = ActionSet::new();
    let player = player(&mut actions);
    let drone = ArchetypeDef {
        name: "drone".into(),
        tags: T_ENEMY,
        speed: 40.0,
        bounds: BoundsPolicy::Confine,
        sprite: Some(circle_sprite(8.0, Color::rgb(0xf4, 0xa2, 0x61), 1)),
        collider: Some(ColliderDef::new(
            Shape::Circle { radius: 4.0 },
            L_ENEMY,
            L_PLAYER | L_BULLET,
            0,
        )),
        health: Some(HealthDef {
            max: 1,
            invulnerable_ticks: 0,
        }),
        behaviour: Some(BehaviourDef {
            kind: BehaviourKind::Chase,
            target: T_PLAYER,
            cadence: Some(30),
            navigate: false,
            range: None,
            idle: Idle::Stop,
        }),
        ..ArchetypeDef::default()
    };
    let names = |n: &[&str]| n.iter().map(|s| s.to_string()).collect::<Vec<_>>();
    let mut level = LevelDef {
        name: "arena".into(),
        bounds: Rect::centered(Vec2::new(1800.0, 1200.0)),
        ..LevelDef::default()
    };
    level.placements.push(Placement {
        archetype: ArchetypeId(0),
        pos: Vec2::ZERO,
        overrides: Overrides::default(),
    });
    GameDef {
        name: "Swarm drones".into(),
        seed: 2026,
        ai: AiPolicy { default_cadence: 8 },
        actions,
        tags: names(&["player", "enemy", "bullet", "gem", "wall"]),
        layers: names(&["player", "enemy", "bullet", "gem", "wall"]),
        archetypes: vec![player, drone],
        levels: vec![level],
        stress: Some(StressDef {
            archetype: ArchetypeId(1),
            area: None,
        }),
        ..GameDef::default()
    }
}

/// The swarm's player, with its controls (their actions added to `actions`).
fn player(actions: &mut ActionSet) -> ArchetypeDef {
    let added = "three distinct actions fit";
    let move_x = actions.add("move_x", ActionKind::Axis).expect(added);
    let move_y = actions.add("move_y", ActionKind::Axis).expect(added);
    let fire = actions.add("fire", ActionKind::Button).expect(added);
    ArchetypeDef {
        name: "player".into(),
        tags: T_PLAYER,
        speed: 230.0,
        camera_target: true,
        bounds: BoundsPolicy::Confine,
        cooldowns: vec![CooldownDef {
            name: "fire".into(),
            ticks: 7,
        }],
        sprite: Some(circle_sprite(24.0, Color::rgb(0x4c, 0xc9, 0xf0), 3)),
        // A circle's radius defaults to half the sprite's larger side.
        collider: Some(ColliderDef {
            stay: true,
            ..ColliderDef::new(
                Shape::Circle { radius: 12.0 },
                L_PLAYER,
                L_ENEMY | L_GEM,
                L_WALL,
            )
        }),
        health: Some(HealthDef {
            max: 6,
            invulnerable_ticks: 50,
        }),
        control: Some(ControlDef {
            kind: ControlKind::TopDown,
            move_x: Some(move_x),
            move_y: Some(move_y),
            accel: None,
            triggers: vec![TriggerDef {
                action: fire,
                on: TriggerOn::Hold,
                cooldown: Some(0),
                aim: T_ENEMY,
            }],
        }),
        ..ArchetypeDef::default()
    }
}

/// A circle sprite of `size` at `layer`.
fn circle_sprite(size: f32, color: Color, layer: i16) -> SpriteDef {
    SpriteDef {
        shape: SpriteShape::Circle,
        size: Vec2::new(size, size),
        color,
        layer,
        depth: 0.0,
        frame: 0,
        flip_x: false,
        flip_y: false,
        alpha: 1.0,
    }
}

/// Chasing drones as columns, in creation order. See the module documentation of
/// [`reference`](crate::reference) for what it promises.
///
/// Per tick, in the tick's phase order:
/// 1. **decide**, in a pass of its own, for the drones due (`tick >= next`, `next` 0 before
///    the first decision): head for the nearest target (ties to the lower sequence),
///    `intent = (target - pos)` normalized (zero when on it or without targets), then
///    `next = tick + cadence - (tick + seq) % cadence`;
/// 2. then one pass over every drone: **previous position** copied from the current one;
///    **velocity** `= intent * speed`; **integrate** `p += v dt` (kept when not finite);
///    **confine** to the arena (the velocity into a wall becomes 0); **touch**: a bit per
///    target, set when `|p - target|² < (r_drone + r_target)²`, which compared with last
///    tick's bits gives enter, stay (for pairs that ask for stay events) and exit counts.
///    Contacts are a set, so counting them needs no sort.
///
/// Deciding in a pass of its own changes nothing: decisions read the positions from before
/// this tick's motion, as the tick's Intent phase does.
///
/// Targets never go away, so a drone's target is never lost.
#[derive(Clone)]
pub struct Drones {
    tick: u64,
    dt: f32,
    speed: f32,
    cadence: u64,
    confine: Confine,
    /// Bit `k` set when contacts with target `k` are reported as stay events.
    stay_mask: u64,
    targets: Vec<Target>,
    seq: Vec<u64>,
    x: Vec<f32>,
    y: Vec<f32>,
    prev_x: Vec<f32>,
    prev_y: Vec<f32>,
    vx: Vec<f32>,
    vy: Vec<f32>,
    /// The last decided heading (a unit vector or zero).
    ix: Vec<f32>,
    iy: Vec<f32>,
    /// The next decision tick.
    next: Vec<u64>,
    /// Bit `k` set while touching target `k`.
    touching: Vec<u64>,
    /// Whether a tick's passes split between two threads ([`Drones::with_split`]).
    split: bool,
}

impl Drones {
    /// Takes the drones (the entities with a chase behaviour) and their targets from a built
    /// world, so the reference starts from exactly the world's state.
    ///
    /// # Panics
    /// If the world holds what this reference does not model: drones that differ from each
    /// other, navigate, push, touch each other or carry more than a chase behaviour, a
    /// collider, health and confining bounds; targets that move, behave, or touch each other; more than 64 targets;
    /// or colliders that are neither drones nor targets.
    pub fn from_world(world: &SimWorld, def: &GameDef) -> Drones {
        Drones::build(world, def, true)
    }

    /// The drones of a world that holds other colliders too (a game's level: walls the
    /// player pushes against, pickups): those are left out, with their contacts, so the
    /// reference does the drones' work alone. For measuring a game's tick next to its
    /// drones; its contact counts are the drones' only.
    ///
    /// # Panics
    /// As [`from_world`](Self::from_world), except for colliders that are neither drones nor
    /// targets and targets that touch them.
    pub fn beside(world: &SimWorld, def: &GameDef) -> Drones {
        Drones::build(world, def, false)
    }

    fn build(world: &SimWorld, def: &GameDef, strict: bool) -> Drones {
        let level = world
            .level_def(def)
            .expect("the world's level is in the definition");
        let all = entities(world, def);
        let first = all.iter().find(|e| is_drone(e)).expect("a drone");
        let collider = first.collider.expect("a drone has a collider");
        let Shape::Circle { radius } = collider.shape else {
            panic!("a drone's collider is a circle");
        };
        let drones: Vec<_> = all.iter().filter(|e| is_drone(e)).collect();
        for d in &drones {
            assert!(
                (d.wants, d.cadence, d.navigate, d.speed, d.collider)
                    == (
                        first.wants,
                        first.cadence,
                        false,
                        first.speed,
                        Some(collider)
                    )
                    && d.bounds == BoundsPolicy::Confine
                    && !d.unmodelled,
                "drone {} differs from the first or has rules this reference leaves out",
                d.seq
            );
        }
        assert!(
            !collider.trigger && collider.push == 0 && collider.mask & collider.layer == 0,
            "drones neither trigger, push nor touch each other"
        );
        let (targets, stay_mask) = targets(&all, first, collider, radius);
        assert!(targets.len() <= 64, "at most 64 targets");
        if strict {
            only_drones_and_targets(&all, &targets);
        }
        let col =
            |f: &dyn Fn(&Entity) -> f32| -> Vec<f32> { drones.iter().map(|d| f(d)).collect() };
        Drones {
            tick: world.tick(),
            dt: def.tick.tick_seconds(),
            speed: first.speed,
            cadence: first.cadence,
            confine: Confine::new(level.bounds, collider.shape.half_extents()),
            stay_mask,
            targets,
            seq: drones.iter().map(|d| d.seq).collect(),
            x: col(&|d| d.pos.x),
            y: col(&|d| d.pos.y),
            prev_x: col(&|d| d.pos.x),
            prev_y: col(&|d| d.pos.y),
            vx: col(&|d| d.vel.x),
            vy: col(&|d| d.vel.y),
            ix: col(&|d| d.brain.map_or(0.0, |b| b.intent.x)),
            iy: col(&|d| d.brain.map_or(0.0, |b| b.intent.y)),
            next: drones
                .iter()
                .map(|d| {
                    d.brain
                        .filter(|b| b.decided())
                        .map_or(0, |b| b.next_decision())
                })
                .collect(),
            touching: vec![0; drones.len()],
            split: false,
        }
        .with_contacts(world)
    }

    /// Sets the touching bits from the world's contact cache (empty before the first tick).
    fn with_contacts(mut self, world: &SimWorld) -> Drones {
        for key in world.contacts().keys() {
            let (lo, hi) = key.pair();
            for (drone, other) in [(lo, hi), (hi, lo)] {
                let (Ok(i), Some(k)) = (
                    self.seq.binary_search(&drone),
                    self.targets.iter().position(|t| t.seq == other),
                ) else {
                    continue;
                };
                self.touching[i] |= 1 << k;
            }
        }
        self
    }

    /// One tick; the contact counts it gives.
    pub fn step(&mut self) -> Counts {
        self.tick += 1;
        let targets = std::mem::take(&mut self.targets);
        let rule = self.rule();
        let split = self.split && self.seq.len() >= par::SPLIT_MIN && par::available();
        let rows = self.rows();
        let counts = if split {
            // Two halves, each deciding and moving its rows, the second on the worker: the
            // tick's split of a pass over as many rows.
            let mid = rows.len() / 2;
            let (a, b) = rows.split_at(mid);
            let (ca, cb) = par::join(|| a.step(&rule, &targets), || b.step(&rule, &targets));
            ca + cb
        } else {
            rows.step(&rule, &targets)
        };
        self.targets = targets;
        counts
    }

    /// Splits each tick's passes between two threads where the tick would (from
    /// [`SPLIT_MIN`](par::SPLIT_MIN) drones, on a machine with two cores), the halves joined
    /// in row order: the same results, the two-thread yardstick of a tick that splits.
    pub fn with_split(mut self, split: bool) -> Drones {
        self.split = split;
        self
    }

    /// What every drone's step shares.
    fn rule(&self) -> Rule {
        Rule {
            tick: self.tick,
            cadence: self.cadence,
            dt: self.dt,
            speed: self.speed,
            confine: self.confine,
            stay_mask: self.stay_mask,
        }
    }

    /// Every drone's columns.
    fn rows(&mut self) -> Rows<'_> {
        let n = self.seq.len();
        Rows {
            seq: &self.seq[..n],
            next: &mut self.next[..n],
            x: &mut self.x[..n],
            y: &mut self.y[..n],
            prev_x: &mut self.prev_x[..n],
            prev_y: &mut self.prev_y[..n],
            vx: &mut self.vx[..n],
            vy: &mut self.vy[..n],
            ix: &mut self.ix[..n],
            iy: &mut self.iy[..n],
            touching: &mut self.touching[..n],
        }
    }

    /// The xxh3 hash of every drone's `(seq, pos.x, pos.y, vel.x, vel.y)` as little-endian
    /// bytes, in creation order (what [`hash_bodies`](crate::reference::hash_bodies) gives for
    /// [`seqs`](Self::seqs) in a world in the same state).
    pub fn hash(&self) -> u64 {
        hash_columns(&self.seq, &self.x, &self.y, &self.vx, &self.vy)
    }

    /// The drones' creation sequences, ascending.
    pub fn seqs(&self) -> &[u64] {
        &self.seq
    }

    pub fn len(&self) -> usize {
        self.seq.len()
    }

    pub fn is_empty(&self) -> bool {
        self.seq.is_empty()
    }

    /// The last tick stepped (the world's tick at [`from_world`](Self::from_world) before
    /// any step).
    pub fn tick(&self) -> u64 {
        self.tick
    }
}

/// Whether an entity is a drone: a chaser.
fn is_drone(e: &Entity) -> bool {
    e.brain.is_some_and(|b| b.kind() == BehaviourKind::Chase)
}

/// The drones' targets (what `first`, a drone with `collider` of `radius`, wants), each
/// checked to hold still and to be a circle or have no collider; and the mask of those whose
/// contacts stay.
fn targets(
    all: &[Entity],
    first: &Entity,
    collider: ColliderDef,
    radius: f32,
) -> (Vec<Target>, u64) {
    let mut targets = Vec::new();
    let mut stay_mask = 0u64;
    for t in all.iter().filter(|e| e.tags & first.wants != 0) {
        assert!(
            !is_drone(t) && t.brain.is_none() && t.vel == Vec2::ZERO,
            "target {} holds still",
            t.seq
        );
        let reach2 = match t.collider {
            Some(c) => {
                let Shape::Circle { radius: r } = c.shape else {
                    panic!("target {}'s collider is a circle", t.seq);
                };
                assert!(
                    !c.trigger && c.push & collider.layer == 0,
                    "target {} neither triggers nor pushes drones",
                    t.seq
                );
                if c.stay || collider.stay {
                    stay_mask |= 1 << targets.len();
                }
                let report = c.mask & collider.layer != 0 || collider.mask & c.layer != 0;
                let reach = r + radius;
                if report {
                    reach * reach
                } else {
                    f32::NEG_INFINITY
                }
            }
            None => f32::NEG_INFINITY,
        };
        targets.push(Target {
            seq: t.seq,
            pos: t.pos,
            reach2,
        });
    }
    (targets, stay_mask)
}

/// Checks that every collider is a drone or a target, and that no two targets may touch.
fn only_drones_and_targets(all: &[Entity], targets: &[Target]) {
    for (i, a) in all.iter().enumerate() {
        let (Some(ca), false) = (a.collider, is_drone(a)) else {
            continue;
        };
        assert!(
            targets.iter().any(|t| t.seq == a.seq),
            "collider {} is neither a drone nor a target",
            a.seq
        );
        for b in all[i + 1..].iter().filter(|b| !is_drone(b)) {
            let Some(cb) = b.collider else { continue };
            let meet = (ca.mask | ca.push) & cb.layer != 0 || (cb.mask | cb.push) & ca.layer != 0;
            assert!(!meet, "targets {} and {} may touch", a.seq, b.seq);
        }
    }
}
