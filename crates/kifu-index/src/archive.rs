//! An archive on disk (a directory, `games.kidx` by habit) and opening it.
//!
//! ```text
//! games.kidx/
//!   manifest.json        format, version, key, games, segments, files indexed — written last,
//!                        atomically
//!   files.jsonl          the names of the files indexed, one JSON string a line (crate::file_list)
//!   positions-0001.bin   sorted 16-byte entries (crate::entry), one segment per `kifu index` run
//!   positions-0002.bin   … added by `--append`, never rewritten
//!   games.jsonl          one JSON object per game (crate::games::GameMeta)
//!   games.offsets        u64 little-endian per game: where its line starts in games.jsonl
//!   games.fixed          16 bytes per game (crate::games::GameSummary)
//! ```
//!
//! Opening maps the files into memory and reads the manifest: nothing is loaded or parsed
//! until a question needs it, so a cold process answers after a handful of page faults (a
//! binary search touches ~log₂(entries) pages of the position file).

use std::path::{Path, PathBuf};

use memmap2::Mmap;
use serde::{Deserialize, Serialize};

use crate::entry::{Entry, entries_of};
use crate::games::{GameMeta, GameSummary};

/// What the archive's format is called in its manifest.
pub const FORMAT: &str = "kifu-index";
/// The layout's version; a reader refuses another.
pub const VERSION: u32 = 1;
/// The position key's name ([`crate::key`]); a reader refuses another.
pub const KEY: &str = "kifu-zobrist64-v1";

/// `manifest.json`.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Manifest {
    pub format: String,
    pub version: u32,
    pub key: String,
    /// Games in the archive; rows of the games files beyond it are the leftovers of an
    /// interrupted run and are ignored (and cut off by the next `--append`).
    pub games: u32,
    /// Position entries in all segments.
    pub positions: u64,
    pub segments: Vec<SegmentInfo>,
    /// How many names of `files.jsonl` ([`crate::file_list`]) are files the archive holds.
    #[serde(default)]
    pub files_indexed: u64,
    /// The files indexed, as an archive written before `files.jsonl` listed them (read, and
    /// moved to `files.jsonl` by the next `--append`; never written).
    #[serde(default, skip_serializing)]
    pub files: Vec<String>,
}

/// One position file.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct SegmentInfo {
    pub file: String,
    pub entries: u64,
}

impl Manifest {
    pub fn new() -> Manifest {
        Manifest {
            format: FORMAT.into(),
            version: VERSION,
            key: KEY.into(),
            games: 0,
            positions: 0,
            segments: Vec::new(),
            files_indexed: 0,
            files: Vec::new(),
        }
    }
}

impl Default for Manifest {
    fn default() -> Self {
        Manifest::new()
    }
}

/// What can go wrong with an archive.
#[derive(Debug, thiserror::Error)]
pub enum ArchiveError {
    #[error("{path}: {source}")]
    Io {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("{0}: not a kifu archive (no manifest.json)")]
    NotAnArchive(PathBuf),
    #[error("{path}: {reason}")]
    Damaged { path: PathBuf, reason: String },
    #[error("{0}: exists; choose another -o, or add files to it with --append")]
    Exists(PathBuf),
}

impl ArchiveError {
    pub(crate) fn io(path: &Path) -> impl FnOnce(std::io::Error) -> ArchiveError + '_ {
        move |source| ArchiveError::Io {
            path: path.to_path_buf(),
            source,
        }
    }

    fn damaged(path: &Path, reason: impl Into<String>) -> ArchiveError {
        ArchiveError::Damaged {
            path: path.to_path_buf(),
            reason: reason.into(),
        }
    }
}

/// Reads and checks `dir/manifest.json`.
pub fn read_manifest(dir: &Path) -> Result<Manifest, ArchiveError> {
    let path = dir.join("manifest.json");
    let text = match std::fs::read_to_string(&path) {
        Ok(text) => text,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            return Err(ArchiveError::NotAnArchive(dir.to_path_buf()));
        }
        Err(e) => return Err(ArchiveError::io(&path)(e)),
    };
    let manifest: Manifest = serde_json::from_str(&text)
        .map_err(|e| ArchiveError::damaged(&path, format!("unreadable manifest: {e}")))?;
    if manifest.format != FORMAT || manifest.version != VERSION || manifest.key != KEY {
        return Err(ArchiveError::damaged(
            &path,
            format!(
                "format {} version {} key {}: this kifu reads {FORMAT} version {VERSION} key {KEY}",
                manifest.format, manifest.version, manifest.key
            ),
        ));
    }
    Ok(manifest)
}

