//! Navigation: a flow field over the level's grid, computed as background work.
//!
//! A level with a `nav` grid marks cells blocked by colliders on its blocking layers. When the
//! goal entity (the first live entity with the goal tags) moves to another cell and no request
//! is in flight, Intent submits a flow-field request with an owned copy of the grid; the field
//! comes back through the completion queue and is installed at a later BeginTick. Chasers with
//! `navigate` follow the field's direction at their cell instead of a straight line, and fall
//! back to a straight line where there is no field yet or their cell has no direction.

use crate::math::{Rect, Vec2};
use serde::{Deserialize, Serialize};

/// A level's navigation grid as declared.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct NavDef {
    /// Cell size in world units.
    pub cell: f32,
    /// Collider layers that block cells.
    pub blocking: u32,
    /// Tags of the goal entity.
    pub goal: u64,
}

impl NavDef {
    /// The cell size of a navigation grid that sets none, in world units.
    pub const CELL: f32 = 32.0;
}

/// Input of one flow-field computation (owned, immutable).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct FlowInput {
    pub origin: Vec2,
    pub cell: f32,
    pub cols: u32,
    pub rows: u32,
    /// Row-major; true where blocked.
    pub blocked: Vec<bool>,
    pub goal: (u32, u32),
}

/// A computed field: for every cell, the unit direction toward the goal along a shortest
/// 8-connected path around blocked cells (zero where unreachable, blocked, or at the goal).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct FlowField {
    pub origin: Vec2,
    pub cell: f32,
    pub cols: u32,
    pub rows: u32,
    pub goal: (u32, u32),
    /// Row-major direction codes: 0 none, 1..=8 the neighbours in `DIRS` order.
    #[serde(deserialize_with = "crate::budget::vec")]
    pub dirs: Vec<u8>,
}

/// The most cells along either side of a navigation grid.
pub const MAX_GRID_SIDE: u32 = 1024;

/// Neighbour offsets, code `i + 1`.
pub const DIRS: [(i32, i32); 8] = [
    (1, 0),
    (-1, 0),
    (0, 1),
    (0, -1),
    (1, 1),
    (1, -1),
    (-1, 1),
    (-1, -1),
];

impl FlowInput {
    /// The grid over `bounds` with `cell`-sized cells, nothing blocked yet.
    pub fn grid(bounds: Rect, cell: f32, goal: Vec2) -> FlowInput {
        let cell = if cell.is_finite() && cell > 0.0 {
            cell
        } else {
            32.0
        };
        let size = bounds.size();
        let cols = ((size.x / cell).ceil() as u32).clamp(1, MAX_GRID_SIDE);
        let rows = ((size.y / cell).ceil() as u32).clamp(1, MAX_GRID_SIDE);
        let mut input = FlowInput {
            origin: bounds.min,
            cell,
            cols,
            rows,
            blocked: vec![false; (cols * rows) as usize],
            goal: (0, 0),
        };
        input.goal = input.cell_of(goal).unwrap_or((0, 0));
        input
    }

    pub fn cell_of(&self, p: Vec2) -> Option<(u32, u32)> {
        cell_of(self.origin, self.cell, self.cols, self.rows, p)
    }

    /// Marks every cell an axis-aligned box overlaps as blocked.
    pub fn block(&mut self, center: Vec2, half: Vec2) {
        let lo = (center - half - self.origin) * (1.0 / self.cell);
        let hi = (center + half - self.origin) * (1.0 / self.cell);
        let (x0, y0) = (lo.x.floor().max(0.0) as u32, lo.y.floor().max(0.0) as u32);
        let (x1, y1) = (
            (hi.x.ceil() as i64).clamp(0, self.cols as i64) as u32,
            (hi.y.ceil() as i64).clamp(0, self.rows as i64) as u32,
        );
        for y in y0..y1 {
            for x in x0..x1 {
                self.blocked[(y * self.cols + x) as usize] = true;
            }
        }
    }

