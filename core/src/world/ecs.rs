//! The world's hecs world, each access recorded in debug builds (see [`resource`]): a
//! component column stands for its [`Resource`] (components fixed at spawn stand for none,
//! and changing one is recorded as such), and creating, destroying or looking up entities
//! stands for [`Resource::EntitySet`]. The methods are hecs's, and cost what hecs's do in
//! release builds; an archetype's columns are taken through
//! [`archetypes_placed`](Ecs::archetypes_placed) (see [`columns`](crate::world::columns)).
//!
//! [`resource`]: crate::resource

use crate::resource::{Resource, touch};
#[cfg(debug_assertions)]
use crate::world::access;
use crate::world::access::borrows;
use crate::world::columns::{Placed, Places};
#[cfg(debug_assertions)]
use std::any::TypeId;

/// See the module documentation. Holds the [`Places`] of every archetype of its world: each
/// method that may make an archetype learns its places before it returns.
pub(crate) struct Ecs(hecs::World, Places);

impl Default for Ecs {
    fn default() -> Ecs {
        let world = hecs::World::new();
        let mut places = Places::default();
        places.learn(&world);
        Ecs(world, places)
    }
}

impl Ecs {
    /// The hecs world, for reads outside a tick (inspection, rendering): the caller records
    /// what it reads, if anything.
    #[inline]
    pub fn raw(&self) -> &hecs::World {
        &self.0
    }

    /// Where the hot columns sit in each archetype.
    #[cfg(test)]
    pub(super) fn places(&self) -> &Places {
        &self.1
    }

    /// The archetypes, in hecs's order, each with the places of its hot columns.
    #[inline]
    pub fn archetypes_placed(&self) -> impl Iterator<Item = Placed<'_>> + '_ {
        self.0
            .archetypes()
            .enumerate()
            .map(|(i, arch)| self.1.placed(i, arch))
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

    /// An entity, whose components are recorded as they are taken.
    #[inline]
    pub fn entity(&self, e: hecs::Entity) -> Result<EntityRef<'_>, hecs::NoSuchEntity> {
        self.0.entity(e).map(EntityRef)
    }

    #[inline]
    pub fn insert_one<C: hecs::Component>(
        &mut self,
        e: hecs::Entity,
        component: C,
    ) -> Result<(), hecs::NoSuchEntity> {
        #[cfg(debug_assertions)]
        access::component(TypeId::of::<C>(), true);
        let done = self.0.insert_one(e, component);
        self.1.learn(&self.0);
        done
    }

    #[inline]
    pub fn remove_one<C: hecs::Component>(
        &mut self,
        e: hecs::Entity,
    ) -> Result<C, hecs::ComponentError> {
        #[cfg(debug_assertions)]
        access::component(TypeId::of::<C>(), true);
        let taken = self.0.remove_one::<C>(e);
        self.1.learn(&self.0);
        taken
    }

    #[inline]
    pub fn spawn(&mut self, components: impl hecs::DynamicBundle) -> hecs::Entity {
        touch(Resource::EntitySet, true);
        let e = self.0.spawn(components);
        self.1.learn(&self.0);
        e
    }

    /// Spawns the batch's entities; returns them in its order.
    #[inline]
    pub fn spawn_column_batch(&mut self, batch: hecs::ColumnBatch) -> Vec<hecs::Entity> {
        touch(Resource::EntitySet, true);
        let spawned = self.0.spawn_column_batch(batch).collect();
        self.1.learn(&self.0);
        spawned
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
