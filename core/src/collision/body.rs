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
    pub shape: Shape,
    pub layer: u32,
    pub mask: u32,
    pub push: u32,
    pub trigger: bool,
    pub stay: bool,
}

impl Body {
    pub(crate) fn queries(&self) -> u32 {
        self.mask | self.push
    }
}
