//! The schedule: the systems of every phase in run order.
//!
//! The order inside a phase comes from the systems' declarations by Kahn's algorithm, ties
//! broken by registration order, computed once when the [`Schedule`] is built; the order of
//! the phases themselves is [`Phase::ALL`].
//!
//! Building a schedule fails, naming the systems, on a cycle, on a handle that `after`/`before`
//! gives but no system of the schedule has, and on an ordering across phases. It warns (see
//! [`Schedule::warnings`]) when a system reads something an earlier system of the same phase
//! writes without being ordered after it: the order then holds only by registration order.
//! The checks cost nothing per tick. Running a phase, debug builds check each system touched
//! only what it declares (see [`resource`](crate::resource)).

use crate::event::EventKind;
use crate::fault::{Fault, FaultKind};
use crate::phase::Phase;
use crate::resource::Resource;
use crate::tick::access::PhaseAccess;
use crate::tick::system::{PhaseSystems, Run, System, SystemId, TickState};
use std::fmt;

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

    /// Runs `phase`'s systems in order; the first fault stops the phase. In debug builds, a
    /// system that touched what it does not declare (see [`resource`]) faults.
    ///
    /// [`resource`]: crate::resource
    #[inline]
    pub(crate) fn run(&mut self, phase: Phase, state: &mut TickState<'_>) -> Result<(), Fault> {
        for &i in &self.order[slot(phase)] {
            let system = &mut self.systems[i];
            crate::resource::take();
            let before = cfg!(debug_assertions).then(|| state.scratch.events.kind_lens());
            let start = state.profiler.as_ref().map(|p| p.now());
            system.run(state)?;
            if let Some(start) = start {
                measured(state, system.name(), phase, start);
            }
            if let Some(before) = before {
                let touched = crate::resource::take();
                system.seen.reads |= touched.reads;
                system.seen.writes |= touched.writes;
                let after = state.scratch.events.kind_lens();
                let produced: Vec<EventKind> = EventKind::ALL
                    .iter()
                    .zip(before.iter().zip(&after))
                    .filter(|(_, (b, a))| a > b)
                    .map(|(&kind, _)| kind)
                    .collect();
                for &kind in &produced {
                    system.seen_produced |= 1 << kind as u8;
                }
                if let Some(message) = system.undeclared(touched, produced.into_iter()) {
                    return Err(Fault::new(FaultKind::Invariant, message));
                }
            }
        }
        Ok(())
    }
}

/// Records a system's span, and the handler spans the consequences measured inside it.
fn measured(state: &mut TickState<'_>, name: &'static str, phase: Phase, start: u64) {
    if let Some(p) = &mut state.profiler {
        let mut handlers = Vec::new();
        state.consequences.take_spans(&mut handlers);
        for mut s in handlers {
            s.phase = Some(phase);
            p.keep(s);
        }
        let system = crate::profile::SpanKind::System;
        p.push(
            system,
            crate::profile::SpanName::Static(name),
            Some(phase),
            start,
        );
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
