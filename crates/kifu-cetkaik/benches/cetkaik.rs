//! Move candidates on positions from seeded random playouts, ours against
//! `cetkaik_yhuap_move_candidates` (same positions, same run). Reading and replaying CKKA
//! files is measured in `kifu-records` (`benches/cetkaik.rs`).
//!
//! `cargo bench -p kifu-cetkaik --bench cetkaik`

use cetkaik_fundamental::{AbsoluteSide, ColorAndProf};
use cetkaik_naive_representation::CetkaikNaive;
use cetkaik_naive_representation::absolute::{self, Field};
use criterion::{Criterion, criterion_group, criterion_main};
use kifu_cetkaik::play::needed_throws;
use kifu_cetkaik::{
    Color, Piece, Position, Profession, Rules, Side, Square, StickRng, Throw, Throws, candidates,
};
use std::hint::black_box;

fn positions() -> Vec<Position> {
    let rules = Rules::standard();
    let mut out = Vec::new();
    for seed in 0..8u64 {
        let mut rng = StickRng::new(seed);
        let mut pos = Position::startpos(Side::IASide);
        for _ in 0..60 {
            out.push(pos.clone());
            let list = candidates(&pos, pos.turn(), &rules);
            let mv = list[rng.below(list.len())];
            let (bridge, water) = needed_throws(&pos, mv);
            let mut t = Throws::default();
            if bridge {
                t.bridge = Some(Throw::Count(5));
                t.bridge_void = mv.step().is_some_and(|s| s.distance(mv.dst()) > 5);
            }
            if water && !t.bridge_void {
                t.water = Some(Throw::Count(5));
            }
            pos.play(mv, t, &rules).expect("legal");
        }
    }
    out
}

fn field(pos: &Position) -> Field {
    let color = |c: Color| match c {
        Color::Black => cetkaik_fundamental::Color::Huok2,
        Color::Red => cetkaik_fundamental::Color::Kok1,
    };
    let prof = |p: Profession| -> cetkaik_fundamental::Profession {
        kifu_prof_name(p).parse().expect("profession")
    };
    let side = |s: Side| {
        if s == Side::IASide {
            AbsoluteSide::IASide
        } else {
            AbsoluteSide::ASide
        }
    };
    let mut board = std::collections::HashMap::new();
    for sq in Square::all() {
        let coord = absolute::parse_coord(&sq.to_string()).expect("coord");
        match pos.get(sq) {
            Some(Piece::Tam) => {
                board.insert(coord, absolute::Piece::Tam2);
            }
            Some(Piece::Owned {
                color: c,
                prof: p,
                side: s,
            }) => {
                board.insert(
                    coord,
                    absolute::Piece::NonTam2Piece {
                        color: color(c),
                        prof: prof(p),
                        side: side(s),
                    },
                );
            }
            None => {}
        }
    }
    let hop = |s: Side| {
        pos.hop1zuo1(s)
            .pieces()
            .map(|(c, p)| ColorAndProf {
                color: color(c),
                prof: prof(p),
            })
            .collect()
    };
    Field {
        board: absolute::Board(board),
        a_side_hop1zuo1: hop(Side::ASide),
        ia_side_hop1zuo1: hop(Side::IASide),
    }
}

fn kifu_prof_name(p: Profession) -> String {
    p.kanji().to_string()
}

fn bench(c: &mut Criterion) {
    let ps = positions();
    let fields: Vec<(AbsoluteSide, Field)> = ps
        .iter()
        .map(|p| {
            (
                if p.turn() == Side::IASide {
                    AbsoluteSide::IASide
                } else {
                    AbsoluteSide::ASide
                },
                field(p),
            )
        })
        .collect();
    let rules = Rules::standard();
    let mut g = c.benchmark_group("candidates_480_positions");
    g.bench_function("kifu_cetkaik", |b| {
        b.iter(|| {
            ps.iter()
                .map(|p| candidates(black_box(p), p.turn(), &rules).len())
                .sum::<usize>()
        })
    });
    g.bench_function("cetkaik_yhuap_move_candidates", |b| {
        b.iter(|| {
            fields
                .iter()
                .map(|(s, f)| {
                    cetkaik_yhuap_move_candidates::not_from_hop1zuo1_candidates_vec::<CetkaikNaive>(
                        &cetkaik_yhuap_move_candidates::AllowKut2Tam2 { allow_kut2tam2: true },
                        false,
                        *s,
                        black_box(f),
                    )
                    .len()
                        + cetkaik_yhuap_move_candidates::from_hop1zuo1_candidates_vec::<CetkaikNaive>(*s, f).len()
                })
                .sum::<usize>()
        })
    });
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
