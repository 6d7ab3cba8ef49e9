//! The plain move-line path ([`super::syntax::plain_move_line`] and the reader's
//! `plain_move`) against the general one: every KIF, KIFU and KI2 text of the corpus, hand
//! written lines of every odd shape, and corpus games with one line changed at random must
//! read to the same record and the same diagnostics either way, and check (into a tally, as
//! `kifu check` does) to that record's plies and diagnostics.

use kifu_record::{RecordCheck, TextEncoding, decode};
use kifu_testkit::corpus;
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

use super::reader::{check_lines, read_lines};
use super::syntax::{Body, fixed_move_line, move_line, plain_move_line};

/// Reads `text` both ways and asserts the same record and diagnostics; returns how many of
/// its lines have the plain shape.
fn same_both_ways(text: &str, what: &str) -> usize {
    let plain = read_lines(text, true);
    let general = read_lines(text, false);
    assert_eq!(plain.record, general.record, "{what}: the records differ");
    assert_eq!(
        plain.diagnostics, general.diagnostics,
        "{what}: the diagnostics differ"
    );
    // `kifu check`'s tally, either way, finds what the record holds.
    let expected = RecordCheck {
        plies: plain.record.main_line_plies(),
        diagnostics: plain.diagnostics.clone(),
    };
    for fast in [true, false] {
        assert_eq!(
            check_lines(text, fast),
            expected,
            "{what}: the check differs from the record (plain paths {fast})"
        );
    }
    text.lines()
        .map(|line| line.trim_end_matches('\r'))
        .filter(|line| plain_move_line(line.as_bytes()).is_some())
        .count()
}

/// What `move_line` makes of a line `plain_move_line` reads, field by field.
fn same_line(line: &str) -> bool {
    let Some(plain) = plain_move_line(line.as_bytes()) else {
        return false;
    };
    let general = move_line(line).expect("a plain line is a numbered line");
    assert_eq!(general.ply, plain.ply, "{line}");
    assert_eq!(general.body_at, plain.body_at, "{line}");
    assert_eq!(general.body, Ok(Body::Move(plain.mv)), "{line}");
    assert_eq!(general.times, plain.times.map(Ok), "{line}");
    assert!(!general.has_variation, "{line}");
    assert_eq!(general.trailing, None, "{line}");
    true
}

/// At every line start of `text`, as the reader splits lines: where [`fixed_move_line`]
/// reads a line, it reads what [`plain_move_line`] reads from the line split off, and takes
/// the line with its end of line. Returns how many lines it read.
fn same_fixed(text: &str) -> usize {
    let mut read = 0;
    let mut start = 0;
    while start < text.len() {
        let rest = &text[start..];
        let len = memchr::memchr(b'\n', rest.as_bytes()).unwrap_or(rest.len());
        let line = rest[..len].trim_end_matches('\r');
        if let Some((fixed, used)) = fixed_move_line(rest.as_bytes()) {
            assert_eq!(Some(fixed), plain_move_line(line.as_bytes()), "{line}");
            assert!(same_line(line), "{line}");
            // The line and one `\n`, `\r\n` or the end of the text.
            let end = rest.get(line.len()..used).unwrap_or("?");
            assert!(
                ["", "\n", "\r\n"].contains(&end) && (!end.is_empty() || used == rest.len()),
                "{line:?} takes {used} of {rest:?}"
            );
            read += 1;
        }
        start += len + 1;
    }
    read
}

fn corpus_texts() -> Vec<(String, String)> {
    let mut texts = Vec::new();
    for (folder, ext, encoding) in [
        ("shogi/bulk/kif", "kif", TextEncoding::ShiftJis),
        ("shogi/bulk/kifu", "kifu", TextEncoding::Utf8),
        ("shogi/converter-suite/kif", "kif", TextEncoding::ShiftJis),
        ("shogi/converter-suite/kif", "kifu", TextEncoding::Utf8),
        ("shogi/converter-suite/ki2", "ki2", TextEncoding::ShiftJis),
        ("shogi/jkf-suite/kif", "kif", TextEncoding::ShiftJis),
        ("shogi/jkf-suite/kif", "kifu", TextEncoding::Utf8),
        ("shogi/jkf-suite/ki2", "ki2", TextEncoding::ShiftJis),
    ] {
        for path in corpus::files(folder, ext) {
            let bytes = std::fs::read(&path).unwrap();
            let text = decode(&bytes, encoding).text.into_owned();
            texts.push((path.display().to_string(), text));
        }
    }
    texts
}

