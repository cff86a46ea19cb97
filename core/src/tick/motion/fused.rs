//! Motion's steps for every entity in one visit: integrate, rotate, bounds and the
//! broadphase's record, walking each hecs archetype's columns once (the common archetype's:
//! plain steps, no rotation, margin or motion; any other archetype takes a pass per step,
//! each loop chosen by the columns it has).
//!
//! Used when BeginTick, Intent and Motion hold only the native systems (no system of the
//! embedding program runs before or between them). The pass also copies each entity's
//! position to its previous position first, which BeginTick does otherwise: nothing moves
//! an entity between the two (Intent sets velocities; commands move entities at Gameplay and
//! Commit). And each brain decides (where due) and sets its velocity just before its entity
//! moves, which Intent's last system does otherwise: a decision reads only the brain's own
//! position, which nothing has moved yet, and the targets Intent collected before any motion. Each entity's steps run in the order the systems declare, and the steps of different entities never read each other's results, so the
//! outcome equals running the systems one after another: positions, velocities and angles,
//! the order of bounds events (archetype by archetype, row by row, as every query visits
//! them) and the broadphase's collider order. A fault may leave other entities' steps of
//! this phase done or not; a faulted tick is never published.

use crate::collision::{Broadphase, Stretch};
use crate::def::{BoundsPolicy, GameDef};
use crate::fault::Fault;
use crate::math::{self, Rect, Vec2};
use crate::par;
use crate::tick::brains::{Alive, Deciding, Minds, checked, take_lost};
use crate::tick::motion::bounds::{Bounds, Walls, confine_within, keep};
use crate::tick::motion::collide::add_rows;
use crate::tick::motion::step::{accelerate, step, turn};
use crate::tick::motion::uniform::Uniformity;
use crate::tick::rule::Rules;
use crate::tick::scratch::Scratch;
use crate::tick::speeds::GROUP;
use crate::world::SimWorld;
use crate::world::components::*;
use std::iter::zip;

