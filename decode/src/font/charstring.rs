//! CFF outlines: how many steps outlining a glyph takes, before it is outlined.
//!
//! A charstring calls subroutines, which call others, up to ten deep: a few thousand bytes of
//! calls make 10^20 steps, most of them drawing nothing. So each glyph's charstring is run
//! here with the outliner's own control flow (its number encoding, argument stack, hint
//! masks, subroutine calls with their bias and depth limit, `endchar` and its accented-glyph
//! form) but without drawing, and stops once it has taken more steps than allowed. Where the
//! outliner would stop with an error, so does this run; where the two could differ, this run
//! goes on (it counts at least the outliner's steps). The tables it reads are `cff`'s.

use super::cff::{Cff, DEPTH_LIMIT, Index, MAX_ARGS};
use ttf_parser::{Face, Tag};

/// The steps outlining `glyphs` takes, each glyph's at most `per_glyph`.
pub(crate) fn steps(face: &Face<'_>, glyphs: &[u16], per_glyph: u64) -> Result<u64, String> {
    let data = face
        .raw_face()
        .table(Tag::from_bytes(b"CFF "))
        .ok_or("its CFF table is missing")?;
    let cff = Cff::parse(data).ok_or("its CFF table is damaged")?;
    let mut total = 0u64;
    for &glyph in glyphs {
        let Some(charstring) = cff.char_strings.get(u32::from(glyph)) else {
            continue;
        };
        let mut run = Run {
            cff: &cff,
            glyph,
            local: None,
            steps: 0,
            limit: per_glyph,
            stack: Vec::with_capacity(MAX_ARGS),
            width: false,
            stems: 0,
            endchar: false,
            seac: false,
        };
        match run.charstring(charstring, 0) {
            Err(Stop::Steps) => {
                return Err(format!(
                    "glyph {glyph} takes more than {per_glyph} charstring steps to outline"
                ));
            }
            Ok(()) | Err(Stop::Error) => {}
        }
        total += run.steps;
    }
    Ok(total)
}

/// Why a run stopped early.
pub(super) enum Stop {
    /// Where the outliner stops with an error.
    Error,
    /// More steps than allowed.
    Steps,
}

/// One glyph's charstring run.
pub(super) struct Run<'c, 'a> {
    pub cff: &'c Cff<'a>,
    pub glyph: u16,
    /// A CID-keyed font's local subroutines, once looked up.
    pub local: Option<Option<Index<'a>>>,
    pub steps: u64,
    pub limit: u64,
    pub stack: Vec<f32>,
    pub width: bool,
    pub stems: u32,
    pub endchar: bool,
    pub seac: bool,
}

