//! Collision: broadphase pairs, pushes and velocity responses, footing, and then the contact
//! cache's enter/stay/exit events (`contacts`).

use crate::collision::body::{Flags, Phys};
use crate::collision::{Body, Broadphase, CANDIDATES_PER_BODY, CANDIDATES_PER_CONTACT, Overflow};
use crate::def::{ArchetypeId, BodyKind, ColliderDef, GameDef};
use crate::fault::Fault;
use crate::limits::{Limit, push_snug};
use crate::math::Vec2;
use crate::tick::motion::step::up;
use crate::tick::scratch::Scratch;
use crate::world::SimWorld;
use crate::world::columns::{ArchetypeView, Placed};
use crate::world::components::*;
use crate::world::ecs::Ecs;

/// Where a walk over the colliders in collider order meets archetype `arch`: the collider
/// index of its first row, when it holds colliders and the next of the ascending indices
/// `wanted` from position `w` is among its rows; `base` moves past its rows either way.
fn visit(arch: Placed<'_>, wanted: &[u32], w: usize, base: &mut usize) -> Option<usize> {
    let n = arch.len() as usize;
    if n == 0 || !(arch.has::<Identity>() && arch.has::<Position>() && collides(&arch)) {
        return None;
    }
    let first = *base;
    *base += n;
    let k = *wanted.get(w)? as usize;
    (k < first + n).then_some(first)
}

/// The rows of one archetype to visit when walking colliders in collider order: those of the
/// ascending collider indices `wanted` that fall in `base..base + n` (`w` is the walk's
/// position in `wanted`).
struct Rows<'a> {
    wanted: &'a [u32],
    w: &'a mut usize,
    base: usize,
    n: usize,
}

impl Iterator for Rows<'_> {
    type Item = usize;

    #[inline]
    fn next(&mut self) -> Option<usize> {
        let k = *self.wanted.get(*self.w)? as usize;
        if k >= self.base + self.n {
            return None;
        }
        *self.w += 1;
        Some(k - self.base)
    }
}

impl Rows<'_> {
    /// Each row with its collider's place among the wanted ones (its full record's index in
    /// the broadphase's bodies, which are filled in that order).
    fn ranked(mut self) -> impl Iterator<Item = (usize, usize)> {
        std::iter::from_fn(move || {
            let rank = *self.w;
            self.next().map(|row| (row, rank))
        })
    }
}

/// What every full record of one game archetype's colliders shares (see [`full`]): whether
/// its colliders are triggers, and its push properties, `None` where they are plain.
/// Taken once a run of rows of one archetype, not once a row.
#[derive(Clone, Copy)]
struct Shared {
    archetype: ArchetypeId,
    trigger: bool,
    phys: Option<Phys>,
}

impl Shared {
    /// What the full records of `archetype`'s colliders (`c`, as [`Colliders::def`] gives a
    /// row's) share, in a hecs archetype with (`footing`) or without footing.
    fn of(archetype: ArchetypeId, c: &ColliderDef, footing: bool) -> Shared {
        let plain = c.body == BodyKind::Dynamic
            && c.mass == 1.0
            && c.bounce.is_none()
            && c.friction == 0.0
            && !footing;
        let phys = (!plain).then(|| Phys {
            inv_mass: match c.body {
                BodyKind::Dynamic => 1.0 / c.mass,
                BodyKind::Kinematic | BodyKind::Static => 0.0,
            },
            responds: c.body != BodyKind::Dynamic || c.bounce.is_some(),
            bounce: c.bounce.unwrap_or(0.0),
            friction: c.friction,
            footing,
        });
        Shared {
            archetype,
            trigger: c.trigger,
            phys,
        }
    }
}

/// The full record of collider `e` (its push properties kept in `physics` when not plain).
#[inline(always)]
fn full(physics: &mut Vec<Phys>, e: u32, id: &Identity, t: &Position, shared: &Shared) -> Body {
    let phys = match shared.phys {
        None => Body::PLAIN,
        Some(p) => {
            physics.push(p);
            (physics.len() - 1) as u32
        }
    };
    Body {
        id: e,
        seq: id.seq(),
        archetype: id.archetype,
        pos: t.0,
        trigger: shared.trigger,
        phys,
    }
}

/// Pairs from which a tick that splits sorts them on two threads (see
/// [`Broadphase::finish`]): a pile of about a thousand drones on a player.
const SORT_SPLIT_MIN: usize = 1024;

