//! `docs/parquet-schema.md` lists every column the tables have, and no column they lack.

use std::path::Path;

#[test]
fn the_schema_page_lists_every_column() {
    let page = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../../docs/parquet-schema.md"),
    )
    .unwrap();
    let listed: Vec<&str> = page
        .lines()
        .filter_map(|l| l.strip_prefix("| `")?.split_once('`').map(|(name, _)| name))
        .collect();
    let (plies, games) = kifu_export::table::column_names();
    let analysis = kifu_export::analysis::column_names();
    for column in plies.iter().chain(&games).chain(&analysis) {
        assert!(
            listed.contains(column),
            "docs/parquet-schema.md does not list `{column}`"
        );
    }
    for column in &listed {
        assert!(
            plies.contains(column) || games.contains(column) || analysis.contains(column),
            "docs/parquet-schema.md lists `{column}`, which no table has"
        );
    }
}