#[test]
fn every_corpus_kif_and_ki2_text_reads_the_same_both_ways() {
    let mut files = 0;
    let mut plain_lines = 0;
    let mut move_lines = 0;
    let mut fixed_lines = 0;
    for (name, text) in corpus_texts() {
        plain_lines += same_both_ways(&text, &name);
        fixed_lines += same_fixed(&text);
        for line in text.lines().map(|l| l.trim_end_matches('\r')) {
            same_line(line);
            move_lines += usize::from(move_line(line).is_some());
        }
        files += 1;
    }
    assert!(files > 1000, "{files}");
    // The plain shape is the shape of the corpus' move lines: nearly all of them take it.
    assert!(
        plain_lines * 100 > move_lines * 95,
        "{plain_lines} of {move_lines}"
    );
    // And most of them are laid out as the fixed-offset reader reads them.
    assert!(
        fixed_lines * 100 > move_lines * 80,
        "{fixed_lines} of {move_lines}"
    );
}

/// One line of each odd shape, in a game where it stands at a legal place.
const ODD_GAMES: &[&str] = &[
    // Texts that hold no game or only a header, comments and bookmarks before any move, a
    // result in a `まで` line, an illegal move excused by it, a game stopped before its first
    // move: what the tally must count as the record does.
    "",
    "棋戦：x\n",
    "何か：x\n",
    "*before\n&mark\n",
    "*before\n&mark\n   1 ７六歩(77)\n*after\n&again\n   2 ３四歩(33)\n   3 投了\n",
    "   1 ７六歩(77)\n   2 ３四歩(33)\n   3 投了\nまで2手で後手の勝ち\n",
    "▲７六歩　△３四歩\nまで2手で後手の勝ち\n",
    "   1 ７六歩(77)\n   2 ７五歩(33)\nまで2手で先手の反則勝ち\n",
    "   1 ７六歩(77)\n   2 ７五歩(33)\n   3 反則勝ち\n",
    "まで0手で中断\n",
    "   1 ７六歩(77)\n   2 投了\n   3 ２六歩(27)\n",
    "   1 ７六歩(77)\n   2 何か\n",
    "   1 ７六歩(77)\n   2 何か\n   3 ２六歩(27)\n",
    // 同　 and 同 without the space, 同 with two spaces, 同 with an ASCII space.
    "   1 ７六歩(77)\n   2 ３四歩(33)\n   3 ２二角成(88)\n   4 同　銀(31)\n",
    "   1 ７六歩(77)\n   2 ３四歩(33)\n   3 ２二角成(88)\n   4 同銀(31)\n",
    "   1 ７六歩(77)\n   2 ３四歩(33)\n   3 ２二角成(88)\n   4 同　　銀(31)\n",
    "   1 ７六歩(77)\n   2 ３四歩(33)\n   3 ２二角成(88)\n   4 同 銀(31)\n",
    // 同 as the first move: no previous move.
    "   1 同　歩(77)\n",
    // A drop, a drop of what is not in hand, a drop of a promoted piece, 打 with an origin.
    "   1 ７六歩(77)\n   2 ３四歩(33)\n   3 ２二角成(88)\n   4 同　銀(31)\n   5 ４五角打\n",
    "   1 ７六歩(77)\n   2 ３四歩(33)\n   3 ４五角打\n",
    "   1 ７六歩(77)\n   2 ３四歩(33)\n   3 ２二角成(88)\n   4 同　銀(31)\n   5 ４五馬打\n",
    "   1 ７六歩(77)\n   2 ３四歩(33)\n   3 ２二角成(88)\n   4 同　銀(31)\n   5 ４五角打(00)\n",
    // 成, 不成, 生, 成 where it cannot promote, 不成 where it must.
    "   1 ７六歩(77)\n   2 ３四歩(33)\n   3 ２二角不成(88)\n   4 同　銀(31)\n",
    "   1 ７六歩(77)\n   2 ３四歩(33)\n   3 ２二角生(88)\n",
    "   1 ７六歩(77)\n   2 ３四歩(33)\n   3 ７五歩成(76)\n",
    "手合割：平手\n   1 ７六歩(77)\n   2 ３四歩(33)\n   3 ７五歩(76)\n   4 ８四歩(83)\n   5 ７四歩(75)\n   6 ８五歩(84)\n   7 ７三歩不成(74)\n",
    // 成銀, 全 and their kin, on a board where they stand.
    "後手の持駒：なし\n  ９ ８ ７ ６ ５ ４ ３ ２ １\n+---------------------------+\n| ・ ・ ・ ・v玉 ・ ・ ・ ・|一\n| ・ ・ ・ ・ ・ ・ ・ ・ ・|二\n| ・ ・ ・ ・ ・ ・ ・ ・ ・|三\n| ・ ・ ・ ・ ・ ・ ・ ・ ・|四\n| ・ ・ ・ ・ ・ ・ ・ ・ ・|五\n| ・ ・ ・ ・ ・ ・ ・ ・ ・|六\n| ・ 全 杏 圭 ・ ・ ・ ・ ・|七\n| ・ ・ ・ ・ ・ ・ ・ ・ ・|八\n| ・ ・ ・ ・ 玉 ・ ・ ・ ・|九\n+---------------------------+\n先手の持駒：なし\n   1 ８六成銀(87)\n   2 ５二玉(51)\n   3 ７六杏(77)\n   4 ５一玉(52)\n   5 ６六圭(67)\n   6 ５二玉(51)\n   7 ８五全(86)\n",
    // No origin, one piece can go there, or two.
    "   1 ７六歩\n   2 ３四歩\n   3 ６八銀\n",
    "   1 ５八金\n",
    // Wide spaces and tabs around the parts, times of every form.
    "　1　７六歩(77)　( 0:16/00:00:16)\n\t2\t３四歩(33)\t( 0:01)\n",
    "   1 ７六歩(77)   (0:4/0:0:4)\n   2 ３四歩(33)   (00:31 / 00:00:31)\n   3 ２六歩(27)   (75:00/01:15:00)\n",
    "   1 ７六歩(77)   ( 0:16/00:00:16)+\n   2 ３四歩(33)   ( 0:16/00:00:16) +\n   3 ２六歩(27)+\n",
    "   1 ７六歩(77)   ( x:16/00:00:16)\n   2 ３四歩(33)   ( 0:16/00:00:16\n   3 ２六歩(27) junk\n",
    "   1 ７六歩(77)   ( 0:16/00:00:16)   ( 0:01/00:00:17)\n",
    // Origins in full-width digits, a space before the origin, a short origin.
    "   1 ７六歩(７７)\n   2 ３四歩　(33)\n   3 ２六歩(2)\n",
    // Numbering off from the start, off for one move, a number too long for the fast way.
    "   3 ７六歩(77)\n   4 ３四歩(33)\n   5 ２六歩(27)\n",
    "   1 ７六歩(77)\n   5 ３四歩(33)\n   3 ２六歩(27)\n",
    "1234567890 ７六歩(77)\n2 ３四歩(33)\n",
    "0000000001 ７六歩(77)\n",
    // A move the rules refuse, the piece named wrongly, an empty origin square, then more.
    "   1 ７五歩(77)\n   2 ３四歩(33)\n   3 ２六歩(27)\n",
    "   1 ７六銀(77)\n   2 ３四歩(33)\n",
    "   1 ７六歩(76)\n   2 ３四歩(33)\n",
    "   1 ７六歩(77)\n   2 ７六歩(33)\n   3 ２六歩(27)\n   4 反則勝ち\n",
    // Moves after an ending, after an unknown word, a second ending.
    "   1 ７六歩(77)\n   2 投了\n   3 ２六歩(27)\n",
    "   1 ７六歩(77)\n   2 ほげ\n   3 ２六歩(27)\n",
    "   1 ７六歩(77)\n   2 ３四歩(33)\n   3 中断\n   4 投了\n",
    // Comments, bookmarks and variations around plain lines.
    "*start\n   1 ７六歩(77)\n*one\n&mark\n   2 ３四歩(33)\n   3 ２六歩(27)\n\n変化：2手\n   2 ８四歩(83)\n   3 ２六歩(27)\n変化：3手\n   3 ６八銀(79)\n",
    "   1 ７六歩(77)\n   2 ３四歩(33)\n   3 ７五歩(77)\n   4 ８四歩(83)\n変化：4手\n   4 ４四歩(43)\n",
    "   1 ７六歩(77)\n変化：5手\n   5 ２六歩(27)\n   6 ３四歩(33)\n",
    // KI2 lines amid KIF lines, and a KI2 game.
    "   1 ７六歩(77)\n△３四歩　▲２六歩\n   4 ８四歩(83)\n",
    "▲７六歩　△３四歩　▲２二角成　△同　銀\nまで4手で中断\n",
    // KI2: 打 and a drop without it, 同 without its space, 不成, relative words that pick a
    // piece and a move that needs one, a mark of the side not to move, 同 first, an ending.
    "▲７六歩　△３四歩　▲２二角成　△同銀　▲４五角打　△５二玉　▲５五角\n",
    "▲７六歩　△３四歩　▲２二角不成　△同　銀\n",
    "▲５八金右　△３四歩　▲７八金\n",
    "▲５八金　△３四歩\n",
    "▲７六歩　▲３四歩\n",
    "△同　歩\n",
    "▲７六歩　△投了\n",
    "▲７六歩    △３四歩    ▲２六歩\n△８四歩\t▲２五歩\n",
    // Handicap start: 上手 moves first. An unknown handicap: the start's warning comes
    // before anything the first move says, whichever path sets the start up.
    "手合割：香落ち\n   1 ３四歩(33)\n   2 ７六歩(77)\n",
    "手合割：謎\n   1 ７六歩(77)\n   2 ３四歩(33)\n",
    "手合割：謎\n   1 ７五歩(77)\n   2 ３四歩(33)\n",
    "手合割：謎\n   3 ７六歩(77)\n   4 ３四歩(33)\n",
    // A fourfold repetition, then a move after it.
    "   1 ５八玉(59)\n   2 ５二玉(51)\n   3 ５九玉(58)\n   4 ５一玉(52)\n   5 ５八玉(59)\n   6 ５二玉(51)\n   7 ５九玉(58)\n   8 ５一玉(52)\n   9 ５八玉(59)\n  10 ５二玉(51)\n  11 ５九玉(58)\n  12 ５一玉(52)\n  13 ５八玉(59)\n  14 ５二玉(51)\n  15 ５九玉(58)\n  16 ５一玉(52)\n  17 ７六歩(77)\n",
];

