//! The secret of this installation that signs the chunks of its cache files (see the heap
//! wing's `cache_file`): 32 random bytes in the user's data folder (`grundy/cache-key`), made
//! on first use, readable by its owner only.
//!
//! A cache file is something people copy and share, and a CRC only finds accidents: whoever edits
//! a file can recompute it. A chunk's HMAC-SHA256 under this secret can be made only by a run
//! that knows the secret, so a chunk that verifies holds values this installation computed (or
//! read from a file that verified). The secret never leaves the data folder: a cache copied to
//! another machine is recomputed there (with a warning) and signed with that machine's secret.

use std::fs::OpenOptions;
use std::io::{self, Read, Write};
use std::path::{Path, PathBuf};

/// The bytes of a secret.
pub const SECRET_BYTES: usize = 32;

/// The secret that signs an installation's cache files.
#[derive(Clone, PartialEq, Eq)]
pub struct CacheKey(pub(super) [u8; SECRET_BYTES]);

impl std::fmt::Debug for CacheKey {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("CacheKey(..)")
    }
}

impl CacheKey {
    /// Where this installation keeps its secret: `grundy/cache-key` in the user's data folder.
    pub fn installation_path() -> io::Result<PathBuf> {
        let data = dirs::data_dir().ok_or_else(|| {
            io::Error::other("there is no data folder for the cache's key (set HOME)")
        })?;
        Ok(data.join("grundy").join("cache-key"))
    }

    /// This installation's secret, made on first use.
    pub fn installation() -> io::Result<CacheKey> {
        CacheKey::at(&CacheKey::installation_path()?)
    }

    /// The secret in the file at `path`, made there when missing (its folder too, owner-only).
    /// A file that is a link, that others may read, or that is not a secret is refused.
    pub fn at(path: &Path) -> io::Result<CacheKey> {
        match read_secret(path) {
            Err(e) if e.kind() == io::ErrorKind::NotFound => {
                make_secret(path)?;
                read_secret(path)
            }
            read => read,
        }
    }
}

fn owner_only(options: &mut OpenOptions) {
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.mode(0o600).custom_flags(libc::O_NOFOLLOW);
    }
    #[cfg(not(unix))]
    let _ = options;
}

fn read_secret(path: &Path) -> io::Result<CacheKey> {
    let refused = |why: &str| io::Error::other(format!("{}: {why}", path.display()));
    let mut options = OpenOptions::new();
    options.read(true);
    owner_only(&mut options);
    let mut file = options.open(path).map_err(|e| match e.raw_os_error() {
        #[cfg(unix)]
        Some(libc::ELOOP) => refused("the cache's key is a link; it must be a file of its own"),
        _ => e,
    })?;
    let meta = file.metadata()?;
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        if meta.permissions().mode() & 0o077 != 0 {
            return Err(refused(
                "others may read or change the cache's key: `chmod 600` it (or delete it, and the \
                 caches are recomputed)",
            ));
        }
    }
    let mut secret = [0u8; SECRET_BYTES];
    let mut rest = Vec::new();
    if meta.len() != SECRET_BYTES as u64
        || file.read_exact(&mut secret).is_err()
        || file.read_to_end(&mut rest)? != 0
    {
        return Err(refused(
            "this is not a cache key (delete it, and a new one is made)",
        ));
    }
    Ok(CacheKey(secret))
}

/// Writes a new secret to `path` unless another run made one first: the bytes go to a file of
/// its own, which is then linked into place (a link never replaces a file), so no run reads
/// half a secret.
fn make_secret(path: &Path) -> io::Result<()> {
    let folder = path.parent().unwrap_or(Path::new("."));
    let mut builder = std::fs::DirBuilder::new();
    builder.recursive(true);
    #[cfg(unix)]
    std::os::unix::fs::DirBuilderExt::mode(&mut builder, 0o700);
    builder.create(folder)?;
    let mut secret = [0u8; SECRET_BYTES];
    let mut draft_name = [0u8; 8];
    for bytes in [&mut secret[..], &mut draft_name[..]] {
        getrandom::fill(bytes).map_err(|e| io::Error::other(e.to_string()))?;
    }
    let draft = folder.join(format!("cache-key.{}.new", u64::from_le_bytes(draft_name)));
    let mut options = OpenOptions::new();
    options.write(true).create_new(true);
    owner_only(&mut options);
    let written = options.open(&draft).and_then(|mut file| {
        file.write_all(&secret)?;
        file.sync_all()
    });
    let linked = written.and_then(|()| std::fs::hard_link(&draft, path));
    let _ = std::fs::remove_file(&draft);
    match linked {
        Err(e) if e.kind() == io::ErrorKind::AlreadyExists => Ok(()),
        linked => linked,
    }
}
