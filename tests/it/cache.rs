//! The heap-sequence cache (`--cache DIR`, `:cache DIR`): a run stopped midway (a state limit,
//! Ctrl-C) resumes from its file with the values of a run without cache; files that are corrupt,
//! truncated, of another game or of another version are ignored with a warning; equal games
//! share a file and different ones do not; writers at the same time never leave a broken file.

use crate::support::grundys_rules;

use std::path::{Path, PathBuf};
use std::sync::atomic::Ordering;
use std::sync::Arc;
use std::time::Duration;

use grundy::game::cache_folder::{Cache, CacheKey};
use grundy::game::heap::HeapSequence;
use grundy::game::Limits;
use grundy::repl::{Answer, Backend, Reply};
use grundys_rules::grundys_rules;

/// The secret the tests sign their caches with (the installation's stays untouched).
fn test_key() -> CacheKey {
    CacheKey::at(&Path::new(env!("CARGO_TARGET_TMPDIR")).join("cache-test-key")).unwrap()
}

fn open_cache(dir: &Path) -> Cache {
    Cache::with_key(dir, test_key()).unwrap()
}

fn limits(cache: Option<&Path>, max_states: usize) -> Limits {
    Limits {
        max_states,
        cache: cache.map(|dir| Arc::new(open_cache(dir))),
        ..Limits::default()
    }
}

/// The bytes of a chunk after its values: a CRC-32 and an HMAC-SHA256.
const CHUNK_TAIL: usize = 4 + 32;

fn answer(repl: &mut Backend, line: &str) -> Answer {
    match repl.feed(line) {
        Reply::Done(answer) => answer,
        other => panic!("{line}: {other:?}"),
    }
}

/// What `line` prints, with no warning and no error.
fn clean(repl: &mut Backend, line: &str) -> String {
    let answer = answer(repl, line);
    assert_eq!(answer.errors, "", "{line}");
    answer.output
}

/// How many heaps of `game` the session took from the cache, as `:method` says.
fn resumed(repl: &mut Backend, game: &str) -> usize {
    let text = clean(repl, &format!(":method {game}"));
    match text.split_once("heaps 0..") {
        Some((_, rest)) => rest.split(' ').next().unwrap().parse().unwrap(),
        None => 0,
    }
}

fn values(repl: &mut Backend, game: &str, from: usize, to: usize) -> String {
    clean(
        repl,
        &format!("print [grundy({game}[n]) for n in {from}..={to}]"),
    )
}

/// The values of heaps `from..=to` of a game computed without cache.
fn uncached(game: &str, from: usize, to: usize) -> String {
    values(&mut Backend::new(Limits::default()), game, from, to)
}

/// Grundy's game by brute force: split a heap into two unequal heaps.
fn grundys_game(last: usize) -> Vec<u32> {
    let mut g = vec![0u32; last + 1];
    for n in 3..=last {
        let mut seen = vec![false; n + 2];
        for a in 1..n.div_ceil(2) {
            seen[(g[a] ^ g[n - a]) as usize] = true;
        }
        g[n] = seen.iter().position(|s| !s).unwrap() as u32;
    }
    g
}

/// The only cache file in `dir`.
fn cache_file(dir: &Path) -> PathBuf {
    let files: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "heapseq"))
        .collect();
    assert_eq!(files.len(), 1, "{files:?}");
    files[0].clone()
}

/// Where a cache file's header ends, read by the layout the format documents.
fn header_end(bytes: &[u8]) -> usize {
    let version_len = u16::from_le_bytes(bytes[12..14].try_into().unwrap()) as usize;
    let at = 14 + version_len;
    let key_len = u32::from_le_bytes(bytes[at..at + 4].try_into().unwrap()) as usize;
    at + 4 + key_len + 4
}

/// The chunks of a cache file, read by the layout the format documents, up to the first that
/// is cut short or whose checksum fails: where each starts in the file, and its first heap and
/// count of values.
fn chunks(bytes: &[u8]) -> Vec<(usize, u64, usize)> {
    let mut at = header_end(bytes);
    let mut found = Vec::new();
    while at + 13 <= bytes.len() {
        let start = u64::from_le_bytes(bytes[at..at + 8].try_into().unwrap());
        let count = u32::from_le_bytes(bytes[at + 8..at + 12].try_into().unwrap()) as usize;
        let end = at + 13 + count * bytes[at + 12] as usize;
        if end + CHUNK_TAIL > bytes.len()
            || crc32fast::hash(&bytes[at..end]).to_le_bytes() != bytes[end..end + 4]
        {
            break;
        }
        found.push((at, start, count));
        at = end + CHUNK_TAIL;
    }
    found
}

/// The canonical key of the game a cache file holds, read from its header.
fn header_key(bytes: &[u8]) -> String {
    let version_len = u16::from_le_bytes(bytes[12..14].try_into().unwrap()) as usize;
    let at = 14 + version_len;
    let key_len = u32::from_le_bytes(bytes[at..at + 4].try_into().unwrap()) as usize;
    String::from_utf8(bytes[at + 4..at + 4 + key_len].to_vec()).unwrap()
}

