/*!
The values of a long run, `G(0..len)`, in bounded memory.

A run of months cannot keep every value in memory (2 bytes a value: 10^11 values are 200 GB), and
it does not need to: the rule reads the *window* `G(n - W .. n)` (`W` = last rare position plus
largest take plus 1), and the verifier's pair scan reads `G(a)` for small `a` and `G(n - 1 - a)`,
usually with `a` below a few thousand. So a [`History`] keeps three parts, by heap:

- the *head* `[0, min(base, head_cap))`: always in memory (the small `a` of the pair scans);
- the *tail* `[base, len)`: in memory (the window, and whatever is not final or not stored yet);
- the middle `[head_cap, base)`: only in the [`ValueFile`] on disk. A pair scan that runs past the
  head or behind the tail (rare: the longest below 2^22 reads 431,552 pairs at n = 1,697,097) reads
  it from there.

Invariants: `base <= len`; every value below `base` is in the file (`file.len() >= base`), and the
file holds nothing but true history (it is only appended with values the run will never take
back); the head is exactly `G(0..min(base, head_cap))`.

[`Claims`] is a read-only view over the three parts (or over a plain slice) that the rule, the
verifier and the speculative generator read through: contiguous runs come back borrowed from
memory when they lie there, and read from the file otherwise.
*/

use std::borrow::Cow;
use std::fs::File;
use std::io;
use std::os::unix::fs::FileExt;
use std::path::{Path, PathBuf};

use super::Value;

/// Values per read when streaming a file.
const READ_CHUNK: usize = 1 << 20;

/// An append-only file of values `G(0..len)`, u16 little endian, with the CRC-32 of its bytes.
#[derive(Debug)]
pub struct ValueFile {
    file: File,
    path: PathBuf,
    len: u64,
    crc: crc32fast::Hasher,
}

impl ValueFile {
    /// Creates (or empties) the file at `path`.
    ///
    /// # Errors
    /// Any I/O error, with the path.
    pub fn create(path: &Path) -> io::Result<ValueFile> {
        let file = File::options()
            .create(true)
            .truncate(true)
            .read(true)
            .write(true)
            .open(path)
            .map_err(|e| with_path(path, e))?;
        Ok(ValueFile {
            file,
            path: path.to_path_buf(),
            len: 0,
            crc: crc32fast::Hasher::new(),
        })
    }

    /// An anonymous file in `dir` (removed by the system when closed).
    ///
    /// # Errors
    /// Any I/O error, with the directory.
    pub fn temporary(dir: &Path) -> io::Result<ValueFile> {
        let file = tempfile::tempfile_in(dir).map_err(|e| with_path(dir, e))?;
        Ok(ValueFile {
            file,
            path: dir.join("(spilled values)"),
            len: 0,
            crc: crc32fast::Hasher::new(),
        })
    }

    /// Opens the values `G(0..len)` of an existing file, cuts any longer tail, and checks their
    /// CRC-32 against `crc`, showing every chunk to `visit(first_heap, values)` on the way.
    ///
    /// # Errors
    /// A message for a missing, short or corrupt file.
    pub fn open_checked(
        path: &Path,
        len: u64,
        crc: u32,
        visit: &mut dyn FnMut(u64, &[Value]),
    ) -> Result<ValueFile, String> {
        let shown = path.display();
        let file = File::options()
            .read(true)
            .write(true)
            .open(path)
            .map_err(|e| format!("cannot open {shown}: {e}"))?;
        let bytes = file.metadata().map_err(|e| e.to_string())?.len();
        if bytes < 2 * len {
            return Err(format!(
                "values file {shown} has {} values, the checkpoint needs {len}",
                bytes / 2
            ));
        }
        let hasher =
            crc_of_prefix(&file, len, visit).map_err(|e| format!("cannot read {shown}: {e}"))?;
        if hasher.clone().finalize() != crc {
            return Err(format!("values file {shown} is corrupt (crc32 mismatch)"));
        }
        file.set_len(2 * len)
            .map_err(|e| format!("cannot cut the stale tail of {shown}: {e}"))?;
        Ok(ValueFile {
            file,
            path: path.to_path_buf(),
            len,
            crc: hasher,
        })
    }

