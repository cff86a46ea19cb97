//! What a kind of entity is: its look, collider, health, behaviour, control and cooldowns.

use crate::frame::input::ActionId;
use crate::math::{Color, Vec2};
use serde::{Deserialize, Serialize};

use super::{
    AnimationDef, AssetId, AttachDef, BehaviourDef, BodyKind, ControlKind, MotionDef, RotationDef,
};

/// One kind of entity.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ArchetypeDef {
    pub name: String,
    pub sprite: Option<SpriteDef>,
    pub collider: Option<ColliderDef>,
    pub health: Option<HealthDef>,
    /// Movement speed in world units per second for behaviours and player control.
    pub speed: f32,
    /// Initial velocity in world units per second.
    pub velocity: Vec2,
    pub behaviour: Option<BehaviourDef>,
    pub control: Option<ControlDef>,
    /// Named cooldowns and their lengths in ticks; a slot's index is its position here.
    pub cooldowns: Vec<CooldownDef>,
    /// Ticks until the entity expires (an `expired` event, then it is destroyed).
    pub lifetime: Option<u32>,
    /// Tag set (bits of [`GameDef::tags`](crate::GameDef::tags)).
    pub tags: u64,
    pub bounds: BoundsPolicy,
    /// How far past the level's bounds its `bounds` rule applies, in world units (negative:
    /// inside them); 0 for the level's bounds themselves.
    pub bounds_margin: f32,
    /// Destroyed once it has been in the camera's view and then is out of it by more than its
    /// size (an `expired` event with reason `offscreen`).
    pub offscreen_destroy: bool,
    /// The camera follows the first live entity of an archetype with this set.
    pub camera_target: bool,
    /// Gravity, drag and a speed limit; `None`: none of them.
    pub motion: Option<MotionDef>,
    /// An angle and how it changes; `None`: it never turns (and draws unrotated).
    pub rotation: Option<RotationDef>,
    /// Animations of its sprite's frames; the first plays from spawn.
    pub animations: Vec<AnimationDef>,
    /// Text drawn with it.
    pub label: Option<LabelDef>,
    /// What each spawned entity of it is attached to.
    pub attach: Option<AttachDef>,
    /// The damage it does to what it touches, without a script.
    #[serde(default)]
    pub contact_damage: Option<ContactDamageDef>,
}

impl ArchetypeDef {
    /// The speed of an archetype that sets none.
    pub const SPEED: f32 = 0.0;
    /// The initial velocity of an archetype that sets none.
    pub const VELOCITY: Vec2 = Vec2::ZERO;
    /// Whether an archetype that does not say is followed by the camera.
    pub const CAMERA_TARGET: bool = false;
    /// The margin past the level's bounds of an archetype that sets none.
    pub const BOUNDS_MARGIN: f32 = 0.0;

    /// Whether its collider has no size of its own: a static collider with neither a size nor
    /// a sprite to take one from, which only a tile map's solid tiles (or a `size` given
    /// where it is placed or spawned) size. Its shape is then empty.
    pub fn sized_by_tiles(&self) -> bool {
        self.collider.is_some_and(|c| {
            c.body == super::BodyKind::Static && c.shape.half_extents() == Vec2::ZERO
        })
    }

    /// The area its bounds rule keeps it in, in a level of bounds `level`.
    pub fn bounds_area(&self, level: crate::math::Rect) -> crate::math::Rect {
        if self.bounds_margin == 0.0 {
            level
        } else {
            level.grown(self.bounds_margin)
        }
    }
}

impl Default for ArchetypeDef {
    /// An unnamed archetype with no components, standing still.
    fn default() -> Self {
        ArchetypeDef {
            name: String::new(),
            sprite: None,
            collider: None,
            health: None,
            speed: ArchetypeDef::SPEED,
            velocity: ArchetypeDef::VELOCITY,
            behaviour: None,
            control: None,
            cooldowns: Vec::new(),
            lifetime: None,
            tags: 0,
            bounds: BoundsPolicy::default(),
            bounds_margin: ArchetypeDef::BOUNDS_MARGIN,
            offscreen_destroy: false,
            camera_target: ArchetypeDef::CAMERA_TARGET,
            motion: None,
            rotation: None,
            animations: Vec::new(),
            label: None,
            attach: None,
            contact_damage: None,
        }
    }
}

/// Text an entity carries, drawn in the world above the sprites, centred on the entity plus
/// `offset`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct LabelDef {
    pub text: String,
    /// Height of a line in world units.
    pub size: f32,
    pub color: Color,
    pub offset: Vec2,
    /// The font it is drawn in (`None`: the game's font, else the bundled one).
    pub font: Option<crate::FontId>,
}