/// The binary, its cache key in a data folder of the tests (not the user's).
fn grundy_command() -> std::process::Command {
    let mut command = std::process::Command::new(env!("CARGO_BIN_EXE_grundy"));
    command.env(
        "XDG_DATA_HOME",
        Path::new(env!("CARGO_TARGET_TMPDIR")).join("cache-test-data"),
    );
    command
}

/// How many values the sound chunks of a cache file hold.
fn header_count(bytes: &[u8]) -> u64 {
    chunks(bytes)
        .iter()
        .map(|&(_, _, count)| count as u64)
        .sum()
}

#[test]
fn a_later_run_resumes_from_the_cache() {
    let dir = tempfile::tempdir().unwrap();
    let mut first = Backend::new(limits(Some(dir.path()), 30_000));
    clean(&mut first, "grundy grundys[29999]");
    drop(first);
    let bytes = std::fs::read(cache_file(dir.path())).unwrap();
    assert_eq!(header_count(&bytes), 30_000);

    let mut second = Backend::new(limits(Some(dir.path()), 1_000_000));
    let value = clean(&mut second, "grundy grundys[50000]");
    assert_eq!(resumed(&mut second, "grundys"), 30_000);
    let mut plain = Backend::new(Limits::default());
    assert_eq!(value, clean(&mut plain, "grundy grundys[50000]"));
    assert_eq!(
        values(&mut second, "grundys", 29_900, 30_100),
        uncached("grundys", 29_900, 30_100)
    );
    let brute = grundys_game(2000);
    let printed = values(&mut second, "grundys", 0, 2000);
    let expected: Vec<String> = brute.iter().map(u32::to_string).collect();
    assert_eq!(printed, format!("[{}]\n", expected.join(", ")));
    // The end of the run saved every value computed.
    let bytes = std::fs::read(cache_file(dir.path())).unwrap();
    assert_eq!(header_count(&bytes), 50_001);
}

#[test]
fn an_interrupted_run_saves_on_its_way_out_and_resumes() {
    let dir = tempfile::tempdir().unwrap();
    let mut first = Backend::new(limits(Some(dir.path()), 20_000_000));
    let interrupt = first.limits().interrupt.clone();
    let watched = dir.path().to_path_buf();
    let raiser = std::thread::spawn(move || {
        // The first save comes early; interrupt some time after it.
        let start = std::time::Instant::now();
        let path = loop {
            let mut files = std::fs::read_dir(&watched)
                .unwrap()
                .map(|e| e.unwrap().path());
            if let Some(path) = files.find(|p| p.extension().is_some_and(|e| e == "heapseq")) {
                break path;
            }
            assert!(start.elapsed() < Duration::from_secs(60), "no cache file");
            std::thread::sleep(Duration::from_millis(5));
        };
        std::thread::sleep(Duration::from_millis(200));
        let saved_before = header_count(&std::fs::read(&path).unwrap());
        interrupt.store(true, Ordering::Relaxed);
        saved_before
    });
    let stopped = answer(&mut first, "grundy grundys[4194303]");
    let saved_before = raiser.join().unwrap() as usize;
    assert!(
        stopped.errors.starts_with("interrupted after "),
        "{stopped:?}"
    );

    let mut second = Backend::new(limits(Some(dir.path()), 20_000_000));
    clean(&mut second, "grundy grundys[10]");
    let resumed = resumed(&mut second, "grundys");
    assert!(
        resumed > saved_before,
        "resumed {resumed}, saved {saved_before}"
    );
    let (from, to) = (resumed - 50, resumed + 50);
    assert_eq!(
        values(&mut second, "grundys", from, to),
        uncached("grundys", from, to)
    );
}

/// Runs `grundys` to heap 3000 with the cache in `dir`, returning the warnings and whether the
/// run resumed from the file.
fn rerun(dir: &Path) -> (String, usize) {
    let mut repl = Backend::new(limits(Some(dir), 1_000_000));
    let answer = answer(&mut repl, "print [grundy(grundys[n]) for n in 2900..=3000]");
    assert_eq!(answer.output, uncached("grundys", 2900, 3000));
    (answer.errors, resumed(&mut repl, "grundys"))
}

/// A warning with the folder and the version written as placeholders, for its snapshot.
fn placeholders(warning: &str, dir: &Path) -> String {
    warning
        .replace(&dir.display().to_string(), "<cache>")
        .replace(env!("CARGO_PKG_VERSION"), "<version>")
}

/// A way to damage a cache file's bytes.
type Damage = fn(&mut Vec<u8>);

