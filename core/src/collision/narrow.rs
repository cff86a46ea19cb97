//! Narrow phase: whether two colliders overlap, along which normal and how deep.

use crate::collision::body::Body;
use crate::def::Shape;
use crate::math::Vec2;

/// Overlap test; returns the normal from `a` to `b` and the penetration depth.
pub(crate) fn overlap(a: &Body, b: &Body) -> Option<(Vec2, f32)> {
    let d = b.pos - a.pos;
    match (a.shape, b.shape) {
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
        (Shape::Circle { radius }, Shape::Box { half }) => circle_box(a.pos, radius, b.pos, half),
        (Shape::Box { half }, Shape::Circle { radius }) => {
            circle_box(b.pos, radius, a.pos, half).map(|(n, depth)| (-n, depth))
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
    use crate::def::ArchetypeId;

    fn body(seq: u64, x: f32, y: f32, r: f32, boxed: bool) -> Body {
        Body {
            entity: hecs::Entity::DANGLING,
            seq,
            archetype: ArchetypeId(0),
            tags: 0,
            pos: Vec2::new(x, y),
            shape: if boxed {
                Shape::Box {
                    half: Vec2::new(r, r * 0.5),
                }
            } else {
                Shape::Circle { radius: r }
            },
            layer: 1,
            mask: 1,
            push: 0,
            trigger: false,
            stay: false,
            phys: Body::PLAIN,
        }
    }

    #[test]
    fn circle_box_normals_point_from_a_to_b() {
        let c = body(1, 0.0, 0.0, 5.0, false);
        let b = body(2, 6.0, 0.0, 4.0, true); // half (4, 2)
        let (n, depth) = overlap(&c, &b).unwrap();
        assert_eq!(n, Vec2::new(1.0, 0.0));
        assert_eq!(depth, 3.0);
        let (n2, d2) = overlap(&b, &c).unwrap();
        assert_eq!((n2, d2), (Vec2::new(-1.0, 0.0), 3.0));
    }
}
