//! What the world's accesses stand for, recorded in debug builds (see [`resource`]): a
//! component column stands for its [`Resource`] (components fixed at spawn stand for none,
//! and changing one is recorded as such).
//!
//! [`resource`]: crate::resource

#[cfg(debug_assertions)]
use crate::resource::{Resource, touch};
#[cfg(debug_assertions)]
use std::any::TypeId;

/// Records what the query `Q` borrows (debug builds).
#[inline(always)]
pub(super) fn borrows<Q: hecs::Query>() {
    #[cfg(debug_assertions)]
    <Q::Fetch as hecs::Fetch>::for_each_borrow(component);
}

/// Records a borrow of the component `id` (`unique`: to change it).
#[cfg(debug_assertions)]
pub(super) fn component(id: TypeId, unique: bool) {
    match resource_of(id) {
        Ok(r) => touch(r, unique),
        Err(name) if unique => crate::resource::touch_fixed(name),
        Err(_) => {}
    }
}

/// The resource a component stands for, or its name if it is fixed at spawn.
#[cfg(debug_assertions)]
fn resource_of(id: TypeId) -> Result<Resource, &'static str> {
    use crate::world::components::*;
    use Resource as R;
    let changing = [
        (TypeId::of::<Position>(), R::Position),
        (TypeId::of::<PrevPosition>(), R::PrevPosition),
        (TypeId::of::<Velocity>(), R::Velocity),
        (TypeId::of::<Health>(), R::Health),
        (TypeId::of::<Brain>(), R::Brain),
        (TypeId::of::<Aim>(), R::Brain),
        (TypeId::of::<Control>(), R::Control),
        (TypeId::of::<Cooldowns>(), R::Cooldowns),
        (TypeId::of::<Lifetime>(), R::Lifetime),
        (TypeId::of::<ScriptState>(), R::ScriptState),
        (TypeId::of::<Rotation>(), R::Rotation),
        (TypeId::of::<Footing>(), R::Footing),
        (TypeId::of::<Animation>(), R::Animation),
        (TypeId::of::<Look>(), R::Look),
        (TypeId::of::<Speed>(), R::Speed),
        (TypeId::of::<OwnBehaviour>(), R::Brain),
        (TypeId::of::<Attached>(), R::Attachment),
        (TypeId::of::<Offscreen>(), R::Offscreen),
    ];
    let fixed = [
        (TypeId::of::<Identity>(), "Identity"),
        (TypeId::of::<Tags>(), "Tags"),
        (TypeId::of::<Collider>(), "Collider"),
        (TypeId::of::<SharedCollider>(), "SharedCollider"),
        (TypeId::of::<Motion>(), "Motion"),
        (TypeId::of::<StaticBody>(), "StaticBody"),
        (TypeId::of::<BoundsRule>(), "BoundsRule"),
        (TypeId::of::<Sprite>(), "Sprite"),
        (TypeId::of::<Drawn>(), "Drawn"),
        (TypeId::of::<Label>(), "Label"),
        (TypeId::of::<CameraTarget>(), "CameraTarget"),
        (TypeId::of::<BoundsMargin>(), "BoundsMargin"),
    ];
    match changing.iter().find(|(t, _)| *t == id) {
        Some((_, r)) => Ok(*r),
        None => Err(fixed
            .iter()
            .find(|(t, _)| *t == id)
            .map_or("a component", |(_, n)| *n)),
    }
}
