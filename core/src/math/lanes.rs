//! Four packed floats, and the hot path's loops written once over them: a box test of eight
//! points, the cells of eight points and the floored buckets of four, a step-and-clamp of two
//! bodies, a checked copy, eight velocities from headings and speeds, eight reach tests, and
//! a group's due check over its brains' words.
//!
//! The one cfg for packed floats is [`Packed`]: x86_64's SSE2 (`sse.rs`), wasm's `simd128`
//! (`simd128.rs`; the browser build enables it: see `.cargo/config.toml`), else
//! [`Plain`](four::Plain), four floats one at a time (`four.rs`, with what every lane type
//! does, [`Lanes`]). Every operation gives each lane the bits the scalar operation would (NaN,
//! infinities and signed zeros included), so a loop gives the same results on every platform;
//! the tests compare [`Packed`] with `Plain` and with the scalar code each loop stands for.
//!
//! Two loops also run eight lanes wide where an x86_64 CPU has AVX2, asked at run time (in
//! `wide.rs`): the sparse search's box and marks test ([`each_marked`]), which every collider
//! that does not look takes each tick, with the same calls in the same order; and the
//! step-and-clamp ([`step_within`]), four bodies at a time with the same results. The marks
//! test runs sixteen lanes wide where the CPU also has AVX-512 (`sixteen.rs`), again with the
//! same calls in the same order.

use super::Vec2;

mod four;
mod packed;
mod steps;

#[cfg(test)]
use four::Plain;
pub(crate) use four::floor_i32;
use four::{FULL, Lanes, PACK, batch, hand_on};
pub(crate) use packed::Packed;
pub(crate) use steps::{step_free, step_one, step_within};
#[cfg(test)]
use steps::{step_free_by, step_within_by};

