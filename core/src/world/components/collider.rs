//! An entity's collider: its own ([`Collider`]) or its archetype's ([`SharedCollider`]), and
//! the view of an archetype's rows that reads either ([`Colliders`]).

use crate::def::{ArchetypeId, ColliderDef, GameDef, Shape};
use crate::math::Vec2;
use crate::world::components::Identity;
use serde::{Deserialize, Serialize};

/// An entity's collider: its archetype's `[collider]` (layers, flags, body: see
/// [`Collider::def`]) with the entity's own shape (a spawn's size override sets it).
///
/// Fixed at spawn. Small and without padding on purpose: the passes over every collider read
/// this column each tick, comparing each row with its neighbour ([`Collider::key`]), and
/// consecutive rows of one archetype and shape form one run of the broadphase.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Collider {
    pub archetype: ArchetypeId,
    /// 0: a circle of radius `a`; 1: a box of half size `(a, b)`.
    kind: u16,
    a: f32,
    b: f32,
}

/// Collides with its archetype's `[collider]` as declared (`collider` of its
/// [`Identity::archetype`], see [`Collider::declared`]): the entities of an archetype share
/// it rather than each holding a copy ([`Collider`], 12 bytes), so this marker takes no memory
/// per entity. An entity has at most one of the two.
///
/// Held exactly where [`Drawn`](super::Drawn) is held by an entity whose archetype declares a collider (a
/// spawn that changed neither its colour nor its size), and a [`Collider`] elsewhere: a
/// spawn's size override, or an archetype with no sprite. So which entities share a hecs
/// archetype, and their order in it, is what it was when every such entity held its own
/// collider: the order of the events and records that follow the rows is unchanged.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct SharedCollider;

/// The colliders of one hecs archetype's rows: their own column, or, for rows that hold
/// [`SharedCollider`], each row's archetype's declared collider (the identities say which).
#[derive(Clone, Copy)]
pub(crate) enum Colliders<'a> {
    Own(&'a [Collider]),
    Shared(&'a [Identity], &'a GameDef),
}

impl<'a> Colliders<'a> {
    /// The rows' colliders, where `own` is their column (if the archetype has one) and
    /// `ids` their identities; `None` where the rows have no collider (`shared`: whether
    /// they hold [`SharedCollider`]).
    #[inline]
    pub(crate) fn of(
        own: Option<&'a [Collider]>,
        shared: bool,
        ids: Option<&'a [Identity]>,
        def: &'a GameDef,
    ) -> Option<Colliders<'a>> {
        match (own, ids) {
            (Some(c), _) => Some(Colliders::Own(c)),
            (None, Some(ids)) if shared => Some(Colliders::Shared(ids, def)),
            _ => None,
        }
    }

    /// Row `i`'s collider.
    #[inline(always)]
    pub(crate) fn get(&self, i: usize) -> Collider {
        match *self {
            Colliders::Own(c) => c[i],
            Colliders::Shared(ids, def) => Collider::declared(def, ids[i].archetype),
        }
    }

    /// Row `i`'s archetype and whole collider (as [`Collider::def`] gives it), with one
    /// lookup in the definition.
    #[inline(always)]
    pub(crate) fn def(&self, i: usize, def: &GameDef) -> (ArchetypeId, ColliderDef) {
        match *self {
            Colliders::Own(c) => (c[i].archetype, c[i].def(def)),
            Colliders::Shared(ids, d) => {
                let a = ids[i].archetype;
                let c = d.archetypes.get(a.0 as usize).and_then(|a| a.collider);
                let none = || ColliderDef::new(Shape::Circle { radius: 0.0 }, 0, 0, 0);
                (a, c.unwrap_or_else(none))
            }
        }
    }

    /// What the broadphase records of row `i`: its archetype, shape, layer, and the layers it
    /// looks for (mask and push), as [`def`](Self::def) gives them, read in place (no copy of
    /// the whole definition).
    #[inline(always)]
    pub(crate) fn record(&self, i: usize, def: &GameDef) -> (ArchetypeId, Shape, u32, u32) {
        let (a, own, def) = match *self {
            Colliders::Own(c) => (c[i].archetype, Some(c[i].shape()), def),
            Colliders::Shared(ids, d) => (ids[i].archetype, None, d),
        };
        match def
            .archetypes
            .get(a.0 as usize)
            .and_then(|x| x.collider.as_ref())
        {
            Some(d) => (a, own.unwrap_or(d.shape), d.layer, d.mask | d.push),
            None => (a, own.unwrap_or(Shape::Circle { radius: 0.0 }), 0, 0),
        }
    }

    /// How many of rows `rest` in a row from its start have row `i`'s [`record`](Self::record),
    /// whose shape is `shape`: the same archetype, and the same shape where the rows hold their
    /// own (bit for bit). None where `shape` has a NaN: it equals no shape, so the
    /// broadphase's runs never take a second collider of it.
    #[inline(always)]
    pub(crate) fn same_as(&self, i: usize, shape: Shape, rest: std::ops::Range<usize>) -> usize {
        let more = match *self {
            Colliders::Own(c) => {
                let key = c[i].key();
                c[rest].iter().take_while(|o| o.key() == key).count()
            }
            Colliders::Shared(ids, _) => {
                let a = ids[i].archetype;
                ids[rest].iter().take_while(|o| o.archetype == a).count()
            }
        };
        if more > 0 && shape.is_nan() { 0 } else { more }
    }

    /// The number of rows.
    #[inline]
    pub(crate) fn len(&self) -> usize {
        match self {
            Colliders::Own(c) => c.len(),
            Colliders::Shared(ids, _) => ids.len(),
        }
    }

    /// Rows `r`.
    #[inline]
    pub(crate) fn slice(&self, r: std::ops::Range<usize>) -> Colliders<'a> {
        match *self {
            Colliders::Own(c) => Colliders::Own(&c[r]),
            Colliders::Shared(ids, def) => Colliders::Shared(&ids[r], def),
        }
    }
}

