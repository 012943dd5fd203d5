//! A survey's progress on disk (`--cache DIR`), and its parts (`--shard I/N`): a file per part of
//! a survey in the cache folder, holding a record per game surveyed, so that a survey stopped
//! (Ctrl-C, the memory limit, `kill -9`) resumes from the games it has, and the parts computed
//! on several machines are merged into the table of one run.
//!
//! A survey is named by its identity, a text saying everything its rows depend on (the family,
//! its games' moves, the bound, how many games), given by the statement. Its part `I` of `N`
//! (part 1 of 1 for a survey not split) holds the games `g` of the family with `g % N = I - 1`,
//! in order: a fair split, since neighbouring codes cost alike. A record holds what a row and the
//! comparisons with later games read of the game ([`Surveyed`]: the period, the heaps computed,
//! the figures, the values kept), so the earlier game a game equals is found when the rows are
//! put together, whichever part each game was computed in: the merged table is the table of
//! one run, equalities and offsets included.
//!
//! ```text
//! header: "GRUNDYSV"  format u32  version (u16 length, bytes)  identity (u32 length, bytes)
//!         part u32  parts u32  games u32  CRC-32 of the header bytes before it (u32)
//! record: length u32  payload  CRC-32 of the length and payload (u32)
//!         MAC: HMAC-SHA256 (32 bytes) under the installation's secret of "grundy survey
//!              record", the version, the identity, part and parts, and the length and payload
//! payload: game u32  kind u8 (0 loopy, 1 a heap game), then for a heap game:
//!         looked u64  proved u8 [preperiod u64  period u64  saltus u64]
//!         figures u8 [heaps u64  largest u32  largest_heap u64  mask u32  rare_values u64
//!                     rare_heaps u64  last u8 [last_rare_heap u64]]
//!         width u8 (4 or 8)  count u64  count values of `width` bytes
//! ```
//!
//! (`count` is the least preperiod plus period of a proved game, and at most `looked` of an
//! open one: a game pushed on past the survey's heaps keeps only theirs.)
//!
//! all little-endian. As for the heap sequences' files ([`super::cache_key`] says why a MAC), a
//! record is believed only when its MAC verifies under this installation's secret, which covers
//! the survey and the part: a record of another machine, an edited one (its CRC recomputed),
//! one moved from another survey or part, is not read. A record must also be whole and
//! consistent (the next game of the part, as many values as its period or its heaps say), and
//! its values fit the file and the memory limit before they are allocated. When resuming, the
//! records before the first that is not sound are taken, with a warning, and the file is cut
//! there; a merge refuses a part that is not whole and sound. The folder and files are opened
//! under the cache's root, which follows no link.

use std::fs::File;
use std::io::{self, BufReader, BufWriter, Read, Seek, SeekFrom, Write};
use std::path::PathBuf;

use hmac::{KeyInit, Mac};
use sha2::Digest;

use super::cache_folder::Cache;
use super::heap::Figures;
use super::survey::Surveyed;
use super::vocabulary::{Period, Shard};
use super::Limits;
use crate::files::Access;

const MAGIC: &[u8; 8] = b"GRUNDYSV";
/// 2: the figures' mask is the one with the fewest rare heaps, whether the kernels use it or not.
/// 3: an open game keeps the values of the heaps comparisons read, which may be fewer than it
/// computed.
const FORMAT: u32 = 3;
const VERSION: &str = env!("CARGO_PKG_VERSION");

/// The most bytes of an identity, or of a record's length and payload before its values.
const MOST_IDENTITY: usize = 1 << 24;

const MAC_BYTES: usize = 32;

type Hmac = hmac::Hmac<sha2::Sha256>;

/// The name of the file of `shard` of the survey named by `identity`.
pub(crate) fn file_name(identity: &str, shard: Shard) -> String {
    let hash = sha2::Sha256::digest(identity.as_bytes());
    let hex: String = hash[..8].iter().map(|b| format!("{b:02x}")).collect();
    format!("survey-{hex}-part-{}-of-{}", shard.index, shard.count)
}

