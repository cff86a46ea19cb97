//! The memory budget of decoding a recording, enforced while each list fills.
//!
//! A recording's payload is untrusted: postcard encodes an empty segment in two bytes and an
//! empty tick in about twenty, while each takes far more memory once decoded, so a small file
//! could otherwise decode into gigabytes. Every list in a recording is decoded through
//! [`vec()`] (or [`opt_vec`]), which charges each growth of the list's capacity, in bytes,
//! against the budget of the decode in progress and fails before allocating past it. Strings
//! are not charged: they never take more memory than their bytes in the payload.
//!
//! The budget lives in a thread-local set only for the duration of [`decoding`] (postcard's
//! decoder offers no way to pass state down to nested values); outside a decode, lists are
//! unbounded as usual.

use serde::de::{Deserialize, Deserializer, Error, SeqAccess, Visitor};
use std::cell::Cell;
use std::fmt;
use std::marker::PhantomData;

#[derive(Clone, Copy)]
struct State {
    /// Bytes still allowed.
    left: usize,
    /// A list was refused for lack of budget.
    exhausted: bool,
}

thread_local! {
    static BUDGET: Cell<Option<State>> = const { Cell::new(None) };
}

/// Restores the previous budget when a decode ends, also by unwinding.
struct Scope(Option<State>);

impl Drop for Scope {
    fn drop(&mut self) {
        BUDGET.with(|b| b.set(self.0));
    }
}

/// Runs `decode` with a budget of `bytes`; returns its result and whether the budget ran out.
pub(crate) fn decoding<T>(bytes: usize, decode: impl FnOnce() -> T) -> (T, bool) {
    let previous = BUDGET.with(|b| {
        b.replace(Some(State {
            left: bytes,
            exhausted: false,
        }))
    });
    let _scope = Scope(previous);
    let out = decode();
    let exhausted = BUDGET.with(|b| b.get().is_some_and(|s| s.exhausted));
    (out, exhausted)
}

/// Takes `bytes` from the budget in force; false (and nothing taken) when it has too little.
fn charge(bytes: usize) -> bool {
    BUDGET.with(|b| match b.get() {
        None => true,
        Some(state) => match state.left.checked_sub(bytes) {
            Some(left) => {
                b.set(Some(State { left, ..state }));
                true
            }
            None => {
                b.set(Some(State {
                    exhausted: true,
                    ..state
                }));
                false
            }
        },
    })
}

/// A list's visitor: at most `max` items (`what` they are, for the message), each decoded as
/// an `F` and stored as the `T` it converts into, each growth charged to the budget.
struct VecVisitor<T, F = T> {
    max: usize,
    what: &'static str,
    item: PhantomData<(T, F)>,
}

impl<T, F> VecVisitor<T, F> {
    fn new(max: usize, what: &'static str) -> Self {
        VecVisitor {
            max,
            what,
            item: PhantomData,
        }
    }
}

impl<'de, T, F: Deserialize<'de> + Into<T>> Visitor<'de> for VecVisitor<T, F> {
    type Value = Vec<T>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a sequence")
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Vec<T>, A::Error> {
        let size = std::mem::size_of::<T>().max(1);
        let mut out: Vec<T> = Vec::new();
        while let Some(item) = seq.next_element::<F>()? {
            if out.len() >= self.max {
                return Err(A::Error::custom(format!(
                    "more than {} {}",
                    self.max, self.what
                )));
            }
            if out.len() == out.capacity() {
                let more = out.capacity().clamp(4, 1 << 20);
                if !charge(more.saturating_mul(size)) {
                    return Err(A::Error::custom(
                        "the recording needs more memory than a recording may use",
                    ));
                }
                out.reserve_exact(more);
            }
            out.push(item.into());
        }
        Ok(out)
    }
}

/// Decodes a list under the budget (use with `#[serde(deserialize_with = ...)]`).
pub(crate) fn vec<'de, D, T>(d: D) -> Result<Vec<T>, D::Error>
where
    D: Deserializer<'de>,
    T: Deserialize<'de>,
{
    d.deserialize_seq(VecVisitor::<T>::new(usize::MAX, "items"))
}

