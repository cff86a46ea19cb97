//! Damage: how a damage command lands, and what it tells (a damage event, and the entity's one
//! death event when it takes health to 0). Dead entities take no more damage.

use crate::def::GameDef;
use crate::event::{DamageEvent, push_bounded};
use crate::fault::{Fault, FaultKind};
use crate::ids::{SeqMap, SeqSet};
use crate::phase::Stage;
use crate::resource::Tracked;
use crate::tick::scratch::Scratch;
use crate::world::components::*;
use crate::world::{SimWorld, WorldCounters};

/// Damage commands naming entities that existed before this tick, applied in order through
/// one view of health, identity and position (and the world's invulnerability deadlines):
/// what [`damage_one`] does for each.
pub(super) fn damage_run(
    world: &mut SimWorld,
    scratch: &mut Scratch,
    def: &GameDef,
    tick: u64,
    stage: Stage,
    run: impl IntoIterator<Item = (u64, i32, Option<u64>)>,
) -> Result<(), Fault> {
    let SimWorld {
        ecs,
        index,
        counters,
        carried_damage,
        invulnerable,
        max_health,
        ..
    } = world;
    // Borrowed shared (hecs checks the columns' borrows once): the index resolves its
    // entities through the world beside it.
    let mut view = ecs.view::<(&mut Health, &Identity, &Position)>();
    // The last target found to take no damage, and why. Nothing in a run heals, revives,
    // spawns, destroys or ends an invulnerability, so a target that takes none takes none
    // for the rest of the run: the hits a pile of attackers sends one target (contact
    // damage, most of it blocked by the target's invulnerability) are counted without
    // looking it up again.
    let mut spared: Option<(u64, Spared)> = None;
    for (target, amount, source) in run {
        if let Some((seq, why)) = spared
            && seq == target
        {
            why.count(counters);
            continue;
        }
        let Some(e) = live((index, ecs.raw()), &scratch.pending, counters, target) else {
            spared = None;
            continue;
        };
        // Every entity has an identity and a position: no match is no health.
        let why = match view.get_mut(e) {
            None => Spared::NoHealth,
            Some((h, id, pos)) => match Spared::now(h, invulnerable, target, tick) {
                Some(why) => why,
                None => {
                    let max = max_health.of(id);
                    let ev = land((h, max, invulnerable), (id, pos), def, tick, amount, source)?;
                    spared = Spared::now(h, invulnerable, target, tick).map(|why| (target, why));
                    deliver(scratch, carried_damage, def, stage, ev)?;
                    continue;
                }
            },
        };
        why.count(counters);
        spared = Some((target, why));
    }
    Ok(())
}

/// Why a live target takes no damage.
#[derive(Clone, Copy)]
enum Spared {
    NoHealth,
    Dead,
    Invulnerable,
}

impl Spared {
    /// Why health `h` of entity `seq` takes no damage at `tick` (its invulnerability deadline,
    /// if any, in `invulnerable`), if it takes none.
    fn now(h: &Health, invulnerable: &SeqMap<Deadline>, seq: u64, tick: u64) -> Option<Spared> {
        let ready = |d: &Deadline| d.ready(tick);
        if h.current <= 0 {
            Some(Spared::Dead)
        } else if !(invulnerable.is_empty() || invulnerable.get(&seq).is_none_or(ready)) {
            Some(Spared::Invulnerable)
        } else {
            None
        }
    }

    fn count(self, counters: &mut WorldCounters) {
        match self {
            Spared::NoHealth => counters.no_health += 1,
            Spared::Dead => counters.after_death += 1,
            Spared::Invulnerable => counters.damage_blocked += 1,
        }
    }
}

