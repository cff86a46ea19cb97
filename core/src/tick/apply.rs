//! Rust's application of gameplay commands: after each stage (Gameplay), and at Commit for
//! commands naming an entity spawned earlier in the same tick.
//!
//! Commands naming an entity that no longer exists are discarded and counted; commands naming
//! an entity already marked for destruction this tick are discarded and counted separately
//! (pending-destroy filtering). A command naming an id of this tick's spawns waits in
//! `after_spawn` and is applied at Commit, right after the spawns, in the order sent; damage
//! it does is delivered with the next tick's stage 2, like damage from stage 2.

use crate::command::Command;
use crate::def::{BodyKind, GameDef, RotateMode};
use crate::fault::{Fault, FaultKind};
use crate::limits::{Limit, push_within};
use crate::math::wrap_angle;
use crate::outbox::{Presentation, PresentationRequest};
use crate::phase::Stage;
use crate::tick::damage::{damage_one, damage_run, live};
use crate::tick::scratch::{Hit, Scratch};
use crate::var::Var;
use crate::world::SimWorld;
use crate::world::components::*;

/// Applies a stage's commands in the order sent; stage 1's after the damage archetypes'
/// `contact_damage` does in the tick's contacts (see [`ContactHits`]).
///
/// [`ContactHits`]: crate::tick::scratch::ContactHits
pub(crate) fn apply(
    world: &mut SimWorld,
    s: &mut Scratch,
    def: &GameDef,
    tick: u64,
    stage: Stage,
) -> Result<(), Fault> {
    if stage == Stage::One && def.has_contact_damage() {
        let hits = std::mem::take(&mut *s.contact_hits);
        // A run makes a view of the columns damage reads (hecs lists the archetypes that
        // match it in a new list): none where no contact hit.
        let mut result = Ok(());
        for run in [&hits.begun, &hits.lasting] {
            if !run.is_empty() && result.is_ok() {
                let run = run.iter().map(Hit::damage);
                result = damage_run(world, s, def, tick, stage, run);
            }
        }
        *s.contact_hits = hits;
        result?;
    }
    let commands = std::mem::take(&mut *s.commands);
    let result = apply_all(world, s, def, tick, stage, &commands);
    *s.commands = commands;
    result
}

/// Consecutive damage commands from which one view of the columns damage reads serves them
/// all (making the view costs about what a few lookups of the entity's components do).
const DAMAGE_RUN_MIN: usize = 4;

/// [`apply`] of `commands`, in order.
fn apply_all(
    world: &mut SimWorld,
    s: &mut Scratch,
    def: &GameDef,
    tick: u64,
    stage: Stage,
    commands: &[Command],
) -> Result<(), Fault> {
    let mut i = 0;
    while i < commands.len() {
        let now =
            |c: &Command| matches!(c, Command::Damage { target, .. } if *target < *world.next_seq);
        let run = commands[i..]
            .iter()
            .take(DAMAGE_RUN_MIN)
            .take_while(|c| now(c))
            .count();
        if run == DAMAGE_RUN_MIN {
            let run = commands[i..].iter().take_while(|c| now(c)).count();
            let damage = commands[i..i + run].iter().filter_map(|c| match *c {
                Command::Damage {
                    target,
                    amount,
                    source,
                } => Some((target, amount, source)),
                _ => None,
            });
            damage_run(world, s, def, tick, stage, damage)?;
            i += run;
            continue;
        }
        let c = &commands[i];
        match c.target() {
            Some(seq) if seq >= *world.next_seq => defer(world, s, def, c, seq)?,
            _ => apply_one(world, s, def, tick, stage, c)?,
        }
        i += 1;
    }
    Ok(())
}

/// Keeps a command naming one of this tick's spawns for Commit; an id past them is stale.
fn defer(
    world: &mut SimWorld,
    s: &mut Scratch,
    def: &GameDef,
    c: &Command,
    seq: u64,
) -> Result<(), Fault> {
    if seq >= *world.next_seq + s.spawns.len() as u64 {
        world.counters.stale_commands += 1;
        return Ok(());
    }
    // At most one per command of the two stages.
    let bound = 2 * def.limits.commands_per_tick as usize;
    if !push_within(&mut s.after_spawn, c.clone(), bound) {
        return Err(Limit::Commands.exceeded(bound as u64, "commands naming new entities"));
    }
    Ok(())
}

