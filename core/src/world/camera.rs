//! What scripts set of the camera: zoom and shake. World state, so a replay or a restart of a
//! recording shows the same view; presentation reads it (see [`crate::RenderFrame`]).

use crate::math::Vec2;

/// Zoom and shake set by `camera_zoom` and `camera_shake` commands.
///
/// Invariant: `zoom` is finite and within [`CameraState::ZOOM`]; a shake's strength is finite
/// and not negative (commands are checked before they apply).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CameraState {
    /// 1 shows the level's `view`; 2 shows half as much, twice as large.
    pub zoom: f32,
    pub shake: Option<Shake>,
}

/// A shake: the view jumps by up to `strength` world units each tick, fading to nothing over
/// `ticks` ticks from `start`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Shake {
    pub strength: f32,
    pub start: u64,
    pub ticks: u32,
}

impl Default for CameraState {
    fn default() -> Self {
        CameraState {
            zoom: 1.0,
            shake: None,
        }
    }
}

impl CameraState {
    /// The zoom factors a command may set.
    pub const ZOOM: (f32, f32) = (0.01, 100.0);

    /// The shake's offset at `tick`: a direction drawn from the tick (the same in every run),
    /// scaled by the strength fading linearly to zero.
    pub fn shake_offset(&self, tick: u64) -> Vec2 {
        let Some(s) = self.shake else {
            return Vec2::ZERO;
        };
        let age = tick.saturating_sub(s.start);
        if age >= u64::from(s.ticks) {
            return Vec2::ZERO;
        }
        let fade = 1.0 - age as f32 / s.ticks.max(1) as f32;
        let h = xxhash_rust::xxh3::xxh3_64(&tick.to_le_bytes());
        let unit = |bits: u64| (bits & 0xffff) as f32 / 32767.5 - 1.0;
        Vec2::new(unit(h), unit(h >> 16)) * (s.strength * fade)
    }
}

/// Where a level's camera looks, without its shake: the centre and the world units in view,
/// and the dead zone's focus to keep for the next look. Shared by what is drawn (an
/// interpolated target, the focus of the last frame) and the simulation's own view (the
/// target as the tick left it, the focus of the last tick; see `tick::motion::offscreen`).
///
/// The view follows `target` (within the dead zone, from `focus`), else looks at `fallback`
/// (the centre of the level's bounds); it is `camera.view` divided by both zooms, and kept
/// inside the camera's bounds (centred on them where it is larger).
pub(crate) fn look(
    camera: &crate::def::CameraDef,
    fallback: Vec2,
    target: Option<Vec2>,
    focus: Option<Vec2>,
    zoom: f32,
) -> (Vec2, Vec2, Option<Vec2>) {
    let mut kept = None;
    let mut center = match (target, camera.dead_zone) {
        (Some(target), Some(zone)) => {
            // The view moves only as far as keeps the target inside the dead zone.
            let half = zone * 0.5;
            let focus = focus.unwrap_or(target);
            let f = Vec2::new(
                focus.x.clamp(target.x - half.x, target.x + half.x),
                focus.y.clamp(target.y - half.y, target.y + half.y),
            );
            kept = Some(f);
            f
        }
        (Some(target), None) => target,
        (None, _) => fallback,
    };
    let view = camera.view * (1.0 / (camera.zoom * zoom).max(1e-6));
    if let Some(b) = camera.bounds {
        let half = view * 0.5;
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
    (center, view, kept)
}
