//! Where the pointer is in the world, which entity is under it, and where an entity is drawn:
//! the window shows the camera's whole view letterboxed in its pixels, centred (as the
//! renderer draws it), so a pixel and a world point convert both ways through the camera.

use ludus_core::{
    Camera, Collider, Game, Identity, Position, RenderFrame, Shape, SharedCollider, Vec2,
};

/// Pixels per world unit of `camera` in a `w` x `h` view.
fn scale(camera: &Camera, w: f32, h: f32) -> f32 {
    (w / camera.view.x.max(1e-3)).min(h / camera.view.y.max(1e-3))
}

/// The world point under pixel (`x`, `y`) of a `w` x `h` view.
pub fn world_at(camera: &Camera, (x, y): (f32, f32), (w, h): (f32, f32)) -> Vec2 {
    let s = scale(camera, w, h);
    Vec2::new(
        camera.center.x + (x - w * 0.5) / s,
        camera.center.y + (y - h * 0.5) / s,
    )
}

/// The pixel of a `w` x `h` view where world point `p` is drawn, and pixels per world unit.
pub fn screen_at(camera: &Camera, p: Vec2, (w, h): (f32, f32)) -> (f32, f32, f32) {
    let s = scale(camera, w, h);
    (
        (p.x - camera.center.x) * s + w * 0.5,
        (p.y - camera.center.y) * s + h * 0.5,
        s,
    )
}

/// Where an entity is, in world units: its centre and half its size (the sprite as drawn,
/// else its collider, else a point).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Extent {
    pub center: Vec2,
    pub half: Vec2,
}

impl Extent {
    /// Whether `p` is inside it.
    fn holds(&self, p: Vec2) -> bool {
        (p.x - self.center.x).abs() <= self.half.x && (p.y - self.center.y).abs() <= self.half.y
    }

    /// Entity `seq` as `frame` draws it (the frame shown: interpolated, as the eye sees it),
    /// else as its collider and position in `game`'s world.
    pub fn of(seq: u64, frame: &RenderFrame, game: &Game) -> Option<Extent> {
        if seq == 0 {
            return None;
        }
        if let Some(d) = frame.draws.iter().find(|d| d.seq == seq) {
            return Some(drawn(d.pos, d.size, d.angle));
        }
        let world = game.world();
        let e = world.entity(seq)?;
        let pos = world.ecs().get::<&Position>(e).ok()?.0;
        let half = game
            .collider(seq)
            .map_or(Vec2::ZERO, |c| half_of(c.shape()));
        Some(Extent { center: pos, half })
    }
}

/// The box around a sprite of `size` turned by `angle`.
fn drawn(pos: Vec2, size: Vec2, angle: f32) -> Extent {
    let (s, c) = (angle.sin().abs(), angle.cos().abs());
    let half = Vec2::new(
        (size.x * c + size.y * s) * 0.5,
        (size.x * s + size.y * c) * 0.5,
    );
    Extent { center: pos, half }
}

fn half_of(shape: Shape) -> Vec2 {
    match shape {
        Shape::Circle { radius } => Vec2::new(radius, radius),
        Shape::Box { half } => half,
    }
}

/// The entity at world point `p`: the topmost drawn there in `frame` (the frame shown) that
/// is still in `game`'s world, else the smallest collider there (an entity drawn with
/// nothing, a trigger). Tiles are not entities.
pub fn pick(frame: &RenderFrame, game: &Game, p: Vec2) -> Option<u64> {
    let world = game.world();
    let drawn = frame
        .draws
        .iter()
        .rev()
        .filter(|d| d.seq != 0 && drawn(d.pos, d.size, d.angle).holds(p))
        .find(|d| world.entity(d.seq).is_some());
    if let Some(d) = drawn {
        return Some(d.seq);
    }
    let mut best: Option<(f32, u64)> = None;
    let mut q = world.ecs().query::<(
        &Identity,
        &Position,
        Option<&Collider>,
        Option<&SharedCollider>,
    )>();
    for (id, pos, own, shared) in q.iter() {
        let Some(c) = Collider::either(own, shared, game.def(), id.archetype) else {
            continue;
        };
        let extent = Extent {
            center: pos.0,
            half: half_of(c.shape()),
        };
        let area = extent.half.x * extent.half.y;
        if extent.holds(p) && best.is_none_or(|(a, s)| (area, id.seq()) < (a, s)) {
            best = Some((area, id.seq()));
        }
    }
    best.map(|(_, seq)| seq)
}