#[test]
fn unsound_cache_files_are_ignored_with_a_warning_and_replaced() {
    let damages: [(&str, Damage); 4] = [
        ("flipped_byte", |bytes| {
            let at = bytes.len() - 100;
            bytes[at] ^= 1;
        }),
        ("truncated", |bytes| bytes.truncate(bytes.len() - 7)),
        ("wrong_version", |bytes| {
            let version = env!("CARGO_PKG_VERSION").as_bytes();
            let at = 14;
            assert_eq!(&bytes[at..at + version.len()], version);
            bytes[at..at + version.len()].copy_from_slice(&vec![b'9'; version.len()]);
            let end = header_end(bytes);
            let crc = crc32fast::hash(&bytes[..end - 4]);
            bytes[end - 4..end].copy_from_slice(&crc.to_le_bytes());
        }),
        ("not_a_cache_file", |bytes| bytes[0] = b'X'),
    ];
    for (name, damage) in damages {
        let dir = tempfile::tempdir().unwrap();
        assert_eq!(rerun(dir.path()), (String::new(), 0));
        assert_eq!(rerun(dir.path()), (String::new(), 3001));
        let path = cache_file(dir.path());
        let mut bytes = std::fs::read(&path).unwrap();
        // A damaged last chunk keeps the chunks before it; a damaged header, nothing.
        let found = chunks(&bytes);
        let prefix = match name {
            "flipped_byte" | "truncated" => found[found.len() - 1].1 as usize,
            _ => 0,
        };
        damage(&mut bytes);
        std::fs::write(&path, &bytes).unwrap();
        let (warning, resumed) = rerun(dir.path());
        assert_eq!(resumed, prefix, "{name}");
        insta::assert_snapshot!(name, placeholders(&warning, dir.path()));
        // The file was replaced by a sound one.
        assert_eq!(rerun(dir.path()), (String::new(), 3001), "{name}");
    }
}

#[test]
fn values_kept_as_byte_codes_are_saved_as_values_and_resumed() {
    // Officers' values are kept as a byte code each from heap 65,536 (past twice its last rare
    // heap, 20,627): the file holds them as plain values, which a later run takes back.
    let dir = tempfile::tempdir().unwrap();
    let mut first = Backend::new(limits(Some(dir.path()), 1_000_000));
    clean(&mut first, "grundy officers[99999]");
    drop(first);
    let bytes = std::fs::read(cache_file(dir.path())).unwrap();
    assert_eq!(header_count(&bytes), 100_000);
    let mut second = Backend::new(limits(Some(dir.path()), 1_000_000));
    let (from, to) = (60_000, 100_500);
    assert_eq!(
        values(&mut second, "officers", from, to),
        uncached("officers", from, to)
    );
    assert_eq!(resumed(&mut second, "officers"), 100_000);
}

#[test]
fn a_save_appends_only_the_new_values_and_a_damaged_tail_keeps_the_sound_prefix() {
    let dir = tempfile::tempdir().unwrap();
    let mut first = Backend::new(limits(Some(dir.path()), 1_000_000));
    clean(&mut first, "grundy grundys[2999]");
    drop(first);
    let path = cache_file(dir.path());
    let before = std::fs::read(&path).unwrap();
    assert_eq!(chunks(&before).len(), 1);
    assert_eq!(header_count(&before), 3000);

    // A later run appends a chunk of heaps 3000..=4999 and leaves the bytes before it alone.
    let mut second = Backend::new(limits(Some(dir.path()), 1_000_000));
    clean(&mut second, "grundy grundys[4999]");
    drop(second);
    let after = std::fs::read(&path).unwrap();
    assert_eq!(after[..before.len()], before[..]);
    let found = chunks(&after);
    assert_eq!((found[1].0, found[1].1), (before.len(), 3000));
    assert_eq!(header_count(&after), 5000);
    let last = found[found.len() - 1].1 as usize;

    // A flipped byte in the last chunk: the chunks before it are kept, with a warning.
    let mut damaged = after.clone();
    let at = damaged.len() - CHUNK_TAIL - 10;
    damaged[at] ^= 1;
    std::fs::write(&path, &damaged).unwrap();
    let mut third = Backend::new(limits(Some(dir.path()), 1_000_000));
    let warned = answer(
        &mut third,
        "print [grundy(grundys[n]) for n in 4900..=5100]",
    );
    assert_eq!(warned.output, uncached("grundys", 4900, 5100));
    assert_eq!(resumed(&mut third, "grundys"), last);
    let warning = placeholders(&warned.errors, dir.path()).replace(&last.to_string(), "<kept>");
    insta::assert_snapshot!(warning);
    drop(third);
    // The next save cut the damaged tail and appended after the sound prefix.
    let repaired = std::fs::read(&path).unwrap();
    assert_eq!(
        repaired[..found[found.len() - 1].0],
        after[..found[found.len() - 1].0]
    );
    assert_eq!(header_count(&repaired), 5101);
    assert_eq!(chunks(&repaired)[found.len() - 1].1 as usize, last);
    let mut fourth = Backend::new(limits(Some(dir.path()), 1_000_000));
    assert_eq!(answer(&mut fourth, "grundy grundys[5100]").errors, "");
    assert_eq!(resumed(&mut fourth, "grundys"), 5101);
}

