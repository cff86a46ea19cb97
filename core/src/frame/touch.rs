//! Touches: the fingers down on the game's view, as a tick sees them, and the one set of rules
//! every input path (the window, `--frames` and `--input` files, recordings) keeps them by.

use serde::{Deserialize, Deserializer, Serialize};

/// The most touches one tick sees: a finger that goes down while this many are down is
/// ignored until it lifts.
pub const MAX_TOUCHES: usize = 10;

/// The largest coordinate, in world units, of a touch (and of the pointer).
pub const MAX_TOUCH_COORD: f32 = 1e9;

/// One finger down, at (`x`, `y`) in world units. `id` names the finger from the moment it
/// goes down until it lifts; a later finger may take the same number.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Touch {
    pub id: u32,
    pub x: f32,
    pub y: f32,
}

impl Touch {
    pub fn new(id: u32, [x, y]: [f32; 2]) -> Touch {
        Touch { id, x, y }
    }

    pub fn at(&self) -> [f32; 2] {
        [self.x, self.y]
    }
}

/// Whether `[x, y]` may be a touch's (or the pointer's) position: both finite, within
/// ±[`MAX_TOUCH_COORD`].
pub fn valid_position([x, y]: [f32; 2]) -> bool {
    [x, y]
        .iter()
        .all(|v| v.is_finite() && v.abs() <= MAX_TOUCH_COORD)
}

/// Finger `id` went down or moved to `at`, or lifted (`None`), in a list of the touches down
/// in the order they went down.
///
/// Invariants of a list changed only through [`set`] and [`replace`]: at most
/// [`MAX_TOUCHES`] touches, distinct ids, each position [`valid_position`]. A finger that
/// goes down while the list is full, or at a position that is not valid, is ignored (false);
/// a finger that moves to a position that is not valid stays where it was.
pub fn set(list: &mut Vec<Touch>, id: u32, at: Option<[f32; 2]>) -> bool {
    let Some(at) = at else {
        list.retain(|t| t.id != id);
        return true;
    };
    if !valid_position(at) {
        return false;
    }
    match list.iter().position(|t| t.id == id) {
        Some(i) => list[i] = Touch::new(id, at),
        None if list.len() < MAX_TOUCHES => list.push(Touch::new(id, at)),
        None => return false,
    }
    true
}

/// The touches down become `now`: a finger not in it lifts, the others move there or go down,
/// those already down keeping their place (so the list stays in the order fingers went down;
/// those new go down in `now`'s order). `now` should be a list [`check`] accepts; what
/// `set` ignores of it is ignored.
pub fn replace(list: &mut Vec<Touch>, now: &[Touch]) {
    list.retain(|t| now.iter().any(|n| n.id == t.id));
    for t in now {
        set(list, t.id, Some(t.at()));
    }
}

/// Where a list of touches all just set puts the pointer: at the first touch down (the one
/// down longest), or nowhere new (`None`: the pointer stays where it was) when no finger is
/// down. (Finger by finger, only the first finger's own moves move the pointer: see
/// [`InputBridge::set_touch`](crate::InputBridge::set_touch).)
pub fn pointer(list: &[Touch]) -> Option<[f32; 2]> {
    list.first().map(Touch::at)
}

/// Checks a list written by hand or decoded: at most [`MAX_TOUCHES`], distinct ids, each
/// position [`valid_position`]. The message names the first problem.
pub fn check(list: &[Touch]) -> Result<(), String> {
    if list.len() > MAX_TOUCHES {
        return Err(format!(
            "{} touches (at most {MAX_TOUCHES} fingers are down at once)",
            list.len()
        ));
    }
    for (i, t) in list.iter().enumerate() {
        if list[..i].iter().any(|o| o.id == t.id) {
            return Err(format!("touch id {} twice (each finger has its own)", t.id));
        }
        if !valid_position(t.at()) {
            return Err(format!(
                "touch {} at [{:?}, {:?}] (a touch is at two finite coordinates within ±1e9)",
                t.id, t.x, t.y
            ));
        }
    }
    Ok(())
}

