//! The `tick` bench's crowd, by hand: wandering circles that report contacts with each other,
//! lose health on every new contact and, in the pushing crowd, push each other apart.

use crate::command::{Command, CommandError};
use crate::consequences::{Consequences, Gameplay};
use crate::def::*;
use crate::fault::Fault;
use crate::math::{Color, Rect, Vec2};
use crate::phase::Stage;
use crate::reference::{
    Confine, Counts, Entity, entities, hash_columns, move_body, next_decision, radix_sort,
};
use crate::tick::decide::entity_random;
use crate::world::SimWorld;
use crate::world::components::{Collider, Identity, SharedCollider};
use hecs::Or;

/// The crowd's consequences: every new contact takes 1 health from both bodies. The `tick`
/// bench and `ludus bench --workload crowd` run the crowd with them, and [`Crowd`] models them.
pub struct Bumps;

impl Consequences for Bumps {
    fn stage(&mut self, stage: Stage, g: &mut Gameplay<'_>) -> Result<(), Fault> {
        if stage == Stage::One {
            for i in 0..g.events().collision_enter.len() {
                let e = g.events().collision_enter[i];
                for target in [e.a.seq, e.b.seq] {
                    g.send(Command::Damage {
                        target,
                        amount: 1,
                        source: None,
                    })
                    .map_err(CommandError::into_fault)?;
                }
            }
        }
        Ok(())
    }
}

/// The `tick` bench's crowd: `n` wandering circles of radius 3 as the `[stress]` archetype,
/// one per 400 square units of a square level, confined, re-deciding every 30 ticks, each
/// reporting contacts with the others. With `push`, every body also pushes every other apart
/// (the pushing crowd).
pub fn crowd_def(n: u32, push: bool) -> GameDef {
    let side = (n as f32 * 400.0).sqrt();
    let body = ArchetypeDef {
        name: "mover".into(),
        sprite: Some(SpriteDef {
            shape: SpriteShape::Circle,
            size: Vec2::new(6.0, 6.0),
            color: Color::WHITE,
            layer: 0,
            depth: 0.0,
            frame: 0,
            flip_x: false,
            flip_y: false,
            alpha: 1.0,
        }),
        collider: Some(ColliderDef::new(
            Shape::Circle { radius: 3.0 },
            1,
            1,
            if push { 1 } else { 0 },
        )),
        health: Some(HealthDef {
            max: 1_000_000,
            invulnerable_ticks: 0,
        }),
        speed: 40.0,
        behaviour: Some(BehaviourDef {
            kind: BehaviourKind::Wander,
            target: 0,
            cadence: Some(30),
            navigate: false,
            range: None,
            idle: Idle::Stop,
        }),
        bounds: BoundsPolicy::Confine,
        ..ArchetypeDef::default()
    };
    GameDef {
        layers: vec!["body".into()],
        archetypes: vec![body],
        levels: vec![LevelDef {
            bounds: Rect::centered(Vec2::new(side, side)),
            ..LevelDef::default()
        }],
        stress: Some(StressDef {
            archetype: ArchetypeId(0),
            area: None,
        }),
        limits: crowd_limits(n),
        ..GameDef::default()
    }
}

/// The crowd's limits: the defaults, raised with `n` where the crowd fills them (its bodies,
/// a contact for every body, events and two damage commands for every contact), so that every
/// count runs (at 256k bodies the first tick's contacts ask for more than the default 65,536
/// commands).
fn crowd_limits(n: u32) -> Limits {
    let d = Limits::DEFAULT;
    Limits {
        max_entities: d.max_entities.max(n),
        events_per_tick: d.events_per_tick.max(n),
        commands_per_tick: d.commands_per_tick.max(n.saturating_mul(2)),
        contacts_per_tick: d.contacts_per_tick.max(n),
        ..d
    }
}

/// Grid cells are sized for about this many bodies each (and never narrower than two bodies
/// can reach).
const BODIES_PER_CELL: f32 = 1.0;

/// A body as the pair search reads it, in grid order.
#[derive(Clone, Copy, Debug, Default)]
struct Record {
    x: f32,
    y: f32,
    /// Index of the body (its rank in creation order).
    index: u32,
}

