//! The simulation world: a hecs world plus identity, creation sequences, random generator,
//! score, timers and contact cache: the state a tick hashes and a replay reproduces. The
//! tick's working buffers are not here (see `tick::scratch`).

pub(crate) mod access;
pub(crate) mod attach;
pub(crate) mod camera;
pub(crate) mod census;
pub(crate) mod columns;
pub(crate) mod components;
pub(crate) mod contact;
pub(crate) mod ecs;
pub(crate) mod hash;
pub(crate) mod health;
pub(crate) mod index;
pub(crate) mod invariants;
pub(crate) mod nearest;
pub(crate) mod spawn;
pub(crate) mod tagged;
pub(crate) mod tiles;

use crate::def::{GameDef, LevelDef, Overrides};
use crate::event::{DamageEvent, Party, SpawnEvent};
use crate::fault::{Fault, FaultKind};
use crate::ids::WorldId;
use crate::limits::Limit;
use crate::math::Vec2;
use crate::resource::{Resource, Resource as R, Tracked};
use crate::saved::SaveStore;
use crate::timer::TimerQueue;
use crate::var::Var;
use crate::world::components::*;
use crate::world::contact::ContactCache;
use crate::world::ecs::Ecs;
use std::collections::BTreeMap;

/// Navigation state of a world: the static grid, the installed field and the request in flight.
#[derive(Clone, Debug, Default)]
pub struct NavState {
    /// The level's grid with static blockers, built at level construction.
    pub base: Option<crate::nav::FlowInput>,
    pub field: Option<crate::nav::FlowField>,
    /// Revision of the latest request; results for older revisions are stale.
    pub revision: u64,
    pub in_flight: Option<crate::jobs::RequestId>,
    pub requested_goal: Option<(u32, u32)>,
}

/// Counters the tick keeps (diagnostics; not part of the state hash).
/// What scripts asked of the app during a tick, carried out after it: `ludus.restart()` (the
/// level again from its start, as the restart key does) and `ludus.pause()` (the window
/// pauses). Asked again, it is still asked once.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Asked {
    pub restart: bool,
    pub pause: bool,
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct WorldCounters {
    /// Commands naming an entity that is gone (or never existed): discarded.
    pub stale_commands: u64,
    /// Commands naming an entity already marked for destruction this tick: discarded.
    pub pending_destroy_filtered: u64,
    /// Damage blocked by invulnerability.
    pub damage_blocked: u64,
    /// Damage or heal sent to an entity whose health already reached 0: discarded (an entity
    /// dies once).
    pub after_death: u64,
    /// Damage or heal sent to an entity without health: discarded.
    pub no_health: u64,
    /// Presentation requests dropped at staging (more than the outbox holds in one tick).
    pub staged_dropped: u64,
    pub spawned: u64,
    pub destroyed: u64,
    pub ai_decisions: u64,
    pub contacts_peak: u64,
    /// Spawned entities whose archetype's `attach` found no entity with its tags to attach
    /// to, and the archetype of the last of them.
    pub unattached: u64,
    pub unattached_archetype: Option<crate::def::ArchetypeId>,
    /// Entities spawned with their centre outside their bounds rule's area (they follow the
    /// rule all the same: see [`SimWorld::take_warnings`]).
    pub spawned_outside: u64,
}

/// What a world has to say about how content uses it, for the developer (not part of the
/// state hash): a line per archetype spawned outside its bounds, the first time.
#[derive(Clone, Debug, Default)]
pub(crate) struct Warnings {
    /// The archetypes already warned about.
    warned: std::collections::BTreeSet<u16>,
    /// Lines not taken yet.
    fresh: Vec<String>,
}

/// Levels from which a build holds room for spawns past it in hecs's records of entities
/// ([`Ecs::hold`]): below them the records are a few kilobytes.
const ROOM_FROM: u64 = 1024;

/// The spawns past a level's build that its room holds at most: a crowd's worth of shots at
/// once. Each held id costs about 20 bytes (its record, its place in hecs's free list and in
/// the list of ids of the archetype of no component), 80 kilobytes at most.
const ROOM_MAX: u64 = 4096;

/// The entity ids a build of `total` entities holds as room for spawns past it: a sixteenth
/// of them (holding and giving back an id takes about a twentieth of what building an entity
/// does), at most [`ROOM_MAX`].
fn room_past_build(total: u64) -> u32 {
    if total < ROOM_FROM {
        0
    } else {
        (total / 16).min(ROOM_MAX) as u32
    }
}

