//! `cargo run --example ckka_convert -- FILE [ckka|ckka1|ckka2|ckka3|json] [rules]`: reads a
//! CKKA record, reports what the replay finds and writes it in another notation.

use kifu_cetkaik::Rules;
use kifu_record::SourceText;
use kifu_records::cetkaik::{self as ckka, Notation, write};

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let Some(path) = args.get(1) else {
        eprintln!(
            "usage: ckka_convert FILE [ckka|ckka1|ckka2|ckka3|json] [官定|cerke_online|硬皇力]"
        );
        std::process::exit(2);
    };
    let bytes = std::fs::read(path).unwrap_or_else(|e| {
        eprintln!("{path}: {e}");
        std::process::exit(1)
    });
    let text = String::from_utf8_lossy(&bytes).into_owned();
    let (record, mut diags) = match ckka::parse_bytes(&bytes) {
        Ok(r) => r,
        Err(d) => {
            eprintln!("{}", SourceText::new(path.as_str(), &text).render(&d));
            std::process::exit(1)
        }
    };
    let rules = args
        .get(3)
        .and_then(|r| Rules::by_name(r))
        .unwrap_or_default();
    let (game, more) = ckka::replay(&record, rules);
    diags.extend(more);
    let src = SourceText::new(path.as_str(), &text);
    for d in &diags {
        eprintln!("{}", src.render(d));
    }
    let out = match args.get(2).map(String::as_str).unwrap_or("ckka") {
        "ckka" => write::write(&game, Notation::Full),
        "ckka1" => write::write(&game, Notation::Abbreviated),
        "ckka2" => write::write(&game, Notation::Phonetic),
        "ckka3" => write::write(&game, Notation::Mrf),
        "json" => write::write_json(&game),
        other => {
            eprintln!("unknown format {other}");
            std::process::exit(2)
        }
    };
    print!("{out}");
    eprintln!("{}", game_end_board(&game));
    std::process::exit(i32::from(diags.iter().any(|d| d.is_error())));
}

fn game_end_board(game: &ckka::GameRecord) -> String {
    format!(
        "final scores: IA side {} / A side {}",
        game.final_scores[0], game.final_scores[1]
    )
}
