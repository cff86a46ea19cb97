//! What a tick's commands will add to the world's bounded tables, counted as they are sent.
//!
//! Commands are applied after their stage (structural ones at Commit), so a limit checked only
//! there would fault with no script line to show. [`Gameplay::send`](super::Gameplay::send)
//! checks each bound the moment a command would cross it, against what the world holds plus
//! what this tick's commands sent so far will add, and refuses that command: the fault names
//! the script's file and line. Each check gives the same answer the application gives later
//! (the application checks again, as a backstop), so a game that stays within its limits
//! behaves exactly as before.
//!
//! | bound | counted here |
//! | --- | --- |
//! | `[limits] entities`: spawns in one tick | this tick's spawns so far |
//! | `[limits] events`: `on_spawn` events one tick's spawns make | the same |
//! | `[limits] variables` | names this stage adds (earlier stages are applied) |
//! | `[limits] state_keys` per entity | its keys, plus the keys this tick adds, less a clear |
//! | `[scripts] memory`: script state of all entities, in bytes | [`STATE_ENTRY_BYTES`] plus the key's length per entry |
//! | `[limits] save_bytes`: saved data, in bytes | what this stage's saves add and remove |
//!
//! Attachments are checked the same way: one that would make a cycle, counting those this
//! tick's commands made so far, is refused when it is sent.
//!
//! The live-entity bound is checked at Commit, once every destroy is known; a spawn sent while
//! the world could then be over it asks the host for its location ([`Sent::wants_location`]),
//! which Commit's fault shows.

//!
//! [`STATE_ENTRY_BYTES`]: crate::world::components::STATE_ENTRY_BYTES

use crate::ids::SeqSet;
use std::collections::{BTreeMap, BTreeSet};

/// Keys commands add to one entity's script state: for a live entity, this stage's (the
/// stages before are applied); for one spawned this tick, the tick's (applied at Commit).
///
/// Invariant: `added` holds only keys the entity's state does not hold (or held before a clear
/// sent since), so the entity will hold `added.len()` keys more than it does, or exactly
/// `added.len()` once cleared.
#[derive(Debug, Default)]
pub(crate) struct KeysSent {
    /// A clear was sent: the entity's keys from before do not count.
    pub cleared: bool,
    /// Keys sent since (or this stage, or tick), each once.
    pub added: BTreeSet<String>,
}

/// See the module documentation. Lives in the tick's scratch.
#[derive(Debug, Default)]
pub(crate) struct Sent {
    /// Game variable names the current stage adds (earlier stages' are in the world).
    pub vars: BTreeSet<String>,
    /// Per live entity, the state keys this stage adds.
    pub keys: BTreeMap<u64, KeysSent>,
    /// Per entity spawned this tick, the state keys this tick adds.
    pub spawn_keys: BTreeMap<u64, KeysSent>,
    /// Bytes of script state the current stage adds to live entities (applied after it).
    pub stage_bytes: usize,
    /// Bytes of script state this tick adds to entities spawned this tick (applied at Commit).
    pub deferred_bytes: usize,
    /// A spawn just sent may leave the world over `[limits] entities` at Commit: the host
    /// gives its location ([`Gameplay::locate`](super::Gameplay::locate)).
    pub wants_location: bool,
    /// Where the first such spawn of the tick was sent from.
    pub spawn_over: Option<String>,
    /// Per key saved this stage, what its entry will cost (0: deleted).
    pub saves: BTreeMap<String, usize>,
    /// Bytes this stage's saves add to the saved data, and remove (entries replaced or
    /// deleted): the store will take its bytes plus the one less the other.
    pub save_added: usize,
    pub save_removed: usize,
    /// Per entity this tick's commands attach (or detach: `None`), its parent after them.
    pub attach: BTreeMap<u64, Option<u64>>,
    /// Entities that may have attachments hanging from them once this tick's commands are
    /// applied (a superset: the world's parents, gathered the first time a tick asks, when
    /// `parents_gathered`, and the parents of this tick's attachments). Attaching an entity
    /// outside it makes no cycle, so a chain built link by link is checked without a walk.
    pub parents: SeqSet,
    pub parents_gathered: bool,
}

impl Sent {
    /// Forgets the tick.
    pub fn clear(&mut self) {
        forget_set(&mut self.vars);
        forget(&mut self.keys);
        forget(&mut self.spawn_keys);
        self.stage_bytes = 0;
        self.deferred_bytes = 0;
        self.wants_location = false;
        self.spawn_over = None;
        forget(&mut self.attach);
        if self.parents_gathered {
            self.parents.clear();
            self.parents_gathered = false;
        }
        self.next_saves();
    }

    /// A new stage: its variables, live entities' keys and bytes start afresh (the last
    /// stage's are applied).
    pub fn next_stage(&mut self) {
        forget_set(&mut self.vars);
        forget(&mut self.keys);
        self.stage_bytes = 0;
        self.wants_location = false;
        self.next_saves();
    }

    /// Saves are applied after their stage.
    fn next_saves(&mut self) {
        forget(&mut self.saves);
        self.save_added = 0;
        self.save_removed = 0;
    }
}

// Most stages send none of these: `clear` on an empty B-tree still runs the drop of its
// consuming iterator, out-of-line code that every stage of every tick would fetch.

/// Empties `m` where it holds something.
fn forget<K, V>(m: &mut BTreeMap<K, V>) {
    if !m.is_empty() {
        m.clear();
    }
}

/// Empties `s` where it holds something.
fn forget_set<T>(s: &mut BTreeSet<T>) {
    if !s.is_empty() {
        s.clear();
    }
}