#[test]
fn the_file_of_another_game_is_ignored_with_a_warning() {
    let dir = tempfile::tempdir().unwrap();
    let mut repl = Backend::new(limits(Some(dir.path()), 1_000_000));
    clean(&mut repl, "grundy officers[3000]");
    let officers = cache_file(dir.path());
    let other = tempfile::tempdir().unwrap();
    assert_eq!(rerun(other.path()), (String::new(), 0));
    std::fs::copy(&officers, cache_file(other.path())).unwrap();
    let (warning, resumed) = rerun(other.path());
    assert_eq!(resumed, 0);
    insta::assert_snapshot!(placeholders(&warning, other.path()));
}

#[test]
fn equal_games_share_a_file_and_a_changed_rule_does_not() {
    let dir = tempfile::tempdir().unwrap();
    let mut repl = Backend::new(limits(Some(dir.path()), 1_000_000));
    clean(&mut repl, "game g = octal 0.07");
    clean(&mut repl, "grundy g[2000]");
    let file = cache_file(dir.path());
    let len = std::fs::metadata(&file).unwrap().len();

    // Dawson's Kayles of the prelude, and spelled as rules: the same file, resumed.
    let mut again = Backend::new(limits(Some(dir.path()), 1_000_000));
    clean(&mut again, "grundy dawson[100]");
    assert!(resumed(&mut again, "dawson") > 0);
    clean(
        &mut again,
        "game d on n { for a in 0..=(n - 2) / 2 if n >= 2 { n = [a, n - 2 - a] } }",
    );
    clean(&mut again, "grundy d[100]");
    assert!(resumed(&mut again, "d") > 0);
    assert_eq!(cache_file(dir.path()), file);
    assert_eq!(std::fs::metadata(&file).unwrap().len(), len);

    // One character changed (take 3 instead of 2): a game of its own, in a file of its own.
    clean(
        &mut again,
        "game e on n { for a in 0..=(n - 3) / 2 if n >= 3 { n = [a, n - 3 - a] } }",
    );
    clean(&mut again, "grundy e[100]");
    assert_eq!(resumed(&mut again, "e"), 0);
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 2);
}

#[test]
fn writers_at_the_same_time_never_leave_a_file_a_reader_rejects() {
    let dir = tempfile::tempdir().unwrap();
    let eager = |dir: &Path| {
        let mut cache = open_cache(dir);
        cache.save_every = Duration::ZERO;
        Limits {
            cache: Some(Arc::new(cache)),
            ..Limits::default()
        }
    };
    let expected = grundys_game(60_000);
    let writers: Vec<_> = [60_000u64, 45_000]
        .into_iter()
        .map(|last| {
            let limits = eager(dir.path());
            std::thread::spawn(move || {
                let mut sequence = HeapSequence::new(grundys_rules());
                for n in (0..=last).step_by(1000) {
                    sequence.value(n, &limits).unwrap();
                }
                assert!(limits.cache.unwrap().take_warnings().is_empty());
            })
        })
        .collect();
    let mut reads = 0;
    let mut longest = 0;
    while writers.iter().any(|w| !w.is_finished()) || reads == 0 {
        let limits = eager(dir.path());
        let mut sequence = HeapSequence::new(grundys_rules());
        sequence.value(0, &limits).unwrap();
        assert_eq!(limits.cache.unwrap().take_warnings(), vec![]);
        let resumed = sequence.resumed();
        for n in 0..resumed as u64 {
            assert_eq!(sequence.get(n), Some(expected[n as usize]), "heap {n}");
        }
        longest = longest.max(resumed);
        reads += 1;
    }
    for writer in writers {
        writer.join().unwrap();
    }
    assert!(reads > 1 && longest > 0, "{reads} reads, {longest} heaps");
    let names: Vec<String> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert_eq!(names.len(), 1, "temporary files left: {names:?}");
}

#[test]
fn two_processes_share_one_cache() {
    let dir = tempfile::tempdir().unwrap();
    let run = |heap: u32| {
        grundy_command()
            .arg("--cache")
            .arg(dir.path())
            .arg("-e")
            .arg(format!("grundy grundys[{heap}]"))
            .output()
            .unwrap()
    };
    let expected = grundys_game(40_000);
    std::thread::scope(|scope| {
        let children: Vec<_> = [40_000, 30_000]
            .into_iter()
            .map(|heap| (heap, scope.spawn(move || run(heap as u32))))
            .collect();
        for (heap, child) in children {
            let out = child.join().unwrap();
            assert_eq!(String::from_utf8_lossy(&out.stderr), "");
            assert_eq!(
                String::from_utf8_lossy(&out.stdout),
                format!("{}\n", expected[heap])
            );
        }
    });
    let out = run(40_000);
    assert_eq!(String::from_utf8_lossy(&out.stderr), "");
    assert_eq!(
        String::from_utf8_lossy(&out.stdout),
        format!("{}\n", expected[40_000])
    );
    let count = header_count(&std::fs::read(cache_file(dir.path())).unwrap());
    assert!(count >= 30_001, "{count}");
}

