//! Heap sequences kept on disk as they grow (`--cache DIR`, `:cache DIR`), so that a later run
//! continues from them instead of starting over.
//!
//! A sequence's values depend on its [`HeapRules`] alone, so its file is named by a hash of their
//! canonical text ([`canonical_key`]): every spelling of the same moves (an octal code, a
//! subtraction set, rules that lower to the same takes and splits) shares one file. The file:
//!
//! ```text
//! "GRUNDYHS"  format u32  version (u16 length, bytes)  key (u32 length, bytes)
//! width u8 (1, 2 or 4)  count u64  count values of `width` bytes  CRC-32 of all before (u32)
//! ```
//!
//! all little-endian. A file is written whole to a temporary file in the same folder and renamed
//! over the old one, so a reader sees the old file or the new, never a mix. A file that is not
//! one, from another version or game, shorter or longer than its header says, whose checksum
//! fails, or whose values contradict the period they prove, is ignored with a warning. A proved
//! period is not stored: resuming replays the values through the same checkpoints as computing
//! them, which finds the period again from them.

use std::fs::{File, OpenOptions};
use std::io::{self, BufReader, BufWriter, Read, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use super::options::CanonicalMoves;
use super::values::{with_slice, Cell};
use super::{HeapRules, HeapSequence};
use crate::game::Limits;

const MAGIC: &[u8; 8] = b"GRUNDYHS";
const FORMAT: u32 = 1;
const VERSION: &str = env!("CARGO_PKG_VERSION");

/// How often a growing sequence is saved by default (longer when saving itself takes long).
const SAVE_EVERY: Duration = Duration::from_secs(5);

/// Saving waits at least this many times as long as the last save took.
const SAVE_COST_FACTOR: u32 = 10;

/// Below this many values, a sequence is saved only when its computation stops or the run ends,
/// or when it is due; from it on, also each time it has doubled.
const SAVE_DOUBLING_FROM: usize = 1 << 16;

/// Headers longer than this are not those of a cache file.
const MOST_KEY_BYTES: usize = 1 << 24;

/// A folder where heap sequences are kept as they grow, with the warnings about its files that
/// nobody has read yet.
#[derive(Debug)]
pub struct Cache {
    dir: PathBuf,
    /// How often a growing sequence is saved, at least.
    pub save_every: Duration,
    warnings: Mutex<Vec<CacheWarning>>,
}

/// A cache file that was ignored, or could not be written, and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CacheWarning {
    pub path: PathBuf,
    pub reason: String,
    /// Whether the file was read and ignored (else: a save failed).
    pub ignored: bool,
}

impl Cache {
    /// The cache in folder `dir`, which is created if missing.
    pub fn open(dir: &Path) -> io::Result<Cache> {
        std::fs::create_dir_all(dir)?;
        Ok(Cache {
            dir: dir.to_path_buf(),
            save_every: SAVE_EVERY,
            warnings: Mutex::default(),
        })
    }

    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// The file that holds the values of the sequence with these rules.
    pub fn path_of(&self, rules: &HeapRules) -> PathBuf {
        self.dir.join(format!(
            "{:016x}.heapseq",
            fnv1a(canonical_key(rules).as_bytes())
        ))
    }

    /// The warnings since the last call, oldest first.
    pub fn take_warnings(&self) -> Vec<CacheWarning> {
        std::mem::take(&mut *self.warnings.lock().unwrap_or_else(|e| e.into_inner()))
    }

    fn warn(&self, path: &Path, reason: String, ignored: bool) {
        let warning = CacheWarning {
            path: path.to_path_buf(),
            reason,
            ignored,
        };
        self.warnings
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .push(warning);
    }
}

