//! Broadphase: which colliders touch this tick (the narrow phase is in `narrow`, the contact
//! cache in `contact`).
//!
//! - **Broadphase**: a uniform grid stored as a spatial hash rebuilt every tick with a counting
//!   sort (no per-cell allocation; memory is linear in the number of colliders). Each collider is
//!   binned by its centre; one whose diameter exceeds a cell goes to a short "large" list tested
//!   against everything. Only colliders with a non-empty mask or push set query neighbours, so
//!   100k bodies that do not look for each other cost one pass to bin.
//! - **Pairs**: a pair is reported when either side's mask contains the other's layer; it is
//!   pushed apart when either side's push set contains the other's layer and neither is a
//!   trigger (see `response`). A pair is a trigger contact when either side is a trigger.
//! - **Canonical order**: pairs are keyed by creation sequences `(lo, hi)` with `lo < hi` and
//!   processed in ascending key order; events of each kind come out in that order, and push
//!   corrections accumulate in that order, so results never depend on storage order.
//! - **Bounds**: at most `[limits] contacts` pairs are kept and room for no more is reserved;
//!   the search also examines a bounded number of candidates (see [`CANDIDATES_PER_CONTACT`]).
//!   Either bound stops the search at once, so piled-up colliders fault in bounded time and
//!   memory.

pub(crate) mod body;
mod grid;
mod lanes;
mod left;
mod marks;
pub(crate) mod narrow;
mod pair;
mod response;
mod search;
mod sort;
mod stretch;
mod wanted;

pub(crate) use crate::collision::body::Body;
use crate::collision::grid::{Bins, Grid, Member, NearBody, small_body, typical_cell};
pub(crate) use crate::collision::grid::{Run, Span, Stretch};
use crate::collision::marks::{Marks, rejoin};
pub(crate) use crate::collision::pair::{
    CANDIDATES_PER_BODY, CANDIDATES_PER_CONTACT, Overflow, Pair,
};
use crate::def::{ArchetypeId, Shape};
use crate::limits::{push_snug, resize_snug};
use crate::math::Vec2;

/// Bodies of one run from which the plan looks up their cells on two threads: as motion's pass
/// ([`par::SPLIT_MIN`](crate::par::SPLIT_MIN)). Measured with `ludus bench` on both cores:
/// splitting 32k drones' look-ups saves a sixth of the tick, 16k's a seventh (a median tick of
/// 0.088 ms against 0.104, ten alternating runs), 8k's costs more than it saves.
const NEAR_SPLIT_MIN: usize = crate::par::SPLIT_MIN;

/// How many times a layer's bodies outnumber another's that they all look at, from which the
/// few look at the crowd on its behalf (see [`Broadphase::plan`]): 700 bullets whose masks
/// name one ship's layer were each a querier of a dense search, 1.24G instructions for a
/// bullet hell's 3,600 ticks; the ship looking at them, 0.92G. At 2 to 1, a Zelda-like's 28
/// tile walls took its 64 monsters' looks and cost 10% more.
const LEND_RATIO: usize = 8;

/// How many times the typical cell the plan's cell grows to fit the largest querier (see
/// [`Broadphase::plan`]). A querier past it is a large body, tested against each body once a
/// tick; a cell grown to its size would put dozens of a crowd in every bucket. At 16 (as it
/// was), a pen 160 by 220 units that looks for 450 marbles of radius 8 grew the cell from 16
/// to 256: 4.80G instructions for 3,600 ticks of a herding game, 2.64G at 4, every hash the
/// same; the swarm (whose player and brutes are a few drones across) and the bundled games
/// run as before.
const QUERIER_GROWTH: f32 = 4.0;

