//! The kept records of rows that have all three kept records (a velocity, health, and a brain
//! with an aim and no control: a drone's), four rows' values side by side as the rows' own
//! columns hold them (`slots`), and the pass over such rows: each row's position record,
//! and the velocity, health and AI records hashed again where their values changed. One row
//! at a time, or four where an x86_64 CPU has AVX2 (`wide`, asked at run time).
//!
//! A row whose records all stay costs one comparison of its identity, velocity, health,
//! brain and aim with the kept values, and its position record's second half.

use super::record::position_after;
use crate::world::health::MaxHealth;
pub(super) use slots::{MindRows, MindSlots, Minds};

#[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
mod packed;
mod slots;
#[cfg(test)]
mod tests;
#[cfg(target_arch = "x86_64")]
mod wide;

impl MindSlots<'_> {
    /// The sum of `rows`' position records (one slot a row), their velocity, health and AI
    /// records hashed again where their values differ from the kept ones and what that
    /// changed the records' sums by added to `delta`: four rows at a time where the CPU has
    /// AVX2, else one at a time.
    pub(super) fn positions(
        &mut self,
        rows: &MindRows<'_>,
        max: &MaxHealth,
        delta: &mut [u64; 3],
    ) -> u64 {
        self.positions_by(rows, max, delta, true)
    }

    /// [`positions`](Self::positions), four rows at a time only where `wide` (and the CPU
    /// can): the tests hold both ways to the same sums.
    fn positions_by(
        &mut self,
        rows: &MindRows<'_>,
        max: &MaxHealth,
        delta: &mut [u64; 3],
        wide: bool,
    ) -> u64 {
        assert!(rows.even() && rows.len() == self.len(), "a slot a row");
        let (from, mut sum) = if wide {
            self.wide(rows, max, delta)
        } else {
            (0, 0)
        };
        for r in from..rows.len() {
            self.check(r, rows, max, delta);
            sum = sum.wrapping_add(position_after(self.head(r), &rows.pos[r]));
        }
        sum
    }

    /// The first rows hashed four at a time (see [`positions`](Self::positions)): how many,
    /// and their position records' sum; none where the CPU has no AVX2 (in the browser's
    /// build, always four at a time in `simd128`'s lanes).
    #[inline]
    fn wide(&mut self, rows: &MindRows<'_>, max: &MaxHealth, delta: &mut [u64; 3]) -> (usize, u64) {
        #[cfg(target_arch = "x86_64")]
        if std::arch::is_x86_feature_detected!("avx2") {
            // SAFETY: the CPU has AVX2; a slot a row, every column of one length (checked by
            // the caller).
            return unsafe { wide::positions(self, rows, max, delta) };
        }
        // SAFETY: a slot a row, every column of one length (checked by the caller).
        #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
        return unsafe { packed::positions(self, rows, max, delta) };
        #[cfg(not(all(target_arch = "wasm32", target_feature = "simd128")))]
        {
            let _ = (rows, max, delta);
            (0, 0)
        }
    }
}
