//! The byte layouts of hashed records: little-endian words, floats by their bits.

use crate::world::components::Deadline;
use xxhash_rust::xxh3::xxh3_64;

/// Little-endian byte writer for one hashed record.
#[derive(Default)]
pub(super) struct Bytes(Vec<u8>);

impl Bytes {
    pub(super) fn u64(&mut self, v: u64) -> &mut Self {
        self.0.extend_from_slice(&v.to_le_bytes());
        self
    }
    pub(super) fn i64(&mut self, v: i64) -> &mut Self {
        self.u64(v as u64)
    }
    pub(super) fn f32(&mut self, v: f32) -> &mut Self {
        self.0.extend_from_slice(&v.to_bits().to_le_bytes());
        self
    }
    pub(super) fn f64(&mut self, v: f64) -> &mut Self {
        self.u64(v.to_bits())
    }
    pub(super) fn str(&mut self, s: &str) -> &mut Self {
        self.u64(s.len() as u64);
        self.0.extend_from_slice(s.as_bytes());
        self
    }
    pub(super) fn deadline(&mut self, d: Deadline) -> &mut Self {
        self.u64(d.word())
    }
    pub(super) fn take(&mut self) -> u64 {
        let h = xxh3_64(&self.0);
        self.0.clear();
        h
    }
}

/// A record of at most `N` bytes written at known offsets (no capacity checks, so a record
/// is a few stores and one hash); the same bytes [`Bytes`] would write.
pub(super) struct Fixed<const N: usize> {
    a: [u8; N],
    at: usize,
}

impl<const N: usize> Fixed<N> {
    #[inline(always)]
    pub(super) fn new() -> Self {
        Fixed { a: [0; N], at: 0 }
    }
    // Written in place (`&mut`): a builder that took and returned the record by value moved
    // the whole array at every step, which cost more than the hashing.
    #[inline(always)]
    pub(super) fn put<const K: usize>(&mut self, b: [u8; K]) -> &mut Self {
        self.a[self.at..self.at + K].copy_from_slice(&b);
        self.at += K;
        self
    }
    #[inline(always)]
    pub(super) fn u64(&mut self, v: u64) -> &mut Self {
        self.put(v.to_le_bytes())
    }
    #[inline(always)]
    pub(super) fn f32(&mut self, v: f32) -> &mut Self {
        self.put(v.to_bits().to_le_bytes())
    }
    #[inline(always)]
    pub(super) fn hash(&self) -> u64 {
        xxh3_64(&self.a[..self.at])
    }
}