impl<'a> Run<'_, 'a> {
    fn push(&mut self, v: f32) -> Result<(), Stop> {
        if self.stack.len() >= MAX_ARGS {
            return Err(Stop::Error);
        }
        self.stack.push(v);
        Ok(())
    }

    fn pop(&mut self) -> f32 {
        self.stack.pop().unwrap_or(0.0)
    }

    /// Runs `cs` at call depth `depth`.
    pub fn charstring(&mut self, cs: &[u8], depth: u8) -> Result<(), Stop> {
        let mut i = 0;
        let byte = |k: usize| cs.get(k).copied().ok_or(Stop::Error);
        while i < cs.len() {
            self.steps += 1;
            if self.steps > self.limit {
                return Err(Stop::Steps);
            }
            let op = cs[i];
            i += 1;
            match op {
                0 | 2 | 9 | 13 | 15 | 16 | 17 => return Err(Stop::Error),
                // Stems: an odd count's first value is the width.
                1 | 3 | 18 | 23 => {
                    let mut len = self.stack.len();
                    if len % 2 == 1 && !self.width {
                        self.width = true;
                        len -= 1;
                    }
                    self.stems += (len >> 1) as u32;
                    self.stack.clear();
                }
                // Moves: one value more than the move's is the width.
                4 | 21 | 22 => {
                    let own = if op == 21 { 2 } else { 1 };
                    if self.stack.len() == own + 1 {
                        self.width = true;
                    }
                    self.stack.clear();
                }
                5..=8 | 24..=27 | 30 | 31 => self.stack.clear(),
                10 | 29 => {
                    self.call(op == 29, depth)?;
                    if self.endchar && !self.seac {
                        return if i < cs.len() {
                            Err(Stop::Error)
                        } else {
                            Ok(())
                        };
                    }
                }
                11 => return Ok(()),
                12 => {
                    let op2 = byte(i)?;
                    i += 1;
                    match op2 {
                        34..=37 => self.stack.clear(),
                        _ => return Err(Stop::Error),
                    }
                }
                14 => return self.end(depth, i < cs.len()),
                19 | 20 => {
                    let mut len = self.stack.len();
                    self.stack.clear();
                    if len % 2 == 1 {
                        len -= 1;
                        self.width = true;
                    }
                    self.stems += (len >> 1) as u32;
                    i = i.saturating_add(((self.stems + 7) >> 3) as usize);
                }
                28 => {
                    let n = i16::from_be_bytes([byte(i)?, byte(i + 1)?]);
                    i += 2;
                    self.push(f32::from(n))?;
                }
                32..=246 => self.push(f32::from(i16::from(op) - 139))?,
                247..=250 => {
                    let n = (i16::from(op) - 247) * 256 + i16::from(byte(i)?) + 108;
                    i += 1;
                    self.push(f32::from(n))?;
                }
                251..=254 => {
                    let n = -(i16::from(op) - 251) * 256 - i16::from(byte(i)?) - 108;
                    i += 1;
                    self.push(f32::from(n))?;
                }
                255 => {
                    let n =
                        i32::from_be_bytes([byte(i)?, byte(i + 1)?, byte(i + 2)?, byte(i + 3)?]);
                    i += 4;
                    self.push(n as f32 / 65536.0)?;
                }
            }
        }
        Ok(())
    }

    /// A subroutine call (`callgsubr` when `global`, else `callsubr`): the number on the
    /// stack, biased by the subroutines' count, run one level deeper.
    fn call(&mut self, global: bool, depth: u8) -> Result<(), Stop> {
        if self.stack.is_empty() || depth == DEPTH_LIMIT {
            return Err(Stop::Error);
        }
        let subrs = if global {
            self.cff.global
        } else {
            self.local_subrs().ok_or(Stop::Error)?
        };
        let bias: i64 = match subrs.len() {
            0..1240 => 107,
            1240..33900 => 1131,
            _ => 32768,
        };
        let n = self.pop();
        if !(n >= i32::MIN as f32 && n < i32::MAX as f32) {
            return Err(Stop::Error);
        }
        let index = u32::try_from(i64::from(n as i32) + bias).map_err(|_| Stop::Error)?;
        let sub = subrs.get(index).ok_or(Stop::Error)?;
        self.charstring(sub, depth + 1)
    }

    /// `endchar` (`more`: bytes follow it): the width or an accented glyph's parts on the
    /// stack, and the glyph's end.
    fn end(&mut self, depth: u8, more: bool) -> Result<(), Stop> {
        let len = self.stack.len();
        if len == 4 || (!self.width && len == 5) {
            self.accented(depth)?;
        } else if len == 1 && !self.width {
            self.width = true;
            self.pop();
        }
        if more {
            return Err(Stop::Error);
        }
        self.endchar = true;
        Ok(())
    }

    /// `endchar` with an accented glyph's parts: the base glyph's charstring, then the
    /// accent's, one level deeper.
    fn accented(&mut self, depth: u8) -> Result<(), Stop> {
        // As the outliner converts: truncated to an integer, then it must be a byte.
        let code = |n: f32| {
            (n >= i32::MIN as f32 && n < i32::MAX as f32)
                .then(|| u8::try_from(n as i32).ok())
                .flatten()
                .ok_or(Stop::Error)
        };
        let accent = self
            .cff
            .charset
            .glyph(code(self.pop())?)
            .ok_or(Stop::Error)?;
        let base = self
            .cff
            .charset
            .glyph(code(self.pop())?)
            .ok_or(Stop::Error)?;
        self.pop();
        self.pop();
        if !self.width && !self.stack.is_empty() {
            self.width = true;
            self.pop();
        }
        self.seac = true;
        if depth == DEPTH_LIMIT {
            return Err(Stop::Error);
        }
        for part in [base, accent] {
            let cs = self
                .cff
                .char_strings
                .get(u32::from(part))
                .ok_or(Stop::Error)?;
            self.charstring(cs, depth + 1)?;
        }
        Ok(())
    }

    /// The local subroutines this glyph calls (`None`: it has none, an error when called).
    fn local_subrs(&mut self) -> Option<Index<'a>> {
        let Some(cid) = &self.cff.cid else {
            return Some(self.cff.local);
        };
        if self.local.is_none() {
            self.local = Some(self.cff.cid_subrs(cid, self.glyph));
        }
        self.local.flatten()
    }
}