    /// Values in the file.
    pub fn len(&self) -> u64 {
        self.len
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// CRC-32 of the file's bytes.
    pub fn crc32(&self) -> u32 {
        self.crc.clone().finalize()
    }

    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Appends values (not yet durable: see [`ValueFile::sync`]). On an error the file may hold
    /// part of them past `len()`; that tail is ignored and overwritten by the next append.
    ///
    /// # Errors
    /// Any I/O error, with the path.
    pub fn append(&mut self, values: &[Value]) -> io::Result<()> {
        let bytes = encode(values);
        self.file
            .write_all_at(&bytes, 2 * self.len)
            .map_err(|e| with_path(&self.path, e))?;
        self.crc.update(&bytes);
        self.len += values.len() as u64;
        Ok(())
    }

    /// Makes every appended value durable.
    ///
    /// # Errors
    /// Any I/O error, with the path.
    pub fn sync(&self) -> io::Result<()> {
        self.file.sync_data().map_err(|e| with_path(&self.path, e))
    }

    /// Keeps only `G(0..len)` (`len <= self.len()`), re-reading them for the CRC.
    ///
    /// # Errors
    /// Any I/O error, with the path.
    pub fn truncate(&mut self, len: u64) -> io::Result<()> {
        assert!(len <= self.len, "truncate past the end");
        self.file
            .set_len(2 * len)
            .map_err(|e| with_path(&self.path, e))?;
        let crc =
            crc_of_prefix(&self.file, len, &mut |_, _| {}).map_err(|e| with_path(&self.path, e))?;
        (self.len, self.crc) = (len, crc);
        Ok(())
    }

    /// Appends `G(from..to)` to `out`.
    ///
    /// # Panics
    /// If the range is not in the file, or the disk fails while reading: the run cannot go on
    /// without the values, and everything saved so far stays saved.
    pub fn read_into(&self, from: u64, to: u64, out: &mut Vec<Value>) {
        assert!(from <= to && to <= self.len, "read past the values file");
        let mut bytes = vec![0u8; 2 * (to - from) as usize];
        if let Err(e) = self.file.read_exact_at(&mut bytes, 2 * from) {
            panic!("cannot read values file {}: {e}", self.path.display());
        }
        out.extend(decode(&bytes));
    }
}

/// The CRC-32 of the first `len` values of `file`, reading them a chunk at a time and showing
/// each chunk to `visit(first_heap, values)`.
fn crc_of_prefix(
    file: &File,
    len: u64,
    visit: &mut dyn FnMut(u64, &[Value]),
) -> io::Result<crc32fast::Hasher> {
    let mut hasher = crc32fast::Hasher::new();
    let mut buf = vec![0u8; 2 * READ_CHUNK];
    let mut values = Vec::with_capacity(READ_CHUNK);
    let mut at = 0u64;
    while at < len {
        let count = (len - at).min(READ_CHUNK as u64) as usize;
        file.read_exact_at(&mut buf[..2 * count], 2 * at)?;
        hasher.update(&buf[..2 * count]);
        values.clear();
        values.extend(decode(&buf[..2 * count]));
        visit(at, &values);
        at += count as u64;
    }
    Ok(hasher)
}

/// Values as stored in every file of ours: u16 little endian.
pub(crate) fn encode(values: &[Value]) -> Vec<u8> {
    values.iter().flat_map(|v| v.to_le_bytes()).collect()
}

/// The inverse of [`encode`] (a trailing odd byte is ignored).
pub(crate) fn decode(bytes: &[u8]) -> impl Iterator<Item = Value> + '_ {
    bytes
        .chunks_exact(2)
        .map(|c| u16::from_le_bytes([c[0], c[1]]))
}

fn with_path(path: &Path, e: io::Error) -> io::Error {
    io::Error::new(e.kind(), format!("{}: {e}", path.display()))
}

/// A read-only view of `G(0..len)`: memory parts and the file behind them (see the module docs).
#[derive(Clone, Copy, Debug)]
pub struct Claims<'a> {
    /// `G(0..head.len())`.
    head: &'a [Value],
    /// `G(base..base + tail.len())`.
    tail: &'a [Value],
    base: usize,
    /// Holds at least `G(head.len()..base)`.
    file: Option<&'a ValueFile>,
}

impl<'a> From<&'a [Value]> for Claims<'a> {
    fn from(values: &'a [Value]) -> Claims<'a> {
        Claims {
            head: values,
            tail: &[],
            base: values.len(),
            file: None,
        }
    }
}

impl<'a> From<&'a Vec<Value>> for Claims<'a> {
    fn from(values: &'a Vec<Value>) -> Claims<'a> {
        Claims::from(values.as_slice())
    }
}

impl<'a> Claims<'a> {
    pub fn len(&self) -> usize {
        self.base + self.tail.len()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The view of `G(0..n)` (`n <= len`).
    pub fn upto(self, n: usize) -> Claims<'a> {
        assert!(n <= self.len());
        if n >= self.base {
            Claims {
                tail: &self.tail[..n - self.base],
                ..self
            }
        } else {
            Claims {
                head: &self.head[..self.head.len().min(n)],
                tail: &[],
                base: n,
                file: self.file,
            }
        }
    }

