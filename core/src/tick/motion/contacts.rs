//! The contact cache's enter/stay/exit diff: this tick's reported pairs, in canonical order,
//! merged with last tick's cache in one walk, with the contacts' events and their damage.

use crate::collision::{Body, Broadphase, Pair};
use crate::def::GameDef;
use crate::event::{ContactEvent, ContactPhase, Events, Party, push_bounded};
use crate::fault::Fault;
use crate::limits::{Limit, push_within};
use crate::math::Vec2;
use crate::tick::scratch::{ContactHits, ContactsApart, Hit, Scratch};
use crate::world::SimWorld;
use crate::world::components::*;
use crate::world::contact::ContactKey;
use crate::world::ecs::Ecs;
use crate::world::index::SeqIndex;

/// Reported pairs from which the walk runs in two halves on two threads (where the tick
/// splits): below, handing half to the other core costs more than it saves. From 640, at
/// 16k drones (about 230 pairs in the median tick) the walk split in a tenth of the ticks;
/// from 64 on its own, the tick took 0.056 ms against 0.060 (`ludus bench`, both cores,
/// fifteen alternating runs); with the records split (`collide::RECORDS_SPLIT_MIN`), 64 and
/// 128 alike.
const SPLIT_MIN: usize = 128;

/// The contacts of the broadphase's reported pairs (sorted: see `Broadphase::finish`) against
/// last tick's cache: enter and stay events and damage for this tick's, exit events for the
/// cache's that ended; the cache becomes this tick's. `split`: from [`SPLIT_MIN`] reported
/// pairs the walk runs in two halves at once, with the same results (see [`Walk::halves`]).
pub(super) fn contacts(
    world: &mut SimWorld,
    s: &mut Scratch,
    def: &GameDef,
    tick: u64,
    split: bool,
) -> Result<(), Fault> {
    let bp: &Broadphase = &s.broadphase;
    // Exactly the reported pairs: the cache never holds more than `[limits] contacts`.
    let reported = bp.pairs.iter().filter(|p| p.report).count();
    let mut next = std::mem::take(&mut s.spare_contacts);
    next.clear();
    next.reserve_exact(reported);
    let prev = std::mem::take(&mut world.contacts.keys);
    let walk = Walk {
        def,
        bp,
        index: &world.index,
        ecs: &world.ecs,
        tick,
    };
    let mut out = Out {
        next: &mut next,
        queues: Queues::of(&mut s.events),
        hits: &mut s.contact_hits,
    };
    let halved = split
        && reported >= SPLIT_MIN
        && crate::par::available()
        && walk.halves(&prev, &mut out, &mut s.contacts_apart);
    if !halved {
        walk.walk(&bp.pairs, &prev, &mut out)?;
    }
    world.counters.contacts_peak = world.counters.contacts_peak.max(next.len() as u64);
    world.contacts.keys = next;
    s.spare_contacts = prev;
    Ok(())
}

/// What a walk over the pairs reads: the tick's definition, pairs and bodies, and the world's
/// entities (for exits, whose parties' bodies are not this tick's).
struct Walk<'w> {
    def: &'w GameDef,
    bp: &'w Broadphase,
    index: &'w SeqIndex,
    ecs: &'w Ecs,
    tick: u64,
}

/// Where a walk writes: the contacts it keeps, in order; its events, a queue a phase; the
/// damage its contacts do.
struct Out<'a> {
    next: &'a mut Vec<ContactKey>,
    queues: Queues<'a>,
    hits: &'a mut ContactHits,
}

/// The contact events' queues: collision enter, stay and exit, then trigger enter, stay and
/// exit (see [`Queues::at`]).
struct Queues<'a>([&'a mut Vec<ContactEvent>; 6]);

/// The queues' names in a limit's message, as [`Queues`] orders them.
const QUEUE_NAMES: [&str; 6] = [
    "collision",
    "collision stay",
    "collision exit",
    "trigger",
    "trigger stay",
    "trigger exit",
];

impl<'a> Queues<'a> {
    fn of(e: &'a mut Events) -> Queues<'a> {
        Queues([
            &mut e.collision_enter,
            &mut e.collision_stay,
            &mut e.collision_exit,
            &mut e.trigger_enter,
            &mut e.trigger_stay,
            &mut e.trigger_exit,
        ])
    }

    /// The index of the queue of a trigger's or a collision's events of `phase`.
    fn at(trigger: bool, phase: ContactPhase) -> usize {
        let p = match phase {
            ContactPhase::Enter => 0,
            ContactPhase::Stay => 1,
            ContactPhase::Exit => 2,
        };
        3 * usize::from(trigger) + p
    }

    /// Queues `ev` in queue `q`, within `cap`.
    fn push(&mut self, q: usize, ev: ContactEvent, cap: u32) -> Result<(), Fault> {
        push_bounded(self.0[q], ev, cap, QUEUE_NAMES[q])
    }
}

impl Walk<'_> {
    /// The diff of the reported ones among `pairs` (a run of the sorted pairs) against `prev`
    /// (the cached contacts among theirs, in order): every cached contact ordered before a
    /// reported pair that is not it ends (an exit, where both still live), then the pair's
    /// contact begins or lasts; the cached contacts past the last pair end.
    fn walk(&self, pairs: &[Pair], prev: &[ContactKey], out: &mut Out<'_>) -> Result<(), Fault> {
        let (def, bp) = (self.def, self.bp);
        let cap = def.limits.events_per_tick;
        let party = |b: &Body| Party {
            seq: b.seq,
            archetype: b.archetype,
            tags: def.tags_of(b.archetype),
            pos: b.pos,
        };
        let hurting = def.has_contact_damage();
        let mut parties = None;
        let mut pi = 0;
        // The reported pairs, then an end past every cached contact (sequences are below 2^48).
        let walked = pairs.iter().filter(|p| p.report).map(Some);
        for p in walked.chain(std::iter::once(None)) {
            let upto = p.map_or((u64::MAX, u64::MAX), |p| bp.seqs(p));
            // Exits for cached contacts ordered before this one (all that are left, at the end).
            while pi < prev.len() && prev[pi].pair() < upto {
                self.exit(prev[pi], &mut parties, &mut out.queues)?;
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
                hurt(def, (a, b), !known, out.hits)?;
            }
            if phase == ContactPhase::Enter || p.stay {
                let ev = ContactEvent {
                    tick: self.tick,
                    phase,
                    a: party(a),
                    b: party(b),
                    normal,
                    depth: p.depth,
                };
                out.queues.push(Queues::at(p.trigger, phase), ev, cap)?;
            }
            out.next.push(key);
        }
        Ok(())
    }

