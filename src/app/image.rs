//! PNG in (sprite images, decoded by `ludus_decode::decode_png` under its limits) and out
//! (screenshots).

use crate::app::atlas::Pixels;
use ludus_core::ImageDef;
use std::collections::HashMap;
use std::rc::Rc;
use std::sync::Arc;

/// Each image decoded (`None`: missing or undecodable; drawn as a placeholder), each file once:
/// images of the same file share its pixels.
pub fn decode_all(defs: &[ImageDef], files: &[Option<Arc<[u8]>>]) -> Vec<Option<Rc<Pixels>>> {
    let mut decoded: HashMap<&str, Option<Rc<Pixels>>> = HashMap::new();
    defs.iter()
        .enumerate()
        .map(|(i, def)| {
            decoded
                .entry(def.file.as_str())
                .or_insert_with(|| {
                    let bytes = files.get(i)?.as_deref()?;
                    ludus_decode::decode_png(bytes).ok().map(Rc::new)
                })
                .clone()
        })
        .collect()
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
        // Removed when the test ends, passed or failed.
        let dir = tempfile::Builder::new()
            .prefix("ludus-png-")
            .tempdir()
            .unwrap();
        let path = dir.path().join("t.png");
        let px: Vec<u8> = (0..4 * 3 * 2).map(|i| (i * 10) as u8).collect();
        write_png(&path, 3, 2, &px).unwrap();
        let (w, h, back) = ludus_decode::decode_png(&std::fs::read(&path).unwrap()).unwrap();
        assert_eq!((w, h), (3, 2));
        assert_eq!(back, px);
        assert!(ludus_decode::decode_png(b"not a png").is_err());
    }

    #[test]
    fn each_file_is_decoded_once_and_shared() {
        let dir = tempfile::Builder::new()
            .prefix("ludus-png-share-")
            .tempdir()
            .unwrap();
        let path = dir.path().join("t.png");
        write_png(&path, 2, 2, &[7; 16]).unwrap();
        let bytes: Arc<[u8]> = Arc::from(std::fs::read(&path).unwrap());
        let defs: Vec<ImageDef> = (0..3)
            .map(|i| {
                ImageDef::whole(
                    &format!("i{i}"),
                    if i < 2 { "a.png" } else { "b.png" },
                    2,
                    2,
                )
            })
            .collect();
        let files = [
            Some(bytes.clone()),
            Some(bytes),
            Some(Arc::from(&b"not a png"[..])),
        ];
        let px = decode_all(&defs, &files);
        let (a, b) = (px[0].as_ref().unwrap(), px[1].as_ref().unwrap());
        assert!(Rc::ptr_eq(a, b), "one decode for both images of a.png");
        assert_eq!(**a, (2, 2, vec![7; 16]));
        assert!(px[2].is_none(), "an undecodable file is a placeholder");
    }
}
