/*!
The speculative generator: values under the assumption that the rare table is complete.

Assume every value from here on is common and every rare value is in the table. Then (Grossman
fig. 3) the only options that can be common are the single-heap moves and the splits with a rare
part, so `G(n)` is the smallest common value not among
`{ G(n - j) : single move j } ∪ { r ^ G(n - j - a) : split move j, rare (a, r), a >= 1 }`.
Every such option is an *entry* `(offset d, value r)` read as `r ^ G(n - d)` (`r = 0` for a
single-heap move).

**Byte compression** (Grossman 3.2, Riley): for a value-type space with lowest mask bit `b`, drop
bit `b` and shift the higher bits down. On common values bit `b` is fixed by the other mask bits,
so the map is one-to-one, order preserving and XOR compatible; values below 512 become bytes and
the mex array has 256 entries. The same holds on rare values, so entries hold compressed rare values.

**Blocks** (after Riley's GPU blocks): heaps are computed in blocks of `B` (a multiple of 8). For
block `[s, s + B)`, an entry with offset `d >= 2B` reads only heaps before `s - B`, so while the
block before is still being finished its *far* marks can already be made, split across threads.
The *near* entries (`8 <= d < 2B`; 83 of Officers' 1585 for `B = 256`) are marked eight heaps at a
time as soon as the eight before are done, and the *tiny* ones (`d < 8`, five for Officers) heap by
heap just before its mex. One thread runs the same schedule alone.

**Table-driven, not unrolled.** The marking table is data, swept by the kernel of
[`super::marks`] (eight heaps per step, 256-bit mark sets). A kernel generated at build time with
one line per rare value (Grossman fig. 4, as the C baseline does) was measured here at 1.1-1.2 M
values/s against 1.8 M/s for a table-driven loop on one thread: its ~60 KB of code does not fit the
instruction cache.

Invariant (checked by [`Speculative::new`]): every heap the entries read is past the last rare
position, so every `G(n - d)` is common and `r ^ G(n - d)` is a common value: marks in compressed
space never confuse a rare option with a common one. The values produced are *claims*: only the
verifier ([`super::verify`]) makes them facts.
*/

use crate::game::Game;

use super::history::Claims;
use super::marks::{self, Entry, MarkSet, Slot, byte, mark_groups, slot};
use super::{SparseSpace, Value};

/// Byte compression of a value-type sparse space (see the module docs).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Compression {
    bit: u32,
    mask: u32,
}

impl Compression {
    /// `None` for a position-type space or an empty mask.
    pub fn new(space: SparseSpace) -> Option<Compression> {
        (!space.by_position && space.mask != 0).then(|| Compression {
            bit: space.mask.trailing_zeros(),
            mask: space.mask,
        })
    }

    /// The byte of `v`, or `None` if it does not fit.
    #[inline]
    pub fn compress(&self, v: Value) -> Option<u8> {
        let v = u32::from(v);
        let low = v & ((1 << self.bit) - 1);
        u8::try_from(((v >> (self.bit + 1)) << self.bit) | low).ok()
    }

    /// The common value whose byte is `c`.
    #[inline]
    pub fn expand_common(&self, c: u8) -> Value {
        let c = u32::from(c);
        let low = c & ((1 << self.bit) - 1);
        let rest = ((c >> self.bit) << (self.bit + 1)) | low;
        let dropped = 1 ^ ((rest & self.mask).count_ones() & 1); // common: odd parity overall
        (rest | (dropped << self.bit)) as Value
    }
}

/// Why speculation cannot start (the caller then uses the exact generator).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SpecError {
    #[error("sparse space {0} has no byte compression (position type or empty mask)")]
    NoCompression(SparseSpace),
    #[error(
        "speculation must start after heap {need}, not at {start}: earlier heaps read rare partners"
    )]
    TooEarly { start: u64, need: u64 },
    #[error("value {value} at heap {at} does not fit in a byte")]
    TooWide { at: u64, value: Value },
}

