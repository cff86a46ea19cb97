//! Four packed floats, and the hot path's loops written once over them: a box test of eight
//! points, a step-and-clamp of two bodies, a checked copy.
//!
//! The one cfg for packed floats is [`Packed`]: x86_64's SSE2 (part of every x86_64 CPU),
//! wasm's `simd128` (which the browser build enables: see `.cargo/config.toml`), else
//! [`Plain`], four floats one at a time. Every operation gives each lane the bits the scalar
//! operation would (NaN, infinities and signed zeros included), so a loop gives the same
//! results on every platform; the tests compare [`Packed`] with [`Plain`] and with the scalar
//! code each loop stands for.

use super::Vec2;

/// Four floats; a mask is a value whose lanes are all ones or all zeros.
pub(crate) trait Lanes: Copy {
    /// Whether these are packed in hardware: the loops that a compiler vectorises on its own
    /// one body at a time ([`step_within`], [`copy_finite`]) run one at a time without them.
    const PACKED: bool;
    /// Every lane `v`.
    fn splat(v: f32) -> Self;
    /// `[v.x, v.y, v.x, v.y]`: one vector for two bodies.
    fn pairs(v: Vec2) -> Self;
    /// Four floats from `p`, unaligned.
    ///
    /// # Safety
    ///
    /// `p` points to four readable floats.
    unsafe fn load(p: *const f32) -> Self;
    /// Writes the four floats to `p`, unaligned.
    ///
    /// # Safety
    ///
    /// `p` points to four writable floats.
    unsafe fn store(self, p: *mut f32);
    fn add(self, o: Self) -> Self;
    fn sub(self, o: Self) -> Self;
    fn mul(self, o: Self) -> Self;
    /// For cells at columns `x` and rows `y` (each lane truncated toward zero), each cell's
    /// index in a grid of `grid.0 + 1` columns (a power of two, `1 << grid.2`) and `grid.1 + 1`
    /// rows that wraps: `((row & grid.1) << grid.2) | (column & grid.0)`. Only where both
    /// lanes are in `0..2^31` (where the truncation is `to_int_unchecked`'s): elsewhere the
    /// index differs by platform. `grid.2` is under 32.
    fn cell_index(x: Self, y: Self, grid: (u32, u32, u32)) -> [u32; 4];
    /// As [`cell_index`](Lanes::cell_index), at the floors of `x` and `y` as [`floor_i32`]
    /// gives them, for every input (NaN, infinities and values past `i32` included).
    fn floor_index(x: Self, y: Self, grid: (u32, u32, u32)) -> [u32; 4];
    /// The mask of `self <= o` (false where either is NaN).
    fn le(self, o: Self) -> Self;
    /// The mask of `self < o` (false where either is NaN).
    fn lt(self, o: Self) -> Self;
    /// The mask of `self != o` (true where either is NaN).
    fn ne(self, o: Self) -> Self;
    /// Bitwise and.
    fn and(self, o: Self) -> Self;
    /// `self` where `mask` is clear, zero where it is set.
    fn clear(self, mask: Self) -> Self;
    /// `a` where `mask` is set, else `b`.
    fn select(mask: Self, a: Self, b: Self) -> Self;
    /// `self < lo ? lo : self`: a NaN stays, a tie keeps `self`.
    fn at_least(self, lo: Self) -> Self;
    /// `hi < self ? hi : self`: a NaN stays, a tie keeps `self`.
    fn at_most(self, hi: Self) -> Self;
    /// The sign bits cleared.
    fn abs(self) -> Self;
    /// Lanes 1, 0, 3, 2: each body's other coordinate.
    fn swap_pairs(self) -> Self;
    /// Lanes 0 and 2 of `self`, then of `o`: the x of four points.
    fn evens(self, o: Self) -> Self;
    /// Lanes 1 and 3 of `self`, then of `o`: the y of four points.
    fn odds(self, o: Self) -> Self;
    /// Bit `i` set where lane `i`'s sign bit is (a mask's set lanes).
    fn bits(self) -> u32;
}

