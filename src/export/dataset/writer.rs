//! One Parquet file (snappy-compressed) written batch by batch: to `FILE.tmp` beside the
//! target, renamed to `FILE` only by [`Writer::finish`], so a failed or interrupted export
//! never leaves a partial table under the name asked for.

use std::fs::File;
use std::path::{Path, PathBuf};

use arrow_array::RecordBatch;
use parquet::arrow::ArrowWriter;
use parquet::basic::Compression;
use parquet::file::properties::WriterProperties;

/// Rows buffered per Parquet row group (bounds memory: a decision row is about 1 KB before
/// compression).
pub const ROW_GROUP: usize = 65_536;

/// An open Parquet file of one schema.
pub struct Writer {
    inner: ArrowWriter<File>,
    tmp: PathBuf,
    path: PathBuf,
    rows: usize,
}

impl Writer {
    /// Creates `path.tmp` for tables shaped like `schema_of` (its rows are not written).
    pub fn create(path: &Path, schema_of: &RecordBatch) -> Result<Writer, String> {
        let mut tmp = path.as_os_str().to_owned();
        tmp.push(".tmp");
        let tmp = PathBuf::from(tmp);
        let file = File::create(&tmp).map_err(|e| format!("cannot create {}: {e}", tmp.display()))?;
        let props = WriterProperties::builder()
            .set_compression(Compression::SNAPPY)
            .set_max_row_group_row_count(Some(ROW_GROUP))
            .build();
        let inner = ArrowWriter::try_new(file, schema_of.schema(), Some(props))
            .map_err(|e| format!("cannot write {}: {e}", tmp.display()))?;
        Ok(Writer { inner, tmp, path: path.to_path_buf(), rows: 0 })
    }

    /// Appends `batch` (of the schema given to [`Writer::create`]).
    pub fn write(&mut self, batch: &RecordBatch) -> Result<(), String> {
        self.rows += batch.num_rows();
        self.inner.write(batch).map_err(|e| format!("cannot write {}: {e}", self.tmp.display()))
    }

    /// Rows written so far.
    pub fn rows(&self) -> usize {
        self.rows
    }

    /// Closes the file and gives it its name; returns the rows written.
    pub fn finish(self) -> Result<usize, String> {
        self.inner.close().map_err(|e| format!("cannot write {}: {e}", self.tmp.display()))?;
        std::fs::rename(&self.tmp, &self.path)
            .map_err(|e| format!("cannot rename {} to {}: {e}", self.tmp.display(), self.path.display()))?;
        Ok(self.rows)
    }

    /// Removes the unfinished file.
    pub fn abandon(self) {
        drop(self.inner);
        let _ = std::fs::remove_file(&self.tmp);
    }
}
