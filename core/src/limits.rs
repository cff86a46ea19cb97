//! Capacities: every bounded queue, pool and table of a game, the `[limits]` key of game.toml
//! that sets each, and the one way tick code fills a bounded queue.
//!
//! Every bound is enforced while filling, never after: a queue is checked before each push and
//! grows by at most doubling without ever reserving past its bound, so content or scripts that
//! ask for too much meet a fault at the first item over the bound, with memory for no more than
//! the bound allocated.
//!
//! | what fills during a tick | bound | over the bound |
//! | --- | --- | --- |
//! | overlapping pairs found by the broadphase | `contacts` | fault |
//! | candidates the broadphase examines | 256 per `contacts`, plus 64 per collider | fault |
//! | events of one kind (contacts, actions, expirations, timers, damage) | `events` | fault |
//! | commands of one gameplay stage | `commands` | fault |
//! | spawns recorded for Commit | `entities` (and `commands` for spawners) | fault |
//! | destroys recorded for Commit | live entities (each once) | - |
//! | teleports recorded for Commit | `commands` per stage, two stages | - |
//! | spawn outcomes (next tick's spawn events) | the spawns of one Commit | - |
//! | pending timers (and the timers due in a tick) | `timers` | fault |
//! | staged effects and sounds | `outbox` | dropped, counted |
//! | the contact cache, push corrections | the pairs of the tick | - |
//! | game variables | `variables` distinct names | fault naming the variable |
//! | script state of one entity | `state_keys` distinct keys | fault naming the key |
//! | saved data | `save_bytes` bytes | fault naming the key |

use crate::fault::{Fault, FaultKind};
use serde::{Deserialize, Serialize};
use std::fmt;

/// Capacities of every bounded queue, pool and table. Each field is set by the `[limits]` key
/// [`Limit::key`] names.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Limits {
    /// Live entities (`[limits] entities`). A commit that would exceed it faults, and so does a
    /// tick that records more spawns than it.
    pub max_entities: u32,
    /// Events of one kind in one tick (`[limits] events`). Overflow faults (events are
    /// required).
    pub events_per_tick: u32,
    /// Commands one gameplay stage may send (`[limits] commands`). Overflow faults.
    pub commands_per_tick: u32,
    /// Presentation requests waiting for delivery (`[limits] outbox`). Overflow drops the
    /// newest and counts it.
    pub outbox: u32,
    /// Pending timers (`[limits] timers`). Overflow faults.
    pub timers: u32,
    /// Draws in one render frame (`[limits] draws`). Overflow is reported.
    pub draws: u32,
    /// Background requests admitted at once (`[limits] jobs`).
    pub jobs: u32,
    /// Overlapping collider pairs the broadphase may find in one tick (`[limits] contacts`),
    /// whether they are reported, pushed apart or both. The first pair over it faults at once,
    /// before anything is allocated for the rest. It also sets the broadphase's work budget: 256
    /// candidates per allowed pair plus 64 per collider, past which the tick faults too.
    pub contacts_per_tick: u32,
    /// Distinct game variable names (`[limits] variables`). A command that would add one more
    /// faults, naming the variable.
    pub variables: u32,
    /// Distinct script-state keys of one entity (`[limits] state_keys`). A command that would
    /// add one more faults, naming the key. The world holds at most `entities * state_keys`.
    pub state_keys: u32,
    /// Bytes of saved data (`[limits] save_bytes`), as [`SaveStore::bytes`] counts them. A
    /// save that would take the store past it faults, naming the key.
    ///
    /// [`SaveStore::bytes`]: crate::saved::SaveStore::bytes
    pub save_bytes: u32,
}

impl Default for Limits {
    fn default() -> Self {
        Limits::DEFAULT
    }
}

impl Limits {
    /// The capacities of a game that sets none (the `[limits]` defaults).
    pub const DEFAULT: Limits = Limits {
        max_entities: 300_000,
        events_per_tick: 65_536,
        commands_per_tick: 65_536,
        outbox: 1_024,
        timers: 4_096,
        draws: 300_000,
        jobs: 16,
        contacts_per_tick: 262_144,
        variables: 1_024,
        state_keys: 64,
        save_bytes: 65_536,
    };
}

