//! Where converted records go: never over an input or another output of the same run, never
//! over a file that was there before unless `--force`, and always whole (a temporary file in the
//! same directory, renamed into place), so that a failed conversion leaves nothing behind.

use std::collections::HashSet;
use std::io::Write;
use std::path::{Component, Path, PathBuf};

use crate::inputs::Input;

/// The output paths of one run.
pub struct Outputs {
    /// The inputs, as absolute paths: never written.
    inputs: HashSet<PathBuf>,
    /// Every output path this run has given out, as absolute paths.
    claimed: HashSet<PathBuf>,
    force: bool,
    /// `--skip-existing`: an output that exists is kept as it is (every output is renamed
    /// into place whole, so one under its name is a finished one), for resuming a run.
    keep_existing: bool,
    /// How many outputs were kept so.
    kept: std::cell::Cell<usize>,
}

/// The same file whether named relative or absolute, with or without `..` (the output may not
/// exist yet, so only its longest existing ancestor can be canonicalized).
fn identity(path: &Path) -> PathBuf {
    let absolute = std::path::absolute(path).unwrap_or_else(|_| path.to_path_buf());
    let mut existing = absolute.as_path();
    let mut rest = Vec::new();
    loop {
        if let Ok(real) = existing.canonicalize() {
            let mut out = real;
            for part in rest.iter().rev() {
                out.push(part);
            }
            return out;
        }
        match (existing.parent(), existing.file_name()) {
            (Some(parent), Some(name)) => {
                rest.push(name.to_os_string());
                existing = parent;
            }
            _ => break,
        }
    }
    // Nothing exists: normalise the `.` and `..` lexically.
    let mut out = PathBuf::new();
    for c in absolute.components() {
        match c {
            Component::ParentDir => {
                out.pop();
            }
            Component::CurDir => {}
            other => out.push(other),
        }
    }
    out
}

impl Outputs {
    pub fn new(inputs: &[Input], force: bool) -> Outputs {
        Outputs {
            inputs: inputs
                .iter()
                .filter_map(|i| i.path.as_deref())
                .map(identity)
                .collect(),
            claimed: HashSet::new(),
            force,
            keep_existing: false,
            kept: std::cell::Cell::new(0),
        }
    }

    /// Keeps outputs that exist instead of refusing them (`--skip-existing`).
    pub fn keeping_existing(mut self) -> Outputs {
        self.keep_existing = true;
        self
    }

    /// How many outputs existed and were kept.
    pub fn kept(&self) -> usize {
        self.kept.get()
    }

    /// True if `path` is free for this run: neither an input nor already given out.
    pub fn is_free(&self, path: &Path) -> bool {
        let id = identity(path);
        !self.inputs.contains(&id) && !self.claimed.contains(&id)
    }

    /// Takes `wanted` if it is free, else the first free `name-2.ext`, `name-3.ext`, …
    /// Returns the path and whether it had to be renamed.
    pub fn claim(&mut self, wanted: PathBuf) -> (PathBuf, bool) {
        let mut path = wanted.clone();
        let mut n = 2;
        while !self.is_free(&path) {
            path = numbered(&wanted, &n.to_string());
            n += 1;
        }
        self.claimed.insert(identity(&path));
        let renamed = path != wanted;
        (path, renamed)
    }

    /// Writes `bytes` to `path` whole or not at all; an existing file is replaced only with
    /// `--force`, and an input never.
    pub fn write(&self, path: &Path, bytes: &[u8]) -> Result<(), String> {
        if self.inputs.contains(&identity(path)) {
            return Err(format!(
                "{}: is an input of this run; not overwritten",
                path.display()
            ));
        }
        if self.keep_existing && path.exists() {
            self.kept.set(self.kept.get() + 1);
            return Ok(());
        }
        write_atomically(path, bytes, self.force)
    }
}

/// `dir/game.kifu` → `dir/game-2.kifu` (the extension stays last so the format still shows).
pub fn numbered(path: &Path, suffix: &str) -> PathBuf {
    let stem = path
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_default();
    let name = match path.extension() {
        Some(ext) => format!("{stem}-{suffix}.{}", ext.to_string_lossy()),
        None => format!("{stem}-{suffix}"),
    };
    path.with_file_name(name)
}

/// A temporary file next to `path`, renamed over it once complete: readers of `path` see the
/// old file or the new one, never half of one. Without `replace`, an existing `path` is an error
/// (checked by the rename itself, so a file appearing meanwhile is not lost either).
pub fn write_atomically(path: &Path, bytes: &[u8], replace: bool) -> Result<(), String> {
    let shown = path.display();
    let dir = match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    };
    std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    if !replace && path.exists() {
        return Err(format!(
            "{shown}: exists; not overwritten (--force replaces it)"
        ));
    }
    let mut temp = temporary_in(dir, ".kifu-")
        .map_err(|e| format!("{}: cannot create a temporary file: {e}", dir.display()))?;
    // No fsync: the rename already keeps a half-written file from ever standing under the
    // name, and syncing each of 100,000 split records made a 10-second job take 10 minutes.
    let temp_path = temp.path().to_path_buf();
    if let Err(e) = temp.write_all(bytes) {
        drop(temp); // removes it
        finished(&temp_path);
        return Err(format!("{shown}: {e}"));
    }
    let persisted = if replace {
        temp.persist(path)
            .map(drop)
            .map_err(|e| format!("{shown}: {}", e.error))
    } else {
        temp.persist_noclobber(path).map(drop).map_err(|e| {
            if e.error.kind() == std::io::ErrorKind::AlreadyExists {
                format!("{shown}: exists; not overwritten (--force replaces it)")
            } else {
                format!("{shown}: {}", e.error)
            }
        })
    };
    finished(&temp_path);
    persisted
}

