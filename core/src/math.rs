//! Small value types: 2D vectors, rectangles, colours.
//!
//! Simulation arithmetic uses only IEEE-754 basic operations (`+ - * /`, `sqrt`) and `libm` for
//! anything transcendental, so the same inputs give the same bits on every target.

use serde::{Deserialize, Serialize};
use std::fmt;
use std::ops::{Add, AddAssign, Mul, Neg, Sub, SubAssign};

/// Two floats, `x` then `y` (`repr(C)`: a slice of them is a slice of floats in that order,
/// which [`in_box8`] loads as packed lanes).
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Vec2 {
    pub x: f32,
    pub y: f32,
}

impl Vec2 {
    pub const ZERO: Vec2 = Vec2 { x: 0.0, y: 0.0 };

    pub const fn new(x: f32, y: f32) -> Self {
        Vec2 { x, y }
    }

    pub fn length_squared(self) -> f32 {
        self.x * self.x + self.y * self.y
    }

    pub fn length(self) -> f32 {
        self.length_squared().sqrt()
    }

    /// The unit vector in this direction, or zero for a zero (or non-finite) vector.
    pub fn normalized_or_zero(self) -> Vec2 {
        let len = self.length();
        if len > 0.0 && len.is_finite() {
            Vec2::new(self.x / len, self.y / len)
        } else {
            Vec2::ZERO
        }
    }

    /// Linear interpolation; `t == 1.0` returns `other` exactly.
    pub fn lerp(self, other: Vec2, t: f32) -> Vec2 {
        Vec2::new(
            self.x * (1.0 - t) + other.x * t,
            self.y * (1.0 - t) + other.y * t,
        )
    }

    pub fn is_finite(self) -> bool {
        self.x.is_finite() && self.y.is_finite()
    }

    /// The unit vector at `angle` radians (libm, identical on every target).
    pub fn from_angle(angle: f32) -> Vec2 {
        Vec2::new(libm::cosf(angle), libm::sinf(angle))
    }

    /// The angle of this vector in radians, in `(-pi, pi]` (libm, identical on every target).
    pub fn angle(self) -> f32 {
        libm::atan2f(self.y, self.x)
    }

    pub fn dot(self, o: Vec2) -> f32 {
        self.x * o.x + self.y * o.y
    }
}

/// `angle` brought into `[-pi, pi)`, so angles that only turn stay small.
pub fn wrap_angle(angle: f32) -> f32 {
    use std::f32::consts::PI;
    if (-PI..PI).contains(&angle) {
        angle
    } else {
        (angle + PI).rem_euclid(2.0 * PI) - PI
    }
}

impl Add for Vec2 {
    type Output = Vec2;
    fn add(self, o: Vec2) -> Vec2 {
        Vec2::new(self.x + o.x, self.y + o.y)
    }
}

impl AddAssign for Vec2 {
    fn add_assign(&mut self, o: Vec2) {
        self.x += o.x;
        self.y += o.y;
    }
}

impl Sub for Vec2 {
    type Output = Vec2;
    fn sub(self, o: Vec2) -> Vec2 {
        Vec2::new(self.x - o.x, self.y - o.y)
    }
}

impl SubAssign for Vec2 {
    fn sub_assign(&mut self, o: Vec2) {
        self.x -= o.x;
        self.y -= o.y;
    }
}

impl Mul<f32> for Vec2 {
    type Output = Vec2;
    fn mul(self, k: f32) -> Vec2 {
        Vec2::new(self.x * k, self.y * k)
    }
}

impl Neg for Vec2 {
    type Output = Vec2;
    fn neg(self) -> Vec2 {
        Vec2::new(-self.x, -self.y)
    }
}

/// An axis-aligned rectangle by its minimum and maximum corners.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Rect {
    pub min: Vec2,
    pub max: Vec2,
}

impl Rect {
    pub const fn new(min: Vec2, max: Vec2) -> Self {
        Rect { min, max }
    }

    /// A rectangle of `size` centred on the origin.
    pub fn centered(size: Vec2) -> Self {
        Rect::new(size * -0.5, size * 0.5)
    }

    pub fn size(&self) -> Vec2 {
        self.max - self.min
    }

