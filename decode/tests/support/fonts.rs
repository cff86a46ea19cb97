//! Small TrueType (`glyf`) and OpenType (CFF) fonts built in tests, valid or with tables that
//! declare far more work than their size. Shared by the decoders' tests, the loader's and the
//! command line's (through `#[path]`).

#![allow(dead_code)]

/// The bundled font padded to `size` bytes (unreferenced bytes after its tables).
pub fn padded_font(size: usize) -> Vec<u8> {
    let mut font = dejavu();
    font.resize(size, 0);
    font
}

/// The bundled font (DejaVu Sans Mono).
pub fn dejavu() -> Vec<u8> {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let here = root.join("assets/fonts/DejaVuSansMono.ttf");
    std::fs::read(if here.exists() {
        here
    } else {
        root.join("../assets/fonts/DejaVuSansMono.ttf")
    })
    .unwrap()
}

/// One glyph of a `glyf` table.
#[derive(Clone, Debug)]
pub enum Glyph {
    /// A closed outline through these points (on the curve).
    Simple(Vec<(i16, i16)>),
    /// Other glyphs placed at no offset.
    Composite(Vec<u16>),
    /// No outline.
    Empty,
}

fn be16(v: &mut Vec<u8>, x: u16) {
    v.extend_from_slice(&x.to_be_bytes());
}

fn be32(v: &mut Vec<u8>, x: u32) {
    v.extend_from_slice(&x.to_be_bytes());
}

/// A font file of `tables` (tag, data) with `version` (`0x00010000` TrueType, `OTTO` CFF).
pub fn sfnt(version: &[u8; 4], mut tables: Vec<(&[u8; 4], Vec<u8>)>) -> Vec<u8> {
    tables.sort_by_key(|t| *t.0);
    let mut out = version.to_vec();
    be16(&mut out, tables.len() as u16);
    out.extend_from_slice(&[0; 6]);
    let at = 12 + 16 * tables.len();
    let mut data = Vec::new();
    for (tag, t) in &tables {
        out.extend_from_slice(*tag);
        be32(&mut out, 0);
        be32(&mut out, (at + data.len()) as u32);
        be32(&mut out, t.len() as u32);
        data.extend_from_slice(t);
        while !data.len().is_multiple_of(4) {
            data.push(0);
        }
    }
    out.extend_from_slice(&data);
    out
}

/// `head`, `hhea`, `maxp` and `hmtx` of `glyphs` glyphs at `upem` units per em.
pub fn font_tables(glyphs: u16, upem: u16) -> Vec<(&'static [u8; 4], Vec<u8>)> {
    let mut head = Vec::new();
    be32(&mut head, 0x0001_0000);
    be32(&mut head, 0x0001_0000);
    be32(&mut head, 0);
    be32(&mut head, 0x5F0F_3CF5);
    be16(&mut head, 0);
    be16(&mut head, upem);
    head.extend_from_slice(&[0; 16]);
    head.extend_from_slice(&[0; 8]);
    be16(&mut head, 0);
    be16(&mut head, 8);
    be16(&mut head, 2);
    be16(&mut head, 1); // long offsets in `loca`
    be16(&mut head, 0);
    let mut hhea = Vec::new();
    be32(&mut hhea, 0x0001_0000);
    for v in [
        800u16,
        (-200i16) as u16,
        0,
        1000,
        0,
        0,
        0,
        1,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
    ] {
        be16(&mut hhea, v);
    }
    be16(&mut hhea, glyphs);
    let mut maxp = Vec::new();
    be32(&mut maxp, 0x0000_5000);
    be16(&mut maxp, glyphs);
    let mut hmtx = Vec::new();
    for _ in 0..glyphs {
        be16(&mut hmtx, 500);
        be16(&mut hmtx, 0);
    }
    vec![
        (b"head", head),
        (b"hhea", hhea),
        (b"maxp", maxp),
        (b"hmtx", hmtx),
    ]
}

/// A character map (format 4) of `map`, sorted by character.
pub fn cmap4(map: &[(char, u16)]) -> Vec<u8> {
    let mut segs: Vec<(u16, u16)> = map.iter().map(|&(c, g)| (c as u16, g)).collect();
    segs.push((0xFFFF, 0));
    let n = segs.len() as u16;
    let mut sub = Vec::new();
    for v in [4, 16 + 8 * n, 0, 2 * n, 2, 0, 2 * n - 2] {
        be16(&mut sub, v);
    }
    segs.iter().for_each(|s| be16(&mut sub, s.0));
    be16(&mut sub, 0);
    segs.iter().for_each(|s| be16(&mut sub, s.0));
    segs.iter().for_each(|s| {
        be16(
            &mut sub,
            if s.0 == 0xFFFF {
                1
            } else {
                s.1.wrapping_sub(s.0)
            },
        )
    });
    segs.iter().for_each(|_| be16(&mut sub, 0));
    cmap_of(&[(3, 1, sub)])
}