/// Speculation stopped at heap `at`: no common value below 512 is free there.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Overflow {
    pub at: u64,
}

/// Block size `B` [default: 256] (near entries: offsets below `2B`). Against 128, two threads on
/// the 2-core VM went from 1.50-1.83x one thread to 1.88-1.90x (fewer handovers per value).
pub const DEFAULT_BLOCK: usize = 256;

/// A speculative generator over a window of compressed values.
pub struct Speculative {
    compression: Compression,
    /// The marking entries by reach (see the module docs).
    entries: Entries,
    block: usize,
    /// Largest offset: how far back the rule reads.
    reach: usize,
    /// `buf[i]` is the slot of `G(base + i)`; it ends at the next heap to compute.
    buf: Vec<Slot>,
    base: u64,
    threads: usize,
}

impl Speculative {
    /// A generator continuing `history` (`G(0..len)`) under the rare table `rares`.
    ///
    /// # Errors
    /// [`SpecError`] if the space has no byte compression, if `history` is too short for every
    /// partner heap to be past the last rare position, or if a value in the window is too wide.
    pub fn new<'a>(
        game: &Game,
        space: SparseSpace,
        rares: &[(u64, Value)],
        history: impl Into<Claims<'a>>,
        threads: usize,
        block: usize,
    ) -> Result<Speculative, SpecError> {
        let history = history.into();
        let compression = Compression::new(space).ok_or(SpecError::NoCompression(space))?;
        let block = block.max(8).next_multiple_of(8);
        let need = first_safe_heap(game, rares.last().map_or(0, |r| r.0));
        let start = history.len() as u64;
        if start < need {
            return Err(SpecError::TooEarly { start, need });
        }
        let entries = marking_entries(game, compression, rares)?;
        let reach = entries.first().map_or(1, |e| e.0);
        let split = Entries::split(&entries, block);
        let from = history.len().saturating_sub(reach + 2 * block);
        let mut buf = Vec::with_capacity(reach + 4 * block + (1 << 16));
        for (i, &v) in (from..).zip(history.run(from, history.len()).iter()) {
            buf.push(slot(compression.compress(v).ok_or(SpecError::TooWide {
                at: i as u64,
                value: v,
            })?));
        }
        let threads = threads.max(1);
        Ok(Speculative {
            compression,
            entries: split,
            block,
            reach,
            buf,
            base: from as u64,
            threads,
        })
    }

    /// The next heap to compute.
    pub fn position(&self) -> u64 {
        self.base + self.buf.len() as u64
    }

    pub fn compression(&self) -> Compression {
        self.compression
    }

    /// Computes the next `blocks * B` values, appending them (expanded) to `out`. On overflow
    /// the values before the overflowing heap are appended and the error names that heap.
    ///
    /// # Errors
    /// [`Overflow`] where no common value below 512 is free.
    pub fn generate(&mut self, blocks: usize, out: &mut Vec<Value>) -> Result<(), Overflow> {
        self.trim();
        let b = self.block;
        let start = self.buf.len();
        self.buf.resize(start + blocks * b, Slot::default());
        let failed = if self.threads == 1 || blocks < 2 {
            run_blocks_alone(&mut self.buf, start, blocks, b, &self.entries)
        } else {
            run_blocks_threaded(&mut self.buf, start, blocks, b, &self.entries, self.threads)
        };
        let mut result = Ok(());
        if let Some(at) = failed {
            self.buf.truncate(at);
            result = Err(Overflow {
                at: self.base + at as u64,
            });
        }
        out.extend(
            self.buf[start..]
                .iter()
                .map(|&c| self.compression.expand_common(byte(c))),
        );
        result
    }

    /// Drops bytes the rule no longer reads.
    fn trim(&mut self) {
        let keep = self.reach + 2 * self.block;
        if self.buf.len() > keep + (1 << 16) {
            let cut = self.buf.len() - keep;
            self.buf.drain(..cut);
            self.base += cut as u64;
        }
    }
}