    /// The walk in two halves at once, the pairs split where `apart`'s balance puts it and
    /// the cached contacts at the first not ordered before the second half's first pair: the
    /// first half into `out` on this thread, the second into `apart` on the other, then
    /// appended to `out`. Each queue then holds what one walk gives it, in its order (a
    /// queue's first half's events all come before its second half's in one walk too).
    /// False, with `out` as it was, where a half or the two together pass a bound: the
    /// caller then walks once, which faults where one walk does.
    fn halves(&self, prev: &[ContactKey], out: &mut Out<'_>, apart: &mut ContactsApart) -> bool {
        let pairs = &self.bp.pairs;
        let mid = apart.balance.mid(pairs.len());
        let from = self.bp.seqs(&pairs[mid]);
        let cut = prev.partition_point(|k| k.pair() < from);
        let lens = (out.queues.0.each_ref().map(|q| q.len()), out.hits.lens());
        apart.clear();
        let second_reported = pairs[mid..].iter().filter(|p| p.report).count();
        apart.keys.reserve_exact(second_reported);
        let ContactsApart {
            keys,
            queues,
            hits,
            balance,
        } = apart;
        let mut theirs = Out {
            next: keys,
            queues: Queues(queues.each_mut()),
            hits,
        };
        let (a, b) = crate::par::join_balanced(
            balance,
            (mid, pairs.len() - mid),
            || self.walk(&pairs[..mid], &prev[..cut], out),
            || self.walk(&pairs[mid..], &prev[cut..], &mut theirs),
        );
        let cap = self.def.limits.events_per_tick as usize;
        let bound = 2 * self.def.limits.contacts_per_tick as usize;
        let fits = a.is_ok()
            && b.is_ok()
            && (out.queues.0.iter().zip(&theirs.queues.0)).all(|(q, t)| q.len() + t.len() <= cap)
            && out.hits.begun.len() + theirs.hits.begun.len() <= bound
            && out.hits.lasting.len() + theirs.hits.lasting.len() <= bound;
        if !fits {
            for (q, len) in out.queues.0.iter_mut().zip(lens.0) {
                q.truncate(len);
            }
            out.hits.begun.truncate(lens.1.0);
            out.hits.lasting.truncate(lens.1.1);
            out.next.clear();
            // The second half's lists empty again, as between ticks.
            apart.clear();
            return false;
        }
        for (q, t) in out.queues.0.iter_mut().zip(theirs.queues.0) {
            q.append(t);
        }
        out.hits.begun.append(&mut theirs.hits.begun);
        out.hits.lasting.append(&mut theirs.hits.lasting);
        out.next.append(theirs.next);
        true
    }

    /// An exit of a contact whose two entities both still live (destroyed ones left the
    /// cache at Commit without an exit), found by sequence. `parties`: the world's view for
    /// exits, made on first use.
    fn exit<'w>(
        &'w self,
        key: ContactKey,
        parties: &mut Option<Parties<'w>>,
        queues: &mut Queues<'_>,
    ) -> Result<(), Fault> {
        let (def, ecs) = (self.def, self.ecs);
        let (Some(lo), Some(hi)) = (
            self.index.get(&key.lo(), ecs.raw()),
            self.index.get(&key.hi(), ecs.raw()),
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
            tick: self.tick,
            phase: ContactPhase::Exit,
            a,
            b,
            normal: Vec2::ZERO,
            depth: 0.0,
        };
        let q = Queues::at(key.trigger(), ContactPhase::Exit);
        queues.push(q, ev, def.limits.events_per_tick)
    }
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

/// What an exit event copies of its parties, by entity: made at a walk's first exit, so
/// each exit is two entity lookups instead of two queries.
type Parties<'w> = hecs::ViewBorrow<'w, (&'static Identity, &'static Position)>;

#[cfg(test)]
mod tests {
    use super::*;

    /// The queues' names in limit messages are the event list's labels of the queues
    /// `Queues::of` takes, in its order (the list is the one definition).
    #[test]
    fn queue_names_are_the_event_lists_labels() {
        let fields = [
            "collision_enter",
            "collision_stay",
            "collision_exit",
            "trigger_enter",
            "trigger_stay",
            "trigger_exit",
        ];
        for (field, name) in fields.iter().zip(QUEUE_NAMES) {
            let spec = crate::event::EVENT_KINDS.iter().find(|s| s.queue == *field);
            assert_eq!(spec.map(|s| s.label), Some(name), "{field}");
        }
        for (trigger, phase, q) in [
            (false, ContactPhase::Enter, 0),
            (false, ContactPhase::Stay, 1),
            (false, ContactPhase::Exit, 2),
            (true, ContactPhase::Enter, 3),
            (true, ContactPhase::Stay, 4),
            (true, ContactPhase::Exit, 5),
        ] {
            assert_eq!(Queues::at(trigger, phase), q);
        }
    }
}
