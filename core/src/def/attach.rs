//! Attachment as an archetype declares it: spawned entities of the archetype are attached to
//! an entity with a tag (see [`AttachDef`]).

use crate::math::Vec2;
use serde::{Deserialize, Serialize};

/// `attach = { to = "tag", offset = [x, y] }`: each entity of the archetype, when it is
/// spawned, is attached (as `ludus.attach` does) to the nearest entity carrying any of the
/// tags `to` that exists once the spawns of its Commit (or its level) are made, other than
/// itself and anything attached to it; ties go to the earliest created. When there is none it
/// stays unattached, and the world counts it ([`WorldCounters::unattached`]).
///
/// [`WorldCounters::unattached`]: crate::WorldCounters::unattached
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct AttachDef {
    /// Tag set of the parents it may be attached to (not empty).
    pub to: u64,
    /// Its position from the parent's, in world units.
    pub offset: Vec2,
    /// The offset turns with the parent's angle and its angle follows the parent's.
    pub angle: bool,
}

impl AttachDef {
    /// The offset of an attachment that sets none.
    pub const OFFSET: Vec2 = Vec2::ZERO;
    /// Whether an attachment that does not say turns with its parent.
    pub const ANGLE: bool = false;
}
