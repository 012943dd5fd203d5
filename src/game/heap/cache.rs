//! Heap sequences kept on disk as they grow (`--cache DIR`, `:cache DIR`), so that a later run
//! continues from them instead of starting over.
//!
//! A sequence's values depend on its [`HeapRules`] alone, so its file is named by a hash of their
//! canonical text ([`canonical_key`]): every spelling of the same moves (an octal code, a
//! subtraction set, rules that lower to the same takes and splits) shares one file.
//!
//! The file (layout in [`super::cache_file`]) is a header (the format, the version and the key,
//! with their checksum) followed by chunks of values, each with the heap of its first value and
//! its own checksum. A save appends only the values the file does not hold yet; a read takes the
//! values chunk by chunk into the sequence itself (no second copy), each chunk checked before its
//! values are taken. A file that is not one, from another version or game, or whose header is
//! damaged is ignored whole with a warning (and written again at the next save); a file whose
//! tail is damaged (cut short by a crash, a flipped byte, chunks out of order) keeps the chunks
//! before it, with a warning, and the next save cuts the damaged tail and appends after them. A
//! chunk whose checksum holds but whose value of heap `n` contradicts the values computed or the
//! period the values before it prove keeps its values before `n` (each was checked as it was
//! taken), and the next save cuts the file before that chunk and writes them again.
//!
//! Only values this installation computed are taken: each chunk carries an HMAC-SHA256 under
//! the installation's secret ([`crate::game::cache_key`]), and a chunk whose MAC fails (a file copied
//! from another machine, or edited, its CRC recomputed) is treated as a damaged one: its values
//! and those after it are computed again, with a warning, and the next save writes them again,
//! signed. Each value taken is also checked to be one the game can have (at most the number of
//! options of its heap, and at most the next power of two above the values before it, since the
//! options are sums of smaller heaps), so that not even a bug of this installation makes a table
//! grow without bound. The folder and its files are opened by [`crate::files::open`] under a
//! root that follows no link: a cache folder or file that is a link is refused.
//!
//! Several runs may share a folder: a writer holds an exclusive lock on the file while it
//! checks what others appended and appends after it, and a reader a shared one, so no reader
//! sees half a chunk and no two writers interleave. Values are the same whoever computes them:
//! when two runs race, a save may find its values already there (nothing is lost but the work of
//! computing them twice). A proved period is not stored: resuming replays the values through the
//! same checkpoints as computing them, which finds the period again from them.

use std::fs::File;
use std::io::{self, BufReader, BufWriter, Seek, SeekFrom, Write};

use std::sync::Arc;
use std::time::{Duration, Instant};

use super::cache_file::{
    cell_value, read_chunk, read_header, write_chunks, write_header, Chunk, Signer, CHUNK_VALUES,
};
use super::codes::ScanCodes;
use super::options::CanonicalMoves;
use super::values::{with_slice, Read};
use super::{HeapRules, HeapSequence};
use crate::files::Access;
use crate::game::cache_folder::Cache;
use crate::game::Limits;

/// Saving waits at least this many times as long as the last save took.
const SAVE_COST_FACTOR: u32 = 10;

/// Below this many values, a sequence is saved only when its computation stops or the run ends,
/// or when it is due; from it on, also each time it has doubled.
const SAVE_DOUBLING_FROM: usize = 1 << 16;

/// What a sequence knows of its file in the cache in use.
#[derive(Debug, Default)]
pub(super) struct Tracker {
    /// The cache the sequence last resumed from (or found nothing in).
    cache: Option<Arc<Cache>>,
    /// How many values the sound part of the file holds (written or read by this sequence).
    saved: usize,
    /// How many values were taken from the file.
    resumed: usize,
    last_save: Option<Instant>,
    last_save_took: Duration,
    /// Where the part of the file known sound ends, in bytes (0: not known).
    end: u64,
    /// The file holds a chunk at `end` found damaged: the next save cuts the file there.
    damaged: bool,
    /// A save failed: this sequence does not try again in this cache.
    failed: bool,
}

impl HeapSequence {
    /// How many heaps' values were taken from the cache rather than computed.
    pub fn resumed(&self) -> usize {
        self.cache.resumed
    }

    /// When the cache in use is not the one this sequence last looked in: takes the values of
    /// its file there that the sequence does not hold, as far as the file is sound (and the
    /// memory limit allows), warning about a file that is not sound.
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
        let path = cache.path_of(&file_name(&self.rules));
        let mut tracker = Tracker {
            cache: Some(cache.clone()),
            ..Tracker::default()
        };
        let had = self.len();
        match self.read_file(cache, limits) {
            Ok(None) => {}
            Ok(Some(sound)) => {
                tracker.saved = sound.saved;
                tracker.end = sound.end;
                tracker.damaged = sound.damage.is_some();
                if let Some(reason) = sound.damage {
                    let kept = (sound.kept > 0).then_some(sound.kept);
                    cache.warn(&path, reason, true, kept);
                }
            }
            Err(reason) => cache.warn(&path, reason, true, None),
        }
        tracker.resumed = self.len() - had;
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
        if tracker.failed || (len <= tracker.saved && !tracker.damaged) {
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
        let path = cache.path_of(&file_name(&self.rules));
        let start = Instant::now();
        match self.append_to_file(&cache) {
            Ok(()) => {
                self.cache.last_save = Some(Instant::now());
                self.cache.last_save_took = start.elapsed();
            }
            Err(e) => {
                cache.warn(&path, e.to_string(), false, None);
                self.cache.failed = true;
            }
        }
    }

