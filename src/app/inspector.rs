//! The entity inspector (F6) over the game: a frame around the entity followed, where it is
//! drawn, and the inspector's two panels (the entity's at the top, the game's at the bottom of
//! the other side), each line wrapped and shrunk to the panel's width, the panels cut above
//! the help line. The entity's panel is at the left unless the entity is drawn in the
//! window's left half. The UI draws all rectangles before all text, so the caller hides the
//! HUD's text and pictures under the panels ([`Shown::covers`]).

use crate::app::fit::Fitted;
use crate::app::hud::Placed;
use crate::app::text::{Atlas, BODY, Face};
use crate::runtime::Runner;
use crate::runtime::inspect::screen_at;
use ludus_core::Color;

/// The colour of the panels' titles and of the frame around the entity.
const MARK: Color = Color::rgb(255, 214, 102);
const TEXT: Color = Color::rgb(230, 230, 240);

/// What the inspector draws this frame, in screen pixels.
pub struct Shown {
    /// The panels' rectangles (x, y, width, height): what the HUD draws under them is hidden.
    pub covers: Vec<(f32, f32, f32, f32)>,
    /// The frame around the entity, the panels and their lines, in drawing order.
    pub placed: Vec<Placed>,
}

/// The inspector in a `window` (width, height, pixel ratio) whose help line starts at
/// `floor`, where it is shown.
pub fn inspector(
    runner: &Runner,
    atlas: &Atlas,
    window: (f32, f32, f32),
    floor: f32,
) -> Option<Shown> {
    let (entity, world) = runner.inspector_lines()?;
    let (w, _, dpi) = window;
    let body = atlas.body();
    let pad = 10.0 * dpi;
    let width = (48.0 * body.glyph('M').advance).min(w * 0.45);
    let room = (floor - pad).max(body.line_height);
    let fits = |lines: &[String]| -> Vec<Fitted> {
        lines
            .iter()
            .map(|l| Fitted::new(body, l, width, 2))
            .collect()
    };
    let (entity, world) = (fits(&entity), fits(&world));
    let marked = marked(runner, window);
    let on_left = marked.is_none_or(|(cx, ..)| cx >= w / 2.0);
    let x = |lines: &[Fitted], left: bool| {
        if left {
            pad
        } else {
            (w - widest(body, lines) - pad * 1.5).max(pad)
        }
    };
    let mut shown = Shown {
        covers: Vec::new(),
        placed: Vec::new(),
    };
    if let Some(m) = marked {
        frame(m, dpi, &mut shown.placed);
    }
    let at = (x(&entity, on_left), pad);
    panel(entity, at, room, body, &mut shown);
    let height: f32 = world
        .iter()
        .map(|f| f.lines.len() as f32 * body.line_height * f.scale)
        .sum::<f32>()
        .min(room * 0.5);
    let at = (x(&world, !on_left), (floor - pad - height).max(pad));
    panel(world, at, height, body, &mut shown);
    Some(shown)
}

/// The width of the widest of `lines`, in pixels.
fn widest(body: &Face, lines: &[Fitted]) -> f32 {
    lines
        .iter()
        .flat_map(|f| f.lines.iter().map(|l| body.width(l) * f.scale))
        .fold(0.0, f32::max)
}

/// One panel of `lines` (the first a title) with its text's top left at (`x`, `top`), its
/// lines cut where they would pass `room` pixels below `top`.
fn panel(lines: Vec<Fitted>, (x, top): (f32, f32), room: f32, body: &Face, shown: &mut Shown) {
    let pad = body.line_height * 0.5;
    let (mut y, mut widest) = (top, 0.0f32);
    let mut text = Vec::new();
    'lines: for (i, f) in lines.into_iter().enumerate() {
        for l in f.lines {
            let h = body.line_height * f.scale;
            if y + h > top + room + 0.5 {
                break 'lines;
            }
            widest = widest.max(body.width(&l) * f.scale);
            text.push(Placed::Text {
                text: l,
                x,
                y,
                color: if i == 0 { MARK } else { TEXT },
                face: BODY,
                scale: f.scale,
            });
            y += h;
        }
    }
    let back = (x - pad / 2.0, top - pad / 2.0, widest + pad, y - top + pad);
    shown.covers.push(back);
    let (bx, by, bw, bh) = back;
    shown
        .placed
        .push(Placed::Rect(bx, by, bw, bh, Color::rgba(0, 0, 0, 215)));
    shown.placed.extend(text);
}

/// Where the entity followed is in the window: its centre and half its size, in pixels.
fn marked(runner: &Runner, (w, h, _): (f32, f32, f32)) -> Option<(f32, f32, f32, f32)> {
    let e = runner.inspected_extent()?;
    let camera = &runner.play().drawn().camera;
    let (cx, cy, scale) = screen_at(camera, e.center, (w, h));
    Some((cx, cy, e.half.x * scale, e.half.y * scale))
}

/// A frame around the entity followed, at `(cx, cy)` with half size `(hx, hy)` in pixels.
fn frame((cx, cy, hx, hy): (f32, f32, f32, f32), dpi: f32, out: &mut Vec<Placed>) {
    let gap = 3.0 * dpi;
    let line = (2.0 * dpi).max(1.0);
    let (hw, hh) = (hx + gap, hy + gap);
    let (left, top, w, h) = (cx - hw, cy - hh, hw * 2.0, hh * 2.0);
    out.extend([
        Placed::Rect(left - line, top - line, w + 2.0 * line, line, MARK),
        Placed::Rect(left - line, top + h, w + 2.0 * line, line, MARK),
        Placed::Rect(left - line, top, line, h, MARK),
        Placed::Rect(left + w, top, line, h, MARK),
    ]);
}
