//! Any bytes, as a file of unknown game and encoding.

use std::path::Path;

use kifu_record::{TextEncoding, decode};
use kifu_records::cetkaik as ckka;
use kifu_records::detect::{GameKind, game_of, game_of_named_file};
use kifu_records::sniffing::SNIFFED_LINES;

/// Decoding under every expected encoding never panics and keeps its diagnostics' spans inside
/// the decoded text. Telling the game never panics, with or without a file name; a text is
/// told cetkaik by its content only when CKKA's sniffer (or kifu's cetkaik JSON) says so; and
/// a CKKA verdict never depends on what follows the lines the sniffer reads.
pub fn run(data: &[u8]) {
    for expected in [
        TextEncoding::Utf8,
        TextEncoding::ShiftJis,
        TextEncoding::EucJp,
    ] {
        let d = decode(data, expected);
        for diag in &d.diagnostics {
            assert!(diag.span.end as usize <= d.text.len());
        }
    }
    let named = game_of_named_file(None, data);
    assert_eq!(game_of(None, data), Some(named));
    for name in ["g.csa", "g.kif", "g.txt", "g.ckka", "g.json", "g.bod", "g"] {
        let _ = game_of_named_file(Some(Path::new(name)), data);
    }
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    if named == GameKind::Cetkaik {
        assert!(ckka::sniff(text) || ckka::json::looks_like_kifu_json(text));
    }
    let longer = format!("{text}\n{}", "V2.2\n+7776FU\n".repeat(SNIFFED_LINES));
    let non_blank = text.lines().filter(|l| !l.trim().is_empty()).count();
    if !ckka::noter::looks_like_noter(text) && non_blank > SNIFFED_LINES {
        assert_eq!(ckka::sniff(text), ckka::sniff(&longer));
    }
}
