//! The real programs kifu's tests talk to — the USI engine `sekirei` from crates.io, `socat`,
//! which makes pseudo-terminal pairs, and the pinned interop peers — found on this machine;
//! and the repository's record corpus, read at run time through [`corpus`].
//!
//! Tests never install software and never skip when a part is missing: a skipped test proves
//! nothing. `scripts/setup-test-deps` installs every part (the README's test command runs it
//! first); each function here returns a working program or panics saying to run that script.
//!
//! ```no_run
//! let engine = kifu_testkit::sekirei();
//! assert!(engine.is_file());
//! ```

pub mod corpus;
pub mod peak_memory;

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::OnceLock;

const SETUP_HINT: &str = "run scripts/setup-test-deps, which installs what the tests need";

/// The `sekirei` USI engine: `$KIFU_SEKIREI`, else `sekirei` on `PATH`, else
/// `~/.cargo/bin/sekirei` (where `cargo install sekirei --locked` puts it).
pub fn sekirei() -> PathBuf {
    static FOUND: OnceLock<PathBuf> = OnceLock::new();
    FOUND
        .get_or_init(|| {
            if let Some(path) = std::env::var_os("KIFU_SEKIREI") {
                return PathBuf::from(path);
            }
            find_engine().unwrap_or_else(|| {
                panic!("the engine tests need the USI engine sekirei (crates.io): {SETUP_HINT}")
            })
        })
        .clone()
}

/// `socat`, on `PATH`.
pub fn socat() -> PathBuf {
    static FOUND: OnceLock<PathBuf> = OnceLock::new();
    FOUND
        .get_or_init(|| {
            on_path("socat").unwrap_or_else(|| {
                panic!(
                    "the serial-line tests need socat to make a pseudo-terminal pair: {SETUP_HINT}"
                )
            })
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

/// The folder of the interop peers: `package.json` and `package-lock.json` pinning the
/// JavaScript readers, `requirements.txt` pinning the Python ones, and the two scripts that
/// run them (`read-records.mjs`, `read_records.py`).
pub fn interop_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("interop")
}

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