    pub fn center(&self) -> Vec2 {
        (self.min + self.max) * 0.5
    }

    /// The rectangle `by` further out on every side (`by < 0`: further in; the corners may
    /// then cross, and it contains nothing).
    pub fn grown(&self, by: f32) -> Self {
        let by = Vec2::new(by, by);
        Rect::new(self.min - by, self.max + by)
    }

    pub fn contains(&self, p: Vec2) -> bool {
        p.x >= self.min.x && p.x <= self.max.x && p.y >= self.min.y && p.y <= self.max.y
    }

    pub fn clamp(&self, p: Vec2) -> Vec2 {
        Vec2::new(
            p.x.max(self.min.x).min(self.max.x),
            p.y.max(self.min.y).min(self.max.y),
        )
    }

    /// A point inside from two unit randoms.
    pub fn lerp(&self, u: f32, v: f32) -> Vec2 {
        Vec2::new(
            self.min.x + (self.max.x - self.min.x) * u,
            self.min.y + (self.max.y - self.min.y) * v,
        )
    }
}

/// An sRGB colour with alpha, 8 bits per channel.
///
/// The one grammar of colours, in content and in scripts alike ([`Color::parse`]): `#rgb`,
/// `#rrggbb` or `#rrggbbaa` in hexadecimal digits of either case (the `#` may be left out;
/// `#rgb` doubles each digit, and alpha is 255 unless given), or one of [`Color::NAMES`] in
/// any case. `Display` writes a colour back in it: its name when it has one, else `#rrggbb`,
/// or `#rrggbbaa` when it is not opaque.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Color {
    pub r: u8,
    pub g: u8,
    pub b: u8,
    pub a: u8,
}

impl Default for Color {
    fn default() -> Self {
        Color::WHITE
    }
}

impl Color {
    pub const WHITE: Color = Color::rgb(255, 255, 255);
    pub const BLACK: Color = Color::rgb(0, 0, 0);

    /// The colours known by name. A colour with two names (`gray`, `grey`) lists the one
    /// `Display` writes first.
    pub const NAMES: [(&'static str, Color); 10] = [
        ("white", Color::WHITE),
        ("black", Color::BLACK),
        ("red", Color::rgb(230, 57, 70)),
        ("green", Color::rgb(87, 204, 153)),
        ("blue", Color::rgb(69, 123, 214)),
        ("yellow", Color::rgb(255, 209, 102)),
        ("orange", Color::rgb(244, 140, 6)),
        ("purple", Color::rgb(155, 93, 229)),
        ("gray", Color::rgb(128, 128, 128)),
        ("grey", Color::rgb(128, 128, 128)),
    ];

    pub const fn rgb(r: u8, g: u8, b: u8) -> Self {
        Color { r, g, b, a: 255 }
    }

    pub const fn rgba(r: u8, g: u8, b: u8, a: u8) -> Self {
        Color { r, g, b, a }
    }

    /// Reads a colour written in the grammar of [`Color`]; `None` for anything else.
    pub fn parse(text: &str) -> Option<Color> {
        if let Some((_, c)) = Color::NAMES
            .iter()
            .find(|(name, _)| name.eq_ignore_ascii_case(text))
        {
            return Some(*c);
        }
        let hex = text.strip_prefix('#').unwrap_or(text);
        if !hex.bytes().all(|b| b.is_ascii_hexdigit()) {
            return None;
        }
        let nibble = |i: usize| u8::from_str_radix(&hex[i..i + 1], 16).ok();
        let byte = |i: usize| u8::from_str_radix(&hex[i..i + 2], 16).ok();
        match hex.len() {
            3 => Some(Color::rgb(
                nibble(0)? * 17,
                nibble(1)? * 17,
                nibble(2)? * 17,
            )),
            6 => Some(Color::rgb(byte(0)?, byte(2)?, byte(4)?)),
            8 => Some(Color::rgba(byte(0)?, byte(2)?, byte(4)?, byte(6)?)),
            _ => None,
        }
    }

    /// The colour with its alpha multiplied by `alpha` (0 to 1; 1 leaves it as it is).
    pub fn faded(self, alpha: f32) -> Color {
        Color {
            a: (f32::from(self.a) * alpha.clamp(0.0, 1.0)).round() as u8,
            ..self
        }
    }

    /// Channels as floats in `[0, 1]`.
    pub fn to_f32(self) -> [f32; 4] {
        [
            self.r as f32 / 255.0,
            self.g as f32 / 255.0,
            self.b as f32 / 255.0,
            self.a as f32 / 255.0,
        ]
    }
}

impl fmt::Display for Color {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some((name, _)) = Color::NAMES.iter().find(|(_, c)| c == self) {
            return f.write_str(name);
        }
        write!(f, "#{:02x}{:02x}{:02x}", self.r, self.g, self.b)?;
        if self.a != 255 {
            write!(f, "{:02x}", self.a)?;
        }
        Ok(())
    }
}