#[test]
fn the_cache_command_shows_sets_and_stops_the_folder() {
    let dir = tempfile::tempdir().unwrap();
    let folder = dir.path().join("new folder");
    let mut repl = Backend::new(Limits::default());
    assert_eq!(
        clean(&mut repl, ":cache"),
        "cache: off (`:cache DIR` keeps heap sequences in DIR)\n"
    );
    let set = clean(&mut repl, &format!(":cache \"{}\"", folder.display()));
    assert_eq!(
        set,
        format!("cache: heap sequences are kept in {}\n", folder.display())
    );
    assert_eq!(clean(&mut repl, ":cache"), set);
    clean(&mut repl, "grundy grundys[3000]");
    cache_file(&folder);
    // A fresh session keeps the folder.
    clean(&mut repl, ":reset");
    clean(&mut repl, "grundy grundys[10]");
    assert_eq!(resumed(&mut repl, "grundys"), 3001);
    assert_eq!(
        clean(&mut repl, ":cache off"),
        "cache: off (`:cache DIR` keeps heap sequences in DIR)\n"
    );
    let file = dir.path().join("a file");
    std::fs::write(&file, "").unwrap();
    let refused = answer(&mut repl, &format!(":cache {}/sub", file.display()));
    assert!(
        refused.errors.starts_with("cannot use `")
            && refused.errors.contains("as the cache folder"),
        "{refused:?}"
    );
    assert_eq!(
        clean(&mut repl, ":cache"),
        "cache: off (`:cache DIR` keeps heap sequences in DIR)\n"
    );
}

#[test]
fn a_cache_folder_that_cannot_be_made_stops_the_command_line() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("a file");
    std::fs::write(&file, "").unwrap();
    let out = grundy_command()
        .arg("--cache")
        .arg(file.join("sub"))
        .args(["-e", "grundy kayles[3]"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(String::from_utf8_lossy(&out.stdout), "");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("grundy::io") && stderr.contains("sub"),
        "{stderr}"
    );
}

#[test]
fn a_save_that_fails_is_a_warning_once_and_the_values_still_come() {
    let dir = tempfile::tempdir().unwrap();
    let folder = dir.path().join("gone");
    let mut repl = Backend::new(limits(Some(&folder), 1_000_000));
    std::fs::remove_dir(&folder).unwrap();
    let first = answer(&mut repl, "print [grundy(grundys[n]) for n in 2900..=3000]");
    assert_eq!(first.output, uncached("grundys", 2900, 3000));
    insta::assert_snapshot!(placeholders(&first.errors, &folder));
    assert_eq!(clean(&mut repl, "grundy grundys[5000]"), {
        let mut plain = Backend::new(Limits::default());
        clean(&mut plain, "grundy grundys[5000]")
    });
}

/// A chunk of a cache file of values `width` bytes wide, written by the layout the format
/// documents: its CRC-32, and its MAC under `secret` (the bytes of a key file) for the game whose
/// canonical key is `key`; a MAC of zeros without a secret, as a forger who recomputes the CRC
/// writes it.
fn chunk_bytes(start: u64, values: &[u32], width: usize, signed: Option<(&[u8], &str)>) -> Vec<u8> {
    use hmac::{KeyInit, Mac};
    let mut bytes = start.to_le_bytes().to_vec();
    bytes.extend_from_slice(&(values.len() as u32).to_le_bytes());
    bytes.push(width as u8);
    for &v in values {
        bytes.extend_from_slice(&v.to_le_bytes()[..width]);
        assert!(width == 4 || v >> (8 * width) == 0);
    }
    let crc = crc32fast::hash(&bytes);
    let mac = match signed {
        Some((secret, key)) => {
            let mut mac = hmac::Hmac::<sha2::Sha256>::new_from_slice(secret).unwrap();
            let version = env!("CARGO_PKG_VERSION");
            mac.update(b"grundy cache chunk");
            mac.update(&(version.len() as u16).to_le_bytes());
            mac.update(version.as_bytes());
            mac.update(&(key.len() as u32).to_le_bytes());
            mac.update(key.as_bytes());
            mac.update(&bytes);
            mac.finalize().into_bytes().to_vec()
        }
        None => vec![0; 32],
    };
    bytes.extend_from_slice(&crc.to_le_bytes());
    bytes.extend_from_slice(&mac);
    bytes
}

/// The secret of the tests' key file, read as the format documents it: 32 bytes.
fn test_secret() -> Vec<u8> {
    test_key();
    std::fs::read(Path::new(env!("CARGO_TARGET_TMPDIR")).join("cache-test-key")).unwrap()
}

/// The subtraction game {1, 3, 4} by brute force.
fn subtraction_134(last: usize) -> Vec<u32> {
    let mut g = vec![0u32; last + 1];
    for n in 1..=last {
        let seen: Vec<u32> = [1, 3, 4]
            .iter()
            .filter(|&&t| t <= n)
            .map(|&t| g[n - t])
            .collect();
        g[n] = (0..).find(|v| !seen.contains(v)).unwrap();
    }
    g
}

