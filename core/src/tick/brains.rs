//! Behaviours: brains decide on their cadence and steer by their intent (Intent's
//! `behaviours` system, or Motion's one pass: see `motion::fused`).

use crate::def::{BehaviourDef, GameDef};
use crate::math::{Vec2, scale8};
use crate::nav::FlowField;
use crate::par;
use crate::tick::decide::{Seen, decide};
use crate::tick::rule::{Rule, Rules};
use crate::tick::scratch::Scratch;
use crate::tick::soonest::Notes;
use crate::tick::speeds::{GROUP, GroupSpeeds, OwnGroups, RunGroups, Speeds};
use crate::world::SimWorld;
use crate::world::components::*;

/// Collects this tick's candidate targets of every behaviour that looks for tags (tags never
/// change after spawn, so the archetypes' behaviours and those set at run time name every tag
/// a brain can look for) into `s.targets`, by sequence, and whether a brain's target may be
/// lost (see [`Scratch::targets_kept`]).
pub(crate) fn targets(world: &mut SimWorld, s: &mut Scratch, def: &GameDef, tick: u64) {
    let wanted = def
        .archetypes
        .iter()
        .filter_map(|a| a.behaviour.as_ref())
        .fold(*world.own_targets, |acc, b| acc | b.target);
    std::mem::swap(&mut *s.targets, &mut *s.targets_before);
    let targets = &mut s.targets;
    targets.clear();
    // Every target's position comes with it (one view, not a look-up per target).
    world.tagged.each(
        &world.ecs,
        &world.index,
        wanted,
        &mut s.tag_merge,
        |seq, _, tags, p| {
            targets.push((seq, tags, p));
        },
    );
    // Every brain's target was among last tick's targets when every brain was checked
    // against them: if none of those is gone, no target is lost.
    let last = s.brains_checked.take();
    let checked = last.is_some() && last == tick.checked_sub(1);
    *s.targets_kept = checked && kept(&s.targets_before, &s.targets);
}

/// Whether every sequence of `before` is in `now` (both ascending by sequence).
fn kept(before: &[(u64, u64, Vec2)], now: &[(u64, u64, Vec2)]) -> bool {
    let mut now = now.iter().map(|t| t.0);
    before
        .iter()
        .all(|b| now.by_ref().find(|&s| s >= b.0) == Some(b.0))
}

/// Every brain decides where due and sets its velocity from its intent, from the targets
/// [`targets`] collected. `split`: large archetypes' brains may decide on two threads (see
/// [`par`]).
pub(crate) fn behaviours(
    world: &mut SimWorld,
    s: &mut Scratch,
    def: &GameDef,
    tick: u64,
    split: bool,
) {
    let lost = take_lost(s);
    let rules = Rules::of(&mut s.rules, def);
    let ctx = Deciding::from_parts(def, &s.targets, lost, world.nav.field.as_ref(), tick, rules);
    let mut decisions = 0u64;
    // Archetype by archetype over the columns, with no borrow counted: most brains only keep
    // their intent.
    for (index, (arch, changes)) in world.ecs.thaw().archetypes_counted().enumerate() {
        if arch.is_empty() || !arch.has::<Brain>() {
            continue;
        }
        let (Some(brains), Some(aims), Some(ids), Some(vels), Some(pos)) = (
            arch.write::<Brain>(),
            arch.write::<Aim>(),
            arch.read::<Identity>(),
            arch.write::<Velocity>(),
            arch.read::<Position>(),
        ) else {
            continue;
        };
        let n = arch.len() as usize;
        let own = arch.read::<Speed>();
        let ids = &ids[..n];
        let own = own.map(|o| &o[..n]);
        let speeds = s.speed_runs.speeds(own, index, changes, ids, def);
        let behaviours = arch.read::<OwnBehaviour>();
        let minds = Minds {
            brains: &mut brains[..n],
            aims: &mut aims[..n],
            speeds,
            ids,
            own: behaviours.map_or(&[], |b| &b[..n]),
            notes: Default::default(),
        };
        let (pos, vels) = (&pos[..n], &mut vels[..n]);
        let think = |m, p, v| ctx.think_rows(&mut Alive::default(), m, p, v);
        decisions += if split && n >= par::SPLIT_MIN {
            // Two halves on two threads: brains decide alone, so any split gives the same.
            let mid = n / 2;
            let (a, b) = minds.split_at(mid);
            let ((pa, pb), (va, vb)) = (pos.split_at(mid), vels.split_at_mut(mid));
            let (da, db) = par::join(|| think(a, pa, va), || think(b, pb, vb));
            da + db
        } else {
            think(minds, pos, vels)
        };
    }
    world.counters.ai_decisions += decisions;
    checked(s, tick);
}

