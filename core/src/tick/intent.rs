//! Intent: what every entity means to do this tick.
//!
//! Reads: the tick's input, controls, brains, cooldowns, lifetimes, current positions and tags.
//! Writes: velocities of controlled and behaving entities, brains (intent, target), control
//! facing, cooldown deadlines, the world RNG (spawners); records expirations and spawner
//! bursts as structural commands. Produces: action events, expiration events.
//!
//! Behaviours decide only on their cadence ticks, `(tick + seq) % cadence == 0` (kept as a
//! deadline, so the check per entity is one comparison), so decisions
//! of a crowd are spread over ticks by creation sequence, plus at once when they have no valid
//! decision yet (new, or their target is gone: target validity is checked every tick). Between
//! decisions the last intent is kept. The cadence is simulation policy: it never adapts to frame
//! rate or CPU time.

use crate::def::{GameDef, SpawnOverrides, TriggerOn};
use crate::event::{ActionEvent, EventKind, ExpireEvent, ExpireReason, push_bounded};
use crate::fault::{Fault, FaultKind};
use crate::frame::input::TickInput;
use crate::jobs::{Completions, JobInput};
use crate::limits::{Limit, push_within};
use crate::math::Vec2;
use crate::phase::Phase;
use crate::resource::Resource;
use crate::tick::aim::{Aim, nearer, nearest_in_columns};
use crate::tick::brains::{behaviours, targets};
use crate::tick::scratch::Scratch;
use crate::tick::steer::{self, Steer};
use crate::tick::system::{Decl, PhaseSystems, SystemId};
use crate::world::SimWorld;
use crate::world::components::*;

use Resource as R;

/// Records the destruction of entities whose lifetime ended.
pub const EXPIRATIONS: SystemId = SystemId::native("expirations");
/// Runs the level's spawners.
pub const SPAWNERS: SystemId = SystemId::native("spawners");
/// Player intent: steering, facing, triggers and their action events.
pub const CONTROL: SystemId = SystemId::native("control");
/// Asks for a new flow field when the goal moved.
pub const NAVIGATION: SystemId = SystemId::native("navigation");
/// Collects targets; the brains decide on their cadence (unless Motion runs fused).
pub const BEHAVIOURS: SystemId = SystemId::native("behaviours");

/// Intent's systems, in registration order.
pub(crate) const SYSTEMS: PhaseSystems = PhaseSystems {
    phase: Phase::Intent,
    chain: false,
    systems: &[
        Decl {
            reads: &[R::Lifetime],
            reads_previous: &[R::Position, R::EntitySet],
            writes: &[R::StructuralCommands],
            produces: &[EventKind::Expired],
            ..Decl::new(EXPIRATIONS, |t| {
                expirations(t.world, t.scratch, t.def, t.tick)
            })
        },
        Decl {
            writes: &[R::Rng, R::StructuralCommands, R::Spawners],
            ..Decl::new(SPAWNERS, |t| spawners(t.world, t.scratch, t.def, t.tick))
        },
        Decl {
            reads: &[R::Input, R::Control],
            // Scripts restart cooldowns in Gameplay; triggers see that from the next tick. Footing
            // is last tick's collisions'; velocities and angles are last tick's too.
            reads_previous: &[
                R::Position,
                R::Cooldowns,
                R::Footing,
                R::Velocity,
                R::Rotation,
                R::EntitySet,
                R::Speed,
            ],
            writes: &[
                R::Velocity,
                R::Control,
                R::Cooldowns,
                R::Rotation,
                R::Footing,
            ],
            produces: &[EventKind::Action],
            ..Decl::new(CONTROL, |t| {
                control(
                    t.world,
                    t.scratch,
                    t.def,
                    t.tick,
                    *t.input,
                    t.def.limits.events_per_tick,
                )
            })
        },
        Decl {
            reads: &[R::NavField],
            reads_previous: &[R::Position, R::EntitySet],
            writes: &[R::NavField, R::Completions],
            ..Decl::new(NAVIGATION, |t| {
                navigation(t.world, t.scratch, t.def, &mut t.completions);
                Ok(())
            })
        },
        Decl {
            // The brains as the last tick left them (Motion's fused pass decides too), the
            // navigation state as `navigation` left it.
            reads: &[R::NavField],
            reads_previous: &[R::Brain, R::Position, R::EntitySet, R::Speed],
            writes: &[R::Brain, R::Velocity, R::Targets],
            after: &[NAVIGATION],
            ..Decl::new(BEHAVIOURS, |t| {
                targets(t.world, t.scratch, t.def, t.tick);
                if !t.fused_motion {
                    let split = !t.options.serial && crate::par::available();
                    behaviours(t.world, t.scratch, t.def, t.tick, split);
                }
                // Else the brains decide in Motion's pass over every entity, each just before it
                // moves (see `motion::fused`): from the same targets and their own position.
                Ok(())
            })
        },
    ],
};