/// The world a tick runs over. Entities are created and destroyed only at Commit (and at level
/// construction); every entity carries an [`Identity`] with a creation sequence that is never
/// reused, and handles are generation-checked by hecs, so a destroyed entity never resolves again.
pub struct SimWorld {
    pub(crate) ecs: Ecs,
    pub(crate) id: WorldId,
    /// This built world's number in the process, never another's (a [`WorldId`] is unique
    /// only within one game): what the state hash's kept records are kept for.
    pub(crate) instance: u64,
    pub(crate) level: usize,
    /// The level's name, shared by the events that carry it.
    pub(crate) level_name: std::sync::Arc<str>,
    pub(crate) next_seq: Tracked<u64>,
    pub(crate) index: Tracked<index::SeqIndex>,
    /// Live entities by tag (see [`TagIndex`](tagged::TagIndex)), which records its reads.
    pub(crate) tagged: tagged::TagIndex,
    pub(crate) rng: Tracked<fastrand::Rng>,
    pub(crate) score: Tracked<i64>,
    pub(crate) vars: Tracked<BTreeMap<String, Var>>,
    /// The game's saved data: carried into every new world of the game (see `saved.rs`).
    pub(crate) saved: Tracked<SaveStore>,
    /// Bytes the entities' script state holds together: [`state_entry_bytes`] of each entry
    /// (kept as keys are added, cleared or despawned; `[scripts] memory` bounds it).
    ///
    /// [`state_entry_bytes`]: crate::world::components::state_entry_bytes
    pub(crate) state_bytes: Tracked<usize>,
    /// Set by a `game_over` command: the tick it was sent in, and its message.
    pub(crate) game_over: Tracked<Option<(u64, String)>>,
    /// Set by a `load_level` command: the level to switch to after this tick.
    pub(crate) next_level: Tracked<Option<usize>>,
    /// What a script asked of the app for after this tick (`restart`, `pause`); each tick
    /// starts with none asked ([`Game::step`](crate::Game::step) clears them).
    pub(crate) asked: Tracked<Asked>,
    /// The keys scripts bound to actions (`ludus.bind`), carried from world to world of the
    /// game like the score; the window's key map follows them.
    pub(crate) bindings: Tracked<Bindings>,
    pub(crate) tick: Tracked<u64>,
    pub(crate) timers: Tracked<TimerQueue>,
    pub(crate) contacts: Tracked<ContactCache>,
    /// Spawn outcomes of the last Commit, consumed by the next tick.
    pub(crate) spawn_outcomes: Tracked<Vec<SpawnEvent>>,
    /// Damage applied after stage 2, delivered to the next tick's stage 2.
    pub(crate) carried_damage: Tracked<Vec<DamageEvent>>,
    /// Bursts each level spawner has done.
    pub(crate) spawner_bursts: Tracked<Vec<u32>>,
    pub(crate) presentation_seq: Tracked<u64>,
    /// Zoom and shake set by scripts.
    pub(crate) camera: Tracked<camera::CameraState>,
    pub(crate) nav: Tracked<NavState>,
    /// The tags behaviours set at run time look for (every one set in this world, kept
    /// after: tags a brain may look for besides those its archetypes' behaviours name).
    pub(crate) own_targets: Tracked<u64>,
    /// The level's tiles as scripts changed them.
    pub(crate) tiles: Tracked<tiles::Tiles>,
    /// Where the simulation's camera looks within its dead zone (see
    /// `tick::motion::offscreen`): kept only in games that destroy entities off screen.
    pub(crate) view_focus: Tracked<Option<Vec2>>,
    /// Invulnerability deadlines by sequence (part of [`Health`]'s
    /// state): an entry for each live entity that has taken damage with ticks of
    /// invulnerability after it, kept once they have passed (the state hash writes the
    /// deadline as it was set), dropped as the entity goes; an entity without one has none.
    pub(crate) invulnerable: Tracked<crate::ids::SeqMap<components::Deadline>>,
    /// Every live entity's maximum health (part of [`Health`]'s state).
    pub(crate) max_health: Tracked<health::MaxHealth>,
    pub(crate) counters: WorldCounters,
    pub(crate) warnings: Warnings,
}