#[test]
fn a_chunk_that_contradicts_the_period_keeps_the_values_before_and_is_cut() {
    let dir = tempfile::tempdir().unwrap();
    let game = "game s = subtraction {1, 3, 4}";
    let session = |dir: &Path| {
        let mut repl = Backend::new(limits(Some(dir), 1_000_000));
        clean(&mut repl, game);
        repl
    };
    let mut first = session(dir.path());
    clean(&mut first, "grundy s[10]");
    drop(first);
    // The file rewritten by hand: a sound chunk of heaps 0..1000, then one of heaps 1000..2000
    // whose checksum holds but whose value of heap 1500 is wrong.
    let path = cache_file(dir.path());
    let bytes = std::fs::read(&path).unwrap();
    let mut g = subtraction_134(1999);
    let header = bytes[..header_end(&bytes)].to_vec();
    let secret = test_secret();
    let key = header_key(&bytes);
    let signed = Some((&secret[..], &key[..]));
    let sound = [header, chunk_bytes(0, &g[..1000], 1, signed)].concat();
    g[1500] ^= 1;
    let wrong = chunk_bytes(1000, &g[1000..], 1, signed);
    std::fs::write(&path, [&sound[..], &wrong].concat()).unwrap();

    let mut second = session(dir.path());
    let warned = answer(&mut second, "print [grundy(s[n]) for n in 1490..=1510]");
    let plain = {
        let mut repl = Backend::new(Limits::default());
        clean(&mut repl, game);
        values(&mut repl, "s", 1490, 1510)
    };
    assert_eq!(warned.output, plain);
    let kept = resumed(&mut second, "s");
    assert_eq!(kept, 1500);
    let flat: Vec<&str> = warned
        .errors
        .split_whitespace()
        .filter(|w| *w != "│")
        .collect();
    let flat = flat.join(" ");
    let damage = "its values from heap 1500 on are damaged (it contradicts the period its values";
    assert!(flat.contains(damage), "{flat}");
    assert!(
        flat.contains("the values of heaps 0..1500 are taken from it"),
        "{flat}"
    );
    drop(second);
    // The save cut the file before the contradicting chunk and wrote the values after it again.
    let repaired = std::fs::read(&path).unwrap();
    assert_eq!(repaired[..sound.len()], sound[..]);
    let found = chunks(&repaired);
    assert_eq!((found[1].0, found[1].1), (sound.len(), 1000));
    let (at, _, count) = *found.last().unwrap();
    assert_eq!(
        at + 13 + count * repaired[at + 12] as usize + CHUNK_TAIL,
        repaired.len()
    );
    let mut third = session(dir.path());
    let again = answer(&mut third, "print [grundy(s[n]) for n in 0..=1999]");
    assert_eq!(again.errors, "");
    // The period answers the heaps after 1500: the file holds the values kept.
    assert_eq!(header_count(&repaired), 1500);
    assert_eq!(resumed(&mut third, "s"), 1500);
    let brute: Vec<String> = subtraction_134(1999).iter().map(u32::to_string).collect();
    assert_eq!(again.output, format!("[{}]\n", brute.join(", ")));
}

#[test]
fn a_file_cut_below_the_known_end_is_checked_again_from_its_header() {
    let dir = tempfile::tempdir().unwrap();
    let eager = || {
        let mut cache = open_cache(dir.path());
        cache.save_every = Duration::ZERO;
        Limits {
            cache: Some(Arc::new(cache)),
            ..Limits::default()
        }
    };
    let limits = eager();
    let mut sequence = HeapSequence::new(grundys_rules());
    sequence.value(3000, &limits).unwrap();
    sequence.save_to_cache(&limits);
    let path = cache_file(dir.path());
    let bytes = std::fs::read(&path).unwrap();
    // Another run cuts the file to its header.
    std::fs::write(&path, &bytes[..header_end(&bytes)]).unwrap();
    sequence.value(6000, &limits).unwrap();
    sequence.save_to_cache(&limits);
    assert_eq!(limits.cache.unwrap().take_warnings(), vec![]);
    let repaired = std::fs::read(&path).unwrap();
    assert_eq!(header_count(&repaired) as usize, sequence.len());
    let found = chunks(&repaired);
    let (at, _, count) = *found.last().unwrap();
    assert_eq!(
        at + 13 + count * repaired[at + 12] as usize + CHUNK_TAIL,
        repaired.len()
    );
    let reader_limits = eager();
    let mut reader = HeapSequence::new(grundys_rules());
    reader.value(0, &reader_limits).unwrap();
    assert_eq!(reader_limits.cache.unwrap().take_warnings(), vec![]);
    let expected = grundys_game(6000);
    assert_eq!(reader.resumed(), sequence.len());
    for n in 0..reader.resumed() as u64 {
        assert_eq!(reader.get(n), Some(expected[n as usize]), "heap {n}");
    }
}

/// A warning's words on one line, without the frame of the diagnostic.
fn flat(text: &str) -> String {
    let words: Vec<&str> = text.split_whitespace().filter(|w| *w != "│").collect();
    words.join(" ")
}