/// What a sequence knows of its file in the cache in use.
#[derive(Debug, Default)]
pub(super) struct Tracker {
    /// The cache the sequence last resumed from (or found nothing in).
    cache: Option<Arc<Cache>>,
    /// How many values the file is known to hold (written or read by this sequence).
    saved: usize,
    /// How many values were taken from the file.
    resumed: usize,
    last_save: Option<Instant>,
    last_save_took: Duration,
    /// A save failed: this sequence does not try again in this cache.
    failed: bool,
    /// The file was found unsound: it is replaced whatever its header says.
    unsound: bool,
}

impl HeapSequence {
    /// How many heaps' values were taken from the cache rather than computed.
    pub fn resumed(&self) -> usize {
        self.cache.resumed
    }

    /// When the cache in use is not the one this sequence last looked in: takes the values of
    /// its file there, if they are more than the sequence holds and the file is sound.
    pub(super) fn resume(&mut self, limits: &Limits) {
        let Some(cache) = &limits.cache else {
            self.cache.cache = None;
            return;
        };
        if self
            .cache
            .cache
            .as_ref()
            .is_some_and(|c| Arc::ptr_eq(c, cache))
        {
            return;
        }
        let path = cache.path_of(&self.rules);
        let mut tracker = Tracker {
            cache: Some(cache.clone()),
            ..Tracker::default()
        };
        match read_file(&path, &canonical_key(&self.rules), &self.rules, limits) {
            Ok(None) => {}
            Ok(Some((fresh, count))) => {
                tracker.saved = count;
                if fresh.len() > self.len() {
                    tracker.resumed = fresh.len();
                    *self = fresh;
                }
            }
            Err(reason) => {
                cache.warn(&path, reason, true);
                tracker.unsound = true;
            }
        }
        self.cache = tracker;
    }

    /// Saves the values to the cache in use when they are more than the file holds and either
    /// `stopping` (the computation ends here), or a save is due (time, or the values doubled).
    pub(super) fn keep(&mut self, limits: &Limits, stopping: bool) {
        let Some(cache) = limits.cache.clone() else {
            return;
        };
        let tracker = &self.cache;
        if !tracker
            .cache
            .as_ref()
            .is_some_and(|c| Arc::ptr_eq(c, &cache))
        {
            return;
        }
        let len = self.len();
        if tracker.failed || len <= tracker.saved {
            return;
        }
        let wait = cache
            .save_every
            .max(tracker.last_save_took * SAVE_COST_FACTOR);
        let due = stopping
            || (len >= SAVE_DOUBLING_FROM && len >= 2 * tracker.saved)
            || tracker.last_save.is_none_or(|at| at.elapsed() >= wait);
        if !due {
            return;
        }
        let path = cache.path_of(&self.rules);
        let key = canonical_key(&self.rules);
        let start = Instant::now();
        let longer = || existing_count(&path, &key).is_some_and(|count| count >= len);
        if !tracker.unsound && longer() {
            self.cache.saved = len;
            return;
        }
        match self.write_file(&path, &key) {
            Ok(()) => {
                self.cache.saved = len;
                self.cache.unsound = false;
                self.cache.last_save = Some(Instant::now());
                self.cache.last_save_took = start.elapsed();
            }
            Err(e) => {
                cache.warn(&path, e.to_string(), false);
                self.cache.failed = true;
            }
        }
    }

    /// Saves the values if they are more than the file in the cache in use holds (when this
    /// sequence has looked in that cache).
    pub fn save_to_cache(&mut self, limits: &Limits) {
        self.keep(limits, true);
    }

    fn write_file(&self, path: &Path, key: &str) -> io::Result<()> {
        static WRITES: AtomicU64 = AtomicU64::new(0);
        let name = path.file_name().unwrap_or_default().to_string_lossy();
        let temporary = path.with_file_name(format!(
            ".{name}.{}.{}.tmp",
            std::process::id(),
            WRITES.fetch_add(1, Ordering::Relaxed)
        ));
        let result = (|| {
            let file = OpenOptions::new()
                .write(true)
                .create_new(true)
                .open(&temporary)?;
            let mut out = Checksummed::new(BufWriter::with_capacity(1 << 20, file));
            with_slice!(&self.values, g => write_values(&mut out, key, g))?;
            let crc = out.crc.clone().finalize();
            let mut file = out.inner;
            file.write_all(&crc.to_le_bytes())?;
            file.flush()?;
            drop(file);
            std::fs::rename(&temporary, path)
        })();
        if result.is_err() {
            let _ = std::fs::remove_file(&temporary);
        }
        result
    }
}

