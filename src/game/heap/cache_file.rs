//! The layout of a cache file: a header, then chunks of values appended one after another, each
//! with its own checksum (see [`super::cache`] for how they are read and written).
//!
//! ```text
//! header: "GRUNDYHS"  format u32  version (u16 length, bytes)  key (u32 length, bytes)
//!         CRC-32 of the header bytes before it (u32)
//! chunk:  start u64 (the heap of its first value)  count u32  width u8 (1, 2 or 4)
//!         count values of `width` bytes  CRC-32 of the chunk bytes before it (u32)
//!         MAC: HMAC-SHA256 (32 bytes), keyed by the installation's secret, of
//!              "grundy cache chunk"  version (u16 length, bytes)  key (u32 length, bytes)
//!              and the chunk bytes before the CRC
//! ```
//!
//! all little-endian. A chunk holds at most [`CHUNK_VALUES`] values, so a reader checks each in
//! a buffer of a few MiB before it takes its values. The CRC tells an accident (a flipped byte, a
//! cut) from a chunk that is whole but not signed by this installation: one copied from another
//! machine, or edited. The MAC covers the game's key and the heap of the first value, so a
//! signed chunk cannot be moved to another game or another place either
//! ([`crate::game::cache_key`] says where the secret is).

use std::io::{self, Read, Write};

use hmac::{KeyInit, Mac};

use super::values::Cell;
use crate::game::cache_key::CacheKey;

const MAGIC: &[u8; 8] = b"GRUNDYHS";
const FORMAT: u32 = 3;
pub(super) const VERSION: &str = env!("CARGO_PKG_VERSION");

/// Keys longer than this are not those of a cache file.
const MOST_KEY_BYTES: usize = 1 << 24;

/// The most values in one chunk.
pub(super) const CHUNK_VALUES: usize = 1 << 20;

/// The bytes of a chunk before its values.
const CHUNK_HEAD: usize = 8 + 4 + 1;

/// The bytes of a chunk after its values: the CRC and the MAC.
const CHUNK_TAIL: usize = 4 + MAC_BYTES;

const MAC_BYTES: usize = 32;

type Hmac = hmac::Hmac<sha2::Sha256>;

/// The MAC of the chunks of one game's file, primed with what every chunk's MAC covers first.
pub(super) struct Signer(Hmac);

impl Signer {
    pub fn new(secret: &CacheKey, key: &str) -> Signer {
        let mut mac = Hmac::new_from_slice(&secret.0).expect("HMAC takes any key length");
        mac.update(b"grundy cache chunk");
        mac.update(&(VERSION.len() as u16).to_le_bytes());
        mac.update(VERSION.as_bytes());
        mac.update(&(key.len() as u32).to_le_bytes());
        mac.update(key.as_bytes());
        Signer(mac)
    }

    fn chunk(&self) -> Hmac {
        self.0.clone()
    }
}

