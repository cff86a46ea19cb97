//! `[tilemap]` in a level: rows of characters or a CSV file of frame numbers, a legend from
//! characters to frames of an image and to the archetype of solid tiles, or to an archetype
//! placed on the cell (see `legend`). Read with the level; resolved once images and archetypes
//! are known, into a [`TileMapDef`], the merged solid rectangles' placements and the placed
//! archetypes'.

mod legend;

use crate::files::{FileKind, Files, Read};
use crate::images::Images;
use crate::report::{Loc, Report};
use crate::symbols::Symbols;
use crate::table::Table;
use crate::value::Named;
use legend::Legend;
use ludus_core::{ArchetypeDef, LevelDef, Overrides, Placement, TileMapDef, Vec2};

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
    legend: Vec<legend::Entry>,
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

/// Reads `[tilemap]`; `None` when it is too broken to use (reported).
pub(crate) fn read(r: &mut Report, t: &Table<'_, '_>, files: &mut Files<'_>) -> Option<RawTileMap> {
    let image = t.name(r, "image", "image");
    let legend = legend::read(r, t);
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
    /// The archetype names its legend makes solid tiles of.
    pub fn solid_names(&self) -> impl Iterator<Item = &str> {
        self.legend.iter().filter_map(|e| e.solid())
    }
}

impl RawTileMap {
    /// Makes the map `level`'s (see [`LevelDef::add_tilemap`]: it places the merged solid
    /// rectangles, which may not pass `max_entities`, `[limits] entities`), and places the
    /// archetypes its legend places after them, in row order. Nothing when it is wrong
    /// (reported).
    pub fn resolve(
        self,
        r: &mut Report,
        level: &mut LevelDef,
        max_entities: u32,
        images: &Images,
        (names, archetypes): (&Symbols, &[ArchetypeDef]),
    ) {
        // Unknown names are all reported before giving up.
        let image = images.by_name(r, &self.image);
        let (legend, mut ok) = legend::resolve(r, &self.legend, image, images, names, archetypes);
        let (columns, rows) = (self.columns, self.rows);
        let mut cells = vec![0u16; columns * rows];
        let mut keys = vec![0u8; columns * rows];
        let mut spawned = Vec::new();
        let frames = image
            .and_then(|i| images.get(i))
            .map(|d| i64::from(d.frames()));
        let csv_first = match self.grid {
            Grid::Csv { first, .. } => Some(first),
            Grid::Chars(_) => None,
        };
        let known = &legend.chars;
        self.grid.cells(
            |x, y, token, here| match cell(token, known, csv_first, frames) {
                Ok(Some(c)) => {
                    cells[y * columns + x] = c.frame;
                    keys[y * columns + x] = c.key;
                    if let Some(a) = c.spawn {
                        spawned.push((a, x, y));
                    }
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
                        (Bad::Unknown, _) => unknown_cell(r, here, token, known, csv_first),
                    }
                }
            },
        );
        let (Some(image), true) = (image, ok) else {
            return;
        };
        let Some(def) = images.get(image) else {
            return;
        };
        let Legend { keys: legend, .. } = legend;
        let tile = self
            .tile
            .unwrap_or(Vec2::new(def.frame.0 as f32, def.frame.1 as f32));
        let origin = self.origin.unwrap_or(level.bounds.min);
        let map = TileMapDef {
            image,
            tile,
            origin,
            columns: columns as u32,
            rows: rows as u32,
            cells,
            layer: self.layer,
            legend,
            keys,
            solids: Vec::new(),
            first_solid: 0,
        };
        let spawns: Vec<Placement> = spawned
            .into_iter()
            .map(|(archetype, x, y)| Placement {
                archetype,
                pos: map.center(x as u32, y as u32),
                overrides: Overrides::default(),
            })
            .collect();
        let limit = max_entities as usize;
        if !level.add_tilemap(map, limit) {
            r.error(
                self.at,
                format!("the tile map's solid tiles make more than {limit} rectangles, more entities than `[limits] entities` allows"),
            )
            .help("use longer runs of solid tiles (they merge), or raise `entities` in `[limits]`");
            return;
        }
        level.placements.extend(spawns);
    }
}

/// Why a cell is not a tile.
enum Bad {
    /// A frame past the image's last.
    PastImage(i64),
    /// A frame past what a cell holds.
    PastTiles(i64),
    /// Neither a legend character nor (in CSV) a number.
    Unknown,
}

/// What a cell written `token` is (`None`: no tile). `known`: what each legend character's
/// cells hold; `csv_first`: the number of frame 0 when the map is CSV; `frames`: the image's
/// frames.
fn cell(
    token: &str,
    known: &[(char, legend::Cell)],
    csv_first: Option<i64>,
    frames: Option<i64>,
) -> Result<Option<legend::Cell>, Bad> {
    let mut chars = token.chars();
    if let (Some(c), None) = (chars.next(), chars.next())
        && let Some(&(_, cell)) = known.iter().find(|k| k.0 == c)
    {
        return Ok(Some(cell));
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
        Ok(Some(legend::Cell {
            key: TileMapDef::FRAME_CELL,
            frame: frame as u16 + 1,
            spawn: None,
        }))
    }
}

/// Reports a cell that is neither in the legend nor (in CSV) a frame number.
fn unknown_cell(
    r: &mut Report,
    here: Loc,
    token: &str,
    chars: &[(char, legend::Cell)],
    csv_first: Option<i64>,
) {
    let known: Vec<String> = chars.iter().map(|(c, _)| format!("`{c}`")).collect();
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
