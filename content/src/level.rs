//! Levels: a level file, or a `[levels.NAME]` table in game.toml. Archetype references are
//! kept by name until every archetype file has been read, then resolved.
//!
//! Defaults come from the schema; a value that fails its check has been reported, so what
//! stands in for it here never reaches a `GameDef`.

use crate::files::Files;
use crate::images::Images;
use crate::report::{Loc, Report};
use crate::symbols::Symbols;
use crate::table::Table;
use crate::value::Named;
use ludus_core::{
    ArchetypeDef, ArchetypeId, CameraDef, LevelDef, MAX_GRID_SIDE, Mode, NavDef, Overrides,
    Placement, Rect, SpawnerDef, Vec2,
};

/// A level as read, before archetype names are resolved.
pub(crate) struct RawLevel {
    pub name: Named,
    pub def: LevelDef,
    places: Vec<RawPlace>,
    spawners: Vec<RawSpawner>,
    tilemap: Option<crate::tilemap::RawTileMap>,
}

struct RawPlace {
    archetype: Named,
    pos: Vec2,
    overrides: Overrides,
    /// Where each override that needs a component is written.
    locs: Vec<(&'static str, Loc)>,
}

struct RawSpawner {
    archetype: Named,
    period: u32,
    count: u32,
    area: Option<Rect>,
    start: Option<u32>,
    bursts: Option<u32>,
}

/// Reads a level table. `name` is the table key of an inline level, `None` for a level file
/// (which then needs a `name` key). Returns `None` only when the level has no usable name.
pub(crate) fn read(
    r: &mut Report,
    t: &Table<'_, '_>,
    name: Option<Named>,
    tags: &Symbols,
    layers: &Symbols,
    files: &mut Files<'_>,
) -> Option<RawLevel> {
    let name = match name {
        Some(name) => {
            if let Some(loc) = t.key_loc("name") {
                r.error(
                    loc,
                    format!("`[levels.{}]` takes its name from its table key; `name` is not allowed here", name.name),
                )
                .help("remove `name`, or move the level into its own file listed in `level_files`");
            }
            Some(name)
        }
        None => {
            if !t.has("name") {
                t.missing(r, "name");
            }
            t.name(r, "name", "level")
        }
    };
    let mut def = LevelDef {
        entry_mode: match t.choice(r, "mode") {
            Some("paused") => Mode::Paused,
            _ => Mode::Playing,
        },
        ..LevelDef::default()
    };
    if let Some(bounds) = t.rect(r, "bounds") {
        def.bounds = bounds;
    }
    def.background = t.color(r, "background").unwrap_or_default();
    if let Some(c) = t.table(r, "camera") {
        def.camera = CameraDef {
            view: c.pair(r, "view").unwrap_or_default(),
            bounds: c.rect(r, "bounds"),
            zoom: c.f32(r, "zoom").unwrap_or(CameraDef::DEFAULT.zoom),
            dead_zone: c.pair(r, "dead_zone"),
        };
    }
    if let Some(n) = t.table(r, "nav") {
        let blocking = n.names(r, "blocking", "layer").unwrap_or_default();
        let goal = n.names(r, "goal", "tag").unwrap_or_default();
        let cell = n.f32(r, "cell");
        def.nav = Some(NavDef {
            cell: cell.unwrap_or_default(),
            blocking: u32::try_from(layers.bits(r, &blocking)).unwrap_or_default(),
            goal: tags.bits(r, &goal),
        });
        let at = n.loc_of("cell").or_else(|| t.key_loc("nav"));
        if let (Some(at), Some(why)) = (at, nav_too_fine(def.bounds.size(), cell)) {
            r.error(at, why.0).help(why.1);
        }
    }
    let places = t
        .tables(r, "place")
        .iter()
        .filter_map(|p| place(r, p))
        .collect();
    let spawners = t
        .tables(r, "spawner")
        .iter()
        .filter_map(|s| spawner(r, s))
        .collect();
    let tilemap = t
        .table(r, "tilemap")
        .and_then(|m| crate::tilemap::read(r, &m, files));
    let name = name?;
    def.name = name.name.clone();
    Some(RawLevel {
        name,
        def,
        places,
        spawners,
        tilemap,
    })
}

/// Why a navigation grid of `cell` (the default if `None`) over bounds of `size` cannot be
/// built, with the fix: a side of more than [`MAX_GRID_SIDE`] cells.
fn nav_too_fine(size: Vec2, cell: Option<f32>) -> Option<(String, String)> {
    let cell = cell.filter(|c| *c > 0.0).unwrap_or(NavDef::CELL);
    let side = |length: f32| (f64::from(length) / f64::from(cell)).ceil();
    let (cols, rows) = (side(size.x), side(size.y));
    let most = f64::from(MAX_GRID_SIDE);
    if cols <= most && rows <= most {
        return None;
    }
    let least = f64::from(size.x.max(size.y)) / most;
    Some((
        format!(
            "`[nav]` cells of {cell} units over the level's bounds ({} x {}) make a grid of \
             {cols} x {rows} cells; a side has at most {MAX_GRID_SIDE}",
            size.x, size.y
        ),
        format!("make `cell` at least {}", (least * 100.0).ceil() / 100.0),
    ))
}

/// A `[[place]]` entry, its names unresolved; `None` when it lacks its archetype or place.
fn place(r: &mut Report, p: &Table<'_, '_>) -> Option<RawPlace> {
    let archetype = p.name(r, "archetype", "archetype");
    let pos = p.pair(r, "at");
    let overrides = Overrides {
        velocity: p.pair(r, "velocity"),
        speed: p.f32(r, "speed"),
        health: p.int(r, "health").and_then(|v| i32::try_from(v).ok()),
        color: p.color(r, "color"),
        lifetime: p.u32(r, "lifetime"),
        size: p.size(r, "size"),
        text: p.text(r, "text"),
        scale: p.size(r, "scale"),
        angle: p.f32(r, "angle"),
        tile: false,
    };
    Some(RawPlace {
        archetype: archetype?,
        pos: pos?,
        overrides,
        locs: Overrides::NEEDS
            .iter()
            .filter_map(|n| Some((n.key, p.key_loc(n.key)?)))
            .collect(),
    })
}

/// A `[[spawner]]` entry, its names unresolved; `None` when it lacks its archetype or period.
fn spawner(r: &mut Report, s: &Table<'_, '_>) -> Option<RawSpawner> {
    let archetype = s.name(r, "archetype", "archetype");
    let period = s.u32(r, "every");
    let count = s.u32(r, "count").unwrap_or_default();
    let area = s.rect(r, "area");
    let start = s.u32(r, "start");
    let bursts = s.u32(r, "bursts");
    Some(RawSpawner {
        archetype: archetype?,
        period: period?,
        count,
        area,
        start,
        bursts,
    })
}

impl RawLevel {
    /// Resolves archetype names; overrides that need a component the archetype lacks are
    /// reported.
    pub fn resolve(
        self,
        r: &mut Report,
        names: &Symbols,
        archetypes: &[ArchetypeDef],
        images: &Images,
        max_entities: u32,
    ) -> LevelDef {
        let mut def = self.def;
        let id = |r: &mut Report, named: &Named| {
            let i = names.resolve(r, named)?;
            u16::try_from(i).ok().map(ArchetypeId)
        };
        for p in self.places {
            let Some(archetype) = id(r, &p.archetype) else {
                continue;
            };
            let a = archetypes.get(usize::from(archetype.0));
            // An override needs the component it changes.
            if let Some(a) = a {
                if a.sized_by_tiles() && p.overrides.size.is_none() {
                    let loc = p.archetype.loc;
                    let help = "add `size = [w, h]` here, or ";
                    crate::archetype::sized_by_tiles(r, loc, a, "`[[place]]`", help);
                }
                for need in p.overrides.unmet(a) {
                    if let Some((_, loc)) = p.locs.iter().find(|(k, _)| *k == need.key) {
                        r.error(*loc, need.message(a)).help(need.help(a, "here"));
                    }
                }
            }
            def.placements.push(Placement {
                archetype,
                pos: p.pos,
                overrides: p.overrides,
            });
        }
        // Solid tiles after the placed entities: adding a map leaves their sequence numbers.
        // Then the archetypes its legend places, in row order.
        if let Some(map) = self.tilemap {
            map.resolve(r, &mut def, max_entities, images, (names, archetypes));
        }
        for s in self.spawners {
            let Some(archetype) = id(r, &s.archetype) else {
                continue;
            };
            if let Some(a) = archetypes.get(usize::from(archetype.0))
                && a.sized_by_tiles()
            {
                crate::archetype::sized_by_tiles(r, s.archetype.loc, a, "a `[[spawner]]`", "");
            }
            def.spawners.push(SpawnerDef {
                archetype,
                period: s.period,
                count: s.count,
                area: s.area.unwrap_or(def.bounds),
                start: s.start.unwrap_or(s.period),
                bursts: s.bursts,
            });
        }
        def
    }
}

impl RawLevel {
    /// The archetype names its tile map's legend makes solid tiles of.
    pub fn solid_names(&self) -> impl Iterator<Item = &str> {
        self.tilemap.iter().flat_map(|m| m.solid_names())
    }
}
