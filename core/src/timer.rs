//! A bounded, typed queue of timers that have no owning component (waves, delayed effects,
//! timers addressed to another entity).
//!
//! Guarantees:
//! - Deadlines are u64 tick numbers. Scheduling during tick `t` with delay `d` makes the timer due
//!   at `t + max(d, 1)`: a zero delay is deferred to the next tick, so the due set of a tick never
//!   grows while it is delivered. Deadline arithmetic is checked; overflow faults.
//! - At BeginTick the due set is snapshotted in (due tick, insertion sequence) order.
//! - A recurring timer's next deadline is its previous due tick plus its period (> 0), never the
//!   delivery tick plus the period, so it does not drift.
//! - Ids are generation-checked: cancelling a finished or unknown timer does nothing (and is
//!   counted); cancelling a snapshotted timer before it is delivered suppresses it.
//! - A timer's target entity is checked again at delivery; a dead target suppresses the timer
//!   and ends a recurring one.
//! - The queue holds at most `[limits] timers` timers; scheduling beyond that faults.
//! - Pause does not advance ticks, so paused deadlines do not move; world replacement clears
//!   the queue (a new world has a new queue).

use crate::fault::{Fault, FaultKind};
use crate::limits::{Limit, push_within};
use serde::{Deserialize, Serialize};
use std::sync::Arc;

/// A generation-checked timer handle.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct TimerId {
    pub index: u32,
    pub generation: u32,
}

impl TimerId {
    /// One integer for scripts: generation in the high half, index in the low half.
    pub fn to_bits(self) -> u64 {
        (u64::from(self.generation) << 32) | u64::from(self.index)
    }

    pub fn from_bits(bits: u64) -> Self {
        TimerId {
            index: bits as u32,
            generation: (bits >> 32) as u32,
        }
    }
}

/// What to schedule.
#[derive(Clone, Debug, PartialEq)]
pub struct TimerSpec {
    pub name: Arc<str>,
    /// Ticks from now; 0 is deferred to 1.
    pub delay: u64,
    /// Repeat every `period` ticks (> 0) after the first firing.
    pub period: Option<u64>,
    /// Creation sequence of the entity the timer is about.
    pub target: Option<u64>,
    pub data: f64,
}

/// A pending timer as [`TimerQueue::pending`] lists it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PendingTimer<'a> {
    pub due: u64,
    /// Insertion sequence.
    pub seq: u64,
    pub period: Option<u64>,
    pub name: &'a str,
    pub target: Option<u64>,
    pub data: f64,
}

/// A record handed out by [`TimerQueue::snapshot_due`].
#[derive(Clone, Debug, PartialEq)]
pub struct DueTimer {
    pub id: TimerId,
    pub due: u64,
    pub name: Arc<str>,
    pub target: Option<u64>,
    pub data: f64,
}

#[derive(Clone, Debug)]
struct Record {
    due: u64,
    seq: u64,
    period: Option<u64>,
    target: Option<u64>,
    name: Arc<str>,
    data: f64,
    /// A one-shot timer that was snapshotted and awaits delivery.
    snapshotted: bool,
}

#[derive(Clone, Debug, Default)]
struct Slot {
    generation: u32,
    record: Option<Record>,
}

/// Counters for diagnostics.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct TimerStats {
    pub scheduled: u64,
    pub fired: u64,
    pub cancelled: u64,
    /// Cancels of ids that were no longer live.
    pub stale_cancels: u64,
    /// Deliveries suppressed because the target entity was gone.
    pub stale_targets: u64,
    /// Zero delays deferred to the next tick.
    pub deferred: u64,
}

/// See the module documentation.
#[derive(Clone, Debug)]
pub struct TimerQueue {
    slots: Vec<Slot>,
    free: Vec<u32>,
    len: usize,
    capacity: u32,
    next_seq: u64,
    stats: TimerStats,
}

impl TimerQueue {
    pub fn new(capacity: u32) -> Self {
        TimerQueue {
            slots: Vec::new(),
            free: Vec::new(),
            len: 0,
            capacity,
            next_seq: 0,
            stats: TimerStats::default(),
        }
    }

