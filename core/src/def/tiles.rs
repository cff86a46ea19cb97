//! Tile maps: a level's grid of tiles drawn from one image's frames, and the solid tiles
//! merged into few rectangles (static colliders placed with the level).

use crate::def::{ArchetypeId, AssetId};
use crate::math::{Rect, Vec2};
use serde::{Deserialize, Serialize};

/// A grid of tiles drawn from the frames of one image, on one draw layer.
///
/// Invariant: `cells.len() == columns * rows`; a cell holds its frame plus one, 0 for no
/// tile; `tile` is positive.
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
}

impl TileMapDef {
    /// The draw layer of a tile map that sets none: below sprites, which are on layer 0
    /// unless they say.
    pub const LAYER: i16 = -1;

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
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
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
    fn the_view_covers_only_the_tiles_it_overlaps() {
        let map = TileMapDef {
            image: AssetId(0),
            tile: Vec2::new(10.0, 20.0),
            origin: Vec2::new(-50.0, -100.0),
            columns: 10,
            rows: 10,
            cells: vec![1; 100],
            layer: 0,
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
