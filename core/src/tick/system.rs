//! Systems: the steps of a phase, declared rather than implied.
//!
//! Every Rust step of a tick (integrate, bounds, collide, the gameplay stages...) is a
//! [`System`]: a handle ([`SystemId`]), the phase it belongs to, what it reads and writes, and
//! the systems it must run after or before, named by their handles. A [`Schedule`] orders
//! them. Each phase's file declares its native systems ([`Decl`], [`PhaseSystems`]).
//!
//! A program that embeds Ludus adds its own systems with [`System::new`] (see
//! `examples/embed`), ordered against the framework's by the handles in
//! [`systems`](crate::systems).
//!
//! [`Schedule`]: crate::tick::schedule::Schedule

use crate::consequences::Consequences;
use crate::def::GameDef;
use crate::event::EventKind;
use crate::fault::Fault;
use crate::frame::input::TickInput;
use crate::jobs::Completions;
use crate::outbox::Outbox;
use crate::phase::Phase;
use crate::resource::{Resource, Touched, Tracked};
use crate::tick::report::{TickOptions, TickReport};
use crate::tick::scratch::Scratch;
use crate::world::SimWorld;
use std::borrow::Cow;
use std::fmt;

/// What a system gets: the tick being run, the world, and what the phase needs. In debug
/// builds, what a system reads and changes through it is recorded and checked against its
/// declaration (see `resource`).
pub struct TickState<'a> {
    pub(crate) world: &'a mut SimWorld,
    /// The tick's working buffers (see [`scratch`](crate::tick::scratch)).
    pub(crate) scratch: &'a mut Scratch,
    pub(crate) def: &'a GameDef,
    pub(crate) tick: u64,
    pub(crate) input: Tracked<&'a TickInput>,
    pub(crate) completions: Tracked<&'a mut Completions>,
    pub(crate) outbox: Tracked<&'a mut Outbox>,
    pub(crate) options: TickOptions,
    pub(crate) consequences: &'a mut dyn Consequences,
    pub(crate) report: TickReport,
    /// BeginTick, Intent and Motion hold only the native systems, so Motion's run as one pass
    /// that also copies previous positions (see `motion::fused`).
    pub(crate) fused_motion: bool,
    /// Set while profiling (see [`crate::profile`]).
    pub(crate) profiler: Option<&'a mut crate::profile::Profiler>,
}

impl<'a> TickState<'a> {
    /// The tick being run (the first tick of a level is 1).
    pub fn tick(&self) -> u64 {
        self.tick
    }

    /// Seconds one tick lasts.
    pub fn dt(&self) -> f32 {
        self.def.tick.tick_seconds()
    }

    /// The game's definition, for as long as the tick (so a system can read it, say an
    /// entity's tags, [`GameDef::tags_of`], while it queries the world).
    pub fn def(&self) -> &'a GameDef {
        self.def
    }

    pub fn world(&self) -> &SimWorld {
        self.world
    }

    /// The tick's input.
    pub fn input(&self) -> &TickInput {
        *self.input
    }

    /// Iterates and changes component values (never which entities exist: entities are created
    /// and destroyed by commands, at Commit).
    pub fn query_mut<Q: hecs::Query>(&mut self) -> hecs::QueryMut<'_, Q> {
        self.world.ecs.query_mut::<Q>()
    }
}

type Native = fn(&mut TickState<'_>) -> Result<(), Fault>;
type Custom = Box<dyn FnMut(&mut TickState<'_>) -> Result<(), Fault>>;

pub(crate) enum Run {
    Native(Native),
    Custom(Custom),
}

/// A system's handle: how `after`, `before` and [`System::chain`] name it. The framework's
/// own systems' handles are the constants of [`systems`](crate::systems); a program's own
/// system gets its handle from [`System::id`]. A handle is its system's name, unique in a
/// schedule.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct SystemId(&'static str);

impl SystemId {
    /// The handle of a native system (declared in its phase's file).
    pub(crate) const fn native(name: &'static str) -> SystemId {
        SystemId(name)
    }

    pub fn name(self) -> &'static str {
        self.0
    }
}

impl fmt::Debug for SystemId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.0)
    }
}