/// Bit `j` set when `p[j]` lies in the box `lo..=hi`, edges included (`lo <= p[j] <= hi` on
/// both axes, as `f32` compares: a NaN coordinate is outside). Packed comparisons where the
/// platform has them (x86_64's SSE2, part of every x86_64 CPU, and wasm's `simd128`, which the
/// browser build enables: see `.cargo/config.toml`), else one point at a time; the same bits
/// either way.
#[inline(always)]
pub(crate) fn in_box8(p: &[Vec2; 8], lo: Vec2, hi: Vec2) -> u32 {
    packed::in_box8(p, lo, hi)
}

/// Moves bodies two at a time where the platform has packed floats (see [`in_box8`]), exactly
/// as one at a time would: for each `i`, `prev[i] = pos[i]`, then `pos[i] + vel[i] * dt` where
/// both its coordinates are finite (else `pos[i]` stays), clamped to `lo..=hi` (`lo <= hi`;
/// a NaN stays NaN, a signed zero keeps its sign), with each velocity coordinate whose
/// position the clamp changed (or that is NaN) set to zero. Returns how many bodies it moved,
/// from the first: an even number, 0 without packed floats; the caller moves the rest.
#[inline(always)]
pub(crate) fn step_within(
    pos: &mut [Vec2],
    vel: &mut [Vec2],
    prev: &mut [Vec2],
    dt: f32,
    lo: Vec2,
    hi: Vec2,
) -> usize {
    let n = pos.len().min(vel.len()).min(prev.len()) / 2 * 2;
    packed::step_within(&mut pos[..n], &mut vel[..n], &mut prev[..n], dt, lo, hi)
}

/// Copies `src` to `dst` (the same length) and says whether every coordinate is finite.
#[inline(always)]
pub(crate) fn copy_finite(dst: &mut [Vec2], src: &[Vec2]) -> bool {
    let n = src.len().min(dst.len());
    let (dst, src) = (&mut dst[..n], &src[..n]);
    let done = packed::copy_finite(&mut dst[..n / 2 * 2], &src[..n / 2 * 2]);
    let mut finite = done.is_none_or(|f| f);
    let from = if done.is_some() { n / 2 * 2 } else { 0 };
    for (d, s) in dst[from..].iter_mut().zip(&src[from..]) {
        *d = *s;
        finite &= s.x.is_finite() & s.y.is_finite();
    }
    finite
}

#[cfg(target_arch = "x86_64")]
mod packed {
    use super::Vec2;
    use std::arch::x86_64::*;

    #[inline(always)]
    pub(super) fn in_box8(p: &[Vec2; 8], lo: Vec2, hi: Vec2) -> u32 {
        // SAFETY: SSE2 is part of x86_64. Each load reads four of the sixteen floats of `p`
        // (`Vec2` is `repr(C)`), unaligned.
        unsafe {
            let f = p.as_ptr().cast::<f32>();
            let (lx, ly) = (_mm_set1_ps(lo.x), _mm_set1_ps(lo.y));
            let (hx, hy) = (_mm_set1_ps(hi.x), _mm_set1_ps(hi.y));
            let four = |at: usize| {
                let (a, b) = (_mm_loadu_ps(f.add(at)), _mm_loadu_ps(f.add(at + 4)));
                // [x0, x1, x2, x3] and [y0, y1, y2, y3] of the four points.
                let xs = _mm_shuffle_ps::<0b10_00_10_00>(a, b);
                let ys = _mm_shuffle_ps::<0b11_01_11_01>(a, b);
                // Ordered compares: false where a lane is NaN.
                let x = _mm_and_ps(_mm_cmple_ps(lx, xs), _mm_cmple_ps(xs, hx));
                let y = _mm_and_ps(_mm_cmple_ps(ly, ys), _mm_cmple_ps(ys, hy));
                _mm_movemask_ps(_mm_and_ps(x, y)) as u32
            };
            four(0) | four(8) << 4
        }
    }

