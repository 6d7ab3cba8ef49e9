//! `cargo run -p kifu-records --example check_chu -- FILE…`: reads chu records in any format,
//! replays them, and prints diagnostics as `file:line:column: severity: message`.

use kifu_record::SourceText;
use kifu_records::chu;

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
        let format = chu::by_extension(ext).unwrap_or_else(|| chu::detect(&text));
        let src = SourceText::new(path.as_str(), &text);
        let (mut games, mut plies) = (0, 0);
        for read in format.records(&text) {
            for d in &read.diagnostics {
                println!("{}", src.render(d));
            }
            failed |= read.has_errors();
            games += 1;
            plies += chu::main_line_moves(&read.record).len();
        }
        println!(
            "{path}: {games} game(s), {plies} plies as {}",
            format.name()
        );
    }
    std::process::exit(i32::from(failed));
}
