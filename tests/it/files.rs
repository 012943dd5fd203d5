//! Files stay in their folder: a program reads and writes only under its root (the folder of the
//! file run, or the working folder at the prompt and for `-e`; `--root DIR` widens it), `..`,
//! absolute paths and links that lead outside are refused with `grundy::outside_root`, and
//! writing over a file says so.

use std::path::Path;
use std::process::Command;

use grundy::files::Root;
use grundy::game::Limits;
use grundy::repl::{Answer, Backend, Reply};

fn grundy(cwd: &Path, args: &[&str]) -> (Option<i32>, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_grundy"))
        .current_dir(cwd)
        .env("COLUMNS", "200")
        .args(args)
        .output()
        .unwrap();
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

fn refused(stderr: &str) {
    assert!(
        stderr.contains("grundy::outside_root") && stderr.contains("--root DIR"),
        "{stderr}"
    );
}

/// The CSV a `sequence nim 0..=3` writes, by its documented layout: the heap, then its Grundy
/// value, which for Nim is the heap itself.
fn nim_csv() -> String {
    let mut text = String::from("n,value\n");
    for n in 0..=3 {
        text += &format!("{n},{n}\n");
    }
    text
}

#[test]
fn dot_dot_leads_out_of_the_folder_of_the_file_and_root_allows_it() {
    let dir = tempfile::tempdir().unwrap();
    let notebook = dir.path().join("notebook");
    std::fs::create_dir(&notebook).unwrap();
    std::fs::write(
        notebook.join("prog.game"),
        "sequence nim 0..=3 to \"../x.csv\"\n",
    )
    .unwrap();
    let (code, _, stderr) = grundy(dir.path(), &["notebook/prog.game"]);
    assert_eq!(code, Some(1));
    refused(&stderr);
    assert!(!dir.path().join("x.csv").exists());
    let (code, stdout, stderr) = grundy(dir.path(), &["--root", ".", "notebook/prog.game"]);
    assert_eq!(code, Some(0), "{stderr}");
    assert_eq!(
        stdout, "wrote 4 values of nim (n = 0..=3) to ../x.csv\n",
        "{stdout}"
    );
    let written = std::fs::read_to_string(dir.path().join("x.csv")).unwrap();
    assert_eq!(written.replace("\r\n", "\n"), nim_csv());
}

#[test]
fn relative_paths_of_a_file_start_from_its_folder() {
    let dir = tempfile::tempdir().unwrap();
    let notebook = dir.path().join("notebook");
    std::fs::create_dir(&notebook).unwrap();
    std::fs::write(notebook.join("heaps.txt"), "3 4 5").unwrap();
    std::fs::write(
        notebook.join("prog.game"),
        "print read(\"heaps.txt\")\nsequence nim 0..=3 to \"out.csv\"\n",
    )
    .unwrap();
    let (code, stdout, stderr) = grundy(dir.path(), &["notebook/prog.game"]);
    assert_eq!(code, Some(0), "{stderr}");
    assert!(stdout.starts_with("[3, 4, 5]\n"), "{stdout}");
    assert_eq!(
        std::fs::read_to_string(notebook.join("out.csv")).unwrap(),
        nim_csv()
    );
}

#[test]
fn absolute_paths_outside_are_refused_and_inside_are_allowed() {
    let dir = tempfile::tempdir().unwrap();
    let (code, _, stderr) = grundy(dir.path(), &["-e", "print read(\"/etc/passwd\")"]);
    assert_eq!(code, Some(1));
    refused(&stderr);
    let (code, _, stderr) = grundy(
        dir.path(),
        &["-e", "sequence nim 0..=3 to \"/tmp/../x.csv\""],
    );
    assert_eq!(code, Some(1));
    refused(&stderr);
    let inside = dir.path().canonicalize().unwrap().join("in.csv");
    let program = format!("sequence nim 0..=3 to {:?}", inside.display().to_string());
    let (code, _, stderr) = grundy(dir.path(), &["-e", &program]);
    assert_eq!(code, Some(0), "{stderr}");
    assert_eq!(std::fs::read_to_string(&inside).unwrap(), nim_csv());
    // `--root /` allows the whole disk.
    let (code, stdout, stderr) = grundy(
        dir.path(),
        &["--root", "/", "-e", "print len(read(\"/etc/passwd\")) >= 0"],
    );
    assert_eq!((code, stdout.as_str()), (Some(0), "true\n"), "{stderr}");
}

#[cfg(unix)]
#[test]
fn a_link_leading_out_is_refused_and_its_target_kept() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("root");
    std::fs::create_dir(&root).unwrap();
    let bashrc = dir.path().join("bashrc");
    std::fs::write(&bashrc, "alias ls='ls -F'\n").unwrap();
    std::os::unix::fs::symlink(&bashrc, root.join("out.txt")).unwrap();
    std::os::unix::fs::symlink(dir.path(), root.join("up")).unwrap();
    for program in [
        "sequence nim 0..=3 to \"out.txt\"",
        "print read(\"out.txt\")",
        "plot sequence nim 0..=3 to \"up/x.png\"",
        "table a xor b for a in 0..2, b in 0..2 to \"up/bashrc.txt\"",
        "print read(\"up/bashrc\")",
    ] {
        let (code, _, stderr) = grundy(&root, &["-e", program]);
        assert_eq!(code, Some(1), "{program}");
        refused(&stderr);
    }
    let (_, _, stderr) = grundy(&root, &["-e", "sequence nim 0..=3 to \"out.txt\""]);
    assert!(stderr.contains("is a link to"), "{stderr}");
    assert_eq!(
        std::fs::read_to_string(&bashrc).unwrap(),
        "alias ls='ls -F'\n"
    );
    assert!(!dir.path().join("x.png").exists());
}