/// Decodes a tick's touches, refusing a list longer than [`MAX_TOUCHES`] as it fills, its
/// memory charged to the decode's budget (use with `#[serde(deserialize_with = ...)]`).
pub(crate) fn bounded<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<Touch>, D::Error> {
    crate::budget::vec_at_most(d, MAX_TOUCHES, "touches in one tick")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ids(list: &[Touch]) -> Vec<u32> {
        list.iter().map(|t| t.id).collect()
    }

    #[test]
    fn fingers_keep_the_order_they_went_down_in() {
        let mut list = Vec::new();
        // (finger, position or lift, accepted, ids after, the first touch's position)
        type Step<'a> = (u32, Option<[f32; 2]>, bool, &'a [u32], Option<[f32; 2]>);
        let steps: &[Step] = &[
            (7, Some([1.0, 2.0]), true, &[7], Some([1.0, 2.0])),
            (3, Some([5.0, 5.0]), true, &[7, 3], Some([1.0, 2.0])),
            (7, Some([2.0, 2.0]), true, &[7, 3], Some([2.0, 2.0])),
            (3, Some([f32::NAN, 0.0]), false, &[7, 3], Some([2.0, 2.0])),
            (9, Some([2e9, 0.0]), false, &[7, 3], Some([2.0, 2.0])),
            (7, None, true, &[3], Some([5.0, 5.0])),
            (7, Some([0.0, 0.0]), true, &[3, 7], Some([5.0, 5.0])),
            (3, None, true, &[7], Some([0.0, 0.0])),
            (7, None, true, &[], None),
            (1, None, true, &[], None),
        ];
        for (i, (id, at, accepted, after, first)) in steps.iter().enumerate() {
            assert_eq!(set(&mut list, *id, *at), *accepted, "step {i}: accepted");
            assert_eq!(ids(&list), *after, "step {i}: the fingers down");
            assert_eq!(pointer(&list), *first, "step {i}: the first touch");
            assert_eq!(check(&list), Ok(()), "step {i}: the list stays valid");
        }
    }

    #[test]
    fn an_eleventh_finger_is_ignored_until_one_lifts() {
        let mut list = Vec::new();
        for id in 0..MAX_TOUCHES as u32 {
            assert!(set(&mut list, id, Some([id as f32, 0.0])), "finger {id}");
        }
        assert!(
            !set(&mut list, 99, Some([0.0, 0.0])),
            "the eleventh is ignored"
        );
        assert_eq!(
            list.len(),
            MAX_TOUCHES,
            "the list never grows past the limit"
        );
        assert!(set(&mut list, 4, Some([8.0, 8.0])), "one down still moves");
        assert!(set(&mut list, 0, None), "one lifts");
        assert!(set(&mut list, 99, Some([0.0, 0.0])), "now there is room");
        assert_eq!(list.last(), Some(&Touch::new(99, [0.0, 0.0])));
    }

    #[test]
    fn replacing_lifts_the_missing_and_keeps_the_order_of_those_down() {
        let mut list = Vec::new();
        let t = |id, x: f32| Touch::new(id, [x, 0.0]);
        // (the touches a line gives, the list after)
        let steps: &[(&[Touch], &[Touch])] = &[
            (&[t(2, 1.0), t(1, 2.0)], &[t(2, 1.0), t(1, 2.0)]),
            (
                &[t(1, 3.0), t(5, 4.0), t(2, 5.0)],
                &[t(2, 5.0), t(1, 3.0), t(5, 4.0)],
            ),
            (&[t(5, 6.0)], &[t(5, 6.0)]),
            (&[], &[]),
        ];
        for (i, (now, after)) in steps.iter().enumerate() {
            replace(&mut list, now);
            assert_eq!(list, *after, "step {i}");
        }
    }

    #[test]
    fn check_names_the_first_problem() {
        let t = |id, x: f32| Touch::new(id, [x, 0.0]);
        let eleven: Vec<Touch> = (0..11).map(|i| t(i, 0.0)).collect();
        let cases: &[(&[Touch], Result<(), String>)] = &[
            (&[], Ok(())),
            (&[t(1, 0.0), t(2, -1e9)], Ok(())),
            (
                &eleven,
                Err("11 touches (at most 10 fingers are down at once)".into()),
            ),
            (
                &[t(1, 0.0), t(1, 2.0)],
                Err("touch id 1 twice (each finger has its own)".into()),
            ),
            (
                &[t(4, f32::INFINITY)],
                Err(
                    "touch 4 at [inf, 0.0] (a touch is at two finite coordinates within ±1e9)"
                        .into(),
                ),
            ),
        ];
        for (list, want) in cases {
            assert_eq!(check(list), *want, "{list:?}");
        }
    }
}
