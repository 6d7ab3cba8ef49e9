//! Building an archive, or adding to one.
//!
//! Games arrive in the order the caller read them (the CLI reads files in parallel and adds
//! them in the order they were named), each already turned into [`PreparedGames`] — its
//! games-table rows encoded, its positions' keys computed — by the thread that read it, so the
//! writer only copies bytes. Each game's rows go straight to the games files; its positions
//! go into a buffer of packed entries.
//!
//! Sorting the positions: a buffer that holds them all is sorted in memory. One that fills
//! (`run_entries` × 16 bytes: the memory budget) is spilled into [`BUCKETS`] temporary files
//! by the top bits of the key — a radix sort's first pass, to disk — and at the end each
//! bucket is read back, sorted in memory and written at its place in the segment, buckets in
//! parallel. Keys are uniform hashes, so buckets come out even except for the few keys every
//! game shares (the start position), which one bucket holds; a bucket larger than its share
//! of the budget is sorted in runs and merged. Memory is the buffer plus the buckets being
//! sorted, whatever the archive's size, and every entry is written twice and read once
//! (a k-way merge of sorted runs would read and write the same, but merge on one thread).
//! Adding to an archive writes a new segment beside the old ones, which stay as they are.

use std::cmp::Reverse;
use std::collections::BinaryHeap;
use std::fs::{File, OpenOptions};
use std::io::{BufReader, BufWriter, Read, Write};
use std::os::unix::fs::FileExt;
use std::path::{Path, PathBuf};

use rayon::prelude::*;

use crate::archive::{ArchiveError, Manifest, SegmentInfo, read_manifest};
use crate::entry::Entry;
use crate::file_list::FileList;
use crate::games::GameSummary;
use crate::read::IndexedGame;

/// Entries held before they are spilled to bucket files: 8 M entries, 128 MiB (up to twice
/// that with the room the growing buckets keep).
pub const DEFAULT_RUN_ENTRIES: usize = 8 << 20;

/// Bucket files a spilled archive is distributed into, by the key's top [`BUCKET_BITS`] bits.
pub const BUCKETS: usize = 1 << BUCKET_BITS;
/// How many of a key's top bits choose its bucket.
pub const BUCKET_BITS: u32 = 8;

/// Games ready to be added, in the order read: what [`ArchiveWriter::add_prepared`] copies
/// into the archive. Made by [`PreparedGames::push`] on the thread that read them (each
/// game's rows encoded, its keys in place) and held in a few flat buffers, so that the
/// thread that adds them frees a file's games at once rather than three allocations a game
/// made on another thread.
#[derive(Clone, Debug, Default)]
pub struct PreparedGames {
    /// Each game's `games.jsonl` line without the newline, one after another; the writer
    /// puts the game's number in.
    json: Vec<u8>,
    summaries: Vec<[u8; GameSummary::SIZE]>,
    /// The key of each position of each game's main line (its moves and one more).
    keys: Vec<u64>,
    /// The code of the move played from each position but the last, of each game.
    moves: Vec<u16>,
    /// Where each game's parts end in `json`, `keys` and `moves`.
    ends: Vec<[usize; 3]>,
}

/// One game of [`PreparedGames`].
#[derive(Clone, Copy, Debug)]
pub struct PreparedGame<'g> {
    json: &'g [u8],
    summary: &'g [u8; GameSummary::SIZE],
    keys: &'g [u64],
    moves: &'g [u16],
}

/// How every `games.jsonl` line starts: `game`, the number the writer puts in, is
/// [`crate::games::GameMeta`]'s first field.
const NUMBER_PREFIX: &[u8] = b"{\"game\":";

impl PreparedGames {
    /// Encodes a replayed game's rows after those held.
    pub fn push(&mut self, game: &IndexedGame) {
        serde_json::to_writer(&mut self.json, &game.meta)
            .expect("a games row is strings and numbers, which serde_json always writes");
        self.summaries.push(game.summary.to_bytes());
        self.keys.extend_from_slice(&game.keys);
        self.moves.extend_from_slice(&game.moves);
        self.ends
            .push([self.json.len(), self.keys.len(), self.moves.len()]);
    }

