//! Where a program may read and write: every file grundy opens for a program (`read`, the
//! `to "FILE"` of `sequence`, `table`, `ppos` and `plot`, `:load`) or for the cache goes through
//! [`open`], which takes the path from the [`Root`]'s base folder and refuses what leads outside
//! the root, as Typst does: a game file is shared like a notebook, and running one must not read
//! `~/.ssh` or write over `~/.bashrc`.
//!
//! A path is first judged as written (`..` taken back lexically), so that nothing outside the
//! root is even looked at; then the folders on its way are resolved (links included) and must
//! still be under the root; a link in the last place is followed only to a file under the root
//! (a cache follows none), and the file is opened with `O_NOFOLLOW`, so a link made there since
//! is not followed either. This keeps files from leading a program out of its folder; it does not
//! guard against another program of the same user racing to swap the folders on the way.

use std::fs::{File, OpenOptions};
use std::io;
use std::path::{Component, Path, PathBuf};

/// How many links in a row are followed at the last place of a path.
const MOST_LINKS: usize = 40;

/// The folder a program may use and the folder its relative paths start from.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Root {
    /// Everything opened is under this folder (`None`: the working folder when it is opened).
    dir: Option<PathBuf>,
    /// Relative paths start here (`None`: the working folder).
    base: Option<PathBuf>,
    /// No link is followed at all (the cache's folder).
    sealed: bool,
}

/// What a file is opened for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Access {
    Read,
    /// Created, or emptied when it is there.
    Write,
    /// Read and written, created when missing, kept when there.
    Update,
}

/// A file opened under a root: where it is, and whether a [`Access::Write`] emptied a file
/// that was there.
#[derive(Debug)]
pub struct Opened {
    pub file: File,
    pub path: PathBuf,
    pub replaced: bool,
}

/// Why a path was not opened.
#[derive(Debug)]
pub enum Refused {
    /// The path leads to `target`, outside `root` (through a link when `link` names it).
    Outside {
        target: PathBuf,
        root: PathBuf,
        link: Option<PathBuf>,
    },
    /// The path is a link, and this root follows none.
    Link { link: PathBuf },
    /// The file could not be opened (missing, not allowed, a folder, ...).
    Io(io::Error),
}

impl From<io::Error> for Refused {
    fn from(e: io::Error) -> Refused {
        Refused::Io(e)
    }
}

impl std::fmt::Display for Refused {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Refused::Outside {
                target,
                root,
                link: None,
            } => write!(
                f,
                "it leads to {}, outside {}",
                target.display(),
                root.display()
            ),
            Refused::Outside {
                target,
                root,
                link: Some(link),
            } => write!(
                f,
                "{} is a link to {}, outside {}",
                link.display(),
                target.display(),
                root.display()
            ),
            Refused::Link { link } => write!(
                f,
                "{} is a link, and no link is followed here",
                link.display()
            ),
            Refused::Io(e) => write!(f, "{e}"),
        }
    }
}

impl Root {
    /// The working folder, for relative paths and as the root (the prompt, `-e`).
    pub fn working_folder() -> Root {
        Root::default()
    }

    /// Root `dir`, relative paths from `base` (a file run: its folder, or `--root DIR`).
    pub fn new(dir: PathBuf, base: PathBuf) -> Root {
        Root {
            dir: Some(dir),
            base: Some(base),
            sealed: false,
        }
    }

    /// Root and base `dir`.
    pub fn folder(dir: PathBuf) -> Root {
        Root::new(dir.clone(), dir)
    }

    /// The folder `dir`, created if missing, where no link is followed: a cache. A `dir` that is
    /// itself a link is refused.
    pub fn sealed(dir: &Path) -> Result<Root, Refused> {
        refuse_link(dir)?;
        std::fs::create_dir_all(dir)?;
        refuse_link(dir)?;
        Ok(Root {
            sealed: true,
            ..Root::folder(dir.to_path_buf())
        })
    }

    /// The root of a file run from `folder`: this root if it names one (`--root`), else the
    /// folder; relative paths from the folder.
    pub fn for_file(&self, folder: PathBuf) -> Root {
        match self.dir {
            Some(_) => self.with_base(folder),
            None => Root::folder(folder),
        }
    }