    /// An even number of vectors copied two at a time, and whether each coordinate is finite.
    #[inline(always)]
    pub(super) fn copy_finite(dst: &mut [Vec2], src: &[Vec2]) -> Option<bool> {
        let n = src.len();
        debug_assert!(n.is_multiple_of(2) && dst.len() == n);
        // SAFETY: SSE2 is part of x86_64. Each load and store covers two of the `n` vectors
        // (`i + 2 <= n`) of slices of `n`, four floats (`Vec2` is `repr(C)`), unaligned.
        unsafe {
            let (d, s) = (dst.as_mut_ptr().cast::<f32>(), src.as_ptr().cast::<f32>());
            let (inf, abs) = (
                _mm_set1_ps(f32::INFINITY),
                _mm_castsi128_ps(_mm_set1_epi32(i32::MAX)),
            );
            let mut all = _mm_castsi128_ps(_mm_set1_epi32(-1));
            for i in (0..n).step_by(2) {
                let v = _mm_loadu_ps(s.add(i * 2));
                _mm_storeu_ps(d.add(i * 2), v);
                // Ordered: a NaN lane is not finite.
                all = _mm_and_ps(all, _mm_cmplt_ps(_mm_and_ps(v, abs), inf));
            }
            Some(_mm_movemask_ps(all) == 0b1111)
        }
    }

    #[inline(always)]
    pub(super) fn step_within(
        pos: &mut [Vec2],
        vel: &mut [Vec2],
        prev: &mut [Vec2],
        dt: f32,
        lo: Vec2,
        hi: Vec2,
    ) -> usize {
        let n = pos.len();
        debug_assert!(n.is_multiple_of(2) && vel.len() == n && prev.len() == n);
        // SAFETY: SSE2 is part of x86_64. Each load and store covers two of the `n` bodies
        // (`i + 2 <= n`) of a slice of `n`, four floats (`Vec2` is `repr(C)`), unaligned.
        unsafe {
            let (p, v, q) = (
                pos.as_mut_ptr().cast::<f32>(),
                vel.as_mut_ptr().cast::<f32>(),
                prev.as_mut_ptr().cast::<f32>(),
            );
            let (lo, hi) = (
                _mm_setr_ps(lo.x, lo.y, lo.x, lo.y),
                _mm_setr_ps(hi.x, hi.y, hi.x, hi.y),
            );
            let (dt, inf) = (_mm_set1_ps(dt), _mm_set1_ps(f32::INFINITY));
            let abs = _mm_castsi128_ps(_mm_set1_epi32(i32::MAX));
            for i in (0..n).step_by(2) {
                let (t, w) = (_mm_loadu_ps(p.add(i * 2)), _mm_loadu_ps(v.add(i * 2)));
                _mm_storeu_ps(q.add(i * 2), t);
                let next = _mm_add_ps(t, _mm_mul_ps(w, dt));
                // Finite lanes (ordered: NaN is not), then both of a body's lanes.
                let fin = _mm_cmplt_ps(_mm_and_ps(next, abs), inf);
                let fin = _mm_and_ps(fin, _mm_shuffle_ps::<0b10_11_00_01>(fin, fin));
                let t = _mm_or_ps(_mm_and_ps(fin, next), _mm_andnot_ps(fin, t));
                // `max(lo, t)` is `t < lo ? lo : t` and `min(hi, c)` `hi < c ? hi : c`, NaN and
                // signed zeros included (the second operand wins a tie or a NaN).
                let to = _mm_min_ps(hi, _mm_max_ps(lo, t));
                // Unordered: a NaN lane counts as changed.
                let w = _mm_andnot_ps(_mm_cmpneq_ps(to, t), w);
                _mm_storeu_ps(p.add(i * 2), to);
                _mm_storeu_ps(v.add(i * 2), w);
            }
        }
        n
    }
}

