//! Gameplay: consequences in two fixed stages, and Rust's application of their commands.
//!
//! Reads: the tick's events, health, score, variables, script state, timers.
//! Writes: health, score, variables, script state, timers, the RNG (through consequences),
//! velocities; records structural commands for Commit and stages presentation requests.
//! Produces: damage events.
//!
//! 1. Due timers whose id is no longer live (cancelled) are dropped; those whose target entity
//!    is gone (or marked for destruction) are dropped and end.
//! 2. Stage 1: consequences see level start, spawns, actions, contacts, expirations and timers
//!    and send commands. Timers delivered in stage 1 are then finished (one-shots released).
//! 3. Rust applies stage 1's commands in the order sent. Damage produces damage events.
//! 4. Stage 2: consequences see the damage events (those carried from the previous tick's stage 2
//!    first, then this tick's) and send commands.
//! 5. Rust applies stage 2's commands; damage they cause is carried to the next tick's stage 2.
//!
//! There is no third stage and no loop until queues drain: a consequence of a consequence
//! waits for the next tick's stage, never re-enters a queue being traversed.
//!
//! Commands naming an entity that no longer exists are discarded and counted; commands naming
//! an entity already marked for destruction this tick are discarded and counted separately
//! (pending-destroy filtering).

use crate::command::{Command, Stage};
use crate::consequences::{Consequences, Gameplay};
use crate::def::GameDef;
use crate::event::{DamageEvent, EventKind, TimerEvent, push_bounded};
use crate::fault::{Fault, FaultKind};
use crate::limits::{Limit, push_within};
use crate::outbox::Presentation;
use crate::tick::access::Resource;
use crate::tick::phase::Phase;
use crate::tick::system::Decl;
use crate::world::SimWorld;
use crate::world::components::*;

use Resource as R;

const STAGE_ONE_EVENTS: &[EventKind] = &[
    EventKind::LevelStarted,
    EventKind::Spawned,
    EventKind::Action,
    EventKind::Collision,
    EventKind::Trigger,
    EventKind::Expired,
    EventKind::Timer,
];
const STAGE_READS: &[R] = &[
    R::Score,
    R::Vars,
    R::Timers,
    R::Health,
    R::ScriptState,
    R::Rng,
];
const APPLY_WRITES: &[R] = &[
    R::Health,
    R::Score,
    R::Vars,
    R::ScriptState,
    R::Timers,
    R::Velocity,
    R::StructuralCommands,
    R::StagedPresentation,
];

/// Gameplay's systems, in registration order: the two stages and Rust's application of their
/// commands, strictly one after the other.
pub(crate) const SYSTEMS: &[Decl] = &[
    Decl {
        reads: &[R::Timers],
        reads_previous: &[R::EntitySet],
        writes: &[R::Timers],
        consumes: &[EventKind::Timer],
        ..Decl::new("deliverable_timers", Phase::Gameplay, |t| {
            deliverable_timers(t.world, t.def, t.tick)
        })
    },
    Decl {
        reads: STAGE_READS,
        reads_previous: &[R::EntitySet],
        writes: &[R::Rng, R::Timers],
        consumes: STAGE_ONE_EVENTS,
        after: &["deliverable_timers"],
        ..Decl::new("stage_one", Phase::Gameplay, |t| {
            run_stage(t.world, t.def, t.tick, Stage::One, t.consequences)?;
            let world = &mut *t.world;
            for timer in &world.scratch.events.timers {
                world.timers.finish(timer.id);
            }
            Ok(())
        })
    },
    Decl {
        writes: APPLY_WRITES,
        produces: &[EventKind::Damage],
        after: &["stage_one"],
        ..Decl::new("apply_one", Phase::Gameplay, |t| {
            apply(t.world, t.def, t.tick, Stage::One)
        })
    },
    Decl {
        reads: STAGE_READS,
        writes: &[R::Rng, R::Timers],
        consumes: &[EventKind::Damage],
        after: &["apply_one"],
        ..Decl::new("stage_two", Phase::Gameplay, |t| {
            run_stage(t.world, t.def, t.tick, Stage::Two, t.consequences)
        })
    },
    Decl {
        writes: APPLY_WRITES,
        after: &["stage_two"],
        ..Decl::new("apply_two", Phase::Gameplay, |t| {
            apply(t.world, t.def, t.tick, Stage::Two)
        })
    },
];

