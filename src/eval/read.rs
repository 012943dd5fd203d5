//! `read(path)`: the integers of a text file, streamed in blocks, so that what it holds is the
//! list it builds, and the text it reads and the list are charged to the session's memory ledger
//! (a file without end, such as `/dev/zero`, stops at the limit, and so do several reads whose
//! lists are kept together) and the list counts against the state limit.

use std::io::Read;

use crate::error::Error;
use crate::files::{self, Access, Root};
use crate::game::budget::{self, Charge};
use crate::span::Span;

use super::expr::over_memory;
use super::value::Value;

/// How many bytes are read at once.
const BLOCK: usize = 1 << 16;

/// What bounds a read: the most integers, the charge its bytes go on (the block read and the
/// list), and a check for Ctrl-C.
pub struct ReadLimits<'a> {
    pub max_elements: usize,
    pub charge: Charge,
    pub interrupted: &'a dyn Fn() -> bool,
    /// Where files may be read.
    pub root: &'a Root,
}

/// Every integer in the file at `path` (a `-` right before digits makes it negative), in order.
pub fn integers(path: &str, span: Span, limits: &mut ReadLimits<'_>) -> Result<Vec<Value>, Error> {
    let cannot = |e: String| {
        Error::invalid(
            format!("cannot read `{path}`: {e}"),
            span,
            "the path is relative to the folder of the file run (at the prompt and for `-e`, the folder grundy runs in)",
        )
    };
    let mut file = files::open(limits.root, std::path::Path::new(path), Access::Read)
        .map_err(|refused| Error::file(refused, path, span, cannot))?
        .file;
    let regular = file
        .metadata()
        .map_err(|e| cannot(e.to_string()))?
        .is_file();
    let mut block = vec![0u8; BLOCK];
    let mut numbers: Vec<Value> = Vec::new();
    // The integer being read: its sign and digits so far, without leading zeros.
    let mut token = String::new();
    // A `-` that ended the last block: it starts a negative number if a digit follows.
    let mut minus = false;
    // The text read counts as held, so that a file without end stops at the limit.
    let mut read_bytes = 0usize;
    loop {
        if !regular {
            wait_readable(&file, limits.interrupted, &|e| cannot(e.to_string()))?;
        }
        let n = match file.read(&mut block) {
            Ok(0) => break,
            Ok(n) => n,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => continue,
            Err(e) => return Err(cannot(e.to_string())),
        };
        if (limits.interrupted)() {
            return Err(Error::Interrupted);
        }
        read_bytes += n;
        let held = read_bytes + budget::vector(&numbers, 0) + budget::boxed(BLOCK);
        limits
            .charge
            .set(held)
            .map_err(|over| over_memory(over, span))?;
        for &byte in &block[..n] {
            if byte.is_ascii_digit() {
                if minus {
                    token.push('-');
                    minus = false;
                }
                if token.ends_with('0') && token.trim_start_matches('-') == "0" {
                    token.pop();
                }
                token.push(byte as char);
                if token.len() > 21 {
                    return Err(too_wide(path, &token, span));
                }
                continue;
            }
            if !token.is_empty() {
                push(&mut numbers, &mut token, path, span, limits)?;
            }
            minus = byte == b'-';
        }
    }
    if !token.is_empty() {
        push(&mut numbers, &mut token, path, span, limits)?;
    }
    Ok(numbers)
}

/// Waits until `file` (not a regular file: a FIFO, a device) has bytes to read or has ended,
/// looking at the interrupt every 50 ms. A FIFO opened before any writer has come does not
/// count as ended (Linux reports the end only once a writer has come and gone).
#[cfg(unix)]
fn wait_readable(
    file: &std::fs::File,
    interrupted: &dyn Fn() -> bool,
    cannot: &dyn Fn(std::io::Error) -> Error,
) -> Result<(), Error> {
    use std::os::fd::AsRawFd;
    loop {
        if interrupted() {
            return Err(Error::Interrupted);
        }
        let mut wanted = libc::pollfd {
            fd: file.as_raw_fd(),
            events: libc::POLLIN,
            revents: 0,
        };
        // SAFETY: `wanted` is one valid `pollfd`, alive for the whole call, and `file` keeps
        // its descriptor open.
        match unsafe { libc::poll(&mut wanted, 1, 50) } {
            0 => {}
            -1 => {
                let e = std::io::Error::last_os_error();
                if e.kind() != std::io::ErrorKind::Interrupted {
                    return Err(cannot(e));
                }
            }
            _ => return Ok(()),
        }
    }
}

#[cfg(not(unix))]
fn wait_readable(
    _file: &std::fs::File,
    _interrupted: &dyn Fn() -> bool,
    _cannot: &dyn Fn(std::io::Error) -> Error,
) -> Result<(), Error> {
    Ok(())
}

fn push(
    numbers: &mut Vec<Value>,
    token: &mut String,
    path: &str,
    span: Span,
    limits: &mut ReadLimits<'_>,
) -> Result<(), Error> {
    let n: i64 = token.parse().map_err(|_| too_wide(path, token, span))?;
    token.clear();
    if numbers.len() >= limits.max_elements {
        return Err(Error::TooLarge {
            what: format!("the list read from `{path}`"),
            size: format!("more than {}", limits.max_elements),
            limit: limits.max_elements,
            span,
        });
    }
    if numbers.len() == numbers.capacity() {
        let held = budget::vector(numbers, 1) + budget::boxed(BLOCK);
        limits
            .charge
            .set(held)
            .map_err(|over| over_memory(over, span))?;
    }
    numbers.push(Value::Int(n));
    Ok(())
}

fn too_wide(path: &str, token: &str, span: Span) -> Error {
    let shown = if token.len() > 21 {
        format!("{}…", &token[..21])
    } else {
        token.to_string()
    };
    Error::invalid(
        format!("`{path}` holds `{shown}`, which does not fit in 64 bits"),
        span,
        "integers are 64-bit signed",
    )
}