/// A uniform grid over the level's bounds. Bodies outside fall in the border cells, which
/// loses no pair: a cell is never narrower than the reach.
#[derive(Clone, Copy, Debug)]
struct Grid {
    origin: Vec2,
    inv_cell: f32,
    cols: usize,
    rows: usize,
}

impl Grid {
    fn new(bounds: Rect, n: usize, reach: f32) -> Grid {
        let size = bounds.size();
        let per_body = size.x.max(1.0) * size.y.max(1.0) / n.max(1) as f32;
        let cell = (per_body * BODIES_PER_CELL).sqrt().max(reach).max(1e-3);
        let count = |len: f32| ((len / cell).ceil() as usize).clamp(1, 1 << 15);
        Grid {
            origin: bounds.min,
            inv_cell: 1.0 / cell,
            cols: count(size.x),
            rows: count(size.y),
        }
    }

    fn len(&self) -> usize {
        self.cols * self.rows
    }

    #[inline]
    fn cell(&self, x: f32, y: f32) -> usize {
        // Float to integer casts saturate (and take NaN to 0): far bodies land on the border.
        let col = (((x - self.origin.x) * self.inv_cell) as usize).min(self.cols - 1);
        let row = (((y - self.origin.y) * self.inv_cell) as usize).min(self.rows - 1);
        row * self.cols + col
    }
}

/// Wandering circles as columns, in creation order. See the module documentation of
/// [`reference`](crate::reference) for what it promises.
///
/// Per tick:
/// 1. **decide**, in a pass of its own, for the bodies due: a random heading from
///    `(seed, seq, tick)`, as the wander behaviour draws it, and the next decision tick;
///    then **motion**, one pass over every body: previous position; velocity
///    `= intent * speed`; integrate; confine; the body's grid cell, counted.
/// 2. **bin**: a counting sort of compact records into grid order.
/// 3. **pairs**: each cell against itself and its forward half-neighbourhood (east, and the
///    three cells below), so every candidate pair is examined once; a pair is kept when
///    `|a - b|² < (2r)²`, as a key `(lo << bits) | hi` of creation ranks.
/// 4. **sort** the keys (radix): the canonical `(lo seq, hi seq)` order.
/// 5. **push** (pushing crowd): per key in order, `lo` moves by `-n d / 2` and `hi` by
///    `+n d / 2` (`n` from `lo` to `hi`, `(1, 0)` for coincident centres; `d` the depth),
///    summed per body in key order, then applied where non-zero and finite.
/// 6. **contacts**: merging last tick's sorted keys with this tick's gives enter, stay and
///    exit; every enter takes one health from both bodies (the `tick` bench's consequences).
///
/// The tick's bounds on pairs and on broadphase work (`[limits] contacts`) are not checked
/// here: a world past them faults in the tick, which the comparison reports.
pub struct Crowd {
    tick: u64,
    dt: f32,
    speed: f32,
    cadence: u64,
    seed: u64,
    confine: Confine,
    /// Twice the radius, and its square.
    reach: f32,
    reach2: f32,
    report: bool,
    push: bool,
    stay: bool,
    seq: Vec<u64>,
    x: Vec<f32>,
    y: Vec<f32>,
    prev_x: Vec<f32>,
    prev_y: Vec<f32>,
    vx: Vec<f32>,
    vy: Vec<f32>,
    ix: Vec<f32>,
    iy: Vec<f32>,
    next: Vec<u64>,
    health: Vec<i32>,
    grid: Grid,
    /// Each body's cell this tick.
    cell: Vec<u32>,
    /// Per cell, where its records start (`starts[c]..starts[c + 1]`).
    starts: Vec<u32>,
    records: Vec<Record>,
    /// Bits of a rank in a key.
    bits: u32,
    /// This tick's pair keys, last tick's reported ones, and the radix sort's other buffer.
    keys: Vec<u64>,
    prev: Vec<u64>,
    spare: Vec<u64>,
    histogram: Vec<u32>,
    /// Push corrections, zero between ticks.
    off_x: Vec<f32>,
    off_y: Vec<f32>,
}

