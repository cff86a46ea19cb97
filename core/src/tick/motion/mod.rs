//! Motion and collision.
//!
//! Reads: velocities, positions, motion rules, rotations, colliders, tags, bounds rules, the
//! previous contact cache. Writes: current positions (integration, bounds, push), velocities
//! (gravity, drag, speed limits, walls, bounces), angles, the contact cache, footing; records
//! bounds destructions. Produces: collision and trigger enter/stay/exit events and bounds
//! expirations, in canonical order (see `collision`).
//!
//! In order, every tick:
//! 1. **integrate**: an entity without motion rules moves by its velocity (`p += v dt`); one
//!    with them also accelerates by its gravity, exactly for a constant acceleration
//!    (`p += v dt + a dt² / 2`, `v += a dt`), then is slowed by drag (`v /= 1 + drag dt`) and
//!    held to its speed limit. A static body never moves.
//! 2. **rotate**: angles turn by their spin, or face the velocity or the controller's facing.
//! 3. **bounds**: confine, bounce, wrap or destroy at the level's bounds.
//! 4. **attach**: attached entities are put at their parents' places, parents first (see
//!    [`attach`](crate::world::attach)). A world with attachments runs Motion's systems one
//!    after another, never fused, so that collisions see the attached entities where they are.
//! 5. **collide**: pairs, pushes split by mass (static and kinematic bodies are never pushed),
//!    velocity responses (bounce, friction) on pushing contacts that involve a non-dynamic
//!    body or a bounce, footing for platformer control, and the contact events.
//! 5. **offscreen**: entities out of the camera's view after being in it are destroyed (see
//!    `offscreen`).

mod bounds;
mod collide;
mod contacts;
mod fused;
mod offscreen;
mod step;
pub(crate) mod uniform;

pub(crate) use step::up;

use crate::event::EventKind;
use crate::phase::Phase;
use crate::resource::Resource;
use crate::tick::motion::step::{accelerate, step, turn};
use crate::tick::system::{Decl, PhaseSystems, SystemId};
use crate::world::SimWorld;
use crate::world::components::*;
use std::iter::zip;

use Resource as R;

/// Moves every entity by its velocity (and, fused, does the whole of Motion's per-entity work).
pub const INTEGRATE: SystemId = SystemId::native("integrate");
/// Turns rotating entities.
pub const ROTATE: SystemId = SystemId::native("rotate");
/// Applies the level's bounds rules.
pub const BOUNDS: SystemId = SystemId::native("bounds");
/// Puts attached entities at their parents' places.
pub const ATTACH: SystemId = SystemId::native("attach");
/// Broadphase, pushes and responses, and the contact events.
pub const COLLIDE: SystemId = SystemId::native("collide");
/// Destroys what left the camera's view after being in it.
pub const OFFSCREEN: SystemId = SystemId::native("offscreen");