/// Bit `j` set when `p[j]` lies in the box `lo..=hi`, edges included (`lo <= p[j] <= hi` on
/// both axes, as `f32` compares: a NaN coordinate is outside).
#[inline(always)]
pub(crate) fn in_box8(p: &[Vec2; 8], lo: Vec2, hi: Vec2) -> u32 {
    in_box8_by::<Packed>(p, lo, hi)
}

/// The index of each of the eight points' cell on a wrapping grid of cells `1 / inv` wide
/// from `lo` (see [`Lanes::cell_index`] for `grid`): the column and row are the truncations of
/// `(p[j].x - lo.x) * inv` and `(p[j].y - lo.y) * inv`, as `to_int_unchecked` gives them. Only
/// where both are in `0..2^31` (a point inside a box of under 2^31 cells from `lo`):
/// elsewhere the index differs by platform.
#[inline(always)]
pub(crate) fn cells8(p: &[Vec2; 8], lo: Vec2, inv: f32, grid: (u32, u32, u32)) -> [u32; 8] {
    cells8_by::<Packed>(p, lo, inv, grid)
}

/// The floor of `v` as a whole number: `v as i32` (saturating, NaN 0), less one where that
/// is above `v`; past `i32::MIN` it wraps to `i32::MAX`, as the saturated minimum less one.
#[inline(always)]
pub(crate) fn floor_i32(v: f32) -> i32 {
    let i = v as i32;
    if (i as f32) > v { i.wrapping_sub(1) } else { i }
}

/// The index of each of the four points' cell on a wrapping grid of cells `1 / inv` wide from
/// the origin (see [`Lanes::cell_index`] for `grid`): the column and row are
/// `floor_i32(p[j].x * inv)` and `floor_i32(p[j].y * inv)`, for every input.
#[inline(always)]
pub(crate) fn floor_cells4(p: &[Vec2; 4], inv: f32, grid: (u32, u32, u32)) -> [u32; 4] {
    floor_cells4_by::<Packed>(p, inv, grid)
}

#[inline(always)]
fn floor_cells4_by<L: Lanes>(p: &[Vec2; 4], inv: f32, grid: (u32, u32, u32)) -> [u32; 4] {
    let inv = L::splat(inv);
    let f = p.as_ptr().cast::<f32>();
    // SAFETY: the eight floats of `p` (`Vec2` is `repr(C)`).
    let (a, b) = unsafe { (L::load(f), L::load(f.add(4))) };
    L::floor_index(a.evens(b).mul(inv), a.odds(b).mul(inv), grid)
}

/// Moves bodies two at a time, exactly as one at a time would: for each `i`, `prev[i] =
/// pos[i]`, then `pos[i] + vel[i] * dt` where both its coordinates are finite (else `pos[i]`
/// stays), clamped (`c < lo ? lo : c`, then `hi < c ? hi : c`, per coordinate), with each
/// velocity coordinate whose position the clamp changed (or that is NaN) set to zero. Returns
/// how many bodies it moved, from the first: an even number (0 without packed floats); the
/// caller moves the rest.
#[inline(always)]
pub(crate) fn step_within(
    pos: &mut [Vec2],
    vel: &mut [Vec2],
    prev: &mut [Vec2],
    dt: f32,
    lo: Vec2,
    hi: Vec2,
) -> usize {
    if Packed::PACKED {
        step_within_by::<Packed>(pos, vel, prev, dt, lo, hi)
    } else {
        0
    }
}

/// Copies `src` to `dst` (the shorter length of the two) and says whether every coordinate
/// copied is finite.
#[inline(always)]
pub(crate) fn copy_finite(dst: &mut [Vec2], src: &[Vec2]) -> bool {
    if Packed::PACKED {
        copy_finite_by::<Packed>(dst, src)
    } else {
        copy_rest(dst, src, 0)
    }
}