/// Gives entity `e` `behaviour` in place of the one it has (`None`: none; its velocity stays
/// as it is). Its brain starts afresh, heading along its velocity, and decides at its next
/// tick; the tags it looks for are watched from now on.
pub(crate) fn set_behaviour(
    world: &mut SimWorld,
    def: &GameDef,
    e: hecs::Entity,
    behaviour: Option<BehaviourDef>,
) {
    let Some(b) = behaviour else {
        let _ = world.ecs.remove_one::<Brain>(e);
        let _ = world.ecs.remove_one::<Aim>(e);
        let _ = world.ecs.remove_one::<OwnBehaviour>(e);
        return;
    };
    if b.target & !*world.own_targets != 0 {
        *world.own_targets |= b.target;
        world.tagged.watch(&world.ecs, def, b.target);
    }
    let heading = world
        .ecs
        .get::<&Velocity>(e)
        .map_or(Vec2::ZERO, |v| v.0.normalized_or_zero());
    let brain = Brain::new(b.kind, heading);
    match world
        .ecs
        .query_one_mut::<(&mut Brain, &mut Aim, &mut OwnBehaviour)>(e)
    {
        Ok((old, aim, own)) => {
            *old = brain;
            *aim = Aim::default();
            own.0 = b;
        }
        Err(_) => {
            let _ = world.ecs.insert_one(e, brain);
            let _ = world.ecs.insert_one(e, Aim::default());
            let _ = world.ecs.insert_one(e, OwnBehaviour(b));
        }
    }
}

/// Whether a brain's target may be lost this tick (see [`targets`]); a tick that does not
/// collect targets first finds `true`.
pub(crate) fn take_lost(s: &mut Scratch) -> bool {
    !std::mem::take(&mut *s.targets_kept)
}

/// Records that every brain was checked against tick `tick`'s targets (see [`targets`]).
pub(crate) fn checked(s: &mut Scratch, tick: u64) {
    *s.brains_checked = Some(tick);
}

/// What every brain's decision reads this tick.
pub(crate) struct Deciding<'a> {
    /// Its behaviour's target tags, cadence and navigation, read from the brain's archetype.
    def: &'a GameDef,
    /// Candidate targets `(seq, tags, position)`, by sequence (`tags`: those of the wanted
    /// tags it carries, all a behaviour's target is tested against).
    targets: &'a [(u64, u64, Vec2)],
    field: Option<&'a FlowField>,
    seed: u64,
    tick: u64,
    /// Whether some brain's target may be gone since last tick (else only the cadence makes
    /// a brain due).
    lost: bool,
    /// What each brain's behaviour says of its decisions.
    rules: Rules<'a>,
}

/// The brain columns of (part of) an archetype, row for row: each a column's rows, all of one
/// length, or all empty (rows that do not think); `own` is empty also where the archetype
/// has no behaviours set at run time.
#[derive(Default)]
pub(crate) struct Minds<'a> {
    pub brains: &'a mut [Brain],
    pub aims: &'a mut [Aim],
    pub speeds: Speeds<'a>,
    pub ids: &'a [Identity],
    pub own: &'a [OwnBehaviour],
    /// The soonest decisions of the rows' whole groups, kept by motion's one pass (none
    /// elsewhere: every group's brains read).
    pub notes: Notes<'a>,
}

