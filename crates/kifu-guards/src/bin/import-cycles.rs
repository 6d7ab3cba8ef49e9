//! `import-cycles CRATE_DIR…`: lists the import cycles between the files of each crate, and
//! the modules importing an item of their crate root's own file; exits 1 if there is one, 2 if
//! a crate cannot be read, 0 otherwise.

use std::path::PathBuf;
use std::process::ExitCode;

fn main() -> ExitCode {
    let dirs: Vec<PathBuf> = std::env::args_os().skip(1).map(PathBuf::from).collect();
    if dirs.is_empty() {
        eprintln!("usage: import-cycles CRATE_DIR…");
        return ExitCode::from(2);
    }
    let mut cycles = 0;
    let mut unreadable = false;
    for dir in &dirs {
        match kifu_guards::import_cycles::crate_cycles(dir) {
            Ok(report) => {
                if !report.is_clean() {
                    cycles += report.cycles.len() + report.root_imports.len();
                    print!("{}: {report}", dir.display());
                }
            }
            Err(e) => {
                eprintln!("import-cycles: {e}");
                unreadable = true;
            }
        }
    }
    if unreadable {
        ExitCode::from(2)
    } else if cycles > 0 {
        eprintln!("import-cycles: {cycles} cycle(s) or imports of a crate root");
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    }
}