    /// Forgets the games held, keeping the room.
    pub fn clear(&mut self) {
        self.json.clear();
        self.summaries.clear();
        self.keys.clear();
        self.moves.clear();
        self.ends.clear();
    }

    /// How many games are held.
    pub fn len(&self) -> usize {
        self.ends.len()
    }

    /// True when no game is held.
    pub fn is_empty(&self) -> bool {
        self.ends.is_empty()
    }

    /// The games held, in the order pushed.
    pub fn iter(&self) -> impl Iterator<Item = PreparedGame<'_>> {
        let starts = std::iter::once([0; 3]).chain(self.ends.iter().copied());
        starts
            .zip(&self.ends)
            .zip(&self.summaries)
            .map(|((start, end), summary)| PreparedGame {
                json: &self.json[start[0]..end[0]],
                summary,
                keys: &self.keys[start[1]..end[1]],
                moves: &self.moves[start[2]..end[2]],
            })
    }
}

impl PreparedGame<'_> {
    /// Positions it adds.
    pub fn positions(&self) -> usize {
        self.keys.len()
    }
}

/// An archive being written.
pub struct ArchiveWriter {
    dir: PathBuf,
    manifest: Manifest,
    files: FileList,
    jsonl: BufWriter<File>,
    jsonl_len: u64,
    offsets: BufWriter<File>,
    fixed: BufWriter<File>,
    /// The entries held, by bucket (the key's top bits), in the order added.
    held: Vec<Vec<u128>>,
    held_entries: usize,
    run_entries: usize,
    buckets: Option<Buckets>,
    added_games: u32,
    added_positions: u64,
    prepared: PreparedGames,
}

/// What a finished run added.
#[derive(Clone, Debug, Default, serde::Serialize)]
pub struct Added {
    pub games: u32,
    pub positions: u64,
    pub games_in_archive: u32,
    pub positions_in_archive: u64,
    pub segments: usize,
}

fn open_games_file(path: &Path, keep: u64) -> Result<(BufWriter<File>, u64), ArchiveError> {
    let file = OpenOptions::new()
        .create(true)
        .truncate(false)
        .read(true)
        .write(true)
        .open(path)
        .map_err(ArchiveError::io(path))?;
    // Rows beyond the manifest's count are what an interrupted run left: cut them off.
    file.set_len(keep).map_err(ArchiveError::io(path))?;
    let mut writer = BufWriter::with_capacity(1 << 20, file);
    use std::io::Seek;
    writer
        .seek(std::io::SeekFrom::End(0))
        .map_err(ArchiveError::io(path))?;
    Ok((writer, keep))
}

impl ArchiveWriter {
    /// Starts a new archive at `dir`, which must not exist yet.
    pub fn create(dir: &Path) -> Result<ArchiveWriter, ArchiveError> {
        if dir.exists() {
            return Err(ArchiveError::Exists(dir.to_path_buf()));
        }
        std::fs::create_dir_all(dir).map_err(ArchiveError::io(dir))?;
        ArchiveWriter::start(dir, Manifest::new(), 0)
    }

    /// Opens the archive at `dir` to add games to it.
    pub fn append(dir: &Path) -> Result<ArchiveWriter, ArchiveError> {
        let manifest = read_manifest(dir)?;
        // Where games.jsonl's rows end: the start of the first row past the manifest's count,
        // or the file's end when every row is counted.
        let offsets_path = dir.join("games.offsets");
        let mut offsets = Vec::new();
        File::open(&offsets_path)
            .and_then(|mut f| f.read_to_end(&mut offsets))
            .map_err(ArchiveError::io(&offsets_path))?;
        let games = manifest.games as usize;
        let jsonl_path = dir.join("games.jsonl");
        let jsonl_len = if offsets.len() >= (games + 1) * 8 {
            let mut w = [0u8; 8];
            w.copy_from_slice(&offsets[games * 8..games * 8 + 8]);
            u64::from_le_bytes(w)
        } else {
            std::fs::metadata(&jsonl_path)
                .map_err(ArchiveError::io(&jsonl_path))?
                .len()
        };
        ArchiveWriter::start(dir, manifest, jsonl_len)
    }

