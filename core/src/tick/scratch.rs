//! The tick's working buffers: what one tick fills and empties, kept apart from the world.
//!
//! A [`SimWorld`] holds only the state that is hashed and replayed; the queues a tick fills
//! on its way (events, commands, structural changes, staged presentation), the broadphase
//! and the caches that only save work live here, in the [`TickContext`] the game owns, and
//! reach each system beside the world (as a physics pipeline takes its broad and narrow
//! phases). Nothing here changes what a tick computes: a fresh `Scratch` and a reused one
//! give the same world.
//!
//! [`TickContext`]: crate::tick::TickContext

use crate::collision::Broadphase;
use crate::command::Command;
use crate::consequences::Sent;
use crate::def::{ArchetypeId, GameDef, SpawnOverrides};
use crate::event::Events;
use crate::ids::SeqSet;
use crate::math::Vec2;
use crate::outbox::PresentationRequest;
use crate::resource::{Resource, Tracked};
use crate::spatial::SpatialIndex;
use crate::tick::motion::uniform::UniformCache;
use crate::timer::DueTimer;
use crate::world::SimWorld;
use crate::world::components::{Attached, ScriptState};

/// A chase or flee target candidate: `(seq, tags, pos)`.
pub(crate) type Target = (u64, u64, Vec2);

/// Tick-local buffers: cleared at BeginTick, never read across ticks except where noted.
/// Made afresh with every world (a level's first tick finds them empty). Each buffer stands
/// for the [`Resource`] its systems declare (the event queues for their event kinds).
pub(crate) struct Scratch {
    pub events: Events,
    pub due_timers: Tracked<Vec<DueTimer>>,
    pub commands: Tracked<Vec<Command>>,
    /// Structural commands recorded for Commit, in order.
    pub spawns: Tracked<Vec<(ArchetypeId, Vec2, SpawnOverrides)>>,
    pub destroys: Tracked<Vec<u64>>,
    pub teleports: Tracked<Vec<(u64, Vec2)>>,
    /// Attachments and detachments `(child, attachment)` for Commit, in the order sent.
    pub attaches: Tracked<Vec<(u64, Option<Attached>)>>,
    /// Tile changes recorded for Commit: the cell and its new key, in the order sent.
    pub tile_changes: Tracked<Vec<(usize, u8)>>,
    /// Entities marked for destruction this tick.
    pub pending: Tracked<SeqSet>,
    pub staged: Tracked<Vec<PresentationRequest>>,
    pub broadphase: Tracked<Broadphase>,
    /// Reused for every spawn (building an entity allocates otherwise).
    pub builder: hecs::EntityBuilder,
    /// Entities destroyed by commands of the current gameplay stage.
    pub destroyed_now: Tracked<SeqSet>,
    /// What this tick's commands add to bounded tables, counted as they are sent.
    pub sent: Tracked<Sent>,
    /// Chase/flee target candidates, by sequence.
    pub targets: Tracked<Vec<Target>>,
    /// Last tick's targets (read by the next tick's Intent).
    pub targets_before: Tracked<Vec<Target>>,
    /// Whether every brain's target is sure to live: set only when every brain was checked
    /// last tick (`brains_checked`) and every one of that tick's targets is still one. Each
    /// brain's target is one of the targets of the tick it was last checked in (a decision
    /// picks one; a lost one makes it decide again), so then only the cadence makes a brain
    /// due. (`false`, the default, makes every brain check its target.)
    pub targets_kept: Tracked<bool>,
    /// The tick whose targets every brain was last checked against, if that was the last
    /// tick to collect targets (read by the next tick's Intent; a tick that faults before its
    /// brains are all checked leaves it `None`, and every brain is checked the next tick).
    pub brains_checked: Tracked<Option<u64>>,
    /// Each archetype's behaviour rule, worked out again every tick the brains decide.
    pub rules: Vec<crate::tick::rule::Rule>,
    /// The record hashes the state hash keeps from tick to tick (not state: see
    /// [`HashCache`](crate::world::hash::HashCache)).
    pub hash_cache: crate::world::hash::HashCache,
    /// The merge of several tags' entities (see [`TagIndex::each`]).
    ///
    /// [`TagIndex::each`]: crate::world::tagged::TagIndex::each
    pub tag_merge: Vec<crate::world::tagged::Tagged>,
    /// The damage commands of archetypes' `contact_damage` in this tick's contacts (Motion's
    /// collide writes them, stage 1's apply applies them before the scripts' commands).
    pub contact_hits: Tracked<ContactHits>,
    /// Commands naming entities spawned this tick, applied at Commit right after the spawns.
    pub after_spawn: Tracked<Vec<Command>>,
    /// Where entities are, for scripts' spatial reads (built on first use in a tick, from
    /// what the reads record).
    pub spatial: SpatialIndex,
    /// The live entities by archetype, for the scripts' collection reads (kept across ticks
    /// as `uniform` is).
    pub census: crate::world::census::Census,
    /// Which rows of each archetype share one collider and confine (kept across ticks, taken
    /// again when an archetype's rows change, `Ecs::rows_changed`; it reads only what spawns
    /// fix).
    pub uniform: UniformCache,
    /// The runs of rows of one speed of each hecs archetype, for their brains' speeds (kept
    /// across ticks as `uniform` is).
    pub speed_runs: crate::tick::speeds::RunCache,
    /// The soonest decision of each group of eight brains, kept by motion's one pass from
    /// tick to tick (forgotten when a behaviour is set at run time).
    pub soonest: crate::tick::soonest::Soonest,
    /// Where motion's one pass splits a large archetype's rows between the two threads
    /// (learned from the parts' times; no result depends on it).
    pub motion_split: crate::par::Balance,
    /// The second half of a tick's full collider records and their push properties, where
    /// they are filled on two threads (see `motion::collide`), kept for its room.
    pub records_apart: (
        Vec<crate::collision::Body>,
        Vec<crate::collision::body::Phys>,
    ),
    /// The contact cache's list before this tick, kept empty for its room: the next tick's
    /// contacts are listed in it (the two lists swap every tick instead of one being
    /// allocated).
    pub spare_contacts: Vec<crate::world::contact::ContactKey>,
    /// The second half of a tick's contacts, where they are walked on two threads (see
    /// `motion::contacts`), kept for its room.
    pub contacts_apart: ContactsApart,
}

