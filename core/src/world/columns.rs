//! An archetype's columns taken where they are known to sit: hecs's `Archetype::get`
//! searches the archetype's sorted list of types to find a column, counts a borrow, and
//! searches again to release it, about 300 instructions a column; the passes over every
//! archetype (Motion's fused pass and collision every tick, the state hash) take up to fifteen
//! columns of each.
//!
//! [`Places`] remembers where each [`Hot`] component's column sits in each archetype of one
//! [`Ecs`](crate::world::ecs::Ecs) (hecs's own state for the column, from `Fetch::prepare`),
//! looked up once when the archetype is made: hecs makes archetypes only as entities are
//! spawned or given or lose a component, all through `Ecs`'s methods that take it to change,
//! and never removes one nor changes its types, so an archetype's index names the same columns
//! for the life of its world. A taken column counts its borrow and releases it as hecs's own
//! columns do, so a conflicting borrow still panics rather than aliasing; hecs checks there
//! that the column at that place is of the type asked for. The places and the columns come
//! through hecs's `Fetch` and `Query::get`, the interface its query macros use (hidden from
//! its documentation): a hecs release that changed them would fail to build here, and the
//! tests compare every column with hecs's own `Archetype::get`.

use crate::world::access::borrows;
use crate::world::components::*;
use hecs::{Fetch, Query};
use std::ops::{Deref, DerefMut};

/// A component that [`Placed`] takes by its place: its slot in [`Places`]'s rows.
pub(crate) trait Hot: hecs::Component {
    const SLOT: usize;
}

/// A slot of a component the archetype does not have.
const NONE: u32 = u32::MAX;

/// Declares the [`Hot`] components, in slot order, and how to find each one's place.
macro_rules! hot {
    ($($t:ident),* $(,)?) => {
        /// How many components are [`Hot`].
        const HOT: usize = [$(stringify!($t)),*].len();
        hot!(@slot 0usize; $($t),*);
        /// Where each [`Hot`] component's column sits in `arch`.
        fn places_in(arch: &hecs::Archetype) -> [u32; HOT] {
            [$(place::<$t>(arch)),*]
        }
    };
    (@slot $n:expr; $t:ident $(, $rest:ident)*) => {
        impl Hot for $t {
            const SLOT: usize = $n;
        }
        hot!(@slot $n + 1; $($rest),*);
    };
    (@slot $n:expr;) => {};
}

hot!(
    Position,
    PrevPosition,
    Velocity,
    Motion,
    Rotation,
    Control,
    BoundsRule,
    BoundsMargin,
    Collider,
    SharedCollider,
    Identity,
    Brain,
    Aim,
    Speed,
    StaticBody,
    Footing,
    Health,
    Cooldowns,
    Lifetime,
    ScriptState,
    Animation,
    Offscreen,
    Look,
    Attached,
    OwnBehaviour,
);

/// The place of `T`'s column among an archetype's places `at`, if it has one.
#[inline]
fn place_of<T: Hot>(at: &[u32; HOT]) -> Option<usize> {
    let at = at[T::SLOT];
    (at != NONE).then_some(at as usize)
}

/// The place of `T`'s column in `arch`, or [`NONE`].
fn place<T: hecs::Component>(arch: &hecs::Archetype) -> u32 {
    <<&T as Query>::Fetch as Fetch>::prepare(arch)
        .and_then(|at| u32::try_from(at).ok())
        .unwrap_or(NONE)
}

/// A view of one archetype's columns ([`Placed`], [`Frozen`] and [`Thawed`] alike): whether
/// its entities have `T`, so a test of an archetype's columns is written once for all three.
pub(crate) trait ArchetypeView {
    /// Whether its entities have `T` (not a read of `T`'s values).
    fn has<T: Hot>(&self) -> bool;
}

impl ArchetypeView for Placed<'_> {
    #[inline]
    fn has<T: Hot>(&self) -> bool {
        Placed::has::<T>(self)
    }
}

impl ArchetypeView for Frozen<'_> {
    #[inline]
    fn has<T: Hot>(&self) -> bool {
        Frozen::has::<T>(self)
    }
}