/// Bit `j` set when `p[j]` lies in the box `lo..=hi`, edges included (`lo <= p[j] <= hi` on
/// both axes, as `f32` compares: a NaN coordinate is outside).
#[inline(always)]
pub(crate) fn in_box8(p: &[Vec2; 8], lo: Vec2, hi: Vec2) -> u32 {
    in_box8_by::<Packed>(p, lo, hi)
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

/// A sparse search's test of points against the marked cells around its queriers (see
/// `collision::marks`): the box `lo..=hi` and a wrapping grid of cells `1 / inv` wide from
/// `lo` (see [`Lanes::cell_index`] for `grid`), whose side along x is `1 << shift`.
#[derive(Clone, Copy, Debug)]
pub(crate) struct MarkTest {
    pub lo: Vec2,
    pub hi: Vec2,
    pub inv: f32,
    pub grid: (u32, u32, u32),
    /// The box is under 2^22 cells from `lo` each way and the grid's masks under 2^22: a
    /// cell is then found as [`Lanes::small_cell_index`] finds it.
    pub small: bool,
}

/// Calls `near(k)`, in order, for each `pos[k]` inside `test`'s box whose cell's byte in
/// `bits` is not zero, the cell found as [`Eight::cells`] finds it (the box must be under
/// 2^31 cells from `lo` each way): sixteen points a step in 512-bit registers or eight in
/// 256-bit ones where the CPU has them, else eight in two of four lanes, and the rest one at
/// a time ([`each_marked_rest`]). `bits` holds the grid's `(rmask + 1) << shift` bytes
/// (`cmask + 1 == 1 << shift`).
#[inline]
pub(crate) fn each_marked(
    pos: &[Vec2],
    test: &MarkTest,
    bits: &[u8],
    near: &mut impl FnMut(usize),
) {
    let (cmask, rmask, shift) = test.grid;
    let cells = (rmask as usize + 1).checked_shl(shift);
    assert!(
        cmask.checked_add(1) == 1u32.checked_shl(shift) && cells.is_some_and(|c| bits.len() >= c),
        "marks' grid and bytes"
    );
    #[cfg(target_arch = "x86_64")]
    if std::arch::is_x86_feature_detected!("avx2") {
        let sixteen = shift >= 2 && std::arch::is_x86_feature_detected!("avx512f");
        return each_marked_wide(pos, test, bits, near, sixteen);
    }
    each_marked_by::<Packed>(pos, test, bits, near);
}

/// [`each_marked`] where the CPU has AVX2: sixteen points a step where `sixteen` (the CPU has
/// AVX-512 and the grid is at least four cells across), else eight; the rest one at a time.
#[cfg(target_arch = "x86_64")]
#[inline]
fn each_marked_wide(
    pos: &[Vec2],
    test: &MarkTest,
    bits: &[u8],
    near: &mut impl FnMut(usize),
    sixteen: bool,
) {
    let (boxed, grid) = ((test.lo, test.hi, test.inv), test.grid);
    if sixteen {
        let (whole, rest) = pos.as_chunks::<16>();
        // SAFETY: the CPU has AVX-512F (the caller asked); the grid and its bytes as
        // `sixteen::each_marked` needs (checked by the caller).
        unsafe { self::sixteen::each_marked(whole, boxed, grid, bits, near) };
        each_marked_rest(rest, 16 * whole.len(), test, bits, near);
    } else {
        let (whole, rest) = pos.as_chunks::<8>();
        // SAFETY: the CPU has AVX2; the grid and its bytes as `wide::each_marked` needs.
        unsafe { wide::each_marked(whole, boxed, grid, bits, near) };
        each_marked_rest(rest, 8 * whole.len(), test, bits, near);
    }
}

/// [`each_marked`] one point at a time, for the points past a run's whole chunks (`first`:
/// the first one's index in the run): the same ordered compares (false with a NaN),
/// subtraction, multiplication and truncation as a chunk's lanes, so the same points.
/// A chunk padded with NaN for them cost a run of a few colliders more than its points did
/// (its copy, whose wide loads waited for the copy's stores, and a chunk's setup).
#[inline(always)]
fn each_marked_rest(
    rest: &[Vec2],
    first: usize,
    test: &MarkTest,
    bits: &[u8],
    near: &mut impl FnMut(usize),
) {
    let (lo, hi, inv, (cmask, rmask, shift)) = (test.lo, test.hi, test.inv, test.grid);
    for (k, p) in rest.iter().enumerate() {
        if lo.x <= p.x && p.x <= hi.x && lo.y <= p.y && p.y <= hi.y {
            // Inside the box each is in `0..2^31` (it is under 2^31 cells across), where the
            // saturating cast is the lanes' truncation.
            let (cx, cy) = (((p.x - lo.x) * inv) as u32, ((p.y - lo.y) * inv) as u32);
            if bits[(((cy & rmask) << shift) | (cx & cmask)) as usize] != 0 {
                near(first + k);
            }
        }
    }
}

/// Whether any word of `words` is a deadline due at `tick`: at most `tick`, and not
/// `u64::MAX` (an inactive deadline's word), as `Deadline::due` tests one. Four words a step
/// where an x86_64 CPU has AVX2 (asked at run time), else one at a time without a branch.
#[inline]
pub(crate) fn any_due(words: &[u64], tick: u64) -> bool {
    #[cfg(target_arch = "x86_64")]
    if words.len() >= 4 && std::arch::is_x86_feature_detected!("avx2") {
        let (whole, rest) = words.as_chunks::<4>();
        // SAFETY: the CPU has AVX2.
        return unsafe { wide::any_due(whole, tick) } || any_due_rest(rest, tick);
    }
    any_due_rest(words, tick)
}

/// [`any_due`] one word at a time.
#[inline(always)]
fn any_due_rest(words: &[u64], tick: u64) -> bool {
    words
        .iter()
        .fold(false, |any, &d| any | ((d <= tick) & (d != u64::MAX)))
}

/// Bit `k` set where the point `b` is within `reach[k] + extent` of point `k` (`xs[k]`,
/// `ys[k]`): `b - p` squared and summed, under the square of the sum, in `f32`, the scalar
/// operations in their order (`b.x - x`, `dx * dx + dy * dy`, `reach + extent`); false with a
/// NaN. Four points a step where the platform has packed floats.
#[inline(always)]
pub(crate) fn within8(xs: &[f32; 8], ys: &[f32; 8], reach: &[f32; 8], b: Vec2, extent: f32) -> u32 {
    within8_by::<Packed>(xs, ys, reach, b, extent)
}

#[inline(always)]
fn within8_by<L: Lanes>(
    xs: &[f32; 8],
    ys: &[f32; 8],
    reach: &[f32; 8],
    b: Vec2,
    extent: f32,
) -> u32 {
    let (bx, by, e) = (L::splat(b.x), L::splat(b.y), L::splat(extent));
    let mut bits = 0;
    for four in [0, 4] {
        // SAFETY: floats `four..four + 4` of arrays of eight.
        let (x, y, r) = unsafe {
            (
                L::load(xs.as_ptr().add(four)),
                L::load(ys.as_ptr().add(four)),
                L::load(reach.as_ptr().add(four)),
            )
        };
        let (dx, dy, r) = (bx.sub(x), by.sub(y), r.add(e));
        bits |= dx.mul(dx).add(dy.mul(dy)).lt(r.mul(r)).bits() << four;
    }
    bits
}

/// Of eight records of two words: whether any second word is at least `top` (above 0), and
/// the records whose second word's bits under `mask` may be at most `at`, bit `k` for record
/// `k`: every such record's bit is set, and others may be (all eight where any is, outside
/// the browser). Every second word, `top` and `at` are below 2^63.
#[inline(always)]
pub(crate) fn top_or_at_most8(
    records: &[[u64; 2]; 8],
    mask: u64,
    at: u64,
    top: u64,
) -> (bool, u32) {
    Packed::top_or_at_most8(records, mask, at, top)
}

/// Eight bodies' velocities from their headings and speeds: `out[k]` is `heads[k]`'s first
/// two floats, each times `by[k]` (the last two floats of a head are not read), as the scalar
/// products: four bodies a step where the platform has packed floats.
#[inline(always)]
pub(crate) fn scale8(out: &mut [Vec2; 8], heads: &[[f32; 4]; 8], by: &[f32; 8]) {
    if Packed::PACKED {
        scale8_by::<Packed>(out, heads, by);
    } else {
        for ((o, h), s) in out.iter_mut().zip(heads).zip(by) {
            *o = Vec2::new(h[0] * s, h[1] * s);
        }
    }
}

#[inline(always)]
fn scale8_by<L: Lanes>(out: &mut [Vec2; 8], heads: &[[f32; 4]; 8], by: &[f32; 8]) {
    let (o, h, s) = (
        out.as_mut_ptr().cast::<f32>(),
        heads.as_ptr().cast::<f32>(),
        by.as_ptr(),
    );
    for four in [0, 4] {
        // SAFETY: heads `four..four + 4` (sixteen floats each step), speeds `four..four + 4`
        // and bodies `four..four + 4` (eight floats: `Vec2` is `repr(C)`).
        unsafe {
            let at = |k: usize| L::load(h.add((four + k) * 4));
            let speeds = L::load(s.add(four));
            let (a, b) = (at(0).lows(at(1)), at(2).lows(at(3)));
            a.mul(speeds.twice_low()).store(o.add(four * 2));
            b.mul(speeds.twice_high()).store(o.add(four * 2 + 4));
        }
    }
}

/// Per lane of eight (rows `k`, `k + 8`, ... of a run share lane `k`): the least squared
/// distance met ([`least8`]), the first row at it, and whether a later row of the lane met it
/// again. A lane that met no distance less than infinity holds `INFINITY` and row 0.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Least8 {
    pub least: [f32; 8],
    pub row: [u32; 8],
    pub tie: [bool; 8],
}

