//! Instances for the GPU, built on the CPU: one per shape, sprite, tile, particle or glyph,
//! each with the texture it samples. Kept apart from the renderer's GL calls so the cost of a
//! frame's CPU work can be measured without a window (`ludus bench --render`, criterion
//! `render`).
//!
//! Instances and their textures are two parallel arrays, so a run of draws that share a
//! texture is uploaded straight from the instance array, without a copy.

use super::atlas::Atlas;
use ludus_core::{Color, Draw, SpriteShape, par};
use std::mem::MaybeUninit;
use std::ops::Range;

/// One quad as the vertex shader reads it.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Instance {
    pub pos: [f32; 2],
    /// Rotation about the centre in radians (the vertex shader turns the corners).
    pub angle: f32,
    pub size: [f32; 2],
    pub uv: [f32; 4],
    pub color: [u8; 4],
    pub kind: f32,
}

/// A whole texture (shapes ignore it).
pub const WHOLE: [f32; 4] = [0.0, 0.0, 1.0, 1.0];

pub const RECT: f32 = 0.0;
pub const CIRCLE: f32 = 1.0;
pub const TEXTURED: f32 = 2.0;

/// Which texture a draw samples. Shapes sample none, so they join any run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Tex {
    Any,
    Font,
    Page(u16),
}

pub fn rgba(c: Color) -> [u8; 4] {
    [c.r, c.g, c.b, c.a]
}

/// Instances in draw order and the texture each needs.
///
/// Invariant: `instances.len() == textures.len()`.
#[derive(Default)]
pub struct Batch {
    pub instances: Vec<Instance>,
    pub textures: Vec<Tex>,
}

impl Batch {
    pub fn clear(&mut self) {
        self.instances.clear();
        self.textures.clear();
    }

    pub fn push(&mut self, tex: Tex, instance: Instance) {
        self.textures.push(tex);
        self.instances.push(instance);
    }

    /// Appends the world's draws (already in draw order); images' frames come from `images`.
    /// An image the atlas does not hold is drawn as a plain rectangle. Many draws are split
    /// between two threads, each filling its own part of both arrays.
    pub fn world(&mut self, draws: &[Draw], images: &Atlas) {
        let n = draws.len();
        self.textures.reserve(n);
        self.instances.reserve(n);
        let textures = &mut self.textures.spare_capacity_mut()[..n];
        let instances = &mut self.instances.spare_capacity_mut()[..n];
        if n >= par::SPLIT_MIN && par::available() {
            let mid = n / 2;
            let (da, db) = draws.split_at(mid);
            let (ta, tb) = textures.split_at_mut(mid);
            let (ia, ib) = instances.split_at_mut(mid);
            par::join(|| fill(da, images, ta, ia), || fill(db, images, tb, ib));
        } else {
            fill(draws, images, textures, instances);
        }
        // SAFETY: `fill` wrote all `n` slots after the old length of both arrays (each half
        // its own; `join` returns only once both have finished, and a panic unwinds past
        // this line), so both stay the same length, the type's invariant.
        unsafe {
            self.textures.set_len(self.textures.len() + n);
            self.instances.set_len(self.instances.len() + n);
        }
    }

    /// The runs of consecutive instances that one texture can draw, at most `max` long each,
    /// in order: `(texture, range)`; a run of shapes alone needs no texture (`Tex::Any`).
    pub fn runs(&self, max: usize) -> Runs<'_> {
        Runs {
            textures: &self.textures,
            start: 0,
            max: max.max(1),
        }
    }
}

/// Writes draw `i`'s texture and instance into `textures[i]` and `instances[i]`, for every
/// draw (the three are as long).
fn fill(
    draws: &[Draw],
    images: &Atlas,
    textures: &mut [MaybeUninit<Tex>],
    instances: &mut [MaybeUninit<Instance>],
) {
    for ((d, tex), instance) in draws.iter().zip(textures).zip(instances) {
        let (t, kind, uv) = match d.shape {
            SpriteShape::Rect => (Tex::Any, RECT, WHOLE),
            SpriteShape::Circle => (Tex::Any, CIRCLE, WHOLE),
            SpriteShape::Image(a) => match images.uv(a.0, d.frame, d.flip_x, d.flip_y) {
                Some((page, uv)) => (Tex::Page(page), TEXTURED, uv),
                None => (Tex::Any, RECT, WHOLE),
            },
        };
        tex.write(t);
        instance.write(Instance {
            pos: [d.pos.x, d.pos.y],
            angle: d.angle,
            size: [d.size.x, d.size.y],
            uv,
            color: rgba(d.color),
            kind,
        });
    }
}

/// See [`Batch::runs`].
pub struct Runs<'a> {
    textures: &'a [Tex],
    start: usize,
    max: usize,
}

impl Iterator for Runs<'_> {
    type Item = (Tex, Range<usize>);

    fn next(&mut self) -> Option<Self::Item> {
        let t = self.textures;
        let start = self.start;
        if start >= t.len() {
            return None;
        }
        let mut tex = t[start];
        let mut end = start + 1;
        while end < t.len() && end - start < self.max {
            match (tex, t[end]) {
                (_, Tex::Any) => {}
                (Tex::Any, next) => tex = next,
                (a, b) if a == b => {}
                _ => break,
            }
            end += 1;
        }
        self.start = end;
        Some((tex, start..end))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn batch(textures: &[Tex]) -> Batch {
        let mut b = Batch::default();
        for t in textures {
            b.push(*t, Instance::default());
        }
        b
    }

    #[test]
    fn shapes_join_the_run_they_are_in_and_pages_split_runs() {
        use Tex::*;
        let b = batch(&[Any, Page(0), Any, Page(0), Page(1), Any, Font, Any]);
        let runs: Vec<(Tex, Range<usize>)> = b.runs(100).collect();
        assert_eq!(runs, [(Page(0), 0..4), (Page(1), 4..6), (Font, 6..8)]);
        // Shapes alone: one run that needs no texture.
        assert_eq!(
            batch(&[Any, Any]).runs(100).collect::<Vec<_>>(),
            [(Any, 0..2)]
        );
        // Runs stop at the buffer's size.
        let long: Vec<(Tex, Range<usize>)> = batch(&[Page(0); 5]).runs(2).collect();
        assert_eq!(long, [(Page(0), 0..2), (Page(0), 2..4), (Page(0), 4..5)]);
        assert_eq!(batch(&[]).runs(2).count(), 0);
    }
}