/// Integrates, turns and bounds every entity, and adds every collider to the broadphase.
/// `split`: large archetypes' common pass may run on two threads (see [`par`]).
///
/// Long because it is the fused pass itself: every step of Motion's native systems for one
/// entity, in their order, inside one walk of each archetype's columns. Split into a function
/// per step, it would become the separate passes (or a call per entity and step) that fusing
/// them removes.
pub(crate) fn motion(
    world: &mut SimWorld,
    s: &mut Scratch,
    def: &GameDef,
    tick: u64,
    split: bool,
) -> Result<(), Fault> {
    let dt = def.tick.tick_seconds();
    let area = def.levels.get(world.level).map(|l| l.bounds);
    let lost = take_lost(s);
    let rules = Rules::of(&mut s.rules, def);
    let field = world.nav.field.as_ref();
    let deciding = Deciding::from_parts(def, &s.targets, lost, field, tick, rules);
    let mut decisions = 0u64;
    let instance = world.instance;
    let bp = &mut s.broadphase;
    bp.begin();
    let mut bounds = Bounds {
        def,
        area: area.unwrap_or_default(),
        tick,
        live: world.index.len(),
        cap: def.limits.events_per_tick,
        pending: &mut s.pending,
        destroys: &mut s.destroys,
        expired: &mut s.events.expired,
    };
    // Archetype by archetype through the columns' known places, with no borrow counted (up to
    // fourteen columns an archetype, each an atomic add and another to release it).
    for (index, (arch, changes)) in world.ecs.thaw().archetypes_counted().enumerate() {
        if arch.is_empty() {
            continue;
        }
        let Some(pos) = arch.write::<Position>() else {
            continue;
        };
        let mut vel = arch.write::<Velocity>();
        let motion = arch.read::<Motion>();
        let moves = !arch.has::<StaticBody>();
        let rot = arch.write::<Rotation>();
        let control = arch.read::<Control>();
        // Rows with a bounds rule: their archetype's (see `BoundsRule`).
        let bounded = arch.has::<BoundsRule>() && area.is_some();
        // Rows with margins go row by row below, each rule within its own area.
        let margins = arch.read::<BoundsMargin>();
        let mut prev = arch.write::<PrevPosition>();
        let own = arch.read::<Collider>();
        let ident = arch.read::<Identity>();
        let n = arch.len() as usize;
        let shared = arch.has::<SharedCollider>();
        let collider = Colliders::of(own, shared, ident, def);
        let brains = arch.write::<Brain>();
        let aims = arch.write::<Aim>();
        let own = arch.read::<Speed>();
        // Brains think when their columns are all there (as Intent's behaviours require).
        let mut think = match (brains, aims, &ident, vel.is_some()) {
            (Some(b), Some(a), Some(i), true) => {
                let ids = &i[..n];
                let own = own.map(|o| &o[..n]);
                let speeds = s.speed_runs.speeds(own, index, changes, ids, def);
                let behaviours = arch.read::<OwnBehaviour>();
                Some(Minds {
                    brains: &mut b[..n],
                    aims: &mut a[..n],
                    speeds,
                    ids,
                    own: behaviours.map_or(&[], |b| &b[..n]),
                    notes: Default::default(),
                })
            }
            _ => None,
        };
        // The common archetype: plain steps, no rotation; one loop per combination of
        // bounds and collider, so the loop body has no per-entity checks of what exists.
        if let (Some(vel), true, None, None, None) =
            (vel.as_deref_mut(), moves, &motion, &rot, &margins)
        {
            let pos = &mut pos[..n];
            let vel = &mut vel[..n];
            let ident = ident.map(|c| &c[..n]);
            let colliders = collider.map(|c| c.slice(0..n));
            match (bounded, prev.as_deref_mut(), ident, colliders) {
                (true, Some(prev), Some(ident), Some(colliders)) => {
                    let rows = s.uniform.get(index, changes, &colliders, &ident[..n], def);
                    let mut minds = think.take().unwrap_or_default();
                    if !minds.brains.is_empty() {
                        // The groups' soonest decisions, kept by this pass from tick to tick.
                        minds.notes = s.soonest.serve(index, (instance, changes, n), tick);
                    }
                    let cols = Cols {
                        pos: &mut pos[..],
                        vel: &mut vel[..],
                        prev: &mut prev[..n],
                        ids: &ident[..n],
                        colliders,
                        minds,
                    };
                    let (area, mut gone) = (bounds.area, Vec::new());
                    let pass = Pass {
                        def,
                        deciding: &deciding,
                        rows,
                        area,
                        dt,
                    };
                    if split && n >= par::SPLIT_MIN {
                        // Two parts on two threads, joined in row order, split where the
                        // last ticks' parts would have taken as long, at a group's first
                        // row (each part keeps its groups' notes).
                        let mid = s.motion_split.mid(n) / GROUP * GROUP;
                        let (a, b) = cols.split_at(mid);
                        let (mut sa, mut sb) = bp.stretches(n, mid, index);
                        let mut gone_b = Vec::new();
                        let (da, db) = par::join_balanced(
                            &mut s.motion_split,
                            (mid, n - mid),
                            || pass.rows(a, &mut sa, &mut gone, 0),
                            || pass.rows(b, &mut sb, &mut gone_b, mid),
                        );
                        decisions += da + db;
                        let (ra, rb) = (sa.finish(), sb.finish());
                        bp.join(ra, rb);
                        gone.extend(gone_b);
                    } else {
                        let (mut all, none) = bp.stretches(n, n, index);
                        decisions += pass.rows(cols, &mut all, &mut gone, 0);
                        let (ra, rb) = (all.finish(), none.finish());
                        bp.join(ra, rb);
                    }
                    for &i in &gone {
                        bounds.destroy(&ident[i], &pos[i])?;
                    }
                }
                (false, prev, Some(_), Some(colliders)) => {
                    decisions += think_apart(&deciding, think.take(), pos, vel);
                    let mut prev = prev.map(|p| &mut p[..n]);
                    for i in 0..n {
                        let t = &mut pos[i];
                        if let Some(prev) = prev.as_deref_mut() {
                            prev[i].0 = t.0;
                        }
                        step(t, &vel[i], dt);
                        add(bp, def, &colliders, i, t.0);
                    }
                }
                (false, Some(prev), _, None) => {
                    decisions += think_apart(&deciding, think.take(), pos, vel);
                    for ((t, v), p) in pos.iter_mut().zip(vel.iter()).zip(&mut prev[..n]) {
                        p.0 = t.0;
                        step(t, v, dt);
                    }
                }
                (false, None, _, None) => {
                    decisions += think_apart(&deciding, think.take(), pos, vel);
                    for (t, v) in pos.iter_mut().zip(vel.iter()) {
                        step(t, v, dt);
                    }
                }
                _ => {
                    decisions += think_apart(&deciding, think.take(), pos, vel);
                    for i in 0..n {
                        let (t, v) = (&mut pos[i], &mut vel[i]);
                        if let Some(prev) = prev.as_deref_mut() {
                            prev[i].0 = t.0;
                        }
                        step(t, v, dt);
                        if let (true, Some(prev), Some(ident)) =
                            (bounded, prev.as_deref_mut(), ident)
                        {
                            let c = colliders.map(|c| c.get(i));
                            let rule = def.bounds_of(ident[i].archetype);
                            bounds.apply(&ident[i], rule, t, &mut prev[i], v, c.as_ref())?;
                        }
                        if let (Some(c), Some(_)) = (colliders, ident) {
                            add(bp, def, &c, i, t.0);
                        }
                    }
                }
            }
            continue;
        }
        // Every other archetype: each step a pass over the rows (rows never read each
        // other's results, so each row's steps still run in their order), each pass's loop
        // chosen by the columns it has.
        let pos = &mut pos[..n];
        // The plain step keeps the previous positions as it moves the rows (one pass).
        let plain = moves && motion.is_none() && vel.is_some() && prev.is_some();
        if let (false, Some(prev)) = (plain, prev.as_deref_mut()) {
            for (p, t) in prev[..n].iter_mut().zip(pos.iter()) {
                p.0 = t.0;
            }
        }
        if let Some(vel) = vel {
            let vel = &mut vel[..n];
            decisions += think_apart(&deciding, think.take(), pos, vel);
            match (moves, motion, prev.as_deref_mut()) {
                (false, ..) => {}
                (true, None, Some(prev)) if plain => {
                    let (p, v) = (vectors_mut(pos), vectors(vel));
                    math::step_free(p, v, vectors_mut(&mut prev[..n]), dt);
                }
                (true, None, _) => {
                    zip(pos.iter_mut(), vel.iter()).for_each(|(t, v)| step(t, v, dt))
                }
                (true, Some(m), _) => zip(zip(pos.iter_mut(), vel.iter_mut()), &m[..n])
                    .for_each(|((t, v), m)| accelerate(t, v, m, dt)),
            }
            match (rot, control) {
                (None, _) => {}
                (Some(r), None) => {
                    zip(&mut r[..n], vel.iter()).for_each(|(r, v)| turn(r, v, None, dt))
                }
                (Some(r), Some(c)) => zip(zip(&mut r[..n], vel.iter()), &c[..n])
                    .for_each(|((r, v), c)| turn(r, v, Some(c), dt)),
            }
            if let (true, Some(prev), Some(ident)) = (bounded, prev, ident) {
                let ident = &ident[..n];
                let margins = margins.map(|m| &m[..n]);
                if !bounds.destroy_outside(ident, pos, margins)? {
                    for i in 0..n {
                        let area = margins.map_or(bounds.area, |m| bounds.area.grown(m[i].0));
                        let rule = def.bounds_of(ident[i].archetype);
                        // Only walls that confine or bounce look at the collider's size.
                        let walls = matches!(rule, BoundsPolicy::Confine | BoundsPolicy::Bounce);
                        let c = collider.filter(|_| walls).map(|c| c.get(i));
                        let (t, p, v) = (&mut pos[i], &mut prev[i], &mut vel[i]);
                        bounds.apply_in(area, &ident[i], rule, t, p, v, c.as_ref())?;
                    }
                }
            }
        }
        if let (Some(c), Some(_)) = (collider, ident) {
            add_rows(bp, def, &c.slice(0..n), vectors(pos));
        }
    }
    world.counters.ai_decisions += decisions;
    checked(s, tick);
    Ok(())
}