/// Dawson's Kayles (octal 0.07) by brute force: take two from a row, leaving no row, one, or two.
fn dawson_brute(last: usize) -> Vec<u32> {
    let mut g = vec![0u32; last + 1];
    for n in 2..=last {
        let rest = n - 2;
        let mut seen = vec![false; n + 2];
        seen[g[rest] as usize] = true;
        for a in 1..rest {
            seen[(g[a] ^ g[rest - a]) as usize] = true;
        }
        g[n] = seen.iter().position(|s| !s).unwrap() as u32;
    }
    g
}

/// Changes the value of `heap` in a one-byte-wide chunk of a cache file and recomputes that
/// chunk's CRC-32, as someone editing a shared cache would.
fn forge(bytes: &mut [u8], heap: usize, value: u8) {
    let (at, start, count) = *chunks(bytes)
        .iter()
        .find(|&&(_, start, count)| (start as usize..start as usize + count).contains(&heap))
        .unwrap();
    assert_eq!(bytes[at + 12], 1, "one byte a value");
    let values = at + 13;
    bytes[values + heap - start as usize] = value;
    let end = values + count;
    let crc = crc32fast::hash(&bytes[at..end]);
    bytes[end..end + 4].copy_from_slice(&crc.to_le_bytes());
}

const UNSIGNED: &str = "were not computed by this installation";

#[test]
fn forged_values_with_recomputed_checksums_are_computed_again() {
    let dir = tempfile::tempdir().unwrap();
    assert_eq!(rerun(dir.path()), (String::new(), 0));
    let path = cache_file(dir.path());
    let mut bytes = std::fs::read(&path).unwrap();
    let brute = grundys_game(3000);
    assert_ne!(brute[100], 7);
    let sound = chunks(&bytes).len();
    forge(&mut bytes, 100, 7);
    assert_eq!(
        chunks(&bytes).len(),
        sound,
        "the forged chunk passes its CRC"
    );
    std::fs::write(&path, &bytes).unwrap();

    let mut forged = Backend::new(limits(Some(dir.path()), 1_000_000));
    let value = answer(&mut forged, "grundy grundys[100]");
    assert_eq!(value.output, format!("{}\n", brute[100]));
    let warning = flat(&value.errors);
    assert!(warning.contains(UNSIGNED), "{warning}");
    assert_eq!(resumed(&mut forged, "grundys"), 0);
    // grundys[100] + nim[2] is P exactly when the two values are equal.
    let outcome = clean(&mut forged, "print outcome(grundys[100] + nim[2])");
    assert_eq!(outcome, if brute[100] == 2 { "P\n" } else { "N\n" });
    drop(forged);
    // The save wrote the values it computed again, signed: the next run takes them without a
    // warning.
    assert_eq!(rerun(dir.path()), (String::new(), 101));
}

#[test]
fn a_forged_value_does_not_reach_a_proved_period() {
    let dir = tempfile::tempdir().unwrap();
    let mut first = Backend::new(limits(Some(dir.path()), 1_000_000));
    clean(&mut first, "grundy dawson[3000]");
    drop(first);
    let path = cache_file(dir.path());
    let mut bytes = std::fs::read(&path).unwrap();
    let brute = dawson_brute(3000);
    forge(&mut bytes, 40, (brute[40] ^ 1) as u8);
    std::fs::write(&path, &bytes).unwrap();

    let mut forged = Backend::new(limits(Some(dir.path()), 1_000_000));
    let period = answer(&mut forged, "period dawson");
    assert!(flat(&period.errors).contains(UNSIGNED), "{period:?}");
    let mut plain = Backend::new(Limits::default());
    assert_eq!(period.output, clean(&mut plain, "period dawson"));
    // Dawson's Kayles has period 34 from heap 53 on (its values here by brute force).
    assert!(period.output.contains("34"), "{}", period.output);
    let shown: Vec<String> = brute.iter().map(u32::to_string).collect();
    assert_eq!(
        values(&mut forged, "dawson", 0, 3000),
        format!("[{}]\n", shown.join(", "))
    );
}

/// The header of the cache file of `grundys`, as a run of the binary writes it in `dir`.
fn grundys_header(dir: &Path) -> Vec<u8> {
    let out = grundy_command()
        .arg("--cache")
        .arg(dir)
        .args(["-e", "grundy grundys[10]"])
        .output()
        .unwrap();
    assert_eq!(String::from_utf8_lossy(&out.stderr), "");
    let bytes = std::fs::read(cache_file(dir)).unwrap();
    bytes[..header_end(&bytes)].to_vec()
}

#[test]
fn a_huge_forged_value_is_refused_before_anything_grows() {
    let dir = tempfile::tempdir().unwrap();
    let header = grundys_header(dir.path());
    let brute = grundys_game(10);
    let mut forged: Vec<u32> = brute[..6].to_vec();
    forged[3] = u32::MAX;
    let chunk = chunk_bytes(0, &forged, 4, None);
    std::fs::write(cache_file(dir.path()), [header, chunk].concat()).unwrap();
    let out = grundy_command()
        .args(["--max-memory", "64", "--cache"])
        .arg(dir.path())
        .args(["-e", "grundy grundys[5]"])
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{stderr}");
    assert_eq!(
        String::from_utf8_lossy(&out.stdout),
        format!("{}\n", brute[5])
    );
    assert!(
        stderr.contains("grundy::cache") && flat(&stderr).contains(UNSIGNED),
        "{stderr}"
    );
}

