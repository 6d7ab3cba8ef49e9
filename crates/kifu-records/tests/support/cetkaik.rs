//! The cetkaik corpus records the cetkaik tests read (the corpus's `cetkaik/`).

/// One file of every source and notation: the CKKA samples, cerke_online exports, and
/// fedirrgavir's hand-written records.
pub const FILES: [&str; 6] = [
    "ckka-samples/sample1.txt",
    "ckka-samples/sample2.txt",
    "cerke_online/case1_2022-05-31.ckka",
    "cerke_online/case4_2022-09-08.ckka",
    "fedirrgavir/001_jv_sy.txt",
    "fedirrgavir/004_complement_jv.txt",
];

/// A cetkaik corpus file's text, read at run time.
pub fn read(name: &str) -> String {
    kifu_testkit::corpus::text(&format!("cetkaik/{name}"))
}
