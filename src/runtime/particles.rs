//! Cosmetic particles for effect requests. Presentation-only state: it uses its own random
//! generator and the frame's presentation time (or, during a playback, the ticks: see
//! [`Particles::advance_to`]), so it can never influence the simulation.

use ludus_core::{Color, EffectDef, Vec2};

#[derive(Clone, Copy, Debug)]
pub struct Particle {
    pub pos: Vec2,
    pub vel: Vec2,
    pub color: Color,
    pub size: f32,
    pub age: f32,
    pub life: f32,
}

/// A bounded pool of particles; bursts beyond the bound drop their oldest particles.
#[derive(Clone, Debug)]
pub struct Particles {
    items: Vec<Particle>,
    capacity: usize,
    rng: fastrand::Rng,
    pub dropped: u64,
    /// The world tick the particles are aged to (see [`Particles::advance_to`]).
    at_tick: u64,
}

impl Default for Particles {
    fn default() -> Self {
        Particles {
            items: Vec::new(),
            capacity: 20_000,
            rng: fastrand::Rng::with_seed(0x5eed),
            dropped: 0,
            at_tick: 0,
        }
    }
}

impl Particles {
    pub fn len(&self) -> usize {
        self.items.len()
    }

    pub fn iter(&self) -> impl Iterator<Item = &Particle> {
        self.items.iter()
    }

    /// Drops every particle (a new level: its ticks count from 0 again).
    pub fn clear(&mut self) {
        self.items.clear();
        self.at_tick = 0;
    }

    /// Ages the particles to world tick `tick` by steps of one tick (`tick_s` seconds), as
    /// many as ticks passed since the last call: what a tick shows then depends on the ticks
    /// alone, never on how they were split into frames.
    pub fn advance_to(&mut self, tick: u64, tick_s: f32) {
        while self.at_tick < tick && !self.items.is_empty() {
            self.update(tick_s);
            self.at_tick += 1;
        }
        self.at_tick = self.at_tick.max(tick);
    }

    /// A burst for one effect request at its copied anchor position.
    pub fn burst(&mut self, effect: &EffectDef, pos: Vec2, color: Option<Color>, seq: u64) {
        self.rng
            .seed(seq.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ 0x5eed);
        let color = color.unwrap_or(effect.color);
        for _ in 0..effect.particles {
            if self.items.len() >= self.capacity {
                self.items.remove(0);
                self.dropped += 1;
            }
            let angle = self.rng.f32() * std::f32::consts::TAU;
            let speed = effect.speed * (0.4 + 0.6 * self.rng.f32());
            self.items.push(Particle {
                pos,
                vel: Vec2::from_angle(angle) * speed,
                color,
                size: effect.size * (0.6 + 0.8 * self.rng.f32()),
                age: 0.0,
                life: effect.duration * (0.7 + 0.6 * self.rng.f32()),
            });
        }
    }

    /// Advances by `dt` seconds of presentation time and drops finished particles.
    pub fn update(&mut self, dt: f32) {
        for p in &mut self.items {
            p.age += dt;
            p.pos += p.vel * dt;
            p.vel = p.vel * (1.0 - 2.0 * dt).max(0.0);
        }
        self.items.retain(|p| p.age < p.life);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn effect() -> EffectDef {
        EffectDef {
            name: "spark".into(),
            color: Color::WHITE,
            particles: 12,
            speed: 90.0,
            duration: 0.5,
            size: 3.0,
        }
    }

    /// The particles' positions and ages, exactly.
    fn state(p: &Particles) -> Vec<[u32; 3]> {
        p.iter()
            .map(|q| [q.pos.x.to_bits(), q.pos.y.to_bits(), q.age.to_bits()])
            .collect()
    }

    #[test]
    fn particles_aged_by_ticks_look_the_same_however_the_ticks_were_split_into_frames() {
        let tick_s = 1.0 / 60.0;
        // (ticks each frame reached, in order) after a burst at tick 3: the state at tick 20.
        let splits: [&[u64]; 4] = [
            &[20],
            &[4, 5, 9, 20],
            &[3, 3, 12, 19, 20],
            &[10, 10, 20, 20],
        ];
        let mut seen = Vec::new();
        for ticks in splits {
            let mut p = Particles::default();
            p.advance_to(3, tick_s);
            p.burst(&effect(), Vec2::new(5.0, 5.0), None, 7);
            for t in ticks {
                p.advance_to(*t, tick_s);
            }
            assert_eq!(
                p.len(),
                12,
                "{ticks:?}: all alive at 17 ticks of 0.35 s or more"
            );
            seen.push(state(&p));
        }
        assert!(seen.iter().all(|s| *s == seen[0]), "the same state");
        // Aged 17 ticks, as 17 steps of a tick.
        let mut q = Particles::default();
        q.burst(&effect(), Vec2::new(5.0, 5.0), None, 7);
        (0..17).for_each(|_| q.update(tick_s));
        assert_eq!(state(&q), seen[0]);
        // Once their life is over they are gone, however far the ticks jump.
        let mut p = Particles::default();
        p.burst(&effect(), Vec2::new(0.0, 0.0), None, 1);
        p.advance_to(1_000_000_000, tick_s);
        assert_eq!(p.len(), 0);
    }
}