impl LabelDef {
    /// The text of a label that sets none.
    pub const TEXT: &'static str = "";
    /// The line height of a label that sets none, in world units.
    pub const SIZE: f32 = 16.0;
    /// The colour of a label that sets none.
    pub const COLOR: Color = Color::WHITE;
    /// Where a label that sets no offset is centred, from its entity.
    pub const OFFSET: Vec2 = Vec2::ZERO;

    /// The built-in archetype `ludus.text` spawns when a game declares no `text` archetype:
    /// a label of the default size and colour that lasts a second at 60 Hz.
    pub fn text_archetype() -> ArchetypeDef {
        ArchetypeDef {
            name: "text".into(),
            lifetime: Some(60),
            label: Some(LabelDef {
                text: LabelDef::TEXT.into(),
                size: LabelDef::SIZE,
                color: LabelDef::COLOR,
                offset: LabelDef::OFFSET,
                font: None,
            }),
            ..ArchetypeDef::default()
        }
    }
}

/// What happens at the level's bounds.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum BoundsPolicy {
    #[default]
    Ignore,
    /// Kept inside; velocity into the wall is removed.
    Confine,
    /// Destroyed when its centre leaves the bounds (an `expired` event with reason `bounds`).
    Destroy,
    /// Kept inside; velocity into the wall is reflected (scaled by the collider's `bounce`,
    /// 1 without one).
    Bounce,
    /// Leaving one edge enters at the opposite one, velocity unchanged.
    Wrap,
}

/// How an entity is drawn.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SpriteDef {
    pub shape: SpriteShape,
    /// Width and height in world units.
    pub size: Vec2,
    pub color: Color,
    /// Draw order: lower layers first, then lower depth, then creation order.
    pub layer: i16,
    pub depth: f32,
    /// The frame of its image drawn when no animation plays.
    pub frame: u16,
    /// Drawn mirrored left to right.
    pub flip_x: bool,
    /// Drawn mirrored top to bottom.
    pub flip_y: bool,
    /// Opacity from 0 (not seen) to 1, multiplying the colour's own alpha.
    pub alpha: f32,
}

impl SpriteDef {
    /// The width and height of a sprite that sets no size and draws no image, in world units.
    pub const SIZE: f32 = 16.0;
    /// The largest width or height of a sprite or a collider (content's bound of every size,
    /// radius and cell), in world units.
    pub const SIZE_MAX: f32 = 1_000_000.0;
    /// The colour (an image's tint) of a sprite that sets none.
    pub const COLOR: Color = Color::WHITE;
    /// The draw layer of a sprite that sets none.
    pub const LAYER: i16 = 0;
    /// The depth inside its layer of a sprite that sets none.
    pub const DEPTH: f32 = 0.0;
    /// The frame of its image a sprite draws when it sets none and no animation plays.
    pub const FRAME: u16 = 0;
    /// Whether a sprite that does not say is drawn mirrored.
    pub const FLIP_X: bool = false;
    /// Whether a sprite that does not say is drawn upside down (mirrored top to bottom).
    pub const FLIP_Y: bool = false;
    /// The opacity of a sprite that sets none.
    pub const ALPHA: f32 = 1.0;
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum SpriteShape {
    Circle,
    Rect,
    /// A textured quad; the renderer draws a placeholder if the image is missing.
    Image(AssetId),
}

/// Collision shape, centred on the entity.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub enum Shape {
    Circle { radius: f32 },
    Box { half: Vec2 },
}

impl Shape {
    /// Whether a size of it is NaN (then it equals no shape, itself included).
    pub fn is_nan(&self) -> bool {
        match *self {
            Shape::Circle { radius } => radius.is_nan(),
            Shape::Box { half } => half.x.is_nan() || half.y.is_nan(),
        }
    }

    /// Radius of the smallest circle around the shape.
    pub fn extent(&self) -> f32 {
        match *self {
            Shape::Circle { radius } => radius,
            Shape::Box { half } => half.length(),
        }
    }

    /// Half-size of the bounding box.
    pub fn half_extents(&self) -> Vec2 {
        match *self {
            Shape::Circle { radius } => Vec2::new(radius, radius),
            Shape::Box { half } => half,
        }
    }

    /// The same kind of shape fitted to a sprite of `size` (width, height): a box of that
    /// size, or a circle of [`Shape::circle_radius`]. A sprite's size makes its collider's
    /// shape this way, when the collider gives none, and so does a spawn's `size`.
    pub fn sized(&self, size: Vec2) -> Shape {
        match self {
            Shape::Circle { .. } => Shape::Circle {
                radius: Shape::circle_radius(size),
            },
            Shape::Box { .. } => Shape::Box { half: size * 0.5 },
        }
    }

