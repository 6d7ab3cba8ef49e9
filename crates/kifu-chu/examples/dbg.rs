fn main() {
    let sfen = std::env::args().nth(1).unwrap();
    let pos = kifu_chu::Position::from_sfen(&sfen).unwrap();
    let mut v: Vec<String> = pos.legal_moves().iter().map(|m| m.to_string()).collect();
    v.sort();
    println!("{} {}", v.len(), v.join(" "));
}
