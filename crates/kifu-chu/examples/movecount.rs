//! Compares legal move counts and game ends with an oracle: reads `sfen<TAB>count[<TAB>outcome]`
//! lines (from `bench-peer/random-positions.mjs`, outcome as shogiops names it) on stdin and
//! prints every position where ours differ.

use std::io::BufRead;

use kifu_chu::{Color, EndReason, Position};

fn shogiops_outcome(pos: &Position) -> String {
    match pos.outcome() {
        None => "-".into(),
        Some(o) => {
            let result = match o.reason {
                EndReason::RoyalsCaptured => "kingslost",
                EndReason::NoLegalMoves => "stalemate",
                EndReason::BareKing => "bareking",
                EndReason::OnlyRoyals => "draw",
                EndReason::Repetition | EndReason::PerpetualCheck => "repetition",
                EndReason::Checkmate => "checkmate",
            };
            let winner = match o.winner {
                Some(Color::Black) => "sente",
                Some(Color::White) => "gote",
                None => "-",
            };
            format!("{result}:{winner}")
        }
    }
}

fn main() {
    let (mut checked, mut differ) = (0, 0);
    for line in std::io::stdin().lock().lines().map_while(Result::ok) {
        let mut fields = line.split('\t');
        let (Some(sfen), Some(count)) = (fields.next(), fields.next()) else {
            continue;
        };
        let outcome = fields.next();
        let Ok(want) = count.trim().parse::<usize>() else {
            continue;
        };
        let pos = match Position::from_sfen(sfen) {
            Ok(p) => p,
            Err(e) => {
                println!("{sfen}: {e}");
                differ += 1;
                continue;
            }
        };
        checked += 1;
        let got = pos.legal_moves().len();
        if got != want {
            differ += 1;
            println!("{sfen}: ours {got}, oracle {want}");
        }
        if let Some(o) = outcome
            && o != shogiops_outcome(&pos)
        {
            differ += 1;
            println!(
                "{sfen}: outcome ours {}, oracle {o}",
                shogiops_outcome(&pos)
            );
        }
    }
    println!("{checked} positions, {differ} differ");
    std::process::exit(i32::from(differ > 0));
}
