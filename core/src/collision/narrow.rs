//! Narrow phase: whether two colliders overlap, along which normal and how deep.

use crate::def::Shape;
use crate::math::Vec2;

/// Overlap test of shape `sa` at `pa` and `sb` at `pb`; returns the normal from `a` to `b`
/// and the penetration depth.
#[inline]
pub(crate) fn overlap(sa: Shape, pa: Vec2, sb: Shape, pb: Vec2) -> Option<(Vec2, f32)> {
    let d = pb - pa;
    match (sa, sb) {
        (Shape::Circle { radius: ra }, Shape::Circle { radius: rb }) => {
            let r = ra + rb;
            let dist2 = d.length_squared();
            if dist2 >= r * r {
                return None;
            }
            let dist = dist2.sqrt();
            let normal = if dist > 0.0 {
                Vec2::new(d.x / dist, d.y / dist)
            } else {
                Vec2::new(1.0, 0.0)
            };
            Some((normal, r - dist))
        }
        (Shape::Box { half: ha }, Shape::Box { half: hb }) => {
            let ox = ha.x + hb.x - d.x.abs();
            let oy = ha.y + hb.y - d.y.abs();
            if ox <= 0.0 || oy <= 0.0 {
                return None;
            }
            if ox < oy {
                Some((Vec2::new(if d.x < 0.0 { -1.0 } else { 1.0 }, 0.0), ox))
            } else {
                Some((Vec2::new(0.0, if d.y < 0.0 { -1.0 } else { 1.0 }), oy))
            }
        }
        (Shape::Circle { radius }, Shape::Box { half }) => circle_box(pa, radius, pb, half),
        (Shape::Box { half }, Shape::Circle { radius }) => {
            circle_box(pb, radius, pa, half).map(|(n, depth)| (-n, depth))
        }
    }
}

/// Circle at `c` against box at `b`; the normal points from the circle to the box.
fn circle_box(c: Vec2, r: f32, b: Vec2, half: Vec2) -> Option<(Vec2, f32)> {
    let local = c - b;
    let closest = Vec2::new(
        local.x.clamp(-half.x, half.x),
        local.y.clamp(-half.y, half.y),
    );
    let inside = closest == local;
    if inside {
        // Centre inside the box: leave along the axis of least penetration.
        let ox = half.x - local.x.abs();
        let oy = half.y - local.y.abs();
        return if ox < oy {
            Some((
                Vec2::new(if local.x < 0.0 { 1.0 } else { -1.0 }, 0.0),
                ox + r,
            ))
        } else {
            Some((
                Vec2::new(0.0, if local.y < 0.0 { 1.0 } else { -1.0 }),
                oy + r,
            ))
        };
    }
    let d = local - closest;
    let dist2 = d.length_squared();
    if dist2 >= r * r {
        return None;
    }
    let dist = dist2.sqrt();
    Some((Vec2::new(-d.x / dist, -d.y / dist), r - dist))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn circle_box_normals_point_from_a_to_b() {
        let c = (Shape::Circle { radius: 5.0 }, Vec2::new(0.0, 0.0));
        let b = (
            Shape::Box {
                half: Vec2::new(4.0, 2.0),
            },
            Vec2::new(6.0, 0.0),
        );
        let (n, depth) = overlap(c.0, c.1, b.0, b.1).unwrap();
        assert_eq!(n, Vec2::new(1.0, 0.0));
        assert_eq!(depth, 3.0);
        let (n2, d2) = overlap(b.0, b.1, c.0, c.1).unwrap();
        assert_eq!((n2, d2), (Vec2::new(-1.0, 0.0), 3.0));
    }
}