impl ArchetypeView for Thawed<'_> {
    #[inline]
    fn has<T: Hot>(&self) -> bool {
        Thawed::has::<T>(self)
    }
}

/// Where the [`Hot`] components' columns sit in each archetype of one world, by the
/// archetype's index (see the module documentation). [`Ecs`](crate::world::ecs::Ecs) learns
/// the places of every archetype it makes as it makes it.
#[derive(Default)]
pub(crate) struct Places(Vec<[u32; HOT]>);

impl Places {
    /// Learns the places in the archetypes of `world` not yet seen.
    #[inline]
    pub(super) fn learn(&mut self, world: &hecs::World) {
        if self.0.len() < world.archetypes().len() {
            let seen = self.0.len();
            self.0.extend(world.archetypes().skip(seen).map(places_in));
        }
    }

    /// The archetypes of `world` (the world these places are of), each with its places, learnt
    /// first where any are new: every archetype's places are then kept here, and are not
    /// copied for each.
    ///
    /// # Safety
    ///
    /// The caller holds the world these places are of uniquely for `'a` and reaches it only
    /// through what this yields (the invariant of [`Thawed`]).
    #[inline]
    pub(super) unsafe fn thawed<'a>(
        &'a mut self,
        world: &'a hecs::World,
    ) -> impl Iterator<Item = Thawed<'a>> + 'a {
        self.learn(world);
        std::iter::zip(world.archetypes(), &self.0).map(|(arch, at)| Thawed {
            arch,
            at,
            taken: std::cell::Cell::new(0),
        })
    }

    /// Whether archetype `index`, which is `arch`, has a `T` column.
    #[inline]
    pub(super) fn has<T: Hot>(&self, index: usize, arch: &hecs::Archetype) -> bool {
        match self.0.get(index) {
            Some(at) => place_of::<T>(at).is_some(),
            None => place::<T>(arch) != NONE,
        }
    }

    /// Archetype `index`, which is `arch`, with its places.
    #[inline]
    pub(super) fn placed<'a>(&self, index: usize, arch: &'a hecs::Archetype) -> Placed<'a> {
        let at = match self.0.get(index) {
            Some(at) => *at,
            None => places_in(arch),
        };
        Placed { arch, at }
    }
}

/// One archetype with the places of its [`Hot`] columns.
#[derive(Clone, Copy)]
pub(crate) struct Placed<'a> {
    arch: &'a hecs::Archetype,
    at: [u32; HOT],
}

impl<'a> Placed<'a> {
    /// `T`'s column to read, if the archetype has one.
    #[inline]
    pub fn read<T: Hot>(&self) -> Option<Column<'a, T>> {
        borrows::<&T>();
        let at = self.place::<T>()?;
        <<&T as Query>::Fetch as Fetch>::borrow(self.arch, at);
        // SAFETY: the shared borrow just counted keeps the rows from being changed until
        // `Column` releases it.
        let column = unsafe { rows(self.arch, at) };
        Some(Column {
            arch: Some(self.arch),
            at,
            column,
        })
    }

    /// `T`'s column to change, if the archetype has one.
    #[inline]
    pub fn write<T: Hot>(&self) -> Option<ColumnMut<'a, T>> {
        borrows::<&mut T>();
        let at = self.place::<T>()?;
        <<&mut T as Query>::Fetch as Fetch>::borrow(self.arch, at);
        // SAFETY: as in `read`; the unique borrow just counted keeps every other reference
        // to them away until `ColumnMut` releases it.
        let column = unsafe { rows_mut(self.arch, at) };
        Some(ColumnMut {
            arch: self.arch,
            at,
            column,
        })
    }

    /// Whether its entities have `T` (not a read of `T`'s values).
    #[inline]
    pub fn has<T: Hot>(&self) -> bool {
        place_of::<T>(&self.at).is_some()
    }

    #[inline]
    fn place<T: Hot>(&self) -> Option<usize> {
        place_of::<T>(&self.at)
    }

    #[inline]
    pub fn len(&self) -> u32 {
        self.arch.len()
    }

    #[inline]
    pub fn is_empty(&self) -> bool {
        self.arch.is_empty()
    }

    /// Its entities' ids, row by row.
    #[inline]
    pub fn ids(&self) -> &'a [u32] {
        self.arch.ids()
    }
}

