//! Tile maps: a level's grid of tiles drawn from one image's frames, the legend's characters
//! each cell is, and the solid tiles merged into few rectangles (static colliders placed with
//! the level, merged again around a tile scripts change: see `world::tiles`).

use crate::def::{ArchetypeId, AssetId};
use crate::math::{Rect, Vec2};
use serde::{Deserialize, Serialize};

/// A grid of tiles drawn from the frames of one image, on one draw layer.
///
/// Invariants: `cells.len() == keys.len() == columns * rows`; a cell holds its frame plus
/// one, 0 for no tile; a key is a tile of `legend` plus one (never a spawn entry), 0 for no
/// tile, or [`TileMapDef::FRAME_CELL`]; `legend` holds at most [`TileMapDef::MAX_LEGEND`]
/// entries; `tile` is positive; `placements[first_solid + i]` of the level places
/// `solids[i]`'s rectangle, so the level's build gives it sequence `first_solid + i + 1`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TileMapDef {
    pub image: AssetId,
    /// World size of one tile.
    pub tile: Vec2,
    /// World position of the first row's first tile's top-left corner.
    pub origin: Vec2,
    pub columns: u32,
    pub rows: u32,
    pub cells: Vec<u16>,
    /// Draw layer (sprites on lower layers draw first).
    pub layer: i16,
    /// What each character of the legend is.
    pub legend: Vec<TileKey>,
    /// Each cell's legend key (see the invariants).
    pub keys: Vec<u8>,
    /// The solid tiles merged into rectangles, as the level places them.
    pub solids: Vec<SolidRun>,
    /// The index in the level's placements of the first solid rectangle.
    pub first_solid: u32,
}

/// One character of a tile map's legend: a tile (its frame and solid archetype), or an
/// archetype placed on a cell when the level starts (its cell holds the floor entry's key).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TileKey {
    pub ch: char,
    /// The frame drawn plus one; 0: nothing drawn.
    pub frame: u16,
    /// The archetype whose static collider the tile has.
    pub solid: Option<ArchetypeId>,
    /// A spawn entry's archetype (then it is no tile, and `frame` and `solid` are unset).
    pub spawn: Option<ArchetypeId>,
}

/// Why a character cannot be set as a tile (see [`TileMapDef::key_of`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NotATile {
    /// Not in the legend.
    Unknown,
    /// A spawn entry's character: it places an archetype, it is not a tile.
    Spawn,
}

impl TileMapDef {
    /// The draw layer of a tile map that sets none: below sprites, which are on layer 0
    /// unless they say.
    pub const LAYER: i16 = -1;
    /// The key of a CSV cell given as a frame number: a tile, but no character of the legend.
    pub const FRAME_CELL: u8 = u8::MAX;
    /// The most entries a legend holds (keys are bytes, one of which is [`Self::FRAME_CELL`]).
    pub const MAX_LEGEND: usize = u8::MAX as usize - 1;

    /// The cell (its index in `cells`) at world point `p`, if the map covers it. A point on
    /// the line between two cells is in the one right of or below it.
    pub fn cell_at(&self, p: Vec2) -> Option<usize> {
        let column = ((p.x - self.origin.x) / self.tile.x).floor();
        let row = ((p.y - self.origin.y) / self.tile.y).floor();
        let inside =
            (0.0..self.columns as f32).contains(&column) && (0.0..self.rows as f32).contains(&row);
        inside.then(|| row as usize * self.columns as usize + column as usize)
    }

    /// The key that sets `ch` on a cell: a tile of the legend, or `' '` (no tile).
    pub fn key_of(&self, ch: char) -> Result<u8, NotATile> {
        if ch == ' ' {
            return Ok(0);
        }
        match self.legend.iter().position(|k| k.ch == ch) {
            Some(i) if self.legend[i].spawn.is_some() => Err(NotATile::Spawn),
            Some(i) => u8::try_from(i + 1).map_err(|_| NotATile::Unknown),
            None => Err(NotATile::Unknown),
        }
    }

    /// The legend's tiles, as messages list them: `` `#`, `.` `` (spawn entries left out).
    pub fn tile_names(&self) -> String {
        let names: Vec<String> = (self.legend.iter())
            .filter(|k| k.spawn.is_none())
            .map(|k| format!("`{}`", k.ch))
            .collect();
        names.join(", ")
    }

    /// The character a key stands for (`None`: no tile, or a CSV frame number).
    pub fn char_of(&self, key: u8) -> Option<char> {
        let i = usize::from(key).checked_sub(1)?;
        self.legend.get(i).map(|k| k.ch)
    }

