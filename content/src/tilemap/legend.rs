//! A tile map's legend: each character a tile (the frame drawn, the archetype of a solid
//! tile) or a spawn entry (an archetype placed on its cells when the level starts, over the
//! tile its `tile` names).

use crate::images::Images;
use crate::report::{Loc, Report};
use crate::symbols::Symbols;
use crate::table::Table;
use crate::value::Named;
use ludus_core::{ArchetypeDef, ArchetypeId, AssetId, BodyKind, TileKey, TileMapDef};

/// One legend entry as read.
pub(super) struct Entry {
    ch: char,
    frame: Option<(i64, Loc)>,
    solid: Option<Named>,
    spawn: Option<Named>,
    /// Where `solid` or `frame` is written, for a spawn entry that has one.
    tile_keys: Option<Loc>,
    tile: Option<(String, Loc)>,
}

impl Entry {
    /// The name of the archetype its solid tiles take their collider from.
    pub fn solid(&self) -> Option<&str> {
        self.solid.as_ref().map(|n| n.name.as_str())
    }
}

/// What a cell written with an entry's character holds: its key and frame plus one (see
/// [`TileMapDef`]), and the archetype placed on it.
#[derive(Clone, Copy)]
pub(super) struct Cell {
    pub key: u8,
    pub frame: u16,
    pub spawn: Option<ArchetypeId>,
}

/// The legend resolved: by entry, what its cells hold, and the map's [`TileKey`]s.
pub(super) struct Legend {
    pub chars: Vec<(char, Cell)>,
    pub keys: Vec<TileKey>,
}

/// Reads `legend`; at most [`TileMapDef::MAX_LEGEND`] entries (those past it are reported).
pub(super) fn read(r: &mut Report, t: &Table<'_, '_>) -> Vec<Entry> {
    let mut legend = Vec::new();
    for (ch, at, e) in t.legend(r, "legend") {
        if legend.len() == TileMapDef::MAX_LEGEND {
            r.error(
                at,
                format!(
                    "a legend holds at most {} characters",
                    TileMapDef::MAX_LEGEND
                ),
            )
            .help("use fewer kinds of tile, or give frame numbers in a `csv` map");
            break;
        }
        let tile = e.text(r, "tile").zip(e.loc_of("tile"));
        let tile_keys = e.key_loc("frame").or(e.key_loc("solid"));
        legend.push(Entry {
            ch,
            frame: e.int(r, "frame").zip(e.loc_of("frame")),
            solid: e.name(r, "solid", "archetype"),
            spawn: e.name(r, "spawn", "archetype"),
            tile_keys,
            tile,
        });
    }
    legend
}

/// Resolves the legend's names, reporting frames past the image, unknown archetypes and
/// spawn entries that are not one; and whether all were right (all wrong ones are reported,
/// and stand for what their entry's own tile would be).
pub(super) fn resolve(
    r: &mut Report,
    entries: &[Entry],
    image: Option<AssetId>,
    images: &Images,
    names: &Symbols,
    archetypes: &[ArchetypeDef],
) -> (Legend, bool) {
    let mut ok = true;
    let mut keys = Vec::with_capacity(entries.len());
    for e in entries {
        if let (Some((frame, loc)), Some(image)) = (e.frame, image) {
            images.check_frame(r, image, frame, loc, "frame");
        }
        let solid = e.solid.as_ref().map(|named| {
            let a = solid_archetype(r, named, names, archetypes);
            ok &= a.is_some();
            a
        });
        let spawn = e.spawn.as_ref().map(|named| {
            let a = spawned_archetype(r, named, names, archetypes);
            ok &= a.is_some();
            a
        });
        ok &= entry_is_whole(r, e);
        keys.push(TileKey {
            ch: e.ch,
            frame: e
                .frame
                .map_or(0, |(f, _)| u16::try_from(f + 1).unwrap_or(0)),
            solid: solid.flatten(),
            spawn: spawn.flatten(),
        });
    }
    let mut chars = Vec::with_capacity(entries.len());
    for (i, e) in entries.iter().enumerate() {
        let own = Cell {
            key: u8::try_from(i + 1).unwrap_or(0),
            frame: keys[i].frame,
            spawn: None,
        };
        let cell = match (keys[i].spawn, &e.tile) {
            (None, _) => own,
            (Some(a), None) => Cell {
                key: 0,
                frame: 0,
                spawn: Some(a),
            },
            (Some(a), Some((tile, loc))) => match floor(r, tile, *loc, e, entries, &keys) {
                Some(floor) => Cell {
                    spawn: Some(a),
                    ..floor
                },
                None => {
                    ok = false;
                    own
                }
            },
        };
        chars.push((e.ch, cell));
    }
    (Legend { chars, keys }, ok)
}