/// The parts of the survey named by `identity` whose files are in the cache, by their names.
pub(crate) fn parts_present(cache: &Cache, identity: &str) -> Vec<Shard> {
    let stem = file_name(identity, Shard::WHOLE);
    let stem = stem.trim_end_matches("1-of-1");
    let Ok(entries) = std::fs::read_dir(cache.dir()) else {
        return Vec::new();
    };
    let mut parts: Vec<Shard> = entries
        .filter_map(|e| e.ok()?.file_name().into_string().ok())
        .filter_map(|name| {
            let (i, n) = name.strip_prefix(stem)?.split_once("-of-")?;
            Shard::parse(&format!("{i}/{n}")).ok()
        })
        .collect();
    parts.sort_unstable_by_key(|s| (s.count, s.index));
    parts
}

/// The MAC of the records of one part, primed with what each record's MAC covers first.
struct Signer(Hmac);

impl Signer {
    fn new(cache: &Cache, identity: &str, shard: Shard) -> Signer {
        let mut mac = Hmac::new_from_slice(&cache.secret().0).expect("HMAC takes any key length");
        mac.update(b"grundy survey record");
        mac.update(&part_of(identity, shard));
        Signer(mac)
    }
}

/// What names a part in its header and in each record's MAC: the version, the identity, the
/// part and the number of parts.
fn part_of(identity: &str, shard: Shard) -> Vec<u8> {
    let mut bytes = Vec::new();
    bytes.extend_from_slice(&(VERSION.len() as u16).to_le_bytes());
    bytes.extend_from_slice(VERSION.as_bytes());
    bytes.extend_from_slice(&(identity.len() as u32).to_le_bytes());
    bytes.extend_from_slice(identity.as_bytes());
    bytes.extend_from_slice(&shard.index.to_le_bytes());
    bytes.extend_from_slice(&shard.count.to_le_bytes());
    bytes
}

fn header(identity: &str, shard: Shard, games: usize) -> Vec<u8> {
    let mut bytes = Vec::new();
    bytes.extend_from_slice(MAGIC);
    bytes.extend_from_slice(&FORMAT.to_le_bytes());
    bytes.extend_from_slice(&part_of(identity, shard));
    bytes.extend_from_slice(&(games as u32).to_le_bytes());
    let crc = crc32fast::hash(&bytes);
    bytes.extend_from_slice(&crc.to_le_bytes());
    bytes
}