#[cfg(unix)]
#[test]
fn a_link_inside_the_root_is_followed() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir(dir.path().join("data")).unwrap();
    std::fs::write(dir.path().join("data/heaps.txt"), "1 2 3").unwrap();
    std::os::unix::fs::symlink("data/heaps.txt", dir.path().join("link.txt")).unwrap();
    std::os::unix::fs::symlink("data/nim.csv", dir.path().join("out.csv")).unwrap();
    let (code, stdout, stderr) = grundy(
        dir.path(),
        &[
            "-e",
            "print read(\"link.txt\")\nsequence nim 0..=3 to \"out.csv\"",
        ],
    );
    assert_eq!(code, Some(0), "{stderr}");
    assert!(stdout.starts_with("[1, 2, 3]\n"), "{stdout}");
    assert_eq!(
        std::fs::read_to_string(dir.path().join("data/nim.csv")).unwrap(),
        nim_csv()
    );
}

fn answer(repl: &mut Backend, line: &str) -> Answer {
    match repl.feed(line) {
        Reply::Done(answer) => answer,
        other => panic!("{line}: {other:?}"),
    }
}

#[test]
fn writing_over_a_file_says_so() {
    let dir = tempfile::tempdir().unwrap();
    let mut repl = Backend::new(Limits {
        root: Root::folder(dir.path().to_path_buf()),
        ..Limits::default()
    });
    let first = answer(&mut repl, "sequence nim 0..=3 to \"s.csv\"");
    let wrote = "wrote 4 values of nim (n = 0..=3) to s.csv";
    assert_eq!(first.output, format!("{wrote}\n"), "{first:?}");
    let again = answer(&mut repl, "sequence nim 0..=3 to \"s.csv\"");
    assert_eq!(
        again.output,
        format!("{wrote} (replacing the file that was there)\n"),
        "{again:?}"
    );
    let picture = answer(&mut repl, "plot sequence nim 0..=3 to \"s.svg\"");
    assert!(picture.output.ends_with("pixels)\n"), "{picture:?}");
    let picture = answer(&mut repl, "plot sequence nim 0..=3 to \"s.svg\"");
    assert!(
        picture
            .output
            .ends_with("pixels, replacing the file that was there)\n"),
        "{picture:?}"
    );
    assert_eq!(
        std::fs::read_to_string(dir.path().join("s.csv")).unwrap(),
        nim_csv()
    );
}

#[test]
fn load_stays_under_the_root_and_runs_from_the_folder_of_its_file() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("root");
    std::fs::create_dir_all(root.join("sub")).unwrap();
    std::fs::write(root.join("sub/heaps.txt"), "7 8").unwrap();
    std::fs::write(root.join("sub/f.game"), "let h = read(\"heaps.txt\")\n").unwrap();
    std::fs::write(dir.path().join("outside.game"), "let h = 1\n").unwrap();
    let mut repl = Backend::new(Limits {
        root: Root::folder(root.clone()),
        ..Limits::default()
    });
    let loaded = answer(&mut repl, ":load sub/f.game");
    assert_eq!(loaded.errors, "");
    assert_eq!(answer(&mut repl, "print h").output, "[7, 8]\n");
    let outside = answer(&mut repl, ":load ../outside.game");
    refused(&outside.errors);
    // After the load, relative paths start from the root again.
    let missing = answer(&mut repl, "print read(\"heaps.txt\")");
    assert!(missing.errors.contains("cannot read"), "{missing:?}");
}

#[test]
fn the_refusal_names_the_path_the_root_and_the_way_to_allow_it() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().canonicalize().unwrap();
    let mut repl = Backend::new(Limits {
        root: Root::folder(root.clone()),
        ..Limits::default()
    });
    repl.set_style(300, false);
    let refusal = answer(&mut repl, "sequence nim 0..=3 to \"../x.csv\"");
    let parent = root.parent().unwrap().display().to_string();
    let shown = refusal
        .errors
        .replace(&root.display().to_string(), "<root>")
        .replace(&parent, "<parent>");
    insta::assert_snapshot!(shown);
}

#[test]
fn a_file_named_on_the_command_line_runs_under_its_own_folder() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("heaps.txt"), "2 9").unwrap();
    let file = dir.path().join("f.game");
    std::fs::write(&file, "let h = read(\"heaps.txt\")\n").unwrap();
    // `-i FILE`: the file is the user's own, wherever it is; the prompt's root comes back.
    let mut repl = Backend::new(Limits::default());
    let ran = repl.run_file(&file);
    assert_eq!(ran.errors, "");
    assert_eq!(answer(&mut repl, "print h").output, "[2, 9]\n");
    // `--root DIR -e`: relative paths still start from the working folder.
    let sub = dir.path().join("sub");
    std::fs::create_dir(&sub).unwrap();
    let (code, stdout, stderr) = grundy(
        &sub,
        &["--root", "..", "-e", "print read(\"../heaps.txt\")"],
    );
    assert_eq!((code, stdout.as_str()), (Some(0), "[2, 9]\n"), "{stderr}");
}