/// Reusable scratch for one tick's collision pass.
///
/// A tick fills it in five steps: [`add`](Self::add) every collider (its position; what else
/// the passes read is its run's: consecutive colliders of one archetype, shape and layers, and
/// the archetype's [`flags`](Self::flags)), [`plan`](Self::plan) (who looks for whom, the
/// cell, which bodies a sparse search looks up), [`search`](Self::search) (the pairs, between
/// colliders), [`want`](Self::want) and fill [`bodies`](Self::bodies) with the full [`Body`]
/// of exactly the colliders in a pair, in that order, then [`finish`](Self::finish) (the pairs between
/// bodies, in canonical order). Indices given to `add` ("collider indices") are positions in
/// the order of the calls; after `finish`, [`Pair::i`] and [`Pair::j`] index
/// [`bodies`](Self::bodies).
#[derive(Clone, Debug, Default)]
pub(crate) struct Broadphase {
    /// Full records of the colliders that can be in a pair, in collider order.
    pub bodies: Vec<Body>,
    /// One bit per collider, set for the wanted ones (those in a pair): a wanted collider's
    /// full record is `bodies[rank]`, where its rank among the wanted is `ranks` at its word
    /// plus the bits below it in the word ([`body_of`](Self::body_of)).
    ///
    /// Invariant: outlives the tick, and only the words of the colliders `wanted_list` names
    /// hold bits (the next [`want`](Self::want) clears those, not every collider's: a tick with
    /// a few pairs among many colliders writes a few words, not the whole column).
    wanted_bits: Vec<u64>,
    /// Per word of `wanted_bits` that holds a bit: the wanted colliders before the word (the
    /// other words' entries are stale, never read).
    ranks: Vec<u32>,
    /// The wanted colliders, ascending (their full records are filled in this order).
    pub wanted_list: Vec<u32>,
    /// Per archetype (by index): what its colliders look for and report. The tick sets it
    /// before the search; an archetype past its end has none.
    pub flags: Vec<body::Flags>,
    /// The binned bodies.
    bins: Bins,
    /// A sparse search's binned queriers as its near bodies' tests read them.
    lanes: lanes::Lanes,
    /// The positions the broadphase holds, run by run (see [`Run::at`]): the first `held`
    /// (those past it are earlier ticks', kept so a tick overwrites them instead of clearing
    /// first). Those of a run a [`Span`] left in its column take no room here until the plan
    /// copies them in, after every other's.
    pos: Vec<Vec2>,
    /// Positions held this tick: at most `count`, fewer by every run left in its column.
    held: usize,
    /// The colliders the fused motion pass recorded archetype by archetype, this tick.
    spans: Vec<Span>,
    /// The run lists [`stretches`](Self::stretches) hand out and [`join`](Self::join) takes
    /// back, empty between them: kept, not allocated for each archetype every tick.
    spare_runs: [Vec<Run>; 2],
    /// Per archetype (by place): whether its next span may leave its positions in its
    /// column (see [`may_leave`](Self::may_leave)).
    leave: Vec<bool>,
    count: usize,
    /// Per archetype: largest extent and body count.
    arch: Vec<(f32, usize)>,
    /// Consecutive colliders of one archetype, shape, layer and looks (hecs stores an
    /// archetype's entities together, so a crowd is a few runs): every collider's size and
    /// layers, and statistics and classification are taken per run.
    runs: Vec<Run>,
    /// Small bodies with effective looks.
    queriers: Vec<Member>,
    /// The queriers run by run (those of a run are consecutive): each run's index and the
    /// end of its queriers in `queriers`, so a large body passes over a run's all at once.
    querier_runs: Vec<(u32, u32)>,
    /// Sparse search: the small bodies that do not look, inside the queriers' box, in
    /// collider order: those of `near`, then those of `near_second`.
    near: Vec<NearBody>,
    /// The near bodies found by the worker where a run's marks test split between the
    /// threads (see `plan`), left apart when no later run had any: the search's halves then
    /// read each thread's own (a copy into `near` took the main thread's caches past the
    /// worker's, and the worker's half read it back).
    near_second: Vec<NearBody>,
    /// Where the plan splits a run's marks test between the threads (see `plan`).
    pub(crate) near_split: crate::par::Balance,
    /// This tick's largest split span: the worker's first collider and the span's length
    /// (see [`moved_from`](Self::moved_from)).
    moved_apart: Option<(u32, u32)>,
    large: Vec<Member>,
    /// The plan's cell (0 before a plan).
    cell: f32,
    /// Sparse search: the cells around a querier (see `plan`).
    marks: Marks,
    /// The plan: cell, grid, and whether only the queriers are binned.
    grid: Option<(Grid, bool)>,
    /// The pairs found, at most the search's `max_pairs`.
    pub pairs: Vec<Pair>,
    /// The pairs of the bottom half of a split bucket scan, at most half the search's
    /// `max_pairs` (see [`search`](Self::search)).
    pub pairs_second: Vec<Pair>,
    sorter: sort::PairSort<Pair>,
    /// Push corrections per body (see [`Broadphase::respond`]).
    pub offsets: Vec<Vec2>,
    /// Velocities after the responses, per body (empty when no contact needed them).
    pub velocities: Vec<Vec2>,
    /// Bodies whose velocity a response changed (repeats possible).
    pub turned: Vec<u32>,
    /// Bodies with footing that stood on something: the velocity of what they stood on
    /// (empty when none did).
    pub grounded: Vec<Option<Vec2>>,
    /// Push properties of the bodies that are not plain (see [`Body::phys`]).
    pub physics: Vec<body::Phys>,
    /// Per body, the corrections from immovable bodies, kept as the largest each way per axis.
    fixed: Vec<Option<(Vec2, Vec2)>>,
    /// Tests only: bucket scans never fill [`grid::Bins::kinds`] (the scan they stand in for).
    #[cfg(test)]
    no_kinds: bool,
}

