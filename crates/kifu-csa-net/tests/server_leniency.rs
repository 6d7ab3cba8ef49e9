//! Move lines as lenient as shogi-server's (its move reading: the move before the first
//! comma, a `'` field after it is a comment, any other field is ignored), on real sockets.

use std::path::{Path, PathBuf};
use std::time::Duration;

use kifu_csa_net::server::log::LogTarget;
use kifu_csa_net::server::{Config, Server};
use tokio::io::AsyncWriteExt;

mod support;
use support::{Client, start_game};

fn records(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut todo = vec![dir.to_owned()];
    while let Some(d) = todo.pop() {
        for e in std::fs::read_dir(&d).unwrap().flatten() {
            let p = e.path();
            if p.is_dir() {
                todo.push(p);
            } else if p.extension().is_some_and(|x| x == "csa") {
                out.push(p);
            }
        }
    }
    out
}

/// The final record of `id` (with `$END_TIME`): the record is on disk from `START` on,
/// ending in a provisional `%CHUDAN`, and the final one follows the result by moments.
async fn record_of(dir: &Path, id: &str) -> String {
    // Real time: the record keeper is a thread of its own that writes as the game goes; this
    // polls its file, with a deadline, and asserts no duration.
    for _ in 0..400 {
        if let Some(text) = records(dir)
            .into_iter()
            .find(|p| p.to_string_lossy().contains(id))
            .and_then(|p| std::fs::read_to_string(p).ok())
            && text.contains("$END_TIME:")
        {
            return text;
        }
        tokio::time::sleep(Duration::from_millis(25)).await;
    }
    panic!("no final record for {id}");
}

#[tokio::test]
async fn comments_without_a_star_times_trailing_spaces_and_euc_bytes_are_moves() {
    let dir = tempfile::tempdir().unwrap();
    let mut config = Config::new("127.0.0.1:0".parse().unwrap());
    config.data = Some(dir.path().to_owned());
    config.log = LogTarget::File(dir.path().join("server.log"));
    let server = Server::bind(config).await.unwrap();
    let addr = server.local_addr().unwrap();
    tokio::spawn(server.run());

    let mut black = Client::connect(addr).await;
    let mut white = Client::connect(addr).await;
    let id = start_game(
        &mut black,
        &mut white,
        "LOGIN alice lenient-600-10-B",
        "LOGIN bob lenient-600-10",
    )
    .await;
    // 日本語 in EUC-JP, as shogi-server's own clients write it.
    let euc: &[u8] = b"-8384FU,'\xc6\xfc\xcb\xdc\xb8\xec\n";
    let plies: [(&[u8], &str); 6] = [
        (b"+2726FU,'comment\n", "+2726FU"),
        ("-3334FU,'日本語\n".as_bytes(), "-3334FU"),
        (b"+2625FU,T5\n", "+2625FU"),
        (euc, "-8384FU"),
        (b"+7776FU \n", "+7776FU"),
        (b"-8485FU,'* 30 -2233KA \n", "-8485FU"),
    ];
    for (i, (line, echo)) in plies.iter().enumerate() {
        let (mover, other) = if i % 2 == 0 {
            (&mut black, &mut white)
        } else {
            (&mut white, &mut black)
        };
        mover.wr.write_all(line).await.unwrap();
        let got = mover.line().await;
        assert!(got.starts_with(&format!("{echo},T")), "{got}");
        assert_eq!(other.line().await, got);
    }
    // Text glued to the move without a comma is no move: shogi-server judges it illegal.
    black.send("+2524FU '* 10 -2324FU").await;
    assert_eq!(black.lines(2).await, ["#ILLEGAL_MOVE", "#LOSE"]);
    assert_eq!(white.lines(2).await, ["#ILLEGAL_MOVE", "#WIN"]);

    let record = record_of(dir.path(), &id).await;
    for want in [
        "'*comment",
        "'*日本語",
        "'** 30 -2233KA",
        "'ILLEGAL_MOVE(+2524FU '* 10 -2324FU)",
    ] {
        assert!(record.contains(want), "{want} not in\n{record}");
    }
    assert_eq!(record.matches("'*日本語").count(), 2, "{record}");
    assert!(
        !record.contains("T5\n+") && !record.contains(",T5"),
        "{record}"
    );
}