/// Applies the commands that named this tick's spawns, now that they exist (Commit). A
/// destroy removes the entity at once, and its spawn outcome with it: `on_spawn` never sees
/// it.
pub(crate) fn apply_after_spawn(
    world: &mut SimWorld,
    s: &mut Scratch,
    def: &GameDef,
    tick: u64,
) -> Result<(), Fault> {
    let commands = std::mem::take(&mut *s.after_spawn);
    // Spawns destroyed here lose their outcomes, in one pass at the end.
    let mut unborn = false;
    for c in &commands {
        match c {
            Command::Destroy(seq) => {
                if s.pending.insert(*seq) {
                    world.despawn(*seq);
                    unborn = true;
                } else {
                    world.counters.pending_destroy_filtered += 1;
                }
            }
            Command::Teleport { target, pos } => {
                if let Some(e) = resolve(world, s, *target)
                    && let Ok((cur, prev)) = world
                        .ecs
                        .query_one_mut::<(&mut Position, &mut PrevPosition)>(e)
                {
                    cur.0 = *pos;
                    prev.0 = *pos;
                }
            }
            // A new entity is drawn at its angle from the first frame, as at its position.
            Command::SetAngle { target, angle } => {
                if let Some(e) = resolve(world, s, *target) {
                    let angle = wrap_angle(*angle);
                    turn(world, e, |r| (r.angle, r.prev) = (angle, angle));
                }
            }
            c => apply_one(world, s, def, tick, Stage::Two, c)?,
        }
    }
    if unborn {
        let gone = &world.index;
        world
            .spawn_outcomes
            .retain(|o| gone.contains_key(&o.entity.seq));
    }
    *s.after_spawn = commands;
    Ok(())
}