fn write_values<T: Cell>(out: &mut Checksummed<impl Write>, key: &str, g: &[T]) -> io::Result<()> {
    out.write_all(MAGIC)?;
    out.write_all(&FORMAT.to_le_bytes())?;
    out.write_all(&(VERSION.len() as u16).to_le_bytes())?;
    out.write_all(VERSION.as_bytes())?;
    out.write_all(&(key.len() as u32).to_le_bytes())?;
    out.write_all(key.as_bytes())?;
    let width = size_of::<T>();
    out.write_all(&[width as u8])?;
    out.write_all(&(g.len() as u64).to_le_bytes())?;
    let mut buffer = Vec::with_capacity(1 << 16);
    for chunk in g.chunks((1 << 16) / width) {
        buffer.clear();
        for &v in chunk {
            buffer.extend_from_slice(&v.into().to_le_bytes()[..width]);
        }
        out.write_all(&buffer)?;
    }
    Ok(())
}

/// A reader or writer that keeps the CRC-32 of the bytes through it.
struct Checksummed<T> {
    inner: T,
    crc: crc32fast::Hasher,
}

impl<T> Checksummed<T> {
    fn new(inner: T) -> Checksummed<T> {
        Checksummed {
            inner,
            crc: crc32fast::Hasher::new(),
        }
    }
}

impl<T: Write> Write for Checksummed<T> {
    fn write(&mut self, bytes: &[u8]) -> io::Result<usize> {
        let written = self.inner.write(bytes)?;
        self.crc.update(&bytes[..written]);
        Ok(written)
    }

    fn flush(&mut self) -> io::Result<()> {
        self.inner.flush()
    }
}

impl<T: Read> Checksummed<T> {
    fn bytes<const N: usize>(&mut self) -> io::Result<[u8; N]> {
        let mut bytes = [0u8; N];
        self.inner.read_exact(&mut bytes)?;
        self.crc.update(&bytes);
        Ok(bytes)
    }

    fn vec(&mut self, len: usize) -> io::Result<Vec<u8>> {
        let mut bytes = vec![0u8; len];
        self.inner.read_exact(&mut bytes)?;
        self.crc.update(&bytes);
        Ok(bytes)
    }
}

/// What a file's header says.
struct Header {
    version: String,
    key: String,
    width: usize,
    count: u64,
    /// The header's own length in bytes.
    len: u64,
}

fn read_header(input: &mut Checksummed<impl Read>) -> io::Result<Option<Header>> {
    if &input.bytes::<8>()? != MAGIC || u32::from_le_bytes(input.bytes()?) != FORMAT {
        return Ok(None);
    }
    let version_len = u16::from_le_bytes(input.bytes()?) as usize;
    let version = String::from_utf8_lossy(&input.vec(version_len)?).into_owned();
    let key_len = u32::from_le_bytes(input.bytes()?) as usize;
    if key_len > MOST_KEY_BYTES {
        return Ok(None);
    }
    let key = String::from_utf8_lossy(&input.vec(key_len)?).into_owned();
    let width = input.bytes::<1>()?[0] as usize;
    let count = u64::from_le_bytes(input.bytes()?);
    let len = (8 + 4 + 2 + version_len + 4 + key_len + 1 + 8) as u64;
    Ok(Some(Header {
        version,
        key,
        width,
        count,
        len,
    }))
}