/// The rows of `T`'s column at place `at` of `arch`: they lie one after another from row 0
/// (hecs's own columns are these slices).
///
/// # Safety
///
/// Nothing changes them while the slice lives.
#[inline]
unsafe fn rows<T: hecs::Component>(arch: &hecs::Archetype, at: usize) -> &[T] {
    let fetch = <<&T as Query>::Fetch as Fetch>::execute(arch, at);
    match arch.len() as usize {
        0 => &[],
        // SAFETY: `n` rows from the first, unchanged while borrowed, as the caller promises.
        n => unsafe { std::slice::from_raw_parts(<&T as Query>::get(&[], &fetch, 0), n) },
    }
}

/// [`rows`] to change.
///
/// # Safety
///
/// No other reference reaches them while the slice lives.
// The rows are reached through hecs's raw column pointer, not through the shared archetype
// reference: the caller's contract, not the borrow of `arch`, makes them unique.
#[allow(clippy::mut_from_ref)]
#[inline]
unsafe fn rows_mut<T: hecs::Component>(arch: &hecs::Archetype, at: usize) -> &mut [T] {
    let fetch = <<&mut T as Query>::Fetch as Fetch>::execute(arch, at);
    match arch.len() as usize {
        0 => &mut [],
        // SAFETY: `n` rows from the first, reached by nothing else, as the caller promises.
        n => unsafe {
            let first: *mut T = <&mut T as Query>::get(&[], &fetch, 0);
            std::slice::from_raw_parts_mut(first, n)
        },
    }
}

/// A world's archetypes read with no borrow counted ([`Ecs::freeze`](super::ecs::Ecs::freeze)).
///
/// Invariant: made only from the world borrowed uniquely for `'a`, and it only reads: while
/// it lives nothing can change the world or borrow it otherwise, so its columns' rows stay
/// as they are, on any number of threads. (A counted borrow is an atomic add, and another to
/// release it: the state hash takes up to fourteen columns an archetype every tick.)
#[derive(Clone, Copy)]
pub(crate) struct Frozen<'a>(Placed<'a>);

impl<'a> Frozen<'a> {
    /// # Safety
    ///
    /// `placed` is an archetype of a world borrowed uniquely for `'a` and only read meanwhile
    /// (the invariant).
    #[inline]
    pub(super) unsafe fn new(placed: Placed<'a>) -> Frozen<'a> {
        Frozen(placed)
    }

    /// `T`'s column to read, if the archetype has one.
    #[inline]
    pub fn read<T: Hot>(&self) -> Option<Column<'a, T>> {
        borrows::<&T>();
        let (arch, at) = (self.0.arch, self.0.place::<T>()?);
        // SAFETY: nothing changes the world for `'a` (the invariant).
        let column = unsafe { rows(arch, at) };
        Some(Column {
            arch: None,
            at,
            column,
        })
    }

    /// Whether its entities have `T` (not a read of `T`'s values).
    #[inline]
    pub fn has<T: Hot>(&self) -> bool {
        self.0.has::<T>()
    }

    #[inline]
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

/// A world's archetype read and changed with no borrow counted ([`ThawedEcs`]): for the tick's
/// passes over a few columns of every archetype, where a hecs query looked each column up in
/// every archetype every tick.
///
/// Invariant: made only from a world borrowed uniquely for `'a`, each archetype at most once
/// at a time ([`ThawedEcs::archetypes`] borrows its view uniquely); of its columns, each is
/// taken to change at most once and never both to change and to read (`taken`, checked at every
/// take), so no two references to the same rows are live with one of them unique.
///
/// [`ThawedEcs`]: crate::world::ecs::ThawedEcs
/// [`ThawedEcs::archetypes`]: crate::world::ecs::ThawedEcs::archetypes
pub(crate) struct Thawed<'a> {
    arch: &'a hecs::Archetype,
    /// The places of its columns (kept by [`Places`], not copied for each archetype).
    at: &'a [u32; HOT],
    /// The slots taken to read (bit `SLOT`) and to change (bit `32 + SLOT`).
    taken: std::cell::Cell<u64>,
}

