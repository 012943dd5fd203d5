//! A folder where results are kept on disk between runs (`--cache DIR`, `:cache DIR`), signed
//! with this installation's secret ([`super::cache_key`]). It is shared vocabulary: the limits of
//! a run carry it, and each kind of result (the heap sequences of [`super::heap`] today) names
//! its own files in it and says how they are laid out and checked.

use std::fs::File;
use std::io;
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::time::Duration;

pub use super::cache_key::CacheKey;
use crate::files::{self, Access, Refused, Root};

/// How often a growing sequence is saved by default (longer when saving itself takes long).
const SAVE_EVERY: Duration = Duration::from_secs(5);

/// A folder where results are kept as they grow, with the warnings about its files that
/// nobody has read yet.
#[derive(Debug)]
pub struct Cache {
    dir: PathBuf,
    /// The folder, following no link.
    root: Root,
    secret: CacheKey,
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
    /// When only its tail was damaged: how many values before it were kept.
    pub kept: Option<usize>,
}

impl Cache {
    /// The cache in folder `dir`, which is created if missing, signed with this installation's
    /// secret. A `dir` that is a link is refused.
    pub fn open(dir: &Path) -> io::Result<Cache> {
        Cache::with_key(dir, CacheKey::installation()?)
    }

    /// The cache in folder `dir`, signed with `secret`.
    pub fn with_key(dir: &Path, secret: CacheKey) -> io::Result<Cache> {
        let root = Root::sealed(dir).map_err(|refused| match refused {
            Refused::Io(e) => e,
            refused => io::Error::other(format!(
                "{refused}: name the folder it leads to, or another one"
            )),
        })?;
        Ok(Cache {
            dir: dir.to_path_buf(),
            root,
            secret,
            save_every: SAVE_EVERY,
            warnings: Mutex::default(),
        })
    }

    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// The secret the folder's files are signed with.
    pub(crate) fn secret(&self) -> &CacheKey {
        &self.secret
    }

    /// The path of the file `name` in the folder.
    pub fn path_of(&self, name: &str) -> PathBuf {
        self.dir.join(name)
    }

    /// Opens the file `name` in the folder.
    pub(crate) fn open_file(&self, name: &str, access: Access) -> io::Result<File> {
        match files::open(&self.root, Path::new(name), access) {
            Ok(opened) => Ok(opened.file),
            Err(Refused::Io(e)) => Err(e),
            Err(refused) => Err(io::Error::other(format!(
                "{refused}: the cache is not written through links"
            ))),
        }
    }

    /// The warnings since the last call, oldest first.
    pub fn take_warnings(&self) -> Vec<CacheWarning> {
        std::mem::take(&mut *self.warnings.lock().unwrap_or_else(|e| e.into_inner()))
    }

    /// A warning about the file at `path`: read and ignored (`kept` values taken before a
    /// damaged tail, or `None` for the whole file), or not written.
    pub(crate) fn warn(&self, path: &Path, reason: String, ignored: bool, kept: Option<usize>) {
        let warning = CacheWarning {
            path: path.to_path_buf(),
            reason,
            ignored,
            kept,
        };
        self.warnings
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .push(warning);
    }
}