    /// The same root, relative paths from `base`.
    pub fn with_base(&self, base: PathBuf) -> Root {
        Root {
            base: Some(base),
            ..self.clone()
        }
    }

    /// The root folder, resolved.
    pub fn dir(&self) -> io::Result<PathBuf> {
        match &self.dir {
            Some(dir) => dir.canonicalize(),
            None => std::env::current_dir()?.canonicalize(),
        }
    }

    fn base(&self) -> io::Result<PathBuf> {
        match &self.base {
            Some(base) => base.canonicalize(),
            None => std::env::current_dir()?.canonicalize(),
        }
    }
}

fn refuse_link(path: &Path) -> Result<(), Refused> {
    match std::fs::symlink_metadata(path) {
        Ok(meta) if meta.file_type().is_symlink() => Err(Refused::Link {
            link: path.to_path_buf(),
        }),
        _ => Ok(()),
    }
}

/// `path` with `.` and `..` taken back as written, without looking at the disk.
fn lexical(path: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for part in path.components() {
        match part {
            Component::CurDir => {}
            Component::ParentDir => {
                out.pop();
            }
            other => out.push(other),
        }
    }
    out
}

/// Opens `path` (relative to the root's base) for `access`, when it leads to a file under the
/// root.
pub fn open(root: &Root, path: &Path, access: Access) -> Result<Opened, Refused> {
    let dir = root.dir()?;
    if root.sealed {
        refuse_link(root.dir.as_deref().unwrap_or(&dir))?;
    }
    let written = lexical(&root.base()?.join(path));
    let outside = |target: PathBuf, link: Option<PathBuf>| Refused::Outside {
        target,
        root: dir.clone(),
        link,
    };
    if !written.starts_with(&dir) {
        return Err(outside(written, None));
    }
    let not_a_file = || io::Error::new(io::ErrorKind::InvalidInput, "it names no file");
    let (mut folder, mut name) = match (written.parent(), written.file_name()) {
        (Some(folder), Some(name)) if written != dir => (folder.canonicalize()?, name.to_owned()),
        _ => return Err(not_a_file().into()),
    };
    let mut link = None;
    let mut exists = false;
    for hop in 0.. {
        let at = folder.join(&name);
        match std::fs::symlink_metadata(&at) {
            Ok(meta) if meta.file_type().is_symlink() => {
                if root.sealed {
                    return Err(Refused::Link { link: at });
                }
                if hop == MOST_LINKS {
                    return Err(io::Error::other("it is a chain of too many links").into());
                }
                let target = folder.join(std::fs::read_link(&at)?);
                let target = lexical(&target);
                link.get_or_insert(at);
                match (target.parent(), target.file_name()) {
                    (Some(parent), Some(file)) => {
                        name = file.to_owned();
                        folder = match parent.canonicalize() {
                            Ok(folder) => folder,
                            Err(_) if !parent.starts_with(&dir) => {
                                return Err(outside(target, link));
                            }
                            Err(e) => return Err(e.into()),
                        };
                    }
                    _ => return Err(not_a_file().into()),
                }
            }
            Ok(_) => {
                exists = true;
                break;
            }
            Err(e) if e.kind() == io::ErrorKind::NotFound => break,
            Err(e) => return Err(e.into()),
        }
    }
    let at = folder.join(&name);
    if !folder.starts_with(&dir) {
        return Err(outside(at, link));
    }
    let mut options = OpenOptions::new();
    match access {
        Access::Read => options.read(true),
        Access::Write => options.write(true).create(true).truncate(true),
        Access::Update => options.read(true).write(true).create(true).truncate(false),
    };
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        // Not blocking in `open`: the open of a FIFO with no writer would wait where Ctrl-C
        // cannot reach it (its reads wait in `read`'s poll instead); regular files ignore it.
        let nonblocking = match access {
            Access::Read => libc::O_NONBLOCK,
            Access::Write | Access::Update => 0,
        };
        options.custom_flags(libc::O_NOFOLLOW | nonblocking);
    }
    let file = options.open(&at)?;
    if file.metadata()?.is_dir() {
        return Err(io::Error::new(io::ErrorKind::IsADirectory, "it is a folder").into());
    }
    Ok(Opened {
        file,
        path: at,
        replaced: exists && access == Access::Write,
    })
}
