//! The game's images packed into texture pages at load, so sprites of different images draw
//! in one instanced call: one page per filter (smooth, blocky) unless the images outgrow it.
//!
//! Packing is by shelves: images sorted tallest first, placed left to right in rows. Every
//! image gets a one-texel border copied from its edge pixels, so smooth filtering at an
//! image's edge never samples a neighbour. Frames of a smooth sheet are sampled half a texel
//! inside their rectangle for the same reason.

use ludus_core::{Filter, ImageDef};
use std::collections::HashMap;
use std::rc::Rc;

/// The largest page side, in texels (WebGL 1 devices all allow 4096).
pub const PAGE_MAX: u32 = 4096;
/// Texels of border around each image.
const PAD: u32 = 1;

/// Decoded RGBA8 pixels of one image: `(width, height, pixels)`.
pub type Pixels = (u16, u16, Vec<u8>);

/// One texture page's pixels.
pub struct Page {
    pub width: u32,
    pub height: u32,
    pub filter: Filter,
    pub rgba: Vec<u8>,
}

/// Where an image lies: its page and the top-left texel of its pixels.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Placed {
    pub page: u16,
    pub x: u32,
    pub y: u32,
}

/// The packed pages and where each image (by asset id) lies.
///
/// Invariant: `placed[i]` lies inside `pages[placed[i].page]` with its border, and no two
/// images' bordered rectangles overlap.
#[derive(Default)]
pub struct Atlas {
    pub pages: Vec<Page>,
    pub placed: Vec<Placed>,
    /// The images as defined when packed.
    pub defs: Vec<ImageDef>,
    /// Each image's frames' page and texture rectangles, from `first[image]` on (a frame past
    /// an image's last is its last).
    uvs: Vec<(u16, [f32; 4])>,
    first: Vec<u32>,
}

impl Atlas {
    /// Packs `defs` with their decoded `pixels` (`None`, or a size other than the definition's:
    /// a checkerboard of the defined size stands in, so missing art is seen, never dropped).
    /// Images of the same file and filter are packed once and share its place.
    pub fn pack(defs: &[ImageDef], pixels: &[Option<Rc<Pixels>>]) -> Atlas {
        let same = sharing(defs);
        let (placed, shelves) = place(defs, &same);
        let mut pages = paint(defs, pixels, &same, &placed, &shelves);
        if pages.is_empty() {
            pages.push(Page {
                width: 1,
                height: 1,
                filter: Filter::Linear,
                rgba: vec![255; 4],
            });
        }
        let mut atlas = Atlas {
            pages,
            placed,
            defs: defs.to_vec(),
            uvs: Vec::new(),
            first: Vec::with_capacity(defs.len() + 1),
        };
        // Frames are numbered by `u16`: at most 65536 of an image can be drawn.
        for (i, d) in defs.iter().enumerate() {
            atlas.first.push(atlas.uvs.len() as u32);
            for f in 0..d.frames().clamp(1, 1 << 16) {
                let uv = atlas.frame_uv(i, f as u16);
                atlas.uvs.push(uv);
            }
        }
        atlas.first.push(atlas.uvs.len() as u32);
        atlas
    }

    /// The page and texture rectangle `[u, v, du, dv]` of frame `frame` of image `image`
    /// (mirrored left to right when `flip_x`, top to bottom when `flip_y`); `None` for an
    /// unknown image.
    pub fn uv(
        &self,
        image: u16,
        frame: u16,
        flip_x: bool,
        flip_y: bool,
    ) -> Option<(u16, [f32; 4])> {
        let i = image as usize;
        let (start, end) = (*self.first.get(i)?, *self.first.get(i + 1)?);
        let k = (start + u32::from(frame)).min(end - 1);
        let (page, mut uv) = self.uvs[k as usize];
        // One test for the common case of no flip (every sprite of a frame comes here).
        if flip_x | flip_y {
            if flip_x {
                uv[0] += uv[2];
                uv[2] = -uv[2];
            }
            if flip_y {
                uv[1] += uv[3];
                uv[3] = -uv[3];
            }
        }
        Some((page, uv))
    }