/// First heap from which byte speculation is sound with rares up to position `last_rare`: every
/// partner heap an entry reads (back to `last_rare + max take` from a heap past it) is past the
/// last rare position, so every partner value is common (the module invariant).
pub(crate) fn first_safe_heap(game: &Game, last_rare: u64) -> u64 {
    2 * last_rare + game.max_take() as u64 + 1
}

/// The marking table: `(offset, compressed value)` for every single-heap move and every split
/// with a rare part, by decreasing offset.
///
/// # Errors
/// [`SpecError::TooWide`] if a rare value has no byte.
pub(crate) fn marking_entries(
    game: &Game,
    compression: Compression,
    rares: &[(u64, Value)],
) -> Result<Vec<(usize, u8)>, SpecError> {
    let mut entries: Vec<(usize, u8)> = game
        .single_heap_moves()
        .into_iter()
        .map(|j| (j, 0))
        .collect();
    for j in game.split_moves() {
        for &(a, r) in rares.iter().filter(|r| r.0 >= 1) {
            let r = compression
                .compress(r)
                .ok_or(SpecError::TooWide { at: a, value: r })?;
            entries.push((j + a as usize, r));
        }
    }
    entries.sort_by_key(|e| std::cmp::Reverse(e.0));
    Ok(entries)
}

/// The marking entries of a generator with block size `B`, by how far back they read.
struct Entries {
    /// Offset `>= 2B`, by decreasing offset (oldest heap first): marked a block ahead.
    far: Vec<Entry>,
    /// `8 <= offset < 2B`: marked eight heaps at a time inside the block.
    near: Vec<Entry>,
    /// `offset < 8`: marked heap by heap, just before the mex.
    tiny: Vec<(usize, u8)>,
}

impl Entries {
    fn split(entries: &[(usize, u8)], block: usize) -> Entries {
        let far: Vec<_> = entries
            .iter()
            .copied()
            .filter(|e| e.0 >= 2 * block)
            .collect();
        let near: Vec<_> = entries
            .iter()
            .copied()
            .filter(|e| (8..2 * block).contains(&e.0))
            .collect();
        Entries {
            far: marks::entries(&far),
            near: marks::entries(&near),
            tiny: entries.iter().copied().filter(|e| e.0 < 8).collect(),
        }
    }
}

/// One thread: for each block, its near marks and mex, then the far marks of the next block.
/// Returns the buffer index where no byte value was free, if any.
fn run_blocks_alone(
    buf: &mut [Slot],
    start: usize,
    blocks: usize,
    b: usize,
    entries: &Entries,
) -> Option<usize> {
    let mut current = vec![MarkSet::EMPTY; b];
    let mut next = vec![MarkSet::EMPTY; b];
    let mut local = Vec::with_capacity(3 * b);
    mark_groups(&buf[..start], start, &entries.far, &mut current);
    for k in 0..blocks {
        let s = start + k * b;
        let (done, rest) = buf.split_at_mut(s);
        if let Err(i) = finish_block(done, &mut rest[..b], entries, &mut current, &mut local) {
            return Some(s + i);
        }
        if k + 1 < blocks {
            next.fill(MarkSet::EMPTY);
            mark_groups(&buf[..s + b], s + b, &entries.far, &mut next);
        }
        std::mem::swap(&mut current, &mut next);
    }
    None
}

/// A raw pointer that may cross threads; every use below says why its accesses are disjoint.
#[derive(Clone, Copy)]
struct Shared<T>(*mut T);
unsafe impl<T> Send for Shared<T> {}
unsafe impl<T> Sync for Shared<T> {}

impl<T> Shared<T> {
    /// The pointer. A method, so that closures capture the whole `Send` wrapper.
    fn get(self) -> *mut T {
        self.0
    }
}