#[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
mod packed {
    use super::Vec2;
    use std::arch::wasm32::*;

    #[inline(always)]
    pub(super) fn in_box8(p: &[Vec2; 8], lo: Vec2, hi: Vec2) -> u32 {
        let (lx, ly) = (f32x4_splat(lo.x), f32x4_splat(lo.y));
        let (hx, hy) = (f32x4_splat(hi.x), f32x4_splat(hi.y));
        let f = p.as_ptr().cast::<f32>();
        // SAFETY: each load reads four of the sixteen floats of `p` (`Vec2` is `repr(C)`);
        // wasm loads need no alignment.
        let four = |at: usize| unsafe {
            let a = v128_load(f.add(at).cast::<v128>());
            let b = v128_load(f.add(at + 4).cast::<v128>());
            let xs = i32x4_shuffle::<0, 2, 4, 6>(a, b);
            let ys = i32x4_shuffle::<1, 3, 5, 7>(a, b);
            // IEEE compares: false where a lane is NaN.
            let x = v128_and(f32x4_le(lx, xs), f32x4_le(xs, hx));
            let y = v128_and(f32x4_le(ly, ys), f32x4_le(ys, hy));
            u32::from(i32x4_bitmask(v128_and(x, y)))
        };
        four(0) | four(8) << 4
    }

    /// An even number of vectors copied two at a time, and whether each coordinate is finite.
    #[inline(always)]
    pub(super) fn copy_finite(dst: &mut [Vec2], src: &[Vec2]) -> Option<bool> {
        let n = src.len();
        debug_assert!(n.is_multiple_of(2) && dst.len() == n);
        let (d, s) = (dst.as_mut_ptr().cast::<v128>(), src.as_ptr().cast::<v128>());
        let inf = f32x4_splat(f32::INFINITY);
        let mut all = u32x4_splat(u32::MAX);
        for k in 0..n / 2 {
            // SAFETY: each load and store covers vectors `2k` and `2k + 1` of `n`, four
            // floats (`Vec2` is `repr(C)`); wasm loads need no alignment.
            unsafe {
                let v = v128_load(s.add(k));
                v128_store(d.add(k), v);
                // IEEE: a NaN lane is not finite.
                all = v128_and(all, f32x4_lt(f32x4_abs(v), inf));
            }
        }
        Some(i32x4_all_true(all))
    }

    #[inline(always)]
    pub(super) fn step_within(
        pos: &mut [Vec2],
        vel: &mut [Vec2],
        prev: &mut [Vec2],
        dt: f32,
        lo: Vec2,
        hi: Vec2,
    ) -> usize {
        let n = pos.len();
        debug_assert!(n.is_multiple_of(2) && vel.len() == n && prev.len() == n);
        let (p, v, q) = (
            pos.as_mut_ptr().cast::<v128>(),
            vel.as_mut_ptr().cast::<v128>(),
            prev.as_mut_ptr().cast::<v128>(),
        );
        let (lo, hi) = (f32x4(lo.x, lo.y, lo.x, lo.y), f32x4(hi.x, hi.y, hi.x, hi.y));
        let (dt, inf) = (f32x4_splat(dt), f32x4_splat(f32::INFINITY));
        for k in 0..n / 2 {
            // SAFETY: each load and store covers bodies `2k` and `2k + 1` of `n`, four floats
            // (`Vec2` is `repr(C)`); wasm loads need no alignment.
            unsafe {
                let (t, w) = (v128_load(p.add(k)), v128_load(v.add(k)));
                v128_store(q.add(k), t);
                let next = f32x4_add(t, f32x4_mul(w, dt));
                // Finite lanes (IEEE: NaN is not), then both of a body's lanes.
                let fin = f32x4_lt(f32x4_abs(next), inf);
                let fin = v128_and(fin, i32x4_shuffle::<1, 0, 3, 2>(fin, fin));
                let t = v128_bitselect(next, t, fin);
                // `pmax(t, lo)` is `t < lo ? lo : t` and `pmin(c, hi)` `hi < c ? hi : c`, NaN
                // and signed zeros included.
                let to = f32x4_pmin(f32x4_pmax(t, lo), hi);
                // IEEE `ne`: a NaN lane counts as changed.
                let w = v128_andnot(w, f32x4_ne(to, t));
                v128_store(p.add(k), to);
                v128_store(v.add(k), w);
            }
        }
        n
    }
}