/// The columns of the common archetype's pass (see [`Pass::rows`]); the brain columns are
/// empty where the archetype's rows do not think.
struct Cols<'a> {
    pos: &'a mut [Position],
    vel: &'a mut [Velocity],
    prev: &'a mut [PrevPosition],
    /// The rows' identities, whose archetypes give their bounds rules.
    ids: &'a [Identity],
    colliders: Colliders<'a>,
    minds: Minds<'a>,
}

/// Adds row `i`'s collider (of `c`) at `pos` to the broadphase.
#[inline]
fn add(bp: &mut Broadphase, def: &GameDef, c: &Colliders<'_>, i: usize, pos: Vec2) {
    let (a, shape, layer, looks) = c.record(i, def);
    bp.add(a, pos, shape, layer, looks);
}

/// The brains of an archetype outside the common pass, in a pass of their own before its
/// rows move (the same as thinking row by row: a decision reads only its own row).
fn think_apart(
    deciding: &Deciding<'_>,
    minds: Option<Minds<'_>>,
    pos: &[Position],
    vels: &mut [Velocity],
) -> u64 {
    minds.map_or(0, |m| {
        deciding.think_rows(&mut Alive::default(), m, pos, vels)
    })
}

impl<'a> Cols<'a> {
    /// Rows `start..end` (`start < end`; the brain columns stay empty where they are).
    fn chunk(&mut self, start: usize, end: usize) -> Cols<'_> {
        Cols {
            pos: &mut self.pos[start..end],
            vel: &mut self.vel[start..end],
            prev: &mut self.prev[start..end],
            ids: &self.ids[start..end],
            colliders: self.colliders.slice(start..end),
            minds: self.minds.rows(start, end),
        }
    }

    /// Rows `..mid` and `mid..`.
    fn split_at(self, mid: usize) -> (Cols<'a>, Cols<'a>) {
        let (pos, pos_b) = self.pos.split_at_mut(mid);
        let (vel, vel_b) = self.vel.split_at_mut(mid);
        let (prev, prev_b) = self.prev.split_at_mut(mid);
        let (ids, ids_b) = self.ids.split_at(mid);
        let n = self.colliders.len();
        let (colliders, colliders_b) = (self.colliders.slice(0..mid), self.colliders.slice(mid..n));
        let (minds, minds_b) = self.minds.split_at(mid);
        (
            Cols {
                pos,
                vel,
                prev,
                ids,
                colliders,
                minds,
            },
            Cols {
                pos: pos_b,
                vel: vel_b,
                prev: prev_b,
                ids: ids_b,
                colliders: colliders_b,
                minds: minds_b,
            },
        )
    }
}

