//! The world's hecs world, each access recorded in debug builds (see [`resource`]): a
//! component column stands for its [`Resource`] (components fixed at spawn stand for none,
//! and changing one is recorded as such), and creating, destroying or looking up entities
//! stands for [`Resource::EntitySet`]. The methods are hecs's, and cost what hecs's do in
//! release builds; an archetype's columns are taken through
//! [`archetypes_placed`](Ecs::archetypes_placed) (see [`columns`](crate::world::columns)).
//!
//! [`resource`]: crate::resource

use crate::ids::{SeqHasher, SeqMap};
use crate::resource::{Resource, touch};
#[cfg(debug_assertions)]
use crate::world::access;
use crate::world::access::borrows;
use crate::world::columns::{Frozen, Hot, Placed, Places, Thawed};
use std::any::TypeId;
use std::hash::{Hash, Hasher};

/// See the module documentation. Holds the [`Places`] of every archetype of its world: each
/// method that may make an archetype learns its places before it returns; and how often each
/// archetype's rows changed ([`RowChanges`]), which each method that moves an entity into or
/// out of an archetype counts.
pub(crate) struct Ecs(hecs::World, Places, RowChanges);

impl Default for Ecs {
    fn default() -> Ecs {
        let world = hecs::World::new();
        let mut places = Places::default();
        places.learn(&world);
        let mut rows = RowChanges::default();
        rows.learn(&world);
        Ecs(world, places, rows)
    }
}

/// How many times the rows of each archetype changed (which entity sits in which row): a
/// spawn, a despawn, and a component added or removed change the rows of the archetypes they
/// move an entity into or out of, and nothing else moves a row (hecs's archetypes change only
/// through [`Ecs`]'s methods). Counted by the archetype's set of component types
/// ([`signature`]): two sets with one signature share a count, which then changes more often
/// than either's rows, never less, so a cache keyed by it is only taken again more often.
#[derive(Default)]
struct RowChanges {
    /// Changes by signature.
    by_set: SeqMap<u64>,
    /// Each archetype's signature, by its place among the world's archetypes.
    sets: Vec<u64>,
}

impl RowChanges {
    /// Learns the signatures of the archetypes of `world` not yet seen.
    fn learn(&mut self, world: &hecs::World) {
        let seen = self.sets.len();
        if seen < world.archetypes().len() {
            let new = world.archetypes().skip(seen);
            self.sets
                .extend(new.map(|a| signature(a.component_types())));
        }
    }

    /// How many times the rows of archetype `index` changed (see [`Ecs::rows_changed`]).
    #[inline]
    fn of(&self, index: usize) -> u64 {
        let set = self.sets.get(index).copied().unwrap_or(0);
        self.by_set.get(&set).copied().unwrap_or(0)
    }

    /// Counts a change of the rows of the archetype of signature `set`.
    fn changed(&mut self, set: u64) {
        *self.by_set.entry(set).or_insert(0) += 1;
    }
}

