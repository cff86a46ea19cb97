//! A game's definition as plain data: what TOML content becomes, and what a Rust user can build
//! by hand. Nothing here knows about files or TOML.

use crate::frame::bindings::KeyBinding;
use crate::frame::clock::TickPolicy;
use crate::frame::input::{ActionId, ActionSet};
use crate::frame::mode::Mode;
pub use crate::limits::Limits;
use crate::math::{Color, Rect, Vec2};
use crate::var::Var;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// Index of an archetype in [`GameDef::archetypes`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct ArchetypeId(pub u16);

/// Index of an effect in [`GameDef::effects`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct EffectId(pub u16);

/// Index of a sound in [`GameDef::sounds`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct SoundId(pub u16);

/// Index of an image in [`GameDef::assets`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct AssetId(pub u16);

/// The most tags a game may declare (one bit each).
pub const MAX_TAGS: usize = 64;
/// The most collision layers a game may declare (one bit each).
pub const MAX_LAYERS: usize = 32;

/// Everything a game declares.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GameDef {
    pub name: String,
    pub tick: TickPolicy,
    pub ai: AiPolicy,
    pub limits: Limits,
    pub actions: ActionSet,
    pub bindings: Vec<KeyBinding>,
    /// Seed of the world's random generator (scripts and behaviours draw from it).
    pub seed: u64,
    /// Tag names; a tag's index is its bit in an entity's tag set.
    pub tags: Vec<String>,
    /// Collision layer names; a layer's index is its bit in layer masks.
    pub layers: Vec<String>,
    pub archetypes: Vec<ArchetypeDef>,
    pub effects: Vec<EffectDef>,
    pub sounds: Vec<SoundDef>,
    /// Logical image references (paths inside the game folder).
    pub assets: Vec<String>,
    pub levels: Vec<LevelDef>,
    pub entry_level: usize,
    /// The archetype `--entities N` fills the level with, if the game defines one.
    pub stress: Option<StressDef>,
    pub physics: PhysicsDef,
    pub scripts: ScriptsDef,
    /// Named constants scripts may read.
    pub constants: BTreeMap<String, Constant>,
    /// Game variables every new game starts with (`[variables]`); a level switch keeps the
    /// current values instead.
    pub variables: BTreeMap<String, Var>,
    pub window: WindowDef,
    /// HUD lines; `{score}`, `{tick}` and `{name}` of any script variable are substituted.
    pub hud: Vec<HudLine>,
    /// A stable hash of the content this definition was built from (0 when built in code).
    pub content_hash: u64,
}

impl Default for GameDef {
    fn default() -> Self {
        GameDef {
            name: "untitled".into(),
            tick: TickPolicy::default(),
            ai: AiPolicy::default(),
            limits: Limits::default(),
            actions: ActionSet::new(),
            bindings: Vec::new(),
            seed: 0,
            tags: Vec::new(),
            layers: Vec::new(),
            archetypes: Vec::new(),
            effects: Vec::new(),
            sounds: Vec::new(),
            assets: Vec::new(),
            levels: Vec::new(),
            entry_level: 0,
            stress: None,
            physics: PhysicsDef::default(),
            scripts: ScriptsDef::default(),
            constants: BTreeMap::new(),
            variables: BTreeMap::new(),
            window: WindowDef::default(),
            hud: Vec::new(),
            content_hash: 0,
        }
    }
}

impl GameDef {
    pub fn archetype(&self, id: ArchetypeId) -> Option<&ArchetypeDef> {
        self.archetypes.get(id.0 as usize)
    }

    pub fn archetype_id(&self, name: &str) -> Option<ArchetypeId> {
        self.archetypes
            .iter()
            .position(|a| a.name == name)
            .map(|i| ArchetypeId(i as u16))
    }

    pub fn effect_id(&self, name: &str) -> Option<EffectId> {
        self.effects
            .iter()
            .position(|e| e.name == name)
            .map(|i| EffectId(i as u16))
    }

    pub fn sound_id(&self, name: &str) -> Option<SoundId> {
        self.sounds
            .iter()
            .position(|s| s.name == name)
            .map(|i| SoundId(i as u16))
    }

    pub fn level_index(&self, name: &str) -> Option<usize> {
        self.levels.iter().position(|l| l.name == name)
    }