/// Wanted colliders from which a tick that splits fills their full records on two threads:
/// a pile of drones on a player, whose records are reads of columns at rows far apart. The
/// wanted list is in collider order and splits where motion's pass split its rows
/// ([`Broadphase::moved_from`]), so each half reads the rows its thread moved, still in
/// that core's caches: filled on one thread, the worker's rows came from the other core.
/// Measured with `ludus bench` on both cores at 16k drones (a pile of about 230 pairs in
/// the median tick): a tick of 0.053 ms against 0.060 to 0.061 from 512 (twenty
/// alternating runs), within the noise at 32k and 64k.
const RECORDS_SPLIT_MIN: usize = 64;

/// Fills `bp`'s full records of the colliders in `wanted` (ascending), in its order, and their
/// push properties: where `split` and there are many, each half of them on one of two
/// threads (the second half's in `apart`, kept for its room, then appended, its push
/// properties' places moved past the first half's).
fn records(
    ecs: &Ecs,
    def: &GameDef,
    wanted: &[u32],
    bp: &mut Broadphase,
    apart: &mut (Vec<Body>, Vec<Phys>),
    split: bool,
) {
    let from = bp.moved_from();
    let (bodies, physics) = (&mut bp.bodies, &mut bp.physics);
    if !(split && wanted.len() >= RECORDS_SPLIT_MIN && crate::par::available()) {
        return fill_records(ecs, def, wanted, bodies, physics);
    }
    // Where motion split (the middle where it did not, or every wanted collider is on one
    // side of it): the halves' results are joined in order, the same at any split.
    let mid = from
        .map(|from| wanted.partition_point(|&k| k < from))
        .filter(|&m| 0 < m && m < wanted.len())
        .unwrap_or(wanted.len() / 2);
    let (first, second) = wanted.split_at(mid);
    let (bodies_b, physics_b) = apart;
    bodies_b.clear();
    physics_b.clear();
    crate::par::join(
        || fill_records(ecs, def, first, bodies, physics),
        || fill_records(ecs, def, second, bodies_b, physics_b),
    );
    let moved = physics.len() as u32;
    crate::limits::room(bodies, bodies_b.len());
    bodies.extend(bodies_b.iter().map(|&b| Body {
        phys: if b.phys == Body::PLAIN {
            b.phys
        } else {
            b.phys + moved
        },
        ..b
    }));
    physics.extend_from_slice(physics_b);
}

/// Appends the full records of the colliders in `wanted` (ascending) to `bodies`, in its
/// order, and the push properties of those not plain to `physics`.
fn fill_records(
    ecs: &Ecs,
    def: &GameDef,
    wanted: &[u32],
    bodies: &mut Vec<Body>,
    physics: &mut Vec<Phys>,
) {
    each_wanted(ecs, wanted, |arch, _, rows| {
        let (Some(ids), Some(pos), own) = (
            arch.read::<Identity>(),
            arch.read::<Position>(),
            arch.read::<Collider>(),
        ) else {
            return;
        };
        let shared = arch.has::<SharedCollider>();
        let Some(cs) = Colliders::of(own.as_deref(), shared, Some(&ids), def) else {
            return;
        };
        // Footing is a hecs archetype's (every row has one or none): a row's full record is
        // its game archetype's but for its id, sequence and position.
        let footing = arch.has::<Footing>();
        let entities = arch.ids();
        let mut shared: Option<Shared> = None;
        for row in rows {
            let id = &ids[row];
            let s = match shared {
                Some(s) if s.archetype == id.archetype => s,
                _ => {
                    let (a, c) = cs.def(row, def);
                    *shared.insert(Shared::of(a, &c, footing))
                }
            };
            push_snug(bodies, full(physics, entities[row], id, &pos[row], &s));
        }
    });
}

/// Calls `f(arch, base, rows)` for each archetype that holds some of the ascending collider
/// indices `wanted`, in collider order: `base` is the collider index of its first row, `rows`
/// its rows among `wanted`.
fn each_wanted<'w>(ecs: &'w Ecs, wanted: &[u32], mut f: impl FnMut(Placed<'w>, usize, Rows<'_>)) {
    let (mut base, mut w) = (0usize, 0usize);
    for arch in ecs.archetypes_placed() {
        let Some(first) = visit(arch, wanted, w, &mut base) else {
            continue;
        };
        let rows = Rows {
            wanted,
            w: &mut w,
            base: first,
            n: arch.len() as usize,
        };
        f(arch, first, rows);
    }
}