#[inline(always)]
fn in_box8_by<L: Lanes>(p: &[Vec2; 8], lo: Vec2, hi: Vec2) -> u32 {
    let (lx, ly) = (L::splat(lo.x), L::splat(lo.y));
    let (hx, hy) = (L::splat(hi.x), L::splat(hi.y));
    let f = p.as_ptr().cast::<f32>();
    let four = |at: usize| {
        // SAFETY: floats `at..at + 8` of the sixteen of `p` (`Vec2` is `repr(C)`).
        let (a, b) = unsafe { (L::load(f.add(at)), L::load(f.add(at + 4))) };
        let (xs, ys) = (a.evens(b), a.odds(b));
        let x = lx.le(xs).and(xs.le(hx));
        let y = ly.le(ys).and(ys.le(hy));
        x.and(y).bits()
    };
    four(0) | four(8) << 4
}

#[inline(always)]
fn cells8_by<L: Lanes>(p: &[Vec2; 8], lo: Vec2, inv: f32, grid: (u32, u32, u32)) -> [u32; 8] {
    let (lx, ly, inv) = (L::splat(lo.x), L::splat(lo.y), L::splat(inv));
    let f = p.as_ptr().cast::<f32>();
    let four = |at: usize| {
        // SAFETY: floats `at..at + 8` of the sixteen of `p` (`Vec2` is `repr(C)`).
        let (a, b) = unsafe { (L::load(f.add(at)), L::load(f.add(at + 4))) };
        let (xs, ys) = (a.evens(b), a.odds(b));
        L::cell_index(xs.sub(lx).mul(inv), ys.sub(ly).mul(inv), grid)
    };
    let (lo4, hi4) = (four(0), four(8));
    std::array::from_fn(|j| if j < 4 { lo4[j] } else { hi4[j - 4] })
}

#[inline(always)]
fn step_within_by<L: Lanes>(
    pos: &mut [Vec2],
    vel: &mut [Vec2],
    prev: &mut [Vec2],
    dt: f32,
    lo: Vec2,
    hi: Vec2,
) -> usize {
    let n = pos.len().min(vel.len()).min(prev.len()) / 2 * 2;
    let (p, v, q) = (
        pos.as_mut_ptr().cast::<f32>(),
        vel.as_mut_ptr().cast::<f32>(),
        prev.as_mut_ptr().cast::<f32>(),
    );
    let (lo, hi) = (L::pairs(lo), L::pairs(hi));
    let (dt, inf) = (L::splat(dt), L::splat(f32::INFINITY));
    for i in (0..n).step_by(2) {
        // SAFETY: bodies `i` and `i + 1` (`i + 2 <= n`) of slices of at least `n`: four
        // floats each (`Vec2` is `repr(C)`).
        let (t, w) = unsafe { (L::load(p.add(i * 2)), L::load(v.add(i * 2))) };
        // SAFETY: as above.
        unsafe { t.store(q.add(i * 2)) };
        let next = t.add(w.mul(dt));
        // Finite lanes, then both of a body's lanes.
        let fin = next.abs().lt(inf);
        let t = L::select(fin.and(fin.swap_pairs()), next, t);
        let to = t.at_least(lo).at_most(hi);
        let w = w.clear(to.ne(t));
        // SAFETY: as above.
        unsafe {
            to.store(p.add(i * 2));
            w.store(v.add(i * 2));
        }
    }
    n
}

#[inline(always)]
fn copy_finite_by<L: Lanes>(dst: &mut [Vec2], src: &[Vec2]) -> bool {
    let n = src.len().min(dst.len());
    let pairs = n / 2 * 2;
    let (d, s) = (dst.as_mut_ptr().cast::<f32>(), src.as_ptr().cast::<f32>());
    let inf = L::splat(f32::INFINITY);
    // Every lane set (infinity <= infinity), cleared where a coordinate is not finite.
    let mut all = inf.le(inf);
    for i in (0..pairs).step_by(2) {
        // SAFETY: vectors `i` and `i + 1` (`i + 2 <= n`) of both slices: four floats each.
        let v = unsafe { L::load(s.add(i * 2)) };
        // SAFETY: as above.
        unsafe { v.store(d.add(i * 2)) };
        all = all.and(v.abs().lt(inf));
    }
    (all.bits() == 0b1111) & copy_rest(dst, src, pairs)
}

/// [`copy_finite`] one vector at a time from `from`.
#[inline(always)]
fn copy_rest(dst: &mut [Vec2], src: &[Vec2], from: usize) -> bool {
    let n = src.len().min(dst.len());
    let mut finite = true;
    for (d, s) in dst[from..n].iter_mut().zip(&src[from..n]) {
        *d = *s;
        finite &= s.x.is_finite() & s.y.is_finite();
    }
    finite
}