impl fmt::Display for SystemId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.0)
    }
}

/// What a system touches; see [`PhaseAccess`](crate::tick::access::PhaseAccess) for the
/// meaning of each list.
#[derive(Clone, Debug, Default)]
pub struct Access {
    pub reads: Cow<'static, [Resource]>,
    pub reads_previous: Cow<'static, [Resource]>,
    pub writes: Cow<'static, [Resource]>,
    pub produces: Cow<'static, [EventKind]>,
    pub consumes: Cow<'static, [EventKind]>,
    pub consumes_carried: Cow<'static, [EventKind]>,
}

/// One step of a phase. See the module documentation.
pub struct System {
    pub(crate) id: SystemId,
    pub(crate) phase: Phase,
    pub(crate) access: Access,
    pub(crate) after: Vec<SystemId>,
    pub(crate) before: Vec<SystemId>,
    pub(crate) run: Run,
    /// What it touched in the ticks run so far (debug builds).
    pub(crate) seen: Touched,
    /// The event kinds it added events of in the ticks run so far, as bits by `EventKind`
    /// (debug builds).
    pub(crate) seen_produced: u64,
}

const _: () = assert!(EventKind::ALL.len() <= 64, "seen_produced is one u64");

impl fmt::Debug for System {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("System")
            .field("id", &self.id)
            .field("phase", &self.phase)
            .field("after", &self.after)
            .field("before", &self.before)
            .finish()
    }
}

/// A phase's native systems, in registration order (each phase's file declares its own).
pub(crate) struct PhaseSystems {
    pub phase: Phase,
    /// Whether each system runs after the one before it (besides what it declares itself).
    pub chain: bool,
    pub systems: &'static [Decl],
}

/// A native system's declaration.
pub(crate) struct Decl {
    pub id: SystemId,
    pub reads: &'static [Resource],
    pub reads_previous: &'static [Resource],
    pub writes: &'static [Resource],
    pub produces: &'static [EventKind],
    pub consumes: &'static [EventKind],
    pub consumes_carried: &'static [EventKind],
    /// Systems of this phase or earlier ones it runs after.
    pub after: &'static [SystemId],
    pub run: Native,
}

impl Decl {
    /// A declaration touching nothing (fill in what the system does).
    pub const fn new(id: SystemId, run: Native) -> Decl {
        Decl {
            id,
            reads: &[],
            reads_previous: &[],
            writes: &[],
            produces: &[],
            consumes: &[],
            consumes_carried: &[],
            after: &[],
            run,
        }
    }

    pub(crate) fn system(&self, phase: Phase) -> System {
        System {
            id: self.id,
            phase,
            access: Access {
                reads: Cow::Borrowed(self.reads),
                reads_previous: Cow::Borrowed(self.reads_previous),
                writes: Cow::Borrowed(self.writes),
                produces: Cow::Borrowed(self.produces),
                consumes: Cow::Borrowed(self.consumes),
                consumes_carried: Cow::Borrowed(self.consumes_carried),
            },
            after: self.after.to_vec(),
            before: Vec::new(),
            run: Run::Native(self.run),
            seen: Touched::default(),
            seen_produced: 0,
        }
    }
}