    /// Breadth-first search from the goal (the pure function executors run): cells in the
    /// order they are reached, each one's neighbours in `DIRS` order, so the field is a pure
    /// function of the input. Cells past a short `blocked` count as blocked.
    pub fn compute(&self) -> FlowField {
        let (cols, rows) = (self.cols as usize, self.rows as usize);
        let n = cols * rows;
        let padded;
        let blocked: &[bool] = match self.blocked.get(..n) {
            Some(b) => b,
            None => {
                padded = (0..n)
                    .map(|i| self.blocked.get(i).copied().unwrap_or(true))
                    .collect::<Vec<_>>();
                &padded
            }
        };
        // A border of walls around the grid: a neighbour is its cell's index plus an offset,
        // and a cell is closed when it is a wall or already reached.
        let (w, h) = (cols + 2, rows + 2);
        let mut wall = vec![true; w * h];
        for (y, row) in blocked.chunks_exact(cols.max(1)).enumerate() {
            let at = (y + 1) * w + 1;
            wall[at..at + row.len()].copy_from_slice(row);
        }
        let mut closed = wall.clone();
        let mut codes = vec![0u8; w * h];
        let offset = DIRS.map(|(dx, dy)| dy as isize * w as isize + dx as isize);
        let (gx, gy) = (self.goal.0 as usize, self.goal.1 as usize);
        // The cells in the order they were reached, each once (see `Search`).
        let mut queue = vec![0u32; n.max(1)];
        let mut tail = 0;
        if gx < cols && gy < rows {
            let g = (gy + 1) * w + gx + 1;
            closed[g] = true;
            queue[0] = g as u32;
            tail = 1;
        }
        let mut bfs = Search {
            wall: &wall,
            closed: &mut closed,
            codes: &mut codes,
            queue: &mut queue,
            tail,
            offset,
        };
        let mut head = 0;
        while head < bfs.tail {
            let c = bfs.queue[head] as usize;
            head += 1;
            // `DIRS` in order: the four sides, then the four corners.
            bfs.visit::<0>(c);
            bfs.visit::<1>(c);
            bfs.visit::<2>(c);
            bfs.visit::<3>(c);
            bfs.visit::<4>(c);
            bfs.visit::<5>(c);
            bfs.visit::<6>(c);
            bfs.visit::<7>(c);
        }
        let mut dirs = Vec::with_capacity(n);
        for y in 1..=rows {
            dirs.extend_from_slice(&codes[y * w + 1..y * w + 1 + cols]);
        }
        FlowField {
            origin: self.origin,
            cell: self.cell,
            cols: self.cols,
            rows: self.rows,
            goal: self.goal,
            dirs,
        }
    }
}

/// A flow field's breadth-first search over the grid padded with a border of walls (see
/// [`FlowInput::compute`]).
///
/// Invariant: every cell in `queue[..tail]` is inside the border (the goal is, and a border
/// cell is a wall, so closed from the start), so a step of at most one row and one column from
/// it is inside the padded grid, whose size `wall`, `closed` and `codes` have; each inside
/// cell enters the queue at most once, so `queue` (one slot per inside cell) never overflows.
struct Search<'a> {
    wall: &'a [bool],
    closed: &'a mut [bool],
    codes: &'a mut [u8],
    queue: &'a mut [u32],
    tail: usize,
    /// Each of `DIRS` as a step in the padded grid's indices.
    offset: [isize; 8],
}

impl Search<'_> {
    /// Enters cell `c`'s neighbour along `DIRS[CODE]` where it is open and, for a corner, the
    /// two cells beside the diagonal are not walls. Read without bounds checks (which were a
    /// third of the search's instructions), as the type's invariant allows.
    #[inline(always)]
    fn visit<const CODE: usize>(&mut self, c: usize) {
        let ni = c.wrapping_add_signed(self.offset[CODE]);
        debug_assert!(ni < self.closed.len() && ni < self.codes.len());
        // SAFETY: `ni` is one step from a queued cell (the invariant).
        if unsafe { *self.closed.get_unchecked(ni) } {
            return;
        }
        // No corner cutting past blocked cells.
        if CODE >= 4 {
            let dx = DIRS[CODE].0 as isize;
            let (side, other) = (c.wrapping_add_signed(dx), ni.wrapping_add_signed(-dx));
            debug_assert!(side < self.wall.len() && other < self.wall.len());
            // SAFETY: each is one step from the queued cell `c` (the invariant).
            if unsafe { *self.wall.get_unchecked(side) || *self.wall.get_unchecked(other) } {
                return;
            }
        }
        debug_assert!(self.tail < self.queue.len());
        // SAFETY: `ni` as above; `tail` is below the queue's length (the invariant).
        unsafe {
            *self.closed.get_unchecked_mut(ni) = true;
            // The neighbour moves back toward this cell: the opposite direction.
            *self.codes.get_unchecked_mut(ni) = BACK[CODE] + 1;
            *self.queue.get_unchecked_mut(self.tail) = ni as u32;
        }
        self.tail += 1;
    }
}

/// For each of [`DIRS`], the index of its opposite.
const BACK: [u8; 8] = {
    let mut back = [0u8; 8];
    let mut i = 0;
    while i < 8 {
        let mut j = 0;
        while j < 8 {
            if DIRS[j].0 == -DIRS[i].0 && DIRS[j].1 == -DIRS[i].1 {
                back[i] = j as u8;
            }
            j += 1;
        }
        i += 1;
    }
    back
};

fn cell_of(origin: Vec2, cell: f32, cols: u32, rows: u32, p: Vec2) -> Option<(u32, u32)> {
    let local = (p - origin) * (1.0 / cell);
    if !local.is_finite() || local.x < 0.0 || local.y < 0.0 {
        return None;
    }
    let (x, y) = (local.x as u32, local.y as u32);
    (x < cols && y < rows).then_some((x, y))
}

impl FlowField {
    /// The unit direction at `p`, if the field has one there. A malformed field (see
    /// [`check`](Self::check)) has no direction where its data is missing or out of range.
    pub fn direction(&self, p: Vec2) -> Option<Vec2> {
        let (x, y) = cell_of(self.origin, self.cell, self.cols, self.rows, p)?;
        let at = y as usize * self.cols as usize + x as usize;
        let code = *self.dirs.get(at)?;
        let (dx, dy) = *DIRS.get(usize::from(code).checked_sub(1)?)?;
        Some(Vec2::new(dx as f32, dy as f32).normalized_or_zero())
    }