    /// Computes what [`uv`](Self::uv) looks up (unflipped).
    fn frame_uv(&self, i: usize, frame: u16) -> (u16, [f32; 4]) {
        let (d, p) = (&self.defs[i], self.placed[i]);
        let page = &self.pages[p.page as usize];
        let (fx, fy, fw, fh) = d.frame_rect(u32::from(frame));
        let (pw, ph) = (page.width as f32, page.height as f32);
        // Smooth sheets sample half a texel inside each frame, so neighbours never bleed in.
        let inset = if d.filter == Filter::Linear && d.frames() > 1 {
            0.5
        } else {
            0.0
        };
        let u = (p.x + fx) as f32 + inset;
        let v = (p.y + fy) as f32 + inset;
        let du = fw as f32 - 2.0 * inset;
        let dv = fh as f32 - 2.0 * inset;
        (p.page, [u / pw, v / ph, du / pw, dv / ph])
    }
}

/// For each image, the first image of the same file and filter (itself where it is the
/// first): the one packed for both.
fn sharing(defs: &[ImageDef]) -> Vec<usize> {
    let mut first: HashMap<(&str, bool), usize> = HashMap::new();
    defs.iter()
        .enumerate()
        .map(|(i, d)| {
            *first
                .entry((d.file.as_str(), d.filter == Filter::Linear))
                .or_insert(i)
        })
        .collect()
}

/// An image's size as packed: at most a page's side less its border.
fn packed_size(d: &ImageDef) -> (u32, u32) {
    (
        d.width.min(PAGE_MAX - 2 * PAD),
        d.height.min(PAGE_MAX - 2 * PAD),
    )
}

/// Where each image lies (an image sharing another's file, where that one does) and the
/// shelves of each page, placing the images tallest first.
fn place(defs: &[ImageDef], same: &[usize]) -> (Vec<Placed>, Vec<Shelves>) {
    let mut order: Vec<usize> = (0..defs.len()).filter(|&i| same[i] == i).collect();
    // Tallest first, then widest, then by id: the same layout every run.
    order.sort_by_key(|&i| {
        let d = &defs[i];
        (std::cmp::Reverse(d.height), std::cmp::Reverse(d.width), i)
    });
    let mut shelves: Vec<Shelves> = Vec::new();
    let mut placed = vec![
        Placed {
            page: 0,
            x: 0,
            y: 0
        };
        defs.len()
    ];
    for i in order {
        let d = &defs[i];
        let (w, h) = packed_size(d);
        let page = match shelves.iter_mut().enumerate().find_map(|(p, s)| {
            (s.filter == d.filter)
                .then(|| s.fit(w, h).map(|at| (p, at)))
                .flatten()
        }) {
            Some((p, (x, y))) => (p, x, y),
            None => {
                let mut s = Shelves::new(d.filter);
                let (x, y) = s
                    .fit(w, h)
                    .expect("an empty page fits any image up to its size");
                shelves.push(s);
                (shelves.len() - 1, x, y)
            }
        };
        placed[i] = Placed {
            page: page.0 as u16,
            x: page.1 + PAD,
            y: page.2 + PAD,
        };
    }
    for (i, &f) in same.iter().enumerate() {
        placed[i] = placed[f];
    }
    (placed, shelves)
}