    fn start(
        dir: &Path,
        manifest: Manifest,
        jsonl_len: u64,
    ) -> Result<ArchiveWriter, ArchiveError> {
        let games = u64::from(manifest.games);
        let (jsonl, jsonl_len) = open_games_file(&dir.join("games.jsonl"), jsonl_len)?;
        let (offsets, _) = open_games_file(&dir.join("games.offsets"), games * 8)?;
        let (fixed, _) =
            open_games_file(&dir.join("games.fixed"), games * GameSummary::SIZE as u64)?;
        let mut manifest = manifest;
        let files = FileList::open(dir, &mut manifest)?;
        Ok(ArchiveWriter {
            dir: dir.to_path_buf(),
            manifest,
            files,
            jsonl,
            jsonl_len,
            offsets,
            fixed,
            held: vec![Vec::new(); BUCKETS],
            held_entries: 0,
            run_entries: DEFAULT_RUN_ENTRIES,
            buckets: None,
            added_games: 0,
            added_positions: 0,
            prepared: PreparedGames::default(),
        })
    }

    /// Sets how many entries are held before they are spilled (memory: 16 bytes each).
    pub fn set_run_entries(&mut self, entries: usize) {
        self.run_entries = entries.max(1);
    }

    /// Whether a file of this name is in the archive already.
    pub fn has_file(&self, name: &str) -> bool {
        self.files.contains(name)
    }

    /// Notes a file as indexed (its games are added with [`ArchiveWriter::add`]).
    pub fn add_file(&mut self, name: &str) -> Result<(), ArchiveError> {
        self.files.add(name)
    }

    /// Adds one game; returns its number.
    pub fn add(&mut self, game: &IndexedGame) -> Result<u32, ArchiveError> {
        let mut prepared = std::mem::take(&mut self.prepared);
        prepared.clear();
        prepared.push(game);
        let number = self.add_prepared(prepared.iter().next().expect("one game pushed"));
        self.prepared = prepared;
        number
    }

    /// The error for a failed write of the archive's file `name` (its path is made only
    /// then: a game's rows are written with no allocation).
    #[cold]
    fn file_error(&self, name: &str, source: std::io::Error) -> ArchiveError {
        ArchiveError::io(&self.dir.join(name))(source)
    }

    /// Adds one game made ready by [`PreparedGames::push`]; returns its number.
    pub fn add_prepared(&mut self, game: PreparedGame<'_>) -> Result<u32, ArchiveError> {
        let number = self.manifest.games + self.added_games;
        let jsonl_path = || self.dir.join("games.jsonl");
        // The line as prepared, with this game's number in place of whatever it held.
        let rest = game
            .json
            .strip_prefix(NUMBER_PREFIX)
            .and_then(|after| after.iter().position(|&b| b == b',').map(|i| &after[i..]))
            .ok_or_else(|| ArchiveError::Damaged {
                path: jsonl_path(),
                reason: "a prepared games row does not start with its number".into(),
            })?;
        let mut digit_space = [0u8; 10];
        let digits = decimal(number, &mut digit_space);
        let line_len = NUMBER_PREFIX.len() + digits.len() + rest.len() + 1;
        self.offsets
            .write_all(&self.jsonl_len.to_le_bytes())
            .map_err(|e| self.file_error("games.offsets", e))?;
        (|| {
            self.jsonl.write_all(NUMBER_PREFIX)?;
            self.jsonl.write_all(digits)?;
            self.jsonl.write_all(rest)?;
            self.jsonl.write_all(b"\n")
        })()
        .map_err(|e| self.file_error("games.jsonl", e))?;
        self.jsonl_len += line_len as u64;
        self.fixed
            .write_all(game.summary)
            .map_err(|e| self.file_error("games.fixed", e))?;
        let game_bits = u128::from(number) << 32;
        for (ply, &key) in game.keys.iter().enumerate() {
            // Entry::packed, spelt out: this loop runs for every position of the archive.
            let code = game.moves.get(ply).copied().unwrap_or(0);
            self.held[bucket_of(key)]
                .push(u128::from(key) << 64 | game_bits | (ply as u128) << 16 | u128::from(code));
        }
        self.added_games += 1;
        self.added_positions += game.keys.len() as u64;
        self.held_entries += game.keys.len();
        if self.held_entries >= self.run_entries {
            self.spill()?;
        }
        Ok(number)
    }

