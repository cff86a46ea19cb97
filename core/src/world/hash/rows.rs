//! Every entity's records summed by category: where archetypes hold many entities, one pass
//! per record over each archetype's columns, with no per-row test of which components an
//! entity has (its archetype says); elsewhere entity by entity.
//!
//! The records are laid out in [`super::record`]; the sums are wrapping additions, so neither
//! the order of the passes nor the order of the rows changes them.

use super::kept::{HashCache, KeptPart, KeptRows};
use super::minds::MindRows;
use super::movers::{MoverRows, MoverSlots};
use super::record::*;
use crate::par;
use crate::world::columns::{Column, Frozen, Hot, Placed};
use crate::world::components::*;
use crate::world::ecs::{Ecs, FrozenEcs};
use crate::world::health::MaxHealth;
use std::iter::zip;

/// An archetype whose columns the passes read: with borrows counted ([`Placed`]), or with
/// none where the world is borrowed uniquely ([`Frozen`]).
trait Archetype<'w>: Copy {
    fn read<T: Hot>(&self) -> Option<Column<'w, T>>;
    fn is_empty(&self) -> bool;
}

impl<'w> Archetype<'w> for Placed<'w> {
    #[inline]
    fn read<T: Hot>(&self) -> Option<Column<'w, T>> {
        Placed::read(self)
    }
    #[inline]
    fn is_empty(&self) -> bool {
        Placed::is_empty(self)
    }
}

impl<'w> Archetype<'w> for Frozen<'w> {
    #[inline]
    fn read<T: Hot>(&self) -> Option<Column<'w, T>> {
        Frozen::read(self)
    }
    #[inline]
    fn is_empty(&self) -> bool {
        Frozen::is_empty(self)
    }
}

/// Declares the columns the passes read beyond the identity and the position, once:
/// [`Columns`] (an archetype's borrows), [`Rows`] (their slices) and a run of rows.
macro_rules! hashed_columns {
    ($($field:ident: $component:ty,)*) => {
        /// One archetype's column guards (the borrows [`Rows`] reads through).
        struct Columns<'w> {
            id: Column<'w, Identity>,
            pos: Column<'w, Position>,
            $($field: Option<Column<'w, $component>>,)*
        }

        impl<'w> Columns<'w> {
            /// The archetype's hashed columns; `None` for one without rows, an identity or a
            /// position (nothing of it is hashed).
            fn of(a: impl Archetype<'w>) -> Option<Columns<'w>> {
                if a.is_empty() {
                    return None;
                }
                Some(Columns {
                    id: a.read::<Identity>()?,
                    pos: a.read::<Position>()?,
                    $($field: a.read::<$component>(),)*
                })
            }

            fn rows(&self) -> Rows<'_> {
                Rows {
                    id: &self.id,
                    pos: &self.pos,
                    $($field: self.$field.as_deref(),)*
                }
            }
        }

        /// A run of one archetype's rows: every present column has the identities' length.
        #[derive(Clone, Copy)]
        struct Rows<'a> {
            id: &'a [Identity],
            pos: &'a [Position],
            $($field: Option<&'a [$component]>,)*
        }

        impl<'a> Rows<'a> {
            /// The rows `at..at + len`.
            fn part(&self, at: usize, len: usize) -> Rows<'a> {
                let r = at..at + len;
                Rows {
                    id: &self.id[r.clone()],
                    pos: &self.pos[r.clone()],
                    $($field: self.$field.map(|c| &c[r.clone()]),)*
                }
            }
        }
    };
}

hashed_columns! {
    vel: Velocity,
    health: Health,
    brain: Brain,
    aim: Aim,
    cds: Cooldowns,
    life: Lifetime,
    control: Control,
    state: ScriptState,
    rot: Rotation,
    footing: Footing,
    anim: Animation,
    off: Offscreen,
}

