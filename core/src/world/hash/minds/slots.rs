//! [`Minds`]: the kept values and hashes of rows with all three kept records, four rows to a
//! chunk, and the scalar test of one row against them (see the parent module).

use crate::world::components::{Aim, Brain, Deadline, Health, Identity, Position, Velocity};
use crate::world::hash::record::{Head3, brain_words, health, position_head, velocity, words};
use crate::world::hash::run::Run;
use crate::world::health::MaxHealth;

/// Per row, the values its three kept records were hashed from, their hashes, and the first
/// part of its position record, four rows to a [`Chunk`] (row `r` is lane `r % 4` of chunk
/// `r / 4`): one chunk's columns side by side, so the wide pass reads four rows' values from
/// one place, and a run of rows is one slice.
///
/// A row's `id`, `vel`, `health` and `brain` are its identity ([`Identity::word`]),
/// velocity, current health and brain as the words of their bytes (none has padding, and
/// floats compare by their bits, so equal words are equal values), `aim` its aim: every word
/// of the three records is a function of these (the health's maximum is the entity's for
/// life, and the record's deadline inactive: the world's deadlines are added apart, see
/// `StateHash`). `hashes` holds the velocity, health and AI records' hashes, `head` the
/// [`position_head`] of the identity (an entity's archetype is its for life). An empty slot
/// matches no row (no identity's word is `u64::MAX`), so its first use hashes; its hashes
/// are zero.
#[derive(Clone, Debug, Default)]
pub(crate) struct Minds {
    chunks: Vec<Chunk>,
}

/// Four rows' slots (see [`Minds`]), each column an array of four.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Chunk {
    pub id: [u64; 4],
    pub vel: [u64; 4],
    pub brain: [[u64; 2]; 4],
    pub head: [Head3; 4],
    pub hashes: [[u64; 3]; 4],
    pub health: [u32; 4],
    pub aim: [Aim; 4],
}

impl Chunk {
    /// Four empty slots (see [`Minds`]).
    fn empty() -> Chunk {
        Chunk {
            id: [u64::MAX; 4],
            vel: [0; 4],
            brain: [[0; 2]; 4],
            head: [Head3::default(); 4],
            hashes: [[0; 3]; 4],
            health: [0; 4],
            aim: [Aim::default(); 4],
        }
    }
}

impl Minds {
    /// Room for `rows` rows (empty slots added; none taken away).
    pub(crate) fn grow(&mut self, rows: usize) {
        let chunks = rows.div_ceil(4);
        if self.chunks.len() < chunks {
            self.chunks.resize(chunks, Chunk::empty());
        }
    }

    /// The kept hashes of the velocity, health and AI records of rows `rows` (which it
    /// holds).
    pub(crate) fn hashes(&self, rows: std::ops::Range<usize>) -> impl Iterator<Item = [u64; 3]> {
        rows.map(|r| self.chunks[r / 4].hashes[r % 4])
    }

    /// The slots of the first `rows` rows (at most as many as it holds).
    pub(crate) fn slots(&mut self, rows: usize) -> MindSlots<'_> {
        Run::new(&mut self.chunks, rows)
    }
}

/// A run of [`Minds`]' rows.
pub(crate) type MindSlots<'a> = Run<'a, Chunk>;

/// The rows whose records [`MindSlots`] keeps: an archetype's columns, each of one length.
pub(crate) struct MindRows<'a> {
    pub id: &'a [Identity],
    pub pos: &'a [Position],
    pub vel: &'a [Velocity],
    pub health: &'a [Health],
    pub brain: &'a [Brain],
    pub aim: &'a [Aim],
}

impl MindRows<'_> {
    pub(super) fn len(&self) -> usize {
        self.id.len()
    }

    /// Every column's length is the identities'.
    pub(super) fn even(&self) -> bool {
        let n = self.len();
        [
            self.pos.len(),
            self.vel.len(),
            self.health.len(),
            self.brain.len(),
            self.aim.len(),
        ]
        .iter()
        .all(|&l| l == n)
    }
}

// The key reads these components as whole words: they must be exactly that many bytes.
const _: () = assert!(size_of::<Velocity>() == 8 && size_of::<Health>() == 4);
const _: () = assert!(size_of::<Brain>() == 16 && size_of::<Aim>() == 6);
const _: () = assert!(size_of::<Identity>() == 8 && size_of::<Position>() == 8);

