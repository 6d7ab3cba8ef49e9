//! `files.jsonl`: the names of the files an archive holds, one JSON string a line, so that
//! `kifu index --append` skips the files it has already indexed.
//!
//! The names live beside the manifest, not in it: a question reads the manifest on every
//! start, and an archive of a million one-game files (floodgate's archive is made of such
//! files) made the manifest 100 MB and each `kifu explore` a quarter of a second. The
//! manifest counts the lines that belong to the archive ([`Manifest::files_indexed`]); lines
//! beyond the count are what an interrupted run left, and are cut off by the next one.
//! Archives written before this file existed list their names in the manifest itself; they
//! are moved here by the next `--append`.

use std::collections::HashSet;
use std::fs::{File, OpenOptions};
use std::io::{BufRead, BufReader, BufWriter, Write};
use std::path::{Path, PathBuf};

use crate::archive::{ArchiveError, Manifest};

/// The file's name in the archive's directory.
pub const FILE_LIST: &str = "files.jsonl";

/// The names indexed, and the list being extended.
pub struct FileList {
    known: HashSet<String>,
    path: PathBuf,
    out: BufWriter<File>,
    /// Names the manifest counts, those written by this run included.
    count: u64,
}

impl FileList {
    /// Opens the list of the archive at `dir` whose manifest is `manifest`, keeping its first
    /// [`Manifest::files_indexed`] names and moving an older archive's names out of the
    /// manifest.
    pub fn open(dir: &Path, manifest: &mut Manifest) -> Result<FileList, ArchiveError> {
        let path = dir.join(FILE_LIST);
        let mut known = HashSet::new();
        let mut kept_bytes = 0u64;
        let mut count = 0u64;
        match File::open(&path) {
            Ok(file) => {
                let mut reader = BufReader::new(file);
                let mut line = String::new();
                while count < manifest.files_indexed {
                    line.clear();
                    let read = reader
                        .read_line(&mut line)
                        .map_err(ArchiveError::io(&path))?;
                    if read == 0 || !line.ends_with('\n') {
                        break;
                    }
                    let name: String =
                        serde_json::from_str(&line).map_err(|e| ArchiveError::Damaged {
                            path: path.clone(),
                            reason: format!("line {}: {e}", count + 1),
                        })?;
                    known.insert(name);
                    kept_bytes += read as u64;
                    count += 1;
                }
            }
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
            Err(e) => return Err(ArchiveError::io(&path)(e)),
        }
        if count < manifest.files_indexed {
            return Err(ArchiveError::Damaged {
                path,
                reason: format!(
                    "lists {count} files, the manifest counts {}",
                    manifest.files_indexed
                ),
            });
        }
        let file = OpenOptions::new()
            .create(true)
            .truncate(false)
            .write(true)
            .open(&path)
            .map_err(ArchiveError::io(&path))?;
        // What an interrupted run appended is not part of the archive.
        file.set_len(kept_bytes).map_err(ArchiveError::io(&path))?;
        let mut out = BufWriter::new(file);
        use std::io::Seek;
        out.seek(std::io::SeekFrom::End(0))
            .map_err(ArchiveError::io(&path))?;
        let mut list = FileList {
            known,
            path,
            out,
            count,
        };
        for name in std::mem::take(&mut manifest.files) {
            list.add(&name)?;
        }
        Ok(list)
    }

    /// Whether a file of this name is in the archive already.
    pub fn contains(&self, name: &str) -> bool {
        self.known.contains(name)
    }

    /// Adds a name (once).
    pub fn add(&mut self, name: &str) -> Result<(), ArchiveError> {
        if !self.known.insert(name.to_owned()) {
            return Ok(());
        }
        let mut line = serde_json::to_string(name).map_err(|e| ArchiveError::Damaged {
            path: self.path.clone(),
            reason: e.to_string(),
        })?;
        line.push('\n');
        self.out
            .write_all(line.as_bytes())
            .map_err(ArchiveError::io(&self.path))?;
        self.count += 1;
        Ok(())
    }

    /// How many names the list holds.
    pub fn count(&self) -> u64 {
        self.count
    }

    /// Writes what is buffered; the file to make durable, and its path.
    pub fn flush(&mut self) -> Result<(File, PathBuf), ArchiveError> {
        self.out.flush().map_err(ArchiveError::io(&self.path))?;
        let file = self
            .out
            .get_ref()
            .try_clone()
            .map_err(ArchiveError::io(&self.path))?;
        Ok((file, self.path.clone()))
    }
}

#[cfg(test)]
mod tests {
    use crate::archive::{Archive, read_manifest};
    use crate::writer::ArchiveWriter;

    fn manifest_text(dir: &std::path::Path) -> String {
        std::fs::read_to_string(dir.join("manifest.json")).unwrap()
    }

    #[test]
    fn names_live_beside_the_manifest_and_an_append_knows_them() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("a.kidx");
        let mut w = ArchiveWriter::create(&path).unwrap();
        for name in ["one.csa", "two\nlines.csa", "one.csa"] {
            w.add_file(name).unwrap();
        }
        w.finish().unwrap();
        assert!(!manifest_text(&path).contains("one.csa"));
        assert_eq!(read_manifest(&path).unwrap().files_indexed, 2);
        let w = ArchiveWriter::append(&path).unwrap();
        assert!(w.has_file("one.csa") && w.has_file("two\nlines.csa"));
        assert!(!w.has_file("three.csa"));
    }

    #[test]
    fn what_an_interrupted_run_listed_is_not_indexed() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("a.kidx");
        let mut w = ArchiveWriter::create(&path).unwrap();
        w.add_file("kept.csa").unwrap();
        w.finish().unwrap();
        // A run that wrote its names but never its manifest.
        let mut w = ArchiveWriter::append(&path).unwrap();
        w.add_file("lost.csa").unwrap();
        drop(w);
        let list = std::fs::read_to_string(path.join(super::FILE_LIST)).unwrap();
        assert!(list.contains("lost.csa"), "{list}");
        let w = ArchiveWriter::append(&path).unwrap();
        assert!(w.has_file("kept.csa"));
        assert!(!w.has_file("lost.csa"));
        w.finish().unwrap();
        let list = std::fs::read_to_string(path.join(super::FILE_LIST)).unwrap();
        assert_eq!(list, "\"kept.csa\"\n");
    }

    #[test]
    fn an_archive_listing_its_files_in_the_manifest_is_moved_on_append() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("a.kidx");
        ArchiveWriter::create(&path).unwrap().finish().unwrap();
        // The layout before files.jsonl: the names in the manifest, no count.
        let text = manifest_text(&path).replace(
            "\"files_indexed\": 0",
            "\"files\": [\"old.csa\", \"older.csa\"]",
        );
        assert!(text.contains("older.csa"), "{text}");
        std::fs::write(path.join("manifest.json"), text).unwrap();
        Archive::open(&path).unwrap();
        let mut w = ArchiveWriter::append(&path).unwrap();
        assert!(w.has_file("old.csa") && w.has_file("older.csa"));
        w.add_file("new.csa").unwrap();
        w.finish().unwrap();
        assert!(!manifest_text(&path).contains("old.csa"));
        assert_eq!(read_manifest(&path).unwrap().files_indexed, 3);
        let w = ArchiveWriter::append(&path).unwrap();
        assert!(w.has_file("old.csa") && w.has_file("new.csa"));
    }
}