/// Applies one command.
///
/// Long because it is one `match` with a short arm per kind of command, which reads best in
/// one place (the compiler checks every kind has its arm) and runs once per command sent.
fn apply_one(
    world: &mut SimWorld,
    s: &mut Scratch,
    def: &GameDef,
    tick: u64,
    stage: Stage,
    command: &Command,
) -> Result<(), Fault> {
    match command {
        Command::Damage {
            target,
            amount,
            source,
        } => {
            if let Some(e) = resolve(world, s, *target) {
                damage_one(world, s, def, tick, stage, (e, *target), (*amount, *source))?;
            }
        }
        Command::Heal { target, amount } => {
            let Some(e) = resolve(world, s, *target) else {
                return Ok(());
            };
            match world.ecs.query_one_mut::<(&mut Health, &Identity)>(e) {
                Ok((h, _)) if h.current <= 0 => world.counters.after_death += 1,
                Ok((h, id)) => {
                    let max = world.max_health.of(id);
                    h.current = h.current.saturating_add(*amount).min(max);
                }
                Err(_) => world.counters.no_health += 1,
            }
        }
        Command::Score(delta) => *world.score = world.score.saturating_add(*delta),
        Command::SetVar(name, value) => set_var(world, def, name, value)?,
        Command::SetState { target, key, value } => {
            if let Some(e) = resolve(world, s, *target) {
                set_state(world, def, e, *target, key, *value)?;
            }
        }
        Command::ClearState(target) => {
            if let Some(e) = resolve(world, s, *target)
                && let Ok(state) = world.ecs.remove_one::<ScriptState>(e)
            {
                *world.state_bytes -= state.bytes();
            }
        }
        Command::Spawn {
            archetype,
            pos,
            overrides,
        } => {
            let bound = def.limits.max_entities;
            let spawn = (*archetype, *pos, overrides.clone());
            if !push_within(&mut s.spawns, spawn, bound as usize) {
                return Err(Limit::Entities.exceeded(bound, "spawns in one tick"));
            }
        }
        Command::Destroy(seq) => {
            if !world.index.contains_key(seq) {
                world.counters.stale_commands += 1;
            } else if s.pending.insert(*seq) {
                // Each live entity at most once: within the live count.
                let bound = world.index.len();
                if !push_within(&mut s.destroys, *seq, bound) {
                    return Err(Limit::Entities.exceeded(bound as u64, "destroys in one tick"));
                }
            } else {
                world.counters.pending_destroy_filtered += 1;
            }
        }
        Command::Teleport { target, pos } => {
            if resolve(world, s, *target).is_some() {
                // At most one per command of the two stages.
                let bound = 2 * def.limits.commands_per_tick as usize;
                if !push_within(&mut s.teleports, (*target, *pos), bound) {
                    return Err(Limit::Commands.exceeded(bound as u64, "teleports in one tick"));
                }
            }
        }
        Command::SetVelocity { target, velocity } => {
            if let Some(e) = resolve(world, s, *target)
                && let Ok(v) = world.ecs.query_one_mut::<&mut Velocity>(e)
            {
                v.0 = *velocity;
            }
        }
        Command::UseCooldown { target, slot } => {
            if let Some(e) = resolve(world, s, *target)
                && let Ok((id, cds)) = world.ecs.query_one_mut::<(&Identity, &mut Cooldowns)>(e)
                && let Some(deadline) = cds.0.get_mut(*slot as usize)
            {
                let length = def
                    .archetype(id.archetype)
                    .and_then(|a| a.cooldowns.get(*slot as usize))
                    .map_or(0, |c| u64::from(c.ticks));
                *deadline = Deadline::after(tick, length).ok_or_else(|| {
                    Fault::new(FaultKind::Exhausted, "cooldown deadline overflows")
                })?;
            }
        }
        Command::Impulse { target, impulse } => {
            if let Some(e) = resolve(world, s, *target)
                && let Ok((v, id, own, shared)) = world.ecs.query_one_mut::<(
                    &mut Velocity,
                    &Identity,
                    Option<&Collider>,
                    Option<&SharedCollider>,
                )>(e)
            {
                let c = Collider::either(own, shared, def, id.archetype);
                let inv = c.map(|c| c.def(def)).map_or(1.0, |c| match c.body {
                    BodyKind::Dynamic => 1.0 / c.mass,
                    BodyKind::Kinematic | BodyKind::Static => 0.0,
                });
                let next = v.0 + *impulse * inv;
                if next.is_finite() {
                    v.0 = next;
                }
            }
        }
        Command::SetAngle { target, angle } => {
            // Drawn turning from where the tick began, as positions are drawn moving.
            if let Some(e) = resolve(world, s, *target) {
                turn(world, e, |r| r.angle = wrap_angle(*angle));
            }
        }
        Command::SetSpin { target, spin } => {
            if let Some(e) = resolve(world, s, *target) {
                turn(world, e, |r| r.spin = *spin);
            }
        }
        Command::Effect { effect, pos, color } => stage_presentation(
            world,
            s,
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
        } => stage_presentation(
            world,
            s,
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
                *world.game_over = Some((tick, message.clone()));
            }
        }
        Command::LoadLevel(level) => *world.next_level = Some(*level),
        Command::Restart => world.asked.restart = true,
        Command::Pause => world.asked.pause = true,
        Command::Bind { action, keys } => {
            let b = &mut *world.bindings;
            match keys {
                Some(keys) => {
                    b.by_action.insert(*action, keys.clone());
                }
                None => {
                    b.by_action.remove(action);
                }
            }
            b.changes += 1;
        }
        Command::Save { key, value } => {
            let bound = def.limits.save_bytes;
            world
                .saved
                .set(key, value.clone(), bound as usize)
                .map_err(|after| crate::saved::past_bound(bound, key, after))?;
        }
        Command::Animate { target, slot } => {
            if let Some(e) = resolve(world, s, *target) {
                let playing = Animation {
                    slot: *slot,
                    since: tick,
                };
                match world.ecs.query_one_mut::<&mut Animation>(e) {
                    Ok(a) if a.slot == *slot => {}
                    Ok(a) => *a = playing,
                    Err(_) => {
                        let _ = world.ecs.insert_one(e, playing);
                    }
                }
            }
        }
        Command::CameraShake { strength, ticks } => {
            world.camera.shake = Some(crate::world::camera::Shake {
                strength: *strength,
                start: tick,
                ticks: *ticks,
            });
        }
        Command::CameraZoom(z) => world.camera.zoom = *z,
        Command::SetTile { pos, tile } => {
            // Checked when sent: the level's map covers `pos` and `tile` is one of its tiles.
            let map = def.levels.get(world.level).and_then(|l| l.tilemap.as_ref());
            if let Some(change) = map.and_then(|m| Some((m.cell_at(*pos)?, m.key_of(*tile).ok()?)))
            {
                // At most one per command of the two stages.
                let bound = 2 * def.limits.commands_per_tick as usize;
                if !push_within(&mut s.tile_changes, change, bound) {
                    return Err(Limit::Commands.exceeded(bound as u64, "tile changes in one tick"));
                }
            }
        }
        Command::Music(m) => {
            stage_presentation(world, s, Presentation::Music(*m), tick, def.limits.outbox)
        }
        Command::SetLook { target, look } => {
            if let Some(e) = resolve(world, s, *target) {
                match world.ecs.query_one_mut::<&mut Look>(e) {
                    Ok(l) => l.merge(look),
                    Err(_) => {
                        let _ = world.ecs.insert_one(e, *look);
                    }
                }
            }
        }
        Command::SetSpeed { target, speed } => {
            if let Some(e) = resolve(world, s, *target) {
                set_speed(world, def, e, *speed);
            }
        }
        Command::SetBehaviour { target, behaviour } => {
            if let Some(e) = resolve(world, s, *target) {
                crate::tick::brains::set_behaviour(world, def, e, *behaviour);
                // Its brain, set outside motion's pass: the groups' notes no longer hold.
                s.soonest.forget();
            }
        }
        Command::Attach {
            child,
            parent,
            offset,
            angle,
        } => {
            let to = Attached {
                parent: *parent,
                offset: *offset,
                angle: *angle,
            };
            attach_at_commit(s, def, *child, Some(to))?;
        }
        Command::Detach(child) => attach_at_commit(s, def, *child, None)?,
    }
    Ok(())
}

