//! Every corpus file and every example record, read and written by every format of its game,
//! against digests committed while the readers were known good (issue 36): no diagnostic,
//! span, record or written byte may change when a reader or the move tree is rewritten for
//! speed.
//!
//! Each file gives four digests: the diagnostics of reading it (kind, severity, span,
//! message), the records as read (header, start, every node of the move tree with its span,
//! times, comments and bookmarks, walked the same way whatever the tree's layout), the bytes
//! and warnings of every writer of its game, and what `check` (the path `kifu check` takes)
//! reports. A digest per file, not the whole dump, keeps the committed file small; to see what
//! changed, dump both sides and compare them:
//!
//! ```sh
//! KIFU_GOLDEN_DUMP=/tmp/before cargo test -p kifu-records --test corpus_golden   # old commit
//! KIFU_GOLDEN_DUMP=/tmp/after  cargo test -p kifu-records --test corpus_golden   # new commit
//! diff -r /tmp/before /tmp/after
//! ```
//!
//! A change that is meant to alter what is read or written (a reader fix) writes the new
//! digests with `KIFU_BLESS=1 cargo test -p kifu-records --test corpus_golden`, and the
//! commit says why they changed.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use kifu_record::{Game, GameTree, NodeItem, Record, RecordFormat, decode};
use kifu_records::GameRecords;
use kifu_testkit::corpus;

const DIGESTS: &str = "tests/golden/corpus-digests.tsv";

/// 64-bit FNV-1a: a digest that is the same on every machine and every Rust release (std's
/// `DefaultHasher` promises neither), and that no file of this size collides on by chance.
fn fnv1a(bytes: &[u8]) -> u64 {
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    for &b in bytes {
        hash ^= u64::from(b);
        hash = hash.wrapping_mul(0x0000_0100_0000_01b3);
    }
    hash
}

/// What one file gives, in the four parts that are digested separately.
struct Dump {
    diagnostics: String,
    records: String,
    written: Vec<u8>,
    checked: String,
}

impl Dump {
    fn digest_line(&self, name: &str) -> String {
        format!(
            "{name}\t{:016x}\t{:016x}\t{:016x}\t{:016x}",
            fnv1a(self.diagnostics.as_bytes()),
            fnv1a(self.records.as_bytes()),
            fnv1a(&self.written),
            fnv1a(self.checked.as_bytes()),
        )
    }
}

fn dump<G: GameRecords>(path: &Path, bytes: &[u8]) -> Dump {
    let format: &dyn RecordFormat<G> = match G::format_by_extension(path) {
        Some(format) => format,
        None => G::sniff_format(&decode(bytes, kifu_record::TextEncoding::Utf8).text),
    };
    let (text, parsed) = kifu_records::read_bytes(bytes, format);
    let mut diagnostics = format!("format {}\n", format.name());
    for d in &parsed.diagnostics {
        writeln!(
            diagnostics,
            "{:?} {:?} {}..{} {}",
            d.severity, d.kind, d.span.start, d.span.end, d.message
        )
        .unwrap();
    }
    let mut records = String::new();
    for record in &parsed.records {
        dump_record::<G>(record, &mut records);
    }
    let mut written = Vec::new();
    for writer in G::formats() {
        let (bytes, warnings) = writer.write(&parsed.records).encode(writer.encoding());
        written.extend_from_slice(format!("== {} {warnings:?}\n", writer.name()).as_bytes());
        written.extend_from_slice(&bytes);
    }
    let mut checked = String::new();
    for check in format.check(&text) {
        writeln!(checked, "plies {}", check.plies).unwrap();
        for d in &check.diagnostics {
            writeln!(
                checked,
                "{:?} {:?} {}..{} {}",
                d.severity, d.kind, d.span.start, d.span.end, d.message
            )
            .unwrap();
        }
    }
    Dump {
        diagnostics,
        records,
        written,
        checked,
    }
}

/// The record's content through the public API only, so that a new layout of the move tree
/// gives the same dump when it holds the same record.
fn dump_record<G: Game>(record: &Record<G>, out: &mut String) {
    writeln!(out, "record").unwrap();
    for entry in record.header.entries() {
        writeln!(
            out,
            "header {:?}={:?} {:?} {}..{}",
            entry.key, entry.value, entry.field, entry.span.start, entry.span.end
        )
        .unwrap();
    }
    writeln!(
        out,
        "start {:?} {}..{}",
        record.start, record.start_span.start, record.start_span.end
    )
    .unwrap();
    dump_tree::<G>(&record.moves, out);
}

fn dump_tree<G: Game>(tree: &GameTree<G>, out: &mut String) {
    // Depth first, main continuation first, without recursion: a main line can be thousands
    // of plies long.
    let mut stack = vec![(tree.root(), 0usize)];
    while let Some((id, depth)) = stack.pop() {
        let node = &tree[id];
        let item = match &node.item {
            NodeItem::Start => "start".to_owned(),
            NodeItem::Move(m) => format!("move {m:?}"),
            NodeItem::End(kind) => format!("end {kind:?}"),
        };
        writeln!(
            out,
            "{depth} ply {} {item} {}..{} time {:?}/{:?}{}",
            node.ply(),
            node.span.start,
            node.span.end,
            node.time_ms(),
            node.total_ms(),
            if node.illegal { " illegal" } else { "" },
        )
        .unwrap();
        for c in node.comments() {
            writeln!(
                out,
                "  comment {:?} {:?} {}..{} {:?}",
                c.kind, c.text, c.span.start, c.span.end, c.engine
            )
            .unwrap();
        }
        for b in node.bookmarks() {
            writeln!(
                out,
                "  bookmark {:?} {}..{}",
                b.name, b.span.start, b.span.end
            )
            .unwrap();
        }
        let children: Vec<_> = tree.children(id).collect();
        for &child in children.iter().rev() {
            stack.push((child, depth + usize::from(children.len() > 1)));
        }
    }
}