    /// Saves the values if they are more than the file in the cache in use holds (when this
    /// sequence has looked in that cache).
    pub fn save_to_cache(&mut self, limits: &Limits) {
        self.keep(limits, true);
    }

    /// Takes the values of the sequence's file into the sequence, under a shared lock: `None`
    /// when there is no file (or an empty one, which a writer has just made); the reason when
    /// its header is not this game's.
    fn read_file(&mut self, cache: &Cache, limits: &Limits) -> Result<Option<SoundPart>, String> {
        let key = canonical_key(&self.rules);
        let signer = Signer::new(cache.secret(), &key);
        let file = match cache.open_file(&file_name(&self.rules), Access::Read) {
            Ok(file) => file,
            Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(None),
            Err(e) => return Err(format!("it cannot be read: {e}")),
        };
        file.lock_shared()
            .map_err(|e| format!("it cannot be locked: {e}"))?;
        let size = file.metadata().map_err(|e| e.to_string())?.len();
        if size == 0 {
            return Ok(None);
        }
        let mut input = BufReader::with_capacity(1 << 20, &file);
        let header = read_header(&mut input, &key, size)?;
        let mut sound = SoundPart {
            kept: 0,
            saved: 0,
            end: header,
            damage: None,
        };
        let mut buffer = Vec::new();
        loop {
            let chunk = read_chunk(&mut input, &mut buffer, &signer);
            let (start, count, width, bytes) = match chunk {
                Ok(Chunk::End) => break,
                Ok(Chunk::Sound {
                    start,
                    count,
                    width,
                    bytes,
                }) => (start, count, width, bytes),
                Ok(Chunk::Damaged(why)) => {
                    sound.damage = Some(damaged(sound.saved, why));
                    break;
                }
                Ok(Chunk::Unsigned) => {
                    sound.damage = Some(unsigned(sound.saved));
                    break;
                }
                Err(e) => {
                    sound.damage = Some(damaged(sound.saved, &e.to_string()));
                    break;
                }
            };
            if start != sound.saved as u64 {
                sound.damage = Some(damaged(sound.saved, "its chunks are out of order"));
                break;
            }
            let cap = limits.max_memory / width.max(self.values.width());
            for (i, cell) in buffer.chunks_exact(width).enumerate() {
                let n = sound.saved + i;
                let v = cell_value(cell);
                if n < self.len() {
                    if self.get(n as u64) != Some(v) {
                        sound.damage = Some(damaged(n, "it contradicts the values computed"));
                        sound.kept = n;
                        return Ok(Some(sound));
                    }
                } else if self.len() >= cap {
                    sound.kept = n;
                    return Ok(Some(sound));
                } else if let Some(why) = self.impossible(v) {
                    sound.damage = Some(damaged(n, &why));
                    sound.kept = n;
                    return Ok(Some(sound));
                } else if !self.take_cached(v) {
                    let why = "it contradicts the period its values prove";
                    sound.damage = Some(damaged(n, why));
                    sound.kept = n;
                    return Ok(Some(sound));
                }
            }
            sound.saved += count;
            sound.kept = sound.saved;
            sound.end += bytes;
        }
        Ok(Some(sound))
    }

    /// Appends the values the sequence's file does not hold, under an exclusive lock: after the
    /// part of the file this sequence knows sound, the chunks others appended since are checked
    /// and kept, a damaged tail is cut, and only the values after them are written. A chunk this
    /// sequence found damaged is cut with all after it; when the file is shorter than the part
    /// known sound (another run cut it), it is checked again from its header. A file that is
    /// not this game's (or not a cache file) is written again from its header.
    fn append_to_file(&mut self, cache: &Cache) -> io::Result<()> {
        let key = canonical_key(&self.rules);
        let signer = Signer::new(cache.secret(), &key);
        let mut file = cache.open_file(&file_name(&self.rules), Access::Update)?;
        file.lock()?;
        let size = file.metadata()?.len();
        let header = read_header(&mut BufReader::new(&file), &key, size);
        let (mut end, mut count) = match header {
            Ok(header) => {
                let known = match self.cache.end {
                    0 => (header, 0),
                    end => (end, self.cache.saved),
                };
                if known.0 > size {
                    sound_end(&mut file, (header, 0), &signer)?
                } else if self.cache.damaged {
                    known
                } else {
                    let mut found = sound_end(&mut file, known, &signer)?;
                    if found.0 < size && found == known && known.0 != header {
                        // Nothing sound where this sequence left the file: it was written again.
                        found = sound_end(&mut file, (header, 0), &signer)?;
                    }
                    found
                }
            }
            Err(_) => {
                file.set_len(0)?;
                file.seek(SeekFrom::Start(0))?;
                (write_header(&mut file, &key)?, 0)
            }
        };
        if end < size || count < self.len() {
            file.set_len(end)?;
        }
        if count < self.len() {
            file.seek(SeekFrom::Start(end))?;
            let mut out = BufWriter::with_capacity(1 << 20, &file);
            end += with_slice!(&self.values, g => {
                write_chunks(&mut out, count as u64, &g[count..], &signer)
            }, c => write_coded(&mut out, count, c, &signer))?;
            out.flush()?;
            count = self.len();
        }
        self.cache.saved = count;
        self.cache.end = end;
        self.cache.damaged = false;
        Ok(())
    }
}

