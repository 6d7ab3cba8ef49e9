//! What kifu writes is what the other record programs need to read it right: one test per
//! writing case of issue 12 (the interop suite checks the same against the real peers).

use kifu_shogi::formats::csa::{self, CsaVersion};
use kifu_shogi::formats::{Format, read_bytes};

fn read(format: Format, text: &str) -> kifu_shogi::formats::ShogiRecord {
    let (_, parsed) = read_bytes(text.as_bytes(), format);
    assert!(!parsed.has_errors(), "{:?}", parsed.diagnostics);
    parsed.records.into_iter().next().unwrap()
}

/// CSA standard V2.2, "棋譜ファイルの例": `V2.2`, then `N+`, `N-`, then the `$` lines. A
/// record read from KIF, where the names come after other fields, is written in that order.
#[test]
fn csa_names_come_before_the_dollar_lines() {
    let record = read(
        Format::Kifu,
        "開始日時：2024/01/06 09:00:00\n棋戦：練習対局\n先手：佐藤\n後手：鈴木\n手合割：平手\n   1 ７六歩(77)\n   2 投了\n",
    );
    for version in [CsaVersion::V22, CsaVersion::V30] {
        let text = csa::write(&record, version).text;
        let n_plus = text.find("\nN+佐藤\n").expect("N+ line");
        let n_minus = text.find("\nN-鈴木\n").expect("N- line");
        let first_dollar = text.find("\n$").expect("a $ line");
        assert!(n_plus < n_minus && n_minus < first_dollar, "{text}");
    }
}

/// `$TIME+:150+00+10` (CSA V3.0, "持ち時間") is written back exactly as read; its meaning is
/// parsed on the side.
#[test]
fn csa_time_values_are_written_back_as_read() {
    let source = "'CSA encoding=UTF-8\nV3.0\nN+a\nN-b\n$TIME+:150+00+10\n$TIME-:600+0+0\nPI\n+\n+7776FU\n%TORYO\n";
    let record = read(Format::Csa, source);
    let text = csa::write(&record, CsaVersion::V30).text;
    assert!(text.contains("\n$TIME+:150+00+10\n"), "{text}");
    assert!(text.contains("\n$TIME-:600+0+0\n"), "{text}");
}