    /// The bit of a tag name.
    pub fn tag_bit(&self, name: &str) -> Option<u64> {
        self.tags.iter().position(|t| t == name).map(|i| 1u64 << i)
    }

    /// Tag names in a tag set, in declaration order.
    pub fn tag_names(&self, bits: u64) -> impl Iterator<Item = &str> {
        self.tags
            .iter()
            .enumerate()
            .filter(move |(i, _)| bits & (1u64 << i) != 0)
            .map(|(_, t)| t.as_str())
    }

    pub fn layer_bit(&self, name: &str) -> Option<u32> {
        self.layers
            .iter()
            .position(|t| t == name)
            .map(|i| 1u32 << i)
    }

    /// The largest collider extent (radius or half-diagonal) any archetype declares.
    pub fn max_collider_extent(&self) -> f32 {
        self.archetypes
            .iter()
            .filter_map(|a| a.collider.as_ref())
            .map(|c| c.shape.extent())
            .fold(0.0, f32::max)
    }
}

/// AI decision policy.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct AiPolicy {
    /// Ticks between decisions of a behaviour that does not set its own cadence (> 0).
    pub default_cadence: u32,
}

impl Default for AiPolicy {
    fn default() -> Self {
        AiPolicy {
            default_cadence: 10,
        }
    }
}

/// One kind of entity.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
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
    /// Tag set (bits of [`GameDef::tags`]).
    pub tags: u64,
    pub bounds: BoundsPolicy,
    /// The camera follows the first live entity of an archetype with this set.
    pub camera_target: bool,
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
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct HealthDef {
    pub max: i32,
    /// Ticks of invulnerability after taking damage (0: none).
    pub invulnerable_ticks: u32,
}

/// A Rust-native behaviour, decided on its cadence.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct BehaviourDef {
    pub kind: BehaviourKind,
    /// Tag set of what chase/flee look for (the nearest live entity with any of these tags).
    pub target: u64,
    /// Ticks between decisions; `None` uses [`AiPolicy::default_cadence`].
    pub cadence: Option<u32>,
    /// Chase along the level's flow field (around obstacles) where one is available.
    pub navigate: bool,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum BehaviourKind {
    /// Move toward the nearest target.
    Chase,
    /// Move away from the nearest target.
    Flee,
    /// Pick a random heading at every decision.
    Wander,
    /// Keep the initial heading.
    Straight,
}

/// Player control of an entity.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct ControlDef {
    pub move_x: Option<ActionId>,
    pub move_y: Option<ActionId>,
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

/// A visual effect scripts can request by name.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct EffectDef {
    pub name: String,
    pub color: Color,
    /// Particles per burst.
    pub particles: u32,
    /// Particle speed in world units per second.
    pub speed: f32,
    /// Particle life in seconds (presentation time).
    pub duration: f32,
    /// Particle size in world units.
    pub size: f32,
}

/// A sound scripts can request by name: a synthesised tone, so games need no audio files.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SoundDef {
    pub name: String,
    pub wave: Wave,
    /// Start and end frequency in Hz (a slide when they differ).
    pub freq: f32,
    pub freq_end: f32,
    pub duration: f32,
    pub volume: f32,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Wave {
    Sine,
    Square,
    Triangle,
    Saw,
    Noise,
}

/// A level: what is placed, what spawns, where the camera looks.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct LevelDef {
    pub name: String,
    /// The playfield; `Confine` and `Destroy` bounds policies use it.
    pub bounds: Rect,
    pub camera: CameraDef,
    pub entry_mode: Mode,
    pub background: Color,
    pub placements: Vec<Placement>,
    pub spawners: Vec<SpawnerDef>,
    /// Navigation grid for `navigate` behaviours (flow fields computed in the background).
    pub nav: Option<crate::nav::NavDef>,
}