/// A character map (format 12) of groups `(first code, last code, first glyph)`.
pub fn cmap12(groups: &[(u32, u32, u32)]) -> Vec<u8> {
    let mut sub = Vec::new();
    be16(&mut sub, 12);
    be16(&mut sub, 0);
    be32(&mut sub, 16 + 12 * groups.len() as u32);
    be32(&mut sub, 0);
    be32(&mut sub, groups.len() as u32);
    for g in groups {
        be32(&mut sub, g.0);
        be32(&mut sub, g.1);
        be32(&mut sub, g.2);
    }
    cmap_of(&[(3, 10, sub)])
}

/// A character map whose `records` subtable records all point at one format 13 subtable of
/// `groups` (`(first code, last code, glyph)`).
pub fn cmap13_shared(records: u16, groups: &[(u32, u32, u32)]) -> Vec<u8> {
    let mut sub = Vec::new();
    be16(&mut sub, 13);
    be16(&mut sub, 0);
    be32(&mut sub, 16 + 12 * groups.len() as u32);
    be32(&mut sub, 0);
    be32(&mut sub, groups.len() as u32);
    for g in groups {
        be32(&mut sub, g.0);
        be32(&mut sub, g.1);
        be32(&mut sub, g.2);
    }
    let mut t = Vec::new();
    be16(&mut t, 0);
    be16(&mut t, records);
    let at = 4 + 8 * u32::from(records);
    for _ in 0..records {
        be16(&mut t, 3);
        be16(&mut t, 10);
        be32(&mut t, at);
    }
    t.extend_from_slice(&sub);
    t
}

/// A `cmap` table of subtables `(platform, encoding, data)`.
pub fn cmap_of(subtables: &[(u16, u16, Vec<u8>)]) -> Vec<u8> {
    let mut t = Vec::new();
    be16(&mut t, 0);
    be16(&mut t, subtables.len() as u16);
    let mut at = 4 + 8 * subtables.len();
    for (p, e, data) in subtables {
        be16(&mut t, *p);
        be16(&mut t, *e);
        be32(&mut t, at as u32);
        at += data.len();
    }
    for (_, _, data) in subtables {
        t.extend_from_slice(data);
    }
    t
}

/// A TrueType font of `glyphs` (glyph 0 first) whose character map is `cmap`.
pub fn truetype(glyphs: &[Glyph], upem: u16, cmap: Vec<u8>) -> Vec<u8> {
    truetype_with(glyphs, upem, cmap, Vec::new())
}

