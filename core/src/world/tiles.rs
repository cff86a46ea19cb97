//! The level's tiles as scripts change them (`ludus.set_tile`): which legend key each cell
//! holds, and the solid rectangles placed for them, merged again only around a change.
//!
//! A change is recorded when its command is applied and made at Commit (see `tick::commit`),
//! after the tick's spawns: the cells take their new keys, the solid rectangles holding a cell
//! whose solid archetype changed are destroyed, and their tiles with the changed cells are
//! merged again into new rectangles. The next tick's Motion collides with them.

use crate::def::{SolidRun, TileMapDef};
use std::collections::BTreeMap;
use xxhash_rust::xxh3::xxh3_64;

/// See the module documentation. Until the first change of a cell, every cell is as the map
/// has it and nothing is kept.
///
/// Invariants: `keys`, when kept, holds one key per cell of the level's map (see
/// [`TileMapDef`]); `sum` is the wrapping sum of `term` over the cells whose key differs from
/// the map's, and `differ` their number; `runs`, when kept, names every solid rectangle placed
/// for the tiles that is still alive, or was destroyed by a script since it was named.
#[derive(Clone, Debug, Default)]
pub struct Tiles {
    keys: Option<Vec<u8>>,
    sum: u64,
    differ: u64,
    runs: Option<Runs>,
}

/// The solid rectangles by entity, and by the cells they cover: a segment per row of each
/// rectangle, keyed by its row and first column.
#[derive(Clone, Debug, Default)]
pub(crate) struct Runs {
    by_seq: BTreeMap<u64, SolidRun>,
    segments: BTreeMap<(u32, u32), u64>,
}

impl Runs {
    /// The level's own rectangles, with the sequences its build gave them.
    fn of(map: &TileMapDef) -> Runs {
        let mut runs = Runs::default();
        for (i, run) in map.solids.iter().enumerate() {
            runs.insert(u64::from(map.first_solid) + i as u64 + 1, *run);
        }
        runs
    }

    /// Names the rectangle of entity `seq`.
    pub fn insert(&mut self, seq: u64, run: SolidRun) {
        for row in run.row..run.row + run.height {
            self.segments.insert((row, run.column), seq);
        }
        self.by_seq.insert(seq, run);
    }

    /// Removes and returns the rectangle covering a cell, with its entity's sequence.
    pub fn take(&mut self, column: u32, row: u32) -> Option<(u64, SolidRun)> {
        let (&(r, c), &seq) = self.segments.range(..=(row, column)).next_back()?;
        let run = *self.by_seq.get(&seq)?;
        if r != row || column >= c + run.width {
            return None;
        }
        for row in run.row..run.row + run.height {
            self.segments.remove(&(row, run.column));
        }
        self.by_seq.remove(&seq);
        Some((seq, run))
    }
}

/// What a cell holding `key` adds to the state hash once it differs from the map.
fn term(cell: usize, key: u8) -> u64 {
    let mut bytes = [0u8; 9];
    bytes[..8].copy_from_slice(&(cell as u64).to_le_bytes());
    bytes[8] = key;
    xxh3_64(&bytes)
}

impl Tiles {
    /// The key cell `cell` holds now.
    pub fn key(&self, map: &TileMapDef, cell: usize) -> u8 {
        match &self.keys {
            Some(keys) => keys[cell],
            None => map.keys[cell],
        }
    }

    /// The frame plus one cell `cell` draws now (0: none).
    pub fn frame(&self, map: &TileMapDef, cell: usize) -> u16 {
        match &self.keys {
            Some(keys) if keys[cell] != map.keys[cell] => map.frame_of(keys[cell], cell),
            _ => map.cells[cell],
        }
    }

    /// What the state hash covers: `(cells that differ from the map, their sum)`, once a
    /// script changed a tile (setting one back keeps it: `(0, 0)`).
    pub fn hashed(&self) -> Option<(u64, u64)> {
        self.keys.as_ref().map(|_| (self.differ, self.sum))
    }

    /// Sets a cell's key; returns its old key. Setting the key a cell holds changes nothing
    /// (so the map is kept only from the first real change).
    pub(crate) fn set(&mut self, map: &TileMapDef, cell: usize, key: u8) -> u8 {
        if self.key(map, cell) == key {
            return key;
        }
        let keys = self.keys.get_or_insert_with(|| map.keys.clone());
        let old = std::mem::replace(&mut keys[cell], key);
        let base = map.keys[cell];
        if old != base {
            self.sum = self.sum.wrapping_sub(term(cell, old));
            self.differ -= 1;
        }
        if key != base {
            self.sum = self.sum.wrapping_add(term(cell, key));
            self.differ += 1;
        }
        old
    }

    /// The solid rectangles by the cells they cover (the level's own, with the sequences its
    /// build gave them, the first time), to change and give back ([`put_runs`]).
    ///
    /// [`put_runs`]: Self::put_runs
    pub(crate) fn take_runs(&mut self, map: &TileMapDef) -> Runs {
        self.runs.take().unwrap_or_else(|| Runs::of(map))
    }

    pub(crate) fn put_runs(&mut self, runs: Runs) {
        self.runs = Some(runs);
    }
}
