//! A collider as the broadphase and the narrow phase see it this tick.

use crate::def::{ArchetypeId, Shape};
use crate::math::Vec2;

/// One collider as the broadphase sees it this tick.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Body {
    pub entity: hecs::Entity,
    pub seq: u64,
    pub archetype: ArchetypeId,
    pub tags: u64,
    pub pos: Vec2,
    pub vel: Vec2,
    pub shape: Shape,
    pub layer: u32,
    pub mask: u32,
    pub push: u32,
    pub trigger: bool,
    pub stay: bool,
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

impl Body {
    pub(crate) fn queries(&self) -> u32 {
        self.mask | self.push
    }
}