/// The pages' pixels: each packed image (or its checkerboard) where it was placed, with its
/// border.
fn paint(
    defs: &[ImageDef],
    pixels: &[Option<Rc<Pixels>>],
    same: &[usize],
    placed: &[Placed],
    shelves: &[Shelves],
) -> Vec<Page> {
    let mut pages: Vec<Page> = shelves
        .iter()
        .map(|s| {
            let (width, height) = (
                s.used_width().next_power_of_two(),
                s.used_height().next_power_of_two(),
            );
            Page {
                width,
                height,
                filter: s.filter,
                rgba: vec![0; (width * height * 4) as usize],
            }
        })
        .collect();
    for (i, d) in defs.iter().enumerate().filter(|&(i, _)| same[i] == i) {
        let p = placed[i];
        let page = &mut pages[p.page as usize];
        let (w, h) = packed_size(d);
        let texel = |x: u32, y: u32| -> [u8; 4] {
            match pixels.get(i).and_then(Option::as_deref) {
                Some((pw, ph, px)) if u32::from(*pw) == d.width && u32::from(*ph) == d.height => {
                    let o = ((y * d.width + x) * 4) as usize;
                    [px[o], px[o + 1], px[o + 2], px[o + 3]]
                }
                _ => checker(x, y),
            }
        };
        // The image and its border: each border texel copies the nearest edge texel.
        for y in 0..h + 2 * PAD {
            let sy = y.saturating_sub(PAD).min(h - 1);
            let row = ((p.y - PAD + y) * page.width) as usize;
            for x in 0..w + 2 * PAD {
                let sx = x.saturating_sub(PAD).min(w - 1);
                let o = (row + (p.x - PAD + x) as usize) * 4;
                page.rgba[o..o + 4].copy_from_slice(&texel(sx, sy));
            }
        }
    }
    pages
}

/// Magenta and dark squares of 4 texels: the stand-in for an image that could not be decoded.
fn checker(x: u32, y: u32) -> [u8; 4] {
    if (x / 4 + y / 4).is_multiple_of(2) {
        [230, 0, 200, 255]
    } else {
        [30, 30, 30, 255]
    }
}

/// Rows of one page being filled.
struct Shelves {
    filter: Filter,
    /// `(y, height, x of the next free texel)` of each shelf.
    rows: Vec<(u32, u32, u32)>,
    widest: u32,
}

impl Shelves {
    fn new(filter: Filter) -> Shelves {
        Shelves {
            filter,
            rows: Vec::new(),
            widest: 1,
        }
    }

    /// Where a `w` x `h` image (plus border) goes, if it fits this page.
    fn fit(&mut self, w: u32, h: u32) -> Option<(u32, u32)> {
        let (w, h) = (w + 2 * PAD, h + 2 * PAD);
        for row in &mut self.rows {
            if h <= row.1 && row.2 + w <= PAGE_MAX {
                let at = (row.2, row.0);
                row.2 += w;
                self.widest = self.widest.max(row.2);
                return Some(at);
            }
        }
        let y = self.used_height_exact();
        if y + h > PAGE_MAX {
            return None;
        }
        self.rows.push((y, h, w));
        self.widest = self.widest.max(w);
        Some((0, y))
    }

    fn used_height_exact(&self) -> u32 {
        self.rows.last().map_or(0, |r| r.0 + r.1)
    }

    fn used_height(&self) -> u32 {
        self.used_height_exact().max(1)
    }

