//! A game's definition as plain data: what TOML content becomes, and what a Rust user can build
//! by hand. Nothing here knows about files or TOML.

use crate::frame::bindings::KeyBinding;
use crate::frame::clock::TickPolicy;
use crate::frame::input::{ActionId, ActionSet};
pub use crate::limits::Limits;
use crate::math::Vec2;
use crate::var::Var;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

mod archetype;
mod attach;
mod behaviour;
mod hud;
mod ids;
mod level;
mod look;
mod motion;
mod present;
mod tiles;
mod touch;

pub use archetype::*;
pub use attach::*;
pub use behaviour::*;
pub use hud::*;
pub use ids::*;
pub use level::*;
pub use look::*;
pub use motion::*;
pub use present::*;
pub use tiles::*;
pub use touch::*;

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
    /// The keys a script may bind at run time (`ludus.bind`): every key content may bind
    /// (content's key list), in its order.
    pub bindable_keys: Vec<String>,
    /// How far a gamepad's stick or trigger may be off rest and still read 0 (`[input]
    /// deadzone`, 0 to 0.9). The app applies it before input reaches the bridge, so ticks and
    /// recordings see the values after it.
    pub deadzone: f32,
    /// Seed of the world's random generator (scripts and behaviours draw from it).
    pub seed: u64,
    /// Tag names; a tag's index is its bit in an entity's tag set.
    pub tags: Vec<String>,
    /// Collision layer names; a layer's index is its bit in layer masks.
    pub layers: Vec<String>,
    pub archetypes: Vec<ArchetypeDef>,
    pub effects: Vec<EffectDef>,
    pub sounds: Vec<SoundDef>,
    /// Music tracks: sound files that loop (`file` always set).
    pub music: Vec<SoundDef>,
    /// Images: `[images.NAME]` and those sprites name by path; [`AssetId`] indexes it.
    pub images: Vec<ImageDef>,
    /// Fonts: `[fonts.NAME]`; [`FontId`] indexes it.
    pub fonts: Vec<FontDef>,
    /// The font labels and HUD lines use when they name none (`None`: the bundled font).
    pub font: Option<FontId>,
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
    pub flow: FlowDef,
    /// On-screen controls for touch screens (`[touch]`).
    pub touch: TouchDef,
    /// What is drawn over the game, in declaration order.
    pub hud: Vec<HudItem>,
    /// What `ludus export` leaves out of the game folder.
    pub export: ExportDef,
    /// A stable hash of the content this definition was built from (0 when built in code).
    pub content_hash: u64,
}

impl Default for GameDef {
    fn default() -> Self {
        GameDef {
            name: "untitled".into(),
            tick: TickPolicy::DEFAULT,
            ai: AiPolicy::DEFAULT,
            limits: Limits::DEFAULT,
            actions: ActionSet::new(),
            bindings: Vec::new(),
            bindable_keys: Vec::new(),
            deadzone: GameDef::DEADZONE,
            seed: GameDef::SEED,
            tags: Vec::new(),
            layers: Vec::new(),
            archetypes: Vec::new(),
            effects: Vec::new(),
            sounds: Vec::new(),
            music: Vec::new(),
            images: Vec::new(),
            fonts: Vec::new(),
            font: None,
            levels: Vec::new(),
            entry_level: 0,
            stress: None,
            physics: PhysicsDef::DEFAULT,
            scripts: ScriptsDef::default(),
            constants: BTreeMap::new(),
            variables: BTreeMap::new(),
            window: WindowDef::default(),
            flow: FlowDef::default(),
            touch: TouchDef::default(),
            hud: Vec::new(),
            export: ExportDef::default(),
            content_hash: 0,
        }
    }
}

impl GameDef {
    /// Why `--entities`, `ludus bench` or the page's ladder (`what`) cannot run on a game
    /// without `[stress]`, and the game.toml lines that let it: one message for all three.
    pub fn no_stress(&self, what: &str) -> String {
        let example = self.archetypes.first().map_or("NAME", |a| a.name.as_str());
        format!(
            "this game declares no [stress] archetype, so {what} cannot be used: add \
             `[stress]` with `archetype = \"{example}\"` (the archetype to fill the level \
             with) to game.toml"
        )
    }

    /// The seed of a game that sets none.
    pub const SEED: u64 = 0;

    /// The deadzone of a game that sets none.
    pub const DEADZONE: f32 = 0.15;

    pub fn archetype(&self, id: ArchetypeId) -> Option<&ArchetypeDef> {
        self.archetypes.get(id.0 as usize)
    }

    /// The tags of archetype `id`'s entities (0 for none, or an unknown archetype).
    #[inline]
    pub fn tags_of(&self, id: ArchetypeId) -> u64 {
        self.archetype(id).map_or(0, |a| a.tags)
    }

    /// What archetype `id`'s entities do at the level's bounds (an entity's rule is its
    /// archetype's: see [`BoundsRule`](crate::BoundsRule)).
    #[inline]
    pub fn bounds_of(&self, id: ArchetypeId) -> BoundsPolicy {
        self.archetype(id)
            .map_or(BoundsPolicy::Ignore, |a| a.bounds)
    }

    /// Whether any archetype does damage by contact (`contact_damage`).
    pub fn has_contact_damage(&self) -> bool {
        self.archetypes.iter().any(|a| a.contact_damage.is_some())
    }

