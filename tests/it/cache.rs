//! The heap-sequence cache (`--cache DIR`, `:cache DIR`): a run stopped midway (a state limit,
//! Ctrl-C) resumes from its file with the values of a run without cache; files that are corrupt,
//! truncated, of another game or of another version are ignored with a warning; equal games
//! share a file and different ones do not; writers at the same time never leave a broken file.

use crate::support::grundys_rules;

use std::path::{Path, PathBuf};
use std::sync::atomic::Ordering;
use std::sync::Arc;
use std::time::Duration;

use grundy::game::heap::{Cache, HeapSequence};
use grundy::game::Limits;
use grundy::repl::{Answer, Backend, Reply};
use grundys_rules::grundys_rules;

fn limits(cache: Option<&Path>, max_states: usize) -> Limits {
    Limits {
        max_states,
        cache: cache.map(|dir| Arc::new(Cache::open(dir).unwrap())),
        ..Limits::default()
    }
}

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
        if end + 4 > bytes.len()
            || crc32fast::hash(&bytes[at..end]).to_le_bytes() != bytes[end..end + 4]
        {
            break;
        }
        found.push((at, start, count));
        at = end + 4;
    }
    found
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
    let at = damaged.len() - 10;
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
        let mut cache = Cache::open(dir).unwrap();
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
        std::process::Command::new(env!("CARGO_BIN_EXE_grundy"))
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
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_grundy"))
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

/// A chunk of a cache file of values one byte wide, written by the layout the format documents.
fn chunk_bytes(start: u64, values: &[u32]) -> Vec<u8> {
    let mut bytes = start.to_le_bytes().to_vec();
    bytes.extend_from_slice(&(values.len() as u32).to_le_bytes());
    bytes.push(1);
    bytes.extend(values.iter().map(|&v| u8::try_from(v).unwrap()));
    let crc = crc32fast::hash(&bytes);
    bytes.extend_from_slice(&crc.to_le_bytes());
    bytes
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
    let sound = [header, chunk_bytes(0, &g[..1000])].concat();
    g[1500] ^= 1;
    std::fs::write(&path, [&sound[..], &chunk_bytes(1000, &g[1000..])].concat()).unwrap();

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
        at + 13 + count * repaired[at + 12] as usize + 4,
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
        let mut cache = Cache::open(dir.path()).unwrap();
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
        at + 13 + count * repaired[at + 12] as usize + 4,
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
