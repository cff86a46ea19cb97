//! Text: the bundled font and the game's `[fonts]`, as faces whose glyphs are rectangles of a
//! texture. Font files (and the bundled font) are loaded once each by
//! `ludus_decode::load_font` (under its limits) and rasterised by fontdue into the text atlas;
//! a bitmap font's glyphs are frames of its image in the image atlas.

use fontdue::{Font, FontSettings};
use ludus_core::{FontDef, FontId, FontSource, ImageDef};
use std::collections::HashMap;
use std::sync::Arc;

const FONT: &[u8] = include_bytes!("../../assets/fonts/DejaVuSansMono.ttf");
/// Printable ASCII and the printable Latin-1 supplement: what a font file is rasterised for.
const CHARS: [std::ops::RangeInclusive<char>; 2] = ludus_decode::FONT_CHARS;
/// The text atlas's width, and the most rows it may grow to (a face that does not fit is left
/// out, and its text drawn in the bundled font).
const WIDTH: u32 = 2048;
const MAX_HEIGHT: u32 = 4096;
/// The largest pixel height a font file is rasterised at (larger text is scaled up).
const MAX_RASTER_PX: f32 = 128.0;

/// Where a glyph is and how it is placed relative to the pen.
#[derive(Clone, Copy, Debug, Default)]
pub struct Glyph {
    /// In the text atlas: its rectangle in texels. In a bitmap font: `x` is the image frame.
    pub x: u32,
    pub y: u32,
    pub w: u32,
    pub h: u32,
    /// Drawn size in pixels.
    pub size: [f32; 2],
    /// Offset of the bitmap's top-left from the pen on the baseline, in pixels.
    pub dx: f32,
    pub dy: f32,
    pub advance: f32,
}

/// One font at one size.
///
/// Invariant: `chars` is sorted and `glyphs[i]` is the glyph of `chars[i]`.
#[derive(Clone, Debug)]
pub struct Face {
    /// The height it was made for, in pixels at a pixel ratio of 1 (text of another height
    /// scales it by `height / px`).
    pub px: f32,
    pub ascent: f32,
    pub line_height: f32,
    chars: Vec<char>,
    glyphs: Vec<Glyph>,
    /// A bitmap font: the image whose frames the glyphs are.
    pub sheet: Option<u16>,
}

impl Face {
    /// The glyph of `c`: for a character the face lacks, its other case, else `?`, else an
    /// empty glyph a space wide.
    pub fn glyph(&self, c: char) -> Glyph {
        let find = |c: char| self.chars.binary_search(&c).ok().map(|i| self.glyphs[i]);
        find(c)
            .or_else(|| find(c.to_ascii_uppercase()))
            .or_else(|| find(c.to_ascii_lowercase()))
            .or_else(|| find('?'))
            .unwrap_or(Glyph {
                advance: self.line_height / 2.0,
                ..Glyph::default()
            })
    }

    /// Width of a line in pixels.
    pub fn width(&self, text: &str) -> f32 {
        text.chars().map(|c| self.glyph(c).advance).sum()
    }
}

/// The index of the bundled font's body face in [`Atlas::faces`].
pub const BODY: usize = 0;
/// The bundled font's large face (banners).
pub const TITLE: usize = 1;

/// The text atlas (white, coverage in alpha) and every face: the bundled font's two, then the
/// game's fonts.
pub struct Atlas {
    pub width: u32,
    pub height: u32,
    pub rgba: Vec<u8>,
    pub faces: Vec<Face>,
    /// The face of each game font (`None`: it could not be made; the body face stands in).
    game: Vec<Option<usize>>,
}

/// Glyph bitmaps packed in rows into one coverage image.
struct Packer {
    pixels: Vec<u8>,
    height: u32,
}