#[test]
fn odd_lines_read_the_same_both_ways() {
    for text in ODD_GAMES {
        same_both_ways(text, text);
        same_fixed(text);
        for line in text.lines() {
            same_line(line);
        }
        // With `\r\n`, `\r\r\n` and no end on the last line, the fixed-offset reader's
        // line ends.
        for (from, to) in [("\n", "\r\n"), ("\n", "\r\r\n")] {
            let changed = text.replace(from, to);
            same_both_ways(&changed, &changed);
            same_fixed(&changed);
        }
        if let Some(cut) = text.strip_suffix('\n') {
            same_both_ways(cut, cut);
            same_fixed(cut);
        }
    }
    // The layout the fixed-offset reader is for, and near misses it leaves to the others.
    for (text, reads) in [
        ("   1 ７六歩(77)   ( 0:16/00:00:16)\n", true),
        ("   1 ７六歩(77)   ( 0:16/00:00:16)", true),
        ("   1 ７六歩(77)   ( 0:16/00:00:16)\r\n", true),
        ("  12 同　銀(31)   (12:34/01:02:03)\n", true),
        (" 123 ４五角打     ( 0:12/00:02:10)\n", true),
        ("1234 ２二角不成(88) ( 0:01/00:00:01)\n", true),
        ("   4 同　銀(31)\n", true),
        ("   4 同銀(31)\n", true),
        ("   1 ７六歩(77)   ( 0:16/00:00:16)\r\r\n", false),
        ("   1 ７六歩(77)   ( 0:16/00:00:16)\r", false),
        ("   1 ７六歩(77)   ( 0:16/00:00:16) \n", false),
        ("   1 ７六歩(77)   ( 0:16/00:00:16)+\n", false),
        ("   1 ７六歩(77)   (100:16/00:00:16)\n", false),
        ("   1 ７六歩(77)   (  :16/00:00:16)\n", false),
        ("   1 ７六歩(77)   ( 0:16/00:00:1x)\n", false),
        ("   1 ７六歩(77)   (0:4/0:0:4)\n", false),
        ("   1 ７六歩(77)   ( 0:01)\n", false),
        ("   1 ７六歩(77) \n", false),
        ("   1 ７六歩(77)+\n", false),
        ("   1  ７六歩(77)\n", false),
        ("  1 ７六歩(77)\n", false),
        ("1 2 ７六歩(77)\n", false),
        ("12345 ７六歩(77)\n", false),
        ("     ７六歩(77)\n", false),
        ("   1 投了\n", false),
        ("   1 ▲７六歩(77)\n", false),
    ] {
        assert_eq!(same_fixed(text), usize::from(reads), "{text:?}");
    }
    // The shapes the fast way is for do take it.
    for line in [
        "   1 ７六歩(77)   ( 0:16/00:00:16)",
        "   4 同　銀(31)",
        "   4 同銀(31)",
        "   5 ４五角打",
        "   5 ４五角打     ( 0:12/00:02:10)",
        "   3 ２二角成(88)",
        "   3 ２二角不成(88)",
        "   7 ８五全(86)",
        "   1 ８六成銀(87)",
        "   1 ７六歩(77)   (0:4/0:0:4)",
        "   1 ７六歩(77)   ( 0:01)",
        "   2 ３四歩　(33)",
        "   1 ７六歩(７７)",
        " 123 ７六歩",
    ] {
        assert!(same_line(line), "{line}");
    }
    // And the others go the general way.
    for line in [
        "   1 ７六歩(77)+",
        "   1 ７六歩(77) junk",
        "\t1 ７六歩(77)",
        "   1 ▲７六歩(77)",
        "   1 投了",
        "   1 ７六歩(77)   ( x:16/00:00:16)",
        "1234567890 ７六歩(77)",
        "   1",
    ] {
        assert!(!same_line(line), "{line}");
    }
}

