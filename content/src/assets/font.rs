//! TrueType and OpenType fonts, loaded for the characters Ludus draws ([`FONT_CHARS`]).
//!
//! The rasteriser (fontdue) does work in proportion to what a font's tables declare, not to
//! the file's size: it walks every code point of every character map range (a range may cover
//! all 2^32 codes), expands a kerning class table into every pair of glyphs (2^32 entries),
//! outlines every glyph the map names, following composite parts and subroutines as deep as
//! they go, and splits every curve into lines. So before fontdue sees a font:
//! - its character map is read here only for [`FONT_CHARS`] (a lookup each), and fontdue is
//!   given a copy whose map lists just those, with no kerning or substitution tables (Ludus
//!   uses neither);
//! - the outlines of those glyphs are measured: their points from the composite structure
//!   before any is outlined (`glyf`), or the charstring steps they take (CFF, `charstring`), then the
//!   lines fontdue would make of them and how far they reach, each against the limits below.

use super::{charstring, glyf};
use ttf_parser::{Face, GlyphId, OutlineBuilder, Tag};

/// The characters a font file is loaded for: printable ASCII and the printable Latin-1
/// supplement.
pub const FONT_CHARS: [std::ops::RangeInclusive<char>; 2] = [' '..='~', '\u{a0}'..='\u{ff}'];

/// The most points one glyph's outline may visit.
pub(crate) const MAX_GLYPH_POINTS: u64 = 1 << 16;
/// The most points, or charstring steps, outlining every glyph of a font may take.
pub(crate) const MAX_OUTLINE_POINTS: u64 = 1 << 20;
/// The most lines the rasteriser may make of a font's outlines (64 bytes each).
pub(crate) const MAX_LINES: u64 = 1 << 20;
/// How far an outline may reach from the origin, in ems.
pub(crate) const MAX_EMS: f32 = 16.0;
/// The most character map subtables read.
pub(crate) const MAX_SUBTABLES: usize = 64;
/// The rasteriser's default scale (pixels per em its curves are split for).
const RASTER_SCALE: f32 = 40.0;

/// Loads a font file for [`FONT_CHARS`], or says why it cannot be.
pub fn load_font(bytes: &[u8]) -> Result<fontdue::Font, String> {
    load(bytes).map(|(font, _)| font)
}

/// Bytes the rasteriser keeps of a glyph, and of each line of an outline.
const GLYPH_BYTES: u64 = 96;
const LINE_BYTES: u64 = 64;

/// [`load_font`], with the bytes the loaded font holds (its glyphs and their lines).
pub(crate) fn load(bytes: &[u8]) -> Result<(fontdue::Font, u64), String> {
    const SIGNATURES: [&[u8]; 4] = [b"\x00\x01\x00\x00", b"true", b"OTTO", b"ttcf"];
    if !SIGNATURES.iter().any(|s| bytes.starts_with(s)) {
        return Err("it does not start with a TrueType or OpenType signature".into());
    }
    let face = Face::parse(bytes, 0).map_err(|e| e.to_string().to_lowercase())?;
    let map = char_map(&face)?;
    let mut glyphs: Vec<u16> = map.iter().map(|(_, g)| *g).collect();
    glyphs.push(0);
    glyphs.sort_unstable();
    glyphs.dedup();
    let steps = if face.tables().glyf.is_some() {
        glyf::points(&face, &glyphs, MAX_GLYPH_POINTS)?
    } else if face.tables().cff.is_some() {
        charstring::steps(&face, &glyphs, MAX_GLYPH_POINTS)?
    } else if face.raw_face().table(Tag::from_bytes(b"CFF2")).is_some() {
        return Err(
            "variable CFF2 outlines are not supported; use a TrueType (glyf) or CFF font".into(),
        );
    } else {
        0
    };
    if steps > MAX_OUTLINE_POINTS {
        return Err(format!(
            "its outlines of the characters Ludus draws take {steps} steps; at most {MAX_OUTLINE_POINTS} are allowed"
        ));
    }
    let lines = measure(&face, &glyphs)?;
    let held = u64::from(face.number_of_glyphs()) * GLYPH_BYTES + lines * LINE_BYTES;
    let copy = subset(bytes, &map)?;
    let settings = fontdue::FontSettings {
        load_substitutions: false,
        ..fontdue::FontSettings::default()
    };
    std::panic::catch_unwind(|| fontdue::Font::from_bytes(copy, settings))
        .unwrap_or(Err("the font parser gave up"))
        .map_err(|e| e.trim_end_matches('.').to_lowercase())
        .map(|font| (font, held))
}