/// Reports a spawn entry with a tile's keys, or a tile with a spawn entry's `tile`; whether
/// the entry is neither.
fn entry_is_whole(r: &mut Report, e: &Entry) -> bool {
    match (&e.spawn, e.tile_keys, &e.tile) {
        (Some(spawn), Some(loc), _) => {
            r.error(
                loc,
                format!(
                    "`{}` places archetype `{}`: the tile under it is the one `tile` names, so it takes no `frame` or `solid`",
                    e.ch, spawn.name
                ),
            )
            .help("give the tile under it its own character in the legend, and name it with `tile = \".\"`");
            false
        }
        (None, _, Some((_, loc))) => {
            r.error(
                *loc,
                format!(
                    "`tile` names the tile under a spawn entry's archetype, and `{}` has no `spawn`",
                    e.ch
                ),
            )
            .help("remove `tile`, or add `spawn = \"NAME\"` to place an archetype on these cells");
            false
        }
        _ => true,
    }
}

/// The cell a spawn entry's `tile` names: a tile of the legend, or `" "` (none).
fn floor(
    r: &mut Report,
    tile: &str,
    loc: Loc,
    e: &Entry,
    entries: &[Entry],
    keys: &[TileKey],
) -> Option<Cell> {
    let mut chars = tile.chars();
    let (Some(ch), None) = (chars.next(), chars.next()) else {
        r.error(
            loc,
            format!("`tile` is one character of the legend, found \"{tile}\""),
        )
        .help("e.g. `tile = \".\"`, the character of the tile under it");
        return None;
    };
    if ch == ' ' {
        return Some(Cell {
            key: 0,
            frame: 0,
            spawn: None,
        });
    }
    let tiles: Vec<String> = (entries.iter())
        .filter(|e| e.spawn.is_none())
        .map(|e| format!("`{}`", e.ch))
        .collect();
    let help = if tiles.is_empty() {
        "the legend has no tiles: add one, e.g. `\".\" = { frame = 0 }`".to_string()
    } else {
        format!("the legend's tiles are {}", tiles.join(", "))
    };
    match entries.iter().position(|k| k.ch == ch) {
        Some(i) if entries[i].spawn.is_none() => Some(Cell {
            key: u8::try_from(i + 1).unwrap_or(0),
            frame: keys[i].frame,
            spawn: None,
        }),
        Some(_) => {
            r.error(
                loc,
                format!(
                    "`{}`'s `tile` is `{ch}`, which places an archetype too, not a tile",
                    e.ch
                ),
            )
            .help(help);
            None
        }
        None => {
            r.error(
                loc,
                format!("`{}`'s `tile` is `{ch}`, which is not in the legend", e.ch),
            )
            .help(help);
            None
        }
    }
}

/// The archetype solid tiles take their collider from: it must have a static collider.
fn solid_archetype(
    r: &mut Report,
    named: &Named,
    names: &Symbols,
    archetypes: &[ArchetypeDef],
) -> Option<ArchetypeId> {
    let i = names.resolve(r, named)?;
    let a = archetypes.get(i)?;
    match a.collider {
        Some(c) if c.body == BodyKind::Static => u16::try_from(i).ok().map(ArchetypeId),
        _ => {
            r.error(
                named.loc,
                format!("solid tiles take archetype `{}`'s collider, and it has no static one", a.name),
            )
            .help(format!(
                "give `[archetypes.{}]` a `collider` with `body = \"static\"` (its shape is replaced by the tiles' rectangle)",
                a.name
            ));
            None
        }
    }
}

/// The archetype a spawn entry places: one that has a size of its own.
fn spawned_archetype(
    r: &mut Report,
    named: &Named,
    names: &Symbols,
    archetypes: &[ArchetypeDef],
) -> Option<ArchetypeId> {
    let i = names.resolve(r, named)?;
    let a = archetypes.get(i)?;
    if a.sized_by_tiles() {
        crate::archetype::sized_by_tiles(r, named.loc, a, "a legend's `spawn`", "");
        return None;
    }
    u16::try_from(i).ok().map(ArchetypeId)
}
