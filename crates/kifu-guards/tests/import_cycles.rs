//! The import-cycle check on crates planted in a temporary folder, and on this workspace.

use std::path::{Path, PathBuf};

use kifu_guards::import_cycles::{Cycle, Report, crate_cycles};

/// A crate in a temporary folder with the given `src/` files.
fn planted(files: &[(&str, &str)]) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    for (name, text) in files {
        let path = dir.path().join("src").join(name);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
    }
    dir
}

fn names(cycle: &Cycle, root: &Path) -> Vec<String> {
    cycle
        .files
        .iter()
        .map(|f| {
            f.strip_prefix(root.join("src"))
                .unwrap()
                .display()
                .to_string()
        })
        .collect()
}

#[test]
fn a_cycle_behind_a_string_continued_with_a_backslash_is_found() {
    // The old regex stripper had no dot-all flag: a string continued with `\` at the end of a
    // line never ended for it, and hid the `use` after it (kifu-cli's show.rs did so).
    let krate = planted(&[
        ("lib.rs", "mod a;\nmod b;\n"),
        (
            "a.rs",
            "pub fn help() -> &'static str {\n    \"usage: a \\\n     b \\\" c\"\n}\n\
             use crate::b::g;\npub fn f() -> &'static str { g() }\n",
        ),
        ("b.rs", "pub fn g() -> &'static str { crate::a::help() }\n"),
    ]);
    let cycles = crate_cycles(krate.path()).unwrap().cycles;
    assert_eq!(cycles.len(), 1, "{cycles:?}");
    assert_eq!(names(&cycles[0], krate.path()), ["a.rs", "b.rs"]);
    let shown = cycles[0].to_string();
    assert!(shown.contains("a.rs:5 -> "), "{shown}");
    assert!(shown.contains("b.rs:1 -> "), "{shown}");
}

#[test]
fn paths_in_strings_comments_and_test_modules_are_not_imports() {
    let krate = planted(&[
        ("lib.rs", "mod a;\nmod b;\n"),
        (
            "a.rs",
            "/// Calls `crate::b::g`.\npub fn f() -> &'static str { \"crate::b::g()\" }\n\
             // use crate::b::g;\n/* crate::b::g */\n\
             #[cfg(test)]\nmod tests { use crate::b::g; }\n",
        ),
        ("b.rs", "pub fn g() -> &'static str { crate::a::f() }\n"),
    ]);
    assert_eq!(crate_cycles(krate.path()).unwrap(), Report::default());
}

#[test]
fn a_path_inside_a_macro_is_an_import() {
    let krate = planted(&[
        ("lib.rs", "mod a;\nmod b;\n"),
        (
            "a.rs",
            "pub fn f() -> String { format!(\"{}\", crate::b::g()) }\n",
        ),
        ("b.rs", "pub fn g() -> String { crate::a::f() }\n"),
    ]);
    assert_eq!(crate_cycles(krate.path()).unwrap().cycles.len(), 1);
}

#[test]
fn a_module_using_what_the_binarys_root_defines_is_reported() {
    // main.rs calls into its command module, which reaches back for main.rs's items; an item
    // main.rs only re-exports from a module of its own is fine.
    let krate = planted(&[
        (
            "main.rs",
            "mod check;\nmod outcome;\npub use outcome::Outcome;\npub struct Options;\n\
             fn main() { check::run(&Options); }\n",
        ),
        (
            "check.rs",
            "use crate::Outcome;\nuse crate::Options;\npub fn run(_: &Options) -> Outcome { Outcome }\n",
        ),
        ("outcome.rs", "pub struct Outcome;\n"),
    ]);
    let report = crate_cycles(krate.path()).unwrap();
    assert_eq!(report.cycles, []);
    assert_eq!(report.root_imports.len(), 1, "{report}");
    let shown = report.to_string();
    assert!(
        shown.contains("check.rs:2 imports from the crate root"),
        "{shown}"
    );
    assert!(shown.contains("`crate::Options`"), "{shown}");
}

#[test]
fn re_exports_lead_to_the_defining_file() {
    // lib.rs passes names on; a.rs and b.rs reach each other's items through it, in one
    // direction only, which is no cycle; the nested module's `super::super` is resolved too.
    let krate = planted(&[
        (
            "lib.rs",
            "mod a;\nmod b;\npub use a::A;\npub use b::*;\npub fn top() -> A { a::make() }\n",
        ),
        ("a.rs", "pub struct A;\npub fn make() -> A { A }\n"),
        ("b.rs", "mod inner;\npub struct B(pub crate::A);\n"),
        (
            "b/inner.rs",
            "pub fn b() -> super::super::B { super::B(crate::a::make()) }\n",
        ),
    ]);
    assert_eq!(crate_cycles(krate.path()).unwrap(), Report::default());
    // …and a use of the glob-exported B from a.rs closes a cycle with b.rs.
    std::fs::write(
        krate.path().join("src/a.rs"),
        "pub struct A;\npub fn make() -> A { A }\npub fn b() -> crate::B { crate::B(A) }\n",
    )
    .unwrap();
    let cycles = crate_cycles(krate.path()).unwrap().cycles;
    assert_eq!(cycles.len(), 1, "{cycles:?}");
    assert_eq!(names(&cycles[0], krate.path()), ["a.rs", "b.rs"]);
}

#[test]
fn a_missing_module_file_is_an_error_not_a_pass() {
    let krate = planted(&[("lib.rs", "mod gone;\n")]);
    let e = crate_cycles(krate.path()).unwrap_err();
    assert!(e.to_string().contains("mod gone;"), "{e}");
}

#[test]
fn the_workspace_has_no_import_cycles() {
    let crates = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let mut dirs: Vec<PathBuf> = std::fs::read_dir(&crates)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.join("src").is_dir())
        .collect();
    dirs.sort();
    assert!(dirs.len() >= 10, "{dirs:?}");
    let mut report = String::new();
    for dir in &dirs {
        report.push_str(&crate_cycles(dir).unwrap().to_string());
    }
    assert!(report.is_empty(), "{report}");
}