#[test]
fn an_impossible_value_is_refused_even_when_signed() {
    let secret = test_secret();
    let brute = grundys_game(4000);
    // Heap 3 has one option (1 + 2); past heap 3000 the values are below 64, whatever the
    // options.
    let cases = [
        (3, u32::MAX, "heap 3 has at most 1 options"),
        (3000, 1000, "below 64"),
    ];
    for (heap, wrong, why) in cases {
        let dir = tempfile::tempdir().unwrap();
        let header = grundys_header(dir.path());
        let key = header_key(&header);
        let mut forged: Vec<u32> = brute[..4000].to_vec();
        forged[heap] = wrong;
        let chunk = chunk_bytes(0, &forged, 4, Some((&secret, &key)));
        std::fs::write(cache_file(dir.path()), [header, chunk].concat()).unwrap();
        let mut repl = Backend::new(limits(Some(dir.path()), 1_000_000));
        let got = answer(&mut repl, &format!("grundy grundys[{heap}]"));
        assert_eq!(got.output, format!("{}\n", brute[heap]));
        let warning = flat(&got.errors);
        assert!(warning.contains(why), "{warning}");
        assert_eq!(resumed(&mut repl, "grundys"), heap);
    }
}

#[test]
fn a_cache_file_of_another_installation_is_computed_again_and_signed_anew() {
    let dir = tempfile::tempdir().unwrap();
    let keys = tempfile::tempdir().unwrap();
    let other = CacheKey::at(&keys.path().join("other-key")).unwrap();
    assert_ne!(other, test_key());
    let mut there = Backend::new(Limits {
        cache: Some(Arc::new(Cache::with_key(dir.path(), other).unwrap())),
        ..Limits::default()
    });
    clean(&mut there, "grundy grundys[3000]");
    drop(there);
    let (warning, resumed) = rerun(dir.path());
    assert!(flat(&warning).contains(UNSIGNED), "{warning}");
    assert_eq!(resumed, 0);
    assert_eq!(rerun(dir.path()), (String::new(), 3001));
}

#[cfg(unix)]
#[test]
fn a_cache_file_or_folder_that_is_a_link_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let cache = dir.path().join("cache");
    assert_eq!(rerun(&cache), (String::new(), 0));
    let file = cache_file(&cache);
    std::fs::remove_file(&file).unwrap();
    let victim = dir.path().join("passwd");
    std::fs::write(&victim, "root:x:0:0:root:/root:/bin/bash\n").unwrap();
    std::os::unix::fs::symlink(&victim, &file).unwrap();
    let (warning, resumed) = rerun(&cache);
    assert_eq!(resumed, 0);
    let warning = flat(&warning);
    assert!(warning.contains("is a link"), "{warning}");
    assert_eq!(
        std::fs::read_to_string(&victim).unwrap(),
        "root:x:0:0:root:/root:/bin/bash\n"
    );
    assert!(std::fs::symlink_metadata(&file)
        .unwrap()
        .file_type()
        .is_symlink());

    let linked = dir.path().join("linked");
    std::os::unix::fs::symlink(&cache, &linked).unwrap();
    let refused = Cache::with_key(&linked, test_key())
        .unwrap_err()
        .to_string();
    assert!(refused.contains("is a link"), "{refused}");
    let out = grundy_command()
        .arg("--cache")
        .arg(&linked)
        .args(["-e", "grundy kayles[3]"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let stderr = flat(&String::from_utf8_lossy(&out.stderr));
    assert!(stderr.contains("is a link"), "{stderr}");
}

#[cfg(unix)]
#[test]
fn the_key_is_made_once_for_its_owner_alone_and_refused_when_others_may_read_it() {
    use std::os::unix::fs::PermissionsExt;
    let data = tempfile::tempdir().unwrap();
    let path = data.path().join("grundy").join("cache-key");
    let key = CacheKey::at(&path).unwrap();
    let mode = |p: &Path| std::fs::metadata(p).unwrap().permissions().mode() & 0o777;
    assert_eq!(mode(&path), 0o600);
    assert_eq!(mode(path.parent().unwrap()), 0o700);
    assert_eq!(std::fs::read(&path).unwrap().len(), 32);
    assert_eq!(CacheKey::at(&path).unwrap(), key);
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o644)).unwrap();
    let refused = CacheKey::at(&path).unwrap_err().to_string();
    assert!(refused.contains("chmod 600"), "{refused}");
    let linked = data.path().join("linked-key");
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o600)).unwrap();
    std::os::unix::fs::symlink(&path, &linked).unwrap();
    let refused = CacheKey::at(&linked).unwrap_err().to_string();
    assert!(refused.contains("is a link"), "{refused}");
}
