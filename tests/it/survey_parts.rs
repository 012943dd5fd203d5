//! A survey's progress in `--cache DIR` and its parts: a survey stopped (its file cut anywhere,
//! `kill -9`) resumes with the rows of a run never stopped; a forged or foreign record is never
//! believed; three parts (`--shard I/3`) merged (`--merge`) give the `.csv` and `.json` files
//! of one run without a cache, byte for byte, equal games across parts included; and a merge of
//! parts that do not make the survey is a diagnostic, never a table.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::Arc;
use std::time::{Duration, Instant};

use grundy::game::cache_folder::{Cache, CacheKey};
use grundy::game::{Limits, Shard, SurveyPart};

/// The survey most tests split: 127 games, most equal to an earlier one, some with an offset.
const SURVEY: &str = "survey octal 2 up to 3000";

/// The secret the tests sign their caches with (the installation's stays untouched).
fn test_key(name: &str) -> CacheKey {
    CacheKey::at(&Path::new(env!("CARGO_TARGET_TMPDIR")).join(name)).unwrap()
}

fn limits(folder: &Path, cache: Option<&Path>, part: SurveyPart) -> Limits {
    limits_signed(folder, cache, part, "survey-parts-key")
}

fn limits_signed(folder: &Path, cache: Option<&Path>, part: SurveyPart, key: &str) -> Limits {
    Limits {
        root: grundy::files::Root::folder(folder.to_path_buf()),
        cache: cache.map(|dir| Arc::new(Cache::with_key(dir, test_key(key)).unwrap())),
        survey_part: part,
        ..Limits::default()
    }
}

/// What a run of `source` prints, its errors and its warnings (rendered).
fn run(source: &str, limits: Limits) -> (String, Vec<grundy::error::Error>, String) {
    let mut session = grundy::Session::new(limits);
    let mut out = Vec::new();
    let errors = session
        .run("parts", source, &mut out)
        .err()
        .unwrap_or_default();
    let warnings = grundy::error::render(&session.take_warnings(), "parts", source, 80, false);
    (String::from_utf8(out).unwrap(), errors, warnings)
}

/// What a run that must succeed prints, and its warnings.
fn clean(source: &str, limits: Limits) -> (String, String) {
    let (out, errors, warnings) = run(source, limits);
    assert!(
        errors.is_empty(),
        "{source}: {}",
        grundy::error::render(&errors, "parts", source, 80, false)
    );
    (out, warnings)
}

/// The `.csv` and `.json` files of `survey` run with `limits` (made for `folder`).
fn files(folder: &Path, survey: &str, limits: impl Fn() -> Limits) -> (String, String) {
    let read = |name: &str| std::fs::read_to_string(folder.join(name)).unwrap();
    for name in ["rows.csv", "rows.json"] {
        let _ = std::fs::remove_file(folder.join(name));
        let (out, _) = clean(&format!("{survey} to \"{name}\""), limits());
        assert!(out.starts_with("wrote "), "{out}");
    }
    (read("rows.csv"), read("rows.json"))
}

/// The files of the survey run once, with no cache.
fn unbroken(survey: &str) -> (String, String) {
    let folder = tempfile::tempdir().unwrap();
    let path = folder.path();
    files(path, survey, || limits(path, None, SurveyPart::Whole))
}

/// The files of the cache folder `dir` named like a survey's part (none when it is not made yet).
fn part_files(dir: &Path) -> Vec<PathBuf> {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return Vec::new();
    };
    let mut found: Vec<PathBuf> = entries
        .map(|e| e.unwrap().path())
        .filter(|p| {
            p.file_name()
                .unwrap()
                .to_str()
                .unwrap()
                .starts_with("survey-")
        })
        .collect();
    found.sort();
    found
}

/// Runs the three parts of `survey` into the cache `dir`.
fn three_parts(folder: &Path, dir: &Path, survey: &str) {
    for index in 1..=3 {
        let part = SurveyPart::Shard(Shard { index, count: 3 });
        let (out, warnings) = clean(survey, limits(folder, Some(dir), part));
        assert!(out.starts_with(&format!("part {index} of 3 ")), "{out}");
        assert_eq!(warnings, "");
    }
}