/// Four floats one at a time: what [`Packed`] is where the platform has no packed floats, and
/// what the tests compare it with.
#[derive(Clone, Copy, Debug)]
#[allow(
    dead_code,
    reason = "the packed lanes where the platform has none, else the tests'"
)]
pub(crate) struct Plain([f32; 4]);

#[allow(dead_code, reason = "as `Plain`")]
impl Plain {
    #[inline(always)]
    fn each(self, o: Plain, f: impl Fn(f32, f32) -> f32) -> Plain {
        Plain(std::array::from_fn(|i| f(self.0[i], o.0[i])))
    }
    #[inline(always)]
    fn mask(self, o: Plain, f: impl Fn(f32, f32) -> bool) -> Plain {
        self.each(o, |a, b| f32::from_bits(if f(a, b) { u32::MAX } else { 0 }))
    }
    #[inline(always)]
    fn bitwise(self, o: Plain, f: impl Fn(u32, u32) -> u32) -> Plain {
        self.each(o, |a, b| f32::from_bits(f(a.to_bits(), b.to_bits())))
    }
}

impl Lanes for Plain {
    const PACKED: bool = false;
    fn splat(v: f32) -> Self {
        Plain([v; 4])
    }
    fn pairs(v: Vec2) -> Self {
        Plain([v.x, v.y, v.x, v.y])
    }
    unsafe fn load(p: *const f32) -> Self {
        // SAFETY: the caller's promise.
        Plain(unsafe { p.cast::<[f32; 4]>().read_unaligned() })
    }
    unsafe fn store(self, p: *mut f32) {
        // SAFETY: the caller's promise.
        unsafe { p.cast::<[f32; 4]>().write_unaligned(self.0) }
    }
    fn add(self, o: Self) -> Self {
        self.each(o, |a, b| a + b)
    }
    fn sub(self, o: Self) -> Self {
        self.each(o, |a, b| a - b)
    }
    fn mul(self, o: Self) -> Self {
        self.each(o, |a, b| a * b)
    }
    fn cell_index(x: Self, y: Self, (cmask, rmask, shift): (u32, u32, u32)) -> [u32; 4] {
        // Saturating, which in range is the truncation.
        std::array::from_fn(|i| ((y.0[i] as u32 & rmask) << shift) | (x.0[i] as u32 & cmask))
    }
    fn floor_index(x: Self, y: Self, (cmask, rmask, shift): (u32, u32, u32)) -> [u32; 4] {
        std::array::from_fn(|i| {
            let (col, row) = (floor_i32(x.0[i]) as u32, floor_i32(y.0[i]) as u32);
            ((row & rmask) << shift) | (col & cmask)
        })
    }
    fn le(self, o: Self) -> Self {
        self.mask(o, |a, b| a <= b)
    }
    fn lt(self, o: Self) -> Self {
        self.mask(o, |a, b| a < b)
    }
    fn ne(self, o: Self) -> Self {
        self.mask(o, |a, b| a != b)
    }
    fn and(self, o: Self) -> Self {
        self.bitwise(o, |a, b| a & b)
    }
    fn clear(self, mask: Self) -> Self {
        self.bitwise(mask, |a, m| a & !m)
    }
    fn select(mask: Self, a: Self, b: Self) -> Self {
        let m = mask.0.map(f32::to_bits);
        Plain(std::array::from_fn(|i| {
            f32::from_bits(m[i] & a.0[i].to_bits() | !m[i] & b.0[i].to_bits())
        }))
    }
    fn at_least(self, lo: Self) -> Self {
        self.each(lo, |v, lo| if v < lo { lo } else { v })
    }
    fn at_most(self, hi: Self) -> Self {
        self.each(hi, |v, hi| if hi < v { hi } else { v })
    }
    fn abs(self) -> Self {
        Plain(self.0.map(|v| f32::from_bits(v.to_bits() & 0x7fff_ffff)))
    }
    fn swap_pairs(self) -> Self {
        let [a, b, c, d] = self.0;
        Plain([b, a, d, c])
    }
    fn evens(self, o: Self) -> Self {
        Plain([self.0[0], self.0[2], o.0[0], o.0[2]])
    }
    fn odds(self, o: Self) -> Self {
        Plain([self.0[1], self.0[3], o.0[1], o.0[3]])
    }
    fn bits(self) -> u32 {
        (0..4).fold(0, |b, i| b | (self.0[i].to_bits() >> 31) << i)
    }
}