    /// The archetype of a key's solid tile.
    pub fn solid_of(&self, key: u8) -> Option<ArchetypeId> {
        let i = usize::from(key).checked_sub(1)?;
        self.legend.get(i).and_then(|k| k.solid)
    }

    /// The frame plus one a key draws (0: none); a CSV frame cell draws its own (`cell`).
    pub fn frame_of(&self, key: u8, cell: usize) -> u16 {
        match key {
            Self::FRAME_CELL => self.cells[cell],
            k => usize::from(k)
                .checked_sub(1)
                .and_then(|i| self.legend.get(i))
                .map_or(0, |k| k.frame),
        }
    }

    /// Where `run`'s rectangle is placed, and its size: the centre of its tiles, as the level
    /// places it (and a change of tiles places the rectangles merged around it).
    pub fn run_place(&self, run: &SolidRun) -> (Vec2, Vec2) {
        let size = Vec2::new(
            run.width as f32 * self.tile.x,
            run.height as f32 * self.tile.y,
        );
        let corner = self.origin
            + Vec2::new(
                run.column as f32 * self.tile.x,
                run.row as f32 * self.tile.y,
            );
        (corner + size * 0.5, size)
    }

    /// The frame of the tile at `(column, row)`, if there is one.
    pub fn frame(&self, column: u32, row: u32) -> Option<u16> {
        if column >= self.columns || row >= self.rows {
            return None;
        }
        let cell = self.cells[(row * self.columns + column) as usize];
        cell.checked_sub(1)
    }

    /// The centre of the tile at `(column, row)`.
    pub fn center(&self, column: u32, row: u32) -> Vec2 {
        self.origin
            + Vec2::new(
                (column as f32 + 0.5) * self.tile.x,
                (row as f32 + 0.5) * self.tile.y,
            )
    }

    /// The columns and rows (half-open ranges) of the tiles that overlap `view`.
    pub fn covering(&self, view: Rect) -> (std::ops::Range<u32>, std::ops::Range<u32>) {
        let span = |lo: f32, hi: f32, origin: f32, size: f32, n: u32| {
            let a = ((lo - origin) / size).floor().max(0.0);
            let b = ((hi - origin) / size).ceil().max(0.0);
            (a.min(n as f32) as u32)..(b.min(n as f32) as u32)
        };
        (
            span(
                view.min.x,
                view.max.x,
                self.origin.x,
                self.tile.x,
                self.columns,
            ),
            span(
                view.min.y,
                view.max.y,
                self.origin.y,
                self.tile.y,
                self.rows,
            ),
        )
    }
}

/// A rectangle of equal solid tiles: first column and row, width and height in tiles, and
/// the archetype its collider comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SolidRun {
    pub column: u32,
    pub row: u32,
    pub width: u32,
    pub height: u32,
    pub archetype: ArchetypeId,
}

/// Merges the solid tiles of a `columns` x `rows` grid (`solid(column, row)`: the archetype of
/// a solid tile) into rectangles, greedily: each row's runs of equal tiles, then each run
/// extended down over rows with the same run. Every solid tile is in exactly one rectangle;
/// rectangles come in row-major order of their top-left tile. Stops once it holds more than
/// `limit` rectangles (the caller reports that), so a hostile map cannot fill memory.
pub fn merge_solids(
    columns: u32,
    rows: u32,
    limit: usize,
    solid: impl Fn(u32, u32) -> Option<ArchetypeId>,
) -> Vec<SolidRun> {
    let (w, h) = (columns as usize, rows as usize);
    let mut taken = vec![false; w * h];
    let mut out = Vec::new();
    for row in 0..rows {
        let mut column = 0;
        while column < columns {
            let i = row as usize * w + column as usize;
            let Some(a) = solid(column, row).filter(|_| !taken[i]) else {
                column += 1;
                continue;
            };
            // The run along the row.
            let mut width = 1;
            while column + width < columns
                && !taken[i + width as usize]
                && solid(column + width, row) == Some(a)
            {
                width += 1;
            }
            // Rows below with the same run (the same tiles, not yet taken).
            let same = |r: u32| {
                (column..column + width)
                    .all(|c| !taken[r as usize * w + c as usize] && solid(c, r) == Some(a))
            };
            let mut height = 1;
            while row + height < rows && same(row + height) {
                height += 1;
            }
            for r in row..row + height {
                let start = r as usize * w + column as usize;
                taken[start..start + width as usize].fill(true);
            }
            out.push(SolidRun {
                column,
                row,
                width,
                height,
                archetype: a,
            });
            if out.len() > limit {
                return out;
            }
            column += width;
        }
    }
    let _ = h;
    out
}

