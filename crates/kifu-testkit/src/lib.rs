//! The real programs kifu's tests talk to — the USI engine `sekirei` from crates.io and `socat`,
//! which makes pseudo-terminal pairs — found on this machine or installed on first use.
//!
//! Tests must not skip when a part is missing: a skipped test proves nothing. So each function
//! here either returns a working program or panics with what to install and how. `.ci/run`
//! installs both up front; on a developer machine the first test run installs what is missing
//! (`cargo install sekirei --locked`, and `apt-get install socat` when running as root).
//!
//! ```no_run
//! let engine = kifu_testkit::sekirei();
//! assert!(engine.is_file());
//! ```

use std::fs::File;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::OnceLock;

/// The `sekirei` USI engine: `$KIFU_SEKIREI`, else `sekirei` on `PATH`, else `~/.cargo/bin/sekirei`,
/// else installed now with `cargo install sekirei --locked` (several test processes may ask at
/// once; a lock file lets one install while the others wait).
pub fn sekirei() -> PathBuf {
    static FOUND: OnceLock<PathBuf> = OnceLock::new();
    FOUND
        .get_or_init(|| {
            if let Some(path) = std::env::var_os("KIFU_SEKIREI") {
                return PathBuf::from(path);
            }
            if let Some(path) = find_engine() {
                return path;
            }
            let _lock = lock("kifu-testkit-sekirei.lock");
            // Another test process may have installed it while this one waited for the lock.
            if let Some(path) = find_engine() {
                return path;
            }
            eprintln!("kifu-testkit: installing the USI engine sekirei (cargo install sekirei --locked)…");
            let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
            let status = Command::new(cargo)
                .args(["install", "sekirei", "--locked"])
                .stdout(Stdio::null())
                .status()
                .unwrap_or_else(|e| panic!("cannot run `cargo install sekirei --locked`: {e}"));
            assert!(
                status.success(),
                "`cargo install sekirei --locked` failed ({status}); install the engine by hand or set KIFU_SEKIREI"
            );
            find_engine().expect("`cargo install sekirei` succeeded but no sekirei binary was found")
        })
        .clone()
}

/// `socat`, installed with apt-get when missing and running as root; otherwise a panic that says how.
pub fn socat() -> PathBuf {
    static FOUND: OnceLock<PathBuf> = OnceLock::new();
    FOUND
        .get_or_init(|| {
            if let Some(path) = on_path("socat") {
                return path;
            }
            let _lock = lock("kifu-testkit-socat.lock");
            if let Some(path) = on_path("socat") {
                return path;
            }
            if running_as_root() && on_path("apt-get").is_some() {
                eprintln!("kifu-testkit: installing socat (apt-get install -y socat)…");
                let quiet = |cmd: &mut Command| {
                    cmd.stdout(Stdio::null())
                        .status()
                        .is_ok_and(|s| s.success())
                };
                let installed =
                    quiet(Command::new("apt-get").args(["install", "-y", "-qq", "socat"]))
                        || (quiet(Command::new("apt-get").args(["update", "-qq"]))
                            && quiet(
                                Command::new("apt-get").args(["install", "-y", "-qq", "socat"]),
                            ));
                if installed && let Some(path) = on_path("socat") {
                    return path;
                }
            }
            panic!(
                "the serial-line tests need socat to make a pseudo-terminal pair: \
                 install it (Debian: apt-get install -y socat; .ci/run does this)"
            )
        })
        .clone()
}

fn find_engine() -> Option<PathBuf> {
    on_path("sekirei").or_else(|| {
        let home = std::env::var_os("CARGO_HOME")
            .map(PathBuf::from)
            .or_else(|| std::env::var_os("HOME").map(|h| Path::new(&h).join(".cargo")))?;
        Some(home.join("bin").join("sekirei")).filter(|p| p.is_file())
    })
}

fn on_path(program: &str) -> Option<PathBuf> {
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path)
        .map(|dir| dir.join(program))
        .find(|candidate| candidate.is_file())
}

fn running_as_root() -> bool {
    Command::new("id")
        .arg("-u")
        .output()
        .is_ok_and(|out| out.stdout.trim_ascii() == b"0")
}

/// An exclusive lock on a file in the temporary directory, held until the file is dropped.
fn lock(name: &str) -> File {
    let path = std::env::temp_dir().join(name);
    let file =
        File::create(&path).unwrap_or_else(|e| panic!("cannot create {}: {e}", path.display()));
    file.lock()
        .unwrap_or_else(|e| panic!("cannot lock {}: {e}", path.display()));
    file
}

/// The folder of the interop peers: `package.json` and `package-lock.json` pinning the
/// JavaScript readers, `requirements.txt` pinning the Python ones, and the two scripts that
/// run them (`read-records.mjs`, `read_records.py`).
pub fn interop_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("interop")
}

const SETUP_HINT: &str = "run scripts/setup-test-deps (it installs the pinned interop peers)";

/// `node`, with tsshogi and json-kifu-format installed in [`interop_dir`]`/node_modules`;
/// panics saying to run `scripts/setup-test-deps` when either is missing.
pub fn interop_node() -> PathBuf {
    let node = on_path("node").unwrap_or_else(|| {
        panic!("the interop tests need node (Node.js 18 or later): {SETUP_HINT}")
    });
    for package in ["tsshogi", "json-kifu-format"] {
        let manifest = interop_dir()
            .join("node_modules")
            .join(package)
            .join("package.json");
        assert!(
            manifest.is_file(),
            "the npm package {package} is not installed in {}: {SETUP_HINT}",
            interop_dir().display()
        );
    }
    node
}

/// The Python of the virtualenv holding cshogi and python-shogi: `$KIFU_VENV`, else
/// `~/.cache/kifu/venv`. Panics saying to run `scripts/setup-test-deps` when the virtualenv or
/// a package is missing.
pub fn interop_python() -> PathBuf {
    static FOUND: OnceLock<PathBuf> = OnceLock::new();
    FOUND
        .get_or_init(|| {
            let venv = std::env::var_os("KIFU_VENV")
                .map(PathBuf::from)
                .or_else(|| {
                    std::env::var_os("HOME")
                        .map(|h| Path::new(&h).join(".cache").join("kifu").join("venv"))
                })
                .unwrap_or_else(|| panic!("neither KIFU_VENV nor HOME is set: {SETUP_HINT}"));
            let python = venv.join("bin").join("python");
            assert!(
                python.is_file(),
                "no Python virtualenv at {}: {SETUP_HINT}",
                venv.display()
            );
            let imports = Command::new(&python)
                .args(["-c", "import cshogi, shogi"])
                .stderr(Stdio::null())
                .status()
                .is_ok_and(|s| s.success());
            assert!(
                imports,
                "cshogi or python-shogi is missing from {}: {SETUP_HINT}",
                venv.display()
            );
            python
        })
        .clone()
}
