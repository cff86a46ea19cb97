//! TrueType outlines (`glyf`): how many points outlining a glyph visits, from its composite
//! structure alone, before any outline is drawn.
//!
//! A composite glyph places other glyphs, which may be composites too: the outliner follows
//! every reference, so ten glyphs of ten parts each are 10^10 visits from a few hundred bytes,
//! and a glyph that contains itself never ends before the outliner's depth limit. Here each
//! glyph's total is computed once (a walk of the references without recursion), and a cycle is
//! an error.

use ttf_parser::{Face, GlyphId, Tag};

/// The points outlining `glyphs` visits, each glyph's at most `per_glyph`; an error names the
/// first glyph past it, or one that contains itself.
pub(crate) fn points(face: &Face<'_>, glyphs: &[u16], per_glyph: u64) -> Result<u64, String> {
    let raw = face.raw_face();
    let (Some(loca), Some(glyf)) = (
        raw.table(Tag::from_bytes(b"loca")),
        raw.table(Tag::from_bytes(b"glyf")),
    ) else {
        return Ok(0);
    };
    let tables = face.tables();
    let Some(loca) = ttf_parser::loca::Table::parse(
        tables.maxp.number_of_glyphs,
        tables.head.index_to_location_format,
        loca,
    ) else {
        return Ok(0);
    };
    let data = |g: u16| {
        loca.glyph_range(GlyphId(g))
            .and_then(|r| glyf.get(r))
            .unwrap_or(&[])
    };
    // Per glyph: 0 not seen, 1 being summed, 2 summed into `total`.
    let count = usize::from(tables.maxp.number_of_glyphs.get());
    let mut state = vec![0u8; count];
    let mut total = vec![0u64; count];
    let mut sum = 0u64;
    for &root in glyphs {
        if usize::from(root) >= count {
            continue;
        }
        // Depth-first, children before their parent: (glyph, children pushed).
        let mut stack = vec![(root, false)];
        while let Some((g, expanded)) = stack.pop() {
            let i = usize::from(g);
            match (state[i], expanded) {
                (2, _) => continue,
                (1, false) => {
                    return Err(format!("glyph {g} is built from itself"));
                }
                (_, false) => {
                    state[i] = 1;
                    stack.push((g, true));
                    for part in parts(data(g)) {
                        match state.get(usize::from(part)) {
                            Some(1) => return Err(format!("glyph {g} is built from itself")),
                            Some(0) => stack.push((part, false)),
                            _ => {}
                        }
                    }
                }
                (_, true) => {
                    let own = own_points(data(g));
                    let parts: u64 = parts(data(g))
                        .filter_map(|p| total.get(usize::from(p)))
                        .fold(0u64, |a, b| a.saturating_add(*b));
                    total[i] = own.saturating_add(parts);
                    state[i] = 2;
                    if total[i] > per_glyph {
                        return Err(format!(
                            "glyph {g} takes {} points to outline; at most {per_glyph} are allowed",
                            total[i]
                        ));
                    }
                }
            }
        }
        sum = sum.saturating_add(total[usize::from(root)]);
    }
    Ok(sum)
}

/// A glyph's own points, plus one for the glyph itself: a simple glyph's contours' points; for
/// a composite, one per part.
fn own_points(data: &[u8]) -> u64 {
    let Some(contours) = data.get(..2).map(|b| i16::from_be_bytes([b[0], b[1]])) else {
        return 1;
    };
    if contours < 0 {
        return 1 + parts(data).count() as u64;
    }
    // The last contour's last point number, after the 10-byte header.
    let n = contours as usize;
    let last = data
        .get(10 + 2 * n.saturating_sub(1)..10 + 2 * n)
        .filter(|_| n > 0)
        .map_or(0, |b| u64::from(u16::from_be_bytes([b[0], b[1]])) + 1);
    1 + last + n as u64
}

/// The glyphs a composite glyph places, in order (none for a simple glyph), read as far as the
/// data goes, as the outliner reads them.
fn parts(data: &[u8]) -> impl Iterator<Item = u16> + '_ {
    const ARGS_ARE_WORDS: u16 = 0x0001;
    const SCALE: u16 = 0x0008;
    const MORE: u16 = 0x0020;
    const X_AND_Y_SCALE: u16 = 0x0040;
    const TWO_BY_TWO: u16 = 0x0080;
    let composite = data.get(..2).is_some_and(|b| b[0] & 0x80 != 0);
    let mut at = if composite { Some(10usize) } else { None };
    std::iter::from_fn(move || {
        let i = at?;
        let b = data.get(i..i + 4)?;
        let flags = u16::from_be_bytes([b[0], b[1]]);
        let glyph = u16::from_be_bytes([b[2], b[3]]);
        let mut next = i + 4 + if flags & ARGS_ARE_WORDS != 0 { 4 } else { 2 };
        next += if flags & SCALE != 0 {
            2
        } else if flags & X_AND_Y_SCALE != 0 {
            4
        } else if flags & TWO_BY_TWO != 0 {
            8
        } else {
            0
        };
        at = (flags & MORE != 0 && next <= data.len()).then_some(next);
        // The outliner reads the whole record before using it.
        (next <= data.len()).then_some(glyph)
    })
}