    /// The radius of a circle fitted to `size`: half the larger side (a circle round the
    /// sprite's shape, as wide as it at its widest).
    pub fn circle_radius(size: Vec2) -> f32 {
        size.x.max(size.y) * 0.5
    }
}

/// A collider. A pair is reported when either side's `mask` contains the other's `layer`;
/// a pair is pushed apart when either side's `push` contains the other's `layer` and neither is
/// a trigger.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct ColliderDef {
    pub shape: Shape,
    pub layer: u32,
    pub mask: u32,
    pub push: u32,
    /// Reports trigger events instead of collision events and is never pushed.
    pub trigger: bool,
    /// Also report a `stay` event every tick the contact lasts.
    pub stay: bool,
    pub body: BodyKind,
    /// Pushes between dynamic bodies split by mass (> 0).
    pub mass: f32,
    /// Restitution on pushing contacts, 0 to 1; the larger of the two bodies' applies. `None`
    /// (on both): dynamic bodies push each other apart and keep their velocities.
    pub bounce: Option<f32>,
    /// Friction on pushing contacts, 0 to 1 (the larger of the two applies).
    pub friction: f32,
}

impl ColliderDef {
    /// Whether a collider that does not say is a trigger.
    pub const TRIGGER: bool = false;
    /// Whether a collider that does not say reports `stay` events.
    pub const STAY: bool = false;
    /// The mass of a collider that sets none.
    pub const MASS: f32 = 1.0;
    /// The friction of a collider that sets none.
    pub const FRICTION: f32 = 0.0;

    /// A collider of `shape` on `layer`, reporting `mask` and pushed apart from `push`, with
    /// every other field at its default: the constants above, the default [`BodyKind`], no
    /// bounce.
    pub fn new(shape: Shape, layer: u32, mask: u32, push: u32) -> ColliderDef {
        ColliderDef {
            shape,
            layer,
            mask,
            push,
            trigger: ColliderDef::TRIGGER,
            stay: ColliderDef::STAY,
            body: BodyKind::default(),
            mass: ColliderDef::MASS,
            bounce: None,
            friction: ColliderDef::FRICTION,
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct HealthDef {
    pub max: i32,
    /// Ticks of invulnerability after taking damage (0: none).
    pub invulnerable_ticks: u32,
}

impl HealthDef {
    /// The invulnerability of a health that sets none, in ticks.
    pub const INVULNERABLE_TICKS: u32 = 0;
}

/// Damage an entity does to what it touches, applied by Rust with stage 1's commands (before
/// the commands scripts send), as `ludus.damage(target, amount, id)` would: blocked while the
/// target is invulnerable, once its health has reached 0, and when the target has no health.
///
/// Invariant: `amount >= 1` and `to != 0` (content checks both).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ContactDamageDef {
    /// Health taken by each hit.
    pub amount: i32,
    /// Tag bits of what it hurts: an entity with any of them.
    pub to: u64,
    /// Only on the tick a contact begins; otherwise on every tick it lasts as well (the
    /// target's invulnerability spacing the hits).
    pub once: bool,
}

impl ContactDamageDef {
    /// The damage of a hit that sets none.
    pub const AMOUNT: i32 = 1;
    /// Whether contact damage that does not say hits only when a contact begins.
    pub const ONCE: bool = false;

    /// Whether it hurts an entity of tags `tags` in a contact that began this tick (`begun`)
    /// or began before and lasts.
    #[inline]
    pub fn hits(&self, tags: u64, begun: bool) -> bool {
        tags & self.to != 0 && (begun || !self.once)
    }
}

/// Player control of an entity.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct ControlDef {
    pub kind: ControlKind,
    pub move_x: Option<ActionId>,
    pub move_y: Option<ActionId>,
    /// `top_down` only: approach the target velocity at this many units/s² (`None`: at once).
    pub accel: Option<f32>,
    /// Button actions that raise `action` events for this entity.
    pub triggers: Vec<TriggerDef>,
}

/// An action that raises an event for the controlled entity.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TriggerDef {
    pub action: ActionId,
    pub on: TriggerOn,
    /// Cooldown slot gating the event; it restarts whenever the event fires.
    pub cooldown: Option<u8>,
    /// Tag set to aim at: the event carries the direction to the nearest live entity with any
    /// of these tags (the facing when there is none). 0: no aiming.
    pub aim: u64,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum TriggerOn {
    /// The tick the button went down.
    Press = 0,
    /// Every tick it is held (gated by the cooldown).
    Hold = 1,
    /// The tick it went up.
    Release = 2,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct CooldownDef {
    pub name: String,
    pub ticks: u32,
}
