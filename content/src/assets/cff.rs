//! CFF tables (`CFF `): the INDEX, DICT and charset structures a glyph's charstring run
//! reads (see `charstring` for the run and why it is made). A table this reader cannot follow
//! where the outliner can is refused.

/// The outliner's subroutine nesting limit and argument stack size.
pub(super) const DEPTH_LIMIT: u8 = 10;
pub(super) const MAX_ARGS: usize = 48;
/// The most operands a DICT entry keeps.
const MAX_OPERANDS: usize = 48;

/// A CFF INDEX: `count` byte strings.
#[derive(Clone, Copy, Default)]
pub(super) struct Index<'a> {
    count: u32,
    size: usize,
    offsets: &'a [u8],
    data: &'a [u8],
}

impl<'a> Index<'a> {
    /// The INDEX at `at`, and where it ends.
    fn parse(table: &'a [u8], at: usize) -> Option<(Index<'a>, usize)> {
        let count = u32::from(be16(table, at)?);
        if count == 0 {
            return Some((Index::default(), at + 2));
        }
        let size = usize::from(*table.get(at + 2)?);
        if !(1..=4).contains(&size) {
            return None;
        }
        let start = at + 3;
        let offsets = table.get(start..start + (count as usize + 1) * size)?;
        let mut index = Index {
            count,
            size,
            offsets,
            data: &[],
        };
        let len = index.offset(count)?;
        let data_at = start + offsets.len();
        index.data = table.get(data_at..data_at + len)?;
        Some((index, data_at + len))
    }

    /// Offset `i` into the data (stored plus one).
    fn offset(&self, i: u32) -> Option<usize> {
        let at = i as usize * self.size;
        let b = self.offsets.get(at..at + self.size)?;
        let n = b.iter().fold(0usize, |n, &x| (n << 8) | usize::from(x));
        n.checked_sub(1)
    }

    pub(super) fn get(&self, i: u32) -> Option<&'a [u8]> {
        if i >= self.count {
            return None;
        }
        self.data.get(self.offset(i)?..self.offset(i + 1)?)
    }

    pub(super) fn len(&self) -> u32 {
        self.count
    }
}

fn be16(b: &[u8], at: usize) -> Option<u16> {
    b.get(at..at + 2).map(|b| u16::from_be_bytes([b[0], b[1]]))
}

/// The entries of a DICT: each operator (12 x as 1200 + x) with its operands (at most
/// [`MAX_OPERANDS`]); reading stops at the first malformed number, as the outliner's does.
fn dict(data: &[u8]) -> Vec<(u16, Vec<f64>)> {
    let mut out = Vec::new();
    let mut operands = Vec::new();
    let mut i = 0;
    while i < data.len() {
        let b = data[i];
        i += 1;
        if b <= 27 || b == 31 || b == 255 {
            let op = if b == 12 {
                let Some(&b1) = data.get(i) else { break };
                i += 1;
                1200 + u16::from(b1)
            } else {
                u16::from(b)
            };
            out.push((op, std::mem::take(&mut operands)));
            continue;
        }
        let Some((n, next)) = dict_number(data, b, i) else {
            break;
        };
        i = next;
        if operands.len() < MAX_OPERANDS {
            operands.push(n);
        }
    }
    out
}

/// A DICT number starting with `b0` (its other bytes from `i`), and where it ends.
fn dict_number(data: &[u8], b0: u8, i: usize) -> Option<(f64, usize)> {
    let byte = |k: usize| data.get(i + k).copied().map(i32::from);
    Some(match b0 {
        28 => (
            f64::from(i16::from_be_bytes([*data.get(i)?, *data.get(i + 1)?])),
            i + 2,
        ),
        29 => {
            let b = data.get(i..i + 4)?;
            (
                f64::from(i32::from_be_bytes([b[0], b[1], b[2], b[3]])),
                i + 4,
            )
        }
        30 => {
            // Nibbles: digits, `.`, `E`, `E-`, `-`, up to the end nibble.
            let mut text = String::new();
            let mut k = i;
            'real: loop {
                let b = *data.get(k)?;
                k += 1;
                for nibble in [b >> 4, b & 15] {
                    match nibble {
                        0..=9 => text.push(char::from(b'0' + nibble)),
                        10 => text.push('.'),
                        11 => text.push('E'),
                        12 => text.push_str("E-"),
                        14 => text.push('-'),
                        15 => break 'real,
                        _ => return None,
                    }
                    if text.len() > 64 {
                        return None;
                    }
                }
            }
            (text.parse().ok()?, k)
        }
        32..=246 => (f64::from(i32::from(b0) - 139), i),
        247..=250 => (
            f64::from((i32::from(b0) - 247) * 256 + byte(0)? + 108),
            i + 1,
        ),
        251..=254 => (
            f64::from(-(i32::from(b0) - 251) * 256 - byte(0)? - 108),
            i + 1,
        ),
        _ => return None,
    })
}