const _: () = assert!(HOT <= 32, "a slot's bit in `Thawed::taken`");

impl<'a> Thawed<'a> {
    /// The place of `T`'s column, if the archetype has one.
    #[inline]
    fn place<T: Hot>(&self) -> Option<usize> {
        place_of::<T>(self.at)
    }

    /// `T`'s rows to read, if the archetype has them.
    ///
    /// # Panics
    ///
    /// Where they are taken to change (a bug of the pass).
    #[inline]
    pub fn read<T: Hot>(&self) -> Option<&'a [T]> {
        borrows::<&T>();
        let at = self.place::<T>()?;
        let taken = self.taken.get();
        assert!(
            taken >> 32 >> T::SLOT & 1 == 0,
            "a column read while changed"
        );
        self.taken.set(taken | 1 << T::SLOT);
        // SAFETY: nothing changes these rows while the slice lives: the world is this view's
        // alone for `'a`, and the column is not given out to change (checked above).
        Some(unsafe { rows(self.arch, at) })
    }

    /// `T`'s rows to change, if the archetype has them.
    ///
    /// # Panics
    ///
    /// Where they are already taken, to read or to change (a bug of the pass).
    #[inline]
    pub fn write<T: Hot>(&self) -> Option<&'a mut [T]> {
        borrows::<&mut T>();
        let at = self.place::<T>()?;
        let taken = self.taken.get();
        assert!(
            (taken | taken >> 32) >> T::SLOT & 1 == 0,
            "a column taken twice"
        );
        self.taken.set(taken | 1 << (32 + T::SLOT));
        // SAFETY: the world is this view's alone for `'a`, and these rows are given out once
        // (checked above): no other reference reaches them while the slice lives.
        Some(unsafe { rows_mut(self.arch, at) })
    }

    /// Whether its entities have `T` (not a read of `T`'s values).
    #[inline]
    pub fn has<T: Hot>(&self) -> bool {
        place_of::<T>(self.at).is_some()
    }

    /// How many entities it holds.
    #[inline]
    pub fn len(&self) -> u32 {
        self.arch.len()
    }

    #[inline]
    pub fn is_empty(&self) -> bool {
        self.arch.is_empty()
    }
}

/// A column taken by [`Placed::read`] (its rows, borrowed until it is dropped) or by
/// [`Frozen::read`] (nothing counted, nothing to release).
pub(crate) struct Column<'a, T: hecs::Component> {
    /// The archetype whose counted borrow the column releases.
    arch: Option<&'a hecs::Archetype>,
    at: usize,
    column: &'a [T],
}

impl<T: hecs::Component> Deref for Column<'_, T> {
    type Target = [T];
    #[inline]
    fn deref(&self) -> &[T] {
        self.column
    }
}

impl<T: hecs::Component> Drop for Column<'_, T> {
    #[inline]
    fn drop(&mut self) {
        if let Some(arch) = self.arch {
            <<&T as Query>::Fetch as Fetch>::release(arch, self.at);
        }
    }
}

/// A column taken by [`Placed::write`]: its rows, borrowed uniquely until it is dropped.
pub(crate) struct ColumnMut<'a, T: hecs::Component> {
    arch: &'a hecs::Archetype,
    at: usize,
    column: &'a mut [T],
}

impl<T: hecs::Component> Deref for ColumnMut<'_, T> {
    type Target = [T];
    #[inline]
    fn deref(&self) -> &[T] {
        self.column
    }
}

impl<T: hecs::Component> DerefMut for ColumnMut<'_, T> {
    #[inline]
    fn deref_mut(&mut self) -> &mut [T] {
        self.column
    }
}

impl<T: hecs::Component> Drop for ColumnMut<'_, T> {
    #[inline]
    fn drop(&mut self) {
        <<&mut T as Query>::Fetch as Fetch>::release(self.arch, self.at);
    }
}

#[cfg(test)]
mod tests;
