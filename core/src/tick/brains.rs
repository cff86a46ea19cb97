//! Behaviours: brains decide on their cadence and steer by their intent (Intent's
//! `behaviours` system, or Motion's one pass: see `motion::fused`).

use crate::def::{BehaviourKind, GameDef};
use crate::math::Vec2;
use crate::nav::FlowField;
use crate::par;
use crate::world::SimWorld;
use crate::world::components::*;

/// A per-entity random unit value in [0, 1) from (seed, seq, tick): independent of the order
/// entities are visited in.
pub(crate) fn entity_random(seed: u64, seq: u64, tick: u64) -> f32 {
    let mut bytes = [0u8; 24];
    bytes[..8].copy_from_slice(&seed.to_le_bytes());
    bytes[8..16].copy_from_slice(&seq.to_le_bytes());
    bytes[16..].copy_from_slice(&tick.to_le_bytes());
    let h = xxhash_rust::xxh3::xxh3_64(&bytes);
    (h >> 40) as f32 / (1u64 << 24) as f32
}

/// Collects this tick's candidate targets of every behaviour that looks for tags (tags never
/// change after spawn, so the archetypes' behaviours name every tag a brain can look for)
/// into `world.scratch.targets`, by sequence.
pub(crate) fn targets(world: &mut SimWorld, def: &GameDef) {
    let wanted = def
        .archetypes
        .iter()
        .filter_map(|a| a.behaviour.as_ref())
        .fold(0u64, |acc, b| acc | b.target);
    let targets = &mut world.scratch.targets;
    targets.clear();
    let ecs = &world.ecs;
    world
        .tagged
        .each(ecs, wanted, &mut world.scratch.tag_merge, |seq, e, tags| {
            if let Ok(t) = ecs.get::<&Position>(e) {
                targets.push((seq, tags, t.0));
            }
        });
}

/// Every brain decides where due and sets its velocity from its intent, from the targets
/// [`targets`] collected. `split`: large archetypes' brains may decide on two threads (see
/// [`par`]).
pub(crate) fn behaviours(world: &mut SimWorld, def: &GameDef, tick: u64, split: bool) {
    let ctx = Deciding::new(world, def, tick);
    let mut decisions = 0u64;
    // Archetype by archetype over the columns: most brains only keep their intent.
    for arch in world.ecs.archetypes() {
        if arch.is_empty() || !arch.has::<Brain>() {
            continue;
        }
        let (Some(mut brains), Some(ids), Some(speeds), Some(mut vels), Some(pos)) = (
            arch.get::<&mut Brain>(),
            arch.get::<&Identity>(),
            arch.get::<&Speed>(),
            arch.get::<&mut Velocity>(),
            arch.get::<&Position>(),
        ) else {
            continue;
        };
        let n = arch.len() as usize;
        let cols = BrainCols {
            brains: &mut brains[..n],
            ids: &ids[..n],
            speeds: &speeds[..n],
            vels: &mut vels[..n],
            pos: &pos[..n],
        };
        decisions += if split && n >= par::SPLIT_MIN {
            // Two halves on two threads: brains decide alone, so any split gives the same.
            let (a, b) = cols.split_at(n / 2);
            let (da, db) = par::join(|| ctx.brains(a), || ctx.brains(b));
            da + db
        } else {
            ctx.brains(cols)
        };
    }
    world.counters.ai_decisions += decisions;
}

/// What every brain's decision reads this tick.
pub(crate) struct Deciding<'a> {
    /// Its behaviour's target tags, read from the brain's archetype.
    def: &'a GameDef,
    /// Candidate targets `(seq, tags, position)`, by sequence.
    targets: &'a [(u64, u64, Vec2)],
    field: Option<&'a FlowField>,
    seed: u64,
    tick: u64,
}

/// The brain columns of (part of) an archetype.
struct BrainCols<'a> {
    brains: &'a mut [Brain],
    ids: &'a [Identity],
    speeds: &'a [Speed],
    vels: &'a mut [Velocity],
    pos: &'a [Position],
}