/// Rows `start..end` of `column`, which is empty or holds them.
#[inline(always)]
fn part<T>(column: &[T], start: usize, end: usize) -> &[T] {
    if column.is_empty() {
        column
    } else {
        &column[start..end]
    }
}

impl<'a> Minds<'a> {
    /// Rows `start..end` (`start <= end`; empty columns stay empty).
    #[inline(always)]
    pub fn rows(&mut self, start: usize, end: usize) -> Minds<'_> {
        if self.brains.is_empty() {
            return Minds::default();
        }
        Minds {
            brains: &mut self.brains[start..end],
            aims: &mut self.aims[start..end],
            speeds: self.speeds.rows(start, end),
            ids: &self.ids[start..end],
            own: part(self.own, start, end),
            notes: self.notes.rows(start, end),
        }
    }

    /// Rows `..mid` and `mid..` (empty columns stay empty).
    pub fn split_at(self, mid: usize) -> (Minds<'a>, Minds<'a>) {
        let at = mid.min(self.brains.len());
        let (brains, brains_b) = self.brains.split_at_mut(at);
        let (aims, aims_b) = self.aims.split_at_mut(at);
        let (speeds, speeds_b) = self.speeds.split_at(at);
        let (ids, ids_b) = self.ids.split_at(at);
        let (own, own_b) = (part(self.own, 0, at), part(self.own, at, self.ids.len()));
        let (notes, notes_b) = self.notes.split_at(at);
        (
            Minds {
                brains,
                aims,
                speeds,
                ids,
                own,
                notes,
            },
            Minds {
                brains: brains_b,
                aims: aims_b,
                speeds: speeds_b,
                ids: ids_b,
                own: own_b,
                notes: notes_b,
            },
        )
    }
}