fn deliverable_timers(world: &mut SimWorld, def: &GameDef, tick: u64) -> Result<(), Fault> {
    let due = std::mem::take(&mut world.scratch.due_timers);
    for d in &due {
        if !world.timers.is_live(d.id) {
            continue;
        }
        let target = match d.target {
            None => None,
            Some(seq) => {
                let party = if world.scratch.pending.contains(&seq) {
                    None
                } else {
                    world.party_of(seq)
                };
                match party {
                    Some(p) => Some(p),
                    None => {
                        world.timers.target_gone(d.id);
                        continue;
                    }
                }
            }
        };
        push_bounded(
            &mut world.scratch.events.timers,
            TimerEvent {
                tick,
                id: d.id,
                name: d.name.clone(),
                due: d.due,
                target,
                data: d.data,
            },
            def.limits.events_per_tick,
            "timer",
        )?;
    }
    world.scratch.due_timers = due;
    Ok(())
}

fn run_stage(
    world: &mut SimWorld,
    def: &GameDef,
    tick: u64,
    stage: Stage,
    consequences: &mut dyn Consequences,
) -> Result<(), Fault> {
    world.scratch.commands.clear();
    world.scratch.destroyed_now.clear();
    let mut g = Gameplay {
        tick,
        stage,
        def,
        events: &world.scratch.events,
        ecs: &world.ecs,
        index: &world.index,
        pending: &world.scratch.pending,
        destroyed_now: &mut world.scratch.destroyed_now,
        score: world.score,
        vars: &world.vars,
        rng: &mut world.rng,
        timers: &mut world.timers,
        commands: &mut world.scratch.commands,
    };
    consequences.stage(stage, &mut g)
}

/// Applies a stage's commands in the order sent. Long because it is one `match` with one short
/// arm per kind of command, which reads best in one place.
fn apply(world: &mut SimWorld, def: &GameDef, tick: u64, stage: Stage) -> Result<(), Fault> {
    let commands = std::mem::take(&mut world.scratch.commands);
    let cap = def.limits.events_per_tick;
    for command in &commands {
        match command {
            Command::Damage {
                target,
                amount,
                source,
            } => {
                let Some(e) = resolve(world, *target) else {
                    continue;
                };
                let Ok(h) = world.ecs.query_one_mut::<&mut Health>(e) else {
                    world.counters.no_health += 1;
                    continue;
                };
                if !h.invulnerable_until.ready(tick) {
                    world.counters.damage_blocked += 1;
                    continue;
                }
                h.current = h.current.saturating_sub(*amount);
                if h.invulnerable_ticks > 0 {
                    h.invulnerable_until = Deadline::after(tick, u64::from(h.invulnerable_ticks))
                        .ok_or_else(|| {
                        Fault::new(FaultKind::Exhausted, "invulnerability deadline overflows")
                    })?;
                }
                let (health, max) = (h.current, h.max);
                let target = world.party(e).expect("resolved above");
                let ev = DamageEvent {
                    tick,
                    target,
                    source: *source,
                    amount: *amount,
                    health,
                    max,
                };
                match stage {
                    Stage::One => {
                        push_bounded(&mut world.scratch.events.damage, ev, cap, "damage")?
                    }
                    Stage::Two => push_bounded(&mut world.carried_damage, ev, cap, "damage")?,
                }
            }
            Command::Heal { target, amount } => {
                let Some(e) = resolve(world, *target) else {
                    continue;
                };
                match world.ecs.query_one_mut::<&mut Health>(e) {
                    Ok(h) => h.current = h.current.saturating_add(*amount).min(h.max),
                    Err(_) => world.counters.no_health += 1,
                }
            }
            Command::Score(delta) => world.score = world.score.saturating_add(*delta),
            Command::SetVar(name, value) => set_var(world, def, name, *value)?,
            Command::SetState { target, key, value } => {
                if let Some(e) = resolve(world, *target) {
                    set_state(world, def, e, *target, key, *value)?;
                }
            }
            Command::ClearState(target) => {
                if let Some(e) = resolve(world, *target) {
                    let _ = world.ecs.remove_one::<ScriptState>(e);
                }
            }
            Command::Spawn {
                archetype,
                pos,
                overrides,
            } => {
                let bound = def.limits.max_entities;
                let spawn = (*archetype, *pos, overrides.clone());
                if !push_within(&mut world.scratch.spawns, spawn, bound as usize) {
                    return Err(Limit::Entities.exceeded(bound, "spawns in one tick"));
                }
            }
            Command::Destroy(seq) => {
                if !world.index.contains_key(seq) {
                    world.counters.stale_commands += 1;
                } else if world.scratch.pending.insert(*seq) {
                    // Each live entity at most once: within the live count.
                    let bound = world.index.len();
                    if !push_within(&mut world.scratch.destroys, *seq, bound) {
                        return Err(Limit::Entities.exceeded(bound as u64, "destroys in one tick"));
                    }
                } else {
                    world.counters.pending_destroy_filtered += 1;
                }
            }
            Command::Teleport { target, pos } => {
                if resolve(world, *target).is_some() {
                    // At most one per command of the two stages.
                    let bound = 2 * def.limits.commands_per_tick as usize;
                    if !push_within(&mut world.scratch.teleports, (*target, *pos), bound) {
                        return Err(Limit::Commands.exceeded(bound as u64, "teleports in one tick"));
                    }
                }
            }
            Command::SetVelocity { target, velocity } => {
                if let Some(e) = resolve(world, *target)
                    && let Ok(v) = world.ecs.query_one_mut::<&mut Velocity>(e)
                {
                    v.0 = *velocity;
                }
            }
            Command::Effect { effect, pos, color } => world.stage_presentation(
                Presentation::Effect {
                    effect: *effect,
                    pos: *pos,
                    color: *color,
                },
                tick,
                def.limits.outbox,
            ),
            Command::Sound {
                sound,
                volume,
                pitch,
            } => world.stage_presentation(
                Presentation::Sound {
                    sound: *sound,
                    volume: *volume,
                    pitch: *pitch,
                },
                tick,
                def.limits.outbox,
            ),
            Command::GameOver(message) => {
                if world.game_over.is_none() {
                    world.game_over = Some(message.clone());
                }
            }
        }
    }
    world.scratch.commands = commands;
    Ok(())
}