/// Decodes a list of an earlier format's items (`F`) under the budget, each converted into
/// the current `T` as it is stored: the list is never held twice.
pub(crate) fn vec_into<'de, D, F, T>(d: D) -> Result<Vec<T>, D::Error>
where
    D: Deserializer<'de>,
    F: Deserialize<'de> + Into<T>,
{
    d.deserialize_seq(VecVisitor::<T, F>::new(usize::MAX, "items"))
}

/// Decodes a list of at most `max` items (`what` they are, for the message) under the budget,
/// refusing the item past `max` before it is stored.
pub(crate) fn vec_at_most<'de, D, T>(
    d: D,
    max: usize,
    what: &'static str,
) -> Result<Vec<T>, D::Error>
where
    D: Deserializer<'de>,
    T: Deserialize<'de>,
{
    d.deserialize_seq(VecVisitor::<T>::new(max, what))
}

struct OptVisitor<T>(PhantomData<T>);

impl<'de, T: Deserialize<'de>> Visitor<'de> for OptVisitor<T> {
    type Value = Option<Vec<T>>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("an optional sequence")
    }

    fn visit_none<E: Error>(self) -> Result<Self::Value, E> {
        Ok(None)
    }

    fn visit_unit<E: Error>(self) -> Result<Self::Value, E> {
        Ok(None)
    }

    fn visit_some<D: Deserializer<'de>>(self, d: D) -> Result<Self::Value, D::Error> {
        vec(d).map(Some)
    }
}

/// Decodes an optional list under the budget.
pub(crate) fn opt_vec<'de, D, T>(d: D) -> Result<Option<Vec<T>>, D::Error>
where
    D: Deserializer<'de>,
    T: Deserialize<'de>,
{
    d.deserialize_option(OptVisitor(PhantomData))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(serde::Deserialize, Debug)]
    struct Lists {
        #[serde(deserialize_with = "vec")]
        a: Vec<u64>,
        #[serde(deserialize_with = "opt_vec")]
        b: Option<Vec<u64>>,
    }

    #[test]
    fn lists_stop_at_the_budget_and_say_so() {
        let bytes = postcard::to_allocvec(&(vec![1u64; 100], Some(vec![2u64; 3]))).unwrap();
        let (ok, exhausted) = decoding(10_000, || postcard::from_bytes::<Lists>(&bytes));
        let ok = ok.unwrap();
        assert_eq!((ok.a.len(), ok.b.map(|b| b.len())), (100, Some(3)));
        assert!(!exhausted);
        let (refused, exhausted) = decoding(200, || postcard::from_bytes::<Lists>(&bytes));
        assert!(refused.is_err());
        assert!(exhausted, "the refusal is attributed to the budget");
        let (_, after) = decoding(10_000, || ());
        assert!(!after, "each decode starts afresh");
        let unbounded: Lists = postcard::from_bytes(&bytes).unwrap();
        assert_eq!(unbounded.a.len(), 100, "no budget outside a decode");
    }

    #[derive(serde::Deserialize, Debug)]
    struct Few {
        #[serde(deserialize_with = "three")]
        a: Vec<u8>,
    }

    fn three<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<u8>, D::Error> {
        vec_at_most(d, 3, "items here")
    }

    #[test]
    fn a_bounded_list_is_refused_at_the_item_past_its_bound() {
        // (items encoded, decoded length; `None`: refused)
        let cases: &[(usize, Option<usize>)] =
            &[(0, Some(0)), (3, Some(3)), (4, None), (1_000_000, None)];
        for (n, want) in cases {
            let bytes = postcard::to_allocvec(&vec![7u8; *n]).unwrap();
            let got = postcard::from_bytes::<Few>(&bytes).ok().map(|f| f.a.len());
            assert_eq!(got, *want, "{n} items");
        }
    }
}
