//! Attachment: entities that move with a parent (see [`Attached`]).
//!
//! - **Order.** Attachments apply parents first: by depth (an entity attached to one that is
//!   not attached has depth 1, one attached to that 2, ...), then by creation sequence. So a
//!   chain (a shield on a sword on a hero) follows in one tick.
//! - **Placing** ([`SimWorld::place_attached`]): the entity's position is its parent's plus
//!   the offset, its previous position the parent's previous plus the offset, its velocity
//!   the parent's; with `angle`, the offset is turned by the parent's angle (the previous one
//!   by the previous angle) and its angle is the parent's.
//! - **Dying together** ([`SimWorld::destroy_attached`]): at Commit, every entity attached to
//!   one being destroyed (through any chain) is destroyed with it.
//! - **Archetypes** ([`SimWorld::attach_spawned`]): a spawned entity whose archetype declares
//!   `attach` is attached to the nearest entity with those tags (see [`AttachDef`]).
//!
//! [`AttachDef`]: crate::def::AttachDef

use crate::def::{GameDef, RotateMode};
use crate::fault::{Fault, FaultKind};
use crate::ids::SeqSet;
use crate::limits::{Limit, push_within};
use crate::math::Vec2;
use crate::spatial::Entry;
use crate::world::SimWorld;
use crate::world::components::*;
use crate::world::nearest::Candidates;
use std::cmp::Reverse;
use std::collections::BinaryHeap;

/// `v` turned by `angle` radians (libm: identical on every target).
fn turned(v: Vec2, angle: f32) -> Vec2 {
    let (c, s) = (libm::cosf(angle), libm::sinf(angle));
    Vec2::new(v.x * c - v.y * s, v.x * s + v.y * c)
}

/// What a child reads of its parent when it is placed.
struct Parent {
    pos: Vec2,
    prev: Vec2,
    vel: Vec2,
    /// `(angle, previous angle)`; zero for a parent that never turns.
    angle: (f32, f32),
}

impl SimWorld {
    /// Whether any entity is attached.
    pub(crate) fn has_attachments(&self) -> bool {
        self.ecs.any::<Attached>()
    }

    /// The parent of the live entity `seq`, if it is attached.
    pub(crate) fn parent_of(&self, seq: u64) -> Option<u64> {
        let e = self.index.get(&seq, self.ecs.raw())?;
        self.ecs.get::<&Attached>(e).ok().map(|a| a.parent)
    }

    /// Whether `seq` is `ancestor` or hangs from it through a chain of attachments.
    pub(crate) fn hangs_from(&self, seq: u64, ancestor: u64) -> bool {
        let mut at = seq;
        // A chain is never longer than the entities there are (no attachment makes a cycle).
        for _ in 0..=self.index.len() {
            if at == ancestor {
                return true;
            }
            match self.parent_of(at) {
                Some(p) => at = p,
                None => return false,
            }
        }
        false
    }

    /// Every attachment `(child seq, attachment)`, parents first (see the module
    /// documentation).
    fn attachments_in_order(&self) -> Vec<(u64, Attached)> {
        let mut all: Vec<(u64, Attached)> = self
            .ecs
            .query::<(&Identity, &Attached)>()
            .iter()
            .map(|(id, a)| (id.seq(), *a))
            .collect();
        if all.len() < 2 {
            return all;
        }
        all.sort_unstable_by_key(|a| a.0);
        // Each attachment's depth, found once: a walk up stops at the first attachment whose
        // depth is known, then gives the ones it passed theirs (a chain of n costs n steps, not
        // n^2). A walk longer than there are attachments would be a cycle, which attaching
        // refuses; it is cut there, as a depth past every other.
        let index = |seq: u64| all.binary_search_by_key(&seq, |a| a.0).ok();
        let mut depth = vec![0usize; all.len()];
        let mut path = Vec::new();
        for start in 0..all.len() {
            let mut at = start;
            let mut base = 0;
            while depth[at] == 0 && path.len() <= all.len() {
                path.push(at);
                match index(all[at].1.parent) {
                    Some(up) => at = up,
                    None => break,
                }
            }
            if depth[at] != 0 {
                base = depth[at];
            }
            for (k, &i) in path.iter().rev().enumerate() {
                depth[i] = base + k + 1;
            }
            path.clear();
        }
        let mut order: Vec<usize> = (0..all.len()).collect();
        order.sort_unstable_by_key(|&i| (depth[i], all[i].0));
        order.into_iter().map(|i| all[i]).collect()
    }

