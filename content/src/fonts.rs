//! `[fonts.NAME]`: TrueType/OpenType files and bitmap fonts cut from images, and the font names
//! labels, HUD lines and the game's `font` give.

use crate::files::{FileKind, Files, Read};
use crate::images::Images;
use crate::report::{Loc, Report};
use crate::table::Table;
use crate::value::Named;
use ludus_core::{FontDef, FontId, FontSource};
use std::collections::HashMap;

/// The most fonts a game may declare.
const MAX_FONTS: usize = 256;
/// The most characters a bitmap font may list (a glyph is an image frame, numbered in 16 bits).
const MAX_GLYPHS: usize = 65_536;

/// The game's fonts: [`ludus_core::GameDef::fonts`], by name.
#[derive(Default)]
pub(crate) struct Fonts {
    pub list: Vec<FontDef>,
    /// Declared names (`None`: declared but unusable, already reported).
    named: HashMap<String, Option<FontId>>,
    /// Each font file counted against the game's decoded total, and whether it fit.
    charged: HashMap<String, bool>,
}

impl Fonts {
    /// Reads the `[fonts.NAME]` tables of game.toml; sheet fonts name `images`.
    pub fn read(
        r: &mut Report,
        root: &Table<'_, '_>,
        files: &mut Files<'_>,
        images: &Images,
    ) -> Fonts {
        let mut fonts = Fonts::default();
        for (name, t) in root.named(r, "fonts", "font") {
            let id = font(r, &t, &name, files, images, &mut fonts.charged).and_then(|source| {
                if fonts.list.len() >= MAX_FONTS {
                    r.error(
                        name.loc,
                        format!("a game may declare at most {MAX_FONTS} fonts"),
                    );
                    return None;
                }
                fonts.list.push(FontDef {
                    name: name.name.clone(),
                    source,
                });
                Some(FontId((fonts.list.len() - 1) as u16))
            });
            fonts.named.insert(name.name, id);
        }
        fonts
    }

    /// The font a `font = "NAME"` key of `t` names, if it has one (`None` also when unknown,
    /// reported).
    pub fn key(&self, r: &mut Report, t: &Table<'_, '_>) -> Option<FontId> {
        let named = t.name(r, "font", "font")?;
        self.by_name(r, &named)
    }

    fn by_name(&self, r: &mut Report, named: &Named) -> Option<FontId> {
        crate::value::look_up(r, named, &self.named, "font", || {
            format!(
                "declare it in game.toml: `[fonts.{}] file = \"fonts/{}.ttf\"`",
                named.name, named.name
            )
        })
    }
}

/// One `[fonts.NAME]` table: `file` (and `size`), or `image` and `glyphs`.
fn font(
    r: &mut Report,
    t: &Table<'_, '_>,
    name: &Named,
    files: &mut Files<'_>,
    images: &Images,
    charged: &mut HashMap<String, bool>,
) -> Option<FontSource> {
    match (t.has("file"), t.has("image")) {
        (true, true) => {
            let loc = t.key_loc("image").unwrap_or(name.loc);
            r.error(loc, "a font has a `file` or an `image`, not both")
                .help("`file` is a TrueType or OpenType font; `image` and `glyphs` cut a bitmap font from a sprite sheet");
            None
        }
        (false, false) => {
            r.error(name.loc, format!("font `{}` has neither `file` nor `image`", name.name))
                .help("e.g. `file = \"fonts/title.ttf\"`, or `image = \"glyphs\"` with `glyphs = \"ABC...\"`");
            None
        }
        (true, false) => {
            if let Some(loc) = t.key_loc("glyphs") {
                r.error(loc, "`glyphs` belongs to a font cut from an `image`")
                    .help("a font file holds its own glyphs: remove `glyphs`");
            }
            let file = t.path(r, "file")?;
            let size = t.f32(r, "size").unwrap_or(FontSource::SIZE);
            let Some(Read::Font(held)) = files.read_listed(r, &file, FileKind::Font) else {
                return None;
            };
            // The app holds each font file loaded once, whatever sizes it is declared at.
            let fits = match charged.get(&file.name) {
                Some(fits) => *fits,
                None => {
                    let what = format!("font file `{}`", file.name);
                    let fits = files.charge(r, file.loc, &what, held);
                    charged.insert(file.name.clone(), fits);
                    fits
                }
            };
            fits.then_some(FontSource::File {
                file: file.name,
                size,
            })
        }
        (false, true) => {
            if let Some(loc) = t.key_loc("size") {
                r.error(loc, "`size` belongs to a font file")
                    .help("a bitmap font is drawn from its frames: its size is the frame's height");
            }
            let image = t.name(r, "image", "image")?;
            let image = images.by_name(r, &image)?;
            let Some(glyphs) = t.text(r, "glyphs") else {
                t.missing(r, "glyphs");
                return None;
            };
            let loc = t.loc_of("glyphs").unwrap_or(t.loc);
            check_glyphs(r, &glyphs, loc, images, image)?;
            Some(FontSource::Sheet { image, glyphs })
        }
    }
}

/// A sheet's `glyphs`: at least one, distinct, no more than the image has frames.
fn check_glyphs(
    r: &mut Report,
    glyphs: &str,
    loc: Loc,
    images: &Images,
    image: ludus_core::AssetId,
) -> Option<()> {
    let count = glyphs.chars().count();
    if count == 0 {
        r.error(loc, "`glyphs` is empty")
            .help("list the characters of the image's frames in order, e.g. `glyphs = \" !0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ\"`");
        return None;
    }
    if count > MAX_GLYPHS {
        r.error(
            loc,
            format!("`glyphs` lists {count} characters; a font has at most {MAX_GLYPHS}"),
        );
        return None;
    }
    let mut seen: Vec<char> = glyphs.chars().collect();
    seen.sort_unstable();
    if let Some(w) = seen.windows(2).find(|w| w[0] == w[1]) {
        r.error(loc, format!("`glyphs` lists {:?} twice", w[0]))
            .help("each character names one frame: list it once");
        return None;
    }
    let def = images.get(image)?;
    let frames = def.frames() as usize;
    if count > frames {
        r.error(
            loc,
            format!(
                "`glyphs` lists {count} characters, but image `{}` has {frames} frame{}",
                def.name,
                if frames == 1 { "" } else { "s" }
            ),
        )
        .help("cut the image into one frame per glyph with `frame = [w, h]`, or list fewer characters");
        return None;
    }
    Some(())
}