/// The least squared distance from `from` of each lane's points of `pos` (see [`Least8`]),
/// each the scalar `(p - from).length_squared()` (`dx * dx + dy * dy`) bit for bit; a NaN is
/// never less. Whole chunks of eight four lanes at a time where the platform has packed
/// floats, with no branch a point; the fewer than eight left one at a time.
#[inline(always)]
pub(crate) fn least8(pos: &[Vec2], from: Vec2) -> Least8 {
    least8_by::<Packed>(pos, from)
}

#[inline(always)]
fn least8_by<L: Lanes>(pos: &[Vec2], from: Vec2) -> Least8 {
    let (fx, fy, inf) = (L::splat(from.x), L::splat(from.y), L::splat(f32::INFINITY));
    let (ones, zero) = (L::splat(f32::from_bits(u32::MAX)), L::splat(0.0));
    // Each lane's least, the chunk it was met in (its index's bits: a select moves bits) and
    // its tie mask.
    let (mut least, mut chunk, mut tie) = ([inf; 2], [zero; 2], [zero; 2]);
    let (whole, rest) = pos.as_chunks::<8>();
    for (c, p) in whole.iter().enumerate() {
        let (eight, at) = (Eight::<L>::load(p), L::splat(f32::from_bits(c as u32)));
        for h in 0..2 {
            let (dx, dy) = (eight.xs[h].sub(fx), eight.ys[h].sub(fy));
            let d = dx.mul(dx).add(dy.mul(dy));
            let (less, equal) = (d.lt(least[h]), ones.clear(d.ne(least[h])));
            // `equal | (tie & !less)`: a select of a mask by itself is the mask.
            tie[h] = L::select(equal, equal, tie[h].clear(less));
            least[h] = L::select(less, d, least[h]);
            chunk[h] = L::select(less, at, chunk[h]);
        }
    }
    let mut out = Least8 {
        least: [f32::INFINITY; 8],
        row: [0; 8],
        tie: [false; 8],
    };
    for h in 0..2 {
        let (mut l, mut c) = ([0f32; 4], [0f32; 4]);
        // SAFETY: four floats each.
        unsafe {
            (
                least[h].store(l.as_mut_ptr()),
                chunk[h].store(c.as_mut_ptr()),
            )
        };
        let t = tie[h].bits();
        for k in 0..4 {
            let lane = h * 4 + k;
            out.least[lane] = l[k];
            // Row 0 where the lane met nothing less (its chunk stays 0, its least infinity).
            out.row[lane] = if l[k] < f32::INFINITY {
                c[k].to_bits() * 8 + lane as u32
            } else {
                0
            };
            out.tie[lane] = t >> k & 1 != 0;
        }
    }
    let done = (whole.len() * 8) as u32;
    for (k, p) in rest.iter().enumerate() {
        let d = (*p - from).length_squared();
        let (less, equal) = (d < out.least[k], d == out.least[k]);
        out.tie[k] = (out.tie[k] & !less) | equal;
        if less {
            (out.least[k], out.row[k]) = (d, done + k as u32);
        }
    }
    out
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

/// Eight points loaded once: their x and y coordinates, points 0 to 3 and 4 to 7.
#[derive(Clone, Copy)]
struct Eight<L> {
    xs: [L; 2],
    ys: [L; 2],
}

impl<L: Lanes> Eight<L> {
    #[inline(always)]
    fn load(p: &[Vec2; 8]) -> Eight<L> {
        let f = p.as_ptr().cast::<f32>();
        let four = |at: usize| {
            // SAFETY: floats `at..at + 8` of the sixteen of `p` (`Vec2` is `repr(C)`).
            let (a, b) = unsafe { (L::load(f.add(at)), L::load(f.add(at + 4))) };
            (a.evens(b), a.odds(b))
        };
        let ((x0, y0), (x1, y1)) = (four(0), four(8));
        Eight {
            xs: [x0, x1],
            ys: [y0, y1],
        }
    }

    /// See [`in_box8`].
    #[inline(always)]
    fn in_box(self, lo: Vec2, hi: Vec2) -> u32 {
        let (lx, ly) = (L::splat(lo.x), L::splat(lo.y));
        let (hx, hy) = (L::splat(hi.x), L::splat(hi.y));
        let four = |k: usize| {
            let (xs, ys) = (self.xs[k], self.ys[k]);
            let x = lx.le(xs).and(xs.le(hx));
            let y = ly.le(ys).and(ys.le(hy));
            x.and(y).bits()
        };
        four(0) | four(1) << 4
    }

    /// The index of each point's cell on a wrapping grid of cells `1 / inv` wide from `lo`
    /// (see [`Lanes::cell_index`] for `grid`): the column and row are the truncations of
    /// `(p[j].x - lo.x) * inv` and `(p[j].y - lo.y) * inv`, as `to_int_unchecked` gives them.
    /// Only where both are in `0..2^31` (a point inside a box of under 2^31 cells from `lo`):
    /// elsewhere the index differs by platform.
    /// With `SMALL`, as [`Lanes::small_cell_index`] finds them.
    #[inline(always)]
    fn cells<const SMALL: bool>(self, lo: Vec2, inv: f32, grid: (u32, u32, u32)) -> [u32; 8] {
        let (lx, ly, inv) = (L::splat(lo.x), L::splat(lo.y), L::splat(inv));
        let four = |k: usize| {
            let (x, y) = (self.xs[k].sub(lx).mul(inv), self.ys[k].sub(ly).mul(inv));
            match SMALL {
                true => L::small_cell_index(x, y, grid),
                false => L::cell_index(x, y, grid),
            }
        };
        let (lo4, hi4) = (four(0), four(1));
        std::array::from_fn(|j| if j < 4 { lo4[j] } else { hi4[j - 4] })
    }
}

#[inline(always)]
fn in_box8_by<L: Lanes>(p: &[Vec2; 8], lo: Vec2, hi: Vec2) -> u32 {
    Eight::<L>::load(p).in_box(lo, hi)
}

/// [`each_marked`] four lanes at a time: each chunk of eight points loaded once for the box
/// test and the cells, the eight marks read without a branch a point.
#[inline(always)]
fn each_marked_by<L: Lanes>(
    pos: &[Vec2],
    test: &MarkTest,
    bits: &[u8],
    near: &mut impl FnMut(usize),
) {
    match test.small {
        true => each_marked_in::<L, true>(pos, test, bits, near),
        false => each_marked_in::<L, false>(pos, test, bits, near),
    }
}

/// [`each_marked_by`], the cells found as `SMALL` says (see [`Eight::cells`]).
#[inline(always)]
fn each_marked_in<L: Lanes, const SMALL: bool>(
    pos: &[Vec2],
    test: &MarkTest,
    bits: &[u8],
    near: &mut impl FnMut(usize),
) {
    let (lo, hi, inv, grid) = (test.lo, test.hi, test.inv, test.grid);
    let cells = (grid.1 as usize + 1) << grid.2;
    let bits = &bits[..cells];
    // Whole chunks of eight, then the rest one at a time.
    let (whole, rest) = pos.as_chunks::<8>();
    // The hits so far (indices into `pos`, ascending), handed on past `FULL` of them.
    // Invariant: its first `len` slots are written.
    let (mut batch, mut len) = (batch(), 0usize);
    for (c, chunk) in whole.iter().enumerate() {
        let eight = Eight::<L>::load(chunk);
        let inside = eight.in_box(lo, hi);
        if inside == 0 {
            continue;
        }
        // SAFETY: a cell is masked into the grid (`cmask + 1 == 1 << shift`), even a
        // point's outside the box, whose lane is dropped below.
        let marked = unsafe { L::marks8(&eight.cells::<SMALL>(lo, inv, grid), bits) };
        // The chunk's hits packed without a branch (see `PACK`), all eight lanes written.
        let hits = (inside & marked) as usize & 0xff;
        let (first, row) = ((c * 8) as u32, &PACK[hits]);
        for (slot, lane) in batch[len..len + 8].iter_mut().zip(row) {
            slot.write(first + lane);
        }
        len += hits.count_ones() as usize;
        if len > FULL {
            // SAFETY: the first `len` slots are written (the invariant).
            unsafe { hand_on(&batch, len, near) };
            len = 0;
        }
    }
    // SAFETY: as above.
    unsafe { hand_on(&batch, len, near) };
    each_marked_rest(rest, 8 * whole.len(), test, bits, near);
}

/// Whether every coordinate of `src` is finite ([`copy_finite`] without the copy).
#[inline(always)]
pub(crate) fn all_finite(src: &[Vec2]) -> bool {
    if Packed::PACKED {
        all_finite_by::<Packed>(src)
    } else {
        src.iter()
            .fold(true, |f, s| f & s.x.is_finite() & s.y.is_finite())
    }
}

#[inline(always)]
fn all_finite_by<L: Lanes>(src: &[Vec2]) -> bool {
    let pairs = src.len() / 2 * 2;
    let s = src.as_ptr().cast::<f32>();
    let inf = L::splat(f32::INFINITY);
    // Every lane set (infinity <= infinity), cleared where a coordinate is not finite.
    let mut all = inf.le(inf);
    for i in (0..pairs).step_by(2) {
        // SAFETY: vectors `i` and `i + 1` (`i + 2 <= len`): four floats.
        let v = unsafe { L::load(s.add(i * 2)) };
        all = all.and(v.abs().lt(inf));
    }
    let rest = src[pairs..].iter();
    (all.bits() == 0b1111) & rest.fold(true, |f, s| f & s.x.is_finite() & s.y.is_finite())
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
mod sse;

#[cfg(target_arch = "x86_64")]
mod wide;

#[cfg(target_arch = "x86_64")]
mod sixteen;

#[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
mod simd128;

#[cfg(test)]
mod tests;
