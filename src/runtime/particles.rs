//! Cosmetic particles for effect requests. Presentation-only state: it uses its own random
//! generator and the frame's presentation time, so it can never influence the simulation.

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
}

impl Default for Particles {
    fn default() -> Self {
        Particles {
            items: Vec::new(),
            capacity: 20_000,
            rng: fastrand::Rng::with_seed(0x5eed),
            dropped: 0,
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

    pub fn clear(&mut self) {
        self.items.clear();
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
