//! Identities: of a world instance, and maps keyed by entity creation sequence.

use serde::{Deserialize, Serialize};
use std::collections::{HashMap, HashSet};
use std::hash::{BuildHasherDefault, Hasher};

/// Identity of one world instance: new for every level activation and restart. Presentation
/// requests and background results carry it so nothing from an old world lands in a new one.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct WorldId(pub u64);

/// Hasher for creation sequences (already unique integers): one multiply.
#[derive(Default, Clone, Copy)]
pub struct SeqHasher(u64);

impl Hasher for SeqHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for b in bytes {
            self.0 = (self.0 ^ u64::from(*b)).wrapping_mul(0x100_0000_01b3);
        }
    }
    fn write_u64(&mut self, n: u64) {
        self.0 = n.wrapping_mul(0x9E37_79B9_7F4A_7C15);
    }
}

pub type SeqMap<V> = HashMap<u64, V, BuildHasherDefault<SeqHasher>>;
pub type SeqSet = HashSet<u64, BuildHasherDefault<SeqHasher>>;