    pub fn len(&self) -> usize {
        self.len
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    pub fn capacity(&self) -> u32 {
        self.capacity
    }

    /// Room reserved for timer slots (never more than the capacity).
    pub(crate) fn reserved(&self) -> usize {
        self.slots.capacity().max(self.free.capacity())
    }

    pub fn stats(&self) -> TimerStats {
        self.stats
    }

    /// Schedules a timer during tick `now`.
    pub fn schedule(&mut self, now: u64, spec: TimerSpec) -> Result<TimerId, Fault> {
        if spec.period == Some(0) {
            return Err(Fault::new(
                FaultKind::Script,
                "a timer period must be at least 1 tick",
            ));
        }
        if self.len >= self.capacity as usize {
            return Err(Limit::Timers.exceeded(self.capacity, "pending timers"));
        }
        if spec.delay == 0 {
            self.stats.deferred += 1;
        }
        let due = now.checked_add(spec.delay.max(1)).ok_or_else(|| {
            Fault::new(
                FaultKind::Exhausted,
                format!("timer `{}` deadline overflows the tick counter", spec.name),
            )
        })?;
        let record = Record {
            due,
            seq: self.next_seq,
            period: spec.period,
            target: spec.target,
            name: spec.name,
            data: spec.data,
            snapshotted: false,
        };
        self.next_seq += 1;
        let index = match self.free.pop() {
            Some(i) => i,
            None => {
                // No free slot: every slot is pending, fewer than the capacity.
                if !push_within(&mut self.slots, Slot::default(), self.capacity as usize) {
                    return Err(Limit::Timers.exceeded(self.capacity, "pending timers"));
                }
                (self.slots.len() - 1) as u32
            }
        };
        let slot = &mut self.slots[index as usize];
        slot.record = Some(record);
        self.len += 1;
        self.stats.scheduled += 1;
        Ok(TimerId {
            index,
            generation: slot.generation,
        })
    }

    /// Whether `id` names a timer that is still pending (or snapshotted and undelivered).
    pub fn is_live(&self, id: TimerId) -> bool {
        self.slots
            .get(id.index as usize)
            .is_some_and(|s| s.generation == id.generation && s.record.is_some())
    }

    fn release(&mut self, index: u32) {
        let slot = &mut self.slots[index as usize];
        if slot.record.take().is_some() {
            slot.generation = slot.generation.wrapping_add(1);
            // Free slots are fewer than the slots, themselves at most the capacity.
            let freed = push_within(&mut self.free, index, self.capacity as usize);
            debug_assert!(freed);
            self.len -= 1;
        }
    }

    /// Cancels a timer; returns whether it was live. Stale ids are counted and ignored.
    pub fn cancel(&mut self, id: TimerId) -> bool {
        if self.is_live(id) {
            self.release(id.index);
            self.stats.cancelled += 1;
            true
        } else {
            self.stats.stale_cancels += 1;
            false
        }
    }

    /// Collects timers due at or before `tick` in (due, sequence) order. Recurring timers are
    /// re-armed at `due + period`; one-shots stay live until [`finish`](Self::finish).
    pub fn snapshot_due(&mut self, tick: u64, out: &mut Vec<DueTimer>) -> Result<(), Fault> {
        let mut due: Vec<(u64, u64, u32)> = self
            .slots
            .iter()
            .enumerate()
            .filter_map(|(i, s)| {
                s.record
                    .as_ref()
                    .filter(|r| !r.snapshotted && r.due <= tick)
                    .map(|r| (r.due, r.seq, i as u32))
            })
            .collect();
        due.sort_unstable();
        for (_, _, index) in due {
            let slot = &mut self.slots[index as usize];
            let id = TimerId {
                index,
                generation: slot.generation,
            };
            let record = slot.record.as_mut().expect("collected above");
            let timer = DueTimer {
                id,
                due: record.due,
                name: record.name.clone(),
                target: record.target,
                data: record.data,
            };
            // Each pending timer at most once: within the capacity.
            let pushed = push_within(out, timer, self.capacity as usize);
            debug_assert!(pushed);
            match record.period {
                Some(period) => {
                    record.due = record.due.checked_add(period).ok_or_else(|| {
                        Fault::new(
                            FaultKind::Exhausted,
                            format!(
                                "timer `{}` deadline overflows the tick counter",
                                record.name
                            ),
                        )
                    })?;
                }
                None => record.snapshotted = true,
            }
        }
        Ok(())
    }

    /// Marks a snapshotted timer as delivered (one-shots are released).
    pub fn finish(&mut self, id: TimerId) {
        if self.is_live(id) {
            let snapshotted = self.slots[id.index as usize]
                .record
                .as_ref()
                .is_some_and(|r| r.snapshotted);
            self.stats.fired += 1;
            if snapshotted {
                self.release(id.index);
            }
        }
    }

    /// A delivery was suppressed because its target is gone: the timer ends.
    pub fn target_gone(&mut self, id: TimerId) {
        if self.is_live(id) {
            self.release(id.index);
            self.stats.stale_targets += 1;
        }
    }

    /// The pending timers' slots in (due, sequence) order, into `out` (emptied first), each
    /// with its due tick and sequence: [`pending`](Self::pending) in a list the caller keeps
    /// (the state hash reads them every tick). Read each with [`pending_at`](Self::pending_at).
    pub(crate) fn pending_slots(&self, out: &mut Vec<(u64, u64, usize)>) {
        out.clear();
        let slots = self.slots.iter().enumerate();
        out.extend(slots.filter_map(|(i, s)| s.record.as_ref().map(|r| (r.due, r.seq, i))));
        // Sequences are unique: the order is the (due, sequence) order.
        out.sort_unstable();
    }

    /// The pending timer in slot `i` (of [`pending_slots`](Self::pending_slots)), if one is.
    pub(crate) fn pending_at(&self, i: usize) -> Option<PendingTimer<'_>> {
        let r = self.slots.get(i)?.record.as_ref()?;
        Some(PendingTimer {
            due: r.due,
            seq: r.seq,
            period: r.period,
            name: &r.name,
            target: r.target,
            data: r.data,
        })
    }

    /// Pending timers in (due, sequence) order, for hashing and inspection.
    pub fn pending(&self) -> Vec<PendingTimer<'_>> {
        let mut slots = Vec::new();
        self.pending_slots(&mut slots);
        slots
            .iter()
            .filter_map(|&(_, _, i)| self.pending_at(i))
            .collect()
    }
}