    /// Distributes the buffer into the bucket files.
    fn spill(&mut self) -> Result<(), ArchiveError> {
        if self.buckets.is_none() {
            self.buckets = Some(Buckets::create(&self.dir)?);
        }
        let buckets = self.buckets.as_mut().expect("made above");
        for (b, held) in self.held.iter_mut().enumerate() {
            buckets.add(b, held)?;
            held.clear();
        }
        self.held_entries = 0;
        Ok(())
    }

    /// Writes the new segment and the manifest that makes this run's games part of the
    /// archive.
    pub fn finish(mut self) -> Result<Added, ArchiveError> {
        // The games files and the list of files indexed are flushed here and made durable on
        // another thread while the positions are sorted: all must reach the disk before the
        // manifest names them.
        let mut games_files = Vec::with_capacity(3);
        for (writer, name) in [
            (&mut self.jsonl, "games.jsonl"),
            (&mut self.offsets, "games.offsets"),
            (&mut self.fixed, "games.fixed"),
        ] {
            let path = self.dir.join(name);
            writer.flush().map_err(ArchiveError::io(&path))?;
            let file = writer
                .get_ref()
                .try_clone()
                .map_err(ArchiveError::io(&path))?;
            games_files.push((file, path));
        }
        let sync_games = || {
            games_files
                .iter()
                .try_for_each(|(file, path)| file.sync_data().map_err(ArchiveError::io(path)))
        };
        let (synced, written) = std::thread::scope(|scope| {
            let synced = scope.spawn(sync_games);
            let written = self.write_segment();
            (synced.join(), written)
        });
        synced.unwrap_or_else(|panic| std::panic::resume_unwind(panic))?;
        written?;
        self.manifest.games += self.added_games;
        self.manifest.positions += self.added_positions;
        self.manifest.files_indexed = self.files.count();
        let path = self.dir.join("manifest.json");
        let partial = self.dir.join("manifest.json.tmp");
        let text =
            serde_json::to_string_pretty(&self.manifest).map_err(|e| ArchiveError::Damaged {
                path: path.clone(),
                reason: e.to_string(),
            })?;
        std::fs::write(&partial, text).map_err(ArchiveError::io(&partial))?;
        std::fs::rename(&partial, &path).map_err(ArchiveError::io(&path))?;
        Ok(Added {
            games: self.added_games,
            positions: self.added_positions,
            games_in_archive: self.manifest.games,
            positions_in_archive: self.manifest.positions,
            segments: self.manifest.segments.len(),
        })
    }

    /// Sorts the positions added into a new segment file, and names it in the manifest.
    fn write_segment(&mut self) -> Result<(), ArchiveError> {
        if self.added_positions == 0 {
            return Ok(());
        }
        let name = format!("positions-{:04}.bin", self.manifest.segments.len() + 1);
        let target = self.dir.join(&name);
        let partial = self.dir.join(format!("{name}.tmp"));
        if self.buckets.is_none() {
            let file = File::create(&partial).map_err(ArchiveError::io(&partial))?;
            let mut starts = Vec::with_capacity(BUCKETS);
            let mut at = 0u64;
            for held in &self.held {
                starts.push(at);
                at += (held.len() * Entry::SIZE) as u64;
            }
            self.held
                .par_iter_mut()
                .zip(starts)
                .try_for_each(|(held, offset)| {
                    let sorted = sort_bucket(std::mem::take(held));
                    write_sorted_at(&file, offset, &sorted)
                })
                .map_err(ArchiveError::io(&partial))?;
            file.sync_data().map_err(ArchiveError::io(&partial))?;
        } else {
            let buckets = self.buckets.take().expect("spilled");
            let held = std::mem::take(&mut self.held);
            buckets.sort_into(&partial, self.run_entries, held)?;
        }
        std::fs::rename(&partial, &target).map_err(ArchiveError::io(&target))?;
        self.manifest.segments.push(SegmentInfo {
            file: name,
            entries: self.added_positions,
        });
        Ok(())
    }
}