/// Each of [`FONT_CHARS`] the font maps, with its glyph: as fontdue maps it, the last
/// subtable that gives a glyph wins. A lookup in most subtables is a search; a many-to-one
/// subtable (format 13) is read once, its groups in order, rather than once a character.
fn char_map(face: &Face<'_>) -> Result<Vec<(char, u16)>, String> {
    let Some(cmap) = face.tables().cmap else {
        return Ok(Vec::new());
    };
    let n = cmap.subtables.len() as usize;
    if n > MAX_SUBTABLES {
        return Err(format!(
            "its character map has {n} subtables; at most {MAX_SUBTABLES} are read"
        ));
    }
    let chars: Vec<char> = FONT_CHARS.iter().flat_map(|r| r.clone()).collect();
    let mut glyphs: Vec<Option<u16>> = vec![None; chars.len()];
    let raw = face
        .raw_face()
        .table(Tag::from_bytes(b"cmap"))
        .unwrap_or(&[]);
    for (i, t) in cmap.subtables.into_iter().enumerate() {
        if let ttf_parser::cmap::Format::ManyToOneRangeMappings(_) = t.format {
            many_to_one(raw, i, &chars, &mut glyphs);
            continue;
        }
        for (c, glyph) in chars.iter().zip(&mut glyphs) {
            if let Some(g) = t.glyph_index(u32::from(*c)).filter(|g| g.0 != 0) {
                *glyph = Some(g.0);
            }
        }
    }
    Ok(chars
        .into_iter()
        .zip(glyphs)
        .filter_map(|(c, g)| Some((c, g?)))
        .collect())
}

/// The glyphs subtable `index` of the `cmap` table `raw` (format 13: groups of codes mapped to
/// one glyph, the first group holding a code deciding it) gives `chars`, over `glyphs`.
fn many_to_one(raw: &[u8], index: usize, chars: &[char], glyphs: &mut [Option<u16>]) {
    let be32 = |at: usize| {
        raw.get(at..at + 4)
            .map(|b| u32::from_be_bytes([b[0], b[1], b[2], b[3]]) as usize)
    };
    // The record's offset, the group count after the subtable's 12-byte header (the parser
    // read them all already).
    let Some(at) = be32(4 + 8 * index + 4) else {
        return;
    };
    let Some(count) = be32(at + 12) else { return };
    let Some(groups) = raw
        .get(at + 16..)
        .and_then(|g| g.get(..count.checked_mul(12)?))
    else {
        return;
    };
    // The characters no group has decided yet, by code.
    let mut open: std::collections::BTreeMap<u32, usize> = chars
        .iter()
        .enumerate()
        .map(|(i, c)| (u32::from(*c), i))
        .collect();
    for g in groups.chunks_exact(12) {
        if open.is_empty() {
            break;
        }
        let word = |k: usize| u32::from_be_bytes([g[k], g[k + 1], g[k + 2], g[k + 3]]);
        let (start, end, glyph) = (word(0), word(4), word(8));
        if start > end {
            continue;
        }
        let decided: Vec<u32> = open.range(start..=end).map(|(c, _)| *c).collect();
        for c in decided {
            let i = open.remove(&c).unwrap_or(0);
            if let Some(g) = u16::try_from(glyph).ok().filter(|g| *g != 0) {
                glyphs[i] = Some(g);
            }
        }
    }
}

/// Outlines `glyphs` (their cost already bounded) counting the lines fontdue would make and
/// checking how far they reach; the lines made.
fn measure(face: &Face<'_>, glyphs: &[u16]) -> Result<u64, String> {
    let em = f32::from(face.units_per_em());
    let mut m = Measure {
        reach: MAX_EMS * em,
        max_area: 3.0 * 2.0 * (em / RASTER_SCALE),
        lines: 0,
        far: false,
        at: (0.0, 0.0),
        start: (0.0, 0.0),
    };
    for &g in glyphs {
        let _ = face.outline_glyph(GlyphId(g), &mut m);
        if m.far {
            return Err(format!(
                "glyph {g} reaches more than {MAX_EMS} ems from its origin"
            ));
        }
        if m.lines > MAX_LINES {
            return Err(format!(
                "its outlines of the characters Ludus draws make more than {MAX_LINES} lines"
            ));
        }
    }
    Ok(m.lines)
}

/// An outline builder that counts the lines fontdue splits an outline into.
struct Measure {
    reach: f32,
    /// fontdue's flatness threshold, in font units.
    max_area: f32,
    lines: u64,
    far: bool,
    at: (f32, f32),
    start: (f32, f32),
}

impl Measure {
    fn point(&mut self, x: f32, y: f32) {
        if !(x.abs() <= self.reach && y.abs() <= self.reach) {
            self.far = true;
        }
    }

    /// Counts the lines fontdue's subdivision of a curve from `at` to `to` makes (its own
    /// test: halve while the triangle under the midpoint is larger than `max_area`).
    fn curve(&mut self, to: (f32, f32), point: impl Fn(f32) -> (f32, f32)) {
        if self.far || self.lines > MAX_LINES {
            self.lines += 1;
            return;
        }
        let mut stack = vec![(self.at, 0.0f32, to, 1.0f32)];
        while let Some((a, at, c, ct)) = stack.pop() {
            let bt = (at + ct) * 0.5;
            let b = point(bt);
            let area = (b.0 - a.0) * (c.1 - a.1) - (c.0 - a.0) * (b.1 - a.1);
            if area.abs() > self.max_area && self.lines <= MAX_LINES {
                stack.push((a, at, b, bt));
                stack.push((b, bt, c, ct));
            } else {
                self.lines += 1;
            }
        }
    }
}

