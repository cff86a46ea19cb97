//! [`Movers`]: the kept records of moving rows, four rows to a chunk, and the scalar test of
//! one row against them (see the parent module).

use crate::world::components::{Identity, Lifetime, Position, Velocity};
use crate::world::hash::record::{Head3, lifetime_words, position_head, velocity, words};
use crate::world::hash::run::Run;

/// Per row, the values its kept records were hashed from and their hashes, four rows to a
/// [`Chunk`] (row `r` is lane `r % 4` of chunk `r / 4`).
///
/// A row's `id`, `vel` and `life` are its identity ([`Identity::word`]), its velocity's bits as
/// one word, and its lifetime's deadline word where the rows have a kept lifetime (0 where
/// they have none: whether they do is their archetype's, which a slot's rows keep, as a cache
/// serves one world); `vel_hash` and `life_hash` the velocity and lifetime records' hashes (0
/// for rows without a lifetime), `head` the [`position_head`] of the identity (an entity's
/// archetype is its for life). Every word of the records is a function of these values. An
/// empty slot matches no row (no identity's word is `u64::MAX`), so its first use hashes.
#[derive(Clone, Debug, Default)]
pub(crate) struct Movers {
    chunks: Vec<Chunk>,
}

/// Four rows' slots (see [`Movers`]), each column an array of four.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Chunk {
    pub id: [u64; 4],
    pub vel: [u64; 4],
    pub life: [u64; 4],
    pub head: [Head3; 4],
    pub vel_hash: [u64; 4],
    pub life_hash: [u64; 4],
}

impl Chunk {
    /// Four empty slots (see [`Movers`]).
    fn empty() -> Chunk {
        Chunk {
            id: [u64::MAX; 4],
            vel: [0; 4],
            life: [0; 4],
            head: [Head3::default(); 4],
            vel_hash: [0; 4],
            life_hash: [0; 4],
        }
    }
}

impl Movers {
    /// The slots of the first `rows` rows, with room made for them.
    pub(crate) fn slots(&mut self, rows: usize) -> MoverSlots<'_> {
        let chunks = rows.div_ceil(4);
        if self.chunks.len() < chunks {
            self.chunks.resize(chunks, Chunk::empty());
        }
        Run::new(&mut self.chunks, rows)
    }
}

/// A run of [`Movers`]' rows.
pub(crate) type MoverSlots<'a> = Run<'a, Chunk>;

/// The rows whose records [`MoverSlots`] keeps: an archetype's columns, each of one length;
/// `life` where the lifetime record is kept with them (an archetype with a lifetime and no
/// cooldowns: see `record::clocks`).
pub(crate) struct MoverRows<'a> {
    pub id: &'a [Identity],
    pub pos: &'a [Position],
    pub vel: &'a [Velocity],
    pub life: Option<&'a [Lifetime]>,
}

impl MoverRows<'_> {
    pub(super) fn len(&self) -> usize {
        self.id.len()
    }

    /// Every column's length is the identities'.
    pub(super) fn even(&self) -> bool {
        let n = self.len();
        self.pos.len() == n && self.vel.len() == n && self.life.is_none_or(|l| l.len() == n)
    }

    /// Row `r`'s values as its slot keeps them.
    #[inline(always)]
    fn key(&self, r: usize) -> Key {
        let v = self.vel[r].0;
        Key {
            id: self.id[r].word(),
            vel: u64::from(v.x.to_bits()) | u64::from(v.y.to_bits()) << 32,
            life: self.life.map_or(0, |l| l[r].0.word()),
        }
    }
}

// The wide pass reads these as words: identities, velocities (two floats, the first in the
// low half, as `Key::vel`) and lifetimes (their deadline's word) of 8 bytes each.
const _: () = assert!(size_of::<Identity>() == 8 && size_of::<Velocity>() == 8);
const _: () = assert!(size_of::<Lifetime>() == 8 && size_of::<Position>() == 8);

/// A row's values as its slot keeps them (see [`Movers`]).
#[derive(Clone, Copy)]
struct Key {
    id: u64,
    vel: u64,
    life: u64,
}

impl MoverSlots<'_> {
    /// Row `r`'s chunk and lane, its records hashed again where its values differ from the
    /// kept ones.
    #[inline(always)]
    pub(super) fn check(&mut self, r: usize, rows: &MoverRows<'_>) -> (&Chunk, usize) {
        let (now, j) = (rows.key(r), r % 4);
        let c = &self.chunks[r / 4];
        if (c.id[j] ^ now.id) | (c.vel[j] ^ now.vel) | (c.life[j] ^ now.life) != 0 {
            self.refresh(r, rows);
        }
        (&self.chunks[r / 4], j)
    }

    /// Hashes again the records of row `r` whose values differ from the kept ones, and keeps
    /// the row's values (apart: few rows take it).
    #[inline(never)]
    pub(super) fn refresh(&mut self, r: usize, rows: &MoverRows<'_>) {
        let (now, i) = (rows.key(r), &rows.id[r]);
        let (c, j) = (&mut self.chunks[r / 4], r % 4);
        // The identity's word stands for its sequence (an entity's archetype is its for life).
        let seq = c.id[j] != now.id;
        if seq {
            c.head[j] = position_head(i);
        }
        if seq || c.vel[j] != now.vel {
            c.vel_hash[j] = velocity(i, &rows.vel[r]);
        }
        if seq || c.life[j] != now.life {
            c.life_hash[j] = rows.life.map_or(0, |l| words(lifetime_words(i, &l[r])));
        }
        (c.id[j], c.vel[j], c.life[j]) = (now.id, now.vel, now.life);
    }
}
