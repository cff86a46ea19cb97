//! Presentation extraction: the latest completed world as plain draw data.
//!
//! A [`RenderFrame`] owns reusable arrays (camera, draws) with capacity reserved up front; it
//! never holds a component reference or a callback into gameplay. Draws are sorted by an
//! explicit `(layer, depth, creation sequence)` key. Positions interpolate previous→current by
//! the frame's alpha, or are exactly current when paused. Draws beyond the capacity are counted
//! in `overflow`, never silently lost.

mod draw;
mod hud;
mod sprites;

pub use draw::{Camera, Draw, Interpolation, TextDraw};
pub use hud::{HUD_BUILTINS, HudShown, hud_names, hud_shown, substitute};

use crate::def::{GameDef, LevelDef, SpriteShape, TileMapDef};
use crate::ids::WorldId;
use crate::math::{Color, Rect, Vec2};
use crate::world::SimWorld;
use crate::world::components::{CameraTarget, Identity, Label, Look, Position, PrevPosition};
use crate::world::tiles::Tiles;

/// See the module documentation.
#[derive(Clone, Debug)]
pub struct RenderFrame {
    pub world: WorldId,
    pub tick: u64,
    pub camera: Camera,
    pub background: Color,
    pub draws: Vec<Draw>,
    /// Labels, in creation order (they share `capacity` with `draws`).
    pub texts: Vec<TextDraw>,
    /// Draws that did not fit this frame.
    pub overflow: u64,
    capacity: usize,
    /// Where the camera looked last frame in a level with a dead zone, and in which world.
    focus: Option<(WorldId, Vec2)>,
}

impl RenderFrame {
    pub fn with_capacity(capacity: usize) -> Self {
        RenderFrame {
            world: WorldId(0),
            tick: 0,
            camera: Camera::default(),
            background: Color::BLACK,
            draws: Vec::with_capacity(capacity),
            texts: Vec::new(),
            overflow: 0,
            capacity,
            focus: None,
        }
    }

    pub fn capacity(&self) -> usize {
        self.capacity
    }

    /// Refills the frame from `world`.
    pub fn extract(&mut self, world: &SimWorld, def: &GameDef, interpolation: Interpolation) {
        self.world = world.id();
        self.tick = world.tick();
        self.draws.clear();
        self.texts.clear();
        self.overflow = 0;
        let level = world.level_def(def);
        self.background = level.map_or(Color::BLACK, |l| l.background);
        // Animations advance with ticks; between ticks by the same alpha as positions.
        let now = world.tick() as f64
            + match interpolation {
                Interpolation::Exact => 0.0,
                Interpolation::Alpha(a) => f64::from(a) - 1.0,
            };
        let placing = sprites::Placing {
            interpolation,
            now,
            tick_seconds: 1.0 / f64::from(def.tick.rate_hz.max(1)),
            def,
        };
        let left_out = sprites::extract(world.ecs(), placing, &mut self.draws, self.capacity);
        self.overflow += left_out as u64;
        self.labels(world, interpolation);
        self.camera = self.look(world, level, interpolation);
        if let Some(map) = level.and_then(|l| l.tilemap.as_ref()) {
            self.tiles(map, world.tiles());
        }
        self.draws.sort_unstable_by(|a, b| {
            a.layer
                .cmp(&b.layer)
                .then(a.depth.total_cmp(&b.depth))
                .then(a.seq.cmp(&b.seq))
        });
    }

    /// The labels' texts, in creation order, within the frame's capacity.
    fn labels(&mut self, world: &SimWorld, interpolation: Interpolation) {
        for (id, t, prev, l, look) in world
            .ecs()
            .query::<(&Identity, &Position, &PrevPosition, &Label, Option<&Look>)>()
            .iter()
        {
            if l.text.is_empty() || look.is_some_and(|k| !k.visible()) {
                continue;
            }
            if self.draws.len() + self.texts.len() >= self.capacity {
                self.overflow += 1;
                continue;
            }
            let (offset, size, color) = match look {
                None => (l.offset, l.size, l.color),
                Some(k) => {
                    let scale = k.scale.unwrap_or(Vec2::new(1.0, 1.0));
                    let offset = Vec2::new(l.offset.x * scale.x, l.offset.y * scale.y);
                    let color = k.color.unwrap_or(l.color).faded(k.alpha.unwrap_or(1.0));
                    (offset, l.size * scale.y, color)
                }
            };
            self.texts.push(TextDraw {
                pos: place(interpolation, t, prev) + offset,
                text: l.text.clone(),
                size,
                color,
                font: l.font,
                seq: id.seq(),
            });
        }
        self.texts.sort_unstable_by_key(|t| t.seq);
    }

    /// The camera of `level` (none: the default camera at the origin): following its first
    /// target (within its dead zone, from where it looked last frame), kept inside its bounds,
    /// zoomed and shaken as the world says.
    fn look(
        &mut self,
        world: &SimWorld,
        level: Option<&LevelDef>,
        interpolation: Interpolation,
    ) -> Camera {
        let camera_def = level.map(|l| l.camera).unwrap_or_default();
        let followed = world
            .ecs()
            .query::<(&Identity, &Position, &PrevPosition, &CameraTarget)>()
            .iter()
            .min_by_key(|(id, ..)| id.seq())
            .map(|(_, t, prev, _)| place(interpolation, t, prev));
        let fallback = level.map_or(Vec2::ZERO, |l| l.bounds.center());
        let focus = match self.focus {
            Some((w, f)) if w == self.world => Some(f),
            _ => None,
        };
        let state = *world.camera;
        let (mut center, view, kept) =
            crate::world::camera::look(&camera_def, fallback, followed, focus, state.zoom);
        if let Some(f) = kept {
            self.focus = Some((self.world, f));
        }
        center += state.shake_offset(world.tick());
        Camera { center, view }
    }

    /// The tiles of `map` the camera sees (a margin of one tile for shakes and rounding), as
    /// `tiles` has them now, as draws in row order; tiles sort before the entities of their
    /// layer (sequence 0).
    fn tiles(&mut self, map: &TileMapDef, tiles: &Tiles) {
        let view = self.camera.rect();
        let margin = map.tile;
        let seen = Rect::new(view.min - margin, view.max + margin);
        let (columns, rows) = map.covering(seen);
        for row in rows {
            for column in columns.clone() {
                let cell = row as usize * map.columns as usize + column as usize;
                let Some(frame) = tiles.frame(map, cell).checked_sub(1) else {
                    continue;
                };
                if self.draws.len() >= self.capacity {
                    self.overflow += 1;
                    continue;
                }
                self.draws.push(Draw {
                    pos: map.center(column, row),
                    angle: 0.0,
                    size: map.tile,
                    color: Color::WHITE,
                    shape: SpriteShape::Image(map.image),
                    frame,
                    flip_x: false,
                    flip_y: false,
                    layer: map.layer,
                    depth: 0.0,
                    seq: 0,
                });
            }
        }
    }
}

/// Where an entity is drawn: its position, or between its previous and current ones.
fn place(interpolation: Interpolation, cur: &Position, prev: &PrevPosition) -> Vec2 {
    match interpolation {
        Interpolation::Exact => cur.0,
        Interpolation::Alpha(a) => prev.0.lerp(cur.0, a),
    }
}
