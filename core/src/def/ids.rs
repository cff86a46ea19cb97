//! The indices that name what a game declares: archetypes, effects, sounds, music and images.

use serde::{Deserialize, Serialize};

/// Index of an archetype in [`GameDef::archetypes`](crate::def::GameDef::archetypes).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct ArchetypeId(pub u16);

/// Index of an effect in [`GameDef::effects`](crate::def::GameDef::effects).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct EffectId(pub u16);

/// Index of a sound in [`GameDef::sounds`](crate::def::GameDef::sounds).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct SoundId(pub u16);

/// Index of a music track in [`GameDef::music`](crate::def::GameDef::music).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct MusicId(pub u16);

/// Index of an image in [`GameDef::images`](crate::def::GameDef::images).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct AssetId(pub u16);