/// The damage archetypes' `contact_damage` does in one tick's contacts: that of contacts that
/// began, then that of contacts that last, each in the contacts' order (as a script handling
/// `on_collision_enter` before `on_collision_stay` would send the damage commands).
///
/// Invariant: every hit names an entity that existed before the tick, and the lists hold at
/// most two a reported contact (one each way): together at most twice `[limits] contacts`,
/// and neither reserves room past that.
#[derive(Default)]
pub(crate) struct ContactHits {
    pub begun: Vec<Hit>,
    pub lasting: Vec<Hit>,
}

impl ContactHits {
    /// The lengths of both lists.
    pub fn lens(&self) -> (usize, usize) {
        (self.begun.len(), self.lasting.len())
    }
}

/// What the second half of a tick's contacts makes, where they are walked on two threads:
/// its contacts, its events (a queue a phase, as `motion::contacts` orders them) and their
/// damage, all appended to the first half's; and where the pairs split, learned from the
/// halves' times.
///
/// Invariant: empty between ticks; its contacts within `[limits] contacts`, each queue within
/// `[limits] events` and its damage as [`ContactHits`]'s (each is filled within its bound).
#[derive(Default)]
pub(crate) struct ContactsApart {
    pub keys: Vec<crate::world::contact::ContactKey>,
    pub queues: [Vec<crate::event::ContactEvent>; 6],
    pub hits: ContactHits,
    pub balance: crate::par::Balance,
}

impl ContactsApart {
    /// Empties every list, keeping its room.
    pub fn clear(&mut self) {
        self.keys.clear();
        self.queues.iter_mut().for_each(Vec::clear);
        self.hits.begun.clear();
        self.hits.lasting.clear();
    }
}

/// A contact's damage: what a `Command::Damage` from `source` to `target` does (half its
/// bytes, and nothing to drop).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Hit {
    pub target: u64,
    pub source: u64,
    pub amount: i32,
}

impl Hit {
    /// As a damage command's target, amount and source.
    pub fn damage(&self) -> (u64, i32, Option<u64>) {
        (self.target, self.amount, Some(self.source))
    }
}

impl ContactHits {
    pub fn clear(&mut self) {
        self.begun.clear();
        self.lasting.clear();
    }
}