#[test]
fn three_parts_merged_are_the_files_of_one_run() {
    for survey in [SURVEY, "survey subtraction 5 up to 2000"] {
        let whole = unbroken(survey);
        let folder = tempfile::tempdir().unwrap();
        let (path, dir) = (folder.path(), folder.path().join("cache"));
        three_parts(path, &dir, survey);
        let merged = files(path, survey, || limits(path, Some(&dir), SurveyPart::Merge));
        assert_eq!(merged.0, whole.0, "{survey}: the .csv files");
        assert_eq!(merged.1, whole.1, "{survey}: the .json files");
        // The merge printed the table of one run too.
        let shown = clean(survey, limits(path, Some(&dir), SurveyPart::Merge)).0;
        let at_once = clean(survey, limits(path, None, SurveyPart::Whole)).0;
        assert_eq!(shown, at_once);
    }
    // The equal games found across parts, with offsets: games whose earlier game is in another
    // part, some of them shifted.
    let (csv, _) = unbroken(SURVEY);
    let rows: Vec<Vec<&str>> = csv
        .lines()
        .skip(1)
        .map(|l| l.split(',').collect())
        .collect();
    let place = |code: &str| rows.iter().position(|r| r[0] == code).unwrap();
    let across: Vec<(usize, &str)> = rows
        .iter()
        .enumerate()
        .filter(|(_, r)| !r[1].is_empty())
        .filter(|(g, r)| place(r[1]) % 3 != g % 3)
        .map(|(g, r)| (g, r[2]))
        .collect();
    assert!(across.len() >= 20, "{across:?}");
    assert!(
        across.iter().any(|(_, offset)| *offset != "0"),
        "{across:?}"
    );
}

#[test]
fn a_survey_cut_anywhere_resumes_with_the_rows_of_an_unbroken_run() {
    let whole = unbroken(SURVEY);
    let folder = tempfile::tempdir().unwrap();
    let (path, dir) = (folder.path(), folder.path().join("cache"));
    let cached = || limits(path, Some(&dir), SurveyPart::Whole);
    assert_eq!(files(path, SURVEY, cached), whole);
    let [file] = part_files(&dir).try_into().unwrap();
    let full = std::fs::read(&file).unwrap();
    // Cut after the header, at record bounds and inside records, as a kill -9 leaves it.
    for cut in [
        0,
        10,
        60,
        full.len() / 7,
        full.len() / 3,
        full.len() / 2,
        full.len() - 1,
    ] {
        std::fs::write(&file, &full[..cut]).unwrap();
        let (out, warnings) = clean(&format!("{SURVEY} to \"rows.csv\""), cached());
        assert!(out.starts_with("wrote 127 rows"), "{out}");
        assert_eq!(
            std::fs::read_to_string(path.join("rows.csv")).unwrap(),
            whole.0,
            "cut at {cut}"
        );
        // The file is whole again: read back, nothing computed, nothing to warn about.
        assert_eq!(
            std::fs::read(&file).unwrap().len(),
            full.len(),
            "cut at {cut}"
        );
        let (_, again) = clean(&format!("{SURVEY} to \"rows.csv\""), cached());
        assert_eq!(again, "", "cut at {cut}");
        let _ = warnings;
    }
}

#[test]
fn a_survey_killed_midway_resumes_with_the_rows_of_an_unbroken_run() {
    let survey = "survey octal 2 up to 60000";
    let whole = unbroken(survey).0;
    let folder = tempfile::tempdir().unwrap();
    let (path, dir) = (folder.path(), folder.path().join("cache"));
    let grundy = || {
        let mut command = Command::new(env!("CARGO_BIN_EXE_grundy"));
        command
            .current_dir(path)
            .env("XDG_DATA_HOME", path.join("data"))
            .args(["--cache", "cache", "--threads", "1", "-e"])
            .arg(format!("{survey} to \"rows.csv\""))
            .stdout(Stdio::null())
            .stderr(Stdio::null());
        command
    };
    let mut child = grundy().spawn().unwrap();
    // Killed once some games are kept, before the survey ends.
    let start = Instant::now();
    let size = || {
        part_files(&dir)
            .first()
            .map_or(0, |f| f.metadata().unwrap().len())
    };
    while size() < 1_000_000 && start.elapsed() < Duration::from_secs(120) {
        std::thread::sleep(Duration::from_millis(5));
    }
    child.kill().unwrap();
    child.wait().unwrap();
    assert!(
        !path.join("rows.csv").exists(),
        "the survey ended before it was killed"
    );
    let status = grundy().status().unwrap();
    assert!(status.success());
    assert_eq!(
        std::fs::read_to_string(path.join("rows.csv")).unwrap(),
        whole
    );
}