/// One capacity of [`Limits`]: the `[limits]` key a game author edits to change it. Messages
/// name limits through this (its `Display` is `[limits] KEY`), and the content loader reads
/// exactly the keys of [`Limit::ALL`], so the two cannot drift apart.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Limit {
    Entities,
    Events,
    Commands,
    Outbox,
    Timers,
    Draws,
    Jobs,
    Contacts,
    Variables,
    StateKeys,
    SaveBytes,
}

impl Limit {
    /// Every limit, in the order game.toml's reference lists them.
    pub const ALL: [Limit; 11] = [
        Limit::Entities,
        Limit::Events,
        Limit::Commands,
        Limit::Outbox,
        Limit::Timers,
        Limit::Draws,
        Limit::Jobs,
        Limit::Contacts,
        Limit::Variables,
        Limit::StateKeys,
        Limit::SaveBytes,
    ];

    /// The key in game.toml's `[limits]` table.
    pub fn key(self) -> &'static str {
        match self {
            Limit::Entities => "entities",
            Limit::Events => "events",
            Limit::Commands => "commands",
            Limit::Outbox => "outbox",
            Limit::Timers => "timers",
            Limit::Draws => "draws",
            Limit::Jobs => "jobs",
            Limit::Contacts => "contacts",
            Limit::Variables => "variables",
            Limit::StateKeys => "state_keys",
            Limit::SaveBytes => "save_bytes",
        }
    }

    /// The field of `limits` this key sets.
    pub fn slot(self, limits: &mut Limits) -> &mut u32 {
        match self {
            Limit::Entities => &mut limits.max_entities,
            Limit::Events => &mut limits.events_per_tick,
            Limit::Commands => &mut limits.commands_per_tick,
            Limit::Outbox => &mut limits.outbox,
            Limit::Timers => &mut limits.timers,
            Limit::Draws => &mut limits.draws,
            Limit::Jobs => &mut limits.jobs,
            Limit::Contacts => &mut limits.contacts_per_tick,
            Limit::Variables => &mut limits.variables,
            Limit::StateKeys => &mut limits.state_keys,
            Limit::SaveBytes => &mut limits.save_bytes,
        }
    }

    /// The value of this limit in `limits`.
    pub fn of(self, limits: &Limits) -> u32 {
        let mut copy = *limits;
        *self.slot(&mut copy)
    }

    /// A capacity fault: "more than `bound` `what` (raise `[limits]` KEY)".
    pub(crate) fn exceeded(self, bound: impl Into<u64>, what: impl fmt::Display) -> Fault {
        let bound = bound.into();
        Fault::new(
            FaultKind::Capacity,
            format!("more than {bound} {what} (raise {self})"),
        )
    }
}

impl fmt::Display for Limit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "[limits] {}", self.key())
    }
}

/// Pushes `item` onto a queue that may hold at most `bound` items; returns `false`, leaving the
/// queue as it was, when it is full. Growth is [`room`]'s (an eighth), and never reserves room
/// past the bound.
#[must_use]
#[inline]
pub(crate) fn push_within<T>(queue: &mut Vec<T>, item: T, bound: usize) -> bool {
    let len = queue.len();
    if len >= bound {
        return false;
    }
    if len == queue.capacity() {
        queue.reserve_exact(grown(len, 1).min(bound - len));
    }
    queue.push(item);
    true
}

/// Room in `v` for `more` items past its length. Where it must grow, it grows by an eighth of
/// what it holds (at least `more`, and 4 items) rather than doubling: the tick's buffers are
/// kept from tick to tick, filled anew each time, so each holds at most about an eighth more
/// than the most a tick has put in it (doubling, up to twice: a million drones' contacts held
/// two megabytes of room they never used). A buffer growing from empty within one tick copies
/// about eight times what it ends with, once.
#[inline]
pub(crate) fn room<T>(v: &mut Vec<T>, more: usize) {
    if v.capacity() - v.len() < more {
        v.reserve_exact(grown(v.len(), more));
    }
}

