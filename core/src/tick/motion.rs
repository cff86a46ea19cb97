//! Motion and collision.
//!
//! Reads: velocities, positions, colliders, tags, bounds rules, the previous contact cache.
//! Writes: current positions (integration, bounds, push), velocities (into a confining wall),
//! the contact cache; records bounds destructions. Produces: collision and trigger
//! enter/stay/exit events and bounds expirations, in canonical order (see `collision`).

use crate::collision::contact::ContactKey;
use crate::collision::{Body, CANDIDATES_PER_BODY, CANDIDATES_PER_CONTACT, Overflow};
use crate::def::{BoundsPolicy, GameDef};
use crate::event::{
    ContactEvent, ContactPhase, EventKind, ExpireEvent, ExpireReason, Party, push_bounded,
};
use crate::fault::Fault;
use crate::limits::{Limit, push_within};
use crate::math::Vec2;
use crate::tick::access::Resource;
use crate::tick::phase::Phase;
use crate::tick::system::Decl;
use crate::world::SimWorld;
use crate::world::components::*;

use Resource as R;

/// Motion and collision's systems, in registration order.
pub(crate) const SYSTEMS: &[Decl] = &[
    Decl {
        reads_previous: &[R::Velocity, R::Position],
        writes: &[R::Position],
        ..Decl::new("integrate", Phase::Motion, |t| {
            integrate(t.world, t.def.tick.tick_seconds());
            Ok(())
        })
    },
    Decl {
        reads_previous: &[R::Position],
        writes: &[R::Position, R::Velocity, R::StructuralCommands],
        produces: &[EventKind::Expired],
        after: &["integrate"],
        ..Decl::new("bounds", Phase::Motion, |t| bounds(t.world, t.def, t.tick))
    },
    Decl {
        reads_previous: &[R::Position, R::ContactCache, R::EntitySet],
        writes: &[R::Position, R::ContactCache],
        produces: &[EventKind::Collision, EventKind::Trigger],
        after: &["bounds"],
        ..Decl::new("collide", Phase::Motion, |t| {
            collide(t.world, t.def, t.tick)
        })
    },
];

/// Moves every entity by its velocity over `dt` seconds (the first step of Motion). A result
/// that is not finite leaves the position unchanged. Public for benchmarks and tools that
/// measure the framework's iteration against raw hecs.
pub fn integrate(world: &mut SimWorld, dt: f32) {
    world
        .ecs
        .query_mut::<(&mut Position, &Velocity)>()
        .into_iter()
        .for_each(|(t, v)| {
            let next = t.0 + v.0 * dt;
            // A select rather than a branch, so the loop stays vectorisable.
            t.0 = if next.is_finite() { next } else { t.0 };
        });
}

fn bounds(world: &mut SimWorld, def: &GameDef, tick: u64) -> Result<(), Fault> {
    let Some(level) = def.levels.get(world.level) else {
        return Ok(());
    };
    let area = level.bounds;
    let live = world.index.len();
    let s = &mut world.scratch;
    for (id, rule, t, v, c, tags) in world.ecs.query_mut::<(
        &Identity,
        &BoundsRule,
        &mut Position,
        &mut Velocity,
        Option<&Collider>,
        Option<&Tags>,
    )>() {
        match rule.0 {
            BoundsPolicy::Ignore => {}
            BoundsPolicy::Confine => {
                let half = c.map_or(Vec2::ZERO, |c| c.0.shape.half_extents());
                let lo = area.min + half;
                let hi = area.max - half;
                let p = t.0;
                let x = if lo.x <= hi.x {
                    p.x.clamp(lo.x, hi.x)
                } else {
                    area.center().x
                };
                let y = if lo.y <= hi.y {
                    p.y.clamp(lo.y, hi.y)
                } else {
                    area.center().y
                };
                if x != p.x {
                    v.0.x = 0.0;
                }
                if y != p.y {
                    v.0.y = 0.0;
                }
                t.0 = Vec2::new(x, y);
            }
            BoundsPolicy::Destroy => {
                if !area.contains(t.0) && s.pending.insert(id.seq) {
                    // Each live entity at most once.
                    if !push_within(&mut s.destroys, id.seq, live) {
                        return Err(Limit::Entities.exceeded(live as u64, "destroys in one tick"));
                    }
                    let entity = Party::new(id, tags, t);
                    push_bounded(
                        &mut s.events.expired,
                        ExpireEvent {
                            tick,
                            entity,
                            reason: ExpireReason::Bounds,
                        },
                        def.limits.events_per_tick,
                        "expired",
                    )?;
                }
            }
        }
    }
    Ok(())
}