impl Default for Scratch {
    fn default() -> Scratch {
        use Resource as R;
        Scratch {
            events: Events::default(),
            due_timers: Tracked::new(Vec::new(), R::Timers),
            commands: Tracked::new(Vec::new(), R::Commands),
            spawns: Tracked::new(Vec::new(), R::StructuralCommands),
            destroys: Tracked::new(Vec::new(), R::StructuralCommands),
            teleports: Tracked::new(Vec::new(), R::StructuralCommands),
            attaches: Tracked::new(Vec::new(), R::StructuralCommands),
            tile_changes: Tracked::new(Vec::new(), R::StructuralCommands),
            pending: Tracked::new(SeqSet::default(), R::StructuralCommands),
            staged: Tracked::new(Vec::new(), R::StagedPresentation),
            broadphase: Tracked::new(Broadphase::default(), R::Broadphase),
            builder: hecs::EntityBuilder::new(),
            destroyed_now: Tracked::new(SeqSet::default(), R::Commands),
            sent: Tracked::new(Sent::default(), R::Commands),
            targets: Tracked::new(Vec::new(), R::Targets),
            targets_before: Tracked::new(Vec::new(), R::Targets),
            targets_kept: Tracked::new(false, R::Targets),
            brains_checked: Tracked::new(None, R::Targets),
            rules: Vec::new(),
            hash_cache: Default::default(),
            tag_merge: Vec::new(),
            contact_hits: Tracked::new(ContactHits::default(), R::ContactDamage),
            after_spawn: Tracked::new(Vec::new(), R::StructuralCommands),
            spatial: SpatialIndex::default(),
            census: Default::default(),
            uniform: UniformCache::default(),
            speed_runs: Default::default(),
            soonest: Default::default(),
            motion_split: crate::par::Balance::default(),
            records_apart: Default::default(),
            spare_contacts: Vec::new(),
            contacts_apart: ContactsApart::default(),
        }
    }
}

impl Scratch {
    /// Empties every tick-local queue (BeginTick's first system).
    pub fn clear(&mut self) {
        self.events.clear();
        self.due_timers.clear();
        self.commands.clear();
        self.spawns.clear();
        self.sent.clear();
        self.destroys.clear();
        self.teleports.clear();
        self.attaches.clear();
        self.tile_changes.clear();
        self.pending.clear();
        self.staged.clear();
        self.after_spawn.clear();
        self.spatial.invalidate();
    }

    /// Each bounded tick queue as `(name, room reserved, bound)`, the world's carried queues
    /// among them. Every bound is enforced while filling, so room never exceeds the bound,
    /// even after a fault.
    pub(crate) fn queue_room(
        &self,
        world: &SimWorld,
        def: &GameDef,
    ) -> Vec<(&'static str, usize, usize)> {
        let l = &def.limits;
        let (entities, events) = (l.max_entities as usize, l.events_per_tick as usize);
        let commands = l.commands_per_tick as usize;
        let mut room = vec![
            (
                "contact pairs",
                self.broadphase.pairs.capacity(),
                l.contacts_per_tick as usize,
            ),
            (
                "contact pairs, second half",
                self.broadphase.pairs_second.capacity(),
                (l.contacts_per_tick / 2) as usize,
            ),
            (
                "contact cache",
                world.contacts.keys.capacity(),
                l.contacts_per_tick as usize,
            ),
            (
                "contact damage begun",
                self.contact_hits.begun.capacity(),
                2 * l.contacts_per_tick as usize,
            ),
            (
                "contact damage lasting",
                self.contact_hits.lasting.capacity(),
                2 * l.contacts_per_tick as usize,
            ),
            (
                "contact cache, second half",
                self.contacts_apart.keys.capacity(),
                l.contacts_per_tick as usize,
            ),
            (
                "contact damage begun, second half",
                self.contacts_apart.hits.begun.capacity(),
                2 * l.contacts_per_tick as usize,
            ),
            (
                "contact damage lasting, second half",
                self.contacts_apart.hits.lasting.capacity(),
                2 * l.contacts_per_tick as usize,
            ),
            ("spawn outcomes", world.spawn_outcomes.capacity(), entities),
            ("carried damage", world.carried_damage.capacity(), events),
            ("commands", self.commands.capacity(), commands),
            ("spawns", self.spawns.capacity(), entities),
            ("destroys", self.destroys.capacity(), entities),
            ("teleports", self.teleports.capacity(), 2 * commands),
            ("attachments", self.attaches.capacity(), 2 * commands),
            ("tile changes", self.tile_changes.capacity(), 2 * commands),
            (
                "staged presentation",
                self.staged.capacity(),
                l.outbox as usize,
            ),
            ("timers", world.timers.reserved(), l.timers as usize),
            ("due timers", self.due_timers.capacity(), l.timers as usize),
            ("variables", world.vars.len(), l.variables as usize),
        ];
        room.extend(self.events.room(l));
        room.extend(
            (self.contacts_apart.queues.iter())
                .map(|q| ("contact events, second half", q.capacity(), events)),
        );
        let keys = world
            .ecs
            .query::<&ScriptState>()
            .iter()
            .map(|s| s.len())
            .max();
        room.push(("state keys", keys.unwrap_or(0), l.state_keys as usize));
        room
    }
}