impl Packer {
    /// Rasterises `font` at `px` pixels for the characters it has; `None` when the face would
    /// make the atlas taller than [`MAX_HEIGHT`] (nothing is added then).
    fn face(&mut self, font: &Font, px: f32, nominal: f32, all: bool) -> Option<Face> {
        let metrics = font.horizontal_line_metrics(px);
        let (ascent, line_height) = metrics
            .map(|m| (m.ascent, m.new_line_size))
            .unwrap_or((px * 0.8, px * 1.2));
        let start = (self.pixels.len(), self.height);
        let (mut chars, mut glyphs) = (Vec::new(), Vec::new());
        let (mut x, mut row_h) = (1u32, 0u32);
        for c in CHARS.iter().flat_map(|r| r.clone()) {
            if !all && c != ' ' && font.lookup_glyph_index(c) == 0 {
                continue;
            }
            // The glyph's size first: one too large for the atlas is never rasterised.
            let m = font.metrics(c, px);
            let (w, h) = (m.width as u32, m.height as u32);
            if w + 2 >= WIDTH || h + 2 > MAX_HEIGHT {
                self.pixels.truncate(start.0);
                self.height = start.1;
                return None;
            }
            if x + w + 1 >= WIDTH {
                x = 1;
                self.height += row_h + 1;
                row_h = 0;
            }
            if self.height + h + 2 > MAX_HEIGHT {
                self.pixels.truncate(start.0);
                self.height = start.1;
                return None;
            }
            let (m, bitmap) = font.rasterize(c, px);
            let (w, h) = (m.width as u32, m.height as u32);
            let need = ((self.height + h + 2) * WIDTH) as usize;
            if self.pixels.len() < need {
                self.pixels.resize(need, 0);
            }
            for row in 0..h {
                let at = ((self.height + row) * WIDTH + x) as usize;
                let src = (row * w) as usize;
                self.pixels[at..at + w as usize].copy_from_slice(&bitmap[src..src + w as usize]);
            }
            chars.push(c);
            glyphs.push(Glyph {
                x,
                y: self.height,
                w,
                h,
                size: [w as f32, h as f32],
                dx: m.xmin as f32,
                dy: -(m.ymin as f32 + h as f32),
                advance: m.advance_width,
            });
            x += w + 1;
            row_h = row_h.max(h);
        }
        self.height += row_h + 2;
        Some(Face {
            px: nominal,
            ascent,
            line_height,
            chars,
            glyphs,
            sheet: None,
        })
    }
}

/// A bitmap font's face: frame `i` of `image` is the `i`-th character of `glyphs`, drawn
/// `scale` pixels per image pixel.
fn sheet_face(image: u16, def: &ImageDef, glyphs: &str, scale: f32) -> Face {
    let (fw, fh) = (def.frame.0 as f32 * scale, def.frame.1 as f32 * scale);
    let mut pairs: Vec<(char, Glyph)> = glyphs
        .chars()
        .enumerate()
        .map(|(i, c)| {
            let glyph = Glyph {
                x: i as u32,
                size: [fw, fh],
                dy: -fh,
                advance: fw,
                ..Glyph::default()
            };
            (c, glyph)
        })
        .collect();
    pairs.sort_unstable_by_key(|p| p.0);
    Face {
        px: def.frame.1 as f32,
        ascent: fh,
        line_height: fh,
        chars: pairs.iter().map(|p| p.0).collect(),
        glyphs: pairs.into_iter().map(|p| p.1).collect(),
        sheet: Some(image),
    }
}

impl Atlas {
    /// The bundled faces only, at `scale` (the display's pixel ratio).
    pub fn new(scale: f32) -> Atlas {
        Atlas::with_fonts(scale, &[], &[], &[])
    }

