//! Collision: broadphase pairs, pushes and velocity responses, footing, and the contact
//! cache's enter/stay/exit events.

use crate::collision::body::Phys;
use crate::collision::contact::ContactKey;
use crate::collision::{Body, CANDIDATES_PER_BODY, CANDIDATES_PER_CONTACT, Overflow};
use crate::def::{BodyKind, GameDef};
use crate::event::{ContactEvent, ContactPhase, Party, push_bounded};
use crate::fault::Fault;
use crate::limits::Limit;
use crate::math::Vec2;
use crate::world::SimWorld;
use crate::world::components::*;

/// Broadphase, push corrections, and the contact cache's enter/stay/exit diff in one pass over
/// the sorted pairs (kept together so the diff walks the pair list once).
pub(crate) fn collide(world: &mut SimWorld, def: &GameDef, tick: u64) -> Result<(), Fault> {
    let bp = &mut world.scratch.broadphase;
    bp.bodies.clear();
    bp.physics.clear();
    for (e, id, t, c, tags, footing) in world.ecs.query_mut::<(
        hecs::Entity,
        &Identity,
        &Position,
        &Collider,
        Option<&Tags>,
        Option<&Footing>,
    )>() {
        let c = &c.0;
        let plain = c.body == BodyKind::Dynamic
            && c.mass == 1.0
            && c.bounce.is_none()
            && c.friction == 0.0
            && footing.is_none();
        let phys = if plain {
            Body::PLAIN
        } else {
            bp.physics.push(Phys {
                inv_mass: match c.body {
                    BodyKind::Dynamic => 1.0 / c.mass,
                    BodyKind::Kinematic | BodyKind::Static => 0.0,
                },
                responds: c.body != BodyKind::Dynamic || c.bounce.is_some(),
                bounce: c.bounce.unwrap_or(0.0),
                friction: c.friction,
                footing: footing.is_some(),
            });
            (bp.physics.len() - 1) as u32
        };
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
            phys,
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

    // Push apart and respond, accumulated in canonical pair order.
    let down = -super::up(def.physics.gravity);
    let ecs = &world.ecs;
    let vel_of = |e: hecs::Entity| ecs.get::<&Velocity>(e).map_or(Vec2::ZERO, |v| v.0);
    if bp.respond(down, vel_of) {
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
        for &i in &bp.turned {
            let v = bp.velocities[i as usize];
            if let Ok(vel) = world
                .ecs
                .query_one_mut::<&mut Velocity>(bp.bodies[i as usize].entity)
                && v.is_finite()
            {
                vel.0 = v;
            }
        }
        for (i, ground) in bp.grounded.iter().enumerate() {
            if let Some(ground) = ground
                && let Ok(f) = world.ecs.query_one_mut::<&mut Footing>(bp.bodies[i].entity)
            {
                f.grounded_at = Some(tick);
                f.ground_velocity = *ground;
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
        let (a, b, normal) = if p.trigger && !a.trigger && b.trigger {
            (b, a, -p.normal)
        } else {
            (a, b, p.normal)
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
                normal,
                depth: p.depth,
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
        normal: Vec2::ZERO,
        depth: 0.0,
    };
    if key.trigger {
        push_bounded(&mut events.trigger_exit, ev, cap, "trigger exit")
    } else {
        push_bounded(&mut events.collision_exit, ev, cap, "collision exit")
    }
}