#[cfg(target_arch = "x86_64")]
pub(crate) use sse::Sse as Packed;

#[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
pub(crate) use simd128::Simd128 as Packed;

#[cfg(not(any(
    target_arch = "x86_64",
    all(target_arch = "wasm32", target_feature = "simd128")
)))]
pub(crate) use Plain as Packed;

/// Methods of a platform's [`Lanes`] wrapper `$ty` that apply one intrinsic to both
/// operands.
#[allow(
    unused_macros,
    reason = "used only where the platform has packed floats"
)]
macro_rules! binary {
    ($ty:ident, $($name:ident => $op:ident),* $(,)?) => {$(
        #[inline(always)]
        fn $name(self, o: Self) -> Self {
            // SAFETY: the platform's own intrinsics, compiled only where it has them (SSE2 is
            // part of x86_64; wasm's are safe to call where `simd128` is enabled).
            #[allow(unused_unsafe)]
            let r = unsafe { $op(self.0, o.0) };
            $ty(r)
        }
    )*};
}

#[cfg(target_arch = "x86_64")]
mod sse {
    use super::{Lanes, Vec2};
    use std::arch::x86_64::*;

    /// Four floats in an SSE register (SSE2 is part of x86_64).
    #[derive(Clone, Copy)]
    pub(crate) struct Sse(__m128);

