//! Levels: what they place, spawn and show.

use crate::def::{ArchetypeDef, ArchetypeId};
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
                overrides: Overrides::tile(size),
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
    /// The sprite's size and the collider's shape fitted to it ([`crate::Shape::sized`]: a
    /// box of this size, a circle of half the larger side).
    pub size: Option<Vec2>,
    /// The label's text instead of the archetype's.
    pub text: Option<String>,
    /// The look's scale from spawn (drawn only: see [`crate::Look`]).
    pub scale: Option<Vec2>,
    /// The angle in radians (an entity that did not rotate gets a rotation).
    pub angle: Option<f32>,
    /// A tile map's solid rectangle of `size`: the collider is a box of that size whatever the
    /// archetype's shape (see [`Overrides::tile`]).
    #[serde(default)]
    pub tile: bool,
}

impl Overrides {
    /// A tile map's solid rectangle of `size` (its sprite that size, its collider a box of it).
    pub fn tile(size: Vec2) -> Overrides {
        Overrides {
            size: Some(size),
            tile: true,
            ..Overrides::default()
        }
    }

    /// Whether it changes nothing (what every stress entity and most placements have).
    pub fn is_none(&self) -> bool {
        *self == NO_OVERRIDES
    }

    /// Whether the values are in range: a velocity, speed and angle that are finite, a size
    /// above 0 and at most [`SpriteDef::SIZE_MAX`](crate::SpriteDef::SIZE_MAX) on each side,
    /// a scale as [`Look::check`](super::Look::check) takes it; else what is wrong.
    pub fn check(&self) -> Result<(), String> {
        if let Some(v) = self.velocity.filter(|v| !v.is_finite()) {
            return Err(format!(
                "a spawn velocity must be finite numbers, got ({}, {})",
                v.x, v.y
            ));
        }
        if self.speed.is_some_and(|s| !s.is_finite()) {
            return Err("a spawn speed must be finite".into());
        }
        if let Some(a) = self.angle.filter(|a| !a.is_finite()) {
            return Err(format!("a spawn angle must be a finite number, got {a}"));
        }
        let max = crate::SpriteDef::SIZE_MAX;
        if let Some(s) = self.size
            && !(s.x > 0.0 && s.x <= max && s.y > 0.0 && s.y <= max)
        {
            return Err(format!(
                "a size must be above 0 and at most {max}, got ({}, {})",
                s.x, s.y
            ));
        }
        match self.scale {
            Some(s) => super::Look::check_scale(s),
            None => Ok(()),
        }
    }
}

/// A spawn command's [`Overrides`], held only where they change something: a plain spawn (every
/// stress entity's, most scripts') holds none and allocates nothing, and reads as
/// [`Overrides::default`] (through `Deref`).
///
/// Invariant: it holds overrides only where [`Overrides::is_none`] is false.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct SpawnOverrides(Option<Box<Overrides>>);

/// Overrides that change nothing: what a [`SpawnOverrides`] that holds none reads as (every
/// field listed, so a field added to [`Overrides`] must say what changes nothing).
static NO_OVERRIDES: Overrides = Overrides {
    velocity: None,
    speed: None,
    health: None,
    color: None,
    lifetime: None,
    size: None,
    text: None,
    scale: None,
    angle: None,
    tile: false,
};

impl From<Overrides> for SpawnOverrides {
    fn from(o: Overrides) -> SpawnOverrides {
        SpawnOverrides((!o.is_none()).then(|| Box::new(o)))
    }
}

impl std::ops::Deref for SpawnOverrides {
    type Target = Overrides;

    fn deref(&self) -> &Overrides {
        self.0.as_deref().unwrap_or(&NO_OVERRIDES)
    }
}

/// An override that changes a component, and so needs the archetype to have it.
#[derive(Clone, Copy, Debug)]
pub struct OverrideNeed {
    /// The override's key, in `[[place]]` and in a script's spawn options.
    pub key: &'static str,
    /// The archetype table that declares the component.
    pub table: &'static str,
    /// What the archetype lacks, as "archetype `x` has no {missing}" says it.
    pub missing: &'static str,
    set: fn(&Overrides) -> bool,
    has: fn(&ArchetypeDef) -> bool,
}

impl Overrides {
    /// Every override that needs a component, in the order a report lists them: the one list
    /// `[[place]]`'s check and a spawn command's check read.
    pub const NEEDS: &'static [OverrideNeed] = &[
        OverrideNeed {
            key: "health",
            table: "health",
            missing: "health to override",
            set: |o| o.health.is_some(),
            has: |a| a.health.is_some(),
        },
        OverrideNeed {
            key: "color",
            table: "sprite` or `label",
            missing: "sprite or label whose colour could be overridden",
            set: |o| o.color.is_some(),
            has: |a| a.sprite.is_some() || a.label.is_some(),
        },
        OverrideNeed {
            key: "size",
            table: "collider` or `sprite",
            missing: "collider or sprite whose size could be set",
            set: |o| o.size.is_some(),
            has: |a| a.collider.is_some() || a.sprite.is_some(),
        },
        OverrideNeed {
            key: "scale",
            table: "sprite` or `label",
            missing: "sprite or label to draw scaled",
            set: |o| o.scale.is_some(),
            has: |a| a.sprite.is_some() || a.label.is_some(),
        },
        OverrideNeed {
            key: "text",
            table: "label",
            missing: "label whose text could be set",
            set: |o| o.text.is_some(),
            has: |a| a.label.is_some(),
        },
    ];

    /// The overrides set here that archetype `a` has no component for.
    pub fn unmet<'a>(
        &'a self,
        a: &'a ArchetypeDef,
    ) -> impl Iterator<Item = &'static OverrideNeed> + 'a {
        Overrides::NEEDS
            .iter()
            .filter(move |n| (n.set)(self) && !(n.has)(a))
    }
}

impl OverrideNeed {
    /// "archetype `x` has no ..." for archetype `a`.
    pub fn message(&self, a: &ArchetypeDef) -> String {
        format!("archetype `{}` has no {}", a.name, self.missing)
    }

    /// How to fix it, where the override was written `place` ("here", "from the spawn options").
    pub fn help(&self, a: &ArchetypeDef, place: &str) -> String {
        format!(
            "give `[archetypes.{}]` a `{}` table, or remove `{}` {place}",
            a.name, self.table, self.key
        )
    }
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

#[cfg(test)]
mod tests {
    use super::*;

    // A spawn command carries a word for its overrides, whatever it holds.
    const _: () = assert!(size_of::<SpawnOverrides>() == 8);

    #[test]
    fn spawn_overrides_hold_only_what_changes_something_and_read_as_overrides() {
        let cases = [
            (Overrides::default(), false),
            (
                Overrides {
                    speed: Some(2.0),
                    ..Overrides::default()
                },
                true,
            ),
            (
                Overrides {
                    text: Some("+5".into()),
                    ..Overrides::default()
                },
                true,
            ),
            (Overrides::tile(Vec2::new(8.0, 8.0)), true),
        ];
        for (given, held) in cases {
            let spawn = SpawnOverrides::from(given.clone());
            assert_eq!(spawn.0.is_some(), held, "{given:?}");
            assert_eq!(*spawn, given, "reads as given");
        }
        assert_eq!(
            SpawnOverrides::default(),
            SpawnOverrides::from(Overrides::default())
        );
        assert_eq!(*SpawnOverrides::default(), Overrides::default());
    }
}
