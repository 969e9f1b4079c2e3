//! File kinds and image sizes from names and first bytes: pure functions over bytes.

use super::FileKind;

/// The kind a file name says (`data.mdb` is LMDB; extensions are compared ignoring case).
pub(super) fn kind_of_name(name: &str) -> FileKind {
    if name == "data.mdb" || name == "lock.mdb" {
        return FileKind::Lmdb;
    }
    let ext = name
        .rsplit_once('.')
        .map_or("", |(_, e)| e)
        .to_ascii_lowercase();
    match ext.as_str() {
        "jpg" | "jpeg" | "jpe" => FileKind::Jpeg,
        "png" => FileKind::Png,
        "webp" => FileKind::Webp,
        "tar" => FileKind::Tar,
        "parquet" => FileKind::Parquet,
        "arrow" => FileKind::Arrow,
        "h5" | "hdf5" => FileKind::Hdf5,
        "tfrecord" | "tfrecords" => FileKind::TfRecord,
        "npy" | "npz" => FileKind::Numpy,
        _ => FileKind::Other,
    }
}

/// The kind the first bytes show, when they are a known signature (JPEG `FF D8 FF`, PNG's
/// 8-byte signature, RIFF…WEBP, Parquet `PAR1`, HDF5's `\x89HDF\r\n\x1a\n`, NumPy `\x93NUMPY`,
/// tar's `ustar` at offset 257, Arrow `ARROW1`).
pub(super) fn kind_of_magic(head: &[u8]) -> Option<FileKind> {
    let at = |i: usize, sig: &[u8]| head.get(i..i + sig.len()) == Some(sig);
    Some(if at(0, &[0xff, 0xd8, 0xff]) {
        FileKind::Jpeg
    } else if at(0, b"\x89PNG\r\n\x1a\n") {
        FileKind::Png
    } else if at(0, b"RIFF") && at(8, b"WEBP") {
        FileKind::Webp
    } else if at(0, b"PAR1") {
        FileKind::Parquet
    } else if at(0, b"\x89HDF\r\n\x1a\n") {
        FileKind::Hdf5
    } else if at(0, b"\x93NUMPY") {
        FileKind::Numpy
    } else if at(257, b"ustar") {
        FileKind::Tar
    } else if at(0, b"ARROW1") {
        FileKind::Arrow
    } else {
        return None;
    })
}

/// A PNG's size from its IHDR chunk (bytes 16–23, big-endian width and height).
pub(super) fn png_size(head: &[u8]) -> Option<(u32, u32)> {
    if head.get(..8)? != b"\x89PNG\r\n\x1a\n" || head.get(12..16)? != b"IHDR" {
        return None;
    }
    let be = |i: usize| Some(u32::from_be_bytes(head.get(i..i + 4)?.try_into().ok()?));
    Some((be(16)?, be(20)?))
}

/// A JPEG's size from its first start-of-frame marker (SOF0–SOF15 but DHT C4, JPG C8 and DAC
/// CC; ITU-T T.81 §B.2.2: length, precision, height, width), walking the marker segments.
pub(super) fn jpeg_size(head: &[u8]) -> Option<(u32, u32)> {
    if head.get(..2)? != [0xff, 0xd8] {
        return None;
    }
    let mut i = 2;
    while i + 4 <= head.len() {
        if head[i] != 0xff {
            return None;
        }
        let marker = head[i + 1];
        if marker == 0xff {
            i += 1;
            continue;
        }
        if marker == 0xd8 || (0xd0..=0xd7).contains(&marker) || marker == 0x01 {
            i += 2;
            continue;
        }
        let len = usize::from(u16::from_be_bytes([head[i + 2], head[i + 3]]));
        if (0xc0..=0xcf).contains(&marker) && !matches!(marker, 0xc4 | 0xc8 | 0xcc) {
            let h = u16::from_be_bytes([*head.get(i + 5)?, *head.get(i + 6)?]);
            let w = u16::from_be_bytes([*head.get(i + 7)?, *head.get(i + 8)?]);
            return Some((u32::from(w), u32::from(h)));
        }
        if marker == 0xda || len < 2 {
            return None;
        }
        i += 2 + len;
    }
    None
}

/// Sample keys in a tar archive's headers: the distinct member names up to their first dot
/// (WebDataset: `000123.jpg` and `000123.cls` are one sample), reading 512-byte headers and
/// skipping member data by its size (POSIX ustar; `read_at` reads `len` bytes at `offset`).
pub(super) fn tar_samples(
    mut read_at: impl FnMut(u64, usize) -> Option<Vec<u8>>,
    file_len: u64,
) -> Option<u64> {
    let mut offset = 0u64;
    let mut last_key: Option<Vec<u8>> = None;
    let mut samples = 0u64;
    for _ in 0..1_000_000 {
        if offset + 512 > file_len {
            break;
        }
        let h = read_at(offset, 512)?;
        if h.iter().all(|&b| b == 0) {
            break;
        }
        let name_end = h[..100].iter().position(|&b| b == 0).unwrap_or(100);
        let name = &h[..name_end];
        let size_field = std::str::from_utf8(&h[124..136]).ok()?;
        let size = u64::from_str_radix(size_field.trim_matches(|c: char| c == '\0' || c == ' '), 8)
            .ok()?;
        let typeflag = h[156];
        if typeflag == b'0' || typeflag == 0 {
            let base = name.rsplit(|&b| b == b'/').next().unwrap_or(name);
            let key = base.split(|&b| b == b'.').next().unwrap_or(base).to_vec();
            if last_key.as_deref() != Some(key.as_slice()) {
                samples += 1;
                last_key = Some(key);
            }
        }
        offset = offset.checked_add(512 + size.div_ceil(512) * 512)?;
    }
    Some(samples)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn headers_by_hand() {
        // PNG: signature, IHDR length 13, "IHDR", 640 × 480.
        let mut png = b"\x89PNG\r\n\x1a\n\0\0\0\x0dIHDR".to_vec();
        png.extend_from_slice(&640u32.to_be_bytes());
        png.extend_from_slice(&480u32.to_be_bytes());
        assert_eq!(png_size(&png), Some((640, 480)));
        assert_eq!(kind_of_magic(&png), Some(FileKind::Png));
        // JPEG: SOI, an APP0 of 16 bytes, SOF0 with height 300 and width 400.
        let mut jpg = vec![0xff, 0xd8, 0xff, 0xe0, 0, 16];
        jpg.extend_from_slice(&[0; 14]);
        jpg.extend_from_slice(&[0xff, 0xc0, 0, 17, 8, 0x01, 0x2c, 0x01, 0x90, 3]);
        assert_eq!(jpeg_size(&jpg), Some((400, 300)));
        assert_eq!(jpeg_size(&[0xff, 0xd8, 0xff, 0xe0, 0xff, 0xff]), None);
        assert_eq!(kind_of_name("IMG_0001.JPG"), FileKind::Jpeg);
        assert_eq!(kind_of_name("data.mdb"), FileKind::Lmdb);
        assert_eq!(kind_of_name("shard-000001.tar"), FileKind::Tar);
    }
}