/// Reads as many bytes as `buffer` holds, fewer only at the end of the input.
fn read_full(input: &mut impl Read, buffer: &mut [u8]) -> io::Result<usize> {
    let mut read = 0;
    while read < buffer.len() {
        match input.read(&mut buffer[read..]) {
            Ok(0) => break,
            Ok(n) => read += n,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    Ok(read)
}

/// The header of a file, checked: its length in bytes, or why the file is not this version's
/// cache of the game with this key.
pub(super) fn read_header(input: &mut impl Read, key: &str, size: u64) -> Result<u64, String> {
    let mut bytes = Vec::new();
    let mut take = |len: usize| -> Result<Vec<u8>, String> {
        let mut part = vec![0u8; len];
        if read_full(input, &mut part).map_err(|e| e.to_string())? < len {
            return Err(format!(
                "it is truncated ({size} bytes, shorter than its header)"
            ));
        }
        bytes.extend_from_slice(&part);
        Ok(part)
    };
    let not_one = || "it is not a grundy cache file of this format".to_string();
    let start = take(8 + 4)?;
    if &start[..8] != MAGIC || start[8..12] != FORMAT.to_le_bytes() {
        return Err(not_one());
    }
    let version_len = u16::from_le_bytes(take(2)?.try_into().expect("2 bytes")) as usize;
    let version = String::from_utf8_lossy(&take(version_len)?).into_owned();
    let key_len = u32::from_le_bytes(take(4)?.try_into().expect("4 bytes")) as usize;
    if key_len as u64 > size {
        return Err(format!(
            "it is truncated ({size} bytes, shorter than its header)"
        ));
    }
    if key_len > MOST_KEY_BYTES {
        return Err(not_one());
    }
    let found = String::from_utf8_lossy(&take(key_len)?).into_owned();
    let stored = u32::from_le_bytes(take(4)?.try_into().expect("4 bytes"));
    let header = &bytes[..bytes.len() - 4];
    if crc32fast::hash(header) != stored {
        return Err("the checksum of its header does not match (the file is corrupt)".into());
    }
    if version != VERSION {
        return Err(format!(
            "it was written by grundy {version} (this is {VERSION})"
        ));
    }
    if found != key {
        return Err(format!("it holds another game ({found})"));
    }
    Ok(bytes.len() as u64)
}

/// Writes the header of the file of the game with this key; returns its length in bytes.
pub(super) fn write_header(out: &mut impl Write, key: &str) -> io::Result<u64> {
    let mut bytes = Vec::new();
    bytes.extend_from_slice(MAGIC);
    bytes.extend_from_slice(&FORMAT.to_le_bytes());
    bytes.extend_from_slice(&(VERSION.len() as u16).to_le_bytes());
    bytes.extend_from_slice(VERSION.as_bytes());
    bytes.extend_from_slice(&(key.len() as u32).to_le_bytes());
    bytes.extend_from_slice(key.as_bytes());
    let crc = crc32fast::hash(&bytes);
    bytes.extend_from_slice(&crc.to_le_bytes());
    out.write_all(&bytes)?;
    Ok(bytes.len() as u64)
}

/// What the next chunk of a file is.
pub(super) enum Chunk {
    /// A sound chunk: the heap of its first value, how many values, their width, and its length
    /// in bytes; its values are in the buffer given.
    Sound {
        start: u64,
        count: usize,
        width: usize,
        bytes: u64,
    },
    /// The end of the file, right after a chunk.
    End,
    /// A chunk that is not sound, and why.
    Damaged(&'static str),
    /// A whole chunk whose MAC fails: not written by this installation.
    Unsigned,
}

/// Reads and checks the next chunk, its values into `buffer`.
pub(super) fn read_chunk(
    input: &mut impl Read,
    buffer: &mut Vec<u8>,
    signer: &Signer,
) -> io::Result<Chunk> {
    let mut head = [0u8; CHUNK_HEAD];
    match read_full(input, &mut head)? {
        0 => return Ok(Chunk::End),
        CHUNK_HEAD => {}
        _ => return Ok(Chunk::Damaged("it is cut short")),
    }
    let start = u64::from_le_bytes(head[..8].try_into().expect("8 bytes"));
    let count = u32::from_le_bytes(head[8..12].try_into().expect("4 bytes")) as usize;
    let width = head[12] as usize;
    if ![1, 2, 4].contains(&width) || count == 0 || count > CHUNK_VALUES {
        return Ok(Chunk::Damaged("its header is malformed"));
    }
    let values = count * width;
    buffer.resize(values + CHUNK_TAIL, 0);
    if read_full(input, buffer)? < buffer.len() {
        return Ok(Chunk::Damaged("it is cut short"));
    }
    let stored = u32::from_le_bytes(buffer[values..values + 4].try_into().expect("4 bytes"));
    let mut crc = crc32fast::Hasher::new();
    crc.update(&head);
    crc.update(&buffer[..values]);
    if crc.finalize() != stored {
        return Ok(Chunk::Damaged("its checksum does not match its contents"));
    }
    let mut mac = signer.chunk();
    mac.update(&head);
    mac.update(&buffer[..values]);
    if mac.verify_slice(&buffer[values + 4..]).is_err() {
        return Ok(Chunk::Unsigned);
    }
    buffer.truncate(values);
    Ok(Chunk::Sound {
        start,
        count,
        width,
        bytes: (CHUNK_HEAD + values + CHUNK_TAIL) as u64,
    })
}

/// The value of one cell of a chunk of this width.
pub(super) fn cell_value(cell: &[u8]) -> u32 {
    let mut word = [0u8; 4];
    word[..cell.len()].copy_from_slice(cell);
    u32::from_le_bytes(word)
}

/// Writes `g`, the values of heaps `start..start + g.len()`, as chunks; returns the bytes
/// written.
pub(super) fn write_chunks<T: Cell>(
    out: &mut impl Write,
    start: u64,
    g: &[T],
    signer: &Signer,
) -> io::Result<u64> {
    let width = size_of::<T>();
    let mut written = 0;
    let mut buffer = Vec::with_capacity(CHUNK_HEAD + (1 << 16) * width);
    for (i, chunk) in g.chunks(CHUNK_VALUES).enumerate() {
        let first = start + (i * CHUNK_VALUES) as u64;
        let mut crc = crc32fast::Hasher::new();
        let mut mac = signer.chunk();
        buffer.clear();
        buffer.extend_from_slice(&first.to_le_bytes());
        buffer.extend_from_slice(&(chunk.len() as u32).to_le_bytes());
        buffer.push(width as u8);
        for part in chunk.chunks(1 << 16) {
            for &v in part {
                buffer.extend_from_slice(&v.into().to_le_bytes()[..width]);
            }
            crc.update(&buffer);
            mac.update(&buffer);
            out.write_all(&buffer)?;
            buffer.clear();
        }
        out.write_all(&crc.finalize().to_le_bytes())?;
        out.write_all(&mac.finalize().into_bytes())?;
        written += (CHUNK_HEAD + size_of_val(chunk) + CHUNK_TAIL) as u64;
    }
    Ok(written)
}
