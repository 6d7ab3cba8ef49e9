//! Bad input for every shogi reader: a clear diagnostic, no panic, and the valid part kept.

use kifu_record::RecordFormat;
use kifu_record::{NodeItem, SourceText};
use kifu_records::read_bytes;
use kifu_records::shogi::{FORMATS, Parsed, ShogiRecord, csa, kif, usi_record};
use kifu_shogi::Shogi;

/// A file of the corpus folder `shogi/bulk`.
fn bulk(rel: &str) -> std::path::PathBuf {
    kifu_testkit::corpus::path(&format!("shogi/bulk/{rel}"))
}

fn plies(r: &ShogiRecord) -> usize {
    r.moves
        .main_line()
        .filter(|&id| matches!(r.moves[id].item, NodeItem::Move(_)))
        .count()
}

fn read(format: &'static dyn RecordFormat<Shogi>, bytes: &[u8]) -> Parsed {
    let (text, parsed) = read_bytes(bytes, format);
    let source = SourceText::new("input", &text);
    for d in &parsed.diagnostics {
        // Every diagnostic renders with a place inside the text.
        assert!(d.span.end as usize <= text.len(), "{d:?}");
        assert!(!source.render(d).is_empty());
    }
    parsed
}

#[test]
fn truncated_files_keep_the_moves_before_the_cut() {
    for (dir, format) in [
        ("csa", &csa::CSA as &dyn RecordFormat<Shogi>),
        ("kif", &kif::KIF),
        ("kifu", &kif::KIFU),
    ] {
        let bytes = std::fs::read(bulk(&format!("{dir}/game_0001.{dir}"))).unwrap();
        let full = plies(&read(format, &bytes).records[0]);
        let mut last = 0;
        for cut in (0..bytes.len()).step_by(97) {
            let parsed = read(format, &bytes[..cut]);
            let n = parsed.records.first().map_or(0, plies);
            assert!(
                n <= full && n + 2 >= last,
                "{dir} cut at {cut}: {n} plies after {last}"
            );
            last = n;
        }
    }
}

#[test]
fn binary_junk_gives_diagnostics_not_panics() {
    let mut state = 0x9E37_79B9_7F4A_7C15u64;
    for _ in 0..200 {
        let junk: Vec<u8> = (0..512)
            .map(|_| {
                state ^= state << 13;
                state ^= state >> 7;
                state ^= state << 17;
                state as u8
            })
            .collect();
        for &format in FORMATS {
            let format_name = format.name();
            let parsed = read(format, &junk);
            assert!(parsed.has_errors(), "{format_name} accepted junk");
        }
    }
}

#[test]
fn a_ten_megabyte_line_is_one_diagnostic_not_a_hang() {
    let mut text = "V2.2\nPI\n+\n+7776FU\n".to_string();
    text.push_str(&"X".repeat(10 * 1024 * 1024));
    text.push_str("\n-3334FU\n");
    for &format in FORMATS {
        let parsed = read(format, text.as_bytes());
        if format.name() == "csa" {
            assert_eq!(
                plies(&parsed.records[0]),
                2,
                "the moves around the long line are kept"
            );
            assert!(
                parsed.diagnostics.len() <= 3,
                "{:?}",
                parsed.diagnostics.len()
            );
        }
    }
}

#[test]
fn wrong_encodings_are_reported_and_read_anyway() {
    // A Shift_JIS KIF that claims to be UTF-8, and the same bytes given as KIFU (UTF-8).
    let sjis = std::fs::read(bulk("kif/game_0002.kif")).unwrap();
    let mut claimed = b"#KIF version=2.0 encoding=UTF-8\n".to_vec();
    claimed.extend_from_slice(&sjis);
    for format in [&kif::KIF, &kif::KIFU] {
        let format_name = format.name();
        let parsed = read(format, &claimed);
        assert!(
            !parsed.has_errors(),
            "{format_name}: {:?}",
            parsed.diagnostics
        );
        assert!(
            parsed
                .diagnostics
                .iter()
                .any(|d| d.message.contains("Shift_JIS"))
        );
        assert!(plies(&parsed.records[0]) > 0);
    }
}