    fn used_width(&self) -> u32 {
        self.widest
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn solid(w: u16, h: u16, c: [u8; 4]) -> Option<Rc<Pixels>> {
        Some(Rc::new((w, h, c.repeat(usize::from(w) * usize::from(h)))))
    }

    fn texel(page: &Page, x: u32, y: u32) -> [u8; 4] {
        let o = ((y * page.width + x) * 4) as usize;
        page.rgba[o..o + 4].try_into().unwrap()
    }

    #[test]
    fn images_keep_their_pixels_and_borders_and_never_overlap() {
        let mut defs = vec![
            ImageDef::whole("a", "a.png", 30, 10),
            ImageDef::whole("b", "b.png", 8, 40),
            ImageDef::whole("c", "c.png", 3, 3),
        ];
        defs[2].filter = Filter::Nearest;
        let px = [
            solid(30, 10, [255, 0, 0, 255]),
            solid(8, 40, [0, 255, 0, 255]),
            solid(3, 3, [0, 0, 255, 255]),
        ];
        let atlas = Atlas::pack(&defs, &px);
        // One smooth page and one blocky page.
        assert_eq!(atlas.pages.len(), 2);
        assert_eq!(atlas.placed[2].page, 1);
        let colors = [[255, 0, 0, 255], [0, 255, 0, 255], [0, 0, 255, 255]];
        let mut rects = Vec::new();
        for (i, d) in defs.iter().enumerate() {
            let p = atlas.placed[i];
            let page = &atlas.pages[p.page as usize];
            // Every texel of the image and of its border is the image's colour.
            for y in p.y - 1..p.y + d.height + 1 {
                for x in p.x - 1..p.x + d.width + 1 {
                    assert_eq!(texel(page, x, y), colors[i], "image {i} at {x},{y}");
                }
            }
            rects.push((p.page, p.x - 1, p.y - 1, d.width + 2, d.height + 2));
        }
        for (i, a) in rects.iter().enumerate() {
            for b in &rects[i + 1..] {
                let apart = a.0 != b.0
                    || a.1 + a.3 <= b.1
                    || b.1 + b.3 <= a.1
                    || a.2 + a.4 <= b.2
                    || b.2 + b.4 <= a.2;
                assert!(apart, "{a:?} overlaps {b:?}");
            }
        }
    }

    #[test]
    fn frames_map_to_their_rectangles_and_flip() {
        let mut sheet = ImageDef::whole("s", "s.png", 32, 16);
        sheet.frame = (8, 8);
        sheet.filter = Filter::Nearest;
        let atlas = Atlas::pack(&[sheet], &[None]);
        let page = &atlas.pages[0];
        let (pw, ph) = (page.width as f32, page.height as f32);
        let p = atlas.placed[0];
        // Frame 5: second row, second column.
        let (pg, uv) = atlas.uv(0, 5, false, false).unwrap();
        assert_eq!(pg, 0);
        assert_eq!(
            uv,
            [
                (p.x + 8) as f32 / pw,
                (p.y + 8) as f32 / ph,
                8.0 / pw,
                8.0 / ph
            ]
        );
        let (_, flipped) = atlas.uv(0, 5, true, false).unwrap();
        assert_eq!(flipped, [uv[0] + uv[2], uv[1], -uv[2], uv[3]]);
        let (_, upside_down) = atlas.uv(0, 5, false, true).unwrap();
        assert_eq!(upside_down, [uv[0], uv[1] + uv[3], uv[2], -uv[3]]);
        let (_, both) = atlas.uv(0, 5, true, true).unwrap();
        assert_eq!(both, [uv[0] + uv[2], uv[1] + uv[3], -uv[2], -uv[3]]);
        // Past the last frame: the last frame.
        assert_eq!(atlas.uv(0, 99, false, false), atlas.uv(0, 7, false, false));
        assert_eq!(atlas.uv(1, 0, false, false), None);
        // Undecodable pixels: the checkerboard, not nothing.
        assert_eq!(texel(page, p.x, p.y), [230, 0, 200, 255]);
        assert_eq!(texel(page, p.x + 4, p.y), [30, 30, 30, 255]);
    }

    #[test]
    fn images_that_outgrow_a_page_open_another() {
        let defs: Vec<ImageDef> = (0..5)
            .map(|i| ImageDef::whole(&format!("i{i}"), &format!("i{i}.png"), 2000, 2000))
            .collect();
        let atlas = Atlas::pack(&defs, &vec![None; 5]);
        // Four 2002-texel squares cannot share a 4096 page: two per page side by side at most.
        assert!(atlas.pages.len() >= 2);
        assert!(
            atlas
                .pages
                .iter()
                .all(|p| p.width <= PAGE_MAX && p.height <= PAGE_MAX)
        );
    }

    #[test]
    fn images_of_one_file_and_filter_are_packed_once() {
        let mut defs: Vec<ImageDef> = (0..200)
            .map(|i| ImageDef::whole(&format!("i{i}"), "one.png", 2000, 2000))
            .collect();
        defs[199].filter = Filter::Nearest;
        let px = solid(2000, 2000, [9, 9, 9, 255]);
        let pixels: Vec<Option<Rc<Pixels>>> = vec![px; defs.len()];
        let atlas = Atlas::pack(&defs, &pixels);
        // One place for the smooth ones, one for the blocky one: a page each.
        assert_eq!(atlas.pages.len(), 2);
        assert!(atlas.placed[..199].iter().all(|p| *p == atlas.placed[0]));
        assert_ne!(atlas.placed[199].page, atlas.placed[0].page);
        assert_eq!(atlas.uv(150, 0, false, false), atlas.uv(0, 0, false, false));
    }
}