    /// `G(i)`.
    #[inline]
    pub fn get(&self, i: usize) -> Value {
        if i >= self.base {
            self.tail[i - self.base]
        } else if i < self.head.len() {
            self.head[i]
        } else {
            self.run(i, i + 1)[0]
        }
    }

    /// `G(from..to)`: borrowed where it lies in memory in one piece, else read.
    pub fn run(&self, from: usize, to: usize) -> Cow<'a, [Value]> {
        assert!(
            from <= to && to <= self.len(),
            "{from}..{to} of {}",
            self.len()
        );
        if to <= self.head.len() {
            return Cow::Borrowed(&self.head[from..to]);
        }
        if from >= self.base {
            return Cow::Borrowed(&self.tail[from - self.base..to - self.base]);
        }
        let mut out = Vec::with_capacity(to - from);
        let head_end = to.min(self.head.len());
        if from < head_end {
            out.extend_from_slice(&self.head[from..head_end]);
        }
        let (mid_from, mid_to) = (from.max(self.head.len()), to.min(self.base));
        if mid_from < mid_to {
            self.file
                .expect("values behind the tail need the values file")
                .read_into(mid_from as u64, mid_to as u64, &mut out);
        }
        if to > self.base {
            out.extend_from_slice(&self.tail[from.max(self.base) - self.base..to - self.base]);
        }
        Cow::Owned(out)
    }

    /// Shows `G(from..to)` to `visit(first_heap, values)` a chunk at a time, in order.
    pub fn for_each_chunk(&self, from: usize, to: usize, visit: &mut dyn FnMut(usize, &[Value])) {
        let mut at = from;
        while at < to {
            // Stop at the part boundaries, so memory parts come borrowed and whole.
            let end = if at < self.head.len() {
                self.head.len().min(to)
            } else if at < self.base {
                self.base.min(to).min(at + READ_CHUNK)
            } else {
                to
            };
            visit(at, &self.run(at, end));
            at = end;
        }
    }

    /// Every value, in a vector.
    pub fn to_vec(&self) -> Vec<Value> {
        self.run(0, self.len()).into_owned()
    }
}

/// `G(0..len)` of a run, in bounded memory (see the module docs).
#[derive(Debug)]
pub struct History {
    head: Vec<Value>,
    head_cap: usize,
    tail: Vec<Value>,
    base: usize,
    file: Option<ValueFile>,
}

impl History {
    /// The history `values` (all in memory), keeping a head of `head_cap` values once it spills.
    pub fn new(values: Vec<Value>, head_cap: usize) -> History {
        History {
            head: Vec::new(),
            head_cap,
            tail: values,
            base: 0,
            file: None,
        }
    }

    /// A history of every value in `file`, of which only the head and the last `keep` values are
    /// read into memory.
    pub fn from_file(file: ValueFile, head_cap: usize, keep: usize) -> History {
        let len = file.len() as usize;
        let base = len.saturating_sub(keep);
        let mut head = Vec::new();
        file.read_into(0, base.min(head_cap) as u64, &mut head);
        let mut tail = Vec::with_capacity(len - base);
        file.read_into(base as u64, len as u64, &mut tail);
        History {
            head,
            head_cap,
            tail,
            base,
            file: Some(file),
        }
    }

    pub fn len(&self) -> usize {
        self.base + self.tail.len()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// First heap held in the tail (everything before it is in the head or the file).
    pub fn base(&self) -> usize {
        self.base
    }

    /// Values held in memory.
    pub fn in_memory(&self) -> usize {
        self.head.len() + self.tail.len()
    }

    pub fn claims(&self) -> Claims<'_> {
        Claims {
            head: &self.head,
            tail: &self.tail,
            base: self.base,
            file: self.file.as_ref(),
        }
    }

    pub fn get(&self, i: usize) -> Value {
        self.claims().get(i)
    }

    pub fn push(&mut self, v: Value) {
        self.tail.push(v);
    }

    /// The tail, for generators that append to it: `tail[i]` is `G(base + i)`.
    pub fn tail_mut(&mut self) -> &mut Vec<Value> {
        &mut self.tail
    }

    /// Forgets `G(len..)`. Values below `base` are final and never taken back.
    pub fn truncate(&mut self, len: usize) {
        assert!(len >= self.base, "truncating into stored values");
        self.tail.truncate(len - self.base);
    }

    /// The values file, if the history has one.
    pub fn file(&self) -> Option<&ValueFile> {
        self.file.as_ref()
    }