/// The keys scripts bound to actions at run time, replacing those the game declares for each
/// action named (see [`Bindings::effective`]); `changes` counts the binds, so a key map
/// knows when to follow.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Bindings {
    pub by_action: BTreeMap<crate::frame::input::ActionId, Vec<(String, f32)>>,
    pub changes: u64,
}

impl Bindings {
    /// The keys of every action: the declared ones, with those of each action a script bound
    /// replaced.
    pub fn effective(&self, declared: &[crate::KeyBinding]) -> Vec<crate::KeyBinding> {
        let mut out: Vec<crate::KeyBinding> = declared
            .iter()
            .filter(|b| !self.by_action.contains_key(&b.action))
            .cloned()
            .collect();
        for (action, keys) in &self.by_action {
            out.extend(keys.iter().map(|(key, scale)| crate::KeyBinding {
                key: key.clone(),
                action: *action,
                scale: *scale,
            }));
        }
        out
    }

    /// The keys `action` has now: (key, scale).
    pub fn of(
        &self,
        action: crate::frame::input::ActionId,
        declared: &[crate::KeyBinding],
    ) -> Vec<(String, f32)> {
        match self.by_action.get(&action) {
            Some(keys) => keys.clone(),
            None => declared
                .iter()
                .filter(|b| b.action == action)
                .map(|b| (b.key.clone(), b.scale))
                .collect(),
        }
    }
}

impl SimWorld {
    /// Builds level `level` of `def` as world `id`, plus `extra` entities of the game's stress
    /// archetype (for `--entities`).
    pub fn build(def: &GameDef, level: usize, id: WorldId, extra: u32) -> Result<SimWorld, Fault> {
        let level_def = def.levels.get(level).ok_or_else(|| {
            Fault::new(
                FaultKind::Load,
                format!("the game has no level number {level}"),
            )
        })?;
        static BUILT: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
        let mut world = SimWorld {
            ecs: Ecs::default(),
            id,
            instance: BUILT.fetch_add(1, std::sync::atomic::Ordering::Relaxed),
            level,
            level_name: def.levels.get(level).map_or("", |l| l.name.as_str()).into(),
            next_seq: Tracked::new(1, R::EntitySet),
            index: Tracked::new(index::SeqIndex::default(), R::EntitySet),
            tagged: tagged::TagIndex::watching(def),
            rng: Tracked::new(fastrand::Rng::with_seed(def.seed), R::Rng),
            score: Tracked::new(0, R::Score),
            vars: Tracked::new(def.variables.clone(), R::Vars),
            saved: Tracked::new(SaveStore::default(), R::Saved),
            state_bytes: Tracked::new(0, R::ScriptState),
            game_over: Tracked::new(None, R::Flow),
            next_level: Tracked::new(None, R::Flow),
            asked: Tracked::new(Asked::default(), R::Flow),
            bindings: Tracked::new(Bindings::default(), R::Bindings),
            tick: Tracked::new(0, R::TickNumber),
            timers: Tracked::new(TimerQueue::new(def.limits.timers), R::Timers),
            contacts: Tracked::new(ContactCache::default(), R::ContactCache),
            spawn_outcomes: Tracked::new(Vec::new(), R::SpawnOutcomes),
            carried_damage: Tracked::new(Vec::new(), R::CarriedDamage),
            spawner_bursts: Tracked::new(vec![0; level_def.spawners.len()], R::Spawners),
            presentation_seq: Tracked::new(0, R::StagedPresentation),
            camera: Tracked::new(camera::CameraState::default(), R::Camera),
            nav: Tracked::new(NavState::default(), R::NavField),
            own_targets: Tracked::new(0, R::Brain),
            tiles: Tracked::new(tiles::Tiles::default(), R::Tiles),
            view_focus: Tracked::new(None, R::Offscreen),
            invulnerable: Tracked::new(Default::default(), R::Health),
            max_health: Tracked::new(health::MaxHealth::new(def), R::Health),
            counters: WorldCounters::default(),
            warnings: Warnings::default(),
        };
        let stress = if extra > 0 {
            let stress = def
                .stress
                .ok_or_else(|| Fault::new(FaultKind::Load, def.no_stress("--entities")))?;
            Some(stress)
        } else {
            None
        };
        let total = level_def.placements.len() as u64 + u64::from(extra);
        if total > u64::from(def.limits.max_entities) {
            return Err(Fault::new(
                FaultKind::Capacity,
                format!(
                    "level `{}` places {total} entities, more than {} (raise {})",
                    level_def.name,
                    def.limits.max_entities,
                    Limit::Entities
                ),
            ));
        }
        let room = room_past_build(total);
        // The index's run, too, has room for the spawns the held ids are for.
        world.index.reserve(total as usize + room as usize);
        let room = world.ecs.hold(room);
        let builder = &mut hecs::EntityBuilder::new();
        world.spawn_all(def, builder, &level_def.placements, 0, |p| {
            (p.archetype, p.pos, &p.overrides)
        })?;
        if let Some(stress) = stress {
            let area = stress.area.unwrap_or(level_def.bounds);
            let none = Overrides::default();
            let positions: Vec<Vec2> = (0..extra)
                .map(|_| area.lerp(world.rng.f32(), world.rng.f32()))
                .collect();
            world.spawn_all(def, builder, &positions, 0, |pos| {
                (stress.archetype, *pos, &none)
            })?;
        }
        world.ecs.release(room);
        let placed = 1..*world.next_seq;
        world.attach_spawned(def, placed, &mut Vec::new());
        if world.has_attachments() {
            world.place_attached();
        }
        world.build_nav(def);
        Ok(world)
    }