    /// Checks a field that did not come from [`FlowInput::compute`] (one read from a
    /// recording): 1 to `MAX_GRID_SIDE` cells a side, one direction code in 0..=8 per cell, a
    /// positive finite cell size, a finite origin and the goal inside the grid.
    pub fn check(&self) -> Result<(), String> {
        let (cols, rows) = (self.cols, self.rows);
        if !(1..=MAX_GRID_SIDE).contains(&cols) || !(1..=MAX_GRID_SIDE).contains(&rows) {
            return Err(format!(
                "a flow field of {cols} x {rows} cells (each side has 1 to {MAX_GRID_SIDE})"
            ));
        }
        let cells = cols as usize * rows as usize;
        if self.dirs.len() != cells {
            return Err(format!(
                "a flow field of {cols} x {rows} cells with {} directions",
                self.dirs.len()
            ));
        }
        // The largest code first (a loop the compiler vectorises), the offending one only
        // for the message.
        let largest = self.dirs.iter().fold(0u8, |m, &c| m.max(c));
        if usize::from(largest) > DIRS.len()
            && let Some(code) = self.dirs.iter().find(|c| usize::from(**c) > DIRS.len())
        {
            return Err(format!(
                "a flow field direction code {code} (codes are 0 to {})",
                DIRS.len()
            ));
        }
        if !(self.cell.is_finite() && self.cell > 0.0) {
            return Err(format!(
                "a flow field cell size of {:?} (a positive number)",
                self.cell
            ));
        }
        if !self.origin.is_finite() {
            return Err(format!(
                "a flow field origin of ({:?}, {:?})",
                self.origin.x, self.origin.y
            ));
        }
        if self.goal.0 >= cols || self.goal.1 >= rows {
            return Err(format!(
                "a flow field goal cell ({}, {}) outside its {cols} x {rows} cells",
                self.goal.0, self.goal.1
            ));
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::VecDeque;

    /// The search as first written (a distance per cell, the opposite direction looked up for
    /// every cell reached): what [`FlowInput::compute`] must still give, cell for cell.
    fn first_written(input: &FlowInput) -> Vec<u8> {
        let (cols, rows) = (input.cols as i32, input.rows as i32);
        let n = (cols * rows) as usize;
        let mut dist = vec![u32::MAX; n];
        let mut dirs = vec![0u8; n];
        let idx = |x: i32, y: i32| (y * cols + x) as usize;
        let (gx, gy) = (input.goal.0 as i32, input.goal.1 as i32);
        let mut queue = VecDeque::new();
        if gx < cols && gy < rows {
            dist[idx(gx, gy)] = 0;
            queue.push_back((gx, gy));
        }
        while let Some((x, y)) = queue.pop_front() {
            let d = dist[idx(x, y)];
            for (code, (dx, dy)) in DIRS.iter().enumerate() {
                let (nx, ny) = (x + dx, y + dy);
                if nx < 0 || ny < 0 || nx >= cols || ny >= rows {
                    continue;
                }
                let ni = idx(nx, ny);
                if input.blocked[ni] || dist[ni] != u32::MAX {
                    continue;
                }
                if *dx != 0
                    && *dy != 0
                    && (input.blocked[idx(x + dx, y)] || input.blocked[idx(x, y + dy)])
                {
                    continue;
                }
                dist[ni] = d + 1;
                let back = DIRS.iter().position(|o| *o == (-dx, -dy)).unwrap_or(code);
                dirs[ni] = back as u8 + 1;
                queue.push_back((nx, ny));
            }
        }
        dirs
    }

    #[test]
    fn the_field_is_the_first_written_search_cell_for_cell() {
        let mut rng = fastrand::Rng::with_seed(38);
        for round in 0..300 {
            let (cols, rows) = (rng.u32(1..40), rng.u32(1..30));
            // From open floors to mazes, the goal on a blocked cell now and then.
            let density = rng.f32() * 0.6;
            let input = FlowInput {
                origin: Vec2::ZERO,
                cell: 8.0,
                cols,
                rows,
                blocked: (0..cols * rows).map(|_| rng.f32() < density).collect(),
                goal: (rng.u32(0..cols), rng.u32(0..rows)),
            };
            assert_eq!(input.compute().dirs, first_written(&input), "round {round}");
        }
    }

    #[test]
    fn cells_past_a_short_blocked_list_are_blocked() {
        let mut input =
            FlowInput::grid(Rect::new(Vec2::ZERO, Vec2::new(40.0, 8.0)), 8.0, Vec2::ZERO);
        let whole = input.compute().dirs;
        assert_eq!(whole, [0, 2, 2, 2, 2]);
        input.blocked.truncate(3);
        assert_eq!(input.compute().dirs, [0, 2, 2, 0, 0]);
        input.cols = 0;
        assert_eq!(input.compute().dirs, []);
    }
}
