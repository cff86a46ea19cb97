//! PNG in (sprite images) and out (screenshots).

/// Each image file decoded (`None`: missing or undecodable; drawn as a placeholder).
pub fn decode_all(files: &[Option<Vec<u8>>]) -> Vec<Option<(u16, u16, Vec<u8>)>> {
    files
        .iter()
        .map(|bytes| bytes.as_deref().and_then(|b| decode_png(b).ok()))
        .collect()
}

/// Decodes a PNG into RGBA8 pixels: `(width, height, pixels)`.
pub fn decode_png(bytes: &[u8]) -> Result<(u16, u16, Vec<u8>), String> {
    let mut decoder = png::Decoder::new(std::io::Cursor::new(bytes));
    decoder.set_transformations(png::Transformations::EXPAND | png::Transformations::STRIP_16);
    let mut reader = decoder.read_info().map_err(|e| e.to_string())?;
    let size = reader.output_buffer_size();
    if size > 64 * 1024 * 1024 {
        return Err("image larger than 64 MiB decoded".into());
    }
    let mut buf = vec![0; size];
    let info = reader.next_frame(&mut buf).map_err(|e| e.to_string())?;
    let (w, h) = (info.width, info.height);
    if w > 8192 || h > 8192 {
        return Err(format!("image of {w}x{h} is larger than 8192x8192"));
    }
    let px = &buf[..info.buffer_size()];
    let rgba = match info.color_type {
        png::ColorType::Rgba => px.to_vec(),
        png::ColorType::Rgb => px.chunks(3).flat_map(|c| [c[0], c[1], c[2], 255]).collect(),
        png::ColorType::GrayscaleAlpha => px
            .chunks(2)
            .flat_map(|c| [c[0], c[0], c[0], c[1]])
            .collect(),
        png::ColorType::Grayscale => px.iter().flat_map(|g| [*g, *g, *g, 255]).collect(),
        png::ColorType::Indexed => return Err("indexed PNG was not expanded".into()),
    };
    Ok((w as u16, h as u16, rgba))
}

/// Encodes RGBA8 pixels as a PNG file.
pub fn write_png(path: &std::path::Path, w: u32, h: u32, rgba: &[u8]) -> Result<(), String> {
    let file = std::fs::File::create(path).map_err(|e| e.to_string())?;
    let mut encoder = png::Encoder::new(std::io::BufWriter::new(file), w, h);
    encoder.set_color(png::ColorType::Rgba);
    encoder.set_depth(png::BitDepth::Eight);
    let mut writer = encoder.write_header().map_err(|e| e.to_string())?;
    writer.write_image_data(rgba).map_err(|e| e.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn png_round_trip() {
        let dir = std::env::temp_dir().join(format!("ludus-png-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("t.png");
        let px: Vec<u8> = (0..4 * 3 * 2).map(|i| (i * 10) as u8).collect();
        write_png(&path, 3, 2, &px).unwrap();
        let (w, h, back) = decode_png(&std::fs::read(&path).unwrap()).unwrap();
        assert_eq!((w, h), (3, 2));
        assert_eq!(back, px);
        assert!(decode_png(b"not a png").is_err());
        std::fs::remove_dir_all(dir).ok();
    }
}
