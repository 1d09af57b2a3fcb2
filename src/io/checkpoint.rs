/*!
Checkpoints of long runs.

A checkpoint is two files:
- `FILE`: a small JSON document (position, rare table, space, verified frontier, rollbacks,
  seconds so far), followed by a line `crc32=XXXXXXXX` of the JSON bytes, written atomically;
- `FILE.values`: every value `G(0..values)` as u16 little endian, append-only (a
  [`ValueFile`]). The JSON records how many values count and the CRC-32 of their bytes. A run
  keeps its older values only there (see [`crate::values::history`]); statistics and the period
  search are rebuilt from it on resume, in the same pass that checks its CRC.

Saving appends the new values to `FILE.values` and fsyncs it (the run does this first), then
replaces `FILE`. A run killed at
any moment leaves a `FILE` that matches a prefix of `FILE.values` (a longer tail is cut on resume),
so resuming reproduces exactly what an uninterrupted run computes. A corrupt, truncated or
foreign checkpoint is refused with the reason, and the files are left as they are.
*/

use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use super::write_atomic;
use crate::values::Value;
use crate::values::history::ValueFile;

const FORMAT: &str = "grundy-checkpoint-v1";

/// A value that a verifier found wrong and the run replaced.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Rollback {
    pub heap: u64,
    pub claimed: Value,
    pub exact: Value,
    /// The exact value is rare: a new entry of the rare table.
    pub new_rare: bool,
    /// Claimed values discarded with it (from `heap` to the end of the chunk).
    pub discarded: u64,
}

/// The state a run needs to go on.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Checkpoint {
    pub format: String,
    pub game: String,
    pub space: String,
    /// Values saved in `FILE.values`.
    pub values: u64,
    pub values_crc32: u32,
    /// Every value below this is proven exact.
    pub verified_to: u64,
    pub rares: Vec<(u64, Value)>,
    pub rollbacks: Vec<Rollback>,
    /// Seconds of computation before this checkpoint (for rates across resumes).
    pub seconds: f64,
}

/// Why a checkpoint was refused or could not be written.
#[derive(Debug, thiserror::Error)]
pub enum CheckpointError {
    #[error("checkpoint {path}: {reason}")]
    Refused { path: String, reason: String },
    #[error("checkpoint {path}: {source}")]
    Io {
        path: String,
        source: std::io::Error,
    },
    #[error(transparent)]
    Write(#[from] super::WriteError),
}

/// The values file beside a checkpoint.
pub fn values_path(path: &Path) -> PathBuf {
    let mut name = path.as_os_str().to_owned();
    name.push(".values");
    PathBuf::from(name)
}

impl Checkpoint {
    pub fn new(game: &str, space: &str) -> Checkpoint {
        Checkpoint {
            format: FORMAT.into(),
            game: game.into(),
            space: space.into(),
            values: 0,
            values_crc32: 0,
            verified_to: 0,
            rares: Vec::new(),
            rollbacks: Vec::new(),
            seconds: 0.0,
        }
    }

    /// Records `values` (durable: see [`ValueFile::sync`]) as the checkpoint's values and
    /// replaces the JSON atomically.
    ///
    /// # Errors
    /// [`CheckpointError`] on any I/O failure; the previous checkpoint then still stands.
    pub fn save(&mut self, path: &Path, values: &ValueFile) -> Result<(), CheckpointError> {
        let previous = (self.values, self.values_crc32);
        self.values = values.len();
        self.values_crc32 = values.crc32();
        let result = serde_json::to_string(self)
            .map_err(|e| CheckpointError::Io {
                path: path.display().to_string(),
                source: std::io::Error::other(e),
            })
            .and_then(|json| {
                Ok(write_atomic(path, |w| {
                    writeln!(w, "{json}\ncrc32={:08x}", crc32fast::hash(json.as_bytes()))
                })?)
            });
        if result.is_err() {
            (self.values, self.values_crc32) = previous;
        }
        result
    }