/// A number's decimal digits, written into `digits` without a formatter.
fn decimal(mut n: u32, digits: &mut [u8; 10]) -> &[u8] {
    let mut at = digits.len();
    loop {
        at -= 1;
        digits[at] = b'0' + (n % 10) as u8;
        n /= 10;
        if n == 0 {
            break;
        }
    }
    &digits[at..]
}

/// The spilled entries: one temporary file per range of keys, entries in the order added.
struct Buckets {
    paths: Vec<PathBuf>,
    files: Vec<BufWriter<File>>,
    counts: Vec<u64>,
}

impl Buckets {
    fn create(dir: &Path) -> Result<Buckets, ArchiveError> {
        let mut paths = Vec::with_capacity(BUCKETS);
        let mut files = Vec::with_capacity(BUCKETS);
        for b in 0..BUCKETS {
            let path = dir.join(format!("bucket-{b:03}.tmp"));
            let file = File::create(&path).map_err(ArchiveError::io(&path))?;
            files.push(BufWriter::with_capacity(64 << 10, file));
            paths.push(path);
        }
        Ok(Buckets {
            paths,
            files,
            counts: vec![0; BUCKETS],
        })
    }

    /// Appends entries of bucket `b`.
    fn add(&mut self, b: usize, entries: &[u128]) -> Result<(), ArchiveError> {
        let file = &mut self.files[b];
        for &packed in entries {
            file.write_all(&packed.to_le_bytes())
                .map_err(ArchiveError::io(&self.paths[b]))?;
        }
        self.counts[b] += entries.len() as u64;
        Ok(())
    }

    /// Sorts each bucket, with the entries still `held` for it, and writes it at its place in
    /// `target`, buckets in parallel, each in at most `budget / threads` entries of memory.
    /// Held entries are written to a bucket's file only when that bucket is too large to sort
    /// in memory; elsewhere they join the file's entries in memory, so the last run is never
    /// written and read back.
    fn sort_into(
        mut self,
        target: &Path,
        budget: usize,
        mut held: Vec<Vec<u128>>,
    ) -> Result<(), ArchiveError> {
        let share = (budget / rayon::current_num_threads().max(1)).max(1);
        for (b, entries) in held.iter_mut().enumerate() {
            if self.counts[b] as usize + entries.len() > share {
                self.add(b, entries)?;
                *entries = Vec::new();
            }
        }
        let Buckets {
            paths,
            files,
            counts,
        } = self;
        for (file, path) in files.into_iter().zip(&paths) {
            file.into_inner()
                .map_err(|e| ArchiveError::io(path)(e.into_error()))?;
        }
        let out = File::create(target).map_err(ArchiveError::io(target))?;
        let mut starts = Vec::with_capacity(BUCKETS);
        let mut at = 0u64;
        for (&n, entries) in counts.iter().zip(&held) {
            starts.push(at);
            at += n + entries.len() as u64;
        }
        out.set_len(at * Entry::SIZE as u64)
            .map_err(ArchiveError::io(target))?;
        let result = held.into_par_iter().enumerate().try_for_each(|(b, held)| {
            let offset = starts[b] * Entry::SIZE as u64;
            if counts[b] as usize + held.len() <= share {
                let mut entries = read_packed(&paths[b], counts[b] as usize)?;
                // The file holds the earlier games: the bucket stays in game order.
                entries.extend_from_slice(&held);
                drop(held);
                let entries = sort_bucket(entries);
                write_sorted_at(&out, offset, &entries).map_err(ArchiveError::io(target))?;
            } else {
                sort_large_bucket(&paths[b], share, &out, offset, target)?;
            }
            let _ = std::fs::remove_file(&paths[b]);
            Ok(())
        });
        if result.is_err() {
            for path in &paths {
                let _ = std::fs::remove_file(path);
            }
        }
        result?;
        out.sync_data().map_err(ArchiveError::io(target))
    }
}

/// The bucket of a key: its top bits.
#[inline]
fn bucket_of(key: u64) -> usize {
    (key >> (64 - BUCKET_BITS)) as usize
}

