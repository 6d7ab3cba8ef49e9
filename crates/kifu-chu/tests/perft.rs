//! Perft against the corpus's `chu/perft.tsv`: every row (the start position to depth 4 in both
//! conventions, and every random-position row).

use kifu_chu::{Counting, Position, perft};

/// Read when the test runs rather than compiled in: the corpus lies outside the crate, and the
/// published package's tests must still build without it.
fn perft_tsv() -> String {
    kifu_testkit::corpus::text("chu/perft.tsv")
}

fn rows() -> Vec<(String, u32, u64, u64)> {
    perft_tsv()
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|l| {
            let f: Vec<&str> = l.split('\t').collect();
            (
                f[0].to_string(),
                f[1].parse().unwrap(),
                f[2].parse().unwrap(),
                f[3].parse().unwrap(),
            )
        })
        .collect()
}

#[test]
fn every_corpus_row() {
    let rows = rows();
    assert!(
        rows.len() >= 283,
        "expected the full table, got {}",
        rows.len()
    );
    let mut checked = 0;
    let mut failures = Vec::new();
    for (sfen, depth, path, canonical) in rows {
        let pos = Position::from_sfen(&sfen).unwrap_or_else(|e| panic!("{sfen}: {e}"));
        let p = perft(&pos, depth, Counting::PathBased);
        let c = perft(&pos, depth, Counting::Canonical);
        if p != path || c != canonical {
            failures.push(format!(
                "{sfen} d{depth}: path {p} (want {path}), canonical {c} (want {canonical})"
            ));
        }
        checked += 1;
    }
    assert!(
        failures.is_empty(),
        "{} of {checked} rows differ:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

#[test]
fn single_pieces() {
    let lone = |piece: &str| {
        let sfen = format!("12/12/12/12/12/5{piece}6/12/12/12/12/12/12 b - 1");
        let pos = Position::from_sfen(&sfen).unwrap();
        (
            perft(&pos, 1, Counting::PathBased),
            perft(&pos, 1, Counting::Canonical),
        )
    };
    assert_eq!(lone("N"), (88, 25));
    assert_eq!(lone("+O"), (88, 25));
    // On 7f, counted by hand. Falcon: slides S 6, E 6, W 5, NE 5, NW 5, SE 6, SW 5, plus forward
    // step, jump, step-step and step-back = 42. Eagle: slides N 5, S 6, E 6, W 5, SE 6, SW 5, plus
    // 4 per forward diagonal = 41.
    assert_eq!(lone("+H"), (42, 41));
    assert_eq!(lone("+D"), (41, 38));
}

#[test]
fn counter_strike_forbids_capturing_another_lion() {
    let with = Position::from_sfen("11k/12/12/12/12/4r7/12/12/9n2/4+o7/12/6B4K b 8j").unwrap();
    let without = Position::from_sfen("11k/12/12/12/12/4r7/12/12/9n2/4+o7/12/6B4K b -").unwrap();
    assert_eq!(with.legal_moves().len(), 7);
    assert_eq!(without.legal_moves().len(), 8);
}

#[test]
fn divide_sums_to_perft_and_names_parse() {
    let pos = Position::startpos();
    let divide = kifu_chu::perft_divide(&pos, 3, Counting::Canonical);
    assert_eq!(divide.len(), 36);
    assert_eq!(divide.iter().map(|(_, n)| n).sum::<u64>(), 48_315);
    assert_eq!(Counting::from_name("canonical"), Some(Counting::Canonical));
    assert_eq!(Counting::from_name("path-based"), Some(Counting::PathBased));
    assert_eq!(Counting::from_name("x"), None);
}
