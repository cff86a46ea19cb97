//! The file format: magic, version, length, postcard payload, checksum.

use crate::replay::compat;
use crate::replay::types::{
    FORMAT_VERSION, MAGIC, MAX_DECODED_BYTES, MAX_RECORDING_BYTES, Recording, RecordingError,
};

impl Recording {
    /// Encodes to the file format.
    pub fn to_bytes(&self) -> Vec<u8> {
        let payload = postcard::to_allocvec(self).unwrap_or_default();
        let mut out = Vec::with_capacity(payload.len() + 28);
        out.extend_from_slice(&MAGIC);
        out.extend_from_slice(&FORMAT_VERSION.to_le_bytes());
        out.extend_from_slice(&(payload.len() as u64).to_le_bytes());
        out.extend_from_slice(&payload);
        out.extend_from_slice(&xxhash_rust::xxh3::xxh3_64(&payload).to_le_bytes());
        out
    }

    /// Decodes the file format, refusing anything damaged, oversized or out of range.
    pub fn from_bytes(bytes: &[u8]) -> Result<Recording, RecordingError> {
        Recording::decode_within(bytes, MAX_DECODED_BYTES)
    }

    /// [`from_bytes`](Self::from_bytes) with another budget for the decoded lists, in bytes.
    pub fn decode_within(bytes: &[u8], budget: usize) -> Result<Recording, RecordingError> {
        if bytes.len() < 8 || bytes[..8] != MAGIC {
            return Err(RecordingError::NotARecording);
        }
        if bytes.len() as u64 > MAX_RECORDING_BYTES {
            return Err(RecordingError::TooLarge(format!(
                "{} bytes; a recording may be at most {} bytes",
                bytes.len(),
                MAX_RECORDING_BYTES
            )));
        }
        let word = |at: usize, n: usize| -> Option<&[u8]> { bytes.get(at..at + n) };
        let version = word(8, 4)
            .map(|b| u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
            .ok_or(RecordingError::Truncated {
                expected: 12,
                found: bytes.len() as u64,
            })?;
        if !(1..=FORMAT_VERSION).contains(&version) {
            return Err(RecordingError::Version {
                found: version,
                expected: FORMAT_VERSION,
            });
        }
        let len = word(12, 8)
            .map(|b| u64::from_le_bytes(b.try_into().unwrap_or([0; 8])))
            .ok_or(RecordingError::Truncated {
                expected: 20,
                found: bytes.len() as u64,
            })?;
        let have = bytes.len().saturating_sub(20) as u64;
        if have < len.saturating_add(8) {
            return Err(RecordingError::Truncated {
                expected: len,
                found: have.saturating_sub(8).min(len),
            });
        }
        let payload = &bytes[20..20 + len as usize];
        let sum = u64::from_le_bytes(
            bytes[20 + len as usize..28 + len as usize]
                .try_into()
                .unwrap_or([0; 8]),
        );
        if sum != xxhash_rust::xxh3::xxh3_64(payload) {
            return Err(RecordingError::Corrupt("checksum mismatch".into()));
        }
        if have > len + 8 {
            return Err(RecordingError::Corrupt(
                "trailing bytes after the checksum".into(),
            ));
        }
        let (decoded, exhausted) = crate::budget::decoding(budget, || match version {
            FORMAT_VERSION => postcard::from_bytes::<Recording>(payload),
            old => compat::decode(old, payload),
        });
        let recording = match decoded {
            Ok(r) => r,
            Err(_) if exhausted => {
                return Err(RecordingError::TooLarge(format!(
                    "it would take more than {} MiB of memory once decoded",
                    budget >> 20
                )));
            }
            Err(e) => return Err(RecordingError::Corrupt(e.to_string())),
        };
        recording.validate().map_err(RecordingError::Invalid)?;
        Ok(recording)
    }
}

#[cfg(test)]
mod tests {
    use crate::def::{AiPolicy, Limits};
    use crate::frame::clock::TickPolicy;
    use crate::frame::input::TickInput;
    use crate::replay::types::*;
    use crate::saved::SaveStore;
    use crate::var::Var;
    use crate::world::hash::StateHash;

    fn sample() -> Recording {
        Recording {
            header: RecordingHeader {
                build: "0.1.0".into(),
                game: "g".into(),
                game_dir: Some("examples/g".into()),
                content_hash: 7,
                tick: TickPolicy::default(),
                ai: AiPolicy::default(),
                seed: 3,
                limits: Limits::default(),
                entities: 0,
            },
            segments: vec![Segment {
                switched: false,
                level: "main".into(),
                ticks: (1..=5)
                    .map(|t| TickRecord {
                        tick: t,
                        input: TickInput {
                            held: t,
                            ..TickInput::default()
                        },
                        completions: Vec::new(),
                        hash: StateHash {
                            total: t * 11,
                            parts: [t; 8],
                        },
                        detail: None,
                    })
                    .collect(),
            }],
            fault: None,
            saved: {
                let mut saved = SaveStore::default();
                saved.set("best", Some(Var::Num(1200.0)), 100).unwrap();
                saved
                    .set("name", Some(Var::Text("Ann".into())), 100)
                    .unwrap();
                saved
            },
        }
    }