impl Broadphase {
    /// Starts a tick: forgets last tick's colliders.
    pub fn begin(&mut self) {
        self.count = 0;
        self.held = 0;
        self.moved_apart = None;
        self.spans.clear();
        self.runs.clear();
        self.bodies.clear();
        self.physics.clear();
    }

    /// Adds the next collider (see the type's documentation).
    #[inline]
    pub fn add(&mut self, archetype: ArchetypeId, pos: Vec2, shape: Shape, layer: u32, looks: u32) {
        let at = self.held;
        self.count_in_run(archetype, pos, 1, pos.is_finite(), (shape, layer, looks));
        match self.pos.get_mut(at) {
            Some(slot) => *slot = pos,
            None => resize_snug(&mut self.pos, at + 1, pos),
        }
        self.count += 1;
        self.held += 1;
    }

    /// Adds the next colliders, one at each of `pos` in order, all of one archetype, shape,
    /// layer and looks: what as many [`add`](Self::add)s would, the run taken or started once
    /// and the positions copied at once. `shape` holds no NaN (such a shape equals none, so
    /// every `add` of it starts a run of its own).
    pub fn add_all(
        &mut self,
        archetype: ArchetypeId,
        pos: &[Vec2],
        shape: Shape,
        layer: u32,
        looks: u32,
    ) {
        debug_assert!(
            !shape.is_nan(),
            "a shape with a NaN is added one collider at a time"
        );
        let Some(&first) = pos.first() else {
            return;
        };
        let (at, n) = (self.held, pos.len());
        if self.pos.len() < at + n {
            resize_snug(&mut self.pos, at + n, Vec2::ZERO);
        }
        let finite = crate::math::copy_finite(&mut self.pos[at..at + n], pos);
        self.count_in_run(archetype, first, n as u32, finite, (shape, layer, looks));
        self.count += n;
        self.held += n;
    }

    /// Counts the next `n` colliders, of one kind (`shape`, `layer`, `looks`), the first at
    /// `first` (`finite`: every one's position is), into the last run where it takes them,
    /// else into a run of their own. A run never reaches into a span's colliders or out of
    /// them (see `Span`); one outside them holds its positions, the last held.
    #[inline(always)]
    fn count_in_run(
        &mut self,
        archetype: ArchetypeId,
        first: Vec2,
        n: u32,
        finite: bool,
        (shape, layer, looks): (Shape, u32, u32),
    ) {
        let (i, at) = (self.count, self.held);
        let after = self.spans.last().map_or(0, |s| s.start + s.len);
        match self.runs.last_mut() {
            Some(r)
                if r.range().end == i
                    && r.start >= after
                    && r.takes(archetype, shape, layer, looks) =>
            {
                debug_assert_eq!(r.held().end, at, "a run's positions are consecutive");
                r.len += n;
                r.finite &= finite;
            }
            _ => {
                let mut r = Run::new(i as u32, at as u32, archetype, first, shape, layer, looks);
                r.len = n;
                r.finite = finite;
                self.runs.push(r);
            }
        }
    }