impl<'a> BrainCols<'a> {
    /// Rows `..mid` and `mid..`.
    fn split_at(self, mid: usize) -> (BrainCols<'a>, BrainCols<'a>) {
        let (brains, brains_b) = self.brains.split_at_mut(mid);
        let (ids, ids_b) = self.ids.split_at(mid);
        let (speeds, speeds_b) = self.speeds.split_at(mid);
        let (vels, vels_b) = self.vels.split_at_mut(mid);
        let (pos, pos_b) = self.pos.split_at(mid);
        (
            BrainCols {
                brains,
                ids,
                speeds,
                vels,
                pos,
            },
            BrainCols {
                brains: brains_b,
                ids: ids_b,
                speeds: speeds_b,
                vels: vels_b,
                pos: pos_b,
            },
        )
    }
}

impl<'a> Deciding<'a> {
    /// The decisions of tick `tick` in `world`, whose targets [`targets`] has collected.
    pub(crate) fn new(world: &'a SimWorld, def: &'a GameDef, tick: u64) -> Deciding<'a> {
        Deciding::from_parts(
            def,
            &world.scratch.targets,
            world.nav.field.as_ref(),
            def.seed,
            tick,
        )
    }

    /// The same from the world's parts: `targets` as [`targets`] collected them.
    pub(crate) fn from_parts(
        def: &'a GameDef,
        targets: &'a [(u64, u64, Vec2)],
        field: Option<&'a FlowField>,
        seed: u64,
        tick: u64,
    ) -> Deciding<'a> {
        Deciding {
            def,
            targets,
            field,
            seed,
            tick,
        }
    }

    /// Decides where due and sets velocities from intents; returns the decisions made.
    fn brains(&self, c: BrainCols<'_>) -> u64 {
        let mut alive = Alive::default();
        self.think_rows(&mut alive, c.brains, c.ids, c.pos, c.speeds, c.vels)
    }

    /// Rows of brains: each decides if due (as [`think`](Self::think)), then each sets its
    /// velocity from its intent; returns the decisions made. Two loops: the first rarely
    /// decides, the second has no branch.
    #[inline(always)]
    pub(crate) fn think_rows(
        &self,
        alive: &mut Alive,
        brains: &mut [Brain],
        ids: &[Identity],
        pos: &[Position],
        speeds: &[Speed],
        vels: &mut [Velocity],
    ) -> u64 {
        let n = brains.len();
        let (ids, pos, speeds, vels) = (&ids[..n], &pos[..n], &speeds[..n], &mut vels[..n]);
        let tick = self.tick;
        let mut decisions = 0;
        // The last target known to live: a brain that targets it is due only by its cadence
        // (most brains share a target); any other target is checked (see `settle`).
        // (`u64::MAX` when none is known: no creation sequence reaches it.)
        let mut known = alive.known().unwrap_or(u64::MAX);
        for (i, brain) in brains.iter_mut().enumerate() {
            // (Undecided brains are due: their next decision is at tick 0.)
            let other = brain.target().is_some_and(|t| t != known);
            if other | (tick >= brain.next_decision) {
                decisions += u64::from(self.settle(alive, brain, &ids[i], pos[i].0));
                known = alive.known().unwrap_or(u64::MAX);
            }
        }
        for (i, brain) in brains.iter().enumerate() {
            let v = brain.intent * speeds[i].0;
            vels[i].0 = if brain.kind != BehaviourKind::Straight {
                v
            } else {
                vels[i].0
            };
        }
        decisions
    }

    /// A brain that may be due: decides (as [`think`](Self::think)) if it is; returns whether
    /// it did.
    #[inline(never)]
    fn settle(&self, alive: &mut Alive, brain: &mut Brain, id: &Identity, pos: Vec2) -> bool {
        let target_lost = brain
            .target()
            .is_some_and(|seq| !alive.check(self.targets, seq));
        let due = !brain.decided() || target_lost || self.tick >= brain.next_decision;
        if due {
            self.decide_now(brain, id, pos);
        }
        due
    }

    /// A decision due now, and the next one's tick.
    #[inline(never)]
    fn decide_now(&self, brain: &mut Brain, id: &Identity, pos: Vec2) {
        let (tick, seq) = (self.tick, id.seq);
        let wants = self.def.behaviour_targets(id.archetype);
        decide(
            brain,
            seq,
            wants,
            pos,
            self.targets,
            self.field,
            self.seed,
            tick,
        );
        // The next tick after this one with (tick + seq) % cadence == 0.
        let cadence = u64::from(brain.cadence.max(1));
        brain.next_decision = tick + cadence - (tick.wrapping_add(seq) % cadence);
    }

    /// One brain: decides if due (never decided, target lost, or its cadence tick) from its
    /// position `pos`, then sets its velocity from its intent; returns whether it decided.
    #[inline(always)]
    pub(crate) fn think(
        &self,
        alive: &mut Alive,
        brain: &mut Brain,
        id: &Identity,
        pos: Vec2,
        speed: f32,
        vel: &mut Velocity,
    ) -> bool {
        let tick = self.tick;
        let target_lost = brain
            .target()
            .is_some_and(|seq| !alive.check(self.targets, seq));
        let due = !brain.decided() || target_lost || tick >= brain.next_decision;
        if due {
            self.decide_now(brain, id, pos);
        }
        if brain.kind != BehaviourKind::Straight {
            vel.0 = brain.intent * speed;
        }
        due
    }
}

