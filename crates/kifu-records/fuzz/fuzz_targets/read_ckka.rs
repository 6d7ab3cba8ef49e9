//! Any bytes: the CKKA reader, the replay under every preset and every writer must not panic,
//! and what a writer produces must read back without errors when the input was clean.
#![no_main]

use kifu_cetkaik::Rules;
use kifu_records::cetkaik::{self as ckka, Notation, write};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
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
