//! Presentation extraction: the latest completed world as plain draw data.
//!
//! A [`RenderFrame`] owns reusable arrays (camera, draws) with capacity reserved up front; it
//! never holds a component reference or a callback into gameplay. Draws are sorted by an
//! explicit `(layer, depth, creation sequence)` key. Positions interpolate previous→current by
//! the frame's alpha, or are exactly current when paused. Draws beyond the capacity are counted
//! in `overflow`, never silently lost.

use crate::def::{GameDef, SpriteShape};
use crate::math::{Color, Rect, Vec2, wrap_angle};
use crate::world::components::{CameraTarget, Identity, Position, PrevPosition, Rotation, Sprite};
use crate::world::{SimWorld, WorldId};

/// How to place entities between their previous and current transforms.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Interpolation {
    /// `prev + (cur - prev) * alpha`, alpha in `[0, 1)`.
    Alpha(f32),
    /// Current transforms exactly (paused, faulted, or a stepped world).
    Exact,
}

#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Camera {
    /// World position at the centre of the view.
    pub center: Vec2,
    /// World units visible.
    pub view: Vec2,
}

impl Camera {
    /// The visible world rectangle.
    pub fn rect(&self) -> Rect {
        Rect::new(self.center - self.view * 0.5, self.center + self.view * 0.5)
    }
}

#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Draw {
    pub pos: Vec2,
    /// Rotation in radians about the centre (0 for entities that do not rotate).
    pub angle: f32,
    pub size: Vec2,
    pub color: Color,
    pub shape: SpriteShape,
    pub layer: i16,
    pub depth: f32,
    pub seq: u64,
}

/// See the module documentation.
#[derive(Clone, Debug)]
pub struct RenderFrame {
    pub world: WorldId,
    pub tick: u64,
    pub camera: Camera,
    pub background: Color,
    pub draws: Vec<Draw>,
    /// Draws that did not fit this frame.
    pub overflow: u64,
    capacity: usize,
}

impl RenderFrame {
    pub fn with_capacity(capacity: usize) -> Self {
        RenderFrame {
            world: WorldId(0),
            tick: 0,
            camera: Camera::default(),
            background: Color::BLACK,
            draws: Vec::with_capacity(capacity),
            overflow: 0,
            capacity,
        }
    }

    pub fn capacity(&self) -> usize {
        self.capacity
    }

    /// Refills the frame from `world`.
    pub fn extract(&mut self, world: &SimWorld, def: &GameDef, interpolation: Interpolation) {
        let place = |cur: &Position, prev: &PrevPosition| match interpolation {
            Interpolation::Exact => cur.0,
            Interpolation::Alpha(a) => prev.0.lerp(cur.0, a),
        };
        self.world = world.id();
        self.tick = world.tick();
        self.draws.clear();
        self.overflow = 0;
        let level = world.level_def(def);
        self.background = level.map_or(Color::BLACK, |l| l.background);
        let turn = |r: &Rotation| match interpolation {
            Interpolation::Exact => r.angle,
            // Along the shorter arc, so a wrap from pi to -pi does not spin the sprite round.
            Interpolation::Alpha(a) => r.prev + wrap_angle(r.angle - r.prev) * a,
        };
        for (id, t, prev, s, r) in world
            .ecs()
            .query::<(
                &Identity,
                &Position,
                &PrevPosition,
                &Sprite,
                Option<&Rotation>,
            )>()
            .iter()
        {
            if self.draws.len() >= self.capacity {
                self.overflow += 1;
                continue;
            }
            let s = &s.0;
            self.draws.push(Draw {
                pos: place(t, prev),
                angle: r.map_or(0.0, turn),
                size: s.size,
                color: s.color,
                shape: s.shape,
                layer: s.layer,
                depth: s.depth,
                seq: id.seq,
            });
        }
        self.draws.sort_unstable_by(|a, b| {
            a.layer
                .cmp(&b.layer)
                .then(a.depth.total_cmp(&b.depth))
                .then(a.seq.cmp(&b.seq))
        });

        let camera_def = level.map(|l| l.camera).unwrap_or_default();
        let followed = world
            .ecs()
            .query::<(&Identity, &Position, &PrevPosition, &CameraTarget)>()
            .iter()
            .min_by_key(|(id, ..)| id.seq)
            .map(|(_, t, prev, _)| place(t, prev));
        let mut center =
            followed.unwrap_or_else(|| level.map_or(Vec2::ZERO, |l| l.bounds.center()));
        if let Some(b) = camera_def.bounds {
            let half = camera_def.view * 0.5;
            let lo = b.min + half;
            let hi = b.max - half;
            center.x = if lo.x <= hi.x {
                center.x.clamp(lo.x, hi.x)
            } else {
                b.center().x
            };
            center.y = if lo.y <= hi.y {
                center.y.clamp(lo.y, hi.y)
            } else {
                b.center().y
            };
        }
        self.camera = Camera {
            center,
            view: camera_def.view,
        };
    }
}
