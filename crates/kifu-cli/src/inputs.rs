//! Finding the files a command works on and reading them (`-` is standard input).

use std::io::Read;
use std::path::{Path, PathBuf};

use walkdir::WalkDir;

use crate::error::CliError;

/// A file named on the command line that is not there is a mistake in the command line
/// (exit 2); one that is there but cannot be read is a failure (exit 1).
pub fn open_error(name: &str, e: std::io::Error) -> CliError {
    if e.kind() == std::io::ErrorKind::NotFound {
        CliError::Usage(format!("{name}: no such file or directory"))
    } else {
        CliError::Failed(format!("{name}: {e}"))
    }
}

/// One file named on the command line or found in a directory.
#[derive(Clone, Debug)]
pub struct Input {
    /// `None` for standard input.
    pub path: Option<PathBuf>,
    /// The directory argument it was found under, for mirroring trees in batch output.
    pub root: Option<PathBuf>,
}

impl Input {
    pub fn stdin() -> Input {
        Input {
            path: None,
            root: None,
        }
    }

    /// A command-line argument: a path, or `-` for standard input.
    pub fn from_arg(arg: &Path) -> Input {
        if arg.as_os_str() == "-" {
            Input::stdin()
        } else {
            Input {
                path: Some(arg.to_path_buf()),
                root: None,
            }
        }
    }

    pub fn name(&self) -> String {
        match &self.path {
            // `display` goes through a lossy pass even for a path that is valid UTF-8.
            Some(p) => match p.to_str() {
                Some(utf8) => utf8.to_owned(),
                None => p.display().to_string(),
            },
            None => "<stdin>".to_string(),
        }
    }

    pub fn read(&self) -> std::io::Result<Vec<u8>> {
        let mut buf = Vec::new();
        self.read_into(&mut buf)?;
        Ok(buf)
    }

    /// Reads the whole input into `buf` (emptied first), reusing its memory: a command that
    /// reads thousands of small files allocates one buffer per thread, not one per file.
    pub fn read_into(&self, buf: &mut Vec<u8>) -> std::io::Result<()> {
        buf.clear();
        match &self.path {
            // `File::read_to_end` asks the file its size first (statx and lseek, two system
            // calls on top of open, read and close); reading through `Take` skips that and
            // fills the spare room of `buf`, growing it only for a file larger than any before.
            Some(p) => std::fs::File::open(p)?
                .take(u64::MAX)
                .read_to_end(buf)
                .map(drop),
            None => std::io::stdin().lock().read_to_end(buf).map(drop),
        }
    }

    /// The path below its directory argument (the file name for a file argument).
    pub fn relative(&self) -> PathBuf {
        match (&self.path, &self.root) {
            (Some(p), Some(root)) => p.strip_prefix(root).unwrap_or(p).to_path_buf(),
            (Some(p), None) => p
                .file_name()
                .map(PathBuf::from)
                .unwrap_or_else(|| p.clone()),
            (None, _) => PathBuf::from("stdin"),
        }
    }
}

/// Expands arguments: files are taken as given, directories are walked recursively
/// (sorted, so output is stable) keeping the files `wanted` accepts.
/// Returns the inputs and the files in directories that were passed over.
pub fn expand(
    args: &[PathBuf],
    wanted: impl Fn(&Path) -> bool,
) -> Result<(Vec<Input>, Vec<PathBuf>), CliError> {
    let mut inputs = Vec::new();
    let mut skipped = Vec::new();
    for arg in args {
        if arg.as_os_str() == "-" {
            inputs.push(Input::stdin());
            continue;
        }
        let meta = std::fs::metadata(arg).map_err(|e| open_error(&arg.display().to_string(), e))?;
        if !meta.is_dir() {
            inputs.push(Input {
                path: Some(arg.clone()),
                root: None,
            });
            continue;
        }
        // The entries of a directory by name: siblings share their parent's path up to the
        // name, so comparing whole paths as bytes is comparing names. walkdir's own
        // `sort_by_file_name` parses both paths for their last component at every comparison
        // (3.6% of `kifu check` over 10,000 files).
        let by_name = |a: &walkdir::DirEntry, b: &walkdir::DirEntry| {
            a.path().as_os_str().cmp(b.path().as_os_str())
        };
        for entry in WalkDir::new(arg).sort_by(by_name) {
            let entry = entry.map_err(|e| CliError::Failed(format!("{}: {e}", arg.display())))?;
            if !entry.file_type().is_file() {
                continue;
            }
            if wanted(entry.path()) {
                inputs.push(Input {
                    path: Some(entry.into_path()),
                    root: Some(arg.clone()),
                });
            } else {
                skipped.push(entry.into_path());
            }
        }
    }
    Ok((inputs, skipped))
}

/// The threads that read files: `jobs` of them, or one per core when it is not given.
pub fn worker_pool(jobs: Option<usize>) -> Result<rayon::ThreadPool, String> {
    rayon::ThreadPoolBuilder::new()
        .num_threads(jobs.unwrap_or(0))
        .build()
        .map_err(|e| e.to_string())
}

/// A progress bar over `files` files, drawn only when standard error is a terminal and there
/// is more than one file (hidden otherwise, so pipes and logs get no control codes).
pub fn file_progress(files: usize) -> indicatif::ProgressBar {
    use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
    if !crate::stderr_is_terminal() || files <= 1 {
        return ProgressBar::hidden();
    }
    let bar = ProgressBar::with_draw_target(Some(files as u64), ProgressDrawTarget::stderr());
    if let Ok(style) =
        ProgressStyle::with_template("{bar:40} {pos}/{len} files {per_sec} eta {eta}")
    {
        bar.set_style(style);
    }
    bar
}
