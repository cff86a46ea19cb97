//! A collider as the broadphase and the narrow phase see it this tick.

use crate::def::ArchetypeId;
use crate::math::Vec2;

/// One collider as the broadphase sees it this tick.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Body {
    /// Its entity's hecs id (`Entity::id`): the collision pass resolves it to the entity
    /// (`World::find_entity_from_id`, a lookup in hecs's entity table) only for the bodies
    /// whose own components it writes, while no entity comes or goes.
    pub id: u32,
    pub seq: u64,
    /// Its archetype, whose tags are its own ([`GameDef::tags_of`](crate::def::GameDef::tags_of)).
    pub archetype: ArchetypeId,
    pub pos: Vec2,
    pub trigger: bool,
    /// Its push properties: an index into [`Broadphase::physics`](super::Broadphase), or
    /// [`Body::PLAIN`] for a dynamic body of mass 1 without bounce, friction or footing (the
    /// common case, whose pushes are plain half-and-half corrections).
    pub phys: u32,
}

/// What an archetype's colliders look for and report (the same for every one of them; see
/// [`Broadphase::flags`](super::Broadphase)).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Flags {
    pub mask: u32,
    pub push: u32,
    pub trigger: bool,
    pub stay: bool,
    /// A static body: it never moves (walls, a tile map's solid tiles).
    pub fixed: bool,
}

/// How a body that is not plain takes part in pushes.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Phys {
    /// 0 for static and kinematic bodies: never pushed.
    pub inv_mass: f32,
    /// Its pushing contacts change velocities (a non-dynamic body, or one with a bounce).
    pub responds: bool,
    /// Restitution (0 without one).
    pub bounce: f32,
    pub friction: f32,
    /// Platformer control wants to know when it stands on something.
    pub footing: bool,
}

impl Phys {
    /// A plain body's properties.
    pub const PLAIN: Phys = Phys {
        inv_mass: 1.0,
        responds: false,
        bounce: 0.0,
        friction: 0.0,
        footing: false,
    };
}

impl Body {
    pub const PLAIN: u32 = u32::MAX;
}
