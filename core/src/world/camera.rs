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
