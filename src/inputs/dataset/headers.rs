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

/// Tar members read for one shard, at most: 1,000,000 headers.
const MAX_TAR_MEMBERS: u32 = 1_000_000;

/// Bytes of a GNU long name or a PAX extended header read, at most: 64 KiB (a path is at most
/// 4,096 bytes on Linux); a longer one is skipped unread.
const MAX_TAR_META: u64 = 64 << 10;

/// A tar header's numeric field: octal digits (POSIX ustar, NUL or space ended), or GNU's
/// base-256 form (first byte's high bit set: the rest is a big-endian number) that GNU tar and
/// Python's `tarfile` write for sizes of 8 GiB and more.
fn tar_number(field: &[u8]) -> Option<u64> {
    if field.first().is_some_and(|b| b & 0x80 != 0) {
        return field.iter().enumerate().try_fold(0u64, |n, (i, &b)| {
            let b = if i == 0 { b & 0x7f } else { b };
            n.checked_mul(256)?.checked_add(u64::from(b))
        });
    }
    let text = std::str::from_utf8(field).ok()?;
    let digits = text.trim_matches(|c: char| c == '\0' || c == ' ');
    if digits.is_empty() {
        return Some(0);
    }
    u64::from_str_radix(digits, 8).ok()
}

/// The records of a PAX extended header (`"%d %s=%s\n"`, the length counting the whole record;
/// POSIX.1-2001 `pax`, "pax Extended Header"): `path` and `size`, the two that matter here.
fn pax_records(data: &[u8]) -> (Option<Vec<u8>>, Option<u64>) {
    let (mut path, mut size) = (None, None);
    let mut rest = data;
    while let Some(sp) = rest.iter().position(|&b| b == b' ') {
        let Some(len) = std::str::from_utf8(&rest[..sp])
            .ok()
            .and_then(|l| l.parse::<usize>().ok())
        else {
            break;
        };
        let Some(record) = rest.get(sp + 1..len) else {
            break;
        };
        let record = record.strip_suffix(b"\n").unwrap_or(record);
        if let Some(eq) = record.iter().position(|&b| b == b'=') {
            match &record[..eq] {
                b"path" => path = Some(record[eq + 1..].to_vec()),
                b"size" => {
                    size = std::str::from_utf8(&record[eq + 1..])
                        .ok()
                        .and_then(|s| s.parse().ok());
                }
                _ => {}
            }
        }
        rest = &rest[len..];
    }
    (path, size)
}

/// WebDataset's sample key of a member name: the path up to the first dot of its last
/// component (`webdataset/tariterators.py`, `base_plus_ext`: `^((?:.*/|)[^.]+)[.]([^/]*)$`);
/// `None` for a name without a dot there, or for `__…__` metadata names, which WebDataset
/// skips.
fn sample_key(name: &[u8]) -> Option<&[u8]> {
    let base_at = name.iter().rposition(|&b| b == b'/').map_or(0, |i| i + 1);
    let base = &name[base_at..];
    if base.starts_with(b"__") && base.ends_with(b"__") {
        return None;
    }
    let dot = base.iter().position(|&b| b == b'.')?;
    (dot > 0).then(|| &name[..base_at + dot])
}

/// Samples in a tar archive (a WebDataset shard): consecutive members with the same key (the
/// path before the first dot of the file name, [`sample_key`]) are one sample, as WebDataset's
/// `group_by_keys` groups them. Reads the 512-byte headers and skips member data by its size
/// (POSIX ustar with its `prefix` field, IEEE Std 1003.1 `pax` "ustar Interchange Format";
/// `read_at` reads `len` bytes at `offset`). Long names are taken from where their writers put
/// them: a PAX extended header's `path` record (type `x`, Python `tarfile`'s default format
/// and `tar --format=posix`) and a GNU long-name member (type `L`, named `././@LongLink`,
/// `tar --format=gnu` and `tarfile.GNU_FORMAT`); a PAX `size` record replaces the header's
/// size. `None` when a header can't be read or parsed.
pub(super) fn tar_samples(
    mut read_at: impl FnMut(u64, usize) -> Option<Vec<u8>>,
    file_len: u64,
) -> Option<u64> {
    let mut offset = 0u64;
    let mut last_key: Option<Vec<u8>> = None;
    let mut samples = 0u64;
    // What the metadata members before a file say about it.
    let mut long_name: Option<Vec<u8>> = None;
    let mut pax_size: Option<u64> = None;
    for _ in 0..MAX_TAR_MEMBERS {
        if offset.checked_add(512)? > file_len {
            break;
        }
        let h = read_at(offset, 512)?;
        if h.len() < 512 || h.iter().all(|&b| b == 0) {
            break;
        }
        let header_size = tar_number(&h[124..136])?;
        let typeflag = h[156];
        let data_at = offset + 512;
        let meta = |read_at: &mut dyn FnMut(u64, usize) -> Option<Vec<u8>>| {
            if header_size > MAX_TAR_META || data_at.checked_add(header_size)? > file_len {
                return None;
            }
            read_at(data_at, header_size as usize)
        };
        let size = match typeflag {
            b'L' => {
                long_name = meta(&mut read_at).map(|mut d| {
                    let end = d.iter().position(|&b| b == 0).unwrap_or(d.len());
                    d.truncate(end);
                    d
                });
                header_size
            }
            b'x' => {
                if let Some(d) = meta(&mut read_at) {
                    let (path, size) = pax_records(&d);
                    long_name = path.or(long_name);
                    pax_size = size.or(pax_size);
                }
                header_size
            }
            // A GNU long link name, a global PAX header: nothing about the next file's name.
            b'K' | b'g' => header_size,
            _ => {
                let name = long_name.take().unwrap_or_else(|| {
                    let field = |r: std::ops::Range<usize>| {
                        let f = &h[r];
                        f[..f.iter().position(|&b| b == 0).unwrap_or(f.len())].to_vec()
                    };
                    let name = field(0..100);
                    let prefix = field(345..500);
                    // POSIX ustar's `prefix` (magic "ustar\0"); old GNU headers ("ustar  ")
                    // keep other fields there.
                    if &h[257..263] == b"ustar\0" && !prefix.is_empty() {
                        [prefix, b"/".to_vec(), name].concat()
                    } else {
                        name
                    }
                });
                let size = pax_size.take().unwrap_or(header_size);
                // Regular files only (`0`, old-style NUL, contiguous `7`).
                if matches!(typeflag, b'0' | 0 | b'7') {
                    if let Some(key) = sample_key(&name) {
                        if last_key.as_deref() != Some(key) {
                            samples += 1;
                            last_key = Some(key.to_vec());
                        }
                    }
                }
                size
            }
        };
        offset = data_at.checked_add(size.div_ceil(512).checked_mul(512)?)?;
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
