//! The kept records of rows that move but keep no mind (see `minds`): a bullet's, an
//! emitter's, a pickup's. Per row, the values its velocity record and, where its archetype has
//! one, its lifetime record were hashed from, their hashes, and the first part of its position
//! record, four rows to a chunk (`slots`); and the pass over such rows: each row's position record
//! and the two kept ones, hashed again where their values changed. One row at a time, or four
//! where an x86_64 CPU has AVX2 (`wide`, asked at run time).
//!
//! A row whose records all stay costs one comparison of its identity, velocity and lifetime
//! with the kept values, its position record's second half, and the two kept hashes added.

use super::record::position_after;
pub(super) use slots::{MoverRows, MoverSlots, Movers};

mod slots;
#[cfg(test)]
mod tests;
#[cfg(target_arch = "x86_64")]
mod wide;

impl MoverSlots<'_> {
    /// The sums of `rows`' position, velocity and lifetime records (one slot a row), the
    /// velocity and lifetime records hashed again where their values differ from the kept
    /// ones: four rows at a time where the CPU has AVX2, else one at a time.
    pub(super) fn sums(&mut self, rows: &MoverRows<'_>) -> [u64; 3] {
        self.sums_by(rows, true)
    }

    /// [`sums`](Self::sums), four rows at a time only where `wide` (and the CPU can): the
    /// tests hold both ways to the same sums.
    fn sums_by(&mut self, rows: &MoverRows<'_>, wide: bool) -> [u64; 3] {
        assert!(rows.even() && rows.len() == self.len(), "a slot a row");
        let (from, mut sums) = if wide { self.wide(rows) } else { (0, [0; 3]) };
        for r in from..rows.len() {
            let (c, j) = self.check(r, rows);
            let row = [
                position_after(c.head[j], &rows.pos[r]),
                c.vel_hash[j],
                c.life_hash[j],
            ];
            for (s, h) in sums.iter_mut().zip(row) {
                *s = s.wrapping_add(h);
            }
        }
        sums
    }

    /// The first rows summed four at a time (see [`sums`](Self::sums)): how many, and their
    /// sums; none where the CPU has no AVX2.
    #[inline]
    fn wide(&mut self, rows: &MoverRows<'_>) -> (usize, [u64; 3]) {
        #[cfg(target_arch = "x86_64")]
        if std::arch::is_x86_feature_detected!("avx2") {
            // SAFETY: the CPU has AVX2; a slot a row, every column of one length (checked by
            // the caller).
            return unsafe { wide::sums(self, rows) };
        }
        let _ = rows;
        (0, [0; 3])
    }
}