impl Collider {
    /// Archetype `archetype`'s collider with shape `shape`.
    pub fn new(archetype: ArchetypeId, shape: Shape) -> Collider {
        let (kind, a, b) = match shape {
            Shape::Circle { radius } => (0, radius, 0.0),
            Shape::Box { half } => (1, half.x, half.y),
        };
        Collider {
            archetype,
            kind,
            a,
            b,
        }
    }

    #[inline(always)]
    pub fn shape(&self) -> Shape {
        if self.kind == 0 {
            Shape::Circle { radius: self.a }
        } else {
            Shape::Box {
                half: Vec2::new(self.a, self.b),
            }
        }
    }

    /// Archetype `archetype`'s collider as `def` declares it (what a [`SharedCollider`]
    /// entity collides with); a circle of radius 0 if `def` declares none there.
    #[inline]
    pub fn declared(def: &GameDef, archetype: ArchetypeId) -> Collider {
        let shape = def
            .archetypes
            .get(archetype.0 as usize)
            .and_then(|a| a.collider)
            .map_or(Shape::Circle { radius: 0.0 }, |c| c.shape);
        Collider::new(archetype, shape)
    }

    /// An entity's collider: its own, or its archetype's (`archetype`, declared in `def`)
    /// where it holds a [`SharedCollider`]; `None` for one without a collider.
    #[inline]
    pub fn either(
        own: Option<&Collider>,
        shared: Option<&SharedCollider>,
        def: &GameDef,
        archetype: ArchetypeId,
    ) -> Option<Collider> {
        match (own, shared) {
            (Some(c), _) => Some(*c),
            (None, Some(_)) => Some(Collider::declared(def, archetype)),
            (None, None) => None,
        }
    }

    /// The archetype, the kind of shape and the shape's bits: equal keys are the same
    /// collider, bit for bit.
    #[inline(always)]
    pub fn key(&self) -> [u32; 3] {
        [
            u32::from(self.archetype.0) | u32::from(self.kind) << 16,
            self.a.to_bits(),
            self.b.to_bits(),
        ]
    }

    /// The whole collider: the archetype's declaration in `def` (the definition the world was
    /// built from) with this entity's shape; one with no layers if `def` declares none there.
    #[inline]
    pub fn def(&self, def: &GameDef) -> ColliderDef {
        match def
            .archetypes
            .get(self.archetype.0 as usize)
            .and_then(|a| a.collider)
        {
            Some(c) => ColliderDef {
                shape: self.shape(),
                ..c
            },
            None => ColliderDef::new(self.shape(), 0, 0, 0),
        }
    }
}