    impl Lanes for Sse {
        const PACKED: bool = true;
        // `le` and `lt` are ordered (false with a NaN), `ne` unordered (true with one).
        binary! {
            Sse,
            add => _mm_add_ps,
            sub => _mm_sub_ps,
            mul => _mm_mul_ps,
            le => _mm_cmple_ps,
            lt => _mm_cmplt_ps,
            ne => _mm_cmpneq_ps,
            and => _mm_and_ps,
        }
        #[inline(always)]
        fn splat(v: f32) -> Self {
            // SAFETY: SSE2 is part of x86_64.
            Sse(unsafe { _mm_set1_ps(v) })
        }
        #[inline(always)]
        fn pairs(v: Vec2) -> Self {
            // SAFETY: SSE2 is part of x86_64.
            Sse(unsafe { _mm_setr_ps(v.x, v.y, v.x, v.y) })
        }
        #[inline(always)]
        unsafe fn load(p: *const f32) -> Self {
            // SAFETY: the caller's promise; the load is unaligned.
            Sse(unsafe { _mm_loadu_ps(p) })
        }
        #[inline(always)]
        unsafe fn store(self, p: *mut f32) {
            // SAFETY: the caller's promise; the store is unaligned.
            unsafe { _mm_storeu_ps(p, self.0) }
        }
        #[inline(always)]
        fn clear(self, mask: Self) -> Self {
            // SAFETY: SSE2 is part of x86_64.
            Sse(unsafe { _mm_andnot_ps(mask.0, self.0) })
        }
        #[inline(always)]
        fn select(mask: Self, a: Self, b: Self) -> Self {
            // SAFETY: SSE2 is part of x86_64.
            Sse(unsafe { _mm_or_ps(_mm_and_ps(mask.0, a.0), _mm_andnot_ps(mask.0, b.0)) })
        }
        #[inline(always)]
        fn at_least(self, lo: Self) -> Self {
            // `max(a, b)` is `a > b ? a : b`: the second operand wins a tie or a NaN.
            // SAFETY: SSE2 is part of x86_64.
            Sse(unsafe { _mm_max_ps(lo.0, self.0) })
        }
        #[inline(always)]
        fn at_most(self, hi: Self) -> Self {
            // `min(a, b)` is `a < b ? a : b`.
            // SAFETY: SSE2 is part of x86_64.
            Sse(unsafe { _mm_min_ps(hi.0, self.0) })
        }
        #[inline(always)]
        fn abs(self) -> Self {
            // SAFETY: SSE2 is part of x86_64.
            Sse(unsafe { _mm_and_ps(self.0, _mm_castsi128_ps(_mm_set1_epi32(i32::MAX))) })
        }
        #[inline(always)]
        fn swap_pairs(self) -> Self {
            // SAFETY: SSE2 is part of x86_64.
            Sse(unsafe { _mm_shuffle_ps::<0b10_11_00_01>(self.0, self.0) })
        }
        #[inline(always)]
        fn evens(self, o: Self) -> Self {
            // SAFETY: SSE2 is part of x86_64.
            Sse(unsafe { _mm_shuffle_ps::<0b10_00_10_00>(self.0, o.0) })
        }
        #[inline(always)]
        fn odds(self, o: Self) -> Self {
            // SAFETY: SSE2 is part of x86_64.
            Sse(unsafe { _mm_shuffle_ps::<0b11_01_11_01>(self.0, o.0) })
        }
        #[inline(always)]
        fn bits(self) -> u32 {
            // SAFETY: SSE2 is part of x86_64.
            unsafe { _mm_movemask_ps(self.0) as u32 }
        }
        #[inline(always)]
        fn cell_index(x: Self, y: Self, grid: (u32, u32, u32)) -> [u32; 4] {
            // SAFETY: SSE2 is part of x86_64. Out of range, the conversion gives `i32::MIN`.
            unsafe { index(_mm_cvttps_epi32(x.0), _mm_cvttps_epi32(y.0), grid) }
        }
        #[inline(always)]
        fn floor_index(x: Self, y: Self, grid: (u32, u32, u32)) -> [u32; 4] {
            /// `floor_i32` of each lane: the truncation (`i32::MIN` out of range and for NaN),
            /// less one where it is above the value (where the truncation is `i32::MIN`
            /// below range, that wraps to `i32::MAX`, as the scalar does), `i32::MAX` from
            /// 2^31 up (the truncation is `i32::MIN` there and nothing is subtracted: flipping
            /// every bit makes it `i32::MAX`), and 0 for NaN.
            ///
            /// # Safety
            ///
            /// SSE2 is part of x86_64.
            #[inline(always)]
            unsafe fn floor(v: __m128) -> __m128i {
                unsafe {
                    let t = _mm_cvttps_epi32(v);
                    let above = _mm_castps_si128(_mm_cmpgt_ps(_mm_cvtepi32_ps(t), v));
                    let t = _mm_add_epi32(t, above);
                    let high = _mm_castps_si128(_mm_cmpge_ps(v, _mm_set1_ps(2147483648.0)));
                    let number = _mm_castps_si128(_mm_cmpord_ps(v, v));
                    _mm_and_si128(_mm_xor_si128(t, high), number)
                }
            }
            // SAFETY: SSE2 is part of x86_64.
            unsafe { index(floor(x.0), floor(y.0), grid) }
        }
    }

    /// Each lane's cell index from its column `cx` and row `cy` (see [`Lanes::cell_index`]).
    ///
    /// # Safety
    ///
    /// SSE2 is part of x86_64.
    #[inline(always)]
    unsafe fn index(cx: __m128i, cy: __m128i, (cmask, rmask, shift): (u32, u32, u32)) -> [u32; 4] {
        let mut out = [0u32; 4];
        // SAFETY: the caller's promise; the store is unaligned, to four `u32`s.
        unsafe {
            let col = _mm_and_si128(cx, _mm_set1_epi32(cmask as i32));
            let row = _mm_and_si128(cy, _mm_set1_epi32(rmask as i32));
            let row = _mm_sll_epi32(row, _mm_cvtsi32_si128(shift as i32));
            _mm_storeu_si128(out.as_mut_ptr().cast(), _mm_or_si128(row, col));
        }
        out
    }
}

#[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
mod simd128 {
    use super::{Lanes, Vec2};
    use std::arch::wasm32::*;

    /// Four floats in a wasm `v128`.
    #[derive(Clone, Copy)]
    pub(crate) struct Simd128(v128);

