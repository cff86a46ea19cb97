//! Systems: the steps of a phase, declared rather than implied.
//!
//! Every Rust step of a tick (integrate, bounds, collide, the gameplay stages...) is a
//! [`System`]: a handle ([`SystemId`]), the phase it belongs to, what it reads and writes, and
//! the systems it must run after or before, named by their handles. The order inside a phase
//! comes from those declarations by Kahn's algorithm, ties broken by registration order,
//! computed once when the [`Schedule`] is built; the order of the phases themselves is
//! [`Phase::ALL`].
//!
//! Building a schedule fails, naming the systems, on a cycle, on a handle that `after`/`before`
//! gives but no system of the schedule has, and on an ordering across phases. It warns (see
//! [`Schedule::warnings`]) when a system reads something an earlier system of the same phase
//! writes without being ordered after it: the order then holds only by registration order.
//! The checks cost nothing per tick.
//!
//! A program that embeds Ludus adds its own systems with [`System::new`] (see
//! `examples/embed`), ordered against the framework's by the handles in
//! [`systems`](crate::systems).

use crate::consequences::Consequences;
use crate::def::GameDef;
use crate::event::EventKind;
use crate::fault::Fault;
use crate::frame::input::TickInput;
use crate::jobs::Completions;
use crate::outbox::Outbox;
use crate::phase::Phase;
use crate::tick::access::{PhaseAccess, Resource};
use crate::tick::report::{TickOptions, TickReport};
use crate::tick::scratch::Scratch;
use crate::world::SimWorld;
use std::borrow::Cow;
use std::fmt;

/// What a system gets: the tick being run, the world, and what the phase needs.
pub struct TickState<'a> {
    pub(crate) world: &'a mut SimWorld,
    /// The tick's working buffers (see [`scratch`](crate::tick::scratch)).
    pub(crate) scratch: &'a mut Scratch,
    pub(crate) def: &'a GameDef,
    pub(crate) tick: u64,
    pub(crate) input: &'a TickInput,
    pub(crate) completions: &'a mut Completions,
    pub(crate) outbox: &'a mut Outbox,
    pub(crate) options: TickOptions,
    pub(crate) consequences: &'a mut dyn Consequences,
    pub(crate) report: TickReport,
    /// BeginTick, Intent and Motion hold only the native systems, so Motion's run as one pass
    /// that also copies previous positions (see `motion::fused`).
    pub(crate) fused_motion: bool,
}

impl TickState<'_> {
    /// The tick being run (the first tick of a level is 1).
    pub fn tick(&self) -> u64 {
        self.tick
    }

    /// Seconds one tick lasts.
    pub fn dt(&self) -> f32 {
        self.def.tick.tick_seconds()
    }

    pub fn def(&self) -> &GameDef {
        self.def
    }

    pub fn world(&self) -> &SimWorld {
        self.world
    }

    /// The tick's input.
    pub fn input(&self) -> &TickInput {
        self.input
    }

    /// Iterates and changes component values (never which entities exist: entities are created
    /// and destroyed by commands, at Commit).
    pub fn query_mut<Q: hecs::Query>(&mut self) -> hecs::QueryMut<'_, Q> {
        self.world.ecs.query_mut::<Q>()
    }
}

type Native = fn(&mut TickState<'_>) -> Result<(), Fault>;
type Custom = Box<dyn FnMut(&mut TickState<'_>) -> Result<(), Fault>>;

enum Run {
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
    id: SystemId,
    phase: Phase,
    access: Access,
    after: Vec<SystemId>,
    before: Vec<SystemId>,
    run: Run,
}

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

    fn system(&self, phase: Phase) -> System {
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

    fn run(&mut self, state: &mut TickState<'_>) -> Result<(), Fault> {
        match &mut self.run {
            Run::Native(f) => f(state),
            Run::Custom(f) => f(state),
        }
    }
}

/// Why a schedule cannot be built.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ScheduleError {
    /// Two systems share a name.
    Duplicate(String),
    /// `system` is ordered against `missing`, a system the schedule does not hold.
    Unknown { system: String, missing: String },
    /// `system` must run after `other`, which belongs to a later phase (or before one of an
    /// earlier phase).
    AcrossPhases { system: String, other: String },
    /// These systems' `after`/`before` declarations form a cycle.
    Cycle(Vec<String>),
}

impl fmt::Display for ScheduleError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ScheduleError::Duplicate(n) => write!(f, "two systems are called `{n}`"),
            ScheduleError::Unknown { system, missing } => write!(
                f,
                "system `{system}` is ordered against `{missing}`, which is not in the schedule \
                 (add it first)"
            ),
            ScheduleError::AcrossPhases { system, other } => write!(
                f,
                "system `{system}` is ordered against `{other}` of another phase the wrong way \
                 round (phases run in a fixed order)"
            ),
            ScheduleError::Cycle(names) => write!(
                f,
                "systems {} must each run after another: a cycle",
                names
                    .iter()
                    .map(|n| format!("`{n}`"))
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
        }
    }
}