/// Requests a new flow field when the goal entity has moved to another cell and no request is
/// in flight. The grid is copied into the request: the job owns its input.
fn navigation(world: &mut SimWorld, s: &mut Scratch, def: &GameDef, completions: &mut Completions) {
    let Some(nav) = def.levels.get(world.level).and_then(|l| l.nav.as_ref()) else {
        return;
    };
    if world.nav.in_flight.is_some() {
        return;
    }
    let Some(base) = &world.nav.base else {
        return;
    };
    // The goal: the earliest created live entity with the goal tags.
    let mut goal = None;
    world.tagged.each(
        &world.ecs,
        &world.index,
        nav.goal,
        &mut s.tag_merge,
        |seq, _, _, p| {
            goal = goal.or(Some((seq, p)));
        },
    );
    let Some((goal_seq, goal_pos)) = goal else {
        return;
    };
    let Some(cell) = base.cell_of(goal_pos) else {
        return;
    };
    if world.nav.requested_goal == Some(cell) {
        return;
    }
    let mut input = base.clone();
    input.goal = cell;
    let revision = world.nav.revision + 1;
    if let Some(id) = completions.submit(
        world.id,
        Some(goal_seq),
        revision,
        JobInput::FlowField(input),
    ) {
        world.nav.revision = revision;
        world.nav.in_flight = Some(id);
        world.nav.requested_goal = Some(cell);
    }
}

/// Rows of lifetimes [`expirations`] tests at once for any due.
const EXPIRY_CHUNK: usize = 32;

fn expirations(
    world: &mut SimWorld,
    s: &mut Scratch,
    def: &GameDef,
    tick: u64,
) -> Result<(), Fault> {
    let (live, cap) = (world.index.len(), def.limits.events_per_tick);
    // In a query's order, archetype by archetype, with no borrow counted.
    for a in world.ecs.thaw().archetypes() {
        if a.is_empty() {
            continue;
        }
        let (Some(ids), Some(lives), Some(ts)) = (
            a.read::<Identity>(),
            a.read::<Lifetime>(),
            a.read::<Position>(),
        ) else {
            continue;
        };
        // A chunk of rows none of whose lifetimes is due (most, most ticks) is passed over
        // after one test of the chunk without a branch a row.
        for (c, chunk) in lives.chunks(EXPIRY_CHUNK).enumerate() {
            if !crate::math::any_due(Lifetime::words(chunk), tick) {
                continue;
            }
            let at = c * EXPIRY_CHUNK;
            for (i, life) in (at..).zip(chunk) {
                let (id, t) = (&ids[i], &ts[i]);
                if life.0.due(tick) && s.pending.insert(id.seq()) {
                    // Each live entity at most once.
                    if !push_within(&mut s.destroys, id.seq(), live) {
                        return Err(Limit::Entities.exceeded(live as u64, "destroys in one tick"));
                    }
                    let entity = id.party(def, t);
                    push_bounded(
                        &mut s.events.expired,
                        ExpireEvent {
                            tick,
                            entity,
                            reason: ExpireReason::Lifetime,
                        },
                        cap,
                        "expired",
                    )?;
                }
            }
        }
    }
    Ok(())
}