/// [`merge_solids`] over some cells only: `cells` (by `(row, column)`, emptied) are merged
/// greedily in the same order into rectangles of equal solid tiles (`solid(column, row)`),
/// which never take a cell not in `cells`. Its cost follows the cells given, not the map, so
/// a change of tiles is merged again only around it.
pub fn merge_cells(
    cells: &mut std::collections::BTreeSet<(u32, u32)>,
    solid: impl Fn(u32, u32) -> Option<ArchetypeId>,
) -> Vec<SolidRun> {
    let mut out = Vec::new();
    while let Some((row, column)) = cells.pop_first() {
        let Some(a) = solid(column, row) else {
            continue;
        };
        // The run along the row.
        let mut width = 1;
        while solid(column + width, row) == Some(a) && cells.remove(&(row, column + width)) {
            width += 1;
        }
        // Rows below with the same run.
        let mut height = 1;
        while (column..column + width)
            .all(|c| solid(c, row + height) == Some(a) && cells.contains(&(row + height, c)))
        {
            for c in column..column + width {
                cells.remove(&(row + height, c));
            }
            height += 1;
        }
        out.push(SolidRun {
            column,
            row,
            width,
            height,
            archetype: a,
        });
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The runs of a map drawn in characters: `#` and `=` are two kinds of solid tile.
    fn runs(map: &[&str]) -> Vec<(u32, u32, u32, u32, u16)> {
        let grid: Vec<Vec<u8>> = map.iter().map(|r| r.bytes().collect()).collect();
        let solid = |c: u32, r: u32| match grid[r as usize][c as usize] {
            b'#' => Some(ArchetypeId(1)),
            b'=' => Some(ArchetypeId(2)),
            _ => None,
        };
        merge_solids(grid[0].len() as u32, grid.len() as u32, usize::MAX, solid)
            .iter()
            .map(|s| (s.column, s.row, s.width, s.height, s.archetype.0))
            .collect()
    }

    #[test]
    fn solid_tiles_merge_into_few_rectangles() {
        // A walled room: top and bottom walls are one rectangle each, the sides one each.
        assert_eq!(
            runs(&["######", "#....#", "#....#", "######"]),
            [
                (0, 0, 6, 1, 1),
                (0, 1, 1, 3, 1),
                (5, 1, 1, 3, 1),
                (1, 3, 4, 1, 1)
            ]
        );
        // A block is one rectangle; different kinds never merge.
        assert_eq!(
            runs(&["##==", "##==", "...."]),
            [(0, 0, 2, 2, 1), (2, 0, 2, 2, 2)]
        );
        // Nothing solid, nothing placed.
        assert_eq!(runs(&["...", "..."]), []);
        // A limit stops the merge one rectangle past it.
        let checker = |c: u32, r: u32| (c + r).is_multiple_of(2).then_some(ArchetypeId(1));
        assert_eq!(merge_solids(100, 100, 10, checker).len(), 11);
        // A staircase: each row's run stands alone.
        assert_eq!(
            runs(&["#..", "##.", "###"]),
            [(0, 0, 1, 3, 1), (1, 1, 1, 2, 1), (2, 2, 1, 1, 1)]
        );
    }

    #[test]
    fn every_solid_tile_is_covered_exactly_once() {
        let mut rng = fastrand::Rng::with_seed(7);
        for _ in 0..200 {
            let (w, h) = (rng.u32(1..12), rng.u32(1..12));
            let grid: Vec<Option<ArchetypeId>> = (0..w * h)
                .map(|_| match rng.u8(0..4) {
                    0 => Some(ArchetypeId(1)),
                    1 => Some(ArchetypeId(2)),
                    _ => None,
                })
                .collect();
            let solid = |c: u32, r: u32| grid[(r * w + c) as usize];
            let mut covered = vec![0u8; (w * h) as usize];
            for s in merge_solids(w, h, usize::MAX, solid) {
                for r in s.row..s.row + s.height {
                    for c in s.column..s.column + s.width {
                        assert_eq!(solid(c, r), Some(s.archetype));
                        covered[(r * w + c) as usize] += 1;
                    }
                }
            }
            for (i, n) in covered.iter().enumerate() {
                assert_eq!(*n, u8::from(grid[i].is_some()), "tile {i}");
            }
        }
    }

    #[test]
    fn merging_some_cells_is_merging_the_map_where_they_are_all_its_solid_tiles() {
        let mut rng = fastrand::Rng::with_seed(11);
        for _ in 0..200 {
            let (w, h) = (rng.u32(1..12), rng.u32(1..12));
            let grid: Vec<Option<ArchetypeId>> = (0..w * h)
                .map(|_| [None, None, Some(ArchetypeId(1)), Some(ArchetypeId(2))][rng.usize(..4)])
                .collect();
            let solid = |c: u32, r: u32| {
                (c < w && r < h)
                    .then(|| grid[(r * w + c) as usize])
                    .flatten()
            };
            let mut cells: std::collections::BTreeSet<(u32, u32)> = (0..w * h)
                .filter(|i| grid[*i as usize].is_some() || rng.bool())
                .map(|i| (i / w, i % w))
                .collect();
            assert_eq!(
                merge_cells(&mut cells, solid),
                merge_solids(w, h, usize::MAX, solid),
                "{w} x {h}"
            );
            assert!(cells.is_empty(), "every cell given is used up");
        }
        // Cells not given are never taken: a wall with its middle left out merges around it.
        let wall = |c: u32, r: u32| (c < 5 && r < 3).then_some(ArchetypeId(1));
        let mut cells: std::collections::BTreeSet<(u32, u32)> =
            (0..3).flat_map(|r| (0..5).map(move |c| (r, c))).collect();
        cells.remove(&(1, 2));
        let runs: Vec<_> = merge_cells(&mut cells, wall)
            .iter()
            .map(|s| (s.column, s.row, s.width, s.height))
            .collect();
        assert_eq!(
            runs,
            [(0, 0, 5, 1), (0, 1, 2, 2), (3, 1, 2, 2), (2, 2, 1, 1)]
        );
    }

    #[test]
    fn cells_are_found_by_world_point_and_tiles_by_character() {
        let key = |ch, frame, solid: Option<u16>, spawn: Option<u16>| TileKey {
            ch,
            frame,
            solid: solid.map(ArchetypeId),
            spawn: spawn.map(ArchetypeId),
        };
        let map = TileMapDef {
            image: AssetId(0),
            tile: Vec2::new(10.0, 20.0),
            origin: Vec2::new(-50.0, -100.0),
            columns: 4,
            rows: 2,
            cells: vec![0, 1, 2, 9, 0, 0, 0, 0],
            layer: 0,
            legend: vec![
                key('#', 1, Some(3), None),
                key('.', 2, None, None),
                key('E', 0, None, Some(4)),
            ],
            keys: vec![0, 1, 2, TileMapDef::FRAME_CELL, 0, 0, 0, 0],
            solids: Vec::new(),
            first_solid: 0,
        };
        // (point, cell): edges belong to the cell right of or below them.
        let points = [
            ((-50.0, -100.0), Some(0)),
            ((-40.0, -100.0), Some(1)),
            ((-10.1, -80.1), Some(3)),
            ((-10.0, -80.0), None),
            ((-50.0, -80.0), Some(4)),
            ((-15.0, -61.0), Some(7)),
            ((-50.1, -90.0), None),
            ((f32::NAN, -90.0), None),
        ];
        for ((x, y), cell) in points {
            assert_eq!(map.cell_at(Vec2::new(x, y)), cell, "({x}, {y})");
        }
        assert_eq!(
            ['#', '.', ' ', 'E', 'x'].map(|c| map.key_of(c)),
            [
                Ok(1),
                Ok(2),
                Ok(0),
                Err(NotATile::Spawn),
                Err(NotATile::Unknown)
            ]
        );
        assert_eq!(map.tile_names(), "`#`, `.`");
        let keys = [0, 1, 2, TileMapDef::FRAME_CELL];
        assert_eq!(
            keys.map(|k| map.char_of(k)),
            [None, Some('#'), Some('.'), None]
        );
        assert_eq!(
            keys.map(|k| map.solid_of(k)),
            [None, Some(ArchetypeId(3)), None, None]
        );
        assert_eq!(keys.map(|k| map.frame_of(k, 3)), [0, 1, 2, 9]);
    }

    #[test]
    fn the_view_covers_only_the_tiles_it_overlaps() {
        let map = TileMapDef {
            image: AssetId(0),
            tile: Vec2::new(10.0, 20.0),
            origin: Vec2::new(-50.0, -100.0),
            columns: 10,
            rows: 10,
            cells: vec![1; 100],
            layer: 0,
            legend: Vec::new(),
            keys: vec![TileMapDef::FRAME_CELL; 100],
            solids: Vec::new(),
            first_solid: 0,
        };
        let view = Rect::new(Vec2::new(-35.0, -100.0), Vec2::new(0.0, -41.0));
        assert_eq!(map.covering(view), (1..5, 0..3));
        // Outside the map: nothing.
        let far = Rect::new(Vec2::new(500.0, 500.0), Vec2::new(600.0, 600.0));
        let (c, r) = map.covering(far);
        assert!(c.is_empty() && r.is_empty());
        assert_eq!(map.center(0, 0), Vec2::new(-45.0, -90.0));
        assert_eq!((map.frame(0, 0), map.frame(10, 0)), (Some(0), None));
    }
}
