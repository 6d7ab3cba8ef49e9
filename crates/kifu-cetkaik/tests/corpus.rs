//! The cetkaik corpus (../shared/corpus/cetkaik): every record parses; legal ones validate.

use kifu_cetkaik::ckka::{self, ElementKind};
use kifu_record::SourceText;

pub const CORPUS: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../../../shared/corpus/cetkaik"
);

pub const FILES: [&str; 6] = [
    "ckka-samples/sample1.txt",
    "ckka-samples/sample2.txt",
    "cerke_online/case1_2022-05-31.ckka",
    "cerke_online/case4_2022-09-08.ckka",
    "fedirrgavir/001_jv_sy.txt",
    "fedirrgavir/004_complement_jv.txt",
];

fn read(name: &str) -> String {
    std::fs::read_to_string(format!("{CORPUS}/{name}")).expect("corpus file")
}

#[test]
fn every_corpus_record_parses_without_errors() {
    for name in FILES {
        let text = read(name);
        let (rec, diags) = ckka::parse(&text);
        let src = SourceText::new(name, &text);
        let rendered: Vec<String> = diags.iter().map(|d| src.render(d)).collect();
        assert!(rendered.is_empty(), "{name}:\n{}", rendered.join("\n"));
        let moves = rec
            .body
            .iter()
            .filter(|e| matches!(e.kind, ElementKind::Move { .. }))
            .count();
        assert!(moves >= 5, "{name}: {moves} moves");
    }
}