/// One bucket's entries (keys sharing their top [`BUCKET_BITS`]) in the file's order,
/// sorted.
///
/// Two more passes of a radix sort spread them by the key's next two bytes, and the slices
/// left (a handful of entries each: keys are uniform hashes) are sorted by comparison. Each
/// pass is stable and a bucket's entries arrive in game order, so the few keys every game
/// shares (the start position) come out of the passes already in order, which the final
/// sort sees in one scan. A comparison sort of the whole bucket took three times the
/// instructions.
fn sort_bucket(mut entries: Vec<u128>) -> Vec<u128> {
    const SMALL: usize = 64;
    if entries.len() <= SMALL {
        entries.sort_unstable();
        return entries;
    }
    let first = 128 - 2 * BUCKET_BITS;
    let second = first - BUCKET_BITS;
    let mut spread = vec![0u128; entries.len()];
    let slices = scatter_by_byte(&entries, &mut spread, first);
    for slice in slices {
        let (from, to) = (&spread[slice.clone()], &mut entries[slice]);
        if from.len() <= SMALL {
            to.copy_from_slice(from);
            to.sort_unstable();
            continue;
        }
        for part in scatter_by_byte(from, to, second) {
            to[part].sort_unstable();
        }
    }
    entries
}

/// Copies `from` into `to` ordered by the byte of each entry at bit `shift` (a stable
/// counting sort); returns the range of each byte value's entries in `to`.
fn scatter_by_byte(
    from: &[u128],
    to: &mut [u128],
    shift: u32,
) -> impl Iterator<Item = std::ops::Range<usize>> + use<> {
    let digit = |e: u128| ((e >> shift) & 0xff) as usize;
    let mut counts = [0usize; 256];
    for &e in from {
        counts[digit(e)] += 1;
    }
    let mut starts = [0usize; 256];
    let mut at = 0;
    for (start, count) in starts.iter_mut().zip(counts) {
        *start = at;
        at += count;
    }
    let mut next = starts;
    for &e in from {
        let d = digit(e);
        to[next[d]] = e;
        next[d] += 1;
    }
    starts
        .into_iter()
        .zip(counts)
        .filter(|&(_, count)| count > 0)
        .map(|(start, count)| start..start + count)
}

/// Reads `n` packed entries written by [`Buckets::add`], a block at a time (no copy of the
/// whole bucket's bytes beside its entries).
fn read_packed(path: &Path, n: usize) -> Result<Vec<u128>, ArchiveError> {
    const BLOCK: usize = 1 << 16;
    let mut entries = Vec::with_capacity(n);
    let mut file = File::open(path).map_err(ArchiveError::io(path))?;
    let mut block = vec![0u8; BLOCK];
    let mut left = n * 16;
    while left > 0 {
        let bytes = &mut block[..left.min(BLOCK)];
        file.read_exact(bytes).map_err(ArchiveError::io(path))?;
        entries.extend(
            bytes
                .chunks_exact(16)
                .map(|c| u128::from_le_bytes(c.try_into().expect("16 bytes"))),
        );
        left -= bytes.len();
    }
    Ok(entries)
}

/// Writes sorted packed entries in the file's layout at byte `offset` of `file`, a block at
/// a time.
fn write_sorted_at(file: &File, offset: u64, entries: &[u128]) -> std::io::Result<()> {
    const BLOCK: usize = 1 << 16;
    let mut bytes = Vec::with_capacity(BLOCK.min(entries.len()) * Entry::SIZE);
    let mut at = offset;
    for chunk in entries.chunks(BLOCK) {
        bytes.clear();
        for &packed in chunk {
            bytes.extend_from_slice(&Entry::unpacked(packed).to_bytes());
        }
        file.write_all_at(&bytes, at)?;
        at += bytes.len() as u64;
    }
    Ok(())
}

