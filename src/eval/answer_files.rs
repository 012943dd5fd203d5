//! The answer files of `to "FILE"` (`sequence`, `table`, `ppos`), each opened by
//! [`crate::files::open`] under the program's root, so that how a write and its failure are said
//! has one home.

use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};

use crate::error::Error;
use crate::files::{self, Access, Root};
use crate::span::Span;

/// A file being written, with where its errors point.
pub struct Written {
    writer: BufWriter<File>,
    path: String,
    /// Where the file is, for removing it.
    opened: PathBuf,
    /// The file was there before and was emptied.
    pub replaced: bool,
    span: Span,
}

/// Creates (or empties) the file at `path`, under `root`, for writing.
pub fn create(root: &Root, path: &str, span: Span) -> Result<Written, Error> {
    let cannot = |reason: String| cannot_write(path, &reason, span);
    let opened = files::open(root, Path::new(path), Access::Write)
        .map_err(|refused| Error::file(refused, path, span, cannot))?;
    Ok(Written {
        writer: BufWriter::new(opened.file),
        path: path.to_string(),
        opened: opened.path,
        replaced: opened.replaced,
        span,
    })
}

impl Written {
    pub fn write(&mut self, bytes: &[u8]) -> Result<(), Error> {
        let written = self.writer.write_all(bytes);
        self.wrote(written)
    }

    /// The file as a writer, for what writes itself; its result goes to [`Written::wrote`].
    pub fn writer(&mut self) -> &mut dyn Write {
        &mut self.writer
    }

    /// The error of a write made through [`Written::writer`], said.
    pub fn wrote(&self, result: std::io::Result<()>) -> Result<(), Error> {
        result.map_err(|e| cannot_write(&self.path, &e.to_string(), self.span))
    }

    /// Removes the file: what an answer that stopped short wrote is not left to be taken for
    /// the whole.
    pub fn discard(self) {
        let Written { writer, opened, .. } = self;
        drop(writer.into_parts());
        let _ = std::fs::remove_file(opened);
    }

    /// Writes out what is buffered.
    pub fn close(mut self) -> Result<(), Error> {
        let flushed = self.writer.flush();
        self.wrote(flushed)
    }
}

fn cannot_write(path: &str, reason: &str, span: Span) -> Error {
    Error::invalid(
        format!("cannot write `{path}`: {reason}"),
        span,
        "check that the folder exists and can be written",
    )
}