/// Queues a damage event for its stage 2 (this tick's after stage 1, the next tick's after
/// stage 2), and the entity's death event with it when the damage killed it (a carried
/// damage's death is queued when BeginTick takes it out).
fn deliver(
    s: &mut Scratch,
    carried: &mut Tracked<Vec<DamageEvent>>,
    def: &GameDef,
    stage: Stage,
    ev: DamageEvent,
) -> Result<(), Fault> {
    match stage {
        Stage::One => {
            if ev.killed {
                push_bounded(&mut s.events.deaths, ev, def.limits.max_entities, "death")?;
            }
            push_bounded(
                &mut s.events.damage,
                ev,
                def.limits.events_per_tick,
                "damage",
            )
        }
        Stage::Two => push_bounded(&mut *carried, ev, def.limits.events_per_tick, "damage"),
    }
}

/// Damage landing on a target of health `h` of maximum `max` (and identity and position)
/// that is not invulnerable at `tick`: its event. The invulnerability that follows is the archetype's,
/// its deadline kept in `invulnerable` (where the archetype gives some).
fn land(
    (h, max, invulnerable): (&mut Health, i32, &mut Tracked<SeqMap<Deadline>>),
    (id, pos): (&Identity, &Position),
    def: &GameDef,
    tick: u64,
    amount: i32,
    source: Option<u64>,
) -> Result<DamageEvent, Fault> {
    let before = h.current;
    h.current = h.current.saturating_sub(amount);
    let ticks = def.invulnerable_ticks(id.archetype);
    if ticks > 0 {
        let until = Deadline::after(tick, u64::from(ticks)).ok_or_else(|| {
            Fault::new(FaultKind::Exhausted, "invulnerability deadline overflows")
        })?;
        invulnerable.insert(id.seq(), until);
    }
    Ok(DamageEvent {
        tick,
        target: id.party(def, pos),
        source,
        amount,
        health: h.current,
        max,
        killed: before > 0 && h.current <= 0,
    })
}

/// Damage of `amount` from `source` sent to live entity `e` (of sequence `target`) on its
/// own: what [`damage_run`] does for each of a run.
#[allow(clippy::too_many_arguments)] // the tick's context, and the command
pub(super) fn damage_one(
    world: &mut SimWorld,
    s: &mut Scratch,
    def: &GameDef,
    tick: u64,
    stage: Stage,
    (e, target): (hecs::Entity, u64),
    (amount, source): (i32, Option<u64>),
) -> Result<(), Fault> {
    // One entity lookup; blocked damage (a target piled on, hit every tick while
    // invulnerable) reads only the health, damage that lands the event's copy too.
    let Ok(r) = world.ecs.entity(e) else {
        return Ok(());
    };
    let Some(mut h) = r.get::<&mut Health>() else {
        Spared::NoHealth.count(&mut world.counters);
        return Ok(());
    };
    if let Some(why) = Spared::now(&h, &world.invulnerable, target, tick) {
        why.count(&mut world.counters);
        return Ok(());
    }
    let (Some(id), Some(pos)) = (r.get::<&Identity>(), r.get::<&Position>()) else {
        world.counters.no_health += 1;
        return Ok(());
    };
    let max = world.max_health.of(&id);
    let ev = land(
        (&mut h, max, &mut world.invulnerable),
        (&id, &pos),
        def,
        tick,
        amount,
        source,
    )?;
    drop((h, id, pos));
    deliver(s, &mut world.carried_damage, def, stage, ev)?;
    Ok(())
}

/// The entity of sequence `seq` if it lives and is not marked for destruction this tick;
/// otherwise counts why not.
pub(super) fn live(
    (index, ecs): (&crate::world::index::SeqIndex, &hecs::World),
    pending: &SeqSet,
    counters: &mut WorldCounters,
    seq: u64,
) -> Option<hecs::Entity> {
    match index.get(&seq, ecs) {
        None => {
            counters.stale_commands += 1;
            None
        }
        Some(_) if pending.contains(&seq) => {
            counters.pending_destroy_filtered += 1;
            None
        }
        Some(e) => Some(e),
    }
}
