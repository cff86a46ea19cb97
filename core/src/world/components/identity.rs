//! Who an entity is ([`Identity`]) and whom its brain aims at ([`Aim`]): creation sequences,
//! packed to 48 bits in the two columns every entity or every brain holds.

use super::Position;
use crate::def::{ArchetypeId, GameDef};
use crate::event::Party;
use serde::{Deserialize, Serialize};
use std::num::NonZeroU64;

/// Every entity's identity within its world: the creation sequence (unique, never reused, the
/// order of hashes, events and replays) and its archetype.
///
/// Packed to 8 bytes (every entity holds one): the sequence is 48 bits (below
/// [`Identity::SEQ_END`], which a world's spawns never pass: see `SimWorld::spawn_all`), kept
/// as its low 32 and high 16 bits, and read by value ([`Identity::seq`]).
#[repr(C, packed(2))]
#[derive(Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(try_from = "IdentityFields", into = "IdentityFields")]
pub struct Identity {
    seq_low: u32,
    seq_high: u16,
    pub archetype: ArchetypeId,
}

/// [`Identity`] as its serialized form and its debug output show it.
#[derive(Clone, Copy, Debug, Serialize, Deserialize)]
#[serde(rename = "Identity")]
struct IdentityFields {
    seq: u64,
    archetype: ArchetypeId,
}

impl TryFrom<IdentityFields> for Identity {
    type Error = String;

    /// Refuses a sequence an identity cannot hold (from [`Identity::SEQ_END`] on).
    fn try_from(f: IdentityFields) -> Result<Identity, String> {
        below_end(f.seq)?;
        Ok(Identity::new(f.seq, f.archetype))
    }
}

/// `Ok` for a sequence below [`Identity::SEQ_END`], else why not.
fn below_end(seq: u64) -> Result<(), String> {
    if seq < Identity::SEQ_END {
        Ok(())
    } else {
        Err(format!(
            "a creation sequence is below 2^48 ({}), got {seq}",
            Identity::SEQ_END
        ))
    }
}

impl From<Identity> for IdentityFields {
    fn from(id: Identity) -> IdentityFields {
        IdentityFields {
            seq: id.seq(),
            archetype: id.archetype,
        }
    }
}

impl std::fmt::Debug for Identity {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Identity")
            .field("seq", &self.seq())
            .field("archetype", &{ self.archetype })
            .finish()
    }
}

impl Identity {
    /// One past the largest creation sequence an identity holds (2^48: a million spawns a
    /// tick for eight years at 60 ticks a second).
    pub const SEQ_END: u64 = 1 << 48;

    /// The one archetype of every identity of `ids`, if they are all of one (`None` for none).
    /// One pass without a branch an identity.
    pub(crate) fn sole(ids: &[Identity]) -> Option<ArchetypeId> {
        let first = ids.first()?;
        // The archetype is the word's top 16 bits (`word`: the fields in order, little-endian);
        // a fold over whole words packs.
        const ARCHETYPE: u64 = 0xffff << 48;
        let a = first.word() & ARCHETYPE;
        let others = ids
            .iter()
            .fold(0, |d, id| d | ((id.word() & ARCHETYPE) ^ a));
        (others == 0).then_some(first.archetype)
    }

    /// The identity of sequence `seq` (below [`Identity::SEQ_END`]) and `archetype`.
    #[inline(always)]
    pub const fn new(seq: u64, archetype: ArchetypeId) -> Identity {
        debug_assert!(seq < Identity::SEQ_END);
        Identity {
            seq_low: seq as u32,
            seq_high: (seq >> 32) as u16,
            archetype,
        }
    }

    /// The creation sequence.
    #[inline(always)]
    pub const fn seq(&self) -> u64 {
        self.seq_low as u64 | (self.seq_high as u64) << 32
    }

