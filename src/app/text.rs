//! Text: printable ASCII rasterised once by fontdue into an atlas, laid out as glyph quads.

use fontdue::{Font, FontSettings};

const FONT: &[u8] = include_bytes!("../../assets/fonts/DejaVuSansMono.ttf");
const FIRST: u8 = 32;
const LAST: u8 = 126;

/// Where a glyph sits in the atlas and how it is placed relative to the pen.
#[derive(Clone, Copy, Debug, Default)]
pub struct Glyph {
    /// Atlas rectangle in texels.
    pub x: u32,
    pub y: u32,
    pub w: u32,
    pub h: u32,
    /// Offset of the bitmap's top-left from the pen on the baseline, in pixels.
    pub dx: f32,
    pub dy: f32,
    pub advance: f32,
}

/// One rasterised size.
#[derive(Clone, Debug)]
pub struct Face {
    pub ascent: f32,
    pub line_height: f32,
    glyphs: Vec<Glyph>,
}

impl Face {
    pub fn glyph(&self, c: char) -> Glyph {
        let b = if c.is_ascii() && (c as u8) >= FIRST && (c as u8) <= LAST {
            c as u8
        } else {
            b'?'
        };
        self.glyphs[(b - FIRST) as usize]
    }

    /// Width of a line in pixels.
    pub fn width(&self, text: &str) -> f32 {
        text.chars().map(|c| self.glyph(c).advance).sum()
    }
}

/// An RGBA atlas (white, coverage in alpha) with two faces: body text and banners.
pub struct Atlas {
    pub width: u32,
    pub height: u32,
    pub rgba: Vec<u8>,
    pub body: Face,
    pub title: Face,
}

impl Atlas {
    /// Rasterises both faces at `scale` (the display's pixel ratio).
    pub fn new(scale: f32) -> Atlas {
        let font = Font::from_bytes(FONT, FontSettings::default())
            .expect("the bundled font is a valid TrueType file");
        let width = 1024u32;
        let mut height = 0u32;
        let mut pixels: Vec<u8> = Vec::new();
        let mut faces = Vec::new();
        for px in [16.0 * scale, 40.0 * scale] {
            let metrics = font.horizontal_line_metrics(px);
            let (ascent, line_height) = metrics
                .map(|m| (m.ascent, m.new_line_size))
                .unwrap_or((px * 0.8, px * 1.2));
            let mut glyphs = Vec::new();
            let (mut x, mut row_h) = (1u32, 0u32);
            for b in FIRST..=LAST {
                let (m, bitmap) = font.rasterize(b as char, px);
                let (w, h) = (m.width as u32, m.height as u32);
                if x + w + 1 >= width {
                    x = 1;
                    height += row_h + 1;
                    row_h = 0;
                }
                let need = ((height + h + 2) * width) as usize;
                if pixels.len() < need {
                    pixels.resize(need, 0);
                }
                for row in 0..h {
                    for col in 0..w {
                        pixels[((height + row) * width + x + col) as usize] =
                            bitmap[(row * w + col) as usize];
                    }
                }
                glyphs.push(Glyph {
                    x,
                    y: height,
                    w,
                    h,
                    dx: m.xmin as f32,
                    dy: -(m.ymin as f32 + h as f32),
                    advance: m.advance_width,
                });
                x += w + 1;
                row_h = row_h.max(h);
            }
            height += row_h + 2;
            faces.push(Face {
                ascent,
                line_height,
                glyphs,
            });
        }
        let height = height.next_power_of_two();
        pixels.resize((width * height) as usize, 0);
        let mut rgba = Vec::with_capacity(pixels.len() * 4);
        for a in pixels {
            rgba.extend_from_slice(&[255, 255, 255, a]);
        }
        let title = faces.pop().expect("two faces");
        let body = faces.pop().expect("two faces");
        Atlas {
            width,
            height,
            rgba,
            body,
            title,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn atlas_holds_every_printable_glyph() {
        let atlas = Atlas::new(1.0);
        assert!(atlas.height.is_power_of_two());
        let a = atlas.body.glyph('A');
        assert!(a.w > 0 && a.h > 0 && a.advance > 0.0);
        let coverage: u32 = (0..a.h)
            .flat_map(|r| (0..a.w).map(move |c| (r, c)))
            .map(|(r, c)| atlas.rgba[(((a.y + r) * atlas.width + a.x + c) * 4 + 3) as usize] as u32)
            .sum();
        assert!(coverage > 0, "the glyph has ink");
        assert_eq!(
            atlas.body.glyph('\u{263A}').advance,
            atlas.body.glyph('?').advance
        );
        assert!(atlas.title.line_height > atlas.body.line_height);
    }
}