    /// The navigation grid with every collider on a blocking layer at level start marked.
    fn build_nav(&mut self, def: &GameDef) {
        let Some(level) = def.levels.get(self.level) else {
            return;
        };
        let Some(nav) = &level.nav else {
            return;
        };
        let mut grid = crate::nav::FlowInput::grid(level.bounds, nav.cell, level.bounds.center());
        let mut q = self.ecs.query::<(
            &Identity,
            &Position,
            Option<&Collider>,
            Option<&SharedCollider>,
        )>();
        for (id, t, own, shared) in q.iter() {
            let Some(c) = Collider::either(own, shared, def, id.archetype) else {
                continue;
            };
            if c.def(def).layer & nav.blocking != 0 {
                grid.block(t.0, c.shape().half_extents());
            }
        }
        self.nav.base = Some(grid);
    }

    pub fn nav(&self) -> &NavState {
        &self.nav
    }

    /// Removes one entity (Commit only). Its handle never resolves again.
    pub(crate) fn despawn(&mut self, seq: u64) -> bool {
        match self.index.remove(&seq, self.ecs.raw()) {
            Some(e) => {
                // Where no entity's script state holds a byte, none is looked up.
                if *self.state_bytes > 0
                    && let Ok(state) = self.ecs.get::<&ScriptState>(e)
                {
                    *self.state_bytes -= state.bytes();
                }
                let _ = self.ecs.despawn(e);
                if !self.invulnerable.is_empty() {
                    self.invulnerable.remove(&seq);
                }
                self.max_health.despawned(seq);
                self.counters.destroyed += 1;
                true
            }
            None => false,
        }
    }

    /// The copied event data of a live entity.
    pub(crate) fn party(&self, def: &GameDef, e: hecs::Entity) -> Option<Party> {
        let mut q = self.ecs.query_one::<(&Identity, &Position)>(e);
        q.get().ok().map(|(id, pos)| id.party(def, pos))
    }

    pub(crate) fn party_of(&self, def: &GameDef, seq: u64) -> Option<Party> {
        self.index
            .get(&seq, self.ecs.raw())
            .and_then(|e| self.party(def, e))
    }

    pub fn id(&self) -> WorldId {
        self.id
    }

    pub fn level(&self) -> usize {
        self.level
    }

    /// The last completed tick.
    pub fn tick(&self) -> u64 {
        *self.tick
    }

    pub fn score(&self) -> i64 {
        *self.score
    }

    pub fn vars(&self) -> &BTreeMap<String, Var> {
        &self.vars
    }

    /// Set by a script's `game_over` command: the tick and the message.
    pub fn game_over(&self) -> Option<(u64, &str)> {
        self.game_over.as_ref().map(|(t, m)| (*t, m.as_str()))
    }

    /// What a script asked of the app during the last tick (`restart`, `pause`).
    pub fn asked(&self) -> Asked {
        *self.asked
    }

    /// The level a script asked to switch to after the last tick (`load_level`).
    pub fn next_level(&self) -> Option<usize> {
        *self.next_level
    }

