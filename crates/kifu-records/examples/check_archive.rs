//! Checks every record of a multi-record file with the streaming reader, one record in
//! memory at a time: `cargo run --release -p kifu-records --example check_archive -- FILE
//! [FORMAT]` (the format by name, else by extension). Prints the count of records, of
//! invalid ones, and the first few problems as `file:line:column`.

use std::path::Path;
use std::process::ExitCode;

use kifu_record::{SourceText, decode};
use kifu_records::shogi::{format_by_extension, format_by_name};

fn main() -> ExitCode {
    let mut args = std::env::args().skip(1);
    let Some(path) = args.next() else {
        eprintln!("usage: check_archive FILE [FORMAT]");
        return ExitCode::from(2);
    };
    let format = match args.next() {
        Some(name) => format_by_name(&name),
        None => format_by_extension(Path::new(&path)),
    };
    let Some(format) = format else {
        eprintln!("{path}: unknown format; name it (csa, kif, usi …)");
        return ExitCode::from(2);
    };
    let bytes = match std::fs::read(&path) {
        Ok(b) => b,
        Err(e) => {
            eprintln!("{path}: {e}");
            return ExitCode::from(2);
        }
    };
    let decoded = decode(&bytes, format.encoding());
    // Line starts cost 8 bytes per line (100 MB for a 100 MB archive): index them only
    // when there is something to show.
    let source = std::cell::OnceCell::new();
    let source = || source.get_or_init(|| SourceText::new(path.as_str(), &decoded.text));
    let mut shown = 0;
    for d in &decoded.diagnostics {
        eprintln!("{}", source().render(d));
        shown += 1;
    }
    let (mut records, mut invalid) = (0usize, 0usize);
    for read in format.records(&decoded.text) {
        records += 1;
        if read.has_errors() {
            invalid += 1;
        }
        for d in read.diagnostics.iter().take(10usize.saturating_sub(shown)) {
            eprintln!("{}", source().render(d));
            shown += 1;
        }
        // `read` is dropped here: memory stays bounded by the largest record.
    }
    println!("{records} record(s), {invalid} invalid");
    if invalid > 0 || decoded.diagnostics.iter().any(|d| d.is_error()) {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    }
}
