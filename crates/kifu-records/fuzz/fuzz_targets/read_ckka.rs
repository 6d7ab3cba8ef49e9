//! Any bytes: the CKKA reader, the replay under every preset, the season-by-season reader of
//! every format and every writer must not panic, and what a writer produces must read back
//! without errors when the input was clean.
#![no_main]

use kifu_cetkaik::Rules;
use kifu_records::cetkaik::{self as ckka, Notation, write};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Ok(text) = std::str::from_utf8(data) {
        // The streaming readers: every season handed out, each diagnostic inside the text.
        for format in ckka::FORMATS {
            let mut seasons = 0;
            for read in format.records(text) {
                seasons += 1;
                for d in &read.diagnostics {
                    assert!(d.span.start <= d.span.end && d.span.end as usize <= text.len(), "{d:?}");
                }
            }
            assert!(seasons > 0, "{}: no record at all", format.name());
        }
    }
    let Ok((record, diags)) = ckka::parse_bytes(data) else { return };
    for rules in [Rules::standard(), Rules::cerke_online(), Rules::hard_tam()] {
        let (game, more) = ckka::replay(&record, rules);
        let clean = diags.is_empty() && more.iter().all(|d| !d.is_error());
        let text = write::write(&game, Notation::Full);
        if clean {
            let (again, d) = ckka::parse(&text);
            assert!(d.is_empty(), "written ⓪ does not read back: {d:?}\n{text}");
            let _ = ckka::replay(&again, rules);
        }
        for n in [Notation::Abbreviated, Notation::Phonetic, Notation::Mrf] {
            let _ = write::write(&game, n);
            let _ = write::losses(&game, n);
        }
        let json = write::write_json(&game);
        let (again, d) = ckka::json::parse_json(&json);
        if clean {
            assert!(d.is_empty(), "written JSON does not read back: {d:?}\n{json}");
            let (replayed, d) = ckka::replay(&again, rules);
            assert!(
                d.iter().all(|d| !d.is_error()),
                "written JSON does not replay: {d:?}\n{json}"
            );
            assert_eq!(replayed.to_json(), game.to_json(), "JSON changes the game\n{json}");
        }
    }
});