    #[test]
    fn round_trip_and_every_kind_of_damage_is_refused() {
        let r = sample();
        let bytes = r.to_bytes();
        assert_eq!(Recording::from_bytes(&bytes), Ok(r));
        assert_eq!(
            Recording::from_bytes(b"hello world, not a recording"),
            Err(RecordingError::NotARecording)
        );
        assert_eq!(
            Recording::from_bytes(&[]),
            Err(RecordingError::NotARecording)
        );
        for cut in [9, 15, 25, bytes.len() - 1] {
            assert!(
                matches!(
                    Recording::from_bytes(&bytes[..cut]),
                    Err(RecordingError::Truncated { .. })
                ),
                "cut at {cut}"
            );
        }
        let mut flipped = bytes.clone();
        flipped[30] ^= 0x40;
        assert_eq!(
            Recording::from_bytes(&flipped),
            Err(RecordingError::Corrupt("checksum mismatch".into()))
        );
        let mut version = bytes.clone();
        version[8] = 9;
        assert_eq!(
            Recording::from_bytes(&version),
            Err(RecordingError::Version {
                found: 9,
                expected: FORMAT_VERSION
            })
        );
        let mut long = bytes.clone();
        long.push(0);
        assert!(matches!(
            Recording::from_bytes(&long),
            Err(RecordingError::Corrupt(_))
        ));
        let mut huge = bytes.clone();
        huge[12..20].copy_from_slice(&u64::MAX.to_le_bytes());
        assert!(matches!(
            Recording::from_bytes(&huge),
            Err(RecordingError::Truncated { .. })
        ));
    }

    #[test]
    fn saved_data_is_checked_against_the_recorded_limits_and_its_keys() {
        let mut r = sample();
        r.header.limits.save_bytes = 20;
        assert_eq!(
            Recording::from_bytes(&r.to_bytes()),
            Err(RecordingError::Invalid(
                "the saved data takes 27 bytes, more than the recorded limits' save_bytes, 20"
                    .into()
            ))
        );
        let r = sample();
        let bytes = r.to_bytes();
        // The store ends the payload: `best` renamed `name`, the same key twice.
        let mut twice = bytes[20..bytes.len() - 8].to_vec();
        let at = twice.windows(4).position(|w| w == b"best").unwrap();
        twice[at..at + 4].copy_from_slice(b"name");
        let mut file = bytes[..20].to_vec();
        file.extend_from_slice(&twice);
        file.extend_from_slice(&xxhash_rust::xxh3::xxh3_64(&twice).to_le_bytes());
        assert!(
            matches!(
                Recording::from_bytes(&file),
                Err(RecordingError::Corrupt(_))
            ),
            "a key twice is refused as it decodes"
        );
    }

    #[test]
    fn touches_round_trip_and_touches_no_run_records_are_refused() {
        use crate::frame::touch::Touch;
        let with = |touches: Vec<Touch>| {
            let mut r = sample();
            r.segments[0].ticks[2].input.touches = touches;
            r
        };
        let two = with(vec![Touch::new(3, [1.5, -2.0]), Touch::new(0, [-1e9, 1e9])]);
        assert_eq!(
            Recording::from_bytes(&two.to_bytes()),
            Ok(two),
            "touches kept"
        );
        let t = |id| Touch::new(id, [0.0, 0.0]);
        let cases: &[(Vec<Touch>, Result<(), RecordingError>)] = &[
            ((0..10).map(t).collect(), Ok(())),
            (
                vec![t(1), t(1)],
                Err(RecordingError::Invalid(
                    "segment 1, tick 3: touch id 1 twice (each finger has its own)".into(),
                )),
            ),
            (
                vec![Touch::new(2, [f32::NAN, 0.0])],
                Err(RecordingError::Invalid(
                    "segment 1, tick 3: touch 2 at [NaN, 0.0] (a touch is at two finite coordinates within ±1e9)".into(),
                )),
            ),
        ];
        for (touches, want) in cases {
            let got = Recording::from_bytes(&with(touches.clone()).to_bytes()).map(|_| ());
            assert_eq!(&got, want, "{} touches", touches.len());
        }
        // Eleven are refused as they decode, before the eleventh is stored.
        let eleven = with((0..11).map(t).collect());
        assert!(
            matches!(
                Recording::from_bytes(&eleven.to_bytes()),
                Err(RecordingError::Corrupt(_))
            ),
            "eleven touches"
        );
    }
}