/// A set of component types as one word, whatever their order (a sum of their hashes).
fn signature(types: impl Iterator<Item = TypeId>) -> u64 {
    types.fold(0u64, |sum, t| {
        let mut h = SeqHasher::default();
        t.hash(&mut h);
        sum.wrapping_add(h.finish())
    })
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

    /// How many times the rows of archetype `index` (its place in hecs's order) changed: equal
    /// counts at two moments mean the same entities in the same rows (see [`RowChanges`]).
    #[inline]
    pub fn rows_changed(&self, index: usize) -> u64 {
        self.2.of(index)
    }

    /// The signature of entity `e`'s archetype, if `e` lives.
    #[inline]
    fn set_of(&self, e: hecs::Entity) -> Option<u64> {
        self.0
            .entity(e)
            .ok()
            .map(|r| signature(r.component_types()))
    }

    /// Counts a change of rows in the archetypes of signatures `before` and `after` (an entity
    /// moved out of the one and into the other; both counted even where the signatures are
    /// equal, as two sets may share one), and learns any new archetype.
    #[inline]
    fn moved(&mut self, before: Option<u64>, after: Option<u64>) {
        for set in [before, after].into_iter().flatten() {
            self.2.changed(set);
        }
        self.1.learn(&self.0);
        self.2.learn(&self.0);
    }

    /// The world borrowed uniquely for as long as the view lives, read with no borrow counted
    /// (see [`Frozen`]).
    #[inline]
    pub(crate) fn freeze(&mut self) -> FrozenEcs<'_> {
        FrozenEcs(self)
    }

    /// The world borrowed uniquely for as long as the view lives, its columns read and changed
    /// with no borrow counted (see [`Thawed`]).
    #[inline]
    pub(crate) fn thaw(&mut self) -> ThawedEcs<'_> {
        ThawedEcs(self)
    }

    /// Whether any entity has `T`: read from the archetypes' known places, with no query (a
    /// look-up in hecs's locked query cache) and no column borrowed.
    #[inline]
    pub fn any<T: Hot>(&self) -> bool {
        let places = &self.1;
        (self.0.archetypes().enumerate()).any(|(i, a)| !a.is_empty() && places.has::<T>(i, a))
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
        let before = self.set_of(e);
        let done = self.0.insert_one(e, component);
        let after = self.set_of(e);
        self.moved(before, after);
        done
    }

    #[inline]
    pub fn remove_one<C: hecs::Component>(
        &mut self,
        e: hecs::Entity,
    ) -> Result<C, hecs::ComponentError> {
        #[cfg(debug_assertions)]
        access::component(TypeId::of::<C>(), true);
        let before = self.set_of(e);
        let taken = self.0.remove_one::<C>(e);
        let after = self.set_of(e);
        self.moved(before, after);
        taken
    }

    #[inline]
    pub fn spawn(&mut self, components: impl hecs::DynamicBundle) -> hecs::Entity {
        touch(Resource::EntitySet, true);
        let e = self.0.spawn(components);
        let set = self.set_of(e);
        self.moved(None, set);
        e
    }

    /// Spawns the batch's entities; returns them in its order.
    #[inline]
    pub fn spawn_column_batch(&mut self, batch: hecs::ColumnBatch) -> Vec<hecs::Entity> {
        touch(Resource::EntitySet, true);
        let spawned: Vec<hecs::Entity> = self.0.spawn_column_batch(batch).collect();
        let set = spawned.first().and_then(|&e| self.set_of(e));
        self.moved(None, set);
        spawned
    }

    /// Takes `n` entity ids, held by entities of no component until [`release`]d, whose ids
    /// later spawns take first. hecs keeps a record of every id (12 bytes) in a list that grows
    /// by doubling, which a level's build fills exactly: ids held around the build, then
    /// given back, are room for spawns past it (a million entities' first spawn would
    /// otherwise add 12 megabytes). The held entities leave an archetype's list of ids (4
    /// bytes each) and hecs's free list behind.
    ///
    /// [`release`]: Ecs::release
    pub fn hold(&mut self, n: u32) -> Vec<hecs::Entity> {
        if n == 0 {
            return Vec::new();
        }
        touch(Resource::EntitySet, true);
        let held: Vec<hecs::Entity> = self
            .0
            .spawn_batch(std::iter::repeat_n((), n as usize))
            .collect();
        let set = held.first().and_then(|&e| self.set_of(e));
        self.moved(None, set);
        held
    }

    /// Gives back ids [`hold`](Ecs::hold) took: the last held first, each the last row of the
    /// archetype of no component, so no row moves.
    pub fn release(&mut self, held: Vec<hecs::Entity>) {
        let Some(&first) = held.first() else {
            return;
        };
        touch(Resource::EntitySet, true);
        let set = self.set_of(first);
        for &e in held.iter().rev() {
            let despawned = self.0.despawn(e);
            debug_assert!(despawned.is_ok(), "a held id is live until released");
        }
        self.moved(set, None);
    }

    #[inline]
    pub fn despawn(&mut self, e: hecs::Entity) -> Result<(), hecs::NoSuchEntity> {
        touch(Resource::EntitySet, true);
        let set = self.set_of(e);
        self.moved(set, None);
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

/// A world borrowed uniquely, read through its archetypes' columns with no borrow counted
/// ([`Ecs::freeze`]).
///
/// Invariant: made only from `&'a mut Ecs`, and it gives nothing that could change the world
/// or borrow it otherwise (no `&Ecs`): see [`Frozen`].
#[derive(Clone, Copy)]
pub(crate) struct FrozenEcs<'a>(&'a Ecs);

impl<'a> FrozenEcs<'a> {
    /// How many entities the world holds.
    #[inline]
    pub fn len(&self) -> u32 {
        self.0.0.len()
    }