impl OutlineBuilder for Measure {
    fn move_to(&mut self, x: f32, y: f32) {
        self.point(x, y);
        self.at = (x, y);
        self.start = (x, y);
    }

    fn line_to(&mut self, x: f32, y: f32) {
        self.point(x, y);
        self.lines += 1;
        self.at = (x, y);
    }

    fn quad_to(&mut self, x1: f32, y1: f32, x: f32, y: f32) {
        self.point(x1, y1);
        self.point(x, y);
        let a = self.at;
        self.curve((x, y), |t| {
            let u = 1.0 - t;
            (
                u * u * a.0 + 2.0 * u * t * x1 + t * t * x,
                u * u * a.1 + 2.0 * u * t * y1 + t * t * y,
            )
        });
        self.at = (x, y);
    }

    fn curve_to(&mut self, x1: f32, y1: f32, x2: f32, y2: f32, x: f32, y: f32) {
        self.point(x1, y1);
        self.point(x2, y2);
        self.point(x, y);
        let a = self.at;
        self.curve((x, y), |t| {
            let u = 1.0 - t;
            let (k0, k1, k2, k3) = (u * u * u, 3.0 * u * u * t, 3.0 * u * t * t, t * t * t);
            (
                k0 * a.0 + k1 * x1 + k2 * x2 + k3 * x,
                k0 * a.1 + k1 * y1 + k2 * y2 + k3 * y,
            )
        });
        self.at = (x, y);
    }

    fn close(&mut self) {
        self.lines += 1;
        self.at = self.start;
    }
}

/// A copy of the font whose character map lists only `map`, with its kerning and glyph
/// substitution tables emptied: the new map is appended, and the table directory of the first
/// font in the file pointed at it.
fn subset(bytes: &[u8], map: &[(char, u16)]) -> Result<Vec<u8>, String> {
    let be16 = |i: usize| {
        bytes
            .get(i..i + 2)
            .map(|b| u16::from_be_bytes([b[0], b[1]]))
    };
    let be32 = |i: usize| {
        bytes
            .get(i..i + 4)
            .map(|b| u32::from_be_bytes([b[0], b[1], b[2], b[3]]))
    };
    let damaged = || "its table directory is damaged".to_string();
    let dir = if bytes.starts_with(b"ttcf") {
        be32(12).ok_or_else(damaged)? as usize
    } else {
        0
    };
    let tables = usize::from(be16(dir + 4).ok_or_else(damaged)?);
    let mut copy = bytes.to_vec();
    while !copy.len().is_multiple_of(4) {
        copy.push(0);
    }
    let cmap_at = copy.len() as u32;
    let cmap = char_map_table(map);
    copy.extend_from_slice(&cmap);
    for i in 0..tables {
        let record = dir + 12 + 16 * i;
        let tag = bytes.get(record..record + 16).ok_or_else(damaged)?;
        let tag = &tag[..4];
        let (offset, length) = (record + 8, record + 12);
        match tag {
            b"cmap" => {
                copy[offset..offset + 4].copy_from_slice(&cmap_at.to_be_bytes());
                copy[length..length + 4].copy_from_slice(&(cmap.len() as u32).to_be_bytes());
            }
            b"kern" | b"GSUB" => copy[length..length + 4].copy_from_slice(&[0; 4]),
            _ => {}
        }
    }
    Ok(copy)
}

/// A character map of one Unicode subtable (format 4) mapping each of `map`.
fn char_map_table(map: &[(char, u16)]) -> Vec<u8> {
    // One segment per character, then the closing 0xFFFF segment.
    let mut segments: Vec<(u16, u16)> = map.iter().map(|&(c, g)| (c as u16, g)).collect();
    segments.push((0xFFFF, 0));
    let n = segments.len() as u16;
    let mut sub = Vec::new();
    let put = |v: &mut Vec<u8>, x: u16| v.extend_from_slice(&x.to_be_bytes());
    put(&mut sub, 4);
    put(&mut sub, 16 + 8 * n);
    put(&mut sub, 0);
    put(&mut sub, 2 * n);
    let search = 2 * (1u16 << (15 - n.leading_zeros()));
    put(&mut sub, search);
    put(&mut sub, 15 - n.leading_zeros() as u16);
    put(&mut sub, 2 * n - search);
    segments.iter().for_each(|s| put(&mut sub, s.0));
    put(&mut sub, 0);
    segments.iter().for_each(|s| put(&mut sub, s.0));
    // The glyph is the character plus the delta, modulo 65536.
    segments.iter().for_each(|s| {
        put(
            &mut sub,
            if s.0 == 0xFFFF {
                1
            } else {
                s.1.wrapping_sub(s.0)
            },
        )
    });
    segments.iter().for_each(|_| put(&mut sub, 0));
    let mut table = Vec::new();
    put(&mut table, 0);
    put(&mut table, 1);
    put(&mut table, 3);
    put(&mut table, 1);
    table.extend_from_slice(&12u32.to_be_bytes());
    table.extend_from_slice(&sub);
    table
}