/// [`truetype`] with `extra` tables.
pub fn truetype_with(
    glyphs: &[Glyph],
    upem: u16,
    cmap: Vec<u8>,
    extra: Vec<(&'static [u8; 4], Vec<u8>)>,
) -> Vec<u8> {
    let mut glyf = Vec::new();
    let mut loca = Vec::new();
    for g in glyphs {
        be32(&mut loca, glyf.len() as u32);
        match g {
            Glyph::Simple(points) => {
                be16(&mut glyf, 1);
                glyf.extend_from_slice(&[0; 8]);
                be16(&mut glyf, points.len() as u16 - 1);
                be16(&mut glyf, 0);
                glyf.extend(std::iter::repeat_n(1u8, points.len()));
                let mut prev = (0i16, 0i16);
                let mut ys = Vec::new();
                for &(x, y) in points {
                    be16(&mut glyf, x.wrapping_sub(prev.0) as u16);
                    be16(&mut ys, y.wrapping_sub(prev.1) as u16);
                    prev = (x, y);
                }
                glyf.extend_from_slice(&ys);
            }
            Glyph::Empty => {}
            Glyph::Composite(parts) => {
                be16(&mut glyf, 0xFFFF);
                glyf.extend_from_slice(&[0; 8]);
                for (i, &p) in parts.iter().enumerate() {
                    let more = if i + 1 < parts.len() { 0x20 } else { 0 };
                    be16(&mut glyf, 0x0001 | 0x0002 | more);
                    be16(&mut glyf, p);
                    be32(&mut glyf, 0);
                }
            }
        }
        while !glyf.len().is_multiple_of(4) {
            glyf.push(0);
        }
    }
    be32(&mut loca, glyf.len() as u32);
    let mut tables = font_tables(glyphs.len() as u16, upem);
    tables.push((b"glyf", glyf));
    tables.push((b"loca", loca));
    tables.push((b"cmap", cmap));
    tables.extend(extra);
    sfnt(&[0, 1, 0, 0], tables)
}

/// A square glyph of side `s` from the origin.
pub fn square(s: i16) -> Glyph {
    Glyph::Simple(vec![(0, 0), (s, 0), (s, s), (0, s)])
}

/// A CFF INDEX of `items`.
pub fn cff_index(items: &[Vec<u8>]) -> Vec<u8> {
    let mut out = Vec::new();
    be16(&mut out, items.len() as u16);
    if items.is_empty() {
        return out;
    }
    out.push(4);
    let mut at = 1u32;
    be32(&mut out, at);
    for i in items {
        at += i.len() as u32;
        be32(&mut out, at);
    }
    for i in items {
        out.extend_from_slice(i);
    }
    out
}

/// A charstring or DICT integer (5-byte form in a DICT, `28 i16` in a charstring).
fn dict_int(v: i32) -> Vec<u8> {
    let mut out = vec![29];
    out.extend_from_slice(&v.to_be_bytes());
    out
}

/// A CFF table: `charstrings` (glyph 0 first) and global subroutines `gsubrs`.
pub fn cff(charstrings: &[Vec<u8>], gsubrs: &[Vec<u8>]) -> Vec<u8> {
    let header = vec![1, 0, 4, 4];
    let names = cff_index(&[b"Test".to_vec()]);
    let strings = cff_index(&[]);
    let globals = cff_index(gsubrs);
    // The Top DICT's size does not depend on the offset's value (5-byte integers).
    let top_len = cff_index(&[[dict_int(0), vec![17]].concat()]).len();
    let at = header.len() + names.len() + top_len + strings.len() + globals.len();
    let top = cff_index(&[[dict_int(at as i32), vec![17]].concat()]);
    [header, names, top, strings, globals, cff_index(charstrings)].concat()
}

/// An OpenType (CFF) font of `charstrings` and `gsubrs` whose map sends `A` to glyph 1.
pub fn opentype(charstrings: &[Vec<u8>], gsubrs: &[Vec<u8>]) -> Vec<u8> {
    let mut tables = font_tables(charstrings.len() as u16, 1000);
    tables.push((b"CFF ", cff(charstrings, gsubrs)));
    tables.push((b"cmap", cmap4(&[('A', 1)])));
    sfnt(b"OTTO", tables)
}

/// A charstring pushing `v` (a small integer).
pub fn cs_int(v: i32) -> Vec<u8> {
    if (-107..=107).contains(&v) {
        vec![(v + 139) as u8]
    } else {
        let mut out = vec![28];
        out.extend_from_slice(&(v as i16).to_be_bytes());
        out
    }
}

/// A font whose `A` is a tower of composite glyphs: glyph 1 places glyph 2 ten times, and so
/// on to glyph 10, a square: 10^9 parts from a few hundred bytes.
pub fn composite_tower() -> Vec<u8> {
    let mut glyphs = vec![square(10)];
    glyphs.extend((2..=10u16).map(|g| Glyph::Composite(vec![g; 10])));
    glyphs.push(square(100));
    truetype(&glyphs, 1000, cmap4(&[('A', 1)]))
}

/// A CFF font whose `A` calls a global subroutine that calls the next 20 times, nine deep:
/// 20^9 calls, none of them drawing.
pub fn cff_bomb() -> Vec<u8> {
    let bias = 107;
    let mut gsubrs: Vec<Vec<u8>> = (0..8)
        .map(|i| {
            let call = [cs_int(i + 1 - bias), vec![29]].concat();
            [call.repeat(20), vec![11]].concat()
        })
        .collect();
    gsubrs.push(vec![11]);
    opentype(
        &[vec![14], [cs_int(-bias), vec![29], vec![14]].concat()],
        &gsubrs,
    )
}

/// A CFF font whose `A` is a triangle drawn partly by a global subroutine.
pub fn cff_triangle() -> Vec<u8> {
    let bias = 107;
    let glyph = [
        cs_int(0),
        cs_int(0),
        vec![21],
        cs_int(500),
        vec![6],
        cs_int(-bias),
        vec![29],
        vec![14],
    ]
    .concat();
    opentype(
        &[vec![14], glyph],
        &[[cs_int(500), vec![7], vec![11]].concat()],
    )
}

/// A font with a kerning class table of 65535 glyphs (2^32 pairs once expanded).
pub fn kern_bomb() -> Vec<u8> {
    let classes = 65_535usize;
    let mut kern = vec![0, 1, 0, 0, 0, 0, 0, 1];
    kern.extend_from_slice(&((16 + 2 * classes + 1) as u32).to_be_bytes());
    kern.extend_from_slice(&[0, 3, 0, 0]);
    kern.extend_from_slice(&[0xff, 0xff, 1, 1, 1, 0, 0, 5]);
    kern.extend(std::iter::repeat_n(0u8, 2 * classes + 1));
    truetype_with(
        &[square(10), square(500)],
        1000,
        cmap4(&[('A', 1)]),
        vec![(b"kern", kern)],
    )
}