/// Broadphase, push corrections, and the contact cache's enter/stay/exit diff in one pass over
/// the sorted pairs (kept together so the diff walks the pair list once).
fn collide(world: &mut SimWorld, def: &GameDef, tick: u64) -> Result<(), Fault> {
    let bp = &mut world.scratch.broadphase;
    bp.bodies.clear();
    for (e, id, t, c, tags) in
        world
            .ecs
            .query_mut::<(hecs::Entity, &Identity, &Position, &Collider, Option<&Tags>)>()
    {
        let c = c.0;
        bp.bodies.push(Body {
            entity: e,
            seq: id.seq,
            archetype: id.archetype,
            tags: tags.map_or(0, |t| t.0),
            pos: t.0,
            shape: c.shape,
            layer: c.layer,
            mask: c.mask,
            push: c.push,
            trigger: c.trigger,
            stay: c.stay,
        });
    }
    let max_pairs = def.limits.contacts_per_tick;
    let budget = u64::from(max_pairs) * CANDIDATES_PER_CONTACT
        + bp.bodies.len() as u64 * CANDIDATES_PER_BODY;
    match bp.find_pairs(def.physics.cell_size, max_pairs as usize, budget) {
        Ok(()) => {}
        Err(Overflow::Pairs) => {
            return Err(Limit::Contacts.exceeded(
                u64::from(max_pairs),
                "overlapping collider pairs in one tick",
            ));
        }
        Err(Overflow::Work) => {
            return Err(Limit::Contacts.exceeded(
                budget,
                "candidate collider pairs examined in one tick: colliders are piled up without \
                 looking at each other, or [physics] cell is far from their size",
            ));
        }
    }

    // Push apart, accumulated in canonical pair order.
    if bp.push_offsets() {
        for (i, off) in bp.offsets.iter().enumerate() {
            if *off != Vec2::ZERO {
                let e = bp.bodies[i].entity;
                if let Ok(t) = world.ecs.query_one_mut::<&mut Position>(e) {
                    let next = t.0 + *off;
                    if next.is_finite() {
                        t.0 = next;
                    }
                }
            }
        }
    }

    // Contact events: merge this tick's reported pairs with last tick's cache.
    let cap = def.limits.events_per_tick;
    let party = |b: &Body| Party {
        seq: b.seq,
        archetype: b.archetype,
        tags: b.tags,
        pos: b.pos,
    };
    // Exactly the reported pairs: the cache never holds more than `[limits] contacts`.
    let reported = bp.pairs.iter().filter(|p| p.report).count();
    let mut next: Vec<ContactKey> = Vec::with_capacity(reported);
    let prev = std::mem::take(&mut world.contacts.keys);
    let events = &mut world.scratch.events;
    let mut pi = 0;
    for p in bp.pairs.iter().filter(|p| p.report) {
        let key = ContactKey {
            lo: p.lo,
            hi: p.hi,
            trigger: p.trigger,
            stay: p.stay,
        };
        // Exits for cached contacts ordered before this one.
        while pi < prev.len() && (prev[pi].lo, prev[pi].hi) < (key.lo, key.hi) {
            exit(
                world.index.get(&prev[pi].lo),
                world.index.get(&prev[pi].hi),
                &world.ecs,
                prev[pi],
                tick,
                events,
                cap,
            )?;
            pi += 1;
        }
        let known = pi < prev.len() && (prev[pi].lo, prev[pi].hi) == (key.lo, key.hi);
        if known {
            pi += 1;
        }
        let (a, b) = (&bp.bodies[p.i as usize], &bp.bodies[p.j as usize]);
        let (a, b) = if p.trigger && !a.trigger && b.trigger {
            (b, a)
        } else {
            (a, b)
        };
        let phase = if known {
            ContactPhase::Stay
        } else {
            ContactPhase::Enter
        };
        if phase == ContactPhase::Enter || p.stay {
            let ev = ContactEvent {
                tick,
                phase,
                a: party(a),
                b: party(b),
            };
            let (queue, name) = match (p.trigger, phase) {
                (false, ContactPhase::Enter) => (&mut events.collision_enter, "collision"),
                (false, _) => (&mut events.collision_stay, "collision stay"),
                (true, ContactPhase::Enter) => (&mut events.trigger_enter, "trigger"),
                (true, _) => (&mut events.trigger_stay, "trigger stay"),
            };
            push_bounded(queue, ev, cap, name)?;
        }
        next.push(key);
    }
    while pi < prev.len() {
        exit(
            world.index.get(&prev[pi].lo),
            world.index.get(&prev[pi].hi),
            &world.ecs,
            prev[pi],
            tick,
            events,
            cap,
        )?;
        pi += 1;
    }
    world.counters.contacts_peak = world.counters.contacts_peak.max(next.len() as u64);
    world.contacts.keys = next;
    Ok(())
}

/// An exit of a contact whose two entities both still live (destroyed ones left the cache at
/// Commit without an exit).
fn exit(
    lo: Option<&hecs::Entity>,
    hi: Option<&hecs::Entity>,
    ecs: &hecs::World,
    key: ContactKey,
    tick: u64,
    events: &mut crate::event::Events,
    cap: u32,
) -> Result<(), Fault> {
    let (Some(lo), Some(hi)) = (lo, hi) else {
        return Ok(());
    };
    let party = |e: hecs::Entity| -> Option<(Party, bool)> {
        let mut q = ecs.query_one::<(&Identity, &Position, Option<&Tags>, Option<&Collider>)>(e);
        let (id, t, tags, c) = q.get().ok()?;
        let party = Party::new(id, tags, t);
        Some((party, c.is_some_and(|c| c.0.trigger)))
    };
    let (Some((a, at)), Some((b, bt))) = (party(*lo), party(*hi)) else {
        return Ok(());
    };
    let (a, b) = if key.trigger && !at && bt {
        (b, a)
    } else {
        (a, b)
    };
    let ev = ContactEvent {
        tick,
        phase: ContactPhase::Exit,
        a,
        b,
    };
    if key.trigger {
        push_bounded(&mut events.trigger_exit, ev, cap, "trigger exit")
    } else {
        push_bounded(&mut events.collision_exit, ev, cap, "collision exit")
    }
}