/// Rows the common archetype's pass takes at a time (their columns stay in the first-level
/// cache between its loops).
const CHUNK: usize = 256;

/// What the common archetype's pass reads besides its columns.
struct Pass<'a> {
    def: &'a GameDef,
    deciding: &'a Deciding<'a>,
    /// The archetype's rows of one collider that confine.
    rows: &'a Uniformity,
    area: Rect,
    dt: f32,
}

impl Pass<'_> {
    /// The common archetype's pass over its rows (see [`Pass::each`]); returns the decisions
    /// made.
    fn rows(&self, c: Cols<'_>, out: &mut Stretch<'_>, gone: &mut Vec<usize>, row0: usize) -> u64 {
        if c.minds.brains.is_empty() {
            self.each::<false>(c, out, gone, row0)
        } else {
            self.each::<true>(c, out, gone, row0)
        }
    }

    /// Per row: the brain's decision and velocity (`THINK`), previous position, plain step,
    /// bounds rule and the collider's record, touching nothing shared; rows its bounds rule
    /// destroys are listed in `gone` (offset by `row0`) for [`Bounds::destroy`], in row order.
    ///
    /// Chunks of rows with one collider that all confine (the common case: a crowd of one
    /// archetype; the pass's [`Uniformity`] says which, without reading the rows) go through
    /// loops without branches, one step at a time ([`uniform`]); a chunk of mixed rows goes
    /// row by row ([`mixed`]).
    ///
    /// [`uniform`]: Self::uniform
    /// [`mixed`]: Self::mixed
    #[inline(always)]
    fn each<const THINK: bool>(
        &self,
        mut c: Cols<'_>,
        out: &mut Stretch<'_>,
        gone: &mut Vec<usize>,
        row0: usize,
    ) -> u64 {
        let n = c.pos.len();
        let mut alive = Alive::default();
        let mut decisions = 0u64;
        let mut start = 0;
        while start < n {
            let end = (start + CHUNK).min(n);
            let chunk = c.chunk(start, end);
            let uniform = self.rows.uniform(row0 + start, row0 + end);
            debug_assert_eq!(
                uniform,
                chunk.ids.iter().enumerate().all(|(i, id)| {
                    chunk.colliders.get(i).key() == chunk.colliders.get(0).key()
                        && self.def.bounds_of(id.archetype) == BoundsPolicy::Confine
                }),
                "the cached rows agree with the columns (a change of an archetype's rows is \
                 counted: `Ecs::rows_changed`)"
            );
            decisions += if uniform {
                self.uniform::<THINK>(chunk, &mut alive, out)
            } else {
                self.mixed::<THINK>(chunk, &mut alive, out, gone, row0 + start)
            };
            start = end;
        }
        decisions
    }

    /// [`each`](Self::each) for rows of one collider that all confine: the brains, then
    /// previous positions, steps and clamps, then the records, each a loop of its own.
    #[inline(always)]
    fn uniform<const THINK: bool>(
        &self,
        c: Cols<'_>,
        alive: &mut Alive,
        out: &mut Stretch<'_>,
    ) -> u64 {
        let Cols {
            pos,
            vel,
            prev,
            colliders,
            minds,
            ..
        } = c;
        let decisions = if THINK {
            self.deciding.think_rows(alive, minds, pos, vel)
        } else {
            0
        };
        let first = colliders.get(0);
        let walls = Walls::new(self.area, first.shape().half_extents());
        // Whether the new positions are all finite, found as they are stored.
        let finite = match walls.span() {
            // Walls on both axes: plain clamps, two bodies at a time where the platform has
            // packed floats, then the rest one at a time (the same results).
            Some((lo, hi)) => {
                let (p, v, q) = (vectors_mut(pos), vectors_mut(vel), vectors_mut(prev));
                let (done, mut finite) = math::step_within(p, v, q, self.dt, lo, hi);
                let rows = pos.iter_mut().zip(vel.iter_mut()).zip(prev.iter_mut());
                for ((t, v), p) in rows.skip(done) {
                    p.0 = t.0;
                    step(t, v, self.dt);
                    confine_within(t, v, lo, hi);
                    finite &= t.0.is_finite();
                }
                finite
            }
            None => {
                let mut finite = true;
                let rows = pos.iter_mut().zip(vel.iter_mut()).zip(prev.iter_mut());
                for ((t, v), p) in rows {
                    p.0 = t.0;
                    step(t, v, self.dt);
                    walls.confine(t, v);
                    finite &= t.0.is_finite();
                }
                finite
            }
        };
        let d = first.def(self.def);
        out.extend(
            first.archetype,
            d.shape,
            d.layer,
            d.mask | d.push,
            pos,
            Some(finite),
        );
        decisions
    }

    /// [`each`](Self::each) row by row, for rows of several colliders or bounds rules (at most
    /// [`CHUNK`] of them).
    #[inline(never)]
    fn mixed<const THINK: bool>(
        &self,
        c: Cols<'_>,
        alive: &mut Alive,
        out: &mut Stretch<'_>,
        gone: &mut Vec<usize>,
        row0: usize,
    ) -> u64 {
        let (def, area, dt) = (self.def, self.area, self.dt);
        let Cols {
            pos,
            vel,
            prev,
            ids: rows,
            colliders,
            minds,
        } = c;
        let Minds {
            brains,
            aims,
            speeds,
            ids,
            own,
            mut notes,
        } = minds;
        // Decided row by row without the notes: read these groups next tick.
        notes.clear();
        let mut decisions = 0u64;
        // The rows' speeds, found in one loop for their kind rather than a row at a time.
        let mut speed = [0.0f32; CHUNK];
        if THINK {
            speeds.fill(&mut speed[..pos.len()]);
        }
        // The last collider seen and its confining walls (rows of one archetype share them).
        let mut last: Option<(Collider, Walls)> = None;
        for (i, t) in pos.iter_mut().enumerate() {
            let v = &mut vel[i];
            if THINK {
                let (brain, aim) = (&mut brains[i], &mut aims[i]);
                let decided =
                    self.deciding
                        .think(alive, brain, aim, &ids[i], own.get(i), t.0, speed[i], v);
                decisions += u64::from(decided);
            }
            prev[i].0 = t.0;
            step(t, v, dt);
            let c = &colliders.get(i);
            let policy = def.bounds_of(rows[i].archetype);
            let same = last.as_ref().is_some_and(|(l, _)| l == c);
            if !same {
                last = Some((*c, Walls::new(area, c.shape().half_extents())));
            }
            if policy == BoundsPolicy::Confine {
                if let Some((_, w)) = &last {
                    w.confine(t, v);
                }
            } else if !keep(def, area, policy, t, &mut prev[i], v, Some(c)) {
                gone.push(row0 + i);
            }
            if same {
                out.same(t.0);
            } else {
                let d = c.def(def);
                out.add(c.archetype, t.0, d.shape, d.layer, d.mask | d.push);
            }
        }
        decisions
    }
}
