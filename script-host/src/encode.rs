//! Events to the packed little-endian records the prelude decodes with `string.unpack`.
//!
//! One byte string per stage crosses into Lua, so the cost of the boundary does not grow with
//! the number of events. Layouts must match the formats in `prelude.lua`.

use ludus_core::{
    ActionEvent, ContactEvent, DamageEvent, Events, ExpireEvent, ExpireReason, Party, SpawnEvent,
    TimerEvent, TriggerOn,
};

/// Number of event kinds the prelude knows, in its `KIND_ORDER`.
pub(crate) const KINDS: usize = 11;

#[derive(Default)]
pub(crate) struct Encoder {
    pub blob: Vec<u8>,
    pub counts: [usize; KINDS],
}

impl Encoder {
    fn j(&mut self, v: i64) {
        self.blob.extend_from_slice(&v.to_le_bytes());
    }
    fn u(&mut self, v: u64) {
        self.j(v as i64);
    }
    fn f(&mut self, v: f32) {
        self.blob.extend_from_slice(&v.to_le_bytes());
    }
    fn k(&mut self, v: u16) {
        self.blob.extend_from_slice(&v.to_le_bytes());
    }
    fn b(&mut self, v: u8) {
        self.blob.push(v);
    }

    fn party(&mut self, p: &Party) {
        self.u(p.seq);
        self.k(p.archetype.0);
        self.u(p.tags);
        self.f(p.pos.x);
        self.f(p.pos.y);
    }

    fn spawned(&mut self, e: &SpawnEvent) {
        self.u(e.tick);
        self.party(&e.entity);
    }

    fn action(&mut self, e: &ActionEvent) {
        self.u(e.tick);
        self.b(e.action.0 + 1);
        self.b(match e.on {
            TriggerOn::Press => 1,
            TriggerOn::Hold => 2,
            TriggerOn::Release => 3,
        });
        self.party(&e.entity);
        self.f(e.facing.x);
        self.f(e.facing.y);
        self.f(e.aim.x);
        self.f(e.aim.y);
    }

    fn contact(&mut self, e: &ContactEvent) {
        self.u(e.tick);
        self.u(e.a.seq);
        self.u(e.b.seq);
        self.k(e.a.archetype.0);
        self.k(e.b.archetype.0);
        self.u(e.a.tags);
        self.u(e.b.tags);
        self.f(e.a.pos.x);
        self.f(e.a.pos.y);
        self.f(e.b.pos.x);
        self.f(e.b.pos.y);
    }

    fn expired(&mut self, e: &ExpireEvent) {
        self.u(e.tick);
        self.party(&e.entity);
        self.b(match e.reason {
            ExpireReason::Lifetime => 1,
            ExpireReason::Bounds => 2,
        });
    }

    fn timer(&mut self, e: &TimerEvent) {
        self.u(e.tick);
        self.u(e.id.to_bits());
        self.u(e.due);
        self.blob.extend_from_slice(&e.data.to_le_bytes());
        match &e.target {
            Some(p) => {
                self.b(1);
                self.u(p.seq);
                self.k(p.archetype.0);
                self.u(p.tags);
                self.f(p.pos.x);
                self.f(p.pos.y);
            }
            None => {
                self.b(0);
                self.u(0);
                self.k(0);
                self.u(0);
                self.f(0.0);
                self.f(0.0);
            }
        }
        let name = e.name.as_bytes();
        let len = name.len().min(u16::MAX as usize);
        self.blob.extend_from_slice(&(len as u16).to_le_bytes());
        self.blob.extend_from_slice(&name[..len]);
    }

    fn damage(&mut self, e: &DamageEvent) {
        self.u(e.tick);
        self.party(&e.target);
        self.blob.extend_from_slice(&e.amount.to_le_bytes());
        self.blob.extend_from_slice(&e.health.to_le_bytes());
        self.blob.extend_from_slice(&e.max.to_le_bytes());
        self.u(e.source.unwrap_or(0));
    }

    /// Encodes stage 1's events, skipping kinds nobody handles.
    pub fn stage1(&mut self, ev: &Events, wanted: &[bool; KINDS]) {
        self.blob.clear();
        self.counts = [0; KINDS];
        macro_rules! kind {
            ($i:expr, $list:expr, $f:ident) => {
                if wanted[$i] {
                    for e in $list.iter() {
                        self.$f(e);
                    }
                    self.counts[$i] = $list.len();
                }
            };
        }
        kind!(0, ev.spawned, spawned);
        kind!(1, ev.actions, action);
        kind!(2, ev.collision_enter, contact);
        kind!(3, ev.collision_stay, contact);
        kind!(4, ev.collision_exit, contact);
        kind!(5, ev.trigger_enter, contact);
        kind!(6, ev.trigger_stay, contact);
        kind!(7, ev.trigger_exit, contact);
        kind!(8, ev.expired, expired);
        kind!(9, ev.timers, timer);
    }

    /// Encodes stage 2's events.
    pub fn stage2(&mut self, ev: &Events, wanted: &[bool; KINDS]) {
        self.blob.clear();
        self.counts = [0; KINDS];
        if wanted[10] {
            for e in &ev.damage {
                self.damage(e);
            }
            self.counts[10] = ev.damage.len();
        }
    }
}

/// Handler names in the prelude's order.
pub(crate) const HANDLERS: [&str; KINDS] = [
    "on_spawn",
    "on_action",
    "on_collision_enter",
    "on_collision_stay",
    "on_collision_exit",
    "on_trigger_enter",
    "on_trigger_stay",
    "on_trigger_exit",
    "on_expire",
    "on_timer",
    "on_damage",
];