impl Crowd {
    /// Takes the bodies from a built world, so the reference starts from exactly its state.
    ///
    /// # Panics
    /// If the world holds what this reference does not model: an entity that is not a
    /// wandering, confined circle with health and without invulnerability; bodies that differ
    /// from each other; bodies that are not plain dynamic bodies of mass 1, or are triggers;
    /// or bodies stored out of creation order (the order in which pairs are found, which
    /// decides the normal of coincident centres).
    pub fn from_world(world: &SimWorld, def: &GameDef) -> Crowd {
        let level = world
            .level_def(def)
            .expect("the world's level is in the definition");
        let all = entities(world, def);
        let first = all.first().expect("a body");
        let c = first.collider.expect("a body has a collider");
        let Shape::Circle { radius } = c.shape else {
            panic!("a body's collider is a circle");
        };
        assert!(
            (c.body, c.mass, c.bounce, c.friction, c.trigger)
                == (BodyKind::Dynamic, 1.0, None, 0.0, false),
            "bodies are plain dynamic bodies of mass 1"
        );
        let alike = |e: &Entity| {
            e.brain.is_some_and(|b| b.kind() == BehaviourKind::Wander)
                && (e.cadence, e.navigate) == (first.cadence, false)
                && (e.speed, e.collider, e.bounds) == (first.speed, Some(c), BoundsPolicy::Confine)
                && e.health.is_some()
                // No invulnerability, so no deadline (see `Invulnerable`).
                && e.invulnerable == 0
                && !e.unmodelled
        };
        for e in &all {
            assert!(
                alike(e),
                "entity {} differs from the first body or has rules this reference leaves out",
                e.seq
            );
        }
        let mut stored = world
            .ecs()
            .query::<(&Identity, Or<&Collider, &SharedCollider>)>();
        let stored: Vec<u64> = stored.iter().map(|(id, _)| id.seq()).collect();
        assert!(stored.is_sorted(), "bodies are stored in creation order");
        let n = all.len();
        assert!(n <= 1 << 31, "at most 2^31 bodies");
        let bits = usize::BITS - (n.max(2) - 1).leading_zeros();
        let reach = radius + radius;
        let grid = Grid::new(level.bounds, n, reach);
        let col = |f: &dyn Fn(&Entity) -> f32| -> Vec<f32> { all.iter().map(f).collect() };
        let seq: Vec<u64> = all.iter().map(|e| e.seq).collect();
        let rank = |s: u64| seq.binary_search(&s).ok().map(|i| i as u64);
        let mut prev: Vec<u64> = world
            .contacts()
            .keys()
            .iter()
            .filter_map(|k| Some((rank(k.lo())? << bits) | rank(k.hi())?))
            .collect();
        prev.sort_unstable();
        Crowd {
            tick: world.tick(),
            dt: def.tick.tick_seconds(),
            speed: first.speed,
            cadence: first.cadence,
            seed: def.seed,
            confine: Confine::new(level.bounds, c.shape.half_extents()),
            reach,
            reach2: reach * reach,
            report: c.mask & c.layer != 0,
            push: c.push & c.layer != 0,
            stay: c.stay,
            x: col(&|e| e.pos.x),
            y: col(&|e| e.pos.y),
            prev_x: col(&|e| e.pos.x),
            prev_y: col(&|e| e.pos.y),
            vx: col(&|e| e.vel.x),
            vy: col(&|e| e.vel.y),
            ix: col(&|e| e.brain.map_or(0.0, |b| b.intent.x)),
            iy: col(&|e| e.brain.map_or(0.0, |b| b.intent.y)),
            next: all
                .iter()
                .map(|e| {
                    e.brain
                        .filter(|b| b.decided())
                        .map_or(0, |b| b.next_decision())
                })
                .collect(),
            health: all
                .iter()
                .map(|e| e.health.map_or(0, |h| h.current))
                .collect(),
            seq,
            grid,
            cell: vec![0; n],
            starts: vec![0; grid.len() + 1],
            records: vec![Record::default(); n],
            bits,
            keys: Vec::new(),
            prev,
            spare: Vec::new(),
            histogram: Vec::new(),
            off_x: vec![0.0; n],
            off_y: vec![0.0; n],
        }
    }