impl Rows<'_> {
    /// The slots these rows' velocity, health and AI records are kept in, taken in `runs`
    /// runs.
    fn kept<'k>(&self, rows: &'k mut KeptRows, runs: usize) -> KeptPart<'k> {
        let brains = matches!(
            (self.brain, self.aim, self.control),
            (Some(_), Some(_), None)
        );
        let life = self.kept_life().is_some();
        rows.rows(
            self.id.len(),
            [self.vel.is_some(), self.health.is_some(), brains, life],
            runs,
        )
    }

    /// The lifetimes, where their records may be kept: a lifetime without cooldowns is one
    /// record of two words (see `record::clocks`).
    fn kept_life(&self) -> Option<&[Lifetime]> {
        self.life.filter(|_| self.cds.is_none())
    }

    /// The position, velocity, health and AI records' sums of rows with all three kept in
    /// `kept` (a slot of [`Minds`](super::minds::Minds) a row, given only to rows with a
    /// velocity, health, and a brain with an aim and no control), in one pass: the velocity,
    /// health and AI sums are the kept ones given with the first run, changed by the records
    /// hashed again (which the run's slot keeps, for the archetype's sums); `None` where
    /// `kept` is empty.
    fn minds(&self, max: &MaxHealth, kept: KeptPart<'_>) -> Option<[u64; 4]> {
        let (Some(vel), Some(health), Some(brain), Some(aim)) =
            (self.vel, self.health, self.brain, self.aim)
        else {
            return None;
        };
        let KeptPart {
            mut mind,
            mind_sums,
            deltas,
            ..
        } = kept;
        let [delta] = deltas else {
            return None;
        };
        let (id, pos) = (self.id, self.pos);
        let rows = MindRows {
            id,
            pos,
            vel,
            health,
            brain,
            aim,
        };
        let positions = mind.positions(&rows, max, delta);
        let [sv, sh, sa] = mind_sums;
        let [dv, dh, da] = *delta;
        Some([
            positions,
            sv.wrapping_add(dv),
            sh.wrapping_add(dh),
            sa.wrapping_add(da),
        ])
    }

    /// Adds the position records to the sums, with what the same pass hashes: rows with all
    /// three kept records (a drone's) hash them with the position, and other rows with a kept
    /// velocity that and their kept lifetime, if any (`movers`, their slots); the passes of
    /// [`sum`](Self::sum) leave those records to it. Which it hashed of the health and AI
    /// (all three kept records), the velocity, and the lifetime.
    fn positions(
        &self,
        max: &MaxHealth,
        kept: KeptPart<'_>,
        mut movers: MoverSlots<'_>,
        add: &mut impl FnMut(usize, u64),
    ) -> Summed {
        let (id, pos) = (self.id, self.pos);
        if let Some(sums) = self.minds(max, kept) {
            for (part, sum) in zip([POSITIONS, VELOCITIES, HEALTH, AI], sums) {
                add(part, sum);
            }
            return Summed {
                minds: true,
                velocity: true,
                life: false,
            };
        }
        match self.vel {
            Some(vel) if !movers.is_empty() => {
                let life = self.kept_life();
                let rows = MoverRows { id, pos, vel, life };
                for (part, sum) in zip([POSITIONS, VELOCITIES, DEADLINES], movers.sums(&rows)) {
                    add(part, sum);
                }
                Summed {
                    minds: false,
                    velocity: true,
                    life: life.is_some(),
                }
            }
            _ => {
                for (i, p) in zip(id, pos) {
                    add(POSITIONS, position(i, p));
                }
                Summed::default()
            }
        }
    }

    /// Adds these rows' records to the category sums: one pass per record; the velocity,
    /// health and AI records through their slots in `kept` where given (see `kept`).
    fn sum(
        &self,
        max: &MaxHealth,
        parts: &mut [u64; 8],
        b: &mut Bytes,
        kept: Option<KeptPart<'_>>,
    ) {
        let id = self.id;
        let mut add = |part: usize, h: u64| parts[part] = parts[part].wrapping_add(h);
        // A record is kept where its slots are given: one a row (these rows are not empty).
        let mut kept = kept.unwrap_or_default();
        let (movers, kept_health, kept_brain, kept_life) = (
            std::mem::take(&mut kept.movers),
            std::mem::take(&mut kept.health),
            std::mem::take(&mut kept.brain),
            std::mem::take(&mut kept.life),
        );
        let hashed = self.positions(max, kept, movers, &mut add);
        let (minds, moved) = (hashed.minds, hashed.velocity);
        if let Some(c) = self.rot {
            zip(id, c).for_each(|(i, r)| add(POSITIONS, rotation(i, r)));
        }
        if let Some(c) = self.footing {
            zip(id, c).for_each(|(i, f)| add(AI, footing(i, f)));
        }
        if let Some(c) = self.vel.filter(|_| !moved) {
            zip(id, c).for_each(|(i, v)| add(VELOCITIES, velocity(i, v)));
        }
        fn at<T>(c: Option<&[T]>, n: usize) -> Option<&T> {
            c.map(|c| &c[n])
        }
        if let Some(c) = self.health.filter(|_| !minds) {
            let none = Deadline::INACTIVE;
            if !kept_health.is_empty() {
                zip(zip(id, c), kept_health).for_each(|((i, h), s)| {
                    add(HEALTH, s.hash(health_words(i, h, max.of(i), none)))
                });
            } else {
                zip(id, c).for_each(|(i, h)| add(HEALTH, health(i, h, max.of(i), none)));
            }
        }
        match (self.brain, self.aim, self.control) {
            (Some(_), Some(_), None) if minds => {}
            (Some(brain), Some(aim), None) => {
                if !kept_brain.is_empty() {
                    for (((i, br), a), s) in zip(zip(zip(id, brain), aim), kept_brain) {
                        add(AI, s.hash(brain_words(i, br, Some(a))));
                    }
                } else {
                    for ((i, br), a) in zip(zip(id, brain), aim) {
                        add(AI, mind(i, Some(br), Some(a), None).unwrap_or_default());
                    }
                }
            }
            (None, _, None) => {}
            (brain, aim, control) => {
                for (n, i) in id.iter().enumerate() {
                    let m = mind(i, at(brain, n), at(aim, n), at(control, n));
                    add(AI, m.unwrap_or_default());
                }
            }
        }
        if hashed.life {
            // Summed with the velocity (`movers`).
        } else if let (None, Some(c), false) = (self.cds, self.life, kept_life.is_empty()) {
            zip(zip(id, c), kept_life)
                .for_each(|((i, l), s)| add(DEADLINES, s.hash(lifetime_words(i, l))));
        } else if self.cds.is_some() || self.life.is_some() {
            for (n, i) in id.iter().enumerate() {
                let c = clocks(i, at(self.cds, n), at(self.life, n), b);
                add(DEADLINES, c.unwrap_or_default());
            }
        }
        if let Some(c) = self.anim {
            zip(id, c).for_each(|(i, a)| add(DEADLINES, animation(i, a)));
        }
        if let Some(c) = self.off {
            zip(id, c).for_each(|(i, o)| add(DEADLINES, offscreen(i, o)));
        }
        if let Some(c) = self.state {
            zip(id, c).for_each(|(i, s)| add(SCRIPT_STATE, script_state(i, s, b)));
        }
    }
}

