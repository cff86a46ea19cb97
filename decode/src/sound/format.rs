//! What every sound must be, WAV or OGG Vorbis: checked by both readers.

/// A sound of `channels` at `rate` Hz is mono or stereo, at 8000 to 192000 Hz.
pub(super) fn check(rate: u32, channels: u16) -> Result<(), String> {
    if !(1..=2).contains(&channels) {
        return Err(format!("{channels} channels; sounds are mono or stereo"));
    }
    if !(8_000..=192_000).contains(&rate) {
        return Err(format!(
            "a sample rate of {rate} Hz; from 8000 to 192000 Hz is supported"
        ));
    }
    Ok(())
}
