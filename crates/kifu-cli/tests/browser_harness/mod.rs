//! The browser tests' harness: a headless chromium behind chromedriver (WebDriver), the
//! `kifu` binary, and records read by the library to check the pages against.
//!
//! Needs `/usr/bin/chromium` and `/usr/bin/chromedriver` (or `$KIFU_CHROMIUM`,
//! `$KIFU_CHROMEDRIVER`): `scripts/setup-test-deps` installs them. A missing browser fails
//! these tests; it never skips them.
#![allow(dead_code)] // each browser test file uses its own part of this

use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::Duration;

use fantoccini::actions::{InputSource, KeyAction, KeyActions};
use fantoccini::key::Key;
use fantoccini::{Client, ClientBuilder, Locator};
use kifu_record::{Game, Record, RecordFormat, decode};
use kifu_records::GameRecords;
use kifu_render::Picture;

/// One browser at a time: the machine has two cores and the load-time bound must hold.
pub static BROWSER: tokio::sync::Mutex<()> = tokio::sync::Mutex::const_new(());

const SETUP_HINT: &str = "run scripts/setup-test-deps, which installs chromium and chromium-driver";

pub fn program(variable: &str, default: &str) -> PathBuf {
    let path = std::env::var_os(variable).map_or_else(|| PathBuf::from(default), PathBuf::from);
    assert!(
        path.is_file(),
        "the browser tests need {} (or ${variable}): {SETUP_HINT}",
        path.display()
    );
    path
}

/// A headless chromium behind chromedriver.
pub struct Browser {
    pub client: Client,
    _driver: Driver,
}

/// chromedriver and every chromium it started, ended when dropped: when a test ends, fails, or
/// never gets its browser.
///
/// chromedriver is the leader of a process group of its own, which the chromium it starts
/// joins: killing chromedriver alone, as this did before, left every chromium it had started
/// running after the tests (four browsers, a gigabyte of memory and a share of a core, after
/// each run of the suite).
struct Driver {
    child: Child,
    /// The browser's profile and temporary files, removed after its processes are gone.
    _scratch: tempfile::TempDir,
}

impl Drop for Driver {
    fn drop(&mut self) {
        let group = self.child.id() as libc::pid_t;
        // SAFETY: kill(2) with a negative pid signals that process group; no memory is shared.
        unsafe { libc::kill(-group, libc::SIGKILL) };
        let _ = self.child.wait();
        // Chromium's processes are chromedriver's children, not ours: wait (a little) until the
        // group is gone, so that the profile directory is removed after them.
        for _ in 0..100 {
            // SAFETY: as above; signal 0 only asks whether a process of the group is left.
            if unsafe { libc::kill(-group, 0) } != 0 {
                break;
            }
            std::thread::sleep(Duration::from_millis(20));
        }
    }
}

pub async fn browser() -> Browser {
    let chromium = program("KIFU_CHROMIUM", "/usr/bin/chromium");
    let chromedriver = program("KIFU_CHROMEDRIVER", "/usr/bin/chromedriver");
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .expect("a free port")
        .port();
    // The browser's profile, and its temporary files: chromium leaves directories in $TMPDIR
    // that only a clean exit removes, and it is killed.
    let scratch = tempfile::tempdir().expect("a profile directory");
    let (profile, tmp) = (scratch.path().join("profile"), scratch.path().join("tmp"));
    std::fs::create_dir(&tmp).expect("a temporary directory for chromium");
    let child = Command::new(&chromedriver)
        .arg(format!("--port={port}"))
        // Its own process group, which the chromium it starts joins: see `Driver`.
        .process_group(0)
        .env("TMPDIR", &tmp)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap_or_else(|e| panic!("{}: {e}", chromedriver.display()));
    let driver = Driver {
        child,
        _scratch: scratch,
    };
    let browser = Browser {
        client: connect(port, &chromium, &profile, driver.child.id()).await,
        _driver: driver,
    };
    browser
        .client
        .set_window_size(1400, 1200)
        .await
        .expect("window size");
    browser
}

async fn connect(port: u16, chromium: &Path, profile: &Path, driver_pid: u32) -> Client {
    // Without these flags chromium keeps calling home on a machine without network.
    let args = [
        "--headless=new".to_string(),
        "--no-sandbox".into(),
        "--disable-gpu".into(),
        "--disable-background-networking".into(),
        "--disable-component-update".into(),
        "--disable-sync".into(),
        "--no-first-run".into(),
        "--hide-scrollbars".into(),
        "--force-device-scale-factor=1".into(),
        format!("--user-data-dir={}", profile.display()),
    ];
    let capabilities = serde_json::json!({
        "goog:chromeOptions": { "binary": chromium, "args": args }
    });
    let capabilities = capabilities.as_object().expect("an object").clone();
    let url = format!("http://127.0.0.1:{port}");
    let mut last_error = String::new();
    for _ in 0..100 {
        let connector = hyper_util::client::legacy::connect::HttpConnector::new();
        match ClientBuilder::new(connector)
            .capabilities(capabilities.clone())
            .connect(&url)
            .await
        {
            Ok(client) => return client,
            Err(e) => last_error = e.to_string(),
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    panic!("chromedriver (pid {driver_pid}) did not start chromium: {last_error}");
}

pub fn kifu(args: &[&str]) {
    let out = Command::new(env!("CARGO_BIN_EXE_kifu"))
        .args(args)
        .output()
        .expect("kifu runs");
    assert!(
        out.status.code() == Some(0) || out.status.code() == Some(1),
        "kifu {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
}

pub fn file_url(path: &Path) -> String {
    format!("file://{}", path.canonicalize().expect("a path").display())
}

/// The records of a corpus file, read by the library (not by the page).
pub fn read<G: GameRecords>(rel: &str) -> Vec<Record<G>> {
    let path = kifu_testkit::corpus::path(rel);
    let bytes = std::fs::read(&path).expect("corpus file");
    let head = String::from_utf8_lossy(&bytes);
    let format: &dyn RecordFormat<G> =
        G::format_by_extension(&path).unwrap_or_else(|| G::sniff_format(&head));
    let text = decode(&bytes, format.encoding()).text;
    format.records(&text).map(|r| r.record).collect()
}

pub fn cetkaik_seasons(rel: &str) -> Vec<Record<kifu_cetkaik::Cetkaik>> {
    let text = kifu_testkit::corpus::text(rel);
    kifu_records::cetkaik::FORMATS[0]
        .records(&text)
        .map(|r| r.record)
        .collect()
}

/// The position text after each playable main-line move, the start first.
pub fn main_line_positions<G: Game>(record: &Record<G>) -> Vec<String> {
    let mut position = G::start_position(&record.start);
    let mut texts = vec![G::position_text(&position)];
    record.walk_main_line(|_, _, mv| {
        G::play_unchecked(&mut position, mv);
        texts.push(G::position_text(&position));
    });
    texts
}

pub async fn press(client: &Client, key: Key) {
    let actions = KeyActions::new("keyboard".to_string())
        .then(KeyAction::Down { value: key.into() })
        .then(KeyAction::Up { value: key.into() });
    client.perform_actions(actions).await.expect("key press");
}

pub async fn board_position<G: Picture>(client: &Client) -> String {
    client
        .find(Locator::Id("board"))
        .await
        .expect("the board")
        .attr(G::POSITION_ATTRIBUTE)
        .await
        .expect("the attribute")
        .unwrap_or_default()
}
