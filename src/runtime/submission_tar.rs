//! A submission as an uncompressed tar archive, for Docker's "upload archive" endpoint (a
//! daemon that cannot see this host's files): built from the submission's folder on disk
//! as it is sent ([`Submission::tar_stream`]), so that memory holds a few pieces of
//! [`TAR_CHUNK`] bytes at a time, never the archive.

use std::io::{self, Write};

use bytes::Bytes;
use futures_util::Stream;
use tokio::sync::mpsc;

use super::submission::Submission;

/// Size of one piece of the streamed archive, in bytes.
pub const TAR_CHUNK: usize = 256 * 1024;

/// Pieces built ahead of the reader (the memory a stream holds: this many times
/// [`TAR_CHUNK`]).
pub const TAR_QUEUE: usize = 4;

impl Submission {
    /// Writes the files as an uncompressed tar archive into `out` (paths relative, parent
    /// folders included, owned by `uid:gid`, mtime 0), reading each file from disk as it
    /// goes. Returns `out`. Errors: a file cannot be read, or `out` refused a write.
    pub fn write_tar<W: Write>(&self, out: W, uid: u64, gid: u64) -> io::Result<W> {
        let mut builder = tar::Builder::new(out);
        let mut dirs = std::collections::BTreeSet::new();
        for file in self.files() {
            let mut prefix = String::new();
            let parts: Vec<&str> = file.path.split('/').collect();
            for part in &parts[..parts.len() - 1] {
                prefix.push_str(part);
                prefix.push('/');
                if dirs.insert(prefix.clone()) {
                    let mut header = header(tar::EntryType::Directory, 0o755, 0, uid, gid);
                    builder.append_data(&mut header, &prefix, io::empty())?;
                }
            }
            let mut header = header(tar::EntryType::Regular, file.mode, file.len, uid, gid);
            let data = std::fs::File::open(self.path_of(file))?;
            builder.append_data(&mut header, &file.path, io::Read::take(data, file.len))?;
        }
        builder.into_inner()
    }

    /// The archive of [`Submission::write_tar`] as a stream of pieces of [`TAR_CHUNK`]
    /// bytes, built on a blocking thread at most [`TAR_QUEUE`] pieces ahead of the reader
    /// (memory does not grow with the submission). Must be called inside a Tokio runtime.
    /// An item is an error when a file could not be read; the stream ends after it.
    pub fn tar_stream(&self, uid: u64, gid: u64) -> impl Stream<Item = io::Result<Bytes>> + Send + 'static {
        let (tx, rx) = mpsc::channel::<io::Result<Bytes>>(TAR_QUEUE);
        let submission = self.clone();
        tokio::task::spawn_blocking(move || {
            let out = io::BufWriter::with_capacity(TAR_CHUNK, Pieces { tx: tx.clone() });
            let written = submission.write_tar(out, uid, gid).and_then(|mut out| out.flush());
            if let Err(e) = written {
                // the reader may be gone already (it stopped reading): nothing to tell
                let _ = tx.blocking_send(Err(e));
            }
        });
        futures_util::stream::unfold(rx, |mut rx| async move { rx.recv().await.map(|item| (item, rx)) })
    }
}

/// Sends what is written as pieces on a channel, waiting while it is full.
struct Pieces {
    tx: mpsc::Sender<io::Result<Bytes>>,
}

impl Write for Pieces {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.tx
            .blocking_send(Ok(Bytes::copy_from_slice(buf)))
            .map_err(|_| io::Error::new(io::ErrorKind::BrokenPipe, "the archive's reader stopped"))?;
        Ok(buf.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

fn header(kind: tar::EntryType, mode: u32, size: u64, uid: u64, gid: u64) -> tar::Header {
    let mut header = tar::Header::new_gnu();
    header.set_entry_type(kind);
    header.set_mode(mode);
    header.set_size(size);
    header.set_uid(uid);
    header.set_gid(gid);
    header.set_mtime(0);
    header
}

#[cfg(test)]
mod tests {
    use super::*;
    use futures_util::StreamExt;
    use sha2::{Digest, Sha256};

    fn submission(files: &[(&str, Vec<u8>)]) -> Submission {
        let dir = tempfile::tempdir().unwrap();
        for (path, bytes) in files {
            let target = dir.path().join(path);
            std::fs::create_dir_all(target.parent().unwrap()).unwrap();
            std::fs::write(target, bytes).unwrap();
        }
        Submission::load(dir.path(), &Default::default()).unwrap()
    }

    #[tokio::test]
    async fn the_stream_comes_in_bounded_pieces_and_holds_every_byte() {
        // a file of several pieces, not a multiple of the piece size
        let big: Vec<u8> = (0..(3 * TAR_CHUNK + 12_345)).map(|i| (i * 31 % 251) as u8).collect();
        let sub = submission(&[("bot.py", b"print(1)\n".to_vec()), ("w/big.bin", big.clone())]);
        let mut stream = std::pin::pin!(sub.tar_stream(1000, 1000));
        let mut archive = Vec::new();
        while let Some(piece) = stream.next().await {
            let piece = piece.unwrap();
            assert!(piece.len() <= TAR_CHUNK, "a piece of {} bytes", piece.len());
            archive.extend_from_slice(&piece);
        }
        assert_eq!(archive, sub.write_tar(Vec::new(), 1000, 1000).unwrap(), "the stream is the archive");
        let mut read = tar::Archive::new(&archive[..]);
        let mut seen = Vec::new();
        for entry in read.entries().unwrap() {
            let mut entry = entry.unwrap();
            let path = entry.path().unwrap().to_string_lossy().into_owned();
            let mut bytes = Vec::new();
            io::Read::read_to_end(&mut entry, &mut bytes).unwrap();
            if path == "w/big.bin" {
                assert_eq!(hex::encode(Sha256::digest(&bytes)), hex::encode(Sha256::digest(&big)));
            }
            seen.push(path);
        }
        assert_eq!(seen, ["bot.py", "w/", "w/big.bin"]);
    }
}
