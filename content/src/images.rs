//! `[images.NAME]` and the images sprites name: each file read and checked once, sheets cut
//! into frames, and the frame numbers sprites and animations use checked against them.

use crate::files::{FileKind, Files, Read};
use crate::report::{Loc, Report};
use crate::table::Table;
use crate::value::Named;
use ludus_core::{AssetId, Filter, ImageDef};
use std::collections::HashMap;

/// The most images a game may use ([`AssetId`] is a `u16`).
const MAX_IMAGES: usize = u16::MAX as usize;

/// The game's images: [`ludus_core::GameDef::images`], by name and by path.
#[derive(Default)]
pub(crate) struct Images {
    pub list: Vec<ImageDef>,
    /// `[images.NAME]` names (`None`: declared but unreadable, already reported).
    named: HashMap<String, Option<AssetId>>,
    /// Images sprites name by path.
    by_path: HashMap<String, Option<AssetId>>,
    /// Each image file and filter counted against the game's decoded total (the app packs
    /// each once).
    charged: HashMap<(String, bool), bool>,
}

impl Images {
    /// Reads the `[images.NAME]` tables of game.toml.
    pub fn read(r: &mut Report, root: &Table<'_, '_>, files: &mut Files<'_>) -> Images {
        let mut images = Images::default();
        for (name, t) in root.named(r, "images", "image") {
            let id = t
                .path(r, "file")
                .and_then(|file| {
                    let def = image(r, &t, &name, &file, files)?;
                    images.charge(r, files, &file, &def).then_some(def)
                })
                .and_then(|def| images.push(r, name.loc, def));
            images.named.insert(name.name, id);
        }
        images
    }

    /// Counts an image's pixels against the game's decoded total, once per file and filter
    /// (false: past the total, reported at `file`).
    fn charge(
        &mut self,
        r: &mut Report,
        files: &mut Files<'_>,
        file: &Named,
        def: &ImageDef,
    ) -> bool {
        let key = (def.file.clone(), def.filter == Filter::Linear);
        if let Some(ok) = self.charged.get(&key) {
            return *ok;
        }
        // Its pixels and the one-texel border it is packed with.
        let bytes = (u64::from(def.width) + 2) * (u64::from(def.height) + 2) * 4;
        let what = format!("image `{}` ({}x{} pixels)", def.file, def.width, def.height);
        let ok = files.charge(r, file.loc, &what, bytes);
        self.charged.insert(key, ok);
        ok
    }

    fn push(&mut self, r: &mut Report, loc: Loc, def: ImageDef) -> Option<AssetId> {
        if self.list.len() >= MAX_IMAGES {
            r.error(loc, format!("a game may use at most {MAX_IMAGES} images"));
            return None;
        }
        self.list.push(def);
        Some(AssetId((self.list.len() - 1) as u16))
    }

    pub fn get(&self, id: AssetId) -> Option<&ImageDef> {
        self.list.get(id.0 as usize)
    }

    /// The image a sprite's `image` names: an `[images]` name, or else a PNG path (read the
    /// first time). A bare word that is no image's name is reported as an unknown name.
    pub fn sprite_image(
        &mut self,
        r: &mut Report,
        files: &mut Files<'_>,
        named: &Named,
    ) -> Option<AssetId> {
        if let Some(id) = self.named.get(&named.name) {
            return *id;
        }
        if !named.name.contains(['.', '/']) {
            return self.by_name(r, named);
        }
        if let Some(id) = self.by_path.get(&named.name) {
            return *id;
        }
        let id = match files.read_listed(r, named, FileKind::Image) {
            Some(Read::Image { width, height }) => {
                let def = ImageDef::whole(&named.name, &named.name, width, height);
                if self.charge(r, files, named, &def) {
                    self.push(r, named.loc, def)
                } else {
                    None
                }
            }
            _ => None,
        };
        self.by_path.insert(named.name.clone(), id);
        id
    }

    /// The image `[images.NAME]` declares (`None`: unknown, reported, or unreadable).
    pub fn by_name(&self, r: &mut Report, named: &Named) -> Option<AssetId> {
        crate::value::look_up(r, named, &self.named, "image", || {
            format!(
                "declare it in game.toml: `[images.{}] file = \"images/{}.png\"`",
                named.name, named.name
            )
        })
    }

    /// Checks a frame number of image `id` at `loc`; `what` says what uses it.
    pub fn check_frame(&self, r: &mut Report, id: AssetId, frame: i64, loc: Loc, what: &str) {
        let Some(image) = self.get(id) else {
            return;
        };
        let frames = i64::from(image.frames());
        if frame >= frames {
            let (c, rows) = image.grid();
            r.error(
                loc,
                format!(
                    "{what} {frame} is past the end of image `{}`: it has {frames} frame{} ({c} x {rows}), numbered from 0",
                    image.name,
                    if frames == 1 { "" } else { "s" }
                ),
            )
            .help(if frames == 1 {
                "cut the image into frames with `frame = [w, h]` in its `[images.NAME]` table"
            } else {
                "frames are numbered left to right, then top to bottom"
            });
        }
    }
}

/// One `[images.NAME]` table whose `file` is `file`.
fn image(
    r: &mut Report,
    t: &Table<'_, '_>,
    name: &Named,
    file: &Named,
    files: &mut Files<'_>,
) -> Option<ImageDef> {
    let Some(Read::Image { width, height }) = files.read_listed(r, file, FileKind::Image) else {
        return None;
    };
    let mut def = ImageDef::whole(&name.name, &file.name, width, height);
    def.filter = match t.choice(r, "filter") {
        Some("nearest") => Filter::Nearest,
        _ => Filter::Linear,
    };
    if let Some(frame) = t.pair(r, "frame") {
        let loc = t.loc_of("frame").unwrap_or(t.loc);
        let (fw, fh) = (frame.x, frame.y);
        if fw.fract() != 0.0 || fh.fract() != 0.0 {
            r.error(loc, "a frame's size is whole pixels")
                .help("e.g. `frame = [16, 16]`");
            return None;
        }
        let (fw, fh) = (fw as u32, fh as u32);
        if width % fw != 0 || height % fh != 0 {
            r.error(
                loc,
                format!(
                    "image `{}` is {width}x{height} pixels, not a whole number of {fw}x{fh} frames",
                    file.name
                ),
            )
            .help(format!(
                "the frame's width must divide {width} and its height {height}"
            ));
            return None;
        }
        def.frame = (fw, fh);
    }
    Some(def)
}