    /// The tags archetype `id`'s behaviour looks for (0 without a behaviour).
    pub fn behaviour_targets(&self, id: ArchetypeId) -> u64 {
        self.archetype(id)
            .and_then(|a| a.behaviour.as_ref())
            .map_or(0, |b| b.target)
    }

    /// Ticks between archetype `id`'s decisions (at least 1; the AI policy's default where
    /// its behaviour sets none, or it has none).
    pub fn behaviour_cadence(&self, id: ArchetypeId) -> u64 {
        let cadence = self
            .archetype(id)
            .and_then(|a| a.behaviour.as_ref()?.cadence);
        u64::from(cadence.unwrap_or(self.ai.default_cadence).max(1))
    }

    /// Ticks of invulnerability after damage lands on an entity of archetype `id` (its
    /// `health.invulnerable`; 0 without health).
    pub fn invulnerable_ticks(&self, id: ArchetypeId) -> u32 {
        self.archetype(id)
            .and_then(|a| a.health.as_ref())
            .map_or(0, |h| h.invulnerable_ticks)
    }

    /// Whether archetype `id`'s behaviour follows the level's flow field.
    pub fn behaviour_navigates(&self, id: ArchetypeId) -> bool {
        self.archetype(id)
            .and_then(|a| a.behaviour.as_ref())
            .is_some_and(|b| b.navigate)
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

    pub fn music_id(&self, name: &str) -> Option<MusicId> {
        self.music
            .iter()
            .position(|s| s.name == name)
            .map(|i| MusicId(i as u16))
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

impl AiPolicy {
    /// The policy of a game that sets none (the `[ai]` defaults).
    pub const DEFAULT: AiPolicy = AiPolicy {
        default_cadence: 10,
    };
}

impl Default for AiPolicy {
    fn default() -> Self {
        AiPolicy::DEFAULT
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct PhysicsDef {
    /// Broadphase cell size; by default the plan's (see `collision::Broadphase::plan`).
    pub cell_size: Option<f32>,
    /// Acceleration of everything gravity pulls, in world units per second² (y is down).
    pub gravity: Vec2,
}

impl PhysicsDef {
    /// The settings of a game that sets none (the `[physics]` defaults): no gravity.
    pub const DEFAULT: PhysicsDef = PhysicsDef {
        cell_size: None,
        gravity: Vec2::ZERO,
    };
}

impl Default for PhysicsDef {
    fn default() -> Self {
        PhysicsDef::DEFAULT
    }
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

impl ScriptsDef {
    /// The instruction budget of a game that sets none.
    pub const INSTRUCTION_BUDGET: u64 = 2_000_000;
    /// The memory limit of a game that sets none, in bytes.
    pub const MEMORY_LIMIT: usize = 64 * 1024 * 1024;
}

impl Default for ScriptsDef {
    fn default() -> Self {
        ScriptsDef {
            files: Vec::new(),
            instruction_budget: ScriptsDef::INSTRUCTION_BUDGET,
            memory_limit: ScriptsDef::MEMORY_LIMIT,
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

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct WindowDef {
    pub title: String,
    pub width: u32,
    pub height: u32,
    /// `ludus run` draws its help line (the keys) at the bottom; exported games never do.
    pub help: bool,
}

impl WindowDef {
    /// Whether `ludus run` shows the help line when the game does not say.
    pub const HELP: bool = true;
    /// The initial width of a window that sets none, in pixels.
    pub const WIDTH: u32 = 1024;
    /// The initial height of a window that sets none, in pixels.
    pub const HEIGHT: u32 = 768;
}

impl Default for WindowDef {
    fn default() -> Self {
        WindowDef {
            title: "Ludus".into(),
            width: WindowDef::WIDTH,
            height: WindowDef::HEIGHT,
            help: WindowDef::HELP,
        }
    }
}

/// `[flow]`: how the game's own actions pause and restart it, and whether the app draws its
/// game-over banner. The restart and pause these actions ask for are the app's (the same as
/// the restart and pause keys of `ludus run`, and of a script's `restart` and `pause`):
/// nothing here reaches a tick.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct FlowDef {
    /// The button action that pauses and resumes.
    pub pause: Option<ActionId>,
    /// The button action that starts the game again.
    pub restart: Option<ActionId>,
    /// The app draws its game-over banner (off: the game draws its own with HUD items).
    pub banner: bool,
}

impl FlowDef {
    /// Whether the app draws its game-over banner when the game does not say.
    pub const BANNER: bool = true;

    /// The actions a session turns into pause and restart signals.
    pub fn actions(&self) -> crate::frame::session::FlowActions {
        crate::frame::session::FlowActions {
            pause: self.pause,
            restart: self.restart,
        }
    }
}

impl Default for FlowDef {
    fn default() -> Self {
        FlowDef {
            pause: None,
            restart: None,
            banner: FlowDef::BANNER,
        }
    }
}

/// `[export]`: which files of the game folder an export leaves out, besides those it always
/// does (hidden files, [`ExportDef::ALWAYS`]).
///
/// Invariant (content checks it): every pattern is a valid `ludus_content::Glob`.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct ExportDef {
    /// Patterns of files to leave out, as written.
    pub exclude: Vec<String>,
}

impl ExportDef {
    /// What every export leaves out: the window's recordings and the files a failed test
    /// leaves beside its recording.
    pub const ALWAYS: [&'static str; 2] = ["recordings/", "tests/*.failed.*"];
}