    /// The bundled faces and the game's `fonts` (`files`: each font file's bytes by font id;
    /// `images`: the game's images, for bitmap fonts). A font that cannot be made is drawn in
    /// the bundled font.
    pub fn with_fonts(
        scale: f32,
        fonts: &[FontDef],
        files: &[Option<Arc<[u8]>>],
        images: &[ImageDef],
    ) -> Atlas {
        let bundled = Font::from_bytes(FONT, FontSettings::default())
            .expect("the bundled font is a valid TrueType file");
        let mut packer = Packer {
            pixels: Vec::new(),
            height: 0,
        };
        let mut faces = Vec::new();
        for px in [16.0, 40.0] {
            let face = packer.face(&bundled, px * scale, px, true);
            faces.push(face.expect("the bundled faces fit the atlas"));
        }
        let mut game = Vec::with_capacity(fonts.len());
        // Each font file loaded once, whatever sizes it is declared at, and each file and
        // size made into a face once.
        let mut loaded: HashMap<&str, Option<Font>> = HashMap::new();
        let mut made: HashMap<(&str, u32), Option<usize>> = HashMap::new();
        for (i, font) in fonts.iter().enumerate() {
            if let FontSource::File { file, size } = &font.source
                && let Some(face) = made.get(&(file.as_str(), size.to_bits()))
            {
                game.push(*face);
                continue;
            }
            let face = match &font.source {
                // Third-party code reading the game's bytes: a panic in it leaves this font
                // out (its text is drawn in the bundled font), never the app.
                FontSource::File { file, size } => loaded
                    .entry(file.as_str())
                    .or_insert_with(|| {
                        let bytes = files.get(i)?.as_deref()?;
                        ludus_decode::load_font(bytes).ok()
                    })
                    .as_ref()
                    .and_then(|f| {
                        std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                            let px = (size * scale).min(MAX_RASTER_PX);
                            packer.face(f, px, px / scale, false)
                        }))
                        .ok()
                        .flatten()
                    }),
                FontSource::Sheet { image, glyphs } => images
                    .get(image.0 as usize)
                    .map(|def| sheet_face(image.0, def, glyphs, scale)),
            };
            let face = face.map(|f| {
                faces.push(f);
                faces.len() - 1
            });
            if let FontSource::File { file, size } = &font.source {
                made.insert((file.as_str(), size.to_bits()), face);
            }
            game.push(face);
        }
        let width = WIDTH;
        let height = packer.height.next_power_of_two();
        let mut pixels = packer.pixels;
        pixels.resize((width * height) as usize, 0);
        let mut rgba = Vec::with_capacity(pixels.len() * 4);
        for a in pixels {
            rgba.extend_from_slice(&[255, 255, 255, a]);
        }
        Atlas {
            width,
            height,
            rgba,
            faces,
            game,
        }
    }

    pub fn body(&self) -> &Face {
        &self.faces[BODY]
    }

    pub fn title(&self) -> &Face {
        &self.faces[TITLE]
    }

    /// The face text in `font` is drawn with (the body face for none, or one not made).
    pub fn face_of(&self, font: Option<FontId>) -> usize {
        font.and_then(|f| self.game.get(f.0 as usize).copied().flatten())
            .unwrap_or(BODY)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn atlas_holds_every_printable_glyph() {
        let atlas = Atlas::new(1.0);
        assert!(atlas.height.is_power_of_two());
        let a = atlas.body().glyph('A');
        assert!(a.w > 0 && a.h > 0 && a.advance > 0.0);
        let coverage: u32 = (0..a.h)
            .flat_map(|r| (0..a.w).map(move |c| (r, c)))
            .map(|(r, c)| atlas.rgba[(((a.y + r) * atlas.width + a.x + c) * 4 + 3) as usize] as u32)
            .sum();
        assert!(coverage > 0, "the glyph has ink");
        let e = atlas.body().glyph('é');
        assert!(
            e.w > 0 && e.x != atlas.body().glyph('?').x,
            "Latin-1 is rasterised"
        );
        assert_eq!(
            atlas.body().glyph('\u{263A}').advance,
            atlas.body().glyph('?').advance
        );
        assert!(atlas.title().line_height > atlas.body().line_height);
    }

    fn sheet(frames: u32) -> ImageDef {
        let mut def = ImageDef::whole("glyphs", "glyphs.png", 8 * frames, 10);
        def.frame = (8, 10);
        def
    }

    #[test]
    fn game_fonts_get_faces_in_declaration_order() {
        let fonts = [
            FontDef {
                name: "big".into(),
                source: FontSource::File {
                    file: "big.ttf".into(),
                    size: 64.0,
                },
            },
            FontDef {
                name: "broken".into(),
                source: FontSource::File {
                    file: "broken.ttf".into(),
                    size: 20.0,
                },
            },
            FontDef {
                name: "pixel".into(),
                source: FontSource::Sheet {
                    image: ludus_core::AssetId(0),
                    glyphs: "AB?".into(),
                },
            },
        ];
        let files = [
            Some(Arc::from(FONT)),
            Some(Arc::from(&b"not a font"[..])),
            None,
        ];
        let atlas = Atlas::with_fonts(2.0, &fonts, &files, &[sheet(3)]);
        assert_eq!(atlas.faces.len(), 4);
        let big = &atlas.faces[atlas.face_of(Some(FontId(0)))];
        assert_eq!(big.px, 64.0, "made for its size");
        assert!(big.line_height > 2.0 * atlas.title().line_height / 1.5);
        assert_eq!(atlas.face_of(Some(FontId(1))), BODY, "an unreadable font");
        assert_eq!(atlas.face_of(None), BODY);
        let pixel = &atlas.faces[atlas.face_of(Some(FontId(2)))];
        assert_eq!(pixel.sheet, Some(0));
        assert_eq!((pixel.px, pixel.line_height), (10.0, 20.0));
        let table: Vec<(char, u32, f32)> = "ABab?z"
            .chars()
            .map(|c| (c, pixel.glyph(c).x, pixel.glyph(c).advance))
            .collect();
        assert_eq!(
            table,
            [
                ('A', 0, 16.0),
                ('B', 1, 16.0),
                ('a', 0, 16.0),
                ('b', 1, 16.0),
                ('?', 2, 16.0),
                ('z', 2, 16.0),
            ]
        );
    }

    #[test]
    fn a_font_too_large_for_the_atlas_falls_back() {
        let big = |i: usize| FontDef {
            name: format!("f{i}"),
            source: FontSource::File {
                file: format!("big{i}.ttf"),
                size: 128.0,
            },
        };
        let fonts: Vec<FontDef> = (0..12).map(big).collect();
        let files: Vec<Option<Arc<[u8]>>> = fonts.iter().map(|_| Some(Arc::from(FONT))).collect();
        let atlas = Atlas::with_fonts(1.0, &fonts, &files, &[]);
        assert!(atlas.height <= MAX_HEIGHT);
        assert_ne!(atlas.face_of(Some(FontId(0))), BODY);
        assert_eq!(
            atlas.face_of(Some(FontId(11))),
            BODY,
            "left out, not overflowing"
        );
    }

    #[test]
    fn a_font_file_declared_many_times_is_made_into_one_face_per_size() {
        let font = |i: usize, size: f32| FontDef {
            name: format!("f{i}"),
            source: FontSource::File {
                file: "one.ttf".into(),
                size,
            },
        };
        let fonts: Vec<FontDef> = (0..300)
            .map(|i| font(i, if i % 2 == 0 { 20.0 } else { 30.0 }))
            .collect();
        let files: Vec<Option<Arc<[u8]>>> = vec![Some(Arc::from(FONT)); fonts.len()];
        let atlas = Atlas::with_fonts(1.0, &fonts, &files, &[]);
        // The bundled font's two faces, then one per size.
        assert_eq!(atlas.faces.len(), 4);
        let faces: Vec<usize> = (0..4).map(|i| atlas.face_of(Some(FontId(i)))).collect();
        assert_eq!(faces, [2, 3, 2, 3]);
    }
}
