//! [`Minds`]: the kept values and hashes of rows with all three kept records, column by
//! column, and the scalar test of one row against them (see the parent module).

use crate::world::components::{Aim, Brain, Deadline, Health, Identity, Position, Velocity};
use crate::world::hash::record::{Head3, brain_words, health, position_head, velocity, words};
use crate::world::health::MaxHealth;

/// Per row, the values its three kept records were hashed from, their hashes, and the first
/// part of its position record.
///
/// Invariant: every column has one length. A row's `id`, `vel`, `health` and `brain` are its
/// identity ([`Identity::word`]), velocity, current health and brain as the words of their
/// bytes (none has padding, and floats compare by their bits, so equal words are equal
/// values), `aim` its aim: every word of the three records is a function of these (the
/// health's maximum is the entity's for life, and the record's deadline inactive: the world's
/// deadlines are added apart, see `StateHash`). `hashes` holds the velocity, health and AI
/// records' hashes, `head` the [`position_head`] of the identity (an entity's archetype is
/// its for life). An empty slot matches no row (no identity's word is `u64::MAX`), so its
/// first use hashes; its hashes are zero.
#[derive(Clone, Debug, Default)]
pub(crate) struct Minds {
    id: Vec<u64>,
    vel: Vec<u64>,
    health: Vec<u32>,
    brain: Vec<[u64; 2]>,
    aim: Vec<Aim>,
    hashes: Vec<[u64; 3]>,
    head: Vec<Head3>,
}

impl Minds {
    /// Room for `rows` rows (empty slots added; none taken away).
    pub(crate) fn grow(&mut self, rows: usize) {
        if self.id.len() >= rows {
            return;
        }
        self.id.resize(rows, u64::MAX);
        self.vel.resize(rows, 0);
        self.health.resize(rows, 0);
        self.brain.resize(rows, [0; 2]);
        self.aim.resize(rows, Aim::default());
        self.hashes.resize(rows, [0; 3]);
        self.head.resize(rows, Head3::default());
    }

    /// The kept hashes of the velocity, health and AI records, by row.
    pub(crate) fn hashes(&self) -> &[[u64; 3]] {
        &self.hashes
    }

    /// The slots of the first `rows` rows (at most as many as it holds).
    pub(crate) fn slots(&mut self, rows: usize) -> MindSlots<'_> {
        MindSlots {
            id: &mut self.id[..rows],
            vel: &mut self.vel[..rows],
            health: &mut self.health[..rows],
            brain: &mut self.brain[..rows],
            aim: &mut self.aim[..rows],
            hashes: &mut self.hashes[..rows],
            head: &mut self.head[..rows],
        }
    }
}

/// A run of [`Minds`]' rows: its columns, each of one length (as there).
#[derive(Debug, Default)]
pub(crate) struct MindSlots<'a> {
    pub(super) id: &'a mut [u64],
    pub(super) vel: &'a mut [u64],
    pub(super) health: &'a mut [u32],
    pub(super) brain: &'a mut [[u64; 2]],
    pub(super) aim: &'a mut [Aim],
    pub(super) hashes: &'a mut [[u64; 3]],
    pub(super) head: &'a mut [Head3],
}

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

impl<'a> MindSlots<'a> {
    pub(crate) fn is_empty(&self) -> bool {
        self.id.is_empty()
    }

    pub(super) fn len(&self) -> usize {
        self.id.len()
    }

    /// The first `rows` slots, taken off the front.
    pub(crate) fn take_front(&mut self, rows: usize) -> MindSlots<'a> {
        fn front<'a, T>(s: &mut &'a mut [T], rows: usize) -> &'a mut [T] {
            let (head, tail) = std::mem::take(s).split_at_mut(rows);
            *s = tail;
            head
        }
        if self.is_empty() {
            return MindSlots::default();
        }
        MindSlots {
            id: front(&mut self.id, rows),
            vel: front(&mut self.vel, rows),
            health: front(&mut self.health, rows),
            brain: front(&mut self.brain, rows),
            aim: front(&mut self.aim, rows),
            hashes: front(&mut self.hashes, rows),
            head: front(&mut self.head, rows),
        }
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
        let (v, h, br, a) = (&rows.vel[r], &rows.health[r], &rows.brain[r], &rows.aim[r]);
        // SAFETY: each is the size `raw` asks for, with no padding (see `raw`).
        let ([vel], brain): (_, [u64; 2]) = unsafe { (raw(v), raw(br)) };
        let (id, health) = (rows.id[r].word(), h.current as u32);
        let differ = (self.id[r] ^ id)
            | (self.vel[r] ^ vel)
            | u64::from(self.health[r] ^ health)
            | (self.brain[r][0] ^ brain[0])
            | (self.brain[r][1] ^ brain[1]);
        if differ != 0 || self.aim[r] != *a {
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
        let (i, v, h, br, a) = (
            &rows.id[r],
            &rows.vel[r],
            &rows.health[r],
            &rows.brain[r],
            &rows.aim[r],
        );
        // SAFETY: each is the size `raw` asks for, with no padding (see `raw`).
        let ([vel], brain): (_, [u64; 2]) = unsafe { (raw(v), raw(br)) };
        let (id, health_now) = (i.word(), h.current as u32);
        let was = self.hashes[r];
        // The identity's word stands for its sequence (an entity's archetype is its for life).
        let seq = self.id[r] != id;
        if seq {
            self.head[r] = position_head(i);
        }
        let hashes = &mut self.hashes[r];
        if seq || self.vel[r] != vel {
            hashes[0] = velocity(i, v);
        }
        if seq || self.health[r] != health_now {
            hashes[1] = health(i, h, max.of(i), Deadline::INACTIVE);
        }
        if seq || self.brain[r] != brain || self.aim[r] != *a {
            hashes[2] = words(brain_words(i, br, Some(a)));
        }
        for ((d, now), was) in delta.iter_mut().zip(*hashes).zip(was) {
            *d = d.wrapping_add(now.wrapping_sub(was));
        }
        (self.id[r], self.vel[r], self.health[r]) = (id, vel, health_now);
        (self.brain[r], self.aim[r]) = (brain, *a);
    }
}