impl std::error::Error for ScheduleError {}

/// An order that holds only by registration order: `reader` reads `resource`, which the
/// earlier `writer` of the same phase writes, and does not declare `after` it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ScheduleWarning {
    pub phase: Phase,
    pub reader: String,
    pub writer: String,
    pub resource: Resource,
}

impl fmt::Display for ScheduleWarning {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "in {}, system `{}` reads {:?}, which `{}` writes before it, without being ordered \
             after it",
            self.phase.name(),
            self.reader,
            self.resource,
            self.writer
        )
    }
}

/// The systems of every phase, in run order. See the module documentation.
pub struct Schedule {
    /// Registered systems, in registration order.
    systems: Vec<System>,
    /// Per phase (in [`Phase`] declaration order), indices into `systems` in run order.
    order: Vec<Vec<usize>>,
    warnings: Vec<ScheduleWarning>,
}

impl fmt::Debug for Schedule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Schedule")
            .field("systems", &self.systems)
            .field("order", &self.order)
            .finish()
    }
}

fn slot(phase: Phase) -> usize {
    Phase::ALL.iter().position(|p| *p == phase).unwrap_or(0)
}

impl Schedule {
    /// A schedule of native systems, phase by phase.
    pub(crate) fn of(phases: &[&PhaseSystems]) -> Result<Schedule, ScheduleError> {
        let mut systems = Vec::new();
        for p in phases {
            let mut before: Option<SystemId> = None;
            for d in p.systems {
                let mut s = d.system(p.phase);
                if let (true, Some(prev)) = (p.chain, before) {
                    s.after.insert(0, prev);
                }
                before = Some(s.id);
                systems.push(s);
            }
        }
        Schedule::build(systems)
    }

    /// Orders `systems` (see the module documentation).
    pub fn build(systems: Vec<System>) -> Result<Schedule, ScheduleError> {
        let (order, warnings) = order_of(&systems)?;
        Ok(Schedule {
            systems,
            order,
            warnings,
        })
    }

    /// Adds a system and orders the schedule again; on an error the schedule is unchanged.
    pub fn add(&mut self, system: System) -> Result<(), ScheduleError> {
        self.add_all([system])
    }

    /// Adds systems (which may name each other, as a [`System::chain`] does) and orders the
    /// schedule again; on an error the schedule is unchanged.
    pub fn add_all(
        &mut self,
        systems: impl IntoIterator<Item = System>,
    ) -> Result<(), ScheduleError> {
        let before = self.systems.len();
        self.systems.extend(systems);
        match order_of(&self.systems) {
            Ok((order, warnings)) => {
                self.order = order;
                self.warnings = warnings;
                Ok(())
            }
            Err(e) => {
                self.systems.truncate(before);
                Err(e)
            }
        }
    }

    /// Whether `phase` runs only native systems.
    pub(crate) fn native_only(&self, phase: Phase) -> bool {
        self.order[slot(phase)]
            .iter()
            .all(|&i| matches!(self.systems[i].run, Run::Native(_)))
    }

    /// `phase`'s systems, in run order.
    pub fn order(&self, phase: Phase) -> Vec<&System> {
        self.order[slot(phase)]
            .iter()
            .map(|&i| &self.systems[i])
            .collect()
    }

    /// The handles of `phase`'s systems, in run order.
    pub fn order_ids(&self, phase: Phase) -> Vec<SystemId> {
        self.order(phase).iter().map(|s| s.id).collect()
    }

    /// Orders that hold only by registration order (see [`ScheduleWarning`]).
    pub fn warnings(&self) -> &[ScheduleWarning] {
        &self.warnings
    }

    /// What each phase touches: the union of its systems' declarations, in [`Phase::ALL`]
    /// order (see [`check_order`](crate::tick::access::check_order)).
    pub fn access(&self) -> Vec<PhaseAccess> {
        fn add<T: Copy + PartialEq>(to: &mut Vec<T>, from: &[T]) {
            for x in from {
                if !to.contains(x) {
                    to.push(*x);
                }
            }
        }
        Phase::ALL
            .iter()
            .enumerate()
            .map(|(p, &phase)| {
                let mut a = PhaseAccess {
                    phase,
                    reads: Vec::new(),
                    reads_previous: Vec::new(),
                    writes: Vec::new(),
                    produces: Vec::new(),
                    consumes: Vec::new(),
                    consumes_carried: Vec::new(),
                };
                for &i in &self.order[p] {
                    let s = &self.systems[i].access;
                    add(&mut a.reads, &s.reads);
                    add(&mut a.reads_previous, &s.reads_previous);
                    add(&mut a.writes, &s.writes);
                    add(&mut a.produces, &s.produces);
                    add(&mut a.consumes, &s.consumes);
                    add(&mut a.consumes_carried, &s.consumes_carried);
                }
                a
            })
            .collect()
    }

