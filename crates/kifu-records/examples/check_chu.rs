//! `cargo run -p kifu-chu --example check -- FILE…`: reads chu records in any format, replays
//! them, and prints diagnostics as `file:line:column: severity: message`.

use kifu_chu::record::{Format, parse_any};
use kifu_record::SourceText;

fn main() {
    let mut failed = false;
    for path in std::env::args().skip(1) {
        let text = match std::fs::read_to_string(&path) {
            Ok(t) => t,
            Err(e) => {
                eprintln!("{path}: {e}");
                failed = true;
                continue;
            }
        };
        let ext = path.rsplit('.').next().unwrap_or("");
        let (format, records, diags) = match Format::from_extension(ext) {
            Some(f) => {
                let (r, d) = f.parse(&text);
                (f, r, d)
            }
            None => parse_any(&text),
        };
        let src = SourceText::new(path.as_str(), &text);
        for d in &diags {
            println!("{}", src.render(d));
        }
        failed |= diags.iter().any(|d| d.is_error());
        let plies: usize = records.iter().map(|r| r.moves.len()).sum();
        println!(
            "{path}: {} game(s), {plies} plies as {}",
            records.len(),
            format.name()
        );
    }
    std::process::exit(i32::from(failed));
}
