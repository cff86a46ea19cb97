//! How an entity's look differs from its archetype's: the component `set_look` and the spawn
//! option `scale` give it, and the change a command carries.

use crate::math::{Color, Vec2};
use serde::{Deserialize, Serialize};

/// How an entity is drawn apart from its archetype's sprite and label: only on entities
/// whose look a script (`set_look`) or a spawn option (`scale`) changed, so only those add
/// to the state hash.
///
/// Each part is `None` until set, and then replaces the archetype's until set again: `color`
/// the sprite's and the label's colour, `alpha` the sprite's opacity (and the label's, 1
/// until set), `flip_x`, `flip_y` and `layer` the sprite's. `scale` multiplies the drawn size
/// about the entity's position (the sprite's width and height, the label's offset by each
/// factor and its height by the second); `visible = false` draws neither. Looks are drawn
/// only: the collider keeps the shape it was spawned with. A command's `Look` holds the parts
/// it changes ([`Look::merge`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Look {
    pub scale: Option<Vec2>,
    pub color: Option<Color>,
    pub alpha: Option<f32>,
    pub visible: Option<bool>,
    pub flip_x: Option<bool>,
    pub flip_y: Option<bool>,
    pub layer: Option<i16>,
}

impl Look {
    /// The largest factor of a scale (the smallest is above 0).
    pub const SCALE_MAX: f32 = 10_000.0;

    /// A look that changes only the scale (a spawn's `scale`).
    pub fn scaled(scale: Vec2) -> Look {
        Look {
            scale: Some(scale),
            ..Look::default()
        }
    }

    /// Sets the parts `change` sets; the others keep their values.
    pub fn merge(&mut self, change: &Look) {
        let Look {
            scale,
            color,
            alpha,
            visible,
            flip_x,
            flip_y,
            layer,
        } = *change;
        self.scale = scale.or(self.scale);
        self.color = color.or(self.color);
        self.alpha = alpha.or(self.alpha);
        self.visible = visible.or(self.visible);
        self.flip_x = flip_x.or(self.flip_x);
        self.flip_y = flip_y.or(self.flip_y);
        self.layer = layer.or(self.layer);
    }

    /// Whether the values are in range: a scale above 0 and at most [`Look::SCALE_MAX`] on
    /// each axis, an alpha from 0 to 1; else what is wrong.
    pub fn check(&self) -> Result<(), String> {
        if let Some(s) = self.scale {
            Look::check_scale(s)?;
        }
        match self.alpha {
            Some(a) if !(0.0..=1.0).contains(&a) => {
                Err(format!("an alpha must be from 0 to 1, got {a}"))
            }
            _ => Ok(()),
        }
    }

    /// Whether `s` is a scale in range (see [`Look::check`]).
    pub fn check_scale(s: Vec2) -> Result<(), String> {
        let fits = |v: f32| v > 0.0 && v <= Look::SCALE_MAX;
        if fits(s.x) && fits(s.y) {
            Ok(())
        } else {
            Err(format!(
                "a scale must be above 0 and at most {}, got ({}, {})",
                Look::SCALE_MAX,
                s.x,
                s.y
            ))
        }
    }

    /// Whether the entity is drawn.
    #[inline]
    pub fn visible(&self) -> bool {
        self.visible != Some(false)
    }
}