    /// One tick; the contact counts it gives.
    pub fn step(&mut self) -> Counts {
        self.tick += 1;
        self.decide();
        self.motion();
        self.keys.clear();
        if !(self.report || self.push) {
            return Counts::default();
        }
        self.bin();
        self.find_pairs();
        radix_sort(
            &mut self.keys,
            &mut self.spare,
            &mut self.histogram,
            2 * self.bits,
        );
        if self.push {
            self.push_apart();
        }
        if self.report {
            self.contacts()
        } else {
            Counts::default()
        }
    }

    /// The decisions due this tick (a separate pass, so the pass over every body has no
    /// branch).
    fn decide(&mut self) {
        let (tick, cadence, seed) = (self.tick, self.cadence, self.seed);
        let n = self.seq.len();
        let (seq, next) = (&self.seq[..n], &mut self.next[..n]);
        let (ix, iy) = (&mut self.ix[..n], &mut self.iy[..n]);
        for i in 0..n {
            if tick >= next[i] {
                let angle = entity_random(seed, seq[i], tick) * std::f32::consts::TAU;
                let h = Vec2::from_angle(angle);
                (ix[i], iy[i]) = (h.x, h.y);
                next[i] = next_decision(tick, seq[i], cadence);
            }
        }
    }

    /// Previous positions, velocities, integration, bounds and cell counts, in one pass.
    fn motion(&mut self) {
        let (dt, speed, confine, grid) = (self.dt, self.speed, self.confine, self.grid);
        let n = self.seq.len();
        let (x, y) = (&mut self.x[..n], &mut self.y[..n]);
        let (prev_x, prev_y) = (&mut self.prev_x[..n], &mut self.prev_y[..n]);
        let (vx, vy) = (&mut self.vx[..n], &mut self.vy[..n]);
        let (ix, iy) = (&self.ix[..n], &self.iy[..n]);
        let cell = &mut self.cell[..n];
        let counts = &mut self.starts[..];
        counts.fill(0);
        for i in 0..n {
            prev_x[i] = x[i];
            prev_y[i] = y[i];
            let (px, py, ux, uy) = move_body(&confine, (x[i], y[i]), (ix[i], iy[i]), speed, dt);
            x[i] = px;
            y[i] = py;
            vx[i] = ux;
            vy[i] = uy;
            let c = grid.cell(px, py);
            cell[i] = c as u32;
            counts[c] += 1;
        }
    }

    /// Counting sort of the bodies into grid order: after it, cell `c` holds
    /// `records[starts[c]..starts[c + 1]]`, in creation order.
    fn bin(&mut self) {
        let cells = self.grid.len();
        let starts = &mut self.starts[..cells + 1];
        let mut sum = 0u32;
        for s in starts[..cells].iter_mut() {
            sum += *s;
            *s = sum;
        }
        starts[cells] = sum;
        for i in (0..self.seq.len()).rev() {
            let c = self.cell[i] as usize;
            starts[c] -= 1;
            self.records[starts[c] as usize] = Record {
                x: self.x[i],
                y: self.y[i],
                index: i as u32,
            };
        }
    }

    /// Every overlapping pair, once, as a key, in grid order.
    fn find_pairs(&mut self) {
        let Grid { cols, rows, .. } = self.grid;
        let (starts, records) = (&self.starts[..], &self.records[..]);
        let (reach2, bits) = (self.reach2, self.bits);
        let keys = &mut self.keys;
        let mut test = |a: &Record, b: &Record| {
            let (dx, dy) = (b.x - a.x, b.y - a.y);
            if dx * dx + dy * dy < reach2 {
                let (lo, hi) = if a.index < b.index {
                    (a.index, b.index)
                } else {
                    (b.index, a.index)
                };
                keys.push((u64::from(lo) << bits) | u64::from(hi));
            }
        };
        for row in 0..rows {
            for col in 0..cols {
                let c = row * cols + col;
                let (s, e) = (starts[c] as usize, starts[c + 1] as usize);
                if s == e {
                    continue;
                }
                // This cell and the one east of it are one range.
                let east = if col + 1 < cols {
                    starts[c + 2] as usize
                } else {
                    e
                };
                // The three cells below (fewer at the edges) are another.
                let below = if row + 1 < rows {
                    let first = c + cols - usize::from(col > 0);
                    let last = c + cols + usize::from(col + 1 < cols);
                    starts[first] as usize..starts[last + 1] as usize
                } else {
                    0..0
                };
                for k in s..e {
                    let a = &records[k];
                    for b in &records[k + 1..east] {
                        test(a, b);
                    }
                    for b in &records[below.clone()] {
                        test(a, b);
                    }
                }
            }
        }
    }