/// The operand of a one-operand offset entry, as the outliner reads it.
fn offset(operands: &[f64]) -> Option<usize> {
    (operands.len() == 1)
        .then(|| usize::try_from(operands[0] as i32).ok())
        .flatten()
}

/// A `size offset` range entry.
fn range(operands: &[f64]) -> Option<std::ops::Range<usize>> {
    if operands.len() != 2 {
        return None;
    }
    let len = usize::try_from(operands[0] as i32).ok()?;
    let start = usize::try_from(operands[1] as i32).ok()?;
    Some(start..start.checked_add(len)?)
}

/// How glyph ids are named (for accented glyphs): by string id.
pub(super) enum Charset<'a> {
    IsoAdobe,
    Expert,
    /// Format 0: a string id per glyph from glyph 1.
    Ids(&'a [u8]),
    /// Formats 1 and 2: ranges of `(first id, count - 1)`, the count's width in bytes.
    Ranges(&'a [u8], usize),
}

impl Charset<'_> {
    fn parse(table: &[u8], at: usize, glyphs: u32) -> Option<Charset<'_>> {
        let format = *table.get(at)?;
        let mut s = at + 1;
        match format {
            0 => Some(Charset::Ids(table.get(s..s + 2 * (glyphs as usize - 1))?)),
            1 | 2 => {
                let width = usize::from(format);
                let mut left = glyphs - 1;
                let start = s;
                while left > 0 {
                    let b = table.get(s + 2..s + 2 + width)?;
                    let n = b.iter().fold(0u32, |n, &x| (n << 8) | u32::from(x)) + 1;
                    left = left.checked_sub(n)?;
                    s += 2 + width;
                }
                Some(Charset::Ranges(&table[start..s], width))
            }
            _ => None,
        }
    }

    /// The glyph of standard-encoding character `code` (an accented glyph's part).
    pub(super) fn glyph(&self, code: u8) -> Option<u16> {
        let sid = standard_encoding(code);
        if sid == 0 {
            return Some(0);
        }
        match self {
            Charset::IsoAdobe => (code <= 228).then_some(sid),
            Charset::Expert => None,
            Charset::Ids(ids) => ids
                .chunks_exact(2)
                .position(|b| u16::from_be_bytes([b[0], b[1]]) == sid)
                .map(|i| i as u16 + 1),
            Charset::Ranges(ranges, width) => {
                let mut glyph = 1u32;
                for r in ranges.chunks_exact(2 + width) {
                    let first = u32::from(u16::from_be_bytes([r[0], r[1]]));
                    let left = r[2..].iter().fold(0u32, |n, &x| (n << 8) | u32::from(x));
                    if (first..=first + left).contains(&u32::from(sid)) {
                        return u16::try_from(glyph + u32::from(sid) - first).ok();
                    }
                    glyph += left + 1;
                }
                None
            }
        }
    }
}

/// The string id of a character of Adobe's Standard Encoding (0: none).
fn standard_encoding(code: u8) -> u16 {
    const RANGES: [(u8, u8, u16); 14] = [
        (32, 126, 1),
        (161, 175, 96),
        (177, 180, 111),
        (182, 189, 115),
        (191, 191, 123),
        (193, 200, 124),
        (202, 203, 132),
        (205, 208, 134),
        (225, 225, 138),
        (227, 227, 139),
        (232, 235, 140),
        (241, 241, 144),
        (245, 245, 145),
        (248, 251, 146),
    ];
    RANGES
        .iter()
        .find(|r| (r.0..=r.1).contains(&code))
        .map_or(0, |r| r.2 + u16::from(code - r.0))
}

/// Where a CID-keyed font's glyphs find their local subroutines.
pub(super) struct Cid<'a> {
    fd_array: Index<'a>,
    /// FDSelect: format 0 (a byte per glyph) or 3 (ranges), its bytes after the format.
    format: u8,
    select: &'a [u8],
}