/// How many values the file at `path` holds by its header, if it is a cache file of this version
/// for this key (its contents unchecked).
fn existing_count(path: &Path, key: &str) -> Option<usize> {
    let mut input = Checksummed::new(BufReader::new(File::open(path).ok()?));
    let header = read_header(&mut input).ok()??;
    (header.version == VERSION && header.key == key).then_some(header.count as usize)
}

/// A sequence with the rules `rules` holding the values of the file at `path` (as many as the
/// limits allow), and how many values the file holds; `None` when there is no file; the reason
/// when the file is not sound.
fn read_file(
    path: &Path,
    key: &str,
    rules: &HeapRules,
    limits: &Limits,
) -> Result<Option<(HeapSequence, usize)>, String> {
    let file = match File::open(path) {
        Ok(file) => file,
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(format!("it cannot be read: {e}")),
    };
    let size = file.metadata().map_err(|e| e.to_string())?.len();
    let mut input = Checksummed::new(BufReader::with_capacity(1 << 20, file));
    let truncated = || format!("it is truncated ({size} bytes, shorter than its header)");
    let header = match read_header(&mut input) {
        Ok(Some(header)) => header,
        Ok(None) => return Err("it is not a grundy cache file of this format".into()),
        Err(_) => return Err(truncated()),
    };
    if header.version != VERSION {
        return Err(format!(
            "it was written by grundy {} (this is {VERSION})",
            header.version
        ));
    }
    if header.key != key {
        return Err(format!("it holds another game ({})", header.key));
    }
    if ![1, 2, 4].contains(&header.width) {
        return Err(format!("its values are {} bytes wide", header.width));
    }
    let expected =
        (header.count.checked_mul(header.width as u64)).and_then(|v| v.checked_add(header.len + 4));
    match expected {
        Some(expected) if expected == size => {}
        Some(expected) if expected > size => {
            return Err(format!(
                "it is truncated ({size} bytes of {expected} for {} values)",
                header.count
            ))
        }
        _ => {
            return Err(format!(
                "it is longer than its header says ({size} bytes for {} values)",
                header.count
            ))
        }
    }
    let mut sequence = HeapSequence::new(rules.clone());
    let count = header.count as usize;
    let width = header.width;
    let cap = limits.max_memory / width;
    let mut chunk = vec![0u8; (1 << 16) * width];
    let mut read = 0;
    while read < count {
        let n = (count - read).min(1 << 16);
        let bytes = &mut chunk[..n * width];
        input.inner.read_exact(bytes).map_err(|_| truncated())?;
        input.crc.update(bytes);
        for cell in bytes.chunks_exact(width) {
            if sequence.len() < cap {
                let mut word = [0u8; 4];
                word[..width].copy_from_slice(cell);
                let v = u32::from_le_bytes(word);
                if !sequence.take_cached(v) {
                    return Err(format!(
                        "its value of heap {} contradicts the period its values prove",
                        sequence.len()
                    ));
                }
            }
        }
        read += n;
    }
    let computed = input.crc.clone().finalize();
    let mut stored = [0u8; 4];
    input
        .inner
        .read_exact(&mut stored)
        .map_err(|_| truncated())?;
    let stored = u32::from_le_bytes(stored);
    if computed != stored {
        return Err("its checksum does not match its contents (the file is corrupt)".into());
    }
    Ok(Some((sequence, count)))
}

impl HeapSequence {
    /// Appends a value read from a cache file, as if computed; `false` when a period proved by
    /// the values so far gives another value.
    fn take_cached(&mut self, v: u32) -> bool {
        let n = self.len();
        if let Some((n0, p)) = self.period {
            if n >= n0 + p && self.values.get(n - p) != Some(v) {
                return false;
            }
        }
        self.record(v);
        true
    }
}