/// Writes the values of the codes `c` from heap `from` on as two-byte chunks, one chunk decoded
/// at a time (a file holds plain values, whatever the storage that wrote them).
fn write_coded(
    out: &mut impl Write,
    from: usize,
    c: &ScanCodes,
    signer: &Signer,
) -> io::Result<u64> {
    let mut written = 0;
    let mut chunk: Vec<u16> = Vec::with_capacity(CHUNK_VALUES.min(c.len() - from));
    for start in (from..c.len()).step_by(CHUNK_VALUES) {
        chunk.clear();
        let end = c.len().min(start + CHUNK_VALUES);
        chunk.extend(c.run(start, end).map(|v| v as u16));
        written += write_chunks(out, start as u64, &chunk, signer)?;
    }
    Ok(written)
}

/// The end of the sound chunks of a file that follow `from` (a byte offset and
/// the count of values before it), as the same pair.
fn sound_end(file: &mut File, from: (u64, usize), signer: &Signer) -> io::Result<(u64, usize)> {
    let (mut end, mut count) = from;
    file.seek(SeekFrom::Start(end))?;
    let mut input = BufReader::with_capacity(1 << 20, &*file);
    let mut buffer = Vec::new();
    while let Chunk::Sound {
        start,
        count: more,
        bytes,
        ..
    } = read_chunk(&mut input, &mut buffer, signer)?
    {
        if start != count as u64 {
            break;
        }
        count += more;
        end += bytes;
    }
    Ok((end, count))
}

/// The sound part of a file as read: how many values were kept (checked against the values
/// computed and the period), how many its sound chunks hold and where they end, and what ended
/// it when it is not the end of the file.
struct SoundPart {
    kept: usize,
    saved: usize,
    end: u64,
    damage: Option<String>,
}

fn damaged(from: usize, why: &str) -> String {
    format!("its values from heap {from} on are damaged ({why})")
}

fn unsigned(from: usize) -> String {
    format!(
        "its values from heap {from} on were not computed by this installation (their MAC does \
         not match its key: a file copied from another machine, or edited)"
    )
}

/// The most options a heap of `n` has under `rules`, counted with repeats: its value is at most
/// this.
fn most_options(rules: &HeapRules, n: u64) -> u128 {
    let mut count = 0u128;
    for t in rules.takes.iter().filter(|t| t.take <= n) {
        let rest = (n - t.take) as u128;
        count += u128::from(t.none && rest == 0) + u128::from(t.one && rest >= 1);
        if t.two {
            count += rest / 2;
        }
        if t.three {
            count += rest * rest;
        }
    }
    for range in rules.ranges.iter().filter(|r| r.lo <= n) {
        count += (range.hi.unwrap_or(n).min(n) - range.lo + 1) as u128;
    }
    count
}

impl HeapSequence {
    /// Why `v` cannot be the value of the next heap, if it cannot: more than the heap has options,
    /// or than the next power of two above every value before it (an option's value is the XOR of
    /// values of smaller heaps, so it stays below that power).
    fn impossible(&self, v: u32) -> Option<String> {
        let n = self.len() as u64;
        let options = most_options(&self.rules, n);
        if u128::from(v) > options {
            return Some(format!(
                "heap {n} has at most {options} options, and the value read is {v}"
            ));
        }
        // Every value so far is below `bound`, a power of two.
        let power = self.bound;
        if v as usize > power {
            return Some(format!(
                "the values before heap {n} are below {power}, and the value read is {v}"
            ));
        }
        None
    }

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

/// The name of the file of the sequence with these rules.
fn file_name(rules: &HeapRules) -> String {
    format!("{:016x}.heapseq", fnv1a(canonical_key(rules).as_bytes()))
}

/// The 64-bit FNV-1a hash: stable across versions and machines, for file names.
fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |hash, &b| {
        (hash ^ b as u64).wrapping_mul(0x0100_0000_01b3)
    })
}

#[cfg(test)]
pub(super) mod tests {
    use super::canonical_key;
    use crate::game::heap::{HeapRules, Take, TakeRange};
    use crate::game::octal::{Base, Octal};
    use crate::game::Game;

    /// A take whose flags are the characters of `flags`: `0` none, `1` one, `2` two, `u` two
    /// unequal, `3` three.
    pub(in crate::game::heap) fn take(take: u64, flags: &str) -> Take {
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