/// Changes the saltus of the first record of a solved game and computes its CRC again: what
/// someone who edits a file can do. (The layout is the engine's `survey_file`.)
fn forge(file: &Path) {
    let mut bytes = std::fs::read(file).unwrap();
    let word = |b: &[u8], at: usize| u32::from_le_bytes(b[at..at + 4].try_into().unwrap()) as usize;
    let version = u16::from_le_bytes(bytes[12..14].try_into().unwrap()) as usize;
    let identity = 14 + version;
    // The header: magic, format, version, identity, part, parts, games, CRC.
    let mut record = identity + 4 + word(&bytes, identity) + 12 + 4;
    loop {
        let len = word(&bytes, record);
        let payload = record + 4;
        // game u32, kind u8, looked u64, proved u8, preperiod u64, period u64, then the saltus.
        if bytes[payload + 4] == 1 && bytes[payload + 13] == 1 {
            bytes[payload + 30] ^= 1;
            let crc = crc32fast::hash(&bytes[record..payload + len]);
            bytes[payload + len..payload + len + 4].copy_from_slice(&crc.to_le_bytes());
            std::fs::write(file, bytes).unwrap();
            return;
        }
        record = payload + len + 4 + 32;
    }
}

#[test]
fn a_forged_or_foreign_record_is_computed_again_never_believed() {
    let whole = unbroken(SURVEY);
    let folder = tempfile::tempdir().unwrap();
    let (path, dir) = (folder.path(), folder.path().join("cache"));
    let cached = || limits(path, Some(&dir), SurveyPart::Whole);
    assert_eq!(files(path, SURVEY, cached), whole);
    let [file] = part_files(&dir).try_into().unwrap();
    forge(&file);
    let (out, warnings) = clean(&format!("{SURVEY} to \"rows.csv\""), cached());
    assert!(out.starts_with("wrote 127 rows"), "{out}");
    assert!(
        warnings.contains("not signed by this installation"),
        "{warnings}"
    );
    assert_eq!(
        std::fs::read_to_string(path.join("rows.csv")).unwrap(),
        whole.0
    );
    // Signed by another installation (a cache copied from another machine): computed again.
    let other = || {
        limits_signed(
            path,
            Some(&dir),
            SurveyPart::Whole,
            "survey-parts-other-key",
        )
    };
    let (_, warnings) = clean(&format!("{SURVEY} to \"rows.csv\""), other());
    assert!(
        warnings.contains("not signed by this installation"),
        "{warnings}"
    );
    assert_eq!(
        std::fs::read_to_string(path.join("rows.csv")).unwrap(),
        whole.0
    );
    // A file that is a link is not followed.
    #[cfg(unix)]
    {
        let elsewhere = path.join("elsewhere");
        std::fs::rename(&file, &elsewhere).unwrap();
        std::os::unix::fs::symlink(&elsewhere, &file).unwrap();
        let (_, warnings) = clean(&format!("{SURVEY} to \"rows.csv\""), cached());
        assert!(warnings.contains("link"), "{warnings}");
        assert_eq!(
            std::fs::read_to_string(path.join("rows.csv")).unwrap(),
            whole.0
        );
        assert!(std::fs::symlink_metadata(&file).unwrap().is_symlink());
    }
}

/// The diagnostic of a merge of the parts in `dir`, its folder written `CACHE`.
fn merge_diagnostic(path: &Path, dir: &Path, survey: &str) -> String {
    let (out, errors, _) = run(survey, limits(path, Some(dir), SurveyPart::Merge));
    assert_eq!(out, "", "a merge that fails writes no table");
    assert!(!path.join("rows.csv").exists());
    let shown = dir.display().to_string();
    let errors: Vec<grundy::error::Error> = errors
        .into_iter()
        .map(|e| match e {
            grundy::error::Error::SurveyParts { reason, help, span } => {
                grundy::error::Error::SurveyParts {
                    reason: reason.replace(&shown, "CACHE"),
                    help: help.replace(&shown, "CACHE"),
                    span,
                }
            }
            other => panic!("{other:?}"),
        })
        .collect();
    grundy::error::render(&errors, "parts", survey, 80, false)
}

