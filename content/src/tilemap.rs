//! `[tilemap]` in a level: rows of characters or a CSV file of frame numbers, a legend from
//! characters to frames of an image and to the archetype of solid tiles. Read with the level;
//! resolved once images and archetypes are known, into a [`TileMapDef`] and the merged solid
//! rectangles' placements.

use crate::files::{FileKind, Files, Read};
use crate::images::Images;
use crate::report::{Loc, Report};
use crate::symbols::Symbols;
use crate::table::Table;
use crate::value::Named;
use ludus_core::{
    ArchetypeDef, ArchetypeId, AssetId, BodyKind, Overrides, Placement, Rect, TileMapDef, Vec2,
    merge_solids,
};

/// The most tiles a map may hold (4096 x 4096).
pub(crate) const MAX_TILES: usize = 4096 * 4096;

/// A tile map as read, before names are resolved.
pub(crate) struct RawTileMap {
    image: Named,
    tile: Option<Vec2>,
    origin: Option<Vec2>,
    layer: i16,
    grid: Grid,
    /// Where the map's cells are given (`rows` or `csv`), for errors about the whole map.
    at: Loc,
    columns: usize,
    rows: usize,
    legend: Vec<Key>,
}

/// The map's cells as written.
enum Grid {
    /// `rows`: a string per row, a character per tile.
    Chars(Vec<(String, Loc)>),
    /// `csv`: a file (registered with the report as `file`) of comma-separated cells per line;
    /// number `first` is frame 0.
    Csv {
        file: usize,
        text: std::rc::Rc<str>,
        first: i64,
    },
}

impl Grid {
    /// Calls `f(x, y, cell, loc)` for every cell, row by row. A CSV cell is trimmed; a CSV
    /// line's trailing comma and the file's trailing empty lines make no cells.
    fn cells(&self, mut f: impl FnMut(usize, usize, &str, Loc)) {
        match self {
            Grid::Chars(rows) => {
                for (y, (line, loc)) in rows.iter().enumerate() {
                    for (x, (at, ch)) in line.char_indices().enumerate() {
                        // The string's first byte is its quote.
                        let start = loc.start + 1 + at;
                        let here = Loc::new(loc.file, start..start + ch.len_utf8());
                        f(x, y, &line[at..at + ch.len_utf8()], here);
                    }
                }
            }
            Grid::Csv { file, text, .. } => {
                let mut start = 0;
                for (y, line) in text.trim_end().split('\n').enumerate() {
                    let line_start = start;
                    start += line.len() + 1;
                    let line = line.strip_suffix('\r').unwrap_or(line);
                    let line = line.strip_suffix(',').unwrap_or(line);
                    let mut at = line_start;
                    for (x, cell) in line.split(',').enumerate() {
                        let lead = cell.len() - cell.trim_start().len();
                        let token = cell.trim();
                        let from = at + lead;
                        f(
                            x,
                            y,
                            token,
                            Loc::new(*file, from..from + token.len().max(1)),
                        );
                        at += cell.len() + 1;
                    }
                }
            }
        }
    }
}

/// One legend entry.
struct Key {
    ch: char,
    frame: Option<(i64, Loc)>,
    solid: Option<Named>,
}

