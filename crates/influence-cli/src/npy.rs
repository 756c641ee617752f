//! NumPy `.npy` files, format version 1.0: a layer as a C-order `(height, width)` array of
//! little-endian `f32`, row y = 0 first. Readable with `numpy.load`.

use std::path::Path;

/// The magic string and format version 1.0.
const PREFIX: &[u8] = b"\x93NUMPY\x01\x00";
/// The whole header (prefix, length field, dictionary, padding, newline) is a multiple of this.
const ALIGN: usize = 64;

/// The header of a `height × width` `<f4` array: padded with spaces to a multiple of
/// [`ALIGN`] bytes, ending in a newline.
fn header(width: usize, height: usize) -> Vec<u8> {
    let dict = format!("{{'descr': '<f4', 'fortran_order': False, 'shape': ({height}, {width}), }}");
    let total = (PREFIX.len() + 2 + dict.len() + 1).next_multiple_of(ALIGN);
    // The dictionary holds two numbers, so its length is far below the format's u16 limit.
    let len = u16::try_from(total - PREFIX.len() - 2).unwrap_or(u16::MAX);
    let mut out = Vec::with_capacity(total);
    out.extend_from_slice(PREFIX);
    out.extend_from_slice(&len.to_le_bytes());
    out.extend_from_slice(dict.as_bytes());
    out.resize(total - 1, b' ');
    out.push(b'\n');
    out
}

/// The bytes of an `.npy` file holding `values` as a `height × width` array.
///
/// # Panics
/// If `values.len() != width * height` (a programming error).
pub fn encode(width: usize, height: usize, values: &[f32]) -> Vec<u8> {
    assert_eq!(values.len(), width * height, "layer does not match its shape");
    let mut out = header(width, height);
    out.reserve(4 * values.len());
    for v in values {
        out.extend_from_slice(&v.to_le_bytes());
    }
    out
}

/// Writes `values` as a `height × width` `.npy` file.
///
/// # Errors
/// The file system's error.
pub fn write(path: &Path, width: usize, height: usize, values: &[f32]) -> std::io::Result<()> {
    std::fs::write(path, encode(width, height, values))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Parses a header back: the dictionary text and where the data starts.
    fn parse(bytes: &[u8]) -> (&str, usize) {
        assert_eq!(&bytes[..8], PREFIX);
        let start = 10 + usize::from(u16::from_le_bytes([bytes[8], bytes[9]]));
        let text = std::str::from_utf8(&bytes[10..start]).unwrap();
        assert!(text.ends_with('\n'), "{text:?}");
        (text.trim_end_matches([' ', '\n']), start)
    }

    #[test]
    fn data_follows_the_header_in_c_order() {
        let values = [1.0, -2.5, 0.0, 3.25, 5.0, f32::MIN_POSITIVE];
        let bytes = encode(3, 2, &values);
        let (dict, start) = parse(&bytes);
        assert_eq!(dict, "{'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), }");
        let data: Vec<f32> =
            bytes[start..].chunks(4).map(|c| f32::from_le_bytes(c.try_into().unwrap())).collect();
        assert_eq!(data, values);
    }

    #[test]
    fn headers_are_aligned_for_any_shape() {
        for (w, h) in [(1, 1), (310, 350), (16384, 16384), (268_435_456, 1)] {
            let bytes = header(w, h);
            let (dict, start) = parse(&bytes);
            assert_eq!(start, bytes.len());
            assert_eq!(start % ALIGN, 0, "{w}×{h}");
            assert!(dict.contains(&format!("'shape': ({h}, {w})")), "{dict}");
        }
    }
}