#[test]
fn a_merge_of_parts_that_do_not_make_the_survey_is_a_diagnostic() {
    let survey = "survey octal 1 up to 500 to \"rows.csv\"";
    let folder = tempfile::tempdir().unwrap();
    let (path, dir) = (folder.path(), folder.path().join("cache"));
    std::fs::create_dir(&dir).unwrap();
    insta::assert_snapshot!("no_part", merge_diagnostic(path, &dir, survey));
    three_parts(path, &dir, survey);
    let [one, two, three] = part_files(&dir).try_into().unwrap();
    let bytes = |f: &Path| std::fs::read(f).unwrap();
    let (one_bytes, two_bytes, three_bytes) = (bytes(&one), bytes(&two), bytes(&three));
    let restore = || {
        std::fs::write(&one, &one_bytes).unwrap();
        std::fs::write(&two, &two_bytes).unwrap();
        std::fs::write(&three, &three_bytes).unwrap();
    };
    // A part missing.
    std::fs::remove_file(&two).unwrap();
    insta::assert_snapshot!("missing_part", merge_diagnostic(path, &dir, survey));
    // A part twice: the first part's file copied as the second's.
    std::fs::write(&two, &one_bytes).unwrap();
    insta::assert_snapshot!("duplicated_part", merge_diagnostic(path, &dir, survey));
    // A part of another survey under this one's name.
    restore();
    let other = tempfile::tempdir().unwrap();
    let other_dir = other.path().join("cache");
    three_parts(other.path(), &other_dir, "survey octal 1 up to 400");
    let [_, other_two, _] = part_files(&other_dir).try_into().unwrap();
    std::fs::copy(&other_two, &two).unwrap();
    insta::assert_snapshot!(
        "part_of_another_survey",
        merge_diagnostic(path, &dir, survey)
    );
    // A damaged part: a byte flipped in its last record, and a part cut short.
    restore();
    let mut damaged = three_bytes.clone();
    let last = damaged.len() - 40;
    damaged[last] ^= 0x10;
    std::fs::write(&three, &damaged).unwrap();
    insta::assert_snapshot!("damaged_part", merge_diagnostic(path, &dir, survey));
    std::fs::write(&three, &three_bytes[..three_bytes.len() - 1]).unwrap();
    insta::assert_snapshot!("cut_part", merge_diagnostic(path, &dir, survey));
    // A forged part: a value changed, its CRC computed again.
    restore();
    forge(&one);
    insta::assert_snapshot!("forged_part", merge_diagnostic(path, &dir, survey));
    // Parts of two splits.
    restore();
    let part = SurveyPart::Shard(Shard { index: 1, count: 2 });
    clean(survey, limits(path, Some(&dir), part));
    insta::assert_snapshot!("two_splits", merge_diagnostic(path, &dir, survey));
    // And each fixed, the merge is the survey.
    let split_in_two = part_files(&dir)
        .into_iter()
        .find(|f| f.to_str().unwrap().ends_with("part-1-of-2"))
        .unwrap();
    std::fs::remove_file(split_in_two).unwrap();
    let (out, _) = clean(survey, limits(path, Some(&dir), SurveyPart::Merge));
    assert!(out.starts_with("wrote 15 rows"), "{out}");
    // No cache folder: the merge and the parts say what they need.
    let (_, errors, _) = run(survey, limits(path, None, SurveyPart::Merge));
    let source = survey;
    insta::assert_snapshot!(
        "merge_without_cache",
        grundy::error::render(&errors, "parts", source, 80, false)
    );
}

#[test]
fn the_job_array_example_run_here_merges_to_the_files_of_one_run() {
    let whole = unbroken(SURVEY).0;
    let folder = tempfile::tempdir().unwrap();
    let path = folder.path();
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/survey_job_array.sh");
    let status = Command::new("sh")
        .arg(script)
        .arg("local")
        .current_dir(path)
        .env("XDG_DATA_HOME", path.join("data"))
        .env("GRUNDY", env!("CARGO_BIN_EXE_grundy"))
        .env("SURVEY", SURVEY)
        .env("OUT", "rows.csv")
        .env("PARTS", "3")
        .env("CACHE", path.join("cache"))
        .stdout(Stdio::null())
        .status()
        .unwrap();
    assert!(status.success());
    assert_eq!(
        std::fs::read_to_string(path.join("rows.csv")).unwrap(),
        whole
    );
}