    /// Puts every attached entity where its parent and offset say, parents first (see the
    /// module documentation).
    pub(crate) fn place_attached(&mut self) {
        for (seq, a) in self.attachments_in_order() {
            let (Some(child), Some(parent)) = (
                self.index.get(&seq, self.ecs.raw()),
                self.index.get(&a.parent, self.ecs.raw()),
            ) else {
                continue;
            };
            let p = {
                let Ok(r) = self.ecs.entity(parent) else {
                    continue;
                };
                let (Some(pos), Some(prev)) = (r.get::<&Position>(), r.get::<&PrevPosition>())
                else {
                    continue;
                };
                Parent {
                    pos: pos.0,
                    prev: prev.0,
                    vel: r.get::<&Velocity>().map_or(Vec2::ZERO, |v| v.0),
                    angle: r
                        .get::<&Rotation>()
                        .map_or((0.0, 0.0), |r| (r.angle, r.prev)),
                }
            };
            let (off, off_prev) = if a.angle {
                (turned(a.offset, p.angle.0), turned(a.offset, p.angle.1))
            } else {
                (a.offset, a.offset)
            };
            let Ok((pos, prev, vel, rot)) = self.ecs.query_one_mut::<(
                &mut Position,
                &mut PrevPosition,
                &mut Velocity,
                Option<&mut Rotation>,
            )>(child) else {
                continue;
            };
            // Where the child goes never depends on previous transforms (a re-simulation
            // leaves them as they were: see `TickOptions::interpolate`).
            let (at, was) = (p.pos + off, p.prev + off_prev);
            if at.is_finite() {
                pos.0 = at;
                prev.0 = if was.is_finite() { was } else { at };
            }
            vel.0 = p.vel;
            if let (true, Some(r)) = (a.angle, rot) {
                (r.angle, r.prev) = p.angle;
            }
        }
    }

    /// Marks for destruction (in `pending` and `destroys`) every entity attached, through any
    /// chain, to one already marked (Commit, before the destroys are carried out).
    ///
    /// The order is that of passes over the attachments in query order, each marking the
    /// children of what is marked so far, until a pass marks nothing: an attachment whose
    /// parent was marked at (pass p, attachment i) is reached at (p, j) if it comes later
    /// (j > i), else at (p + 1, j). Those keys are followed in order from a queue, so a chain
    /// of n costs about n log n, not n passes over every attachment.
    pub(crate) fn destroy_attached(
        &self,
        pending: &mut SeqSet,
        destroys: &mut Vec<u64>,
    ) -> Result<(), Fault> {
        if pending.is_empty() {
            return Ok(());
        }
        let links: Vec<(u64, u64)> = self
            .ecs
            .query::<(&Identity, &Attached)>()
            .iter()
            .map(|(id, a)| (id.seq(), a.parent))
            .collect();
        mark_attached(&links, pending, destroys, self.index.len())
    }