impl<'a> Deciding<'a> {
    /// The decisions of tick `tick` from `targets` and whether one may be `lost`, as
    /// [`targets`] left them (see [`take_lost`]).
    pub(crate) fn from_parts(
        def: &'a GameDef,
        targets: &'a [(u64, u64, Vec2)],
        lost: bool,
        field: Option<&'a FlowField>,
        tick: u64,
        rules: Rules<'a>,
    ) -> Deciding<'a> {
        Deciding {
            def,
            targets,
            field,
            seed: def.seed,
            tick,
            lost,
            rules,
        }
    }

    /// Rows of brains: each decides if due (as [`think`](Self::think)) and sets its velocity
    /// from its intent; returns the decisions made. With no target lost, a group of eight rows
    /// at a time: the group's due decisions, then its eight velocities in a loop without a
    /// branch on decisions (a decision reads and writes only its own row, so deciding a
    /// group's rows first is deciding row by row), four rows a step in packed lanes where
    /// none of the eight is a straight mover (whose velocity is its own); one read of the
    /// group's words says both which rows may be due (in the browser's lanes exactly those,
    /// taken bit by bit: no test of the others) and whether one is straight; a group whose
    /// soonest decision, kept by motion's one pass (`m.notes`, see `soonest`), is after this
    /// tick skips that read and only steers. At a cadence of eight with consecutive
    /// sequences every group has a row due each tick; steering such a group row by row,
    /// between the decisions, cost 3.8% more instructions a tick at 16k
    /// drones. (A pass of decisions over all the rows and then one of velocities cost a
    /// second pass over the brains: 4% more at 64k drones, 2.7% at 1k.) With a target lost the
    /// decisions go first, in a loop of their own that keeps track of the last target known to
    /// live.
    #[inline(always)]
    pub(crate) fn think_rows(
        &self,
        alive: &mut Alive,
        m: Minds<'_>,
        pos: &[Position],
        vels: &mut [Velocity],
    ) -> u64 {
        let n = m.brains.len();
        let (brains, aims, ids, pos) = (m.brains, &mut m.aims[..n], &m.ids[..n], &pos[..n]);
        let (speeds, vels, own, mut notes) = (m.speeds, &mut vels[..n], m.own, m.notes);
        let tick = self.tick;
        let mut decisions = 0;
        if !self.lost {
            // No target is lost: due by the cadence alone (undecided brains are due: their
            // next decision is at tick 0). The speeds' kind is matched once, not a group.
            let rows = (brains, aims, ids, own, pos, vels);
            return match speeds {
                Speeds::Own(own) => self.in_groups(rows, speeds, OwnGroups(own), notes),
                Speeds::Runs { runs, from } => match speeds.one(n) {
                    // Rows of one speed (a crowd's, or a chunk of it): one number.
                    Some(one) => self.in_groups(rows, speeds, [one; GROUP], notes),
                    None => self.in_groups(rows, speeds, RunGroups::new(runs, from), notes),
                },
            };
        }
        // Decided below without the notes: read every group next tick.
        notes.clear();
        // The last target known to live: a brain that targets it is due only by its cadence
        // (most brains share a target); any other target is checked (see `settle`).
        // (`u64::MAX` when none is known: no creation sequence reaches it.)
        let mut known = alive.known().unwrap_or(u64::MAX);
        for (i, brain) in brains.iter_mut().enumerate() {
            let aim = &mut aims[i];
            let other = aim.target().is_some_and(|t| t != known);
            if other | (tick >= brain.next_decision()) {
                let decided = self.settle(alive, brain, aim, &ids[i], own.get(i), pos[i].0);
                decisions += u64::from(decided);
                known = alive.known().unwrap_or(u64::MAX);
            }
        }
        for ((brain, vel), speed) in brains.iter().zip(vels).zip(speeds.each()) {
            steer(brain, speed, vel);
        }
        decisions
    }

    /// [`think_rows`](Self::think_rows) with no target lost, a group at a time: a group of
    /// rows is checked for a due brain at once: one with none (most, between decisions) only
    /// steers; one with a due brain goes row by row, in the same order, as do the rows after
    /// the last whole group. `groups`: the groups' speeds (`speeds` are the rows', for the
    /// rows after the last whole group).
    #[inline(always)]
    #[allow(clippy::type_complexity)]
    fn in_groups(
        &self,
        (brains, aims, ids, own, pos, vels): (
            &mut [Brain],
            &mut [Aim],
            &[Identity],
            &[OwnBehaviour],
            &[Position],
            &mut [Velocity],
        ),
        speeds: Speeds<'_>,
        mut groups: impl GroupSpeeds,
        mut notes: Notes<'_>,
    ) -> u64 {
        let tick = self.tick;
        let mut decisions = 0;
        let (bg, bt) = brains.as_chunks_mut::<GROUP>();
        let (vg, vt) = vels.as_chunks_mut::<GROUP>();
        let whole = bg.len() * GROUP;
        let mut decide = |i: usize, brain: &mut Brain| {
            if tick >= brain.next_decision() {
                self.decide_now(brain, &mut aims[i], &ids[i], own.get(i), pos[i].0);
                decisions += 1;
            }
        };
        for (g, (b, v)) in bg.iter_mut().zip(vg).enumerate() {
            let s = groups.group(g);
            if tick < notes.get(g) {
                // None due and none a straight mover (`soonest`'s invariant).
                let v = vectors_mut(v).try_into().expect("a group's velocities");
                scale8(v, Brain::heads(b), s);
                continue;
            }
            let (straight, mut due) = Brain::straight_and_due(b, tick);
            // The group's note: the tick after this one where a brain may have been due,
            // else its soonest decision (see `Notes::after`).
            if due != 0 {
                notes.after(g, tick);
            } else {
                notes.keep(g, b);
            }
            // A group's decisions, the rows that may be due in order (each tested again),
            // then its velocities: a row's decision and velocity read and write only its
            // own row, so every row steers as it would right after its decision.
            while due != 0 {
                let k = due.trailing_zeros() as usize;
                due &= due - 1;
                decide(g * GROUP + k, &mut b[k]);
            }
            if straight {
                for k in 0..GROUP {
                    steer(&b[k], s[k], &mut v[k]);
                }
            } else {
                // No straight mover: every velocity is its intent at its speed.
                let v = vectors_mut(v).try_into().expect("a group's velocities");
                scale8(v, Brain::heads(b), s);
            }
        }
        let tail_speeds = speeds.rows(whole, whole + bt.len()).each();
        let tail = bt.iter_mut().zip(vt.iter_mut()).zip(tail_speeds);
        for (k, ((brain, vel), speed)) in tail.enumerate() {
            decide(whole + k, brain);
            steer(brain, speed, vel);
        }
        decisions
    }

    /// A brain that may be due decides (at `pos`) if it is: it never has, its target is lost,
    /// or it is its cadence tick; returns whether it did.
    #[inline(always)]
    fn settle(
        &self,
        alive: &mut Alive,
        brain: &mut Brain,
        aim: &mut Aim,
        id: &Identity,
        own: Option<&OwnBehaviour>,
        pos: Vec2,
    ) -> bool {
        let target_lost = self.lost
            && aim
                .target()
                .is_some_and(|seq| !alive.check(self.targets, seq));
        let due = !brain.decided() || target_lost || self.tick >= brain.next_decision();
        if due {
            self.decide_now(brain, aim, id, own, pos);
        }
        due
    }

    /// A decision due now, and the next one's tick: by the behaviour set at run time (`own`,
    /// its row's), if the brain has one, else by its archetype's.
    #[inline(never)]
    fn decide_now(
        &self,
        brain: &mut Brain,
        aim: &mut Aim,
        id: &Identity,
        own: Option<&OwnBehaviour>,
        pos: Vec2,
    ) {
        let (tick, seq) = (self.tick, id.seq());
        let Rule { how, cadence } = self.rules.get(id, own, self.def);
        let seen = Seen {
            targets: self.targets,
            field: self.field,
            seed: self.seed,
            tick,
        };
        decide(brain, aim, seq, how, pos, seen);
        // The next tick after this one with (tick + seq) % cadence == 0.
        brain.set_next_decision(tick + cadence - (tick.wrapping_add(seq) % cadence));
    }

    /// One brain: decides if due (never decided, target lost, or its cadence tick) from its
    /// position `pos` (by `own`, the behaviour its row holds, if set at run time), then sets
    /// its velocity from its intent; returns whether it decided.
    #[inline(always)]
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn think(
        &self,
        alive: &mut Alive,
        brain: &mut Brain,
        aim: &mut Aim,
        id: &Identity,
        own: Option<&OwnBehaviour>,
        pos: Vec2,
        speed: f32,
        vel: &mut Velocity,
    ) -> bool {
        let due = self.settle(alive, brain, aim, id, own, pos);
        if !brain.straight() {
            vel.0 = brain.intent * speed;
        }
        due
    }
}

/// Whether a brain's target lives: it is one of the targets (its tags are among the wanted
/// ones). Most brains share a target, so the last answer is kept.
#[derive(Default)]
pub(crate) struct Alive {
    last: Option<(u64, bool)>,
}

impl Alive {
    /// The last target checked, if it lives.
    #[inline(always)]
    fn known(&self) -> Option<u64> {
        match self.last {
            Some((seq, true)) => Some(seq),
            _ => None,
        }
    }

    #[inline(always)]
    fn check(&mut self, targets: &[(u64, u64, Vec2)], seq: u64) -> bool {
        match self.last {
            Some((s, a)) if s == seq => a,
            _ => {
                let a = targets.binary_search_by_key(&seq, |t| t.0).is_ok();
                self.last = Some((seq, a));
                a
            }
        }
    }
}

/// A brain's velocity: its intent at its speed, except a straight mover's, which keeps the
/// velocity it has.
#[inline(always)]
fn steer(brain: &Brain, speed: f32, vel: &mut Velocity) {
    let v = brain.intent * speed;
    vel.0 = if brain.straight() { vel.0 } else { v };
}