/// Reads as many bytes as `buffer` holds: whether it could.
fn read_full(input: &mut impl Read, buffer: &mut [u8]) -> io::Result<bool> {
    let mut read = 0;
    while read < buffer.len() {
        match input.read(&mut buffer[read..]) {
            Ok(0) => return Ok(false),
            Ok(n) => read += n,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    Ok(true)
}

/// Checks the header of a part's file: its length, or why it is not the file of this part.
fn read_header(
    input: &mut impl Read,
    identity: &str,
    shard: Shard,
    games: usize,
    size: u64,
) -> Result<u64, String> {
    let mut bytes = Vec::new();
    let mut take = |len: usize| -> Result<Vec<u8>, String> {
        if bytes.len() as u64 + len as u64 > size {
            return Err("it is cut short in its header".into());
        }
        let mut part = vec![0u8; len];
        if !read_full(input, &mut part).map_err(|e| e.to_string())? {
            return Err("it is cut short in its header".into());
        }
        bytes.extend_from_slice(&part);
        Ok(part)
    };
    let start = take(12)?;
    if &start[..8] != MAGIC || start[8..12] != FORMAT.to_le_bytes() {
        return Err("it is not a grundy survey file of this format".into());
    }
    let version_len = u16::from_le_bytes(take(2)?.try_into().expect("2 bytes")) as usize;
    let version = String::from_utf8_lossy(&take(version_len)?).into_owned();
    let identity_len = u32::from_le_bytes(take(4)?.try_into().expect("4 bytes")) as usize;
    if identity_len > MOST_IDENTITY {
        return Err("it is not a grundy survey file of this format".into());
    }
    let found = String::from_utf8_lossy(&take(identity_len)?).into_owned();
    let numbers = take(12)?;
    let word = |i: usize| u32::from_le_bytes(numbers[i..i + 4].try_into().expect("4 bytes"));
    let stored = u32::from_le_bytes(take(4)?.try_into().expect("4 bytes"));
    if crc32fast::hash(&bytes[..bytes.len() - 4]) != stored {
        return Err("the checksum of its header does not match (the file is damaged)".into());
    }
    if version != VERSION {
        return Err(format!(
            "it was written by grundy {version} (this is {VERSION})"
        ));
    }
    if found != identity {
        return Err(format!("it holds another survey ({found})"));
    }
    let (index, count) = (word(0), word(4));
    if (index, count) != (shard.index, shard.count) {
        return Err(format!(
            "it holds part {index} of {count}, not part {} of {} (a part copied under another \
             name?)",
            shard.index, shard.count
        ));
    }
    if word(8) as usize != games {
        return Err(format!(
            "it holds a survey of {} games, not {games}",
            word(8)
        ));
    }
    Ok(bytes.len() as u64)
}

/// What one record says of one game.
pub struct Record {
    pub game: usize,
    pub surveyed: Option<Surveyed>,
}

fn put_u64(bytes: &mut Vec<u8>, v: u64) {
    bytes.extend_from_slice(&v.to_le_bytes());
}

/// The payload of the record of game `game`.
fn payload(game: usize, surveyed: Option<&Surveyed>) -> Vec<u8> {
    let mut bytes = Vec::new();
    bytes.extend_from_slice(&(game as u32).to_le_bytes());
    let Some(s) = surveyed else {
        bytes.push(0);
        return bytes;
    };
    bytes.push(1);
    put_u64(&mut bytes, s.analysis.looked as u64);
    match s.known.proved {
        Some(p) => {
            bytes.push(1);
            put_u64(&mut bytes, p.preperiod as u64);
            put_u64(&mut bytes, p.period as u64);
            put_u64(&mut bytes, p.saltus);
        }
        None => bytes.push(0),
    }
    match &s.analysis.figures {
        Some(f) => {
            bytes.push(1);
            put_u64(&mut bytes, f.heaps as u64);
            bytes.extend_from_slice(&f.largest.to_le_bytes());
            put_u64(&mut bytes, f.largest_heap as u64);
            bytes.extend_from_slice(&f.mask.to_le_bytes());
            put_u64(&mut bytes, f.rare_values as u64);
            put_u64(&mut bytes, f.rare_heaps as u64);
            match f.last_rare_heap {
                Some(last) => {
                    bytes.push(1);
                    put_u64(&mut bytes, last as u64);
                }
                None => bytes.push(0),
            }
        }
        None => bytes.push(0),
    }
    let len = s.kept_len();
    let wide = (0..len).any(|n| s.value(n) > u32::MAX as u64);
    bytes.push(if wide { 8 } else { 4 });
    put_u64(&mut bytes, len);
    for n in 0..len {
        match wide {
            true => put_u64(&mut bytes, s.value(n)),
            false => bytes.extend_from_slice(&(s.value(n) as u32).to_le_bytes()),
        }
    }
    bytes
}

/// Reads a payload's fields in order; `None` past its end.
struct Fields<'a>(&'a [u8]);

impl Fields<'_> {
    fn take<const N: usize>(&mut self) -> Option<[u8; N]> {
        let (head, rest) = self.0.split_at_checked(N)?;
        self.0 = rest;
        head.try_into().ok()
    }
    fn byte(&mut self) -> Option<u8> {
        self.take::<1>().map(|b| b[0])
    }
    fn u32(&mut self) -> Option<u32> {
        self.take().map(u32::from_le_bytes)
    }
    fn u64(&mut self) -> Option<u64> {
        self.take().map(u64::from_le_bytes)
    }
    fn usize(&mut self) -> Option<usize> {
        usize::try_from(self.u64()?).ok()
    }
    fn flag(&mut self) -> Option<bool> {
        match self.byte()? {
            0 => Some(false),
            1 => Some(true),
            _ => None,
        }
    }
}