/// Sorts a bucket too large for its share of memory: runs of `share` entries sorted and
/// written beside it, then merged into `out` at `offset`.
fn sort_large_bucket(
    path: &Path,
    share: usize,
    out: &File,
    offset: u64,
    target: &Path,
) -> Result<(), ArchiveError> {
    let mut reader =
        BufReader::with_capacity(1 << 20, File::open(path).map_err(ArchiveError::io(path))?);
    let mut runs = Vec::new();
    let mut run = Vec::with_capacity(share);
    let mut word = [0u8; 16];
    loop {
        let more = match reader.read_exact(&mut word) {
            Ok(()) => true,
            Err(e) if e.kind() == std::io::ErrorKind::UnexpectedEof => false,
            Err(e) => return Err(ArchiveError::io(path)(e)),
        };
        if more {
            run.push(u128::from_le_bytes(word));
        }
        if run.len() == share || (!more && !run.is_empty()) {
            run.sort_unstable();
            let run_path = path.with_extension(format!("run{}", runs.len()));
            let file = File::create(&run_path).map_err(ArchiveError::io(&run_path))?;
            let mut w = BufWriter::with_capacity(1 << 20, file);
            for &packed in &run {
                w.write_all(&packed.to_le_bytes())
                    .map_err(ArchiveError::io(&run_path))?;
            }
            w.flush().map_err(ArchiveError::io(&run_path))?;
            runs.push(run_path);
            run.clear();
        }
        if !more {
            break;
        }
    }
    let merged = merge_runs(&runs, out, offset, target);
    for run in &runs {
        let _ = std::fs::remove_file(run);
    }
    merged
}

/// Merges sorted run files of packed entries into `out` at `offset`.
fn merge_runs(
    runs: &[PathBuf],
    out: &File,
    offset: u64,
    target: &Path,
) -> Result<(), ArchiveError> {
    let mut readers = Vec::new();
    for run in runs {
        let file = File::open(run).map_err(ArchiveError::io(run))?;
        readers.push(BufReader::with_capacity(1 << 20, file));
    }
    let next = |reader: &mut BufReader<File>, path: &Path| -> Result<Option<u128>, ArchiveError> {
        let mut b = [0u8; 16];
        match reader.read_exact(&mut b) {
            Ok(()) => Ok(Some(u128::from_le_bytes(b))),
            Err(e) if e.kind() == std::io::ErrorKind::UnexpectedEof => Ok(None),
            Err(e) => Err(ArchiveError::io(path)(e)),
        }
    };
    let mut heap = BinaryHeap::new();
    for (i, reader) in readers.iter_mut().enumerate() {
        if let Some(first) = next(reader, &runs[i])? {
            heap.push(Reverse((first, i)));
        }
    }
    const BLOCK: usize = 1 << 16;
    let mut block = Vec::with_capacity(BLOCK);
    let mut at = offset;
    while let Some(Reverse((packed, i))) = heap.pop() {
        block.push(packed);
        if block.len() == BLOCK {
            write_sorted_at(out, at, &block).map_err(ArchiveError::io(target))?;
            at += (block.len() * Entry::SIZE) as u64;
            block.clear();
        }
        if let Some(n) = next(&mut readers[i], &runs[i])? {
            heap.push(Reverse((n, i)));
        }
    }
    write_sorted_at(out, at, &block).map_err(ArchiveError::io(target))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn buckets_of_every_size_come_out_sorted() {
        // Entries of one bucket (top bits 0x5a), in game order as they are added: a key every
        // seventh position shares (a popular position), and keys that differ only below the
        // bytes the radix passes look at, so one slice is left for the comparison sort.
        let mut state = 0x6B69_6675u64;
        let mut next = || {
            state = state
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1);
            state
        };
        for size in [0u32, 1, 50, 64, 65, 300, 20_000, 200_000] {
            let entries: Vec<u128> = (0..size)
                .map(|i| {
                    let key = match i % 7 {
                        0 => 0x5a00_0000_0000_0001,
                        1 => 0x5a12_3400_0000_0000 | next() >> 40,
                        _ => 0x5a << 56 | next() >> 8,
                    };
                    Entry {
                        key,
                        game: i / 80,
                        ply: (i % 80) as u16,
                        move_code: 7,
                    }
                    .packed()
                })
                .collect();
            let mut expected = entries.clone();
            expected.sort_unstable();
            assert_eq!(sort_bucket(entries), expected, "{size} entries");
        }
    }

    #[test]
    fn numbers_are_written_in_decimal() {
        let mut space = [0u8; 10];
        assert_eq!(decimal(0, &mut space), b"0");
        assert_eq!(decimal(4_294_967_295, &mut space), b"4294967295");
        assert_eq!(decimal(1_000_000, &mut space), b"1000000");
    }
}