/// Which records [`Rows::positions`] summed with the positions: the velocity, health and AI
/// records (`minds`), the velocity record, the lifetime record.
#[derive(Clone, Copy, Default)]
struct Summed {
    minds: bool,
    velocity: bool,
    life: bool,
}

/// What the hash reads of an entity through a query (see [`entity`]).
pub(super) type Hashed<'a> = (
    &'a Identity,
    &'a Position,
    Option<&'a Velocity>,
    Option<&'a Health>,
    Option<&'a Brain>,
    Option<&'a Aim>,
    Option<&'a Cooldowns>,
    Option<&'a Lifetime>,
    Option<&'a Control>,
    Option<&'a ScriptState>,
    Option<&'a Rotation>,
    Option<&'a Footing>,
    Option<&'a Animation>,
    Option<&'a Offscreen>,
);

/// Adds one entity's records to the category sums.
fn entity(row: Hashed<'_>, max: &MaxHealth, parts: &mut [u64; 8], b: &mut Bytes) {
    let (i, p, v, h, brain, aim, cds, life, control, state, rot, foot, anim, off) = row;
    let records = [
        (POSITIONS, Some(position(i, p))),
        (POSITIONS, rot.map(|r| rotation(i, r))),
        (AI, foot.map(|f| footing(i, f))),
        (VELOCITIES, v.map(|v| velocity(i, v))),
        (
            HEALTH,
            h.map(|h| health(i, h, max.of(i), Deadline::INACTIVE)),
        ),
        (AI, mind(i, brain, aim, control)),
        (DEADLINES, clocks(i, cds, life, b)),
        (DEADLINES, anim.map(|a| animation(i, a))),
        (DEADLINES, off.map(|o| offscreen(i, o))),
        (SCRIPT_STATE, state.map(|s| script_state(i, s, b))),
    ];
    for (part, h) in records {
        if let Some(h) = h {
            parts[part] = parts[part].wrapping_add(h);
        }
    }
}