/// Maps a file; `None` for an empty one (which cannot be mapped).
fn map(path: &Path) -> Result<Option<Mmap>, ArchiveError> {
    let file = std::fs::File::open(path).map_err(ArchiveError::io(path))?;
    let len = file.metadata().map_err(ArchiveError::io(path))?.len();
    if len == 0 {
        return Ok(None);
    }
    // SAFETY: the archive's files are only ever appended to (games files, by `--append`) or
    // written whole under a new name (segments, manifest), never changed in place, so the
    // bytes this map reads stay as they were while it lives.
    let map = unsafe { Mmap::map(&file) }.map_err(ArchiveError::io(path))?;
    Ok(Some(map))
}

fn bytes(map: &Option<Mmap>) -> &[u8] {
    map.as_deref().unwrap_or(&[])
}

/// An open archive.
pub struct Archive {
    dir: PathBuf,
    manifest: Manifest,
    segments: Vec<Option<Mmap>>,
    jsonl: Option<Mmap>,
    offsets: Option<Mmap>,
    fixed: Option<Mmap>,
}

impl Archive {
    /// Opens the archive at `dir`.
    pub fn open(dir: &Path) -> Result<Archive, ArchiveError> {
        let manifest = read_manifest(dir)?;
        let mut segments = Vec::new();
        for segment in &manifest.segments {
            let path = dir.join(&segment.file);
            let map = map(&path)?;
            if (bytes(&map).len() as u64) < segment.entries * Entry::SIZE as u64 {
                return Err(ArchiveError::damaged(
                    &path,
                    format!("shorter than its {} entries", segment.entries),
                ));
            }
            segments.push(map);
        }
        let games = manifest.games as usize;
        let jsonl = map(&dir.join("games.jsonl"))?;
        let offsets = map(&dir.join("games.offsets"))?;
        let fixed = map(&dir.join("games.fixed"))?;
        for (name, map, size) in [
            ("games.offsets", &offsets, 8),
            ("games.fixed", &fixed, GameSummary::SIZE),
        ] {
            if bytes(map).len() < games * size {
                return Err(ArchiveError::damaged(
                    &dir.join(name),
                    format!("shorter than its {games} games"),
                ));
            }
        }
        Ok(Archive {
            dir: dir.to_path_buf(),
            manifest,
            segments,
            jsonl,
            offsets,
            fixed,
        })
    }

    /// Where the archive is.
    pub fn path(&self) -> &Path {
        &self.dir
    }

    /// The manifest.
    pub fn manifest(&self) -> &Manifest {
        &self.manifest
    }

    /// Games in the archive.
    pub fn games(&self) -> u32 {
        self.manifest.games
    }

    /// Every entry of `key`, by game then ply (segments hold ascending ranges of games).
    pub fn entries(&self, key: u64) -> impl Iterator<Item = Entry> + '_ {
        self.segments
            .iter()
            .zip(&self.manifest.segments)
            .flat_map(move |(map, info)| {
                let file = &bytes(map)[..info.entries as usize * Entry::SIZE];
                entries_of(file, key)
            })
    }

    /// The bytes of `key`'s entries in each segment ([`Entry::SIZE`] bytes each, by game then
    /// ply): for a caller that reads a million of them, without an iterator per entry.
    pub fn entry_runs(&self, key: u64) -> impl Iterator<Item = &[u8]> + '_ {
        self.segments
            .iter()
            .zip(&self.manifest.segments)
            .map(move |(map, info)| {
                let file = &bytes(map)[..info.entries as usize * Entry::SIZE];
                crate::entry::run_of(file, key)
            })
    }

    /// The fixed-size facts of game `game`.
    pub fn summary(&self, game: u32) -> GameSummary {
        let at = game as usize * GameSummary::SIZE;
        GameSummary::from_bytes(&bytes(&self.fixed)[at..at + GameSummary::SIZE])
    }

    /// Everything the archive knows of game `game`.
    pub fn game(&self, game: u32) -> Result<GameMeta, ArchiveError> {
        let path = || self.dir.join("games.jsonl");
        if game >= self.manifest.games {
            return Err(ArchiveError::damaged(&path(), format!("no game {game}")));
        }
        let offsets = bytes(&self.offsets);
        let at = game as usize * 8;
        let mut word = [0u8; 8];
        word.copy_from_slice(&offsets[at..at + 8]);
        let start = u64::from_le_bytes(word) as usize;
        let text = bytes(&self.jsonl);
        let line = text
            .get(start..)
            .and_then(|rest| rest.split(|&b| b == b'\n').next())
            .ok_or_else(|| ArchiveError::damaged(&path(), format!("game {game} is cut off")))?;
        let mut meta: GameMeta = serde_json::from_slice(line)
            .map_err(|e| ArchiveError::damaged(&path(), format!("game {game}: {e}")))?;
        meta.game = game;
        Ok(meta)
    }

    /// Every game, in the order they were added.
    pub fn iter_games(&self) -> impl Iterator<Item = Result<GameMeta, ArchiveError>> + '_ {
        (0..self.manifest.games).map(|g| self.game(g))
    }
}