    /// Attaches each live entity of `seqs` (spawned just now) whose archetype declares
    /// `attach` to the nearest entity carrying any of its tags, other than itself and what
    /// hangs from it; ties go to the earliest created. One that finds none is counted
    /// ([`WorldCounters::unattached`](crate::WorldCounters::unattached)). The spawns are
    /// attached in sequence order (which decides what hangs from what for the ones after);
    /// the entities carrying a tag set are gathered once, into a tree when many spawns look
    /// for them (`nearest.rs`: a level of many attachments builds in about n log n, not n^2,
    /// however its entities crowd together).
    pub(crate) fn attach_spawned(
        &mut self,
        def: &GameDef,
        seqs: std::ops::Range<u64>,
        merge: &mut Vec<crate::world::tagged::Tagged>,
    ) {
        if def.archetypes.iter().all(|a| a.attach.is_none()) {
            return;
        }
        // Who looks: (seq, what it looks for, where it is).
        let mut asking = Vec::new();
        for seq in seqs {
            let Some(e) = self.index.get(&seq, self.ecs.raw()) else {
                continue;
            };
            let Ok(id) = self.ecs.get::<&Identity>(e).map(|i| *i) else {
                continue;
            };
            let Some(at) = def.archetype(id.archetype).and_then(|a| a.attach) else {
                continue;
            };
            let Ok(here) = self.ecs.get::<&Position>(e).map(|p| p.0) else {
                continue;
            };
            asking.push((seq, id.archetype, at, here));
        }
        // What each tag set asked for finds (nothing attaching moves an entity or changes its
        // tags, so the answers hold through the loop).
        let mut finders: Vec<(u64, Candidates)> = Vec::new();
        for &(_, _, at, _) in &asking {
            if finders.iter().any(|(to, _)| *to == at.to) {
                continue;
            }
            let mut found = Vec::new();
            self.tagged
                .each(&self.ecs, &self.index, at.to, merge, |s, _, _, pos| {
                    found.push(Entry {
                        seq: s,
                        tags: 0,
                        pos,
                    });
                });
            let asks = asking.iter().filter(|a| a.2.to == at.to).count();
            finders.push((at.to, Candidates::new(found, asks)));
        }
        for (seq, archetype, at, here) in asking {
            let Some((_, finder)) = finders.iter().find(|(to, _)| *to == at.to) else {
                continue;
            };
            match finder.nearest(here, |s| !self.hangs_from(s, seq)) {
                Some(parent) => {
                    let a = Attached {
                        parent,
                        offset: at.offset,
                        angle: at.angle,
                    };
                    // Not a cycle: the parent does not hang from it.
                    if let Some(e) = self.index.get(&seq, self.ecs.raw()) {
                        self.insert_attachment(e, a);
                    }
                }
                None => {
                    self.counters.unattached += 1;
                    self.counters.unattached_archetype = Some(archetype);
                }
            }
        }
    }

    /// Attaches `child` as `to` says, or detaches it (`None`) (Commit). A command naming an
    /// entity that is gone is counted as stale; one that would make a cycle faults (`parents`
    /// tells which entities may have attachments hanging from them: attaching any other makes
    /// no cycle, so building a chain link by link walks none of it).
    pub(crate) fn set_attachment(
        &mut self,
        child: u64,
        to: Option<Attached>,
        parents: &mut Parents,
    ) -> Result<(), Fault> {
        let Some(e) = self.index.get(&child, self.ecs.raw()) else {
            self.counters.stale_commands += 1;
            return Ok(());
        };
        let Some(a) = to else {
            let _ = self.ecs.remove_one::<Attached>(e);
            return Ok(());
        };
        if !self.index.contains_key(&a.parent) {
            self.counters.stale_commands += 1;
            return Ok(());
        }
        let may_hang = a.parent == child || parents.may_have_children(self, child);
        if may_hang && self.hangs_from(a.parent, child) {
            return Err(Fault::new(
                FaultKind::Script,
                format!(
                    "attaching entity {child} to entity {} would make a cycle: {} hangs from \
                     {child}",
                    a.parent, a.parent
                ),
            ));
        }
        self.insert_attachment(e, a);
        parents.add(a.parent);
        Ok(())
    }

    /// Attaches the live entity `e` as `a` says (the caller has ruled out a cycle).
    fn insert_attachment(&mut self, e: hecs::Entity, a: Attached) {
        match self.ecs.query_one_mut::<&mut Attached>(e) {
            Ok(old) => *old = a,
            Err(_) => {
                let _ = self.ecs.insert_one(e, a);
            }
        }
        if a.angle && self.ecs.get::<&Rotation>(e).is_err() {
            let still = Rotation {
                angle: 0.0,
                prev: 0.0,
                spin: 0.0,
                mode: RotateMode::None,
            };
            let _ = self.ecs.insert_one(e, still);
        }
    }
}