    impl Lanes for Simd128 {
        const PACKED: bool = true;
        // IEEE compares: `le` and `lt` false with a NaN, `ne` true.
        binary! {
            Simd128,
            add => f32x4_add,
            sub => f32x4_sub,
            mul => f32x4_mul,
            le => f32x4_le,
            lt => f32x4_lt,
            ne => f32x4_ne,
            and => v128_and,
        }
        #[inline(always)]
        fn splat(v: f32) -> Self {
            Simd128(f32x4_splat(v))
        }
        #[inline(always)]
        fn pairs(v: Vec2) -> Self {
            Simd128(f32x4(v.x, v.y, v.x, v.y))
        }
        #[inline(always)]
        unsafe fn load(p: *const f32) -> Self {
            // SAFETY: the caller's promise; wasm loads need no alignment.
            Simd128(unsafe { v128_load(p.cast::<v128>()) })
        }
        #[inline(always)]
        unsafe fn store(self, p: *mut f32) {
            // SAFETY: the caller's promise; wasm stores need no alignment.
            unsafe { v128_store(p.cast::<v128>(), self.0) }
        }
        #[inline(always)]
        fn clear(self, mask: Self) -> Self {
            Simd128(v128_andnot(self.0, mask.0))
        }
        #[inline(always)]
        fn select(mask: Self, a: Self, b: Self) -> Self {
            Simd128(v128_bitselect(a.0, b.0, mask.0))
        }
        #[inline(always)]
        fn at_least(self, lo: Self) -> Self {
            // `pmax(a, b)` is `a < b ? b : a`.
            Simd128(f32x4_pmax(self.0, lo.0))
        }
        #[inline(always)]
        fn at_most(self, hi: Self) -> Self {
            // `pmin(a, b)` is `b < a ? b : a`.
            Simd128(f32x4_pmin(self.0, hi.0))
        }
        #[inline(always)]
        fn abs(self) -> Self {
            Simd128(f32x4_abs(self.0))
        }
        #[inline(always)]
        fn swap_pairs(self) -> Self {
            Simd128(i32x4_shuffle::<1, 0, 3, 2>(self.0, self.0))
        }
        #[inline(always)]
        fn evens(self, o: Self) -> Self {
            Simd128(i32x4_shuffle::<0, 2, 4, 6>(self.0, o.0))
        }
        #[inline(always)]
        fn odds(self, o: Self) -> Self {
            Simd128(i32x4_shuffle::<1, 3, 5, 7>(self.0, o.0))
        }
        #[inline(always)]
        fn bits(self) -> u32 {
            u32::from(i32x4_bitmask(self.0))
        }
        #[inline(always)]
        fn cell_index(x: Self, y: Self, grid: (u32, u32, u32)) -> [u32; 4] {
            // Saturating, which in range is the truncation.
            index(i32x4_trunc_sat_f32x4(x.0), i32x4_trunc_sat_f32x4(y.0), grid)
        }
        #[inline(always)]
        fn floor_index(x: Self, y: Self, grid: (u32, u32, u32)) -> [u32; 4] {
            // The saturating truncation is `as i32`'s; less one (wrapping) where it is above
            // the value, as `floor_i32` does.
            let floor = |v: v128| {
                let t = i32x4_trunc_sat_f32x4(v);
                i32x4_add(t, f32x4_gt(f32x4_convert_i32x4(t), v))
            };
            index(floor(x.0), floor(y.0), grid)
        }
    }

    /// Each lane's cell index from its column `cx` and row `cy` (see [`Lanes::cell_index`]).
    #[inline(always)]
    fn index(cx: v128, cy: v128, (cmask, rmask, shift): (u32, u32, u32)) -> [u32; 4] {
        let col = v128_and(cx, u32x4_splat(cmask));
        let row = i32x4_shl(v128_and(cy, u32x4_splat(rmask)), shift);
        let mut out = [0u32; 4];
        // SAFETY: four writable `u32`s; wasm stores need no alignment.
        unsafe { v128_store(out.as_mut_ptr().cast::<v128>(), v128_or(row, col)) };
        out
    }
}

#[cfg(test)]
mod tests;
