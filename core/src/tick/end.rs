//! EndTick: check, hash and publish the tick.
//!
//! Reads: the whole world (invariants and hash), the staged presentation requests. Writes: the
//! world's tick number, the outbox. Nothing is published unless every earlier phase
//! succeeded: a fault stops the tick before EndTick.

use crate::phase::Phase;
use crate::resource::Resource;
use crate::tick::system::{Decl, PhaseSystems, SystemId};
use crate::world::hash::StateHash;

use Resource as R;

/// What the state hash covers (see [`StateHash`]).
const HASHED: &[R] = &[
    R::EntitySet,
    R::Score,
    R::Vars,
    R::Saved,
    R::Rng,
    R::Timers,
    R::Flow,
    R::Camera,
    R::Position,
    R::Velocity,
    R::Health,
    R::Brain,
    R::Control,
    R::Cooldowns,
    R::Lifetime,
    R::ScriptState,
    R::Rotation,
    R::Footing,
    R::Animation,
    R::Look,
    R::Attachment,
    R::Offscreen,
    R::Tiles,
];
/// What the invariants check.
const CHECKED: &[R] = &[
    R::EntitySet,
    R::Position,
    R::PrevPosition,
    R::Health,
    R::ContactCache,
    R::Timers,
    R::Attachment,
];

/// Checks the world's invariants (when asked).
pub const INVARIANTS: SystemId = SystemId::native("invariants");
/// Counts the tick and hashes the state (when asked).
pub const HASH: SystemId = SystemId::native("hash");
/// Publishes the tick's presentation requests and report.
pub const PUBLISH: SystemId = SystemId::native("publish");

/// EndTick's systems, each after the one before.
pub(crate) const SYSTEMS: PhaseSystems = PhaseSystems {
    phase: Phase::EndTick,
    chain: true,
    systems: &[
        Decl {
            reads: CHECKED,
            ..Decl::new(INVARIANTS, |t| {
                if t.options.check_invariants {
                    crate::world::invariants::check(t.world, t.def)?;
                }
                Ok(())
            })
        },
        Decl {
            reads: HASHED,
            writes: &[R::TickNumber],
            ..Decl::new(HASH, |t| {
                *t.world.tick = t.tick;
                if t.options.hash {
                    let split_from = if t.options.serial {
                        usize::MAX
                    } else {
                        crate::world::hash::SPLIT_MIN
                    };
                    let cache = &mut t.scratch.hash_cache;
                    t.report.hash = Some(StateHash::of_cached(t.world, split_from, cache));
                }
                Ok(())
            })
        },
        Decl {
            reads: &[R::EntitySet, R::ContactCache, R::Commands],
            writes: &[R::StagedPresentation, R::Outbox],
            ..Decl::new(PUBLISH, |t| {
                let (world, s) = (&*t.world, &mut *t.scratch);
                t.outbox.publish(&mut s.staged);
                let r = &mut t.report;
                r.events = s.events.len();
                r.commands = s.commands.len();
                r.contacts = world.contacts.len();
                r.entities = world.entity_count();
                Ok(())
            })
        },
    ],
};
