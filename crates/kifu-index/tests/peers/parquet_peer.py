"""The questions of `kifu explore` and `kifu find` answered by DuckDB from the Parquet tables of
`kifu export --to parquet`, with the SQL of docs/parquet-schema.md.

Usage: parquet_peer.py TABLES_DIR KEY...   (keys as 16 hex digits)
Prints {key: {"moves": {usi: games}, "games": [[file, record, ply], ...]}} as JSON.
"""
import json
import sys

import duckdb


def main(directory, keys):
    con = duckdb.connect()
    plies, games = f"{directory}/plies.parquet", f"{directory}/games.parquet"
    out = {}
    for hex_key in keys:
        key = int(hex_key, 16)
        moves = con.execute(
            f"select move, count(distinct (source_file, record)) from '{plies}' "
            f"where position_key = {key} and variation = 0 group by move").fetchall()
        found = con.execute(
            f"select source_file, record, min(ply) as ply from ("
            f" select source_file, record, ply - 1 as ply from '{plies}'"
            f" where position_key = {key} and variation = 0"
            f" union all select source_file, record, plies as ply from '{games}'"
            f" where end_position_key = {key})"
            f" group by source_file, record order by source_file, record").fetchall()
        out[hex_key] = {"moves": dict(moves), "games": [list(row) for row in found]}
    json.dump(out, sys.stdout)


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2:])