    /// Writes a new checkpoint whose values are `values` (replacing any values file there).
    ///
    /// # Errors
    /// [`CheckpointError`] on any I/O failure.
    pub fn save_new(&mut self, path: &Path, values: &[Value]) -> Result<(), CheckpointError> {
        let vpath = values_path(path);
        let io = |source| CheckpointError::Io {
            path: vpath.display().to_string(),
            source,
        };
        let mut file = ValueFile::create(&vpath).map_err(io)?;
        file.append(values).map_err(io)?;
        file.sync().map_err(io)?;
        self.save(path, &file)
    }

    /// Loads a checkpoint and opens its values file, checking both CRCs and cutting a stale
    /// tail; every saved value is shown to `visit(first_heap, values)` on the way, in order.
    ///
    /// # Errors
    /// [`CheckpointError::Refused`] with the reason if anything does not check out.
    pub fn load(
        path: &Path,
        visit: &mut dyn FnMut(u64, &[Value]),
    ) -> Result<(Checkpoint, ValueFile), CheckpointError> {
        let shown = path.display().to_string();
        let refuse = |reason: String| CheckpointError::Refused {
            path: shown.clone(),
            reason,
        };
        let text =
            std::fs::read_to_string(path).map_err(|e| refuse(format!("cannot read: {e}")))?;
        let (json, crc_line) = text
            .trim_end()
            .rsplit_once('\n')
            .ok_or_else(|| refuse("truncated: no crc32 line".into()))?;
        let expected = format!("crc32={:08x}", crc32fast::hash(json.as_bytes()));
        if crc_line.trim() != expected {
            return Err(refuse(
                "corrupt: its crc32 line does not match its content".into(),
            ));
        }
        let checkpoint: Checkpoint = serde_json::from_str(json)
            .map_err(|e| refuse(format!("not a grundy checkpoint: {e}")))?;
        if checkpoint.format != FORMAT {
            return Err(refuse(format!(
                "unknown format {:?} (expected {FORMAT})",
                checkpoint.format
            )));
        }
        let file = ValueFile::open_checked(
            &values_path(path),
            checkpoint.values,
            checkpoint.values_crc32,
            visit,
        )
        .map_err(refuse)?;
        Ok((checkpoint, file))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Write;

    fn load(path: &Path) -> Result<(Checkpoint, Vec<Value>), CheckpointError> {
        let mut values = Vec::new();
        let (c, _) = Checkpoint::load(path, &mut |_, chunk| values.extend_from_slice(chunk))?;
        Ok((c, values))
    }

    #[test]
    fn save_load_and_refuse_damage() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("run.ckpt");
        let mut file = ValueFile::create(&values_path(&path)).unwrap();
        let mut c = Checkpoint::new(".6", "0x1ee");
        file.append(&[0, 0, 1, 2]).unwrap();
        c.save(&path, &file).unwrap();
        c.verified_to = 7;
        file.append(&[0, 1, 2, 3]).unwrap();
        c.save(&path, &file).unwrap();
        drop(file);
        let (loaded, values) = load(&path).unwrap();
        assert_eq!((loaded, values), (c.clone(), vec![0, 0, 1, 2, 0, 1, 2, 3]));
        // A stale tail (killed between the append and the JSON) is ignored.
        std::fs::OpenOptions::new()
            .append(true)
            .open(values_path(&path))
            .unwrap()
            .write_all(&[9, 9])
            .unwrap();
        assert_eq!(load(&path).unwrap().1.len(), 8);
        // Damage to either file is refused.
        let text = std::fs::read_to_string(&path).unwrap();
        std::fs::write(
            &path,
            text.replace("\"verified_to\":7", "\"verified_to\":8"),
        )
        .unwrap();
        assert!(load(&path).unwrap_err().to_string().contains("corrupt"));
        std::fs::write(&path, &text).unwrap();
        let mut v = std::fs::read(values_path(&path)).unwrap();
        v[3] ^= 1;
        std::fs::write(values_path(&path), v).unwrap();
        assert!(load(&path).unwrap_err().to_string().contains("crc32"));
        std::fs::write(&path, "{}\n").unwrap();
        assert!(load(&path).is_err());
    }
}
