//! The bucket scan of a uniform search (every run one extent, layer and looks, looking at its
//! own layer: [`uniform`](super::uniform)) with the candidates within reach noted first and tested
//! after: the loop over a bucket's candidates then holds nothing across a call, and a bucket
//! costs a few loads and one check of the budget and of the notes' room.

use super::{Found, Space};
use crate::collision::grid::{Compact, Grid};

/// Candidates within reach noted before they are tested (of the few candidates a crowd's
/// body has, about one in ten is within reach).
const NOTES: usize = 256;

/// Candidates within reach, each as the place of the body in the sorted records and the
/// record it is within reach of, in the order [`Space::scan`] would test them.
struct Notes {
    hits: [(u32, Compact); NOTES],
    len: usize,
}

impl Notes {
    /// Notes every record of `others` within `reach2` of `a` (at `k`) as `pairs_in` decides it
    /// (NaN is within reach: the narrow phase decides it). The caller has made room for all.
    #[inline(always)]
    fn note(&mut self, a: &Compact, k: u32, others: &[Compact], reach2: f32) {
        for b in others {
            let (dx, dy) = (b.x - a.x, b.y - a.y);
            if dx * dx + dy * dy >= reach2 {
                continue;
            }
            self.hits[self.len] = (k, *b);
            self.len += 1;
        }
    }
}

impl Space<'_> {
    /// [`scan`](Space::scan) of a uniform search over `rows`: the same candidates spent and
    /// the same pairs tested in the same order, while the budget covers each bucket's
    /// candidates. `Err((row, col))`: the bucket it does not cover, where the body-by-body
    /// scan goes on (nothing of it spent or tested); `Ok` when done or the pairs ran out
    /// (`found.stop`).
    #[inline(never)]
    pub(super) fn scan_noted(
        &self,
        grid: &Grid,
        rows: std::ops::Range<u32>,
        found: &mut Found<'_>,
    ) -> Result<(), (u32, u32)> {
        let Some(first) = self.runs.first() else {
            return Ok(());
        };
        let reach = first.extent + first.extent;
        let reach2 = reach * reach;
        let cols = grid.cols;
        let (cmask, rmask) = (cols - 1, grid.rows - 1);
        let starts = &self.bins.starts[..];
        let sorted = self.bins.sorted();
        let width = cols as usize;
        let mut notes = Notes {
            hits: [(0, Compact::default()); NOTES],
            len: 0,
        };
        for row in rows {
            let below = ((row + 1) & rmask) * cols;
            // This row's bucket starts and the next row's, each with the end after them.
            let here = &starts[(row * cols) as usize..][..=width];
            let next = &starts[below as usize..][..=width];
            for c in 0..width {
                let (s, e) = (here[c] as usize, here[c + 1] as usize);
                if s == e {
                    continue;
                }
                // Spends the bucket's `$all` candidates and makes room for them in the notes:
                // where the budget does not cover them, the body-by-body scan goes on from
                // this bucket (once the notes are tested); where the notes cannot hold them,
                // the bucket's bodies are tested as their candidates come.
                macro_rules! spend {
                    ($all:expr, $end:expr, $around:expr) => {
                        let all: u64 = $all;
                        if found.work.saturating_add(all) > found.budget {
                            return match found.test_notes(self, &mut notes) {
                                true => Err((row, c as u32)),
                                false => Ok(()),
                            };
                        }
                        found.work += all;
                        if notes.len as u64 + all > NOTES as u64 {
                            if !found.test_notes(self, &mut notes) {
                                return Ok(());
                            }
                            if all > NOTES as u64 {
                                if !self.bodies::<true>(found, s..e, $end, $around, None) {
                                    return Ok(());
                                }
                                continue;
                            }
                        }
                    };
                }
                let n = e - s;
                if c >= 1 && c < cmask as usize {
                    // In the middle of a row, the bucket east of this one follows it and the
                    // three below are one range (the case a scan spends most in, written out).
                    let end = here[c + 2] as usize;
                    let (rs, re) = (next[c - 1], next[c + 2]);
                    spend!(candidates(n, end - s, (re - rs) as usize), end, &[(rs, re)]);
                    let below = &sorted[rs as usize..re as usize];
                    for k in s..e {
                        let a = &sorted[k];
                        notes.note(a, k as u32, &sorted[k + 1..end], reach2);
                        notes.note(a, k as u32, below, reach2);
                    }
                    continue;
                }
                let (end, around, ranges) = super::neighbours(here, next, c, cmask);
                let around = &around[ranges];
                let others: usize = around.iter().map(|&(rs, re)| (re - rs) as usize).sum();
                spend!(candidates(n, end - s, others), end, around);
                for k in s..e {
                    let a = &sorted[k];
                    notes.note(a, k as u32, &sorted[k + 1..end], reach2);
                    for &(rs, re) in around {
                        notes.note(a, k as u32, &sorted[rs as usize..re as usize], reach2);
                    }
                }
            }
        }
        found.test_notes(self, &mut notes);
        Ok(())
    }
}

/// The candidates a bucket of `n` bodies spends, `after` records from its first to the end of
/// its run (itself, and the bucket east of it where that follows it) and `others` in the
/// other buckets around: each body with the records after it in the run and with the others,
/// what the body-by-body scan spends a body at a time. In `u64`, where no count of bodies
/// overflows it (a `usize` of 32 bits would at 65,536 bodies in one bucket's reach).
fn candidates(n: usize, after: usize, others: usize) -> u64 {
    let (n, after, others) = (n as u64, after as u64, others as u64);
    n * (after + others) - n * (n + 1) / 2
}

impl Found<'_> {
    /// Tests the noted candidates in order and forgets them; `false` where the search stopped
    /// (the pairs ran out).
    fn test_notes(&mut self, space: &Space<'_>, notes: &mut Notes) -> bool {
        let sorted = space.bins.sorted();
        let len = std::mem::take(&mut notes.len);
        for &(k, b) in &notes.hits[..len] {
            let a = &sorted[k as usize];
            self.test(space, a.index, a.run, a.pos(), b.index, b.run, b.pos());
            if self.stop.is_some() {
                return false;
            }
        }
        true
    }
}