/// `threads` threads in lock step, one block per step. In step `k` the main thread finishes
/// block `k` (near marks, mex) and then its share of the far marks of block `k + 1`; each
/// helper makes its share of those far marks. Helpers spin on an atomic step counter (a block
/// is tens of microseconds of work, too short for a sleeping thread to wake up in time).
///
/// Disjointness, which makes the raw-pointer accesses sound: in step `k` the main thread writes
/// `buf[s_k .. s_k + b]` and sets of `sets[k % 2]` and `sets[(k + 1) % 2][..first]`; helper `h`
/// writes only its own range of `sets[(k + 1) % 2]`; every far read is of `buf[.. s_k]`,
/// written in earlier steps and published by the Release store of the step counter.
fn run_blocks_threaded(
    buf: &mut [Slot],
    start: usize,
    blocks: usize,
    b: usize,
    entries: &Entries,
    threads: usize,
) -> Option<usize> {
    use std::sync::atomic::{AtomicUsize, Ordering};
    let far = &entries.far;
    let mut sets: [Vec<MarkSet>; 2] = [vec![MarkSet::EMPTY; b], vec![MarkSet::EMPTY; b]];
    mark_groups(&buf[..start], start, far, &mut sets[0]);
    // Sets of the next block the main thread does itself, balancing its near work.
    let near = (entries.near.len() + entries.tiny.len()) as f64;
    let (nf, t) = (far.len().max(1) as f64, threads as f64);
    // Shares are multiples of 8 heaps: the kernel works on groups of eight.
    let first =
        (((b as f64 * (1.0 - (t - 1.0) * near / nf)) / t).clamp(0.0, b as f64) as usize) / 8 * 8;
    let per = (b - first).div_ceil(threads - 1).div_ceil(8).max(1) * 8;
    let step = AtomicUsize::new(0); // helpers may do far marks of block `step`
    let finished = AtomicUsize::new(0); // helper shares done, over all steps
    let stop = usize::MAX;
    let buf_ptr = Shared(buf.as_mut_ptr());
    let sets_ptr = [Shared(sets[0].as_mut_ptr()), Shared(sets[1].as_mut_ptr())];
    let wait = |cond: &dyn Fn() -> bool| {
        let mut spins = 0u32;
        while !cond() {
            spins += 1;
            if spins < 1 << 14 {
                std::hint::spin_loop()
            } else {
                std::thread::yield_now()
            }
        }
    };
    let mut failed = None;
    std::thread::scope(|scope| {
        for h in 0..threads - 1 {
            let (step, finished, wait) = (&step, &finished, &wait);
            let lo = (first + h * per).min(b);
            let hi = (lo + per).min(b);
            scope.spawn(move || {
                for k in 1..blocks {
                    wait(&|| step.load(Ordering::Acquire) >= k);
                    if step.load(Ordering::Acquire) == stop {
                        return;
                    }
                    let s = start + k * b;
                    // SAFETY: see the function docs: reads buf[..s - b], published by `step`;
                    // writes sets lo..hi of block k, which no other thread touches in this step.
                    let (done, mine) = unsafe {
                        let done = std::slice::from_raw_parts(buf_ptr.get(), s - b);
                        let mine =
                            std::slice::from_raw_parts_mut(sets_ptr[k % 2].get().add(lo), hi - lo);
                        (done, mine)
                    };
                    mark_groups(done, s + lo, far, mine);
                    finished.fetch_add(1, Ordering::Release);
                }
            });
        }
        let mut local = Vec::with_capacity(3 * b);
        for k in 0..blocks {
            let s = start + k * b;
            if k + 1 < blocks {
                // Sets of block k + 1 were block k - 1's: every helper is done with them.
                // SAFETY: no helper runs before `step` reaches k + 1.
                let next =
                    unsafe { std::slice::from_raw_parts_mut(sets_ptr[(k + 1) % 2].get(), b) };
                next.fill(MarkSet::EMPTY);
                step.store(k + 1, Ordering::Release);
            }
            // SAFETY: the main thread alone writes block k and reads below it; helpers read
            // only below s - b in this step.
            let (done, block, current) = unsafe {
                (
                    std::slice::from_raw_parts(buf_ptr.get(), s),
                    std::slice::from_raw_parts_mut(buf_ptr.get().add(s), b),
                    std::slice::from_raw_parts_mut(sets_ptr[k % 2].get(), b),
                )
            };
            if let Err(i) = finish_block(done, block, entries, current, &mut local) {
                failed = Some(s + i);
                step.store(stop, Ordering::Release);
                break;
            }
            if k + 1 < blocks {
                // SAFETY: sets ..first of block k + 1 are the main thread's share.
                let mine =
                    unsafe { std::slice::from_raw_parts_mut(sets_ptr[(k + 1) % 2].get(), first) };
                let done = unsafe { std::slice::from_raw_parts(buf_ptr.get(), s) };
                mark_groups(done, s + b, far, mine);
                wait(&|| finished.load(Ordering::Acquire) >= (threads - 1) * (k + 1));
            }
        }
    });
    failed
}