/// [`room`] in a buffer that may hold at most `bound` items (`v.len() + more <= bound`): its
/// growth never reserves room past the bound.
#[inline]
pub(crate) fn room_within<T>(v: &mut Vec<T>, more: usize, bound: usize) {
    debug_assert!(v.len() + more <= bound);
    if v.capacity() - v.len() < more {
        v.reserve_exact(grown(v.len(), more).min(bound - v.len()).max(more));
    }
}

/// Pushes `item` onto `v`, growing it as [`room`] does.
#[inline]
pub(crate) fn push_snug<T>(v: &mut Vec<T>, item: T) {
    room(v, 1);
    v.push(item);
}

/// Grows `v` to `n` entries of `fill` (where it is shorter), its room as [`room`] grows it: a
/// per-collider buffer follows the number of colliders.
#[inline]
pub(crate) fn resize_snug<T: Clone>(v: &mut Vec<T>, n: usize, fill: T) {
    room(v, n.saturating_sub(v.len()));
    v.resize(n, fill);
}

/// How much a buffer of `len` items that needs `more` grows by (see [`room`]).
#[inline]
fn grown(len: usize, more: usize) -> usize {
    (len / 8).max(more).max(4)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_are_distinct_and_name_their_fields() {
        let mut keys: Vec<&str> = Limit::ALL.iter().map(|l| l.key()).collect();
        keys.sort_unstable();
        keys.dedup();
        assert_eq!(keys.len(), Limit::ALL.len());
        for (i, limit) in Limit::ALL.into_iter().enumerate() {
            let mut limits = Limits::default();
            *limit.slot(&mut limits) = 1_000_000 + i as u32;
            assert_eq!(limit.of(&limits), 1_000_000 + i as u32);
            let mut others = Limit::ALL.iter().filter(|l| **l != limit);
            assert!(others.all(|l| l.of(&limits) == l.of(&Limits::default())));
        }
        assert_eq!(Limit::StateKeys.to_string(), "[limits] state_keys");
    }

    #[test]
    fn push_within_never_reserves_past_the_bound() {
        for bound in [0usize, 1, 3, 4, 5, 17, 100, 1000, 65_537] {
            let mut v: Vec<u32> = Vec::new();
            let mut pushed = 0;
            while push_within(&mut v, 7, bound) {
                pushed += 1;
                assert!(v.capacity() <= bound, "{bound}");
            }
            assert_eq!((pushed, v.len()), (bound, bound));
            assert!(v.capacity() <= bound, "{bound}: {}", v.capacity());
        }
    }

    #[test]
    fn buffers_grow_by_an_eighth_not_a_doubling() {
        // Pushed one at a time, by `room` for a run, or up to a bound: never more than an
        // eighth (and 4 items) past what they hold, where doubling held up to twice.
        for n in [1usize, 4, 5, 17, 100, 1000, 17_152, 65_537] {
            let snug = |len: usize| len + len / 8 + 4;
            let mut one = Vec::new();
            let mut runs = Vec::new();
            let mut bounded = Vec::new();
            let mut resized = Vec::new();
            for i in 0..n {
                resize_snug(&mut resized, i + 1, 7u8);
                assert!(
                    resized.capacity() <= snug(resized.len()),
                    "{n}: {}",
                    resized.capacity()
                );
                push_snug(&mut one, i);
                assert!(one.capacity() <= snug(one.len()), "{n}: {}", one.capacity());
                assert!(push_within(&mut bounded, i, usize::MAX));
                assert!(bounded.capacity() <= snug(bounded.len()));
            }
            for run in [n / 3, n / 3, n - 2 * (n / 3)] {
                room(&mut runs, run);
                assert!(runs.capacity() - runs.len() >= run);
                runs.extend(0..run);
                assert!(
                    runs.capacity() <= snug(runs.len()),
                    "{n}: {}",
                    runs.capacity()
                );
            }
            assert_eq!((one.len(), runs.len(), bounded.len()), (n, n, n));
            // Within a bound of exactly what they hold: no room past it.
            let mut within: Vec<usize> = Vec::new();
            for run in [n / 3, n / 3, n - 2 * (n / 3)] {
                room_within(&mut within, run, n);
                within.extend(0..run);
                assert!(within.capacity() <= n, "{n}: {}", within.capacity());
            }
            assert_eq!(resized, vec![7u8; n]);
        }
    }
}
