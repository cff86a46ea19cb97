//! `[tilemap]` in a level: rows of characters, a legend from characters to frames of an image
//! and to the archetype of solid tiles. Read with the level; resolved once images and
//! archetypes are known, into a [`TileMapDef`] and the merged solid rectangles' placements.

use crate::images::Images;
use crate::report::{Loc, Report};
use crate::symbols::Symbols;
use crate::table::Table;
use crate::value::Named;
use ludus_core::{
    ArchetypeDef, ArchetypeId, BodyKind, Overrides, Placement, Rect, TileMapDef, Vec2, merge_solids,
};

/// The most tiles a map may hold (4096 x 4096).
const MAX_TILES: usize = 4096 * 4096;

/// A tile map as read, before names are resolved.
pub(crate) struct RawTileMap {
    image: Named,
    tile: Option<Vec2>,
    origin: Option<Vec2>,
    layer: i16,
    rows: Vec<(String, Loc)>,
    legend: Vec<Key>,
}

/// One legend entry.
struct Key {
    ch: char,
    frame: Option<(i64, Loc)>,
    solid: Option<Named>,
}

/// Reads `[tilemap]`; `None` when it is too broken to use (reported).
pub(crate) fn read(r: &mut Report, t: &Table<'_, '_>) -> Option<RawTileMap> {
    let image = t.name(r, "image", "image");
    let rows = t.lines(r, "rows");
    let mut legend = Vec::new();
    for (ch, _, e) in t.legend(r, "legend") {
        legend.push(Key {
            ch,
            frame: e.int(r, "frame").zip(e.loc_of("frame")),
            solid: e.name(r, "solid", "archetype"),
        });
    }
    let rows = rows?;
    let cells: usize = rows.len()
        * rows
            .iter()
            .map(|(s, _)| s.chars().count())
            .max()
            .unwrap_or(0);
    if cells > MAX_TILES {
        let loc = t.loc_of("rows").unwrap_or(t.loc);
        r.error(
            loc,
            format!(
                "a tile map may hold at most {MAX_TILES} tiles (4096 x 4096), this one {cells}"
            ),
        );
        return None;
    }
    Some(RawTileMap {
        image: image?,
        tile: t.pair(r, "tile"),
        origin: t.pair(r, "origin"),
        layer: t
            .int(r, "layer")
            .and_then(|v| i16::try_from(v).ok())
            .unwrap_or(-1),
        rows,
        legend,
    })
}

impl RawTileMap {
    /// The map, and the placements of its solid tiles merged into rectangles (static colliders
    /// of each solid tile's archetype, sized to the rectangle). `bounds`: the level's.
    /// `max_entities`: `[limits] entities`, which the merged rectangles may not pass.
    #[allow(clippy::too_many_arguments)]
    pub fn resolve(
        self,
        r: &mut Report,
        bounds: Rect,
        max_entities: u32,
        images: &Images,
        names: &Symbols,
        archetypes: &[ArchetypeDef],
    ) -> Option<(TileMapDef, Vec<Placement>)> {
        // Unknown names are all reported before giving up.
        let image = images.by_name(r, &self.image);
        // Each character: its frame plus one (0: none) and the archetype of a solid tile.
        let mut keys: Vec<(char, u16, Option<ArchetypeId>)> = Vec::with_capacity(self.legend.len());
        let mut ok = true;
        for k in &self.legend {
            if let (Some((frame, loc)), Some(image)) = (k.frame, image) {
                images.check_frame(r, image, frame, loc, "frame");
            }
            let solid = match &k.solid {
                Some(named) => match solid_archetype(r, named, names, archetypes) {
                    Some(a) => Some(a),
                    None => {
                        ok = false;
                        None
                    }
                },
                None => None,
            };
            let frame = k
                .frame
                .map_or(0, |(f, _)| u16::try_from(f + 1).unwrap_or(0));
            keys.push((k.ch, frame, solid));
        }
        let columns = self
            .rows
            .iter()
            .map(|(s, _)| s.chars().count())
            .max()
            .unwrap_or(0);
        let rows = self.rows.len();
        let mut cells = vec![0u16; columns * rows];
        let mut solids: Vec<Option<ArchetypeId>> = vec![None; columns * rows];
        for (y, (line, loc)) in self.rows.iter().enumerate() {
            for (x, (at, ch)) in line.char_indices().enumerate() {
                let Some(&(_, frame, solid)) = keys.iter().find(|k| k.0 == ch) else {
                    if ch != ' ' {
                        // The string's first byte is its quote.
                        let start = loc.start + 1 + at;
                        let here = Loc::new(loc.file, start..start + ch.len_utf8());
                        let known: Vec<String> =
                            keys.iter().map(|k| format!("`{}`", k.0)).collect();
                        r.error(here, format!("`{ch}` is not in the tile map's legend"))
                            .help(if known.is_empty() {
                                "add it to `[tilemap.legend]`, e.g. `\"#\" = { frame = 0 }`; a space is no tile".to_string()
                            } else {
                                format!("the legend has {}; a space is no tile", known.join(", "))
                            });
                        ok = false;
                    }
                    continue;
                };
                cells[y * columns + x] = frame;
                solids[y * columns + x] = solid;
            }
        }
        let image = image?;
        let def = images.get(image)?;
        if !ok {
            return None;
        }
        let tile = self
            .tile
            .unwrap_or(Vec2::new(def.frame.0 as f32, def.frame.1 as f32));
        let origin = self.origin.unwrap_or(bounds.min);
        let map = TileMapDef {
            image,
            tile,
            origin,
            columns: columns as u32,
            rows: rows as u32,
            cells,
            layer: self.layer,
        };
        let w = columns as u32;
        let limit = max_entities as usize;
        let runs = merge_solids(map.columns, map.rows, limit, |c, r| {
            solids[(r * w + c) as usize]
        });
        if runs.len() > limit {
            let loc = self.rows.first().map_or(self.image.loc, |(_, l)| *l);
            r.error(
                loc,
                format!("the tile map's solid tiles make more than {limit} rectangles, more entities than `[limits] entities` allows"),
            )
            .help("use longer runs of solid tiles (they merge), or raise `entities` in `[limits]`");
            return None;
        }
        let places = runs
            .into_iter()
            .map(|s| {
                let size = Vec2::new(s.width as f32 * tile.x, s.height as f32 * tile.y);
                let corner = origin + Vec2::new(s.column as f32 * tile.x, s.row as f32 * tile.y);
                Placement {
                    archetype: s.archetype,
                    pos: corner + size * 0.5,
                    overrides: Overrides {
                        size: Some(size),
                        ..Overrides::default()
                    },
                }
            })
            .collect();
        Some((map, places))
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