impl System {
    /// A system of the embedding program, run in `phase` every tick; `name` is its handle
    /// ([`System::id`]) and names it in messages.
    pub fn new(
        name: &'static str,
        phase: Phase,
        run: impl FnMut(&mut TickState<'_>) -> Result<(), Fault> + 'static,
    ) -> System {
        System {
            id: SystemId(name),
            phase,
            access: Access::default(),
            after: Vec::new(),
            before: Vec::new(),
            run: Run::Custom(Box::new(run)),
            seen: Touched::default(),
            seen_produced: 0,
        }
    }

    /// State it reads as earlier systems of this tick left it.
    pub fn reads(mut self, resources: &[Resource]) -> System {
        self.access.reads.to_mut().extend_from_slice(resources);
        self
    }

    /// State it changes.
    pub fn writes(mut self, resources: &[Resource]) -> System {
        self.access.writes.to_mut().extend_from_slice(resources);
        self
    }

    /// Runs after the system `id` (of this phase, or of an earlier one).
    pub fn after(mut self, id: SystemId) -> System {
        self.after.push(id);
        self
    }

    /// Runs before the system `id` (of this phase, or of a later one).
    pub fn before(mut self, id: SystemId) -> System {
        self.before.push(id);
        self
    }

    /// `systems`, each ordered after the one before it.
    pub fn chain(systems: impl IntoIterator<Item = System>) -> Vec<System> {
        let mut out: Vec<System> = Vec::new();
        for s in systems {
            let s = match out.last() {
                Some(prev) => s.after(prev.id),
                None => s,
            };
            out.push(s);
        }
        out
    }

    /// Its handle.
    pub fn id(&self) -> SystemId {
        self.id
    }

    pub fn name(&self) -> &'static str {
        self.id.0
    }

    /// What it read and what it changed in the ticks run so far, as debug builds record it
    /// (see [`Schedule`](crate::tick::schedule::Schedule)); nothing in release builds.
    pub fn touched(&self) -> (Vec<Resource>, Vec<Resource>) {
        let named = |bits: u64| -> Vec<Resource> {
            Resource::ALL
                .into_iter()
                .filter(|r| bits & r.bit() != 0)
                .collect()
        };
        (named(self.seen.reads), named(self.seen.writes))
    }

    /// The event kinds it added events of in the ticks run so far, as debug builds record it;
    /// nothing in release builds.
    pub fn produced(&self) -> Vec<EventKind> {
        EventKind::ALL
            .iter()
            .copied()
            .filter(|&k| self.seen_produced & (1 << k as u8) != 0)
            .collect()
    }

    /// The systems it is declared to run after, and before.
    pub fn ordering(&self) -> (&[SystemId], &[SystemId]) {
        (&self.after, &self.before)
    }

    pub fn phase(&self) -> Phase {
        self.phase
    }

    pub fn access(&self) -> &Access {
        &self.access
    }

    pub(crate) fn run(&mut self, state: &mut TickState<'_>) -> Result<(), Fault> {
        match &mut self.run {
            Run::Native(f) => f(state),
            Run::Custom(f) => f(state),
        }
    }

    /// What of `touched` and `produced` its declaration leaves out, if anything: a resource
    /// written but not declared written, or read but declared neither read nor written, a
    /// component that is fixed at spawn changed, or events of a kind it does not declare
    /// producing added.
    pub(crate) fn undeclared(
        &self,
        touched: Touched,
        produced: impl Iterator<Item = EventKind>,
    ) -> Option<String> {
        let a = &self.access;
        let writes = Resource::bits(&a.writes);
        let reads = writes | Resource::bits(&a.reads) | Resource::bits(&a.reads_previous);
        let mut out: Vec<String> = Vec::new();
        let named = |bits: u64| {
            Resource::ALL
                .into_iter()
                .filter(move |r| bits & r.bit() != 0)
        };
        out.extend(named(touched.writes & !writes).map(|r| format!("writes {r:?}")));
        out.extend(named(touched.reads & !reads).map(|r| format!("reads {r:?}")));
        if let Some(component) = touched.fixed {
            out.push(format!("changes {component}, which is fixed at spawn"));
        }
        out.extend(
            produced
                .filter(|kind| !a.produces.contains(kind))
                .map(|kind| format!("produces {kind:?} events")),
        );
        (!out.is_empty()).then(|| {
            format!(
                "system `{}` {}, which it does not declare",
                self.name(),
                out.join(", ")
            )
        })
    }
}