/// Motion and collision's systems, each after the one before.
pub(crate) const SYSTEMS: PhaseSystems = PhaseSystems {
    phase: Phase::Motion,
    chain: true,
    systems: &[
        Decl {
            // Fused (see `fused`), it also does what `previous` (the position copy),
            // `behaviours` (the decisions), `rotate` and `bounds` do otherwise, and records
            // the colliders for the broadphase: its declaration covers all of it.
            reads: &[R::Control, R::NavField, R::Targets],
            reads_previous: &[R::Velocity, R::Position, R::EntitySet, R::Speed],
            writes: &[
                R::Position,
                R::Velocity,
                R::PrevPosition,
                R::Rotation,
                R::Brain,
                R::Targets,
                R::StructuralCommands,
                R::Broadphase,
            ],
            produces: &[EventKind::Expired],
            ..Decl::new(INTEGRATE, |t| {
                if t.fused_motion {
                    // Rotate, bounds and collide's records too (see `fused`).
                    let split = !t.options.serial;
                    let split = split && crate::par::available();
                    return fused::motion(t.world, t.scratch, t.def, t.tick, split);
                }
                integrate(t.world, t.def.tick.tick_seconds());
                Ok(())
            })
        },
        Decl {
            // The velocity as integrate left it; Gameplay's changes reach it next tick.
            reads: &[R::Control],
            reads_previous: &[R::Rotation, R::Velocity],
            writes: &[R::Rotation],
            ..Decl::new(ROTATE, |t| {
                if !t.fused_motion {
                    rotate(t.world, t.def.tick.tick_seconds());
                }
                Ok(())
            })
        },
        Decl {
            reads_previous: &[R::Position, R::EntitySet],
            writes: &[
                R::Position,
                R::PrevPosition,
                R::Velocity,
                R::StructuralCommands,
            ],
            produces: &[EventKind::Expired],
            ..Decl::new(BOUNDS, |t| {
                if t.fused_motion {
                    return Ok(());
                }
                bounds::bounds(t.world, t.scratch, t.def, t.tick)
            })
        },
        Decl {
            // Only in a world with attachments, which never runs Motion fused.
            reads_previous: &[R::Attachment, R::EntitySet],
            writes: &[R::Position, R::PrevPosition, R::Velocity, R::Rotation],
            ..Decl::new(ATTACH, |t| {
                if !t.fused_motion && t.world.has_attachments() {
                    t.world.place_attached();
                }
                Ok(())
            })
        },
        Decl {
            reads_previous: &[R::Position, R::ContactCache, R::EntitySet],
            writes: &[
                R::Position,
                R::Velocity,
                R::ContactCache,
                R::Footing,
                R::Broadphase,
                R::ContactDamage,
            ],
            produces: &[EventKind::Collision, EventKind::Trigger],
            ..Decl::new(COLLIDE, |t| {
                if !t.fused_motion {
                    collide::record(t.world, t.scratch, t.def);
                }
                let split = !t.options.serial && crate::par::available();
                collide::collide(t.world, t.scratch, t.def, t.tick, split)
            })
        },
        Decl {
            // The camera follows its target as the tick leaves it, zoomed as scripts last
            // said.
            reads_previous: &[R::Position, R::EntitySet, R::Camera],
            writes: &[R::Offscreen, R::StructuralCommands],
            produces: &[EventKind::Expired],
            ..Decl::new(OFFSCREEN, |t| {
                offscreen::offscreen(t.world, t.scratch, t.def, t.tick)
            })
        },
    ],
};

/// Moves every entity by its velocity over `dt` seconds (the first step of Motion), applying
/// motion rules where an entity has them. A result that is not finite leaves the position (or
/// the velocity) unchanged. Public for benchmarks and tools that measure the framework's
/// iteration against raw hecs.
pub fn integrate(world: &mut SimWorld, dt: f32) {
    // Archetype by archetype through the columns' known places, with no borrow counted (two
    // hecs queries looked their columns up in every archetype every tick); each entity's step
    // reads and writes only its own row.
    for a in world.ecs.thaw().archetypes() {
        if a.is_empty() || a.has::<StaticBody>() {
            continue;
        }
        let Some(ts) = a.write::<Position>() else {
            continue;
        };
        match a.read::<Motion>() {
            // Without motion rules: the plain step, exactly as it has always been.
            None => {
                if let Some(vs) = a.read::<Velocity>() {
                    zip(ts, vs).for_each(|(t, v)| step(t, v, dt));
                }
            }
            Some(ms) => {
                if let Some(vs) = a.write::<Velocity>() {
                    zip(zip(ts, vs), ms).for_each(|((t, v), m)| accelerate(t, v, m, dt));
                }
            }
        }
    }
}

/// Turns every rotating entity: by its spin, then toward its velocity or its controller's
/// facing when its mode says so.
fn rotate(world: &mut SimWorld, dt: f32) {
    for a in world.ecs.thaw().archetypes() {
        if a.is_empty() {
            continue;
        }
        let (Some(rs), Some(vs)) = (a.write::<Rotation>(), a.read::<Velocity>()) else {
            continue;
        };
        let controls = a.read::<Control>();
        for (i, (r, v)) in zip(rs, vs).enumerate() {
            turn(r, v, controls.map(|c| &c[i]), dt);
        }
    }
}
