/*!
Files: atomic writes, rare tables, value dumps.

Every file `grundy` writes goes through [`write_atomic`]: a temporary file in the target's folder,
fsync, rename, fsync of the folder. A crash or a full disk leaves either the old file or the new
one, never half of one, and the temporary file is removed on error.
*/

pub mod checkpoint;
pub mod rare_table;
pub mod values_file;

use std::fs::File;
use std::io::{self, BufWriter, Write};
use std::path::{Path, PathBuf};

pub use rare_table::{RareTable, TableError, TableFormat};
pub use values_file::{ValuesDump, ValuesFormat};

/// A file could not be written; nothing at `path` was changed.
#[derive(Debug, thiserror::Error)]
#[error("cannot write {}: {source}", path.display())]
pub struct WriteError {
    pub path: PathBuf,
    #[source]
    pub source: io::Error,
}

/// The text of `path`, or `None` if there is no such file (a results file not written yet).
///
/// # Errors
/// Any other I/O failure.
pub fn read_if_present(path: &Path) -> io::Result<Option<String>> {
    match std::fs::read_to_string(path) {
        Ok(text) => Ok(Some(text)),
        Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(None),
        Err(e) => Err(e),
    }
}

/// The JSON document at `path` read as a `T`, or `None` if there is no such file. `what` names
/// such a file in the error ("a cube ledger").
///
/// # Errors
/// A line for an I/O failure or a file that is not `what`.
pub fn read_json_if_present<T: serde::de::DeserializeOwned>(
    path: &Path,
    what: &str,
) -> Result<Option<T>, String> {
    let Some(text) = read_if_present(path).map_err(|e| format!("cannot read: {e}"))? else {
        return Ok(None);
    };
    serde_json::from_str(&text)
        .map(Some)
        .map_err(|e| format!("not {what}: {e}"))
}

/// The last part of `path` as text (lossy), empty when it has none: how results files name
/// each other (a rung its ledger, a certificate its ledger, a task its share).
pub fn file_name(path: &Path) -> String {
    path.file_name()
        .map_or_else(String::new, |n| n.to_string_lossy().into_owned())
}

/// Writes `value` to `path` atomically as indented JSON with a final newline.
///
/// # Errors
/// [`WriteError`] as [`write_atomic`]: the old content of `path` is kept.
pub fn write_json_atomic<T: serde::Serialize>(path: &Path, value: &T) -> Result<(), WriteError> {
    write_atomic(path, |w| {
        serde_json::to_writer_pretty(&mut *w, value).map_err(io::Error::other)?;
        w.write_all(b"\n")
    })
}

/// Opens (creating it and its folder if missing) the lock file beside `path`, `.NAME.lock`, which
/// runs sharing `path` lock while they read and write it. Returns the file and its path; the
/// error is a message fit to follow `path` in a one-line error.
///
/// # Errors
/// The folder or the lock file cannot be made.
pub fn lock_file_beside(path: &Path) -> Result<(std::fs::File, PathBuf), String> {
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    std::fs::create_dir_all(dir).map_err(|e| format!("cannot create its folder: {e}"))?;
    let name = path
        .file_name()
        .map_or_else(|| "file".into(), |n| n.to_string_lossy().into_owned());
    let lock_path = dir.join(format!(".{name}.lock"));
    let lock = std::fs::OpenOptions::new()
        .create(true)
        .truncate(false)
        .write(true)
        .open(&lock_path)
        .map_err(|e| format!("cannot open {}: {e}", lock_path.display()))?;
    Ok((lock, lock_path))
}

/// Takes `path` for this process: the lock file beside it ([`lock_file_beside`]), locked
/// without waiting and held while the returned file lives. For files one run works on at a time
/// (cube ledgers, bounds ladders): two runs would each save their own state over the other's.
///
/// # Errors
/// A message fit to follow `path` in a one-line error: another run holds it, or the lock file
/// cannot be made or locked.
pub fn take_lock_beside(path: &Path) -> Result<std::fs::File, String> {
    let (lock, lock_path) = lock_file_beside(path)?;
    match lock.try_lock() {
        Ok(()) => Ok(lock),
        Err(std::fs::TryLockError::WouldBlock) => Err(format!(
            "in use by another run (it holds {})",
            lock_path.display()
        )),
        Err(std::fs::TryLockError::Error(e)) => {
            Err(format!("cannot lock {}: {e}", lock_path.display()))
        }
    }
}

/// Writes `path` atomically with the bytes `write` produces.
///
/// # Errors
/// [`WriteError`] for any I/O failure (no folder, full disk, no permission); the old content of
/// `path`, if any, is kept and the temporary file is removed.
pub fn write_atomic(
    path: &Path,
    write: impl FnOnce(&mut dyn Write) -> io::Result<()>,
) -> Result<(), WriteError> {
    let fail = |source| WriteError {
        path: path.to_path_buf(),
        source,
    };
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    let name = file_name(path);
    let tmp = tempfile::Builder::new()
        .prefix(&format!(".{name}."))
        .suffix(".tmp")
        .tempfile_in(dir)
        .map_err(fail)?;
    let mut out = BufWriter::new(tmp);
    write(&mut out).map_err(fail)?;
    let tmp = out.into_inner().map_err(|e| fail(e.into_error()))?;
    // A temporary file is private (0600); the result should read like any file the user writes:
    // the old file's permissions, or rw-r--r-- for a new one.
    let permissions = std::fs::metadata(path)
        .map(|m| m.permissions())
        .or_else(|_| {
            tmp.as_file().metadata().map(|m| {
                let mut p = m.permissions();
                #[cfg(unix)]
                std::os::unix::fs::PermissionsExt::set_mode(&mut p, 0o644);
                p
            })
        });
    if let Ok(p) = permissions {
        tmp.as_file().set_permissions(p).map_err(fail)?;
    }
    tmp.as_file().sync_all().map_err(fail)?;
    tmp.persist(path).map_err(|e| fail(e.error))?;
    // Make the rename itself durable; not every platform can open a folder, so ignore failure.
    if let Ok(d) = File::open(dir) {
        let _ = d.sync_all();
    }
    Ok(())
}

/// Writes to `path` atomically, or to standard output when `path` is `None`.
///
/// # Errors
/// As [`write_atomic`]; a failing standard output is reported with the path `-`.
pub fn write_output(
    path: Option<&Path>,
    write: impl FnOnce(&mut dyn Write) -> io::Result<()>,
) -> Result<(), WriteError> {
    match path {
        Some(p) => write_atomic(p, write),
        None => {
            let stdout = io::stdout();
            let mut lock = BufWriter::new(stdout.lock());
            write(&mut lock)
                .and_then(|()| lock.flush())
                .map_err(|source| WriteError {
                    path: "-".into(),
                    source,
                })
        }
    }
}