/// Spans from which [`plan_with_left_columns`] lists their columns in a `Vec` (below, on
/// the stack).
const SPANS_INLINE: usize = 8;

/// [`Broadphase::plan`] with the position columns motion left positions in, a column per span
/// (empty for the others), borrowed for the plan; listed on the stack for a few spans, as
/// most games have, so a tick allocates no list for them.
fn plan_with_left_columns(ecs: &Ecs, bp: &mut Broadphase, cell: Option<f32>, split: bool) {
    type Left<'w> = Option<crate::world::columns::Column<'w, Position>>;
    fn fill<'w>(ecs: &'w Ecs, spans: &[crate::collision::Span], columns: &mut [Left<'w>]) {
        let (mut placed, mut at) = (ecs.archetypes_placed(), 0);
        for (span, column) in spans.iter().zip(columns) {
            let Some(arch) = placed.nth(span.arch as usize - at) else {
                break;
            };
            at = span.arch as usize + 1;
            *column = span.left.then(|| arch.read::<Position>()).flatten();
        }
    }
    fn slice<'c>(c: &'c Left<'_>) -> &'c [Vec2] {
        c.as_deref().map_or(&[][..], vectors)
    }
    let n = bp.spans().len();
    if n <= SPANS_INLINE {
        let mut columns: [Left<'_>; SPANS_INLINE] = std::array::from_fn(|_| None);
        fill(ecs, bp.spans(), &mut columns[..n]);
        let cols: [&[Vec2]; SPANS_INLINE] = std::array::from_fn(|k| slice(&columns[k]));
        bp.plan(cell, split, &cols[..n]);
    } else {
        let mut columns: Vec<Left<'_>> = (0..n).map(|_| None).collect();
        fill(ecs, bp.spans(), &mut columns);
        let cols: Vec<&[Vec2]> = columns.iter().map(slice).collect();
        bp.plan(cell, split, &cols);
    }
}

/// Whether `arch`'s rows have colliders, their own or their archetype's.
#[inline]
pub(crate) fn collides(arch: &impl ArchetypeView) -> bool {
    arch.has::<Collider>() || arch.has::<SharedCollider>()
}

/// Adds every collider to the broadphase as a compact record, in collider order (archetype
/// by archetype, row by row).
pub(crate) fn record(world: &mut SimWorld, s: &mut Scratch, def: &GameDef) {
    let bp = &mut s.broadphase;
    bp.begin();
    // Read with no borrow counted: the world is this pass's alone (see `Ecs::freeze`).
    for arch in world.ecs.freeze().archetypes() {
        if arch.is_empty() || !collides(&arch) {
            continue;
        }
        let (Some(pos), ids, own) = (
            arch.read::<Position>(),
            arch.read::<Identity>(),
            arch.read::<Collider>(),
        ) else {
            continue;
        };
        let shared = arch.has::<SharedCollider>();
        let Some(cs) = Colliders::of(own.as_deref(), shared, ids.as_deref(), def) else {
            continue;
        };
        add_rows(bp, def, &cs, vectors(&pos));
    }
}

/// Adds the colliders `cs` of an archetype's rows at `pos` to the broadphase, in row order:
/// rows of one record (of one archetype, and shape where they hold their own) in one step,
/// the definition read once and the positions copied at once (what a [`Broadphase::add`] a
/// row would add).
#[inline]
pub(crate) fn add_rows(bp: &mut Broadphase, def: &GameDef, cs: &Colliders<'_>, pos: &[Vec2]) {
    let mut i = 0;
    while i < pos.len() {
        let (a, shape, layer, looks) = cs.record(i, def);
        let more = cs.same_as(i, shape, i + 1..pos.len());
        if more == 0 {
            bp.add(a, pos[i], shape, layer, looks);
        } else {
            bp.add_all(a, &pos[i..=i + more], shape, layer, looks);
        }
        i += 1 + more;
    }
}

/// Broadphase, push corrections, and the contact cache's enter/stay/exit diff in one pass over
/// the sorted pairs (kept together so the diff walks the pair list once). Every collider has
/// been [`record`]ed (or added by the fused motion pass) this tick.
///
/// `split`: parts of the search may run on two threads (see [`Broadphase::plan`]).
///
/// Long because it is the whole contact step in its order (search, full records, push
/// corrections, responses, contact events), a hot pass over every collider: its steps share
/// the broadphase borrowed once and the wanted list taken out of it for the duration, and it
/// is kept in one piece as measured (`ludus bench`, callgrind).
pub(crate) fn collide(
    world: &mut SimWorld,
    s: &mut Scratch,
    def: &GameDef,
    tick: u64,
    split: bool,
) -> Result<(), Fault> {
    s.contact_hits.clear();
    let bp = &mut s.broadphase;
    if !bp.spans().iter().any(|span| span.left) {
        bp.plan(def.physics.cell_size, split, &[]);
    } else {
        plan_with_left_columns(&world.ecs, bp, def.physics.cell_size, split);
    }
    bp.flags.clear();
    bp.flags.extend(def.archetypes.iter().map(|a| {
        a.collider.map_or(Flags::default(), |c| Flags {
            mask: c.mask,
            push: c.push,
            trigger: c.trigger,
            stay: c.stay,
            fixed: c.body == BodyKind::Static,
        })
    }));
    let max_pairs = def.limits.contacts_per_tick;
    let colliders = bp.len() as u64;
    let budget = u64::from(max_pairs) * CANDIDATES_PER_CONTACT + colliders * CANDIDATES_PER_BODY;
    let split_from = if split {
        crate::par::SPLIT_MIN
    } else {
        usize::MAX
    };
    match bp.search(max_pairs as usize, budget, split_from) {
        Ok(()) => {}
        Err(Overflow::Pairs) => {
            return Err(Limit::Contacts.exceeded(
                u64::from(max_pairs),
                "overlapping collider pairs in one tick",
            ));
        }
        Err(Overflow::Work) => {
            return Err(Limit::Contacts.exceeded(
                budget,
                "candidate collider pairs examined in one tick: colliders are piled up without \
                 looking at each other, or [physics] cell is far from their size",
            ));
        }
    }

    // Full records of the colliders in a pair, in the same order as the compact ones
    // (nothing changed the world in between).
    bp.want();
    let wanted = std::mem::take(&mut bp.wanted_list);
    let (ecs, apart) = (&world.ecs, &mut s.records_apart);
    records(ecs, def, &wanted, bp, apart, split);
    debug_assert_eq!(
        bp.bodies.len(),
        wanted.len(),
        "a full record a wanted collider"
    );
    bp.finish(if split { SORT_SPLIT_MIN } else { usize::MAX });

    // Push apart and respond, accumulated in canonical pair order.
    let down = -up(def.physics.gravity);
    // SAFETY (of each `find_entity_from_id` below): a body's id is a live entity's, taken
    // from a live archetype of this world this tick, and no entity has come or gone since.
    let entity = |ecs: &Ecs, id: u32| unsafe { ecs.find_entity_from_id(id) };
    let ecs = &world.ecs;
    let vel_of = |id| {
        ecs.get::<&Velocity>(entity(ecs, id))
            .map_or(Vec2::ZERO, |v| v.0)
    };
    if bp.respond(down, vel_of) {
        // Push corrections, walking the colliders' columns in collider order.
        each_wanted(&world.ecs, &wanted, |arch, base, rows| {
            let Some(mut pos) = arch.write::<Position>() else {
                return;
            };
            for (row, b) in rows.ranked() {
                debug_assert_eq!(bp.body_of(base + row), Some(b));
                let off = bp.offsets[b];
                if off != Vec2::ZERO {
                    let t = &mut pos[row];
                    let next = t.0 + off;
                    if next.is_finite() {
                        t.0 = next;
                    }
                }
            }
        });
        for &i in &bp.turned {
            let v = bp.velocities[i as usize];
            if let Ok(vel) = world
                .ecs
                .query_one_mut::<&mut Velocity>(entity(&world.ecs, bp.bodies[i as usize].id))
                && v.is_finite()
            {
                vel.0 = v;
            }
        }
        for (i, ground) in bp.grounded.iter().enumerate() {
            if let Some(ground) = ground
                && let Ok(f) = world
                    .ecs
                    .query_one_mut::<&mut Footing>(entity(&world.ecs, bp.bodies[i].id))
            {
                f.grounded_at = Some(tick);
                f.ground_velocity = *ground;
            }
        }
    }

    bp.wanted_list = wanted;

    super::contacts::contacts(world, s, def, tick, split)
}