/// The moves of `rules` as one text, the same for every listing of the same moves: takes merged
/// by amount (a split that may leave equal heaps includes the one that may not), ranges sorted
/// and merged, and takes that a range already makes dropped.
pub fn canonical_key(rules: &HeapRules) -> String {
    let moves = CanonicalMoves::of(rules);
    let mut text = String::from("heap sequence:");
    for (take, flags) in moves.takes {
        let on: Vec<&str> = [
            (flags.none, "none"),
            (flags.one, "one"),
            (flags.two, "two"),
            (flags.two_unequal, "two-unequal"),
            (flags.three, "three"),
        ]
        .into_iter()
        .filter_map(|(on, name)| on.then_some(name))
        .collect();
        text.push_str(&format!(" take {take}:{}", on.join("+")));
    }
    if !moves.ranges.is_empty() {
        text.push_str(" ranges");
    }
    for (lo, hi) in moves.ranges {
        match hi {
            Some(hi) => text.push_str(&format!(" {lo}..={hi}")),
            None => text.push_str(&format!(" {lo}..")),
        }
    }
    text
}

/// The 64-bit FNV-1a hash: stable across versions and machines, for file names.
fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |hash, &b| {
        (hash ^ b as u64).wrapping_mul(0x0100_0000_01b3)
    })
}

#[cfg(test)]
mod tests {
    use super::canonical_key;
    use crate::game::heap::{HeapRules, Take, TakeRange};
    use crate::game::octal::{Base, Octal};
    use crate::game::Game;

    fn take(take: u64, flags: &str) -> Take {
        Take {
            take,
            none: flags.contains('0'),
            one: flags.contains('1'),
            two: flags.contains('2') || flags.contains('u'),
            three: flags.contains('3'),
            unequal: flags.contains('u'),
        }
    }

    fn rules(takes: Vec<Take>, ranges: &[(u64, Option<u64>)]) -> HeapRules {
        HeapRules {
            takes,
            ranges: ranges
                .iter()
                .map(|&(lo, hi)| TakeRange { lo, hi })
                .collect(),
        }
    }

    #[test]
    fn listings_of_the_same_moves_have_one_key() {
        let dawson = Octal::parse("dawson", "0.07", Base::Octal)
            .unwrap()
            .heap_rules()
            .unwrap();
        let spelled = rules(vec![take(2, "2"), take(2, "0"), take(2, "1")], &[]);
        assert_eq!(canonical_key(&dawson), canonical_key(&spelled));
        // A range makes the takes inside it; an equal split includes the unequal one.
        let ranged = rules(
            vec![take(2, "1"), take(5, "u"), take(5, "2")],
            &[(1, Some(3))],
        );
        let plain = rules(vec![take(5, "2")], &[(2, Some(3)), (1, Some(2))]);
        assert_eq!(canonical_key(&ranged), canonical_key(&plain));
        let open = rules(vec![take(7, "01")], &[(1, Some(4)), (3, None)]);
        assert_eq!(
            canonical_key(&open),
            canonical_key(&rules(vec![], &[(1, None)]))
        );
    }

    #[test]
    fn different_moves_have_different_keys() {
        let codes = [
            "0.07", "0.007", "0.7", "0.77", "4.07", "0.6", "0.137", "0.17",
        ];
        let keys: Vec<String> = codes
            .iter()
            .map(|code| {
                canonical_key(
                    &Octal::parse("g", code, Base::Octal)
                        .unwrap()
                        .heap_rules()
                        .unwrap(),
                )
            })
            .collect();
        for i in 0..keys.len() {
            for j in 0..i {
                assert_ne!(keys[i], keys[j], "{} {}", codes[i], codes[j]);
            }
        }
        let unequal = rules(vec![take(0, "u")], &[]);
        let equal = rules(vec![take(0, "2")], &[]);
        assert_ne!(canonical_key(&unequal), canonical_key(&equal));
        let three = rules(vec![take(0, "u3")], &[]);
        assert_ne!(canonical_key(&unequal), canonical_key(&three));
        let bounded = rules(vec![], &[(1, Some(3))]);
        let longer = rules(vec![], &[(1, Some(4))]);
        assert_ne!(canonical_key(&bounded), canonical_key(&longer));
    }
}