/// Sets a game variable; a name that would be one more than `[limits] variables` faults.
fn set_var(world: &mut SimWorld, def: &GameDef, name: &str, value: f64) -> Result<(), Fault> {
    if let Some(v) = world.vars.get_mut(name) {
        *v = value;
        return Ok(());
    }
    let bound = def.limits.variables;
    if world.vars.len() >= bound as usize {
        return Err(Limit::Variables.exceeded(
            bound,
            format_args!("game variables: `{name}` would be one more"),
        ));
    }
    world.vars.insert(name.to_string(), value);
    Ok(())
}

/// Sets a value of an entity's script state; a key that would be one more than
/// `[limits] state_keys` on that entity faults.
fn set_state(
    world: &mut SimWorld,
    def: &GameDef,
    e: hecs::Entity,
    seq: u64,
    key: &str,
    value: f64,
) -> Result<(), Fault> {
    let bound = def.limits.state_keys;
    let full = |len: usize| {
        (len >= bound as usize).then(|| {
            Limit::StateKeys.exceeded(
                bound,
                format_args!("script-state keys on entity {seq}: `{key}` would be one more"),
            )
        })
    };
    match world.ecs.query_one_mut::<&mut ScriptState>(e) {
        Ok(s) => {
            if s.get(key).is_none()
                && let Some(f) = full(s.len())
            {
                return Err(f);
            }
            s.set(key, value);
        }
        Err(_) => {
            if let Some(f) = full(0) {
                return Err(f);
            }
            let mut s = ScriptState::default();
            s.set(key, value);
            let _ = world.ecs.insert_one(e, s);
        }
    }
    Ok(())
}

/// The live entity a command names, or `None` (counted) when it is gone or marked for
/// destruction this tick.
fn resolve(world: &mut SimWorld, seq: u64) -> Option<hecs::Entity> {
    match world.index.get(&seq) {
        None => {
            world.counters.stale_commands += 1;
            None
        }
        Some(_) if world.scratch.pending.contains(&seq) => {
            world.counters.pending_destroy_filtered += 1;
            None
        }
        Some(e) => Some(*e),
    }
}

/// Runs one gameplay stage of `consequences` over `events` against `world`, outside any tick,
/// and returns the commands it sent without applying them (timers it schedules are scheduled).
/// For benchmarks and tools that exercise consequences in isolation.
pub fn run_stage_detached(
    world: &mut SimWorld,
    def: &GameDef,
    events: &crate::event::Events,
    stage: Stage,
    consequences: &mut dyn Consequences,
) -> Result<Vec<Command>, Fault> {
    let mut commands = Vec::new();
    world.scratch.destroyed_now.clear();
    let mut g = Gameplay {
        tick: world.tick + 1,
        stage,
        def,
        events,
        ecs: &world.ecs,
        index: &world.index,
        pending: &world.scratch.pending,
        destroyed_now: &mut world.scratch.destroyed_now,
        score: world.score,
        vars: &world.vars,
        rng: &mut world.rng,
        timers: &mut world.timers,
        commands: &mut commands,
    };
    consequences.stage(stage, &mut g)?;
    Ok(commands)
}