    /// How many archetypes hecs has made in the world (with rows or not).
    #[inline]
    pub fn archetype_count(&self) -> usize {
        self.0.0.archetypes().len()
    }

    /// The archetypes, in hecs's order, their columns read with no borrow counted.
    #[inline]
    pub fn archetypes(&self) -> impl Iterator<Item = Frozen<'a>> + 'a {
        // SAFETY: the world is borrowed uniquely for `'a` and only read through this view
        // (the invariant).
        self.0
            .archetypes_placed()
            .map(|a| unsafe { Frozen::new(a) })
    }
}

/// A world borrowed uniquely, its archetypes' columns read and changed with no borrow
/// counted ([`Ecs::thaw`]).
pub(crate) struct ThawedEcs<'a>(&'a mut Ecs);

impl ThawedEcs<'_> {
    /// The archetypes, in hecs's order (a query's), each once: the view is borrowed uniquely
    /// while they are.
    #[inline]
    pub fn archetypes(&mut self) -> impl Iterator<Item = Thawed<'_>> + '_ {
        let Ecs(world, places, ..) = &mut *self.0;
        // SAFETY: the world is borrowed uniquely while the archetypes are, and each is yielded
        // once (the invariant of `Thawed`).
        unsafe { places.thawed(world) }
    }

    /// [`archetypes`](Self::archetypes), each with how many times its rows changed (see
    /// [`Ecs::rows_changed`]).
    #[inline]
    pub fn archetypes_counted(&mut self) -> impl Iterator<Item = (Thawed<'_>, u64)> + '_ {
        let Ecs(world, places, rows) = &mut *self.0;
        let rows = &*rows;
        // SAFETY: as in `archetypes`.
        let thawed = unsafe { places.thawed(world) };
        thawed.enumerate().map(move |(i, a)| (a, rows.of(i)))
    }
}

#[cfg(test)]
mod tests {
    use super::Ecs;
    use crate::math::Vec2;
    use crate::world::components::{Drawn, Position, Tags};

    /// Each archetype's count of row changes: moved by every spawn, despawn, and component
    /// added or removed that moves an entity into or out of it (a despawn and a spawn that
    /// leave its length as it was among them), and by nothing else.
    #[test]
    fn every_change_of_an_archetypes_rows_is_counted_and_nothing_else() {
        let mut ecs = Ecs::default();
        let p = |x| Position(Vec2::new(x, 0.0));
        let a = ecs.spawn((p(1.0),));
        let b = ecs.spawn((p(2.0),));
        let tagged = ecs.spawn((p(3.0), Tags));
        let index = |ecs: &Ecs, e| {
            let arch = ecs
                .raw()
                .archetypes()
                .position(|a| a.ids().contains(&hecs::Entity::id(e)));
            arch.expect("a live entity's archetype")
        };
        let (plain, with_tags) = (index(&ecs, a), index(&ecs, tagged));
        let counts = |ecs: &Ecs| (ecs.rows_changed(plain), ecs.rows_changed(with_tags));
        let start = counts(&ecs);
        // (what is done, whether the plain archetype's count moves, whether the tagged one's)
        type Step<'a> = (&'a str, &'a dyn Fn(&mut Ecs), bool, bool);
        let steps: [Step<'_>; 5] = [
            (
                "a despawn and a spawn, the length kept",
                &|ecs| {
                    ecs.despawn(b).unwrap();
                    ecs.spawn((p(4.0),));
                },
                true,
                false,
            ),
            (
                "a component replaced in place",
                &|ecs| {
                    ecs.query_one_mut::<&mut Position>(a).unwrap().0.x = 9.0;
                },
                false,
                false,
            ),
            (
                "a component added: out of one, into the other",
                &|ecs| {
                    ecs.insert_one(a, Tags).unwrap();
                },
                true,
                true,
            ),
            (
                "a component removed: back again",
                &|ecs| {
                    ecs.remove_one::<Tags>(a).unwrap();
                },
                true,
                true,
            ),
            (
                "an entity of another archetype spawned",
                &|ecs| {
                    ecs.spawn((p(5.0), Drawn));
                },
                false,
                false,
            ),
        ];
        let mut was = start;
        for (what, step, plain_moves, tagged_moves) in steps {
            step(&mut ecs);
            let now = counts(&ecs);
            assert_eq!(
                (now.0 != was.0, now.1 != was.1),
                (plain_moves, tagged_moves),
                "{what}"
            );
            was = now;
        }
    }
}