    /// Carries the score and the game variables into a new world (a level switch keeps
    /// them; a restart does not). The saved data is carried by [`Game`](crate::Game) into
    /// every new world.
    pub fn carry_over(&mut self, from: &SimWorld) {
        *self.score = *from.score;
        *self.vars = (*from.vars).clone();
        *self.bindings = (*from.bindings).clone();
    }

    /// The keys scripts bound to actions at run time (`ludus.bind`).
    pub fn bindings(&self) -> &Bindings {
        &self.bindings
    }

    /// The game's saved data, as the last completed tick left it.
    pub fn saved(&self) -> &SaveStore {
        &self.saved
    }

    /// Makes every entity's previous position (where `positions`) and angle its current
    /// one: what interpolating between this tick and the next starts from.
    pub(crate) fn keep_previous(&mut self, positions: bool) {
        if positions {
            for (cur, prev) in self.ecs.query_mut::<(&Position, &mut PrevPosition)>() {
                prev.0 = cur.0;
            }
        }
        for r in self.ecs.query_mut::<&mut Rotation>() {
            r.prev = r.angle;
        }
    }

    /// The world at rest: every previous transform made current, as a level's build leaves
    /// it, for a world whose last tick ran without
    /// [`interpolate`](crate::TickOptions::interpolate).
    pub fn settle_previous(&mut self) {
        self.keep_previous(true);
    }

    pub fn entity_count(&self) -> usize {
        self.index.len()
    }

    /// The live entity with this creation sequence.
    pub fn entity(&self, seq: u64) -> Option<hecs::Entity> {
        self.index.get(&seq, self.ecs.raw())
    }

    /// The maximum health of the live entity `id` (one with [`Health`]): its archetype's,
    /// or more where its spawn gave it more health.
    pub fn max_health(&self, id: &Identity) -> i32 {
        self.max_health.of(id)
    }

    /// Read access to the ECS for inspection, rendering and tests. The tick owns all writes.
    /// (A system that takes it reads every component, as far as debug builds' check of its
    /// declaration goes.)
    pub fn ecs(&self) -> &hecs::World {
        for r in Resource::COMPONENTS {
            crate::resource::touch(r, false);
        }
        self.ecs.raw()
    }

    pub fn timers(&self) -> &TimerQueue {
        &self.timers
    }

    pub fn contacts(&self) -> &ContactCache {
        &self.contacts
    }

    pub fn counters(&self) -> WorldCounters {
        self.counters
    }

    /// What the world warned about since the last call: a line per archetype spawned with its
    /// centre outside its bounds rule's area, the first time in this world (the count is
    /// [`WorldCounters::spawned_outside`]). The app shows them in its log.
    pub fn take_warnings(&mut self) -> Vec<String> {
        std::mem::take(&mut self.warnings.fresh)
    }

    /// Counts a spawn of `a` at `pos` outside its bounds rule's area, and warns the first time
    /// for its archetype.
    pub(crate) fn spawned_outside(&mut self, a: &crate::def::ArchetypeDef, id: u16, pos: Vec2) {
        self.counters.spawned_outside += 1;
        if self.warnings.warned.insert(id) {
            let rule = match a.bounds {
                crate::def::BoundsPolicy::Destroy => "destroys it",
                crate::def::BoundsPolicy::Wrap => "wraps it round",
                _ => "moves it inside",
            };
            self.warnings.fresh.push(format!(
                "warning: `{}` spawned at ({}, {}), outside its bounds (the level's bounds \
                 grown by its margin, {}): its `bounds` rule {rule} on its first tick; give \
                 it a margin that reaches where it spawns, or use `offscreen = \"destroy\"`",
                a.name, pos.x, pos.y, a.bounds_margin
            ));
        }
    }

    /// The level's tiles as scripts changed them.
    pub fn tiles(&self) -> &tiles::Tiles {
        &self.tiles
    }

    /// The random generator's current state (part of the state hash).
    pub fn rng_state(&self) -> u64 {
        self.rng.get_seed()
    }

    /// Creation sequences of live entities, ascending.
    pub fn sequences(&self) -> Vec<u64> {
        let mut v: Vec<u64> = self
            .index
            .iter(self.ecs.raw())
            .map(|(seq, _)| seq)
            .collect();
        v.sort_unstable();
        v
    }

    /// The level this world was built from.
    pub fn level_def<'a>(&self, def: &'a GameDef) -> Option<&'a LevelDef> {
        def.levels.get(self.level)
    }
}
