//! PNG images: the size a file declares, read from its header alone (the loader), and its
//! pixels decoded as RGBA8 (the app) once that size is within [`MAX_IMAGE_SIDE`].

/// The first bytes of every PNG file.
const PNG_SIGNATURE: &[u8] = b"\x89PNG\r\n\x1a\n";

/// The largest image side, in pixels: with a one-texel border it fills a 4096 texture page.
pub const MAX_IMAGE_SIDE: u32 = 4094;

/// The most bytes the PNG decoder may allocate besides the pixels (ancillary chunks, row
/// buffers); the file itself is at most 8 MiB.
const DECODER_BYTES: usize = 16 * 1024 * 1024;

/// Why a file is not a PNG image Ludus draws.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PngError {
    /// It does not start with the PNG signature.
    NotPng,
    /// No IHDR chunk first, or a side of 0.
    NoHeader,
    /// Its header declares a side past [`MAX_IMAGE_SIDE`].
    TooLarge { width: u32, height: u32 },
}

impl std::fmt::Display for PngError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            PngError::NotPng => f.write_str("it is not a PNG file"),
            PngError::NoHeader => f.write_str("it has no valid PNG header (IHDR)"),
            PngError::TooLarge { width, height } => write!(
                f,
                "it is {width}x{height} pixels, larger than {MAX_IMAGE_SIDE}x{MAX_IMAGE_SIDE}"
            ),
        }
    }
}

/// Width and height from a PNG's IHDR chunk (which must come first), each from 1 to
/// [`MAX_IMAGE_SIDE`].
pub fn png_size(bytes: &[u8]) -> Result<(u32, u32), PngError> {
    if !bytes.starts_with(PNG_SIGNATURE) {
        return Err(PngError::NotPng);
    }
    let header = bytes.get(8..24).ok_or(PngError::NoHeader)?;
    if &header[4..8] != b"IHDR" {
        return Err(PngError::NoHeader);
    }
    let be = |b: &[u8]| u32::from_be_bytes([b[0], b[1], b[2], b[3]]);
    let (width, height) = (be(&header[8..12]), be(&header[12..16]));
    if width == 0 || height == 0 {
        return Err(PngError::NoHeader);
    }
    if width > MAX_IMAGE_SIDE || height > MAX_IMAGE_SIDE {
        return Err(PngError::TooLarge { width, height });
    }
    Ok((width, height))
}

/// Decodes a PNG into RGBA8 pixels: `(width, height, pixels)`. The size its header declares is
/// checked before the pixels are allocated, and the decoder may allocate at most 16 MiB
/// besides them.
pub fn decode_png(bytes: &[u8]) -> Result<(u16, u16, Vec<u8>), String> {
    let (width, height) = png_size(bytes).map_err(|e| e.to_string())?;
    let limits = png::Limits {
        bytes: DECODER_BYTES,
    };
    let mut decoder = png::Decoder::new_with_limits(std::io::Cursor::new(bytes), limits);
    decoder.set_transformations(png::Transformations::EXPAND | png::Transformations::STRIP_16);
    let mut reader = decoder.read_info().map_err(|e| e.to_string())?;
    let info = reader.info();
    if (info.width, info.height) != (width, height) {
        return Err("its header changed while it was read".into());
    }
    // At most 4094 x 4094 pixels of 4 bytes (64 MiB): checked above.
    let size = reader.output_buffer_size();
    if size > 4 * (width as usize) * (height as usize) {
        return Err(format!("{size} bytes of pixels for {width}x{height}"));
    }
    let mut buf = vec![0; size];
    let frame = reader.next_frame(&mut buf).map_err(|e| e.to_string())?;
    buf.truncate(frame.buffer_size());
    let px = buf;
    let rgba = match frame.color_type {
        png::ColorType::Rgba => px,
        png::ColorType::Rgb => px.chunks(3).flat_map(|c| [c[0], c[1], c[2], 255]).collect(),
        png::ColorType::GrayscaleAlpha => px
            .chunks(2)
            .flat_map(|c| [c[0], c[0], c[0], c[1]])
            .collect(),
        png::ColorType::Grayscale => px.iter().flat_map(|g| [*g, *g, *g, 255]).collect(),
        png::ColorType::Indexed => return Err("an indexed PNG was not expanded".into()),
    };
    let (w, h) = (frame.width as usize, frame.height as usize);
    if rgba.len() != w * h * 4 {
        return Err(format!("{} bytes of pixels for {w}x{h}", rgba.len()));
    }
    Ok((frame.width as u16, frame.height as u16, rgba))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A PNG of `w` x `h` pixels of `color` type and `depth` bits, every byte `fill`.
    fn png(w: u32, h: u32, color: png::ColorType, depth: png::BitDepth, fill: u8) -> Vec<u8> {
        let mut out = Vec::new();
        let mut e = png::Encoder::new(&mut out, w, h);
        e.set_color(color);
        e.set_depth(depth);
        if color == png::ColorType::Indexed {
            e.set_palette(vec![10, 20, 30, 40, 50, 60]);
        }
        let mut writer = e.write_header().unwrap();
        let row = match (color, depth) {
            (png::ColorType::Rgba, png::BitDepth::Sixteen) => 8 * w,
            (png::ColorType::Rgba, _) => 4 * w,
            (png::ColorType::Rgb, _) => 3 * w,
            (png::ColorType::GrayscaleAlpha, _) => 2 * w,
            _ => w,
        };
        writer
            .write_image_data(&vec![fill; (row * h) as usize])
            .unwrap();
        drop(writer);
        out
    }

    #[test]
    fn every_colour_type_decodes_to_rgba() {
        use png::{BitDepth::*, ColorType::*};
        let cases = [
            (Rgba, Eight, 7, [7, 7, 7, 7]),
            (Rgba, Sixteen, 9, [9, 9, 9, 9]),
            (Rgb, Eight, 5, [5, 5, 5, 255]),
            (GrayscaleAlpha, Eight, 3, [3, 3, 3, 3]),
            (Grayscale, Eight, 200, [200, 200, 200, 255]),
            (Indexed, Eight, 1, [40, 50, 60, 255]),
        ];
        for (color, depth, fill, pixel) in cases {
            let (w, h, px) = decode_png(&png(3, 2, color, depth, fill)).unwrap();
            assert_eq!((w, h), (3, 2), "{color:?} {depth:?}");
            assert_eq!(px, pixel.repeat(6), "{color:?} {depth:?}");
        }
    }
}