impl Default for LevelDef {
    fn default() -> Self {
        LevelDef {
            name: "main".into(),
            bounds: Rect::centered(Vec2::new(800.0, 600.0)),
            camera: CameraDef::default(),
            entry_mode: Mode::Playing,
            background: Color::rgb(20, 22, 30),
            placements: Vec::new(),
            spawners: Vec::new(),
            nav: None,
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct CameraDef {
    /// World units visible (width, height); the window letterboxes to keep the aspect.
    pub view: Vec2,
    /// The camera centre never shows outside this rectangle, when set.
    pub bounds: Option<Rect>,
}

impl Default for CameraDef {
    fn default() -> Self {
        CameraDef {
            view: Vec2::new(800.0, 600.0),
            bounds: None,
        }
    }
}

/// An entity placed by the level.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Placement {
    pub archetype: ArchetypeId,
    pub pos: Vec2,
    pub overrides: Overrides,
}

/// Per-instance changes to an archetype's values.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Overrides {
    pub velocity: Option<Vec2>,
    pub speed: Option<f32>,
    pub health: Option<i32>,
    pub color: Option<Color>,
    pub lifetime: Option<u32>,
}

/// Periodic spawning, decided in the tick.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SpawnerDef {
    pub archetype: ArchetypeId,
    /// Ticks between bursts (> 0).
    pub period: u32,
    /// Entities per burst.
    pub count: u32,
    /// Spawn positions are uniform in this rectangle (world RNG).
    pub area: Rect,
    /// First burst tick.
    pub start: u32,
    /// Stop after this many bursts (`None`: forever).
    pub bursts: Option<u32>,
}

#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct StressDef {
    pub archetype: ArchetypeId,
    /// Where stress entities are placed; the level bounds when `None`.
    pub area: Option<Rect>,
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct PhysicsDef {
    /// Broadphase cell size; by default twice the largest collider extent.
    pub cell_size: Option<f32>,
}

/// Script files and their fences.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ScriptsDef {
    /// Paths relative to the game folder, loaded in order.
    pub files: Vec<String>,
    /// Lua VM instructions per tick across all handlers.
    pub instruction_budget: u64,
    /// Bytes the Lua heap may hold.
    pub memory_limit: usize,
}

impl Default for ScriptsDef {
    fn default() -> Self {
        ScriptsDef {
            files: Vec::new(),
            instruction_budget: 2_000_000,
            memory_limit: 64 * 1024 * 1024,
        }
    }
}

/// A constant scripts can read.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum Constant {
    Bool(bool),
    Int(i64),
    Float(f64),
    Text(String),
}

/// A line of text drawn over the game.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct HudLine {
    /// The text, with `{score}`, `{tick}`, `{entities}` and `{NAME}` of game variables.
    pub text: String,
    pub at: Anchor,
    /// Text height in pixels at a pixel ratio of 1.
    pub size: f32,
    pub color: Color,
}

impl HudLine {
    /// The default size, in pixels.
    pub const SIZE: f32 = 16.0;

    /// A line at the top left in the default size and colour.
    pub fn plain(text: impl Into<String>) -> HudLine {
        HudLine {
            text: text.into(),
            at: Anchor::TopLeft,
            size: Self::SIZE,
            color: Color::WHITE,
        }
    }
}

/// Where on the screen a HUD line sits. Lines at the same anchor stack in declaration order
/// (downward from the top and the middle, upward from the bottom).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum Anchor {
    #[default]
    TopLeft,
    Top,
    TopRight,
    Left,
    Center,
    Right,
    BottomLeft,
    Bottom,
    BottomRight,
}

impl Anchor {
    /// Every anchor, row by row from the top left; [`Anchor::NAMES`] in the same order.
    pub const ALL: [Anchor; 9] = [
        Anchor::TopLeft,
        Anchor::Top,
        Anchor::TopRight,
        Anchor::Left,
        Anchor::Center,
        Anchor::Right,
        Anchor::BottomLeft,
        Anchor::Bottom,
        Anchor::BottomRight,
    ];
    /// The names `at` takes in TOML.
    pub const NAMES: [&'static str; 9] = [
        "top_left",
        "top",
        "top_right",
        "left",
        "center",
        "right",
        "bottom_left",
        "bottom",
        "bottom_right",
    ];

    pub fn from_name(name: &str) -> Option<Anchor> {
        Self::NAMES
            .iter()
            .position(|n| *n == name)
            .map(|i| Self::ALL[i])
    }

    /// Horizontal and vertical placement: 0 start, 1 middle, 2 end.
    pub fn grid(self) -> (u8, u8) {
        let i = Self::ALL.iter().position(|a| *a == self).unwrap_or(0) as u8;
        (i % 3, i / 3)
    }
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct WindowDef {
    pub title: String,
    pub width: u32,
    pub height: u32,
}

impl Default for WindowDef {
    fn default() -> Self {
        WindowDef {
            title: "Ludus".into(),
            width: 1024,
            height: 768,
        }
    }
}