    /// Gives the history its values file (holding a prefix of the history, possibly empty).
    pub fn attach_file(&mut self, file: ValueFile) {
        assert!(file.len() as usize <= self.len() && self.file.is_none());
        self.file = Some(file);
    }

    /// Appends `G(file.len()..to)` to the file (values the caller will never take back) and
    /// makes them durable.
    ///
    /// # Errors
    /// Any I/O error; the history is unchanged and the file's `len()` keeps its old value.
    pub fn store_to(&mut self, to: usize) -> io::Result<()> {
        let len = self.len();
        let file = self.file.as_mut().expect("store_to needs a values file");
        let from = file.len() as usize;
        if to > from {
            assert!(from >= self.base && to <= len, "store_to out of range");
            file.append(&self.tail[from - self.base..to - self.base])?;
        }
        file.sync()
    }

    /// Drops from memory every value below `floor` that the file holds, keeping the head.
    pub fn evict_below(&mut self, floor: usize) {
        let stored = self.file.as_ref().map_or(0, |f| f.len() as usize);
        let floor = floor.min(stored).min(self.len());
        if floor <= self.base {
            return;
        }
        let moved = floor - self.base;
        if self.base < self.head_cap {
            let to_head = (self.head_cap - self.base).min(moved);
            self.head.extend_from_slice(&self.tail[..to_head]);
        }
        self.tail.drain(..moved);
        self.base = floor;
    }

    /// Every value, in a vector (reading the file where needed).
    pub fn to_vec(&self) -> Vec<Value> {
        self.claims().to_vec()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn views_read_the_same_values_from_memory_and_file() {
        let values: Vec<Value> = (0..5000u32).map(|i| (i * 7919 % 1021) as Value).collect();
        let dir = tempfile::tempdir().unwrap();
        let mut history = History::new(values[..3000].to_vec(), 500);
        history.attach_file(ValueFile::create(&dir.path().join("v")).unwrap());
        history.store_to(2500).unwrap();
        history.evict_below(2000);
        history.tail_mut().extend_from_slice(&values[3000..]);
        assert_eq!((history.base(), history.in_memory()), (2000, 500 + 3000));
        let claims = history.claims();
        assert_eq!(claims.to_vec(), values);
        for (from, to) in [(0, 10), (490, 510), (400, 2100), (1999, 2001), (2000, 5000)] {
            assert_eq!(&*claims.run(from, to), &values[from..to], "{from}..{to}");
        }
        assert_eq!(claims.upto(1000).to_vec(), &values[..1000]);
        assert_eq!(claims.get(1234), values[1234]);
        let mut seen = Vec::new();
        claims.for_each_chunk(100, 4000, &mut |at, chunk| {
            assert_eq!(at, 100 + seen.len());
            seen.extend_from_slice(chunk);
        });
        assert_eq!(seen, &values[100..4000]);
        // Eviction never drops what the file does not hold.
        history.evict_below(4000);
        assert_eq!(history.base(), 2500);
        assert_eq!(history.to_vec(), values);
    }

    #[test]
    fn a_reopened_file_checks_its_crc_and_cuts_a_stale_tail() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("v");
        let mut file = ValueFile::create(&path).unwrap();
        file.append(&[1, 2, 3]).unwrap();
        let crc = file.crc32();
        file.append(&[4]).unwrap();
        drop(file);
        let mut seen = Vec::new();
        let file =
            ValueFile::open_checked(&path, 3, crc, &mut |_, c| seen.extend_from_slice(c)).unwrap();
        assert_eq!((seen, file.len()), (vec![1, 2, 3], 3));
        assert_eq!(std::fs::metadata(&path).unwrap().len(), 6);
        let mut two = ValueFile::create(&dir.path().join("w")).unwrap();
        two.append(&[1, 2]).unwrap();
        let mut file = file;
        file.truncate(2).unwrap();
        assert_eq!((file.len(), file.crc32()), (2, two.crc32()));
        let err = ValueFile::open_checked(&path, 3, crc ^ 1, &mut |_, _| {}).unwrap_err();
        assert!(err.contains("has 2 values"), "{err}");
        let mut file = ValueFile::open_checked(&path, 2, two.crc32(), &mut |_, _| {}).unwrap();
        file.append(&[3]).unwrap();
        assert_eq!(file.crc32(), crc);
        drop(file);
        let err = ValueFile::open_checked(&path, 3, crc ^ 1, &mut |_, _| {}).unwrap_err();
        assert!(err.contains("crc32"), "{err}");
        let err = ValueFile::open_checked(&path, 4, crc, &mut |_, _| {}).unwrap_err();
        assert!(err.contains("has 3 values"), "{err}");
    }
}