    /// Every system, in registration order.
    pub fn systems(&self) -> &[System] {
        &self.systems
    }

    /// Runs `phase`'s systems in order; the first fault stops the phase.
    pub(crate) fn run(&mut self, phase: Phase, state: &mut TickState<'_>) -> Result<(), Fault> {
        for &i in &self.order[slot(phase)] {
            self.systems[i].run(state)?;
        }
        Ok(())
    }
}

type Order = (Vec<Vec<usize>>, Vec<ScheduleWarning>);

/// The run order of each phase, and the orders that hold only by registration.
fn order_of(systems: &[System]) -> Result<Order, ScheduleError> {
    let index = |id: SystemId| systems.iter().position(|s| s.id == id);
    for (i, s) in systems.iter().enumerate() {
        if systems[..i].iter().any(|o| o.id == s.id) {
            return Err(ScheduleError::Duplicate(s.name().to_string()));
        }
    }
    // Edges `from -> to` (from runs first) inside a phase; across phases they must agree with
    // the phase order.
    let mut edges: Vec<(usize, usize)> = Vec::new();
    for (i, s) in systems.iter().enumerate() {
        let named = s
            .after
            .iter()
            .map(|n| (n, true))
            .chain(s.before.iter().map(|n| (n, false)));
        for (&id, after) in named {
            let Some(j) = index(id) else {
                return Err(ScheduleError::Unknown {
                    system: s.name().to_string(),
                    missing: id.name().to_string(),
                });
            };
            let (first, then) = if after { (j, i) } else { (i, j) };
            let (pf, pt) = (slot(systems[first].phase), slot(systems[then].phase));
            if pf > pt {
                return Err(ScheduleError::AcrossPhases {
                    system: s.name().to_string(),
                    other: id.name().to_string(),
                });
            }
            if pf == pt {
                edges.push((first, then));
            }
        }
    }
    let mut order = vec![Vec::new(); Phase::ALL.len()];
    for (p, phase) in Phase::ALL.iter().enumerate() {
        let members: Vec<usize> = (0..systems.len())
            .filter(|&i| systems[i].phase == *phase)
            .collect();
        order[p] = kahn(&members, &edges).map_err(|cycle| {
            ScheduleError::Cycle(
                cycle
                    .iter()
                    .map(|&i| systems[i].name().to_string())
                    .collect(),
            )
        })?;
    }
    let warnings = implicit_orders(systems, &order, &edges);
    Ok((order, warnings))
}

/// Kahn's algorithm over `members` (registration order breaks ties); `Err` holds the systems
/// left in a cycle.
fn kahn(members: &[usize], edges: &[(usize, usize)]) -> Result<Vec<usize>, Vec<usize>> {
    let mut indegree: Vec<usize> = members
        .iter()
        .map(|&m| edges.iter().filter(|&&(_, t)| t == m).count())
        .collect();
    let mut done = vec![false; members.len()];
    let mut out = Vec::with_capacity(members.len());
    while out.len() < members.len() {
        let Some(k) = (0..members.len()).find(|&k| !done[k] && indegree[k] == 0) else {
            let left = (0..members.len()).filter(|&k| !done[k]).map(|k| members[k]);
            return Err(left.collect());
        };
        done[k] = true;
        out.push(members[k]);
        for &(f, t) in edges {
            if f == members[k]
                && let Some(tk) = members.iter().position(|&m| m == t)
            {
                indegree[tk] -= 1;
            }
        }
    }
    Ok(out)
}

/// Whether `to` is reachable from `from` through declared edges.
fn reaches(from: usize, to: usize, edges: &[(usize, usize)]) -> bool {
    let mut seen = vec![from];
    let mut stack = vec![from];
    while let Some(n) = stack.pop() {
        if n == to {
            return true;
        }
        for &(f, t) in edges {
            if f == n && !seen.contains(&t) {
                seen.push(t);
                stack.push(t);
            }
        }
    }
    false
}

fn implicit_orders(
    systems: &[System],
    order: &[Vec<usize>],
    edges: &[(usize, usize)],
) -> Vec<ScheduleWarning> {
    let mut out = Vec::new();
    for (p, phase_order) in order.iter().enumerate() {
        for (a, &w) in phase_order.iter().enumerate() {
            for &r in &phase_order[a + 1..] {
                let reader = &systems[r].access;
                let read = reader.reads.iter().chain(reader.reads_previous.iter());
                for &resource in read {
                    if systems[w].access.writes.contains(&resource) && !reaches(w, r, edges) {
                        out.push(ScheduleWarning {
                            phase: Phase::ALL[p],
                            reader: systems[r].name().to_string(),
                            writer: systems[w].name().to_string(),
                            resource,
                        });
                    }
                }
            }
        }
    }
    out
}