    /// Push corrections summed per body in key order, then applied.
    fn push_apart(&mut self) {
        let mask = (1u64 << self.bits) - 1;
        let split = |k: u64| ((k >> self.bits) as usize, (k & mask) as usize);
        let (x, y) = (&mut self.x[..], &mut self.y[..]);
        let (off_x, off_y) = (&mut self.off_x[..], &mut self.off_y[..]);
        for &k in &self.keys {
            let (lo, hi) = split(k);
            let (dx, dy) = (x[hi] - x[lo], y[hi] - y[lo]);
            let dist = (dx * dx + dy * dy).sqrt();
            let (nx, ny) = if dist > 0.0 {
                (dx / dist, dy / dist)
            } else {
                (1.0, 0.0)
            };
            let half = (self.reach - dist) * 0.5;
            let (hx, hy) = (nx * half, ny * half);
            off_x[lo] += -hx;
            off_y[lo] += -hy;
            off_x[hi] += hx;
            off_y[hi] += hy;
        }
        for &k in &self.keys {
            let (lo, hi) = split(k);
            for b in [lo, hi] {
                let (ox, oy) = (off_x[b], off_y[b]);
                if ox != 0.0 || oy != 0.0 {
                    let (nx, ny) = (x[b] + ox, y[b] + oy);
                    if nx.is_finite() && ny.is_finite() {
                        x[b] = nx;
                        y[b] = ny;
                    }
                }
                off_x[b] = 0.0;
                off_y[b] = 0.0;
            }
        }
    }

    /// Enter, stay and exit from last tick's keys and this tick's; damage on enter.
    fn contacts(&mut self) -> Counts {
        let mut counts = Counts::default();
        let mask = (1u64 << self.bits) - 1;
        let (prev, keys) = (&self.prev[..], &self.keys[..]);
        let health = &mut self.health[..];
        let (mut i, mut j) = (0, 0);
        while i < prev.len() || j < keys.len() {
            if j == keys.len() || (i < prev.len() && prev[i] < keys[j]) {
                counts.exit += 1;
                i += 1;
            } else if i == prev.len() || keys[j] < prev[i] {
                counts.enter += 1;
                let k = keys[j];
                for b in [(k >> self.bits) as usize, (k & mask) as usize] {
                    health[b] = health[b].saturating_sub(1);
                }
                j += 1;
            } else {
                counts.stay += usize::from(self.stay);
                i += 1;
                j += 1;
            }
        }
        std::mem::swap(&mut self.prev, &mut self.keys);
        counts
    }

    /// The xxh3 hash of every body's `(seq, pos.x, pos.y, vel.x, vel.y)` as little-endian
    /// bytes, in creation order (what [`hash_bodies`](crate::reference::hash_bodies) gives for
    /// [`seqs`](Self::seqs) in a world in the same state).
    pub fn hash(&self) -> u64 {
        hash_columns(&self.seq, &self.x, &self.y, &self.vx, &self.vy)
    }

    /// The bodies' creation sequences, ascending.
    pub fn seqs(&self) -> &[u64] {
        &self.seq
    }

    /// The bodies' health, in creation order.
    pub fn health(&self) -> &[i32] {
        &self.health
    }

    pub fn len(&self) -> usize {
        self.seq.len()
    }

    pub fn is_empty(&self) -> bool {
        self.seq.is_empty()
    }

    /// The last tick stepped.
    pub fn tick(&self) -> u64 {
        self.tick
    }
}