fn spawners(world: &mut SimWorld, s: &mut Scratch, def: &GameDef, tick: u64) -> Result<(), Fault> {
    let Some(level) = def.levels.get(world.level) else {
        return Ok(());
    };
    for (i, sp) in level.spawners.iter().enumerate() {
        let start = u64::from(sp.start);
        if tick < start || !(tick - start).is_multiple_of(u64::from(sp.period.max(1))) {
            continue;
        }
        if sp.bursts.is_some_and(|b| world.spawner_bursts[i] >= b) {
            continue;
        }
        world.spawner_bursts[i] += 1;
        // Each spawn is a command's worth of work, an entity and an `on_spawn` event.
        let l = &def.limits;
        let (bound, limit) = [
            (l.commands_per_tick, Limit::Commands),
            (l.max_entities, Limit::Entities),
            (l.events_per_tick, Limit::Events),
        ]
        .into_iter()
        .min_by_key(|(b, _)| *b)
        .unwrap_or((l.max_entities, Limit::Entities));
        for _ in 0..sp.count {
            let pos = sp.area.lerp(world.rng.f32(), world.rng.f32());
            let spawn = (sp.archetype, pos, SpawnOverrides::default());
            if !push_within(&mut s.spawns, spawn, bound as usize) {
                return Err(limit.exceeded(bound, "spawns by level spawners in one tick"));
            }
        }
    }
    Ok(())
}

/// Whether a trigger fires on this input (before its cooldown is checked).
fn fires(trig: &crate::def::TriggerDef, input: &TickInput) -> bool {
    match trig.on {
        TriggerOn::Press => input.pressed(trig.action),
        TriggerOn::Hold => input.held(trig.action) || input.pressed(trig.action),
        TriggerOn::Release => input.released(trig.action),
    }
}

/// Whether a firing trigger's cooldown lets it act at `tick` (one without a cooldown always
/// does): the one test of [`aims`] and [`control`], which then starts the cooldown.
fn armed(trig: &crate::def::TriggerDef, cds: Option<&Cooldowns>, tick: u64) -> bool {
    match (trig.cooldown, cds) {
        (Some(slot), Some(cds)) => cds.0.get(slot as usize).is_some_and(|d| d.ready(tick)),
        _ => true,
    }
}

/// The aimed-at tags' entities, as a share of all, from which [`aims`] reads every
/// archetype's columns rather than the tag index: 1 in 8.
const SCAN_SHARE: usize = 8;

/// For each firing trigger that aims and whose cooldown lets it act: the nearest other entity
/// with its aim tags, found in one pass over the tagged entities (ties go to the lower creation
/// sequence), as an [`Aim`]. A trigger held through its cooldown searches nothing: only the
/// ticks it acts read an aim.
fn aims(
    world: &mut SimWorld,
    s: &mut Scratch,
    def: &GameDef,
    input: &TickInput,
    tick: u64,
) -> Vec<Aim> {
    let mut out: Vec<Aim> = Vec::new();
    // The controlled entities, archetype by archetype in a query's order (see `control`).
    for a in world.ecs.thaw().archetypes() {
        if a.is_empty() || !a.has::<Control>() {
            continue;
        }
        let (Some(ids), Some(cs), Some(ts)) = (
            a.read::<Identity>(),
            a.read::<Control>(),
            a.read::<Position>(),
        ) else {
            continue;
        };
        let cds = a.read::<Cooldowns>();
        for (i, ((id, c), t)) in ids.iter().zip(cs).zip(ts).enumerate() {
            let cds = cds.map(|x| &x[i]);
            let acts =
                |t: &&crate::def::TriggerDef| t.aim != 0 && fires(t, input) && armed(t, cds, tick);
            for trig in c.triggers.iter().filter(acts) {
                if !out.iter().any(|a| a.0 == id.seq() && a.1 == trig.aim) {
                    out.push((id.seq(), trig.aim, t.0, None));
                }
            }
        }
    }
    if out.is_empty() {
        return out;
    }
    let wanted = out.iter().fold(0u64, |acc, a| acc | a.1);
    // Where the aimed-at tags cover many of the entities, every entity's tags and position
    // come from its archetype's columns (a few instructions an entity); else the tag index
    // lists them (a look-up by sequence and one through the world each, some seventy
    // instructions). The nearest is the same in any order (`nearer` is a total order).
    let scan = world.tagged.covered(wanted) * SCAN_SHARE >= world.ecs.len() as usize;
    if let ([one], true) = (out.as_mut_slice(), scan) {
        nearest_in_columns(world, def, one);
        return out;
    }
    let mut near = |seq: u64, tags: u64, t: Vec2| {
        for a in &mut out {
            if a.0 == seq || tags & a.1 == 0 {
                continue;
            }
            let d = (t - a.2).length_squared();
            if a.3.is_none_or(|(bd, bseq, _)| nearer((d, seq), (bd, bseq))) {
                a.3 = Some((d, seq, t));
            }
        }
    };
    if scan {
        for arch in world.ecs.archetypes_placed() {
            let (Some(ids), Some(pos)) = (arch.read::<Identity>(), arch.read::<Position>()) else {
                continue;
            };
            for (id, t) in std::iter::zip(&*ids, &*pos) {
                let tags = def.tags_of(id.archetype) & wanted;
                if tags != 0 {
                    near(id.seq(), tags, t.0);
                }
            }
        }
    } else {
        world.tagged.each(
            &world.ecs,
            &world.index,
            wanted,
            &mut s.tag_merge,
            |seq, _, tags, t| near(seq, tags, t),
        );
    }
    out
}

