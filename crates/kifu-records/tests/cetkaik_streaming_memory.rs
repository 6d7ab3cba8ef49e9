//! Issue 14: a cetkaik match read through `RecordFormat::records` holds one season at a
//! time. The rules end a match after four seasons at most (three in the record used here), so
//! a long file is one of long seasons: case1 with its seasons drawn out by soldiers stepping
//! back and forth. Counted with an allocator that tracks the peak of live bytes (its own test
//! binary, as the global allocator counts for the whole process).

use kifu_cetkaik::Rules;
use kifu_records::cetkaik::{self as ckka, FORMATS};
use kifu_testkit::peak_memory::{self, Counting, peak_during};

#[global_allocator]
static ALLOCATOR: Counting = Counting;

/// case1 with `rounds` times four soldier steps (there and back for each side) at the start
/// of each of its three seasons, which leave the board as it was.
fn long_match(rounds: usize) -> String {
    let text = kifu_testkit::corpus::text("cetkaik/cerke_online/case1_2022-05-31.ckka");
    let steps = "CAI兵CAU無撃裁    CI兵CE無撃裁\nCAU兵CAI無撃裁    CE兵CI無撃裁\n".repeat(rounds);
    let opener = "MAU弓MAIMY橋";
    assert_eq!(text.matches(opener).count(), 3);
    text.replace(opener, &format!("{steps}{opener}"))
}

#[test]
fn reading_a_match_holds_one_season_at_a_time() {
    // 3 × 28,000 steps, 1.7 MB of text.
    let text = long_match(7000);
    assert!(text.len() > 1_500_000);

    // Streaming: each season is checked and dropped before the next is read.
    let (streaming, count) = peak_during(|| {
        let mut count = 0;
        for read in FORMATS[0].records(&text) {
            // Still a valid match, each season drawn out.
            assert!(read.diagnostics.is_empty(), "{:?}", read.diagnostics);
            assert!(read.record.moves.main_line().count() > 28_000);
            count += 1;
        }
        count
    });
    assert_eq!(count, 3);

    // The first season comes out before the rest of the file is read: what is live once it
    // is handed out is about one season.
    let (_, held) = peak_during(|| {
        let before = peak_memory::live();
        let mut reads = FORMATS[0].records(&text);
        let first = reads.next().unwrap();
        assert!(first.diagnostics.is_empty());
        let held = peak_memory::live() - before;
        drop((first, reads));
        held
    });

    // Collected, the three seasons are live at once. The whole-file reader parsed the file,
    // replayed the match and turned all its seasons into records before handing out one.
    let (collected, _) = peak_during(|| FORMATS[0].records(&text).collect::<Vec<_>>().len());
    let (whole, _) = peak_during(|| {
        let (parsed, _) = ckka::parse(&text);
        let (game, diags) = ckka::replay(&parsed, Rules::standard());
        assert!(diags.is_empty());
        ckka::season_records(&game).len()
    });

    eprintln!(
        "peak bytes: streaming {streaming}, after the first season {held}, collected \
         {collected}, whole-file reader {whole}"
    );
    // One season's record (and the reader's state) is less than half of three.
    assert!(
        2 * held < collected,
        "after the first season {held} bytes live, all seasons {collected}"
    );
    // Streaming holds a season being replayed and its record, not three records.
    assert!(
        3 * streaming < 2 * collected,
        "streaming peaked at {streaming} bytes, collecting at {collected}"
    );
    assert!(
        3 * streaming < whole,
        "streaming peaked at {streaming} bytes, the whole-file reader at {whole}"
    );
}