#[test]
fn unknown_headers_bad_moves_and_bad_times_are_each_reported() {
    let cases: [(&'static dyn RecordFormat<Shogi>, &str, &str); 6] = [
        (&csa::CSA, "V2.2\n$NO_SUCH_KEY:x\nPI\n+\n+7776FU\n", ""),
        (&csa::CSA, "V2.2\nPI\n+\n+7776FU\n+3334FU\n", "turn"),
        (&csa::CSA, "V2.2\nPI\n+\n+7776FU\n-5554FU\n", "no piece"),
        (&csa::CSA, "V2.2\nPI\n+\n+7776FU\nTabc\n-3334FU\n", "time"),
        (
            &kif::KIFU,
            "謎の項目：値\n手合割：平手\n   1 ７六歩(77)\n   2 ５五歩(55)\n",
            "no piece",
        ),
        (
            &usi_record::USI,
            "position startpos moves 7g7f 7g7f\n",
            "7g7f",
        ),
    ];
    for (format, text, expected) in cases {
        let parsed = read(format, text.as_bytes());
        let record = &parsed.records[0];
        assert!(plies(record) >= 1, "{text:?}: the valid first move is kept");
        if expected.is_empty() {
            // Unknown header keys are kept (and written back), not dropped.
            let written = format.write(&parsed.records);
            assert!(written.text.contains("$NO_SUCH_KEY:x"), "{}", written.text);
        } else {
            let messages: Vec<&str> = parsed
                .diagnostics
                .iter()
                .map(|d| d.message.as_str())
                .collect();
            assert!(
                messages.iter().any(|m| m.to_lowercase().contains(expected)),
                "{text:?}: {messages:?}"
            );
        }
    }
}

/// Issue 11, case 3: an empty file, a text that is not a record and random bytes are
/// invalid for every reader, with a message that says so, from bytes and from text alike.
#[test]
fn a_file_without_a_record_is_an_error_in_every_format() {
    let prose = "This is the README of a directory of game records.\n\
                 It is not a record itself: no header, no moves.\n";
    let mut state = 0x2545_F491_4F6C_DD1Du64;
    let random: Vec<u8> = (0..4096)
        .map(|_| {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state as u8
        })
        .collect();
    for &format in FORMATS {
        let format_name = format.name();
        for (what, bytes) in [
            ("empty", &b""[..]),
            ("blank", b"\n\n  \n"),
            ("prose", prose.as_bytes()),
            ("random bytes", &random[..]),
        ] {
            let from_bytes = read(format, bytes);
            assert!(
                from_bytes.has_errors(),
                "{format_name} {what}: {:?}",
                from_bytes.diagnostics
            );
            assert!(!from_bytes.records.is_empty());
            if let Ok(text) = std::str::from_utf8(bytes) {
                let from_text = Parsed::collect(format.records(text));
                assert_eq!(
                    from_text.diagnostics, from_bytes.diagnostics,
                    "{format_name} {what}: text and bytes differ"
                );
            }
            if matches!(what, "empty" | "blank") {
                let messages: Vec<_> = from_bytes.diagnostics.iter().map(|d| &d.message).collect();
                assert!(
                    messages.iter().any(|m| m.contains("no game record")),
                    "{format_name} {what}: {messages:?}"
                );
            }
        }
    }
}

/// Issue 11, case 3: a real KIF saved as UTF-16LE without a byte-order mark used to
/// decode as Shift_JIS noise and pass with 0 moves; it reads as the same game.
#[test]
fn a_bomless_utf16_kif_reads_as_the_same_game() {
    let sjis = std::fs::read(bulk("kif/game_0007.kif")).unwrap();
    let (text, original) = read_bytes(&sjis, &kif::KIF);
    assert!(!original.has_errors());
    let expected = plies(&original.records[0]);
    assert!(expected > 50);
    for (name, utf16) in [
        (
            "LE",
            text.encode_utf16()
                .flat_map(u16::to_le_bytes)
                .collect::<Vec<u8>>(),
        ),
        (
            "BE",
            text.encode_utf16().flat_map(u16::to_be_bytes).collect(),
        ),
    ] {
        for format in [&kif::KIF, &kif::KIFU] {
            let format_name = format.name();
            let parsed = read(format, &utf16);
            assert!(
                !parsed.has_errors(),
                "{name} {format_name}: {:?}",
                parsed.diagnostics
            );
            assert_eq!(plies(&parsed.records[0]), expected, "{name} {format_name}");
        }
    }
}