/// Reads `[tilemap]`; `None` when it is too broken to use (reported).
pub(crate) fn read(r: &mut Report, t: &Table<'_, '_>, files: &mut Files<'_>) -> Option<RawTileMap> {
    let image = t.name(r, "image", "image");
    let mut legend = Vec::new();
    for (ch, _, e) in t.legend(r, "legend") {
        legend.push(Key {
            ch,
            frame: e.int(r, "frame").zip(e.loc_of("frame")),
            solid: e.name(r, "solid", "archetype"),
        });
    }
    let (grid, at) = match (t.has("rows"), t.has("csv")) {
        (true, true) => {
            let loc = t.key_loc("csv").unwrap_or(t.loc);
            r.error(loc, "a tile map has `rows` or `csv`, not both")
                .help("keep the one that holds the map");
            return None;
        }
        (false, false) => {
            r.error(t.loc, "a tile map needs `rows` or `csv`")
                .help("e.g. `rows = [\"#####\", \"#   #\"]`, or `csv = \"maps/level1.csv\"` of frame numbers");
            return None;
        }
        (true, false) => {
            let rows = t.lines(r, "rows")?;
            let first = rows.first().map(|(_, loc)| *loc);
            (Grid::Chars(rows), first.or(t.loc_of("rows")))
        }
        (false, true) => {
            let path = t.path(r, "csv")?;
            let first = t.int(r, "csv_first").unwrap_or(0);
            let Some(Read::Text(file, text)) = files.read_listed(r, &path, FileKind::Map) else {
                return None;
            };
            // Each map that uses the file reads it through again: its size counts each time,
            // before it is read.
            let what = format!("tile map `{}`", path.name);
            if !files.charge(r, path.loc, &what, text.len() as u64) {
                return None;
            }
            (Grid::Csv { file, text, first }, Some(path.loc))
        }
    };
    let at = at.unwrap_or(t.loc);
    let (mut columns, mut rows) = (0, 0);
    grid.cells(|x, y, _, _| {
        columns = columns.max(x + 1);
        rows = rows.max(y + 1);
    });
    let cells = columns.saturating_mul(rows);
    if cells > MAX_TILES {
        r.error(
            at,
            format!(
                "a tile map may hold at most {MAX_TILES} tiles (4096 x 4096), this one {columns} x {rows}"
            ),
        );
        return None;
    }
    // Its cells: 2 bytes each, and 4 more for the solid tiles while they are merged.
    if !files.charge(
        r,
        at,
        &format!("a tile map of {columns} x {rows}"),
        cells as u64 * 6,
    ) {
        return None;
    }
    Some(RawTileMap {
        image: image?,
        tile: t.pair(r, "tile"),
        origin: t.pair(r, "origin"),
        layer: t
            .int(r, "layer")
            .and_then(|v| i16::try_from(v).ok())
            .unwrap_or(TileMapDef::LAYER),
        grid,
        at,
        columns,
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
        let (keys, mut ok) = self.keys(r, image, images, names, archetypes);
        let (columns, rows) = (self.columns, self.rows);
        let mut cells = vec![0u16; columns * rows];
        let mut solids: Vec<Option<ArchetypeId>> = vec![None; columns * rows];
        let frames = image
            .and_then(|i| images.get(i))
            .map(|d| i64::from(d.frames()));
        let csv_first = match self.grid {
            Grid::Csv { first, .. } => Some(first),
            Grid::Chars(_) => None,
        };
        self.grid.cells(
            |x, y, token, here| match cell(token, &keys, csv_first, frames) {
                Ok(Some((frame, solid))) => {
                    cells[y * columns + x] = frame;
                    solids[y * columns + x] = solid;
                }
                Ok(None) => {}
                Err(bad) => {
                    ok = false;
                    match (bad, image) {
                        (Bad::PastImage(frame), Some(image)) => {
                            images.check_frame(r, image, frame, here, "frame")
                        }
                        (Bad::PastImage(frame), None) | (Bad::PastTiles(frame), _) => {
                            r.error(
                                here,
                                format!(
                                    "frame {frame} is past the last a tile may show, {}",
                                    u16::MAX - 1
                                ),
                            );
                        }
                        (Bad::Unknown, _) => unknown_cell(r, here, token, &keys, csv_first),
                    }
                }
            },
        );
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
        let places = self.solid_placements(r, &map, &solids, max_entities)?;
        Some((map, places))
    }

    /// Each legend character's frame plus one (0: none) and the archetype of a solid tile,
    /// reporting frames past the image and unknown archetypes; and whether all were known.
    fn keys(
        &self,
        r: &mut Report,
        image: Option<AssetId>,
        images: &Images,
        names: &Symbols,
        archetypes: &[ArchetypeDef],
    ) -> (Vec<(char, u16, Option<ArchetypeId>)>, bool) {
        let mut keys = Vec::with_capacity(self.legend.len());
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
        (keys, ok)
    }

    /// The map's solid tiles (`solids`, by cell) merged into rectangles, each placed as its
    /// archetype sized to it: at most `max_entities` of them.
    fn solid_placements(
        &self,
        r: &mut Report,
        map: &TileMapDef,
        solids: &[Option<ArchetypeId>],
        max_entities: u32,
    ) -> Option<Vec<Placement>> {
        let (tile, origin) = (map.tile, map.origin);
        let w = map.columns;
        let limit = max_entities as usize;
        let runs = merge_solids(map.columns, map.rows, limit, |c, r| {
            solids[(r * w + c) as usize]
        });
        if runs.len() > limit {
            r.error(
                self.at,
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
        Some(places)
    }
}

/// Each legend character: its frame plus one (0: none) and the archetype of a solid tile.
type Keys = [(char, u16, Option<ArchetypeId>)];

/// Why a cell is not a tile.
enum Bad {
    /// A frame past the image's last.
    PastImage(i64),
    /// A frame past what a cell holds.
    PastTiles(i64),
    /// Neither a legend character nor (in CSV) a number.
    Unknown,
}

/// What a cell written `token` is: its frame plus one and solid archetype, or no tile.
/// `csv_first`: the number of frame 0 when the map is CSV; `frames`: the image's frames.
fn cell(
    token: &str,
    keys: &Keys,
    csv_first: Option<i64>,
    frames: Option<i64>,
) -> Result<Option<(u16, Option<ArchetypeId>)>, Bad> {
    let mut chars = token.chars();
    if let (Some(c), None) = (chars.next(), chars.next())
        && let Some(&(_, frame, solid)) = keys.iter().find(|k| k.0 == c)
    {
        return Ok(Some((frame, solid)));
    }
    let Some(first) = csv_first else {
        return if token == " " {
            Ok(None)
        } else {
            Err(Bad::Unknown)
        };
    };
    if token.is_empty() {
        return Ok(None);
    }
    let frame = token
        .parse::<i64>()
        .map_err(|_| Bad::Unknown)?
        .saturating_sub(first);
    if frame < 0 {
        Ok(None)
    } else if frames.is_some_and(|count| frame >= count) {
        Err(Bad::PastImage(frame))
    } else if frame >= i64::from(u16::MAX) {
        Err(Bad::PastTiles(frame))
    } else {
        Ok(Some((frame as u16 + 1, None)))
    }
}

/// Reports a cell that is neither in the legend nor (in CSV) a frame number.
fn unknown_cell(r: &mut Report, here: Loc, token: &str, keys: &Keys, csv_first: Option<i64>) {
    let known: Vec<String> = keys.iter().map(|k| format!("`{}`", k.0)).collect();
    let (what, help) = match csv_first {
        Some(first) => (
            format!("`{token}` is neither a frame number nor in the tile map's legend"),
            format!(
                "cells are frame numbers counted from `csv_first` = {first} (smaller numbers and empty cells are no tile) or characters of the legend{}",
                if known.is_empty() {
                    String::new()
                } else {
                    format!(" ({})", known.join(", "))
                }
            ),
        ),
        None => (
            format!("`{token}` is not in the tile map's legend"),
            if known.is_empty() {
                "add it to `[tilemap.legend]`, e.g. `\"#\" = { frame = 0 }`; a space is no tile"
                    .to_string()
            } else {
                format!("the legend has {}; a space is no tile", known.join(", "))
            },
        ),
    };
    r.error(here, what).help(help);
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
