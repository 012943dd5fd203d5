//! The output of a run, which stops taking text at Ctrl-C: a long answer stops printing where
//! it is, instead of being written to the end while the interrupt waits.

use std::fmt;
use std::io::{self, Write};
use std::sync::atomic::{AtomicBool, Ordering};

#[cfg(doc)]
use super::value::Value;

/// The most bytes passed on in one write, so that a long text is cut within this much of the
/// interrupt.
const CHUNK: usize = 1 << 16;

/// A writer that fails once the interrupt is raised (see [`Interruptible::write`]).
pub struct Interruptible<'o> {
    out: &'o mut dyn Write,
    interrupt: &'o AtomicBool,
}

impl<'o> Interruptible<'o> {
    pub fn new(out: &'o mut dyn Write, interrupt: &'o AtomicBool) -> Interruptible<'o> {
        Interruptible { out, interrupt }
    }
}

impl Write for Interruptible<'_> {
    /// Passes on at most [`CHUNK`] bytes, or fails when the interrupt is raised (with an error
    /// of kind `Other`: `write_all` retries one of kind `Interrupted`).
    fn write(&mut self, bytes: &[u8]) -> io::Result<usize> {
        if self.interrupt.load(Ordering::Relaxed) {
            return Err(io::Error::other("interrupted"));
        }
        self.out.write(&bytes[..bytes.len().min(CHUNK)])
    }

    fn flush(&mut self) -> io::Result<()> {
        self.out.flush()
    }
}

/// Writes `text` and a newline as the text is made (a list of millions is never held as one
/// string, see [`Value`]'s `Display`), stopping where `out` fails.
pub fn write_line(out: &mut dyn Write, text: &dyn fmt::Display) {
    let mut buffered = io::BufWriter::with_capacity(CHUNK, out);
    let _ = writeln!(buffered, "{text}");
    let _ = buffered.flush();
}