/// A world is hashed one archetype at a time where it holds at least this many entities per
/// archetype in use, one entity at a time through one query elsewhere. Taking an archetype's
/// fourteen columns costs a borrow each (their places are known: see
/// [`columns`](crate::world::columns)), and the passes save about 140 instructions an
/// entity. Replaying the bundled games' recordings, 4 took 1% to 7% fewer instructions than
/// 24 (when each column was looked up on every call) and the same as always by archetype,
/// but for Pong's six entities (1% fewer).
pub(super) const ROWS_PER_ARCHETYPE: usize = 4;

/// Every entity's records summed by category: by archetype where the world holds
/// `rows_per_archetype` entities per archetype in use or more (0: always; `usize::MAX`:
/// never), by entity elsewhere; by archetype on two threads from `split_from` entities, in
/// runs of about a sixteenth of them, this thread's the runs of the first half of the rows
/// in hecs's order and the worker's the rest: about the halves a split motion pass moved,
/// still in each core's caches (alternate runs, each thread reading rows the other had just
/// written, replayed a 16k-drone recording at 8,200 to 11,000 ticks a second against 11,100
/// to 15,100, 64k at 2,760 to 2,840 against 3,050 to 3,420, 256k at 530 to 550 against 560
/// to 580). Wrapping addition makes every order's sums the same. (The hashed entities are
/// those with an identity and a position.) `b` is the writer for records of varying length
/// on this thread; `cache`, where given, keeps the velocity, health and AI records' hashes
/// by archetype row (see [`super::kept`]) in a world of at most
/// [`HashCache::MOST_ENTITIES`], and is emptied in a larger one.
pub(super) fn entity_sums(
    source: Source<'_>,
    max: &MaxHealth,
    rows_per_archetype: usize,
    split_from: usize,
    b: &mut Bytes,
    cache: Option<&mut HashCache>,
) -> [u64; 8] {
    let mut parts = [0u64; 8];
    let (n, count) = match source {
        Source::Counted(ecs) => (ecs.len() as usize, ecs.raw().archetypes().len()),
        Source::Frozen(world) => (world.len() as usize, world.archetype_count()),
    };
    let mut cache = match cache {
        Some(c) if n > HashCache::MOST_ENTITIES => {
            c.release();
            None
        }
        c => c,
    };
    let whole = Whole {
        count,
        n,
        max,
        split_from,
    };
    match source {
        Source::Counted(ecs) => {
            let used = ecs.raw().archetypes().filter(|a| !a.is_empty()).count();
            if n / used.max(1) < rows_per_archetype {
                for row in ecs.query::<Hashed<'_>>().iter() {
                    entity(row, max, &mut parts, b);
                }
            } else {
                whole.sum(ecs.archetypes_placed(), b, cache.as_deref_mut(), &mut parts);
            }
        }
        // Uncounted columns cost an archetype little: every world is summed by archetype.
        Source::Frozen(world) => {
            whole.sum(world.archetypes(), b, cache.as_deref_mut(), &mut parts);
        }
    }
    if let Some(c) = cache {
        c.settle();
    }
    parts
}

