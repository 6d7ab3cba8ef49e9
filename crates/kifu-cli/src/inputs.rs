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
        self.read_within(buf, &mut OpenDirectory::default())
    }

    /// [`Input::read_into`] for a command that reads many files one after another: a file
    /// found in a directory walk is opened by its name relative to its directory, which
    /// `directory` keeps open from one file to the next (the files of a walk come directory
    /// by directory), so the kernel looks up one path component per file instead of them all.
    pub fn read_within(
        &self,
        buf: &mut Vec<u8>,
        directory: &mut OpenDirectory,
    ) -> std::io::Result<()> {
        buf.clear();
        let Some(path) = &self.path else {
            return std::io::stdin().lock().read_to_end(buf).map(drop);
        };
        // Files found in a walk are regular files (the walk keeps only those and does not
        // follow links), and one `read` of a regular file that returns less than it was asked
        // for has reached the end of the file (POSIX `read()`): the usual second `read` that
        // returns 0 is one system call per file saved, a quarter of them.
        if self.root.is_some()
            && let Some(result) = directory.read_regular(path, buf)
        {
            return result;
        }
        // `File::read_to_end` asks the file its size first (statx and lseek, two system calls
        // on top of open, read and close); reading through `Take` skips that and fills the
        // spare room of `buf`, growing it only for a file larger than any before.
        std::fs::File::open(path)?
            .take(u64::MAX)
            .read_to_end(buf)
            .map(drop)
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

/// What a file is, whatever path names it: its device and inode where the system has them
/// (one `stat`), else its canonical path (a resolution of every component). Two paths name
/// the same file when their identities are equal; hard links included.
#[derive(Debug, PartialEq, Eq)]
pub struct FileIdentity {
    #[cfg(unix)]
    inode: (u64, u64),
    #[cfg(not(unix))]
    canonical: PathBuf,
}

impl FileIdentity {
    /// The identity of the file at `path`; `None` when there is none there.
    pub fn of(path: &Path) -> Option<FileIdentity> {
        #[cfg(unix)]
        {
            use std::os::unix::fs::MetadataExt;
            let meta = std::fs::metadata(path).ok()?;
            Some(FileIdentity {
                inode: (meta.dev(), meta.ino()),
            })
        }
        #[cfg(not(unix))]
        {
            Some(FileIdentity {
                canonical: std::fs::canonicalize(path).ok()?,
            })
        }
    }
}

/// What a worker keeps from one file to the next in a command that reads many: the buffer
/// the bytes go into and the directory last read from, kept open (see
/// [`Input::read_within`]).
#[derive(Default)]
pub struct FileReader {
    buffer: Vec<u8>,
    directory: OpenDirectory,
}

impl FileReader {
    /// A reader whose buffer has room for `capacity` bytes before its first file.
    pub fn with_capacity(capacity: usize) -> FileReader {
        FileReader {
            buffer: Vec::with_capacity(capacity),
            directory: OpenDirectory::default(),
        }
    }

    /// Reads `input` whole; its bytes stay until the next read.
    pub fn read(&mut self, input: &Input) -> std::io::Result<&[u8]> {
        input.read_within(&mut self.buffer, &mut self.directory)?;
        Ok(&self.buffer)
    }
}

/// The directory the last file was read from, kept open (see [`Input::read_within`]).
#[derive(Default)]
pub struct OpenDirectory {
    #[cfg(unix)]
    current: Option<(Vec<u8>, rustix::fd::OwnedFd)>,
}

impl OpenDirectory {
    /// Reads the regular file at `path` into `buf` (empty), opened relative to its directory;
    /// `None` when that directory cannot be opened (the caller then opens the whole path, so
    /// that any error is the one opening the file gives).
    #[cfg(unix)]
    fn read_regular(&mut self, path: &Path, buf: &mut Vec<u8>) -> Option<std::io::Result<()>> {
        use rustix::buffer::spare_capacity;
        use rustix::fs::{Mode, OFlags, openat};
        use rustix::io::Errno;

        use std::ffi::OsStr;
        use std::os::unix::ffi::OsStrExt;

        // Split at the last `/` as bytes: `Path::parent` and `Path::file_name` parse the path
        // into components, for every file.
        let bytes = path.as_os_str().as_bytes();
        let slash = bytes.iter().rposition(|&b| b == b'/')?;
        let (parent, name) = (&bytes[..slash.max(1)], &bytes[slash + 1..]);
        if name.is_empty() {
            return None;
        }
        if self
            .current
            .as_ref()
            .is_none_or(|(open, _)| open[..] != *parent)
        {
            self.current = None;
            let flags = OFlags::RDONLY | OFlags::DIRECTORY | OFlags::CLOEXEC;
            let fd = openat(
                rustix::fs::CWD,
                OsStr::from_bytes(parent),
                flags,
                Mode::empty(),
            );
            self.current = Some((parent.to_vec(), fd.ok()?));
        }
        let name = OsStr::from_bytes(name);
        let (_, dir) = self.current.as_ref()?;
        let mut read = || -> std::io::Result<()> {
            let file = openat(dir, name, OFlags::RDONLY | OFlags::CLOEXEC, Mode::empty())?;
            if buf.capacity() == 0 {
                buf.reserve(FIRST_READ);
            }
            let room = buf.capacity();
            let n = loop {
                match rustix::io::read(&file, spare_capacity(buf)) {
                    Err(Errno::INTR) => continue,
                    other => break other?,
                }
            };
            if n < room {
                return Ok(());
            }
            // The file filled the buffer: read the rest as any other file.
            std::fs::File::from(file)
                .take(u64::MAX)
                .read_to_end(buf)
                .map(drop)
        };
        Some(read())
    }

    #[cfg(not(unix))]
    fn read_regular(&mut self, _path: &Path, _buf: &mut Vec<u8>) -> Option<std::io::Result<()>> {
        None
    }
}

/// The room a read buffer that has none gets before the first `read` of a file.
#[cfg(unix)]
const FIRST_READ: usize = 16 * 1024;

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

#[cfg(all(test, unix))]
mod tests {
    use super::*;

    /// Every file of a walked directory reads whole, however its size compares with the
    /// buffer's room (the one-`read` path must go on reading a file that fills it).
    #[test]
    fn walked_files_read_whole_whatever_their_size() {
        let dir = tempfile::tempdir().unwrap();
        let sub = dir.path().join("sub");
        std::fs::create_dir(&sub).unwrap();
        let sizes = [
            0usize,
            1,
            100,
            FIRST_READ - 1,
            FIRST_READ,
            FIRST_READ + 1,
            200_000,
        ];
        for (i, &size) in sizes.iter().enumerate() {
            let bytes: Vec<u8> = (0..size).map(|n| (n * 7 + i) as u8).collect();
            let at = if i % 2 == 0 { dir.path() } else { &sub };
            std::fs::write(at.join(format!("f{i}.csa")), bytes).unwrap();
        }
        let (inputs, _) = expand(&[dir.path().to_path_buf()], |_| true).unwrap();
        assert_eq!(inputs.len(), sizes.len());
        let mut directory = OpenDirectory::default();
        for buffer_room in [0, FIRST_READ] {
            let mut buf = Vec::with_capacity(buffer_room);
            for input in &inputs {
                input.read_within(&mut buf, &mut directory).unwrap();
                let expected = std::fs::read(input.path.as_ref().unwrap()).unwrap();
                assert!(buf == expected, "{}", input.name());
            }
        }
    }

    /// A walked file that went away gives the error opening it by its whole path gives.
    #[test]
    fn a_walked_file_that_is_gone_is_the_usual_error() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("gone.csa");
        std::fs::write(&path, "PI\n+\n").unwrap();
        let (inputs, _) = expand(&[dir.path().to_path_buf()], |_| true).unwrap();
        std::fs::remove_file(&path).unwrap();
        let mut buf = Vec::new();
        let e = inputs[0]
            .read_within(&mut buf, &mut OpenDirectory::default())
            .unwrap_err();
        let usual = std::fs::File::open(&path).unwrap_err();
        assert_eq!(e.to_string(), usual.to_string());
        assert_eq!(e.kind(), std::io::ErrorKind::NotFound);
    }
}