/// Records an attachment or detachment for Commit (where both ids resolve: either may be
/// spawned this tick).
fn attach_at_commit(
    s: &mut Scratch,
    def: &GameDef,
    child: u64,
    to: Option<Attached>,
) -> Result<(), Fault> {
    // At most one per command of the two stages.
    let bound = 2 * def.limits.commands_per_tick as usize;
    if !push_within(&mut s.attaches, (child, to), bound) {
        return Err(Limit::Commands.exceeded(bound as u64, "attachments in one tick"));
    }
    Ok(())
}

/// Changes the entity's rotation, giving it one (facing +x, not spinning) if it had none.
fn turn(world: &mut SimWorld, e: hecs::Entity, f: impl FnOnce(&mut Rotation)) {
    match world.ecs.query_one_mut::<&mut Rotation>(e) {
        Ok(r) => f(r),
        Err(_) => {
            let mut r = Rotation {
                angle: 0.0,
                prev: 0.0,
                spin: 0.0,
                mode: RotateMode::None,
            };
            f(&mut r);
            let _ = world.ecs.insert_one(e, r);
        }
    }
}

/// Gives entity `e` `speed`: into its own [`Speed`], which it takes only when `speed` is not
/// its archetype's (an entity moving at its archetype's holds none).
fn set_speed(world: &mut SimWorld, def: &GameDef, e: hecs::Entity, speed: f32) {
    if let Ok(own) = world.ecs.query_one_mut::<&mut Speed>(e) {
        own.0 = speed;
        return;
    }
    let Ok(archetype) = world.ecs.get::<&Identity>(e).map(|id| id.archetype) else {
        return;
    };
    if let Some(own) = Speed::own(speed, Speed::of(None, archetype, def)) {
        let _ = world.ecs.insert_one(e, own);
    }
}

/// Sets a game variable; a name that would be one more than `[limits] variables` faults.
fn set_var(world: &mut SimWorld, def: &GameDef, name: &str, value: &Var) -> Result<(), Fault> {
    if let Some(v) = world.vars.get_mut(name) {
        v.clone_from(value);
        return Ok(());
    }
    let bound = def.limits.variables;
    if world.vars.len() >= bound as usize {
        return Err(Limit::Variables.exceeded(
            bound,
            format_args!("game variables: `{name}` would be one more"),
        ));
    }
    world.vars.insert(name.to_string(), value.clone());
    Ok(())
}

/// Sets a value of an entity's script state; a key that would be one more than
/// `[limits] state_keys` on that entity, or take all entities' state past `[scripts] memory`
/// bytes, faults. (Sending such a command already faults, with the script's line: see
/// `consequences::sent`; this is the backstop.)
fn set_state(
    world: &mut SimWorld,
    def: &GameDef,
    e: hecs::Entity,
    seq: u64,
    key: &str,
    value: f64,
) -> Result<(), Fault> {
    let bound = def.limits.state_keys;
    let bytes = crate::world::components::state_entry_bytes(key);
    let over_memory = *world.state_bytes + bytes > def.scripts.memory_limit;
    let full = |len: usize| {
        if len >= bound as usize {
            Some(Limit::StateKeys.exceeded(
                bound,
                format_args!("script-state keys on entity {seq}: `{key}` would be one more"),
            ))
        } else {
            over_memory.then(|| {
                Fault::new(
                    FaultKind::Capacity,
                    format!(
                        "the script state of all entities would take more than {} bytes \
                         (raise [scripts] memory)",
                        def.scripts.memory_limit
                    ),
                )
            })
        }
    };
    match world.ecs.query_one_mut::<&mut ScriptState>(e) {
        Ok(s) => {
            if s.get(key).is_none() {
                if let Some(f) = full(s.len()) {
                    return Err(f);
                }
                *world.state_bytes += bytes;
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
            *world.state_bytes += bytes;
        }
    }
    Ok(())
}

/// The live entity a command names, or `None` (counted) when it is gone or marked for
/// destruction this tick.
fn resolve(world: &mut SimWorld, s: &Scratch, seq: u64) -> Option<hecs::Entity> {
    live(
        (&world.index, world.ecs.raw()),
        &s.pending,
        &mut world.counters,
        seq,
    )
}

/// Stages a presentation request for EndTick to publish; past the outbox's capacity for one
/// tick it is dropped and counted.
fn stage_presentation(
    world: &mut SimWorld,
    s: &mut Scratch,
    what: Presentation,
    tick: u64,
    capacity: u32,
) {
    let request = PresentationRequest {
        world: world.id,
        tick,
        seq: *world.presentation_seq + 1,
        what,
    };
    if push_within(&mut s.staged, request, capacity as usize) {
        *world.presentation_seq += 1;
    } else {
        world.counters.staged_dropped += 1;
    }
}