/// What running charstrings needs of a CFF table.
pub(super) struct Cff<'a> {
    table: &'a [u8],
    pub char_strings: Index<'a>,
    pub global: Index<'a>,
    pub charset: Charset<'a>,
    /// A name-keyed font's local subroutines (empty when it has none).
    pub local: Index<'a>,
    pub cid: Option<Cid<'a>>,
}

impl<'a> Cff<'a> {
    pub(super) fn parse(table: &'a [u8]) -> Option<Cff<'a>> {
        if *table.first()? != 1 {
            return None;
        }
        let header = usize::from(*table.get(2)?).max(4);
        let (_, after_names) = Index::parse(table, header)?;
        let (top, after_top) = Index::parse(table, after_names)?;
        let top = dict(top.get(0)?);
        let (_, after_strings) = Index::parse(table, after_top)?;
        let (global, _) = Index::parse(table, after_strings)?;
        let entry = |op: u16| top.iter().rev().find(|e| e.0 == op).map(|e| e.1.as_slice());
        let char_strings_at = entry(17).and_then(offset).filter(|&o| o != 0)?;
        let (char_strings, _) = Index::parse(table, char_strings_at)?;
        let glyphs = char_strings.len();
        if glyphs == 0 || glyphs > u32::from(u16::MAX) {
            return None;
        }
        let charset = match entry(15).map(offset) {
            None | Some(Some(0)) => Charset::IsoAdobe,
            Some(Some(1 | 2)) => Charset::Expert,
            Some(Some(at)) => Charset::parse(table, at, glyphs)?,
            Some(None) => Charset::IsoAdobe,
        };
        let mut cff = Cff {
            table,
            char_strings,
            global,
            charset,
            local: Index::default(),
            cid: None,
        };
        if entry(1230).is_some() {
            let fd_array = Index::parse(table, entry(1236).and_then(offset)?)?.0;
            let at = entry(1237).and_then(offset)?;
            let format = *table.get(at)?;
            let select = match format {
                0 => table.get(at + 1..at + 1 + glyphs as usize)?,
                3 => table.get(at + 1..)?,
                _ => return None,
            };
            cff.cid = Some(Cid {
                fd_array,
                format,
                select,
            });
        } else if let Some(private) = entry(18).and_then(range) {
            cff.local = cff.private_subrs(private)?.unwrap_or_default();
        }
        Some(cff)
    }

    /// The local subroutines a Private DICT at `private` names: `Some(None)` when it names
    /// none, `None` when they cannot be read.
    fn private_subrs(&self, private: std::ops::Range<usize>) -> Option<Option<Index<'a>>> {
        let entries = dict(self.table.get(private.clone())?);
        let Some(subrs) = entries.iter().rev().find(|e| e.0 == 19) else {
            return Some(None);
        };
        let Some(at) = offset(&subrs.1).and_then(|o| private.start.checked_add(o)) else {
            return Some(None);
        };
        Index::parse(self.table, at).map(|(i, _)| Some(i))
    }

    /// A CID-keyed font's local subroutines for `glyph` (the outliner finds none where any
    /// step of the way fails).
    pub(super) fn cid_subrs(&self, cid: &Cid<'a>, glyph: u16) -> Option<Index<'a>> {
        let fd = match cid.format {
            0 => cid.select.get(usize::from(glyph)).copied(),
            _ => fd_range(cid.select, glyph),
        }?;
        let font = cid.fd_array.get(u32::from(fd))?;
        let private = dict(font).into_iter().find(|e| e.0 == 18)?;
        self.private_subrs(range(&private.1)?).flatten()
    }
}

/// The font DICT of `glyph` in an FDSelect of format 3 (ranges, then a sentinel).
fn fd_range(select: &[u8], glyph: u16) -> Option<u8> {
    let ranges = be16(select, 0)?;
    if ranges == 0 {
        return None;
    }
    let mut first = be16(select, 2)?;
    let mut fd = *select.get(4)?;
    let mut at = 5;
    for _ in 0..ranges {
        let next = be16(select, at)?;
        if (first..next).contains(&glyph) {
            return Some(fd);
        }
        fd = *select.get(at + 2)?;
        first = next;
        at += 3;
    }
    None
}
