//! The game's HUD laid out in the window: each anchor's items (lines of text, pictures, rows of
//! icons, bars) form a block in declaration order, at that edge or centre of the screen. Sizes
//! are in pixels at a pixel ratio of 1, scaled by the display's. What it lays out is a list of
//! [`Placed`] things, which the window's UI (`ui.rs`) draws with its own.

use crate::app::text::{self, Atlas};
use crate::runtime::Runner;
use ludus_core::{Anchor, AssetId, Color, HudShown};

/// A frame of one of the game's images, its top left at (`x`, `y`), `w` x `h` pixels.
pub struct Picture {
    pub image: AssetId,
    pub frame: u16,
    pub x: f32,
    pub y: f32,
    pub w: f32,
    pub h: f32,
}

/// Something the HUD draws, in screen pixels.
pub enum Placed {
    /// A line of text, its top left at (`x`, `y`), in face `face` of the atlas scaled by
    /// `scale`.
    Text {
        text: String,
        x: f32,
        y: f32,
        color: Color,
        face: usize,
        scale: f32,
    },
    Picture(Picture),
    /// A filled rectangle: x, y, width, height, colour.
    Rect(f32, f32, f32, f32, Color),
}

/// Room between an item that is not text and the next in its block, in pixels at a pixel
/// ratio of 1 (lines of text carry their own).
const ITEM_GAP: f32 = 4.0;

/// One item's size on screen, and what draws it.
struct Sized {
    at: Anchor,
    w: f32,
    h: f32,
    what: Item,
}

enum Item {
    Text {
        text: String,
        /// An index into [`Atlas::faces`].
        face: usize,
        scale: f32,
        color: Color,
    },
    /// Frames of one image, side by side, each `w` wide with `gap` between: `None` leaves a
    /// frame's place empty.
    Pictures {
        image: AssetId,
        frames: Vec<Option<u16>>,
        w: f32,
        gap: f32,
    },
    Bar {
        fill: f32,
        color: Color,
        back: Color,
    },
}

/// Lays the HUD out in a `w` x `h` pixel window at pixel ratio `dpi` (bottom blocks end above
/// `floor`, the help line's top).
pub fn hud(
    runner: &Runner,
    atlas: &Atlas,
    (w, h, dpi): (f32, f32, f32),
    floor: f32,
) -> Vec<Placed> {
    let pad = 10.0 * dpi;
    let items: Vec<Sized> = runner
        .play()
        .hud()
        .into_iter()
        .map(|item| sized(item, atlas, dpi))
        .collect();
    let room = |s: &Sized| match s.what {
        Item::Text { .. } => s.h,
        _ => s.h + ITEM_GAP * dpi,
    };
    let mut totals = [0.0f32; 9];
    for s in &items {
        totals[slot(s.at)] += room(s);
    }
    let bottom = floor - pad / 2.0;
    let mut used = [0.0f32; 9];
    let mut out = Vec::new();
    for s in items {
        let (col, row) = s.at.grid();
        let i = slot(s.at);
        let x = match col {
            0 => pad,
            1 => (w - s.w) / 2.0,
            _ => w - pad - s.w,
        };
        let top = match row {
            0 => pad,
            1 => (h - totals[i]) / 2.0,
            _ => bottom - totals[i],
        };
        let y = top + used[i];
        used[i] += room(&s);
        place(s, x.round(), y.round(), &mut out);
    }
    out
}

fn slot(at: Anchor) -> usize {
    let (col, row) = at.grid();
    usize::from(row * 3 + col)
}

/// An item with its size on screen.
fn sized(item: HudShown<'_>, atlas: &Atlas, dpi: f32) -> Sized {
    match item {
        HudShown::Text { text, line } => {
            let index = match atlas.face_of(line.font) {
                text::BODY if line.size >= 28.0 => text::TITLE,
                i => i,
            };
            let face = &atlas.faces[index];
            let scale = line.size / face.px;
            Sized {
                at: line.at,
                w: face.width(&text) * scale,
                h: face.line_height * scale,
                what: Item::Text {
                    text,
                    face: index,
                    scale,
                    color: line.color,
                },
            }
        }
        HudShown::Image(image) => Sized {
            at: image.at,
            w: image.size.x * dpi,
            h: image.size.y * dpi,
            what: Item::Pictures {
                image: image.image,
                frames: vec![Some(image.frame)],
                w: image.size.x * dpi,
                gap: 0.0,
            },
        },
        HudShown::Icons { full, slots, icons } => {
            let (iw, ih) = (icons.size.x * dpi, icons.size.y * dpi);
            let gap = (iw * 0.15).round();
            let frames: Vec<Option<u16>> = (0..slots)
                .map(|i| {
                    if i < full {
                        Some(icons.frame)
                    } else {
                        icons.empty_frame
                    }
                })
                .collect();
            Sized {
                at: icons.at,
                w: (iw + gap) * slots as f32 - if slots > 0 { gap } else { 0.0 },
                h: ih,
                what: Item::Pictures {
                    image: icons.image,
                    frames,
                    w: iw,
                    gap,
                },
            }
        }
        HudShown::Bar { fill, bar } => Sized {
            at: bar.at,
            w: bar.size.x * dpi,
            h: bar.size.y * dpi,
            what: Item::Bar {
                fill,
                color: bar.color,
                back: bar.back,
            },
        },
    }
}

/// What draws an item whose top left is at (`x`, `y`).
fn place(s: Sized, x: f32, y: f32, out: &mut Vec<Placed>) {
    match s.what {
        Item::Text {
            text,
            face,
            scale,
            color,
        } => out.push(Placed::Text {
            text,
            x,
            y,
            color,
            face,
            scale,
        }),
        Item::Pictures {
            image,
            frames,
            w,
            gap,
        } => {
            for (i, frame) in frames.into_iter().enumerate() {
                if let Some(frame) = frame {
                    out.push(Placed::Picture(Picture {
                        image,
                        frame,
                        x: x + i as f32 * (w + gap),
                        y,
                        w,
                        h: s.h,
                    }));
                }
            }
        }
        Item::Bar { fill, color, back } => {
            out.push(Placed::Rect(x, y, s.w, s.h, back));
            // Whole pixels, so the filled width is what the value says, to the pixel.
            let filled = (s.w * fill).round();
            if filled > 0.0 {
                out.push(Placed::Rect(x, y, filled, s.h, color));
            }
        }
    }
}