    /// The identity as one word (its 8 bytes in little-endian order): equal exactly where the
    /// identities are.
    #[inline(always)]
    pub fn word(&self) -> u64 {
        // SAFETY: an identity is 8 bytes (asserted below) with no padding (a `u32` and two
        // `u16`s, packed), every byte initialised; `read_unaligned` as it aligns to 2.
        let word = unsafe { std::ptr::read_unaligned((self as *const Identity).cast::<u64>()) };
        u64::from_le(word)
    }

    /// Sets the creation sequence (below [`Identity::SEQ_END`]).
    #[inline(always)]
    pub fn set_seq(&mut self, seq: u64) {
        *self = Identity::new(seq, self.archetype);
    }

    /// What an event copies of this entity at `pos` (its tags are its archetype's in `def`).
    pub(crate) fn party(&self, def: &GameDef, pos: &Position) -> Party {
        Party {
            seq: self.seq(),
            archetype: self.archetype,
            tags: def.tags_of(self.archetype),
            pos: pos.0,
        }
    }
}

/// The creation sequence of a brain's current target (chase/flee), if it has one; beside
/// every [`Brain`](super::Brain). (Sequences start at 1: 0 is none.)
///
/// Packed to 6 bytes as an [`Identity`]'s sequence is (every brain holds one): the low 32 and
/// high 16 bits of a sequence below [`Identity::SEQ_END`], read by value ([`Aim::target`]).
#[repr(C, packed(2))]
#[derive(Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(try_from = "AimForm", into = "AimForm")]
pub struct Aim {
    low: u32,
    high: u16,
}

/// [`Aim`]'s serialized form (the optional non-zero sequence it once held whole).
#[derive(Clone, Copy, Serialize, Deserialize)]
#[serde(rename = "Aim")]
struct AimForm(Option<NonZeroU64>);

impl TryFrom<AimForm> for Aim {
    type Error = String;

    /// Refuses a sequence an aim cannot hold (from [`Identity::SEQ_END`] on).
    fn try_from(f: AimForm) -> Result<Aim, String> {
        let target = f.0.map(NonZeroU64::get);
        below_end(target.unwrap_or(0))?;
        let mut aim = Aim::default();
        aim.set(target);
        Ok(aim)
    }
}

impl From<Aim> for AimForm {
    fn from(aim: Aim) -> AimForm {
        AimForm(NonZeroU64::new(aim.word()))
    }
}

impl std::fmt::Debug for Aim {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_tuple("Aim").field(&self.target()).finish()
    }
}

impl Aim {
    /// The target's creation sequence.
    #[inline(always)]
    pub fn target(&self) -> Option<u64> {
        NonZeroU64::new(self.word()).map(NonZeroU64::get)
    }

    /// The target's creation sequence, 0 for none: equal exactly where the aims are.
    #[inline(always)]
    pub fn word(&self) -> u64 {
        self.low as u64 | (self.high as u64) << 32
    }

    /// Sets the target (a sequence below [`Identity::SEQ_END`], as every entity's is).
    #[inline]
    pub fn set(&mut self, seq: Option<u64>) {
        let seq = seq.unwrap_or(0);
        debug_assert!(seq < Identity::SEQ_END);
        *self = Aim {
            low: seq as u32,
            high: (seq >> 32) as u16,
        };
    }
}

// Every entity holds an identity, and every brain an aim: no padding, no tag word.
const _: () = assert!(std::mem::size_of::<Identity>() == 8);
const _: () = assert!(std::mem::size_of::<Aim>() == 6);

#[cfg(test)]
mod tests {
    use super::{Aim, Identity};
    use crate::def::ArchetypeId;