#[cfg(not(any(
    target_arch = "x86_64",
    all(target_arch = "wasm32", target_feature = "simd128")
)))]
mod packed {
    use super::Vec2;

    /// One point at a time.
    #[inline(always)]
    pub(super) fn in_box8(p: &[Vec2; 8], lo: Vec2, hi: Vec2) -> u32 {
        p.iter().enumerate().fold(0, |bits, (j, p)| {
            let inside = (lo.x <= p.x) & (p.x <= hi.x) & (lo.y <= p.y) & (p.y <= hi.y);
            bits | u32::from(inside) << j
        })
    }

    /// None: the caller copies every vector.
    #[inline(always)]
    pub(super) fn copy_finite(_: &mut [Vec2], _: &[Vec2]) -> Option<bool> {
        None
    }

    /// None: the caller moves every body.
    #[inline(always)]
    pub(super) fn step_within(
        _: &mut [Vec2],
        _: &mut [Vec2],
        _: &mut [Vec2],
        _: f32,
        _: Vec2,
        _: Vec2,
    ) -> usize {
        0
    }
}

#[cfg(test)]
mod tests {
    use super::{Vec2, in_box8};

    /// [`in_box8`] one point at a time.
    fn in_box8_plain(p: &[Vec2; 8], lo: Vec2, hi: Vec2) -> u32 {
        p.iter().enumerate().fold(0, |bits, (j, p)| {
            let inside = (lo.x <= p.x) & (p.x <= hi.x) & (lo.y <= p.y) & (p.y <= hi.y);
            bits | u32::from(inside) << j
        })
    }

    #[test]
    fn the_packed_box_test_is_the_plain_one() {
        let mut rng = fastrand::Rng::with_seed(8);
        // Edges, signed zeros, infinities and NaN among ordinary values.
        let odd = [
            0.0,
            -0.0,
            1.0,
            -1.0,
            f32::INFINITY,
            f32::NEG_INFINITY,
            f32::NAN,
            2.5,
        ];
        let value = |rng: &mut fastrand::Rng| {
            if rng.bool() {
                odd[rng.usize(..odd.len())]
            } else {
                rng.f32() * 6.0 - 3.0
            }
        };
        for _ in 0..20_000 {
            let (lo, hi) = (Vec2::new(-1.0, 0.0), Vec2::new(1.0, 2.5));
            let p: [Vec2; 8] = std::array::from_fn(|_| Vec2::new(value(&mut rng), value(&mut rng)));
            assert_eq!(in_box8(&p, lo, hi), in_box8_plain(&p, lo, hi), "{p:?}");
        }
        // Copies: odd and even lengths, one non-finite coordinate anywhere or none.
        for n in 0..12 {
            for bad in 0..=n * 2 {
                let src: Vec<Vec2> = (0..n).map(|i| Vec2::new(i as f32, -(i as f32))).collect();
                let mut src = src;
                if bad < n * 2 {
                    let v = &mut src[bad / 2];
                    let c = if bad % 2 == 0 { &mut v.x } else { &mut v.y };
                    *c = [f32::NAN, f32::INFINITY, f32::NEG_INFINITY][bad % 3];
                }
                let mut dst = vec![Vec2::new(9.0, 9.0); n];
                let finite = super::copy_finite(&mut dst, &src);
                assert_eq!(finite, bad == n * 2, "n {n}, bad {bad}");
                let bits = |v: &[Vec2]| -> Vec<(u32, u32)> {
                    v.iter().map(|v| (v.x.to_bits(), v.y.to_bits())).collect()
                };
                assert_eq!(bits(&dst), bits(&src));
            }
        }
        let p = [Vec2::new(-1.0, 2.5); 8];
        assert_eq!(in_box8(&p, Vec2::new(-1.0, 0.0), Vec2::new(1.0, 2.5)), 0xff);
    }
}