/// The bytes of a component of `K` words with no padding, as words.
///
/// # Safety
///
/// `T` is `K * 8` bytes with no padding (every byte initialised), as the assertions above
/// check of the sizes and each type's fields make it (`Brain`: two `f32` and a word;
/// `Velocity`: two `f32`).
#[inline(always)]
unsafe fn raw<T: Copy, const K: usize>(c: &T) -> [u64; K] {
    // SAFETY: as the function's contract says; `read_unaligned` because `T` may align to 4.
    unsafe { std::ptr::read_unaligned((c as *const T).cast::<[u64; K]>()) }
}

impl MindSlots<'_> {
    /// The first part of row `r`'s position record.
    #[inline(always)]
    pub(super) fn head(&self, r: usize) -> Head3 {
        self.chunks[r / 4].head[r % 4]
    }

    /// Hashes row `r`'s velocity, health and AI records again where their values differ
    /// from the kept ones (see [`refresh`](Self::refresh)).
    #[inline(always)]
    pub(super) fn check(
        &mut self,
        r: usize,
        rows: &MindRows<'_>,
        max: &MaxHealth,
        delta: &mut [u64; 3],
    ) {
        if self.chunks[r / 4].key(r % 4).differs(&rows.key(r)) {
            self.refresh(r, rows, max, delta);
        }
    }

    /// Hashes again the records of row `r` whose values differ from the kept ones, adding
    /// what each changed by to `delta`, and keeps the row's values (apart: few rows take it,
    /// and inlined it crowds the comparison's registers).
    #[inline(never)]
    pub(super) fn refresh(
        &mut self,
        r: usize,
        rows: &MindRows<'_>,
        max: &MaxHealth,
        delta: &mut [u64; 3],
    ) {
        let now = rows.key(r);
        let (i, v, h, br, a) = (
            &rows.id[r],
            &rows.vel[r],
            &rows.health[r],
            &rows.brain[r],
            &rows.aim[r],
        );
        let (c, j) = (&mut self.chunks[r / 4], r % 4);
        let was = c.hashes[j];
        // The identity's word stands for its sequence (an entity's archetype is its for life).
        let seq = c.id[j] != now.id;
        if seq {
            c.head[j] = position_head(i);
        }
        let hashes = &mut c.hashes[j];
        if seq || c.vel[j] != now.vel {
            hashes[0] = velocity(i, v);
        }
        if seq || c.health[j] != now.health {
            hashes[1] = health(i, h, max.of(i), Deadline::INACTIVE);
        }
        if seq || c.brain[j] != now.brain || c.aim[j] != now.aim {
            hashes[2] = words(brain_words(i, br, Some(a)));
        }
        for ((d, now), was) in delta.iter_mut().zip(*hashes).zip(was) {
            *d = d.wrapping_add(now.wrapping_sub(was));
        }
        c.keep(j, now);
    }
}

/// A row's values as its slot keeps them (see [`Minds`]).
#[derive(Clone, Copy)]
struct Key {
    id: u64,
    vel: u64,
    health: u32,
    brain: [u64; 2],
    aim: Aim,
}

impl Key {
    /// Whether any value differs, word by word without a branch but the aim's.
    #[inline(always)]
    fn differs(&self, o: &Key) -> bool {
        let words = (self.id ^ o.id)
            | (self.vel ^ o.vel)
            | u64::from(self.health ^ o.health)
            | (self.brain[0] ^ o.brain[0])
            | (self.brain[1] ^ o.brain[1]);
        words != 0 || self.aim != o.aim
    }
}

impl MindRows<'_> {
    /// Row `r`'s values as its slot keeps them.
    #[inline(always)]
    fn key(&self, r: usize) -> Key {
        // SAFETY: each is the size `raw` asks for, with no padding (see `raw`).
        let ([vel], brain) = unsafe { (raw(&self.vel[r]), raw(&self.brain[r])) };
        Key {
            id: self.id[r].word(),
            vel,
            health: self.health[r].current as u32,
            brain,
            aim: self.aim[r],
        }
    }
}

impl Chunk {
    /// Lane `j`'s kept values.
    #[inline(always)]
    fn key(&self, j: usize) -> Key {
        Key {
            id: self.id[j],
            vel: self.vel[j],
            health: self.health[j],
            brain: self.brain[j],
            aim: self.aim[j],
        }
    }

    /// Keeps `k` in lane `j`.
    #[inline(always)]
    fn keep(&mut self, j: usize, k: Key) {
        (self.id[j], self.vel[j], self.health[j]) = (k.id, k.vel, k.health);
        (self.brain[j], self.aim[j]) = (k.brain, k.aim);
    }
}