/// Whether a brain's target lives: it is one of the targets (its tags are among the wanted
/// ones). Most brains share a target, so the last answer is kept.
#[derive(Default)]
pub(crate) struct Alive {
    last: Option<(u64, bool)>,
}

impl Alive {
    /// The last target checked, if it lives.
    #[inline(always)]
    fn known(&self) -> Option<u64> {
        match self.last {
            Some((seq, true)) => Some(seq),
            _ => None,
        }
    }

    #[inline(always)]
    fn check(&mut self, targets: &[(u64, u64, Vec2)], seq: u64) -> bool {
        match self.last {
            Some((s, a)) if s == seq => a,
            _ => {
                let a = targets.binary_search_by_key(&seq, |t| t.0).is_ok();
                self.last = Some((seq, a));
                a
            }
        }
    }
}

/// Brain `seq`'s decision at `pos`; it looks for targets with any of the tags `wants`.
#[allow(clippy::too_many_arguments)]
fn decide(
    brain: &mut Brain,
    seq: u64,
    wants: u64,
    pos: Vec2,
    targets: &[(u64, u64, Vec2)],
    field: Option<&FlowField>,
    seed: u64,
    tick: u64,
) {
    match brain.kind {
        BehaviourKind::Chase | BehaviourKind::Flee => {
            let mut best: Option<(f32, u64, Vec2)> = None;
            for &(tseq, tags, tpos) in targets {
                if tseq == seq || tags & wants == 0 {
                    continue;
                }
                let d = (tpos - pos).length_squared();
                // Ties go to the lower creation sequence (targets are sorted by it).
                if best.is_none_or(|(bd, _, _)| d < bd) {
                    best = Some((d, tseq, tpos));
                }
            }
            match best {
                Some((_, tseq, tpos)) => {
                    let straight = (tpos - pos).normalized_or_zero();
                    // Follow the field around obstacles; where it agrees with the straight
                    // line to within about 40 degrees, take the straight line (no 8-way zigzag).
                    let toward = match field {
                        Some(f) if brain.navigate && brain.kind == BehaviourKind::Chase => {
                            match f.direction(pos) {
                                Some(d) if d.x * straight.x + d.y * straight.y < 0.75 => d,
                                _ => straight,
                            }
                        }
                        _ => straight,
                    };
                    brain.intent = if brain.kind == BehaviourKind::Chase {
                        toward
                    } else {
                        -toward
                    };
                    brain.set_target(Some(tseq));
                }
                None => {
                    brain.intent = Vec2::ZERO;
                    brain.set_target(None);
                }
            }
        }
        BehaviourKind::Wander => {
            let angle = entity_random(seed, seq, tick) * std::f32::consts::TAU;
            brain.intent = Vec2::from_angle(angle);
        }
        BehaviourKind::Straight => {}
    }
}