/// Which game the files of a corpus folder hold, by where they lie (not by detection, whose
/// answers are another test's business).
#[derive(Clone, Copy)]
enum Kind {
    Shogi,
    Chu,
    Cetkaik,
}

fn record_files(root: &Path, rel: &str, kind: Kind, out: &mut Vec<(String, PathBuf, Kind)>) {
    let mut entries: Vec<PathBuf> = std::fs::read_dir(root.join(rel))
        .unwrap_or_else(|e| panic!("{rel}: {e}"))
        .map(|e| e.unwrap().path())
        .collect();
    entries.sort();
    for path in entries {
        let name = path.file_name().unwrap().to_str().unwrap().to_owned();
        let child = if rel.is_empty() {
            name
        } else {
            format!("{rel}/{name}")
        };
        if path.is_dir() {
            record_files(root, &child, kind, out);
            continue;
        }
        // Notes, test tables (perft, notation pairs) and lishogi's game export are not
        // record files of any format.
        let ext = path.extension().and_then(|e| e.to_str()).unwrap_or("");
        if matches!(ext, "md" | "tsv" | "ndjson") || child == "shogi/lishogi-usi/games.txt" {
            continue;
        }
        out.push((child, path, kind));
    }
}

fn all_files() -> Vec<(String, PathBuf, Kind)> {
    let mut files = Vec::new();
    let root = corpus::path("");
    record_files(&root, "shogi", Kind::Shogi, &mut files);
    record_files(&root, "chu", Kind::Chu, &mut files);
    record_files(&root, "cetkaik", Kind::Cetkaik, &mut files);
    let examples = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let mut shipped = Vec::new();
    record_files(&examples, "examples", Kind::Shogi, &mut shipped);
    files.extend(
        shipped
            .into_iter()
            .map(|(rel, path, kind)| (format!("../{rel}"), path, kind)),
    );
    files
}

#[test]
fn every_corpus_file_reads_and_writes_as_before() {
    let dump_dir = std::env::var_os("KIFU_GOLDEN_DUMP").map(PathBuf::from);
    let mut lines = Vec::new();
    let files = all_files();
    assert!(files.len() > 1500, "{} files", files.len());
    for (name, path, kind) in &files {
        let bytes = std::fs::read(path).unwrap();
        let dump = match kind {
            Kind::Shogi => dump::<kifu_shogi::Shogi>(path, &bytes),
            Kind::Chu => dump::<kifu_chu::Chu>(path, &bytes),
            Kind::Cetkaik => dump::<kifu_cetkaik::Cetkaik>(path, &bytes),
        };
        if let Some(dir) = &dump_dir {
            let file = dir.join(name.replace("../", "_/"));
            std::fs::create_dir_all(file.parent().unwrap()).unwrap();
            let mut all = Vec::new();
            all.extend_from_slice(dump.diagnostics.as_bytes());
            all.extend_from_slice(dump.records.as_bytes());
            all.extend_from_slice(&dump.written);
            all.extend_from_slice(b"== check\n");
            all.extend_from_slice(dump.checked.as_bytes());
            std::fs::write(file, all).unwrap();
        }
        lines.push(dump.digest_line(name));
    }
    let mut now = String::from(
        "# file\tdiagnostics\trecords\twritten by every writer\tcheck (FNV-1a 64; tests/corpus_golden.rs)\n",
    );
    for line in &lines {
        now.push_str(line);
        now.push('\n');
    }
    let digests = Path::new(env!("CARGO_MANIFEST_DIR")).join(DIGESTS);
    if std::env::var_os("KIFU_BLESS").is_some() {
        std::fs::create_dir_all(digests.parent().unwrap()).unwrap();
        std::fs::write(&digests, &now).unwrap();
        return;
    }
    let before = std::fs::read_to_string(&digests)
        .unwrap_or_else(|e| panic!("{DIGESTS}: {e} (KIFU_BLESS=1 writes it)"));
    let parts = ["diagnostics", "records", "written", "check"];
    let mut changed = Vec::new();
    let old: std::collections::HashMap<&str, Vec<&str>> = before
        .lines()
        .filter(|l| !l.starts_with('#'))
        .map(|l| {
            let mut fields = l.split('\t');
            (fields.next().unwrap(), fields.collect())
        })
        .collect();
    for line in &lines {
        let mut fields = line.split('\t');
        let name = fields.next().unwrap();
        let new: Vec<&str> = fields.collect();
        match old.get(name) {
            None => changed.push(format!("{name}: not in {DIGESTS}")),
            Some(was) => {
                for (i, part) in parts.iter().enumerate() {
                    if was.get(i) != new.get(i) {
                        changed.push(format!("{name}: {part}"));
                    }
                }
            }
        }
    }
    let names: std::collections::HashSet<&str> = lines
        .iter()
        .map(|l| l.split('\t').next().unwrap())
        .collect();
    for name in old.keys().filter(|n| !names.contains(*n)) {
        changed.push(format!("{name}: in {DIGESTS} but no longer read"));
    }
    assert!(
        changed.is_empty(),
        "{} change(s) against the committed digests (KIFU_GOLDEN_DUMP=dir dumps them):\n{}",
        changed.len(),
        changed.join("\n")
    );
}