/// Corpus games with one line changed in one of the ways a writer or a hand gets a line
/// wrong; each read the same both ways.
#[test]
fn corpus_games_with_a_line_changed_read_the_same_both_ways() {
    let mut rng = StdRng::seed_from_u64(36);
    let games: Vec<String> = corpus::files("shogi/bulk/kifu", "kifu")
        .iter()
        .take(60)
        .map(|path| std::fs::read_to_string(path).unwrap())
        .collect();
    let changes: [fn(&str) -> String; 12] = [
        |l| l.replacen("(", "", 1),
        |l| l.replacen("歩", "と", 1),
        |l| l.replacen("銀", "全", 1),
        |l| l.replacen(")", ")+", 1),
        |l| l.replacen("(", "成(", 1),
        |l| l.replacen("(", "不成(", 1),
        |l| l.replacen("   ", "　", 1),
        |l| l.replacen("同　", "同", 1),
        |l| l.replacen(":", "", 1),
        |l| l.replacen('1', "2", 1),
        |l| l.replacen('7', "3", 1),
        |l| format!("{l} x"),
    ];
    for game in &games {
        let lines: Vec<&str> = game.lines().collect();
        for change in changes {
            let at = rng.random_range(0..lines.len());
            let mut changed: Vec<String> = lines.iter().map(|l| (*l).to_owned()).collect();
            changed[at] = change(lines[at]);
            let text = changed.join("\n");
            same_both_ways(&text, &text);
        }
    }
}