/// The world whose entities [`entity_sums`] sums: read with borrows counted, or borrowed
/// uniquely and read with none (see [`Frozen`]).
#[derive(Clone, Copy)]
pub(super) enum Source<'w> {
    Counted(&'w Ecs),
    Frozen(FrozenEcs<'w>),
}

/// How [`entity_sums`] sums a world archetype by archetype: its `count` archetypes (with rows
/// or not) and `n` entities, on two threads from `split_from`.
struct Whole<'m> {
    count: usize,
    n: usize,
    max: &'m MaxHealth,
    split_from: usize,
}

impl Whole<'_> {
    /// Adds the records of every archetype of `archetypes` (the world's, in hecs's order) to
    /// `parts` (see [`entity_sums`]).
    fn sum<'w, A: Archetype<'w>>(
        &self,
        archetypes: impl Iterator<Item = A>,
        b: &mut Bytes,
        mut cache: Option<&mut HashCache>,
        parts: &mut [u64; 8],
    ) {
        let (max, n) = (self.max, self.n);
        if n < self.split_from || !par::available() {
            let mut kept = (cache.as_deref_mut()).map(|c| c.archetypes(self.count));
            for (at, a) in archetypes.enumerate() {
                if let Some(c) = Columns::of(a) {
                    let rows = c.rows();
                    let slots = kept.as_deref_mut().map(|k| rows.kept(&mut k[at], 1));
                    rows.sum(max, parts, b, slots);
                }
            }
            return;
        }
        let columns: Vec<(usize, Columns<'_>)> = (archetypes.enumerate())
            .filter_map(|(at, a)| Some((at, Columns::of(a)?)))
            .collect();
        let kept = cache.map(|c| c.archetypes(self.count));
        // Runs of whole chunks of kept rows (see `minds`).
        let size = n.div_ceil(16).max(64).next_multiple_of(4);
        let (mut first, mut second, mut placed) = (Vec::new(), Vec::new(), 0usize);
        let mut kept_rows = kept.map(|k| k.iter_mut().enumerate());
        for (at, rows) in columns.iter().map(|(at, c)| (*at, c.rows())) {
            // The archetype's slots (the cache's archetypes are walked in order with them).
            let len = rows.id.len();
            let mut slots = kept_rows
                .as_mut()
                .and_then(|k| k.find(|(i, _)| *i == at))
                .map(|(_, k)| rows.kept(k, len.div_ceil(size)));
            for at in (0..len).step_by(size) {
                let half = if placed < n / 2 {
                    &mut first
                } else {
                    &mut second
                };
                let run = size.min(len - at);
                placed += run;
                let part = slots.as_mut().map(|s| s.take_front(run));
                half.push((rows.part(at, run), part));
            }
        }
        let sum = |half: Vec<(Rows<'_>, Option<KeptPart<'_>>)>| {
            let (mut parts, mut b) = ([0u64; 8], Bytes::default());
            for (rows, kept) in half {
                rows.sum(max, &mut parts, &mut b, kept);
            }
            parts
        };
        let (x, y) = par::join(|| sum(first), || sum(second));
        for (p, (x, y)) in parts.iter_mut().zip(zip(x, y)) {
            *p = p.wrapping_add(x.wrapping_add(y));
        }
    }
}
