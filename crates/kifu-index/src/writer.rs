//! Building an archive, or adding to one.
//!
//! Games arrive one at a time (in the order the caller read them; the CLI reads files in
//! parallel and adds them in the order they were named). Each game's row goes straight to the
//! games files; its positions go into a buffer of packed entries. A full buffer is sorted and
//! spilled to a run file; at the end the runs are merged into one sorted segment. Memory is
//! the buffer (`run_entries` × 16 bytes) plus one read buffer per run, whatever the archive's
//! size. Adding to an archive writes a new segment beside the old ones, which stay as they are.

use std::cmp::Reverse;
use std::collections::BinaryHeap;
use std::fs::{File, OpenOptions};
use std::io::{BufReader, BufWriter, Read, Write};
use std::path::{Path, PathBuf};

use rayon::slice::ParallelSliceMut;

use crate::archive::{ArchiveError, Manifest, SegmentInfo, read_manifest};
use crate::entry::Entry;
use crate::games::GameSummary;
use crate::read::IndexedGame;

/// Entries held before a run is sorted and spilled: 16 M entries, 256 MiB.
pub const DEFAULT_RUN_ENTRIES: usize = 16 << 20;

/// An archive being written.
pub struct ArchiveWriter {
    dir: PathBuf,
    manifest: Manifest,
    jsonl: BufWriter<File>,
    jsonl_len: u64,
    offsets: BufWriter<File>,
    fixed: BufWriter<File>,
    run: Vec<u128>,
    run_entries: usize,
    runs: Vec<PathBuf>,
    added_games: u32,
    added_positions: u64,
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
        Ok(ArchiveWriter {
            dir: dir.to_path_buf(),
            manifest,
            jsonl,
            jsonl_len,
            offsets,
            fixed,
            run: Vec::new(),
            run_entries: DEFAULT_RUN_ENTRIES,
            runs: Vec::new(),
            added_games: 0,
            added_positions: 0,
        })
    }

    /// Sets how many entries are held before a run is spilled (memory: 16 bytes each).
    pub fn set_run_entries(&mut self, entries: usize) {
        self.run_entries = entries.max(1);
    }

    /// Whether a file of this name is in the archive already.
    pub fn has_file(&self, name: &str) -> bool {
        self.manifest.files.iter().any(|f| f == name)
    }

    /// Notes a file as indexed (its games are added with [`ArchiveWriter::add`]).
    pub fn add_file(&mut self, name: &str) {
        self.manifest.files.push(name.to_owned());
    }

    /// Adds one game; returns its number.
    pub fn add(&mut self, game: &IndexedGame) -> Result<u32, ArchiveError> {
        let number = self.manifest.games + self.added_games;
        let mut meta = game.meta.clone();
        meta.game = number;
        let jsonl_path = || self.dir.join("games.jsonl");
        let mut line = serde_json::to_vec(&meta).map_err(|e| ArchiveError::Damaged {
            path: jsonl_path(),
            reason: e.to_string(),
        })?;
        line.push(b'\n');
        self.offsets
            .write_all(&self.jsonl_len.to_le_bytes())
            .map_err(ArchiveError::io(&self.dir.join("games.offsets")))?;
        self.jsonl
            .write_all(&line)
            .map_err(ArchiveError::io(&jsonl_path()))?;
        self.jsonl_len += line.len() as u64;
        self.fixed
            .write_all(&game.summary.to_bytes())
            .map_err(ArchiveError::io(&self.dir.join("games.fixed")))?;
        for (ply, &key) in game.keys.iter().enumerate() {
            let entry = Entry {
                key,
                game: number,
                ply: ply as u16,
                move_code: game.moves.get(ply).copied().unwrap_or(0),
            };
            self.run.push(entry.packed());
        }
        self.added_games += 1;
        self.added_positions += game.keys.len() as u64;
        if self.run.len() >= self.run_entries {
            self.spill()?;
        }
        Ok(number)
    }

    /// Sorts the buffer and writes it to a run file.
    fn spill(&mut self) -> Result<(), ArchiveError> {
        let path = self.dir.join(format!("run-{}.tmp", self.runs.len()));
        self.run.par_sort_unstable();
        write_entries(&path, self.run.iter().copied())?;
        self.run.clear();
        self.runs.push(path);
        Ok(())
    }

    /// Writes the new segment and the manifest that makes this run's games part of the
    /// archive.
    pub fn finish(mut self) -> Result<Added, ArchiveError> {
        for (writer, name) in [
            (&mut self.jsonl, "games.jsonl"),
            (&mut self.offsets, "games.offsets"),
            (&mut self.fixed, "games.fixed"),
        ] {
            let path = self.dir.join(name);
            writer.flush().map_err(ArchiveError::io(&path))?;
            writer
                .get_ref()
                .sync_data()
                .map_err(ArchiveError::io(&path))?;
        }
        if self.added_positions > 0 {
            let name = format!("positions-{:04}.bin", self.manifest.segments.len() + 1);
            let target = self.dir.join(&name);
            let partial = self.dir.join(format!("{name}.tmp"));
            if self.runs.is_empty() {
                self.run.par_sort_unstable();
                write_entries(&partial, self.run.iter().copied())?;
            } else {
                if !self.run.is_empty() {
                    self.spill()?;
                }
                merge_runs(&self.runs, &partial)?;
                for run in &self.runs {
                    let _ = std::fs::remove_file(run);
                }
            }
            std::fs::rename(&partial, &target).map_err(ArchiveError::io(&target))?;
            self.manifest.segments.push(SegmentInfo {
                file: name,
                entries: self.added_positions,
            });
        }
        self.manifest.games += self.added_games;
        self.manifest.positions += self.added_positions;
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
}

fn write_entries(path: &Path, entries: impl Iterator<Item = u128>) -> Result<(), ArchiveError> {
    let file = File::create(path).map_err(ArchiveError::io(path))?;
    let mut out = BufWriter::with_capacity(1 << 20, file);
    for packed in entries {
        out.write_all(&Entry::unpacked(packed).to_bytes())
            .map_err(ArchiveError::io(path))?;
    }
    let file = out
        .into_inner()
        .map_err(|e| ArchiveError::io(path)(e.into_error()))?;
    file.sync_data().map_err(ArchiveError::io(path))
}

/// Merges sorted run files into one sorted file.
fn merge_runs(runs: &[PathBuf], target: &Path) -> Result<(), ArchiveError> {
    let mut readers = Vec::new();
    for run in runs {
        let file = File::open(run).map_err(ArchiveError::io(run))?;
        readers.push(BufReader::with_capacity(1 << 20, file));
    }
    let next = |reader: &mut BufReader<File>, path: &Path| -> Result<Option<u128>, ArchiveError> {
        let mut b = [0u8; Entry::SIZE];
        match reader.read_exact(&mut b) {
            Ok(()) => Ok(Some(Entry::from_bytes(&b).packed())),
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
    let mut merged = Vec::new();
    let file = File::create(target).map_err(ArchiveError::io(target))?;
    let mut out = BufWriter::with_capacity(1 << 20, file);
    while let Some(Reverse((packed, i))) = heap.pop() {
        merged.clear();
        merged.extend_from_slice(&Entry::unpacked(packed).to_bytes());
        out.write_all(&merged).map_err(ArchiveError::io(target))?;
        if let Some(n) = next(&mut readers[i], &runs[i])? {
            heap.push(Reverse((n, i)));
        }
    }
    let file = out
        .into_inner()
        .map_err(|e| ArchiveError::io(target)(e.into_error()))?;
    file.sync_data().map_err(ArchiveError::io(target))
}
