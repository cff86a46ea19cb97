//! Levels: what they place, spawn and show.

use crate::def::ArchetypeId;
use crate::frame::mode::Mode;
use crate::math::{Color, Rect, Vec2};
use serde::{Deserialize, Serialize};

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
    /// Tiles drawn behind (or among) the entities; their solid tiles are in `placements`.
    pub tilemap: Option<super::TileMapDef>,
}

impl LevelDef {
    /// The mode a level that sets none starts in.
    pub const ENTRY_MODE: Mode = Mode::Playing;
    /// The clear colour of a level that sets none.
    pub const BACKGROUND: Color = Color::rgb(20, 22, 30);

    /// Makes `map` the level's tile map, its solid tiles merged into rectangles (its
    /// `solids`) and placed after the placements so far (from its `first_solid`), each its
    /// archetype sized to its rectangle. When they make more than `limit` rectangles (the
    /// merge stops there), nothing changes: `false`.
    pub fn add_tilemap(&mut self, mut map: super::TileMapDef, limit: usize) -> bool {
        let w = map.columns as usize;
        let runs = super::merge_solids(map.columns, map.rows, limit, |c, r| {
            map.solid_of(map.keys[r as usize * w + c as usize])
        });
        let Ok(first) = u32::try_from(self.placements.len()) else {
            return false;
        };
        if runs.len() > limit {
            return false;
        }
        self.placements.extend(runs.iter().map(|run| {
            let (pos, size) = map.run_place(run);
            Placement {
                archetype: run.archetype,
                pos,
                overrides: Overrides {
                    size: Some(size),
                    ..Overrides::default()
                },
            }
        }));
        map.solids = runs;
        map.first_solid = first;
        self.tilemap = Some(map);
        true
    }
}

impl Default for LevelDef {
    fn default() -> Self {
        LevelDef {
            name: "main".into(),
            bounds: Rect::centered(Vec2::new(800.0, 600.0)),
            camera: CameraDef::DEFAULT,
            entry_mode: LevelDef::ENTRY_MODE,
            background: LevelDef::BACKGROUND,
            placements: Vec::new(),
            spawners: Vec::new(),
            nav: None,
            tilemap: None,
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct CameraDef {
    /// World units visible (width, height); the window letterboxes to keep the aspect.
    pub view: Vec2,
    /// The camera centre never shows outside this rectangle, when set.
    pub bounds: Option<Rect>,
    /// 1 shows `view`; 2 shows half of it, twice as large.
    pub zoom: f32,
    /// A box (width, height) about the view's centre in which the followed entity moves
    /// without moving the camera.
    pub dead_zone: Option<Vec2>,
}

impl CameraDef {
    /// The camera of a level that sets none: 800 x 600 world units, unzoomed, unbounded.
    pub const DEFAULT: CameraDef = CameraDef {
        view: Vec2::new(800.0, 600.0),
        bounds: None,
        zoom: 1.0,
        dead_zone: None,
    };
}

impl Default for CameraDef {
    fn default() -> Self {
        CameraDef::DEFAULT
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
    /// A box collider of this size instead of the archetype's shape, and the sprite's size.
    pub size: Option<Vec2>,
    /// The label's text instead of the archetype's.
    pub text: Option<String>,
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

impl SpawnerDef {
    /// The entities per burst of a spawner that sets none.
    pub const COUNT: u32 = 1;
}

#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct StressDef {
    pub archetype: ArchetypeId,
    /// Where stress entities are placed; the level bounds when `None`.
    pub area: Option<Rect>,
}