/// The game a sound payload describes; `None` when it is not whole and consistent.
fn read_payload(payload: &[u8], limits: &Limits) -> Result<Option<Record>, String> {
    let mut f = Fields(payload);
    let Some(game) = f.u32() else {
        return Ok(None);
    };
    let game = game as usize;
    if !f.flag().unwrap_or(true) {
        return Ok((f.0.is_empty()).then_some(Record {
            game,
            surveyed: None,
        }));
    }
    let head = (|| {
        let looked = f.usize()?;
        let proved = match f.flag()? {
            true => Some(Period {
                preperiod: f.usize()?,
                period: f.usize()?,
                saltus: f.u64()?,
            }),
            false => None,
        };
        let figures = match f.flag()? {
            true => Some(Figures {
                heaps: f.usize()?,
                largest: f.u32()?,
                largest_heap: f.usize()?,
                mask: f.u32()?,
                rare_values: f.usize()?,
                rare_heaps: f.usize()?,
                last_rare_heap: match f.flag()? {
                    true => Some(f.usize()?),
                    false => None,
                },
            }),
            false => None,
        };
        let width = f.byte()? as usize;
        let count = f.usize()?;
        Some((looked, proved, figures, width, count))
    })();
    let Some((looked, proved, figures, width, count)) = head else {
        return Ok(None);
    };
    // A game pushed on past the values a comparison reads keeps fewer values than it computed.
    let consistent = match proved {
        Some(p) => p.period >= 1 && p.preperiod.checked_add(p.period) == Some(count),
        None => count <= looked,
    };
    if ![4, 8].contains(&width) || !consistent || count.checked_mul(width) != Some(f.0.len()) {
        return Ok(None);
    }
    let values: Vec<u64> =
        f.0.chunks_exact(width)
            .map(|cell| {
                let mut word = [0u8; 8];
                word[..width].copy_from_slice(cell);
                u64::from_le_bytes(word)
            })
            .collect();
    let surveyed = Surveyed::read_back(looked, proved, figures, values, limits)?;
    Ok(Some(Record {
        game,
        surveyed: Some(surveyed),
    }))
}

/// What a part's file holds: its sound records, in order, and why the rest (if any) was not
/// read.
pub struct Sound {
    pub records: Vec<Record>,
    /// The end of the sound records, in bytes.
    end: u64,
    /// Why the file was not read whole: its header (the whole file ignored), or the record after
    /// the sound ones.
    pub damage: Option<String>,
    /// Whether the header was sound.
    header: bool,
}

/// Reads the sound records of a part's file (`None` when there is no file). The memory limit
/// ends the reading with its reason.
fn read_part(
    file: &File,
    identity: &str,
    shard: Shard,
    games: usize,
    cache: &Cache,
    limits: &Limits,
) -> Result<Sound, String> {
    let size = file.metadata().map_err(|e| e.to_string())?.len();
    let mut sound = Sound {
        records: Vec::new(),
        end: 0,
        damage: None,
        header: false,
    };
    if size == 0 {
        return Ok(sound);
    }
    let mut input = BufReader::with_capacity(1 << 20, file);
    input.seek(SeekFrom::Start(0)).map_err(|e| e.to_string())?;
    match read_header(&mut input, identity, shard, games, size) {
        Ok(end) => sound.end = end,
        Err(why) => {
            sound.damage = Some(why);
            return Ok(sound);
        }
    }
    sound.header = true;
    let signer = Signer::new(cache, identity, shard);
    let mut next = (0..games).filter(|&g| shard.holds(g));
    loop {
        limits
            .check_interrupt()
            .map_err(|_| "interrupted".to_string())?;
        let mut length = [0u8; 4];
        let mut got = 0;
        while got < 4 {
            match input.read(&mut length[got..]) {
                Ok(0) => break,
                Ok(n) => got += n,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(e) => return Err(e.to_string()),
            }
        }
        if got == 0 {
            break;
        }
        let len = u32::from_le_bytes(length) as usize;
        let after = sound.end + 4 + len as u64 + 4 + MAC_BYTES as u64;
        let number = sound.records.len() + 1;
        let damaged = |why: &str| {
            let kept = number - 1;
            format!("its record {number} {why} (the {kept} records before it are sound)")
        };
        if got < 4 || after > size {
            sound.damage = Some(damaged("is cut short"));
            break;
        }
        // The record and the values made of it are charged before they are read.
        let mut charge = limits.charge();
        if charge.grow(len.saturating_mul(3)).is_err() {
            return Err(format!(
                "its record {number} passes the memory limit ({} bytes)",
                limits.max_memory
            ));
        }
        let mut rest = vec![0u8; len + 4 + MAC_BYTES];
        if !read_full(&mut input, &mut rest).map_err(|e| e.to_string())? {
            sound.damage = Some(damaged("is cut short"));
            break;
        }
        let (payload, tail) = rest.split_at(len);
        let mut crc = crc32fast::Hasher::new();
        crc.update(&length);
        crc.update(payload);
        if crc.finalize().to_le_bytes() != tail[..4] {
            sound.damage = Some(damaged("does not match its checksum"));
            break;
        }
        let mut mac = signer.0.clone();
        mac.update(&length);
        mac.update(payload);
        if mac.verify_slice(&tail[4..]).is_err() {
            sound.damage = Some(damaged(
                "is not signed by this installation (copied from another machine, or edited)",
            ));
            break;
        }
        let record = match read_payload(payload, limits)? {
            Some(record) if Some(record.game) == next.next() => record,
            _ => {
                sound.damage = Some(damaged("does not hold the next game of the part"));
                break;
            }
        };
        sound.records.push(record);
        sound.end = after;
    }
    Ok(sound)
}

