//! The world's hecs world, each access recorded in debug builds (see [`resource`]): a
//! component column stands for its [`Resource`] (components fixed at spawn stand for none,
//! and changing one is recorded as such), and creating, destroying or looking up entities
//! stands for [`Resource::EntitySet`]. The methods are hecs's, and cost what hecs's do in
//! release builds.
//!
//! [`resource`]: crate::resource

use crate::resource::{Resource, touch};
#[cfg(debug_assertions)]
use std::any::TypeId;

/// See the module documentation.
#[derive(Default)]
pub(crate) struct Ecs(hecs::World);

/// Records what the query `Q` borrows (debug builds).
#[inline(always)]
fn borrows<Q: hecs::Query>() {
    #[cfg(debug_assertions)]
    <Q::Fetch as hecs::Fetch>::for_each_borrow(component);
}

/// Records a borrow of the component `id` (`unique`: to change it).
#[cfg(debug_assertions)]
fn component(id: TypeId, unique: bool) {
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

impl Ecs {
    /// The hecs world, for reads outside a tick (inspection, rendering): the caller records
    /// what it reads, if anything.
    #[inline]
    pub fn raw(&self) -> &hecs::World {
        &self.0
    }

    #[inline]
    pub fn query<Q: hecs::Query>(&self) -> hecs::QueryBorrow<'_, Q> {
        borrows::<Q>();
        self.0.query::<Q>()
    }

    #[inline]
    pub fn query_one<Q: hecs::Query>(&self, e: hecs::Entity) -> hecs::QueryOne<'_, Q> {
        borrows::<Q>();
        self.0.query_one::<Q>(e)
    }

    #[inline]
    pub fn query_mut<Q: hecs::Query>(&mut self) -> hecs::QueryMut<'_, Q> {
        borrows::<Q>();
        self.0.query_mut::<Q>()
    }

    #[inline]
    pub fn query_one_mut<Q: hecs::Query>(
        &mut self,
        e: hecs::Entity,
    ) -> Result<Q::Item<'_>, hecs::QueryOneError> {
        borrows::<Q>();
        self.0.query_one_mut::<Q>(e)
    }

    #[inline]
    pub fn get<'a, T: hecs::ComponentRef<'a> + hecs::Query>(
        &'a self,
        e: hecs::Entity,
    ) -> Result<T::Ref, hecs::ComponentError> {
        borrows::<T>();
        self.0.get::<T>(e)
    }

    #[inline]
    pub fn view<Q: hecs::Query>(&self) -> hecs::ViewBorrow<'_, Q> {
        borrows::<Q>();
        self.0.view::<Q>()
    }

    #[inline]
    pub fn view_mut<Q: hecs::Query>(&mut self) -> hecs::View<'_, Q> {
        borrows::<Q>();
        self.0.view_mut::<Q>()
    }

    /// An entity, whose components are recorded as they are taken.
    #[inline]
    pub fn entity(&self, e: hecs::Entity) -> Result<EntityRef<'_>, hecs::NoSuchEntity> {
        self.0.entity(e).map(EntityRef)
    }

    /// The archetypes, whose columns are recorded as they are taken.
    #[inline]
    pub fn archetypes(&self) -> impl ExactSizeIterator<Item = Archetype<'_>> + '_ {
        self.0.archetypes().map(Archetype)
    }

    #[inline]
    pub fn insert_one<C: hecs::Component>(
        &mut self,
        e: hecs::Entity,
        component: C,
    ) -> Result<(), hecs::NoSuchEntity> {
        #[cfg(debug_assertions)]
        self::component(TypeId::of::<C>(), true);
        self.0.insert_one(e, component)
    }

    #[inline]
    pub fn remove_one<C: hecs::Component>(
        &mut self,
        e: hecs::Entity,
    ) -> Result<C, hecs::ComponentError> {
        #[cfg(debug_assertions)]
        self::component(TypeId::of::<C>(), true);
        self.0.remove_one::<C>(e)
    }

    #[inline]
    pub fn spawn(&mut self, components: impl hecs::DynamicBundle) -> hecs::Entity {
        touch(Resource::EntitySet, true);
        self.0.spawn(components)
    }

    #[inline]
    pub fn spawn_column_batch(
        &mut self,
        batch: hecs::ColumnBatch,
    ) -> hecs::SpawnColumnBatchIter<'_> {
        touch(Resource::EntitySet, true);
        self.0.spawn_column_batch(batch)
    }

    #[inline]
    pub fn despawn(&mut self, e: hecs::Entity) -> Result<(), hecs::NoSuchEntity> {
        touch(Resource::EntitySet, true);
        self.0.despawn(e)
    }

    #[inline]
    pub fn len(&self) -> u32 {
        touch(Resource::EntitySet, false);
        self.0.len()
    }

    /// The live entity of `id`.
    ///
    /// # Safety
    ///
    /// As [`hecs::World::find_entity_from_id`]: `id` is a live entity's.
    #[inline]
    pub unsafe fn find_entity_from_id(&self, id: u32) -> hecs::Entity {
        // SAFETY: the caller's promise, passed on.
        unsafe { self.0.find_entity_from_id(id) }
    }
}

/// One entity of an [`Ecs`].
pub(crate) struct EntityRef<'a>(hecs::EntityRef<'a>);

impl<'a> EntityRef<'a> {
    #[inline]
    pub fn get<T: hecs::ComponentRef<'a> + hecs::Query>(&self) -> Option<T::Ref> {
        borrows::<T>();
        self.0.get::<T>()
    }
}

/// One archetype of an [`Ecs`].
#[derive(Clone, Copy)]
pub(crate) struct Archetype<'a>(&'a hecs::Archetype);

impl<'a> Archetype<'a> {
    #[inline]
    pub fn get<T: hecs::ComponentRef<'a> + hecs::Query>(&self) -> Option<T::Column> {
        borrows::<T>();
        self.0.get::<T>()
    }

    /// Whether its entities have `T` (not a read of `T`'s values).
    #[inline]
    pub fn has<T: hecs::Component>(&self) -> bool {
        self.0.has::<T>()
    }

    #[inline]
    pub fn len(&self) -> u32 {
        self.0.len()
    }

    #[inline]
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    #[inline]
    pub fn ids(&self) -> &'a [u32] {
        self.0.ids()
    }
}