fn control(
    world: &mut SimWorld,
    s: &mut Scratch,
    def: &GameDef,
    tick: u64,
    input: &TickInput,
    cap: u32,
) -> Result<(), Fault> {
    let aims = aims(world, s, def, input, tick);
    let steer = Steer {
        input,
        tick,
        dt: def.tick.tick_seconds(),
        up: crate::tick::motion::up(def.physics.gravity),
    };
    // Archetype by archetype through the columns' known places, with no borrow counted (a
    // hecs query looked its eight columns up in every archetype every tick), in a query's
    // order: archetypes, then rows.
    for a in world.ecs.thaw().archetypes() {
        if a.is_empty() || !a.has::<Control>() {
            continue;
        }
        let (Some(ids), Some(cs), Some(vs), Some(ts)) = (
            a.read::<Identity>(),
            a.write::<Control>(),
            a.write::<Velocity>(),
            a.read::<Position>(),
        ) else {
            continue;
        };
        let (speeds, mut cds, mut rotations, mut footings) = (
            a.read::<Speed>(),
            a.write::<Cooldowns>(),
            a.write::<Rotation>(),
            a.write::<Footing>(),
        );
        for (i, (((id, c), v), t)) in ids.iter().zip(cs).zip(vs).zip(ts).enumerate() {
            let cds = cds.as_deref_mut().map(|x| &mut x[i]);
            let rotation = rotations.as_deref_mut().map(|x| &mut x[i]);
            let footing = footings.as_deref_mut().map(|x| &mut x[i]);
            let own = speeds.map(|x| &x[i]);
            control_one(
                (id, c, own, v, t, cds, rotation, footing),
                (def, &steer, input, tick, cap),
                &aims,
                s,
            )?;
        }
    }
    Ok(())
}

/// One controlled entity's step of [`control`]: its steering, then each trigger that fires and
/// is armed (its cooldown started and an action event pushed).
#[allow(clippy::type_complexity)]
#[inline(always)]
fn control_one(
    (id, c, own, v, t, mut cds, rotation, footing): (
        &Identity,
        &mut Control,
        Option<&Speed>,
        &mut Velocity,
        &Position,
        Option<&mut Cooldowns>,
        Option<&mut Rotation>,
        Option<&mut Footing>,
    ),
    (def, steer, input, tick, cap): (&GameDef, &Steer<'_>, &TickInput, u64, u32),
    aims: &[Aim],
    s: &mut Scratch,
) -> Result<(), Fault> {
    let speed = Speed::of(own, id.archetype, def);
    steer::steer(steer, c, speed, &mut v.0, rotation, footing);
    for trig in &c.triggers {
        if !fires(trig, input) || !armed(trig, cds.as_deref(), tick) {
            continue;
        }
        if let (Some(slot), Some(cds)) = (trig.cooldown, cds.as_deref_mut()) {
            let slot = slot as usize;
            let length = def
                .archetype(id.archetype)
                .and_then(|a| a.cooldowns.get(slot))
                .map_or(0, |c| u64::from(c.ticks));
            cds.0[slot] = Deadline::after(tick, length).ok_or_else(|| {
                Fault::new(
                    FaultKind::Exhausted,
                    "cooldown deadline overflows the tick counter",
                )
            })?;
        }
        let entity = id.party(def, t);
        let aim = aims
            .iter()
            .find(|a| a.0 == id.seq() && a.1 == trig.aim)
            .and_then(|a| a.3)
            .map(|(_, _, target)| (target - t.0).normalized_or_zero())
            .filter(|d| *d != Vec2::ZERO)
            .unwrap_or(c.facing);
        push_bounded(
            &mut s.events.actions,
            ActionEvent {
                tick,
                action: trig.action,
                on: trig.on,
                entity,
                facing: c.facing,
                aim,
            },
            cap,
            "action",
        )?;
    }
    Ok(())
}