/// The file of a part being computed, open and locked, with the records it holds appended to.
pub struct Progress {
    file: File,
    signer: Signer,
    pub path: PathBuf,
}

impl Progress {
    /// Opens (making it when missing) the file of `shard` of the survey, locked against other
    /// runs, and reads its sound records; the rest of the file is cut, with a warning.
    pub fn open(
        cache: &Cache,
        identity: &str,
        shard: Shard,
        games: usize,
        limits: &Limits,
    ) -> Result<(Progress, Vec<Record>), String> {
        let name = file_name(identity, shard);
        let path = cache.path_of(&name);
        let mut file = cache
            .open_file(&name, Access::Update)
            .map_err(|e| format!("it cannot be opened: {e}"))?;
        if file.try_lock().is_err() {
            return Err("another run is computing this part of the survey".into());
        }
        let sound = read_part(&file, identity, shard, games, cache, limits)?;
        let size = file.metadata().map_err(|e| e.to_string())?.len();
        if let Some(why) = &sound.damage {
            cache.warn(&path, why.clone(), true, None);
        }
        let io = |e: io::Error| e.to_string();
        if !sound.header {
            file.set_len(0).map_err(io)?;
            file.seek(SeekFrom::Start(0)).map_err(io)?;
            file.write_all(&header(identity, shard, games))
                .map_err(io)?;
        } else {
            if sound.end < size {
                file.set_len(sound.end).map_err(io)?;
            }
            file.seek(SeekFrom::Start(sound.end)).map_err(io)?;
        }
        let progress = Progress {
            file,
            signer: Signer::new(cache, identity, shard),
            path,
        };
        Ok((progress, sound.records))
    }

    /// Appends the record of game `game`, flushed to the file before it returns.
    pub fn append(&mut self, game: usize, surveyed: Option<&Surveyed>) -> io::Result<()> {
        let payload = payload(game, surveyed);
        let length = u32::try_from(payload.len())
            .map_err(|_| io::Error::other("a game's record passes 4 GiB, the most a record holds"))?
            .to_le_bytes();
        let mut crc = crc32fast::Hasher::new();
        crc.update(&length);
        crc.update(&payload);
        let mut mac = self.signer.0.clone();
        mac.update(&length);
        mac.update(&payload);
        let mut out = BufWriter::new(&self.file);
        out.write_all(&length)?;
        out.write_all(&payload)?;
        out.write_all(&crc.finalize().to_le_bytes())?;
        out.write_all(&mac.finalize().into_bytes())?;
        out.flush()?;
        drop(out);
        self.file.sync_data()
    }
}

/// The records of every game of a part, from its file, read under a shared lock; why not
/// when the file is missing, not this part's, not whole, or not sound.
pub(crate) fn read_whole_part(
    cache: &Cache,
    identity: &str,
    shard: Shard,
    games: usize,
    limits: &Limits,
) -> Result<Vec<Record>, String> {
    let name = file_name(identity, shard);
    let file = match cache.open_file(&name, Access::Read) {
        Ok(file) => file,
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Err("it is missing".into()),
        Err(e) => return Err(format!("it cannot be read: {e}")),
    };
    file.lock_shared()
        .map_err(|e| format!("it cannot be locked: {e}"))?;
    let sound = read_part(&file, identity, shard, games, cache, limits)?;
    if let Some(why) = sound.damage {
        return Err(why);
    }
    let share = shard.games(games);
    if sound.records.len() < share {
        return Err(format!(
            "it holds {} of its {share} games: its run did not finish (run it again, and it \
             resumes)",
            sound.records.len()
        ));
    }
    Ok(sound.records)
}
