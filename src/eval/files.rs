//! Every file a program writes is opened here (the answers of `to "FILE"`, SVG pictures), so
//! that what may be written, and how a failure is said, has one home.

use std::fs::File;
use std::io::{BufWriter, Write};

use crate::error::Error;
use crate::span::Span;

/// A file being written, with where its errors point.
pub struct Written {
    writer: BufWriter<File>,
    path: String,
    span: Span,
}

/// Creates (or empties) the file at `path` for writing.
pub fn create(path: &str, span: Span) -> Result<Written, Error> {
    let file = File::create(path).map_err(|e| cannot_write(path, &e, span))?;
    Ok(Written {
        writer: BufWriter::new(file),
        path: path.to_string(),
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
        result.map_err(|e| cannot_write(&self.path, &e, self.span))
    }

    /// Removes the file: what an answer that stopped short wrote is not left to be taken for
    /// the whole.
    pub fn discard(self) {
        let Written { writer, path, .. } = self;
        drop(writer.into_parts());
        let _ = std::fs::remove_file(path);
    }

    /// Writes out what is buffered.
    pub fn close(mut self) -> Result<(), Error> {
        let flushed = self.writer.flush();
        self.wrote(flushed)
    }
}

fn cannot_write(path: &str, e: &std::io::Error, span: Span) -> Error {
    Error::invalid(
        format!("cannot write `{path}`: {e}"),
        span,
        "check that the folder exists and can be written",
    )
}
