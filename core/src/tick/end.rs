//! EndTick: check, hash and publish the tick.
//!
//! Reads: the whole world (invariants and hash), the staged presentation requests. Writes: the
//! world's tick number, the outbox. Nothing is published unless every earlier phase
//! succeeded: a fault stops the tick before EndTick.

use crate::phase::Phase;
use crate::tick::access::Resource;
use crate::tick::system::Decl;
use crate::world::hash::StateHash;

use Resource as R;

const WORLD: &[R] = &[
    R::Position,
    R::Velocity,
    R::Health,
    R::Timers,
    R::Score,
    R::Vars,
    R::Rng,
    R::EntitySet,
];

/// EndTick's systems, in registration order.
pub(crate) const SYSTEMS: &[Decl] = &[
    Decl {
        reads: WORLD,
        ..Decl::new("invariants", Phase::EndTick, |t| {
            if t.options.check_invariants {
                crate::world::invariants::check(t.world, t.def)?;
            }
            Ok(())
        })
    },
    Decl {
        reads: WORLD,
        writes: &[R::TickNumber],
        after: &["invariants"],
        ..Decl::new("hash", Phase::EndTick, |t| {
            t.world.tick = t.tick;
            if t.options.hash {
                t.report.hash = Some(StateHash::of(t.world));
            }
            Ok(())
        })
    },
    Decl {
        reads: &[R::StagedPresentation, R::EntitySet, R::ContactCache],
        writes: &[R::Outbox],
        after: &["hash"],
        ..Decl::new("publish", Phase::EndTick, |t| {
            let (world, s) = (&*t.world, &mut *t.scratch);
            t.outbox.publish(&mut s.staged);
            let r = &mut t.report;
            r.events = s.events.stage1_len() + s.events.damage.len();
            r.commands = s.commands.len();
            r.contacts = world.contacts.len();
            r.entities = world.entity_count();
            Ok(())
        })
    },
];