    /// `sole` is the one archetype of identities all of one, whatever their sequences (their
    /// high bits all ones among them), and none where any differs in any bit.
    #[test]
    fn sole_finds_the_one_archetype_of_identities_all_of_one() {
        let mut rng = fastrand::Rng::with_seed(5);
        assert_eq!(Identity::sole(&[]), None);
        let one = Identity::new(Identity::SEQ_END - 1, ArchetypeId(7));
        assert_eq!(Identity::sole(&[one]), Some(ArchetypeId(7)));
        for round in 0..3_000 {
            let n = rng.usize(2..40);
            let a = ArchetypeId([0, 1, 0x8000, u16::MAX][round % 4]);
            let seq = |rng: &mut fastrand::Rng| match rng.u8(..3) {
                0 => Identity::SEQ_END - 1,
                _ => rng.u64(1..Identity::SEQ_END),
            };
            let mut ids: Vec<Identity> = (0..n).map(|_| Identity::new(seq(&mut rng), a)).collect();
            assert_eq!(Identity::sole(&ids), Some(a), "{ids:?}");
            let (k, bit) = (rng.usize(..n), rng.u32(..16));
            ids[k] = Identity::new(seq(&mut rng), ArchetypeId(a.0 ^ (1 << bit)));
            assert_eq!(Identity::sole(&ids), None, "{ids:?}");
        }
    }

    /// An identity holds every sequence below 2^48 exactly, and serializes as the sequence's
    /// word and the archetype, as when it held them whole.
    #[test]
    fn an_identity_is_eight_bytes_with_the_fields_form() {
        let top = Identity::SEQ_END - 1;
        for seq in [0, 1, 0xFFFF_FFFF, 1 << 32, 0x1234_5678_9ABC, top] {
            let id = Identity::new(seq, ArchetypeId(7));
            assert_eq!((id.seq(), { id.archetype }), (seq, ArchetypeId(7)));
            let mut moved = id;
            moved.set_seq(top - seq);
            assert_eq!(
                (moved.seq(), { moved.archetype }),
                (top - seq, ArchetypeId(7))
            );
            let bytes = postcard::to_allocvec(&id).unwrap();
            assert_eq!(bytes, postcard::to_allocvec(&(seq, 7u16)).unwrap());
            assert_eq!(postcard::from_bytes::<Identity>(&bytes).unwrap(), id);
            assert_eq!(
                format!("{id:?}"),
                format!("Identity {{ seq: {seq}, archetype: ArchetypeId(7) }}")
            );
        }
    }

    /// An aim holds no target or any sequence below 2^48 exactly, and serializes as the
    /// optional non-zero word it once held.
    #[test]
    fn an_aim_is_six_bytes_with_the_optional_word_form() {
        let top = Identity::SEQ_END - 1;
        for target in [None, Some(1), Some(0xFFFF_FFFF), Some(1 << 32), Some(top)] {
            let mut aim = Aim::default();
            aim.set(target);
            assert_eq!((aim.target(), aim.word()), (target, target.unwrap_or(0)));
            let whole = target.and_then(std::num::NonZeroU64::new);
            let bytes = postcard::to_allocvec(&aim).unwrap();
            assert_eq!(bytes, postcard::to_allocvec(&whole).unwrap());
            assert_eq!(postcard::from_bytes::<Aim>(&bytes).unwrap(), aim);
            assert_eq!(format!("{aim:?}"), format!("Aim({target:?})"));
        }
        assert_eq!(Aim::default().target(), None);
    }

    /// A sequence from 2^48 on is refused where it is read, never cut to its low bits.
    #[test]
    fn sequences_an_identity_cannot_hold_are_refused_when_read() {
        let end = Identity::SEQ_END;
        for seq in [end, end + 1, u64::MAX] {
            let id = postcard::to_allocvec(&(seq, 7u16)).unwrap();
            assert!(postcard::from_bytes::<Identity>(&id).is_err(), "{seq}");
            let aim = postcard::to_allocvec(&std::num::NonZeroU64::new(seq)).unwrap();
            assert!(postcard::from_bytes::<Aim>(&aim).is_err(), "{seq}");
        }
        let last = postcard::to_allocvec(&(end - 1, 7u16)).unwrap();
        assert_eq!(
            postcard::from_bytes::<Identity>(&last).unwrap().seq(),
            end - 1
        );
    }
}