/// Marks (in `pending` and `destroys`, at most `bound` of them) every child of `links`
/// (`(child, parent)`, in query order) that hangs from one marked, in the order of
/// [`SimWorld::destroy_attached`].
fn mark_attached(
    links: &[(u64, u64)],
    pending: &mut SeqSet,
    destroys: &mut Vec<u64>,
    bound: usize,
) -> Result<(), Fault> {
    // Each attachment by its parent, to find a marked entity's children.
    let mut by_parent: Vec<(u64, u32)> = (0..links.len()).map(|j| (links[j].1, j as u32)).collect();
    by_parent.sort_unstable();
    let children = |parent: u64| {
        let from = by_parent.partition_point(|&(p, _)| p < parent);
        by_parent[from..]
            .iter()
            .take_while(move |&&(p, _)| p == parent)
            .map(|&(_, j)| j)
    };
    let mut queue = BinaryHeap::new();
    for (j, (_, parent)) in links.iter().enumerate() {
        if pending.contains(parent) {
            queue.push(Reverse((1u32, j as u32)));
        }
    }
    while let Some(Reverse((pass, j))) = queue.pop() {
        let child = links[j as usize].0;
        if !pending.insert(child) {
            continue;
        }
        if !push_within(destroys, child, bound) {
            return Err(Limit::Entities.exceeded(bound as u64, "destroys in one tick"));
        }
        for k in children(child) {
            queue.push(Reverse((if k > j { pass } else { pass + 1 }, k)));
        }
    }
    Ok(())
}

/// The entities that may have attachments hanging from them, for the cycle check of
/// [`SimWorld::set_attachment`]: gathered from every attachment the first time it is asked,
/// then grown by each attachment made (a superset: a detachment or a death leaves its parent
/// in; sequences are never reused). Kept for one Commit.
#[derive(Default)]
pub(crate) struct Parents(Option<SeqSet>);

impl Parents {
    fn may_have_children(&mut self, world: &SimWorld, seq: u64) -> bool {
        self.0
            .get_or_insert_with(|| {
                let mut q = world.ecs.query::<&Attached>();
                q.iter().map(|a| a.parent).collect()
            })
            .contains(&seq)
    }

    fn add(&mut self, parent: u64) {
        // Not gathered yet: the gathering will find it.
        if let Some(set) = &mut self.0 {
            set.insert(parent);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The destroys' order by passes over every attachment, as it was first written.
    fn by_passes(links: &[(u64, u64)], pending: &mut SeqSet, destroys: &mut Vec<u64>) {
        let mut more = true;
        while more {
            more = false;
            for &(child, parent) in links {
                if pending.contains(&parent) && pending.insert(child) {
                    destroys.push(child);
                    more = true;
                }
            }
        }
    }

    #[test]
    fn attachments_die_with_their_parents_in_the_order_of_passes() {
        let mut rng = fastrand::Rng::with_seed(5);
        for round in 0..200 {
            // A forest of n entities (1..=n), each with a random earlier or later parent
            // (no cycles: a parent is drawn from a random order's earlier entries).
            let n = 1 + round % 40;
            let mut order: Vec<u64> = (1..=n as u64).collect();
            rng.shuffle(&mut order);
            let mut links = Vec::new();
            for i in 1..n {
                if rng.u8(..5) != 0 {
                    links.push((order[i], order[rng.usize(..i)]));
                }
            }
            rng.shuffle(&mut links);
            let start: SeqSet = (1..=n as u64).filter(|_| rng.u8(..6) == 0).collect();
            let (mut want_set, mut want) = (start.clone(), vec![0]);
            by_passes(&links, &mut want_set, &mut want);
            let (mut got_set, mut got) = (start.clone(), vec![0]);
            mark_attached(&links, &mut got_set, &mut got, n + 1).unwrap();
            assert_eq!(got, want, "links {links:?}, from {start:?}");
            assert_eq!(got_set, want_set);
        }
        // The bound holds while filling.
        let chain: Vec<(u64, u64)> = (2..=10).map(|c| (c, c - 1)).collect();
        let mut pending: SeqSet = [1].into_iter().collect();
        let mut destroys = Vec::new();
        assert!(mark_attached(&chain, &mut pending, &mut destroys, 4).is_err());
        assert_eq!(destroys.len(), 4);
    }
}