/// The temporary files being written now: an interrupted run (Ctrl-C, SIGTERM, SIGHUP)
/// removes them before it ends, so that no hidden `.kifu-….part` file is left behind.
static PENDING: std::sync::Mutex<Vec<PathBuf>> = std::sync::Mutex::new(Vec::new());

/// Installs, once, what an interruption does: remove the pending temporary files and end
/// with the status a shell gives a process ended by SIGINT (130). A command that installed
/// its own handler (`kifu link`, which saves its game) keeps it.
fn remove_pending_on_interrupt() {
    static INSTALLED: std::sync::Once = std::sync::Once::new();
    INSTALLED.call_once(|| {
        let _ = ctrlc::set_handler(|| {
            let pending = PENDING
                .lock()
                .unwrap_or_else(|poisoned| poisoned.into_inner());
            for path in pending.iter() {
                let _ = std::fs::remove_file(path);
            }
            eprintln!("kifu: interrupted; files not yet whole were removed");
            std::process::exit(130);
        });
    });
}

/// `path`, a temporary file, is whole and renamed, or removed: no longer pending.
pub fn finished(path: &Path) {
    let mut pending = PENDING
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner());
    if let Some(at) = pending.iter().position(|p| p == path) {
        pending.swap_remove(at);
    }
}

/// A temporary file in `dir`, to be renamed over its target when whole. It is created with the
/// mode any new file gets (0666 less the user's umask), not tempfile's private 0600: the finished
/// output is an ordinary file that others may read where the user's umask allows it.
pub fn temporary_in(dir: &Path, prefix: &str) -> std::io::Result<tempfile::NamedTempFile> {
    let mut builder = tempfile::Builder::new();
    builder.prefix(prefix).suffix(".part");
    #[cfg(unix)]
    builder.permissions(std::os::unix::fs::PermissionsExt::from_mode(0o666));
    remove_pending_on_interrupt();
    // The file is made and listed under the lock the interruption takes: an interruption
    // either comes before the file exists or finds it listed, never between the two.
    let mut pending = PENDING
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner());
    let file = builder.tempfile_in(dir)?;
    pending.push(file.path().to_path_buf());
    Ok(file)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbered_names_keep_the_extension() {
        assert_eq!(
            numbered(Path::new("out/game.kifu"), "2"),
            PathBuf::from("out/game-2.kifu")
        );
        assert_eq!(numbered(Path::new("game"), "3"), PathBuf::from("game-3"));
    }

    #[test]
    fn claims_are_distinct_and_inputs_are_never_free() {
        let dir = tempfile::tempdir().unwrap();
        let input = dir.path().join("game.csa");
        std::fs::write(&input, "PI\n+\n").unwrap();
        let mut outputs = Outputs::new(
            &[Input {
                path: Some(input.clone()),
                root: None,
            }],
            true,
        );
        let via_dotdot = dir.path().join("sub/../game.csa");
        assert!(!outputs.is_free(&via_dotdot));
        assert_eq!(
            outputs.claim(input.clone()),
            (dir.path().join("game-2.csa"), true)
        );
        let kifu = dir.path().join("game.kifu");
        assert_eq!(outputs.claim(kifu.clone()), (kifu.clone(), false));
        assert_eq!(outputs.claim(kifu), (dir.path().join("game-2.kifu"), true));
        assert!(outputs.write(&input, b"x").is_err());
        assert_eq!(std::fs::read_to_string(&input).unwrap(), "PI\n+\n");
    }

    #[test]
    fn an_existing_file_is_kept_without_force() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("old.kif");
        std::fs::write(&path, "old").unwrap();
        let err = write_atomically(&path, b"new", false).unwrap_err();
        assert!(err.contains("--force"), "{err}");
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "old");
        write_atomically(&path, b"new", true).unwrap();
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "new");
        // No temporary file is left behind.
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 1);
    }

    #[cfg(unix)]
    #[test]
    fn a_written_file_has_the_mode_of_any_new_file() {
        use std::os::unix::fs::PermissionsExt;
        let dir = tempfile::tempdir().unwrap();
        let plain = dir.path().join("plain");
        std::fs::write(&plain, "x").unwrap();
        let ours = dir.path().join("ours.kif");
        write_atomically(&ours, b"x", false).unwrap();
        let mode = |p: &Path| std::fs::metadata(p).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode(&ours), mode(&plain));
    }
}
