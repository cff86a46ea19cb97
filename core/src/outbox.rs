//! Presentation requests (effects, sounds) and the persistent outbox that delivers them.
//!
//! Guarantees:
//! - Gameplay stages requests per tick; they reach the outbox only when that tick's EndTick
//!   succeeds. A faulting tick's requests are discarded with the tick, so an abandoned tick can
//!   never have played a sound. Audio and rendering are never called from simulation phases.
//! - The outbox persists across every tick of a frame and across frames that draw nothing
//!   (skipped or minimised): nothing is lost while presentation is not looking.
//! - [`Outbox::drain`] hands each request out exactly once.
//! - Requests are cosmetic: beyond the capacity the newest are dropped and counted.
//! - Each request carries its world identity, originating tick, a per-world event sequence and
//!   copied anchor data, so presentation never looks up an entity that may be gone. Level
//!   activation clears records of the old world.

use crate::def::{EffectId, MusicId, SoundId};
use crate::ids::WorldId;
use crate::math::{Color, Vec2};
use std::collections::VecDeque;

#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Presentation {
    /// A particle burst at a world position.
    Effect {
        effect: EffectId,
        pos: Vec2,
        color: Option<Color>,
    },
    Sound {
        sound: SoundId,
        volume: f32,
        pitch: f32,
    },
    /// Loop this track from its start, in place of the one playing (`None`: silence).
    Music(Option<MusicId>),
}

#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PresentationRequest {
    pub world: WorldId,
    pub tick: u64,
    /// Per-world sequence, in staging order.
    pub seq: u64,
    pub what: Presentation,
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct OutboxStats {
    pub published: u64,
    pub delivered: u64,
    pub dropped: u64,
}

/// See the module documentation.
#[derive(Clone, Debug)]
pub struct Outbox {
    queue: VecDeque<PresentationRequest>,
    capacity: usize,
    stats: OutboxStats,
}

impl Outbox {
    pub fn new(capacity: u32) -> Self {
        Outbox {
            queue: VecDeque::with_capacity(capacity as usize),
            capacity: capacity as usize,
            stats: OutboxStats::default(),
        }
    }

    pub fn len(&self) -> usize {
        self.queue.len()
    }

    pub fn is_empty(&self) -> bool {
        self.queue.is_empty()
    }

    pub fn stats(&self) -> OutboxStats {
        self.stats
    }

    /// Moves a completed tick's staged requests in.
    pub fn publish(&mut self, staged: &mut Vec<PresentationRequest>) {
        for request in staged.drain(..) {
            if self.queue.len() < self.capacity {
                self.queue.push_back(request);
                self.stats.published += 1;
            } else {
                self.stats.dropped += 1;
            }
        }
    }

    /// Hands out every waiting request, oldest first, exactly once.
    pub fn drain(&mut self) -> impl Iterator<Item = PresentationRequest> + '_ {
        self.stats.delivered += self.queue.len() as u64;
        self.queue.drain(..)
    }

    /// Forgets requests of worlds other than `world` (level activation).
    pub fn retain_world(&mut self, world: WorldId) {
        self.queue.retain(|r| r.world == world);
    }
}