/// Finishes the block after `done` (whose far marks are in `sets`): near marks eight heaps at a
/// time, then tiny marks and the mex heap by heap. Works in `local`, a contiguous copy of the
/// heaps the near entries read (`done`'s last `2B`) followed by the block, so that the kernel
/// sees one window while `done` stays shared with the helper threads. Returns the index in the
/// block where no byte value is free, if any; the values before it are written either way.
fn finish_block(
    done: &[Slot],
    block: &mut [Slot],
    entries: &Entries,
    sets: &mut [MarkSet],
    local: &mut Vec<Slot>,
) -> Result<(), usize> {
    let b = block.len();
    let lead = done.len().min(2 * b); // every entry reads at most `done.len()` back
    local.clear();
    local.extend_from_slice(&done[done.len() - lead..]);
    local.resize(lead + b, Slot::default());
    let mut result = Ok(());
    'groups: for g in (0..b).step_by(8) {
        let h = lead + g;
        mark_groups(&local[..h], h, &entries.near, &mut sets[g..g + 8]);
        for i in g..g + 8 {
            let set = &mut sets[i];
            for &(d, r) in &entries.tiny {
                set.insert(byte(local[lead + i - d]) ^ r);
            }
            match set.first_free() {
                Some(c) => local[lead + i] = slot(c),
                None => {
                    result = Err(i);
                    break 'groups;
                }
            }
        }
    }
    block.copy_from_slice(&local[lead..]);
    result
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn compression_matches_grossman_and_riley() {
        let c = Compression::new(SparseSpace::OFFICERS).unwrap();
        for v in 0u16..512 {
            // Riley: compress(x) = ((x >> 1) & ~1) | (x & 1).
            assert_eq!(c.compress(v), Some((((v >> 1) & !1) | (v & 1)) as u8));
            if !SparseSpace::OFFICERS.is_rare(0, v) {
                assert_eq!(c.expand_common(c.compress(v).unwrap()), v);
            }
        }
        assert_eq!(c.compress(512), None);
    }

    #[test]
    fn compression_is_order_preserving_and_xor_compatible_for_any_mask() {
        for mask in [0x1ee, 0x5b, 0x1e, 0xf, 0x1b, 0x7b8] {
            let space = SparseSpace {
                mask,
                by_position: false,
            };
            let c = Compression::new(space).unwrap();
            let common: Vec<u16> = (0..512).filter(|&v| !space.is_rare(0, v)).collect();
            for w in common.windows(2) {
                assert!(c.compress(w[0]) < c.compress(w[1]), "{mask:#x}");
            }
            for &x in &common[..40] {
                for y in 0..300u16 {
                    assert_eq!(
                        c.compress(x ^ y).unwrap(),
                        c.compress(x).unwrap() ^ c.compress(y).unwrap()
                    );
                }
            }
        }
    }
}
