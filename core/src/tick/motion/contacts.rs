//! The contact cache's enter/stay/exit diff: this tick's reported pairs, in canonical order,
//! merged with last tick's cache in one walk, with the contacts' events and their damage.

use crate::collision::Body;
use crate::def::GameDef;
use crate::event::{ContactEvent, ContactPhase, Party, push_bounded};
use crate::fault::Fault;
use crate::limits::{Limit, push_within};
use crate::math::Vec2;
use crate::tick::scratch::{ContactHits, Hit, Scratch};
use crate::world::SimWorld;
use crate::world::components::*;
use crate::world::contact::ContactKey;
use crate::world::ecs::Ecs;
use crate::world::index::SeqIndex;

/// The contacts of the broadphase's reported pairs (sorted: see `Broadphase::finish`) against
/// last tick's cache: enter and stay events and damage for this tick's, exit events for the
/// cache's that ended; the cache becomes this tick's.
pub(super) fn contacts(
    world: &mut SimWorld,
    s: &mut Scratch,
    def: &GameDef,
    tick: u64,
) -> Result<(), Fault> {
    let bp = &s.broadphase;
    let cap = def.limits.events_per_tick;
    let party = |b: &Body| Party {
        seq: b.seq,
        archetype: b.archetype,
        tags: def.tags_of(b.archetype),
        pos: b.pos,
    };
    // Exactly the reported pairs: the cache never holds more than `[limits] contacts`.
    let reported = bp.pairs.iter().filter(|p| p.report).count();
    let mut next = std::mem::take(&mut s.spare_contacts);
    next.clear();
    next.reserve_exact(reported);
    let prev = std::mem::take(&mut world.contacts.keys);
    let events = &mut s.events;
    let (hits, hurting) = (&mut s.contact_hits, def.has_contact_damage());
    let mut parties = None;
    let mut pi = 0;
    // The reported pairs, then an end past every cached contact (sequences are below 2^48).
    let walked = bp.pairs.iter().filter(|p| p.report).map(Some);
    for p in walked.chain(std::iter::once(None)) {
        let upto = p.map_or((u64::MAX, u64::MAX), |p| bp.seqs(p));
        // Exits for cached contacts ordered before this one (all that are left, at the end).
        while pi < prev.len() && prev[pi].pair() < upto {
            exit(
                def,
                (&world.index, &world.ecs, &mut parties),
                prev[pi],
                tick,
                events,
            )?;
            pi += 1;
        }
        let Some(p) = p else {
            break;
        };
        let key = ContactKey::new(upto.0, upto.1, p.trigger, p.stay);
        let known = pi < prev.len() && prev[pi].pair() == upto;
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
        if hurting {
            hurt(def, (a, b), !known, hits)?;
        }
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
    world.counters.contacts_peak = world.counters.contacts_peak.max(next.len() as u64);
    world.contacts.keys = next;
    s.spare_contacts = prev;
    Ok(())
}

/// The damage archetypes' `contact_damage` does in a contact of `a` and `b` (`begun`: it
/// began this tick), `a`'s to `b` then `b`'s to `a`, queued in `hits`.
fn hurt(
    def: &GameDef,
    (a, b): (&Body, &Body),
    begun: bool,
    hits: &mut ContactHits,
) -> Result<(), Fault> {
    // Two a reported contact: within twice `[limits] contacts` by the contacts' own bound.
    let bound = 2 * def.limits.contacts_per_tick as usize;
    for (from, to) in [(a, b), (b, a)] {
        let Some(rule) = def.archetype(from.archetype).and_then(|x| x.contact_damage) else {
            continue;
        };
        if !rule.hits(def.tags_of(to.archetype), begun) {
            continue;
        }
        let hit = Hit {
            target: to.seq,
            source: from.seq,
            amount: rule.amount,
        };
        let queue = if begun {
            &mut hits.begun
        } else {
            &mut hits.lasting
        };
        if !push_within(queue, hit, bound) {
            return Err(Limit::Contacts.exceeded(bound as u64, "contact damage hits in one tick"));
        }
    }
    Ok(())
}

/// What an exit event copies of its parties, by entity: made at a tick's first exit, so
/// each exit is two entity lookups instead of two queries.
type Parties<'w> = hecs::ViewBorrow<'w, (&'static Identity, &'static Position)>;

/// An exit of a contact whose two entities both still live (destroyed ones left the cache at
/// Commit without an exit), found by sequence in `index`. `parties`: the world's view for
/// exits, made on first use.
fn exit<'w>(
    def: &GameDef,
    (index, ecs, parties): (&SeqIndex, &'w Ecs, &mut Option<Parties<'w>>),
    key: ContactKey,
    tick: u64,
    events: &mut crate::event::Events,
) -> Result<(), Fault> {
    let cap = def.limits.events_per_tick;
    let (Some(lo), Some(hi)) = (
        index.get(&key.lo(), ecs.raw()),
        index.get(&key.hi(), ecs.raw()),
    ) else {
        return Ok(());
    };
    let view = parties.get_or_insert_with(|| ecs.view());
    // Whether a party is a trigger is its archetype's (every live collider keeps its own).
    let party = |e: hecs::Entity| -> Option<(Party, bool)> {
        let (id, t) = view.get(e)?;
        let trigger = def
            .archetypes
            .get(id.archetype.0 as usize)
            .and_then(|a| a.collider)
            .is_some_and(|c| c.trigger);
        Some((id.party(def, t), trigger))
    };
    let (Some((a, at)), Some((b, bt))) = (party(lo), party(hi)) else {
        return Ok(());
    };
    let (a, b) = if key.trigger() && !at && bt {
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
    if key.trigger() {
        push_bounded(&mut events.trigger_exit, ev, cap, "trigger exit")
    } else {
        push_bounded(&mut events.collision_exit, ev, cap, "collision exit")
    }
}
