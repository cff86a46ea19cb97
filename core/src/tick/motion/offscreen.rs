//! Off-screen destruction: entities whose archetype says `offscreen = "destroy"` are destroyed
//! once they have been in the camera's view and then are out of it by more than their size.
//!
//! The camera here is the simulation's own: the level's camera (its view, zoom, bounds and
//! dead zone, and the zoom scripts set) following its target as the tick leaves it, after
//! Motion's collisions, without shake: the same in every run and replay. The window draws
//! the same camera between ticks (interpolated, shaken, its dead zone followed frame by
//! frame), which differs from it by a fraction of a tick's motion; the size an entity must be
//! out of view by keeps that from mattering. The dead zone's focus here is world state
//! (`SimWorld::view_focus`, hashed), kept only in games that destroy off screen.
//!
//! An entity is in view when its box (its sprite's size, else its collider's, about its
//! position) overlaps the view; once seen, it is destroyed (an `expired` event with reason
//! `offscreen`, at Commit) when the gap between its box and the view passes its size on
//! either axis. One never seen is never destroyed this way, so anything spawned outside the
//! view waiting to come in (a formation above the screen) lives until it has been seen.

use crate::def::GameDef;
use crate::event::{ExpireEvent, ExpireReason, push_bounded};
use crate::fault::Fault;
use crate::limits::{Limit, push_within};
use crate::math::{Rect, Vec2};
use crate::tick::scratch::Scratch;
use crate::world::SimWorld;
use crate::world::components::*;

/// Marks for destruction the entities off screen after being seen (see the module
/// documentation); updates the view's focus.
pub(crate) fn offscreen(
    world: &mut SimWorld,
    s: &mut Scratch,
    def: &GameDef,
    tick: u64,
) -> Result<(), Fault> {
    if !def.archetypes.iter().any(|a| a.offscreen_destroy) {
        return Ok(());
    }
    let Some(level) = def.levels.get(world.level) else {
        return Ok(());
    };
    let target = world
        .ecs
        .query::<(&Identity, &Position, &CameraTarget)>()
        .iter()
        .min_by_key(|(id, ..)| id.seq())
        .map(|(_, t, _)| t.0);
    let (center, size, focus) = crate::world::camera::look(
        &level.camera,
        level.bounds.center(),
        target,
        *world.view_focus,
        world.camera.zoom,
    );
    if focus.is_some() {
        *world.view_focus = focus;
    }
    let view = Rect::new(center - size * 0.5, center + size * 0.5);
    let live = world.index.len();
    for (id, t, seen, sprite, drawn, collider) in world.ecs.query_mut::<(
        &Identity,
        &Position,
        &mut Offscreen,
        Option<&Sprite>,
        Option<&Drawn>,
        Option<&Collider>,
    )>() {
        let declared = || def.archetype(id.archetype)?.sprite.as_ref();
        let sprite = sprite
            .map(|s| &s.0)
            .or_else(|| drawn.and_then(|_| declared()));
        let extent = match (sprite, collider) {
            (Some(s), _) => s.size,
            (None, Some(c)) => c.shape().half_extents() * 2.0,
            (None, None) => Vec2::ZERO,
        };
        let half = extent * 0.5;
        // The gaps between the box and the view on each axis (negative: they overlap).
        let gap = Vec2::new(
            (view.min.x - (t.0.x + half.x)).max((t.0.x - half.x) - view.max.x),
            (view.min.y - (t.0.y + half.y)).max((t.0.y - half.y) - view.max.y),
        );
        if gap.x <= 0.0 && gap.y <= 0.0 {
            seen.seen = true;
        } else if seen.seen && (gap.x > extent.x || gap.y > extent.y) && s.pending.insert(id.seq())
        {
            // Each live entity at most once.
            if !push_within(&mut s.destroys, id.seq(), live) {
                return Err(Limit::Entities.exceeded(live as u64, "destroys in one tick"));
            }
            let expired = ExpireEvent {
                tick,
                entity: id.party(def, t),
                reason: ExpireReason::Offscreen,
            };
            let cap = def.limits.events_per_tick;
            push_bounded(&mut s.events.expired, expired, cap, "expired")?;
        }
    }
    Ok(())
}
