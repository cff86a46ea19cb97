//! A sparse search's binned queriers as the near bodies' tests read them: position, extent
//! and looks in one record (no lookup of the querier's run per test), and, where there are
//! few of them, side by side, so a near body is tested against all of them at once.

use crate::collision::grid::{Compact, Run};
use crate::math::{Vec2, within8};

/// Queriers up to which a near body of the sparse search checks every one directly, and all
/// at once.
pub(super) const FEW_QUERIERS: usize = 8;

/// A binned querier as a near body's test reads it.
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct Querier {
    pub x: f32,
    pub y: f32,
    pub extent: f32,
    pub looks: u32,
}

impl Querier {
    /// Whether it looks at `layer` and a body at `b` of `extent` is within its reach: `b - q`
    /// squared and summed, under the square of the two extents' sum, in f32, as a pair's
    /// reach is tested everywhere in the search.
    #[inline(always)]
    pub fn reaches(&self, b: Vec2, extent: f32, layer: u32) -> bool {
        let (dx, dy) = (b.x - self.x, b.y - self.y);
        let reach = self.extent + extent;
        self.looks & layer != 0 && dx * dx + dy * dy < reach * reach
    }
}

/// The binned queriers of a sparse search, in their binned order.
///
/// Invariant: after [`fill`](Self::fill), record `k` is binned record `k` of the search.
#[derive(Clone, Debug, Default)]
pub(super) struct Lanes {
    queriers: Vec<Querier>,
}

impl Lanes {
    /// The records of the binned `queriers` of `runs` (reusing the buffer).
    pub fn fill(&mut self, queriers: &[Compact], runs: &[Run]) {
        self.queriers.clear();
        self.queriers.extend(queriers.iter().map(|q| {
            let run = &runs[q.run as usize];
            Querier {
                x: q.x,
                y: q.y,
                extent: run.extent,
                looks: run.looks,
            }
        }));
    }

    /// The records `from..to`.
    #[inline(always)]
    pub fn get(&self, from: usize, to: usize) -> &[Querier] {
        &self.queriers[from..to]
    }

    /// All of them side by side, where there are at most [`FEW_QUERIERS`].
    pub fn few(&self) -> Option<Few> {
        if self.queriers.len() > FEW_QUERIERS {
            return None;
        }
        let mut few = Few {
            x: [0.0; FEW_QUERIERS],
            y: [0.0; FEW_QUERIERS],
            extent: [0.0; FEW_QUERIERS],
            by_layer: [0; 32],
        };
        for (k, q) in self.queriers.iter().enumerate() {
            (few.x[k], few.y[k], few.extent[k]) = (q.x, q.y, q.extent);
            for (bit, lookers) in few.by_layer.iter_mut().enumerate() {
                *lookers |= u8::from(q.looks & (1 << bit) != 0) << k;
            }
        }
        Some(few)
    }
}

/// At most [`FEW_QUERIERS`] queriers side by side; lanes past the last look at nothing.
pub(super) struct Few {
    x: [f32; FEW_QUERIERS],
    y: [f32; FEW_QUERIERS],
    extent: [f32; FEW_QUERIERS],
    /// Per layer bit, bit `k` set where querier `k` looks at that layer.
    by_layer: [u8; 32],
}

impl Few {
    /// Bit k set where querier k [reaches](Querier::reaches) a body at `b` of `extent` on
    /// `layer`, with the same operations in the same order (in packed lanes).
    #[inline(always)]
    pub fn within(&self, b: Vec2, extent: f32, layer: u32) -> u32 {
        let mut looking = 0;
        let mut bits = layer;
        while bits != 0 {
            looking |= u32::from(self.by_layer[bits.trailing_zeros() as usize]);
            bits &= bits - 1;
        }
        if looking == 0 {
            return 0;
        }
        looking & within8(&self.x, &self.y, &self.extent, b, extent)
    }
}