    /// Colliders added this tick.
    pub fn len(&self) -> usize {
        self.count
    }

    /// Gives the next wanted collider's full record (`k`: its index, checked in debug builds;
    /// the tick fills them all at once, as `bodies`).
    #[cfg(test)]
    pub fn fill(&mut self, k: usize, body: Body) {
        debug_assert_eq!(self.body_of(k), Some(self.bodies.len()), "filled in order");
        push_snug(&mut self.bodies, body);
    }

    /// Decides who looks for whom and which colliders can be in a pair (marking them wanted).
    ///
    /// - **Cell size**: `fixed` when the game sets one; otherwise twice the extent that covers
    ///   95% of the bodies that move (counted per archetype; static bodies only where no other
    ///   is), so a few big colliders such as walls go to the large list instead of making
    ///   every cell huge (a tile map's merged walls, 29% of a Zelda-like's colliders, made
    ///   cells of 1,280 units when they counted), grown to fit the largest querier
    ///   up to [`QUERIER_GROWTH`] times: a player a few times a crowd's size stays a binned
    ///   querier, a trigger area many times larger is a large body.
    /// - **Effective queries**: layers nobody is on are never queried; when every body of layer
    ///   P looks at layer E and P has fewer bodies (ties by layer index), or every body of E
    ///   looks at P and E has [`LEND_RATIO`] times as many, the bodies of P look at E (on E's
    ///   behalf where they did not) and those of E leave P to them. A crowd that looks at one
    ///   player does not query at all, whichever side's mask names the other: the player
    ///   finds it. Which side looks decides only how the pairs are found: they are reported
    ///   by the masks (`test`), and each is tested from the collider added first.
    /// - **Sparse or dense**: when queriers are few (a player and its bullets among a crowd),
    ///   only they are binned and only the other bodies in the cells around one (inside their
    ///   bounding box grown by a cell, and in the cells around a querier: see [`Marks`]) look
    ///   them up, so only those need full records; otherwise every body is binned
    ///   and every pair of neighbouring buckets is scanned once.
    /// - **Positions left in their columns** ([`Span`]): `cols` holds, per span this tick, the
    ///   column its positions stayed in (empty where they were copied). The runs the plan or
    ///   the search read by index are copied in, after the positions held; the others' marks
    ///   are read in the column, and their positions take no room in the broadphase.
    ///
    /// `split`: a long run's bodies may look up their cells on two threads (see [`par`]; the
    /// parts' lists are joined in order, so the plan is the same wherever the run splits),
    /// split where both parts took as long (`near_split`, learned tick by tick: at an even
    /// split the worker's part of 16k drones took 2 to 3 µs longer than this thread's, waited
    /// for in every tick).
    ///
    /// Long because it is one decision taken in order (counts per layer, effective looks, the
    /// cell, large bodies and queriers, a sparse search's near bodies), each step reading the
    /// locals of the steps before; it runs on every tick's broadphase and is kept as measured.
    ///
    /// [`par`]: crate::par
    pub fn plan(&mut self, fixed_cell: Option<f32>, split: bool, cols: &[&[Vec2]]) {
        self.large.clear();
        self.queriers.clear();
        self.querier_runs.clear();
        self.near.clear();
        self.near_second.clear();
        self.grid = None;
        self.cell = 0.0;
        let n = self.count;
        if n < 2 {
            self.keep_snug();
            return;
        }
        // Per archetype that moves: largest extent and count (static walls, however many, do
        // not set the cell); per layer: count and shared looks.
        self.arch.clear();
        let (mut count, mut all, mut present) = ([0usize; 32], [u32::MAX; 32], 0u32);
        let mut moving = 0;
        for r in &self.runs {
            let a = r.archetype.0 as usize;
            if self.arch.len() <= a {
                self.arch.resize(a + 1, (0.0, 0));
            }
            if !self.flags.get(a).is_some_and(|f| f.fixed) {
                let e = &mut self.arch[a];
                e.0 = e.0.max(r.extent);
                e.1 += r.len as usize;
                moving += r.len as usize;
            }
            present |= r.layer;
            // A body on several layers is on each: every layer's count and shared looks.
            let mut bits = r.layer;
            while bits != 0 {
                let l = bits.trailing_zeros() as usize;
                bits &= bits - 1;
                count[l] += r.len as usize;
                all[l] &= r.raw;
            }
        }
        // Only layers with colliders can cover or be covered: a handful of the 32. Where
        // every body of one of two layers looks at the other, the smaller layer's bodies look
        // at the larger's (lent, where they did not) and the larger's leave them to it.
        let counted = (0..32).fold(0u32, |m, l| m | (u32::from(count[l] > 0) << l));
        let (mut covered, mut lent, mut lends) = ([0u32; 32], [0u32; 32], false);
        let mut owns = counted;
        while owns != 0 {
            let own = owns.trailing_zeros() as usize;
            owns &= owns - 1;
            let mut others = counted & !(1 << own);
            while others != 0 {
                let p = others.trailing_zeros() as usize;
                others &= others - 1;
                if (count[p], p) >= (count[own], own) {
                    continue;
                }
                if all[p] & (1 << own) != 0 {
                    covered[own] |= 1 << p;
                } else if all[own] & (1 << p) != 0 && count[p] * LEND_RATIO <= count[own] {
                    // Lent only to a layer of a few against a crowd (the tile walls of a room
                    // full of monsters, lent looks, cost more than they saved).
                    covered[own] |= 1 << p;
                    lent[p] |= 1 << own;
                    lends = true;
                }
            }
        }

        // Effective looks, per kind of collider: the largest querier sets the cell.
        let effective = |layer: u32, raw: u32| {
            let mut looks = raw & present;
            if layer.count_ones() == 1 {
                looks &= !covered[layer.trailing_zeros() as usize];
            }
            let mut bits = if lends { layer } else { 0 };
            while bits != 0 {
                looks |= lent[bits.trailing_zeros() as usize];
                bits &= bits - 1;
            }
            looks
        };
        let mut biggest = 0.0f32;
        for r in &mut self.runs {
            r.looks = effective(r.layer, r.raw);
            if r.looks != 0 {
                biggest = biggest.max(r.extent * 2.0);
            }
        }
        let cell = match fixed_cell.filter(|c| c.is_finite() && *c > 0.0) {
            Some(c) => c,
            None => {
                if moving == 0 {
                    // Only static bodies: they set it.
                    for r in &self.runs {
                        let e = &mut self.arch[r.archetype.0 as usize];
                        (e.0, e.1) = (e.0.max(r.extent), e.1 + r.len as usize);
                    }
                }
                let typical = typical_cell(&mut self.arch, if moving == 0 { n } else { moving });
                typical.max(biggest.min(typical * QUERIER_GROWTH))
            }
        };
        self.cell = cell;
        // Positions a span left in its column: copied in for the runs that look or may hold
        // large bodies (read by index below and in the search); the others' are read where
        // they are, unless the search turns out to read them by index too.
        for ri in 0..self.runs.len() {
            let r = &self.runs[ri];
            if r.looks != 0 || !r.all_small(cell) {
                self.bring(ri, cols);
            }
        }

        // Large bodies and small queriers: whole runs at once where every body is small.
        let mut small = 0;
        for (ri, r) in self.runs.iter().enumerate() {
            let run = ri as u32;
            let member = |i: usize| Member {
                index: i as u32,
                run,
            };
            let had = self.queriers.len();
            if r.all_small(cell) {
                small += r.len as usize;
                if r.looks != 0 {
                    self.queriers.extend(r.range().map(member));
                }
            } else {
                for (i, &p) in r.range().zip(&self.pos[r.held()]) {
                    if !small_body(r, p, cell) {
                        self.large.push(member(i));
                    } else {
                        small += 1;
                        if r.looks != 0 {
                            self.queriers.push(member(i));
                        }
                    }
                }
            }
            if self.queriers.len() > had {
                push_snug(&mut self.querier_runs, (run, self.queriers.len() as u32));
            }
        }
        let sparse = self.queriers.len() * 8 < small;
        // A dense search bins every body by its position, and a large body that looks tests
        // every body's: both read them by index. A sparse search reads the others' in order,
        // for the marks, and then those of the near bodies, which carry them.
        let runs = &self.runs;
        let large_looks = self.large.iter().any(|m| runs[m.run as usize].looks != 0);
        let marks_only = sparse && !large_looks;
        if !marks_only {
            self.bring_all(cols);
        }
        self.note_leave(marks_only);
        self.keep_snug();
        // Buckets: two per querier of a sparse search; one per body of a dense one (a body's
        // candidates are the bodies of five buckets: about 4.5 at one a bucket, 9 at two,
        // and a uniform crowd's scan costs a few instructions a bucket, measured with
        // callgrind: 5% fewer instructions for the pushing crowd than one per two bodies).
        let grid = if sparse {
            Grid::new(self.queriers.len() * 2, cell)
        } else {
            Grid::new(small, cell)
        };
        self.grid = Some((grid, sparse));
        if !sparse || self.queriers.is_empty() {
            return;
        }
        // The queriers' bounding box, grown by a cell: bodies outside it cannot touch one.
        let (mut lo, mut hi) = (Vec2::new(f32::MAX, f32::MAX), Vec2::new(f32::MIN, f32::MIN));
        for q in &self.queriers {
            let q = q.pos(&self.runs, &self.pos);
            lo = Vec2::new(lo.x.min(q.x), lo.y.min(q.y));
            hi = Vec2::new(hi.x.max(q.x), hi.y.max(q.y));
        }
        let (lo, hi) = (lo - Vec2::new(cell, cell), hi + Vec2::new(cell, cell));
        // And the cells around the queriers: a small body can touch a querier only from the
        // 3x3 cells around its cell.
        self.marks.reset(self.queriers.len(), lo, hi, cell);
        for q in &self.queriers {
            self.marks.mark_around(q.pos(&self.runs, &self.pos));
        }
        let (marks, mut near) = (&self.marks, std::mem::take(&mut self.near));
        let mut second = std::mem::take(&mut self.near_second);
        let mut balance = self.near_split;
        for (ri, r) in self.runs.iter().enumerate() {
            if r.looks != 0 || r.extent * 2.0 > cell {
                continue;
            }
            let run = ri as u32;
            // Non-finite positions are large bodies: the finite box holds no infinity or NaN.
            let pos = self.run_pos(ri, cols);
            // Body `k` of `pos`, the run's colliders from `start`.
            let body = |start: u32, pos: &[Vec2], k: usize| NearBody {
                member: Member {
                    index: start + k as u32,
                    run,
                },
                pos: pos[k],
            };
            let before = near.len();
            if split && pos.len() >= NEAR_SPLIT_MIN {
                let mid = balance.mid(pos.len());
                let (a, b) = pos.split_at(mid);
                let rest = r.start + mid as u32;
                rejoin(&mut near, &mut second, before);
                crate::par::join_balanced(
                    &mut balance,
                    (a.len(), b.len()),
                    || marks.each_near(a, |k| push_snug(&mut near, body(r.start, a, k))),
                    || marks.each_near(b, |k| push_snug(&mut second, body(rest, b, k))),
                );
            } else {
                marks.each_near(pos, |k| push_snug(&mut near, body(r.start, pos, k)));
                if near.len() > before {
                    rejoin(&mut near, &mut second, before);
                }
            }
        }
        self.near = near;
        self.near_second = second;
        self.near_split = balance;
    }
}

#[cfg(test)]
mod tests;
