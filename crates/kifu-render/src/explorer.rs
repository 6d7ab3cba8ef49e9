//! The opening explorer beside a replay page (`kifu html --archive`): for each position of
//! the record, what the games of an archive played from it and how they went, and a list of
//! the archive's games most like this one (those that reached the most of its positions).
//!
//! The answers are computed when the page is written and carried in the page as data, so the
//! page still works from `file://` with no server. The table follows the viewer without the
//! viewer knowing of it: the viewer writes the shown position on the board's position
//! attribute (`data-sfen`) at every step, and the explorer's script watches that attribute.
//! A position is looked up by its text without the move number, as the archive's key leaves
//! the move number out.

use serde_json::json;

use crate::html::Page;
use crate::svg::escape;

/// The explorer's answers for one record's page.
#[derive(Clone, Debug, Default)]
pub struct Explorer {
    /// Each distinct position of the record that the archive holds.
    pub positions: Vec<ExploredPosition>,
    /// The archive's games most like the record, most alike first.
    pub similar: Vec<SimilarGame>,
    /// How many games the archive holds, for the caption.
    pub archive_games: u64,
}

/// What the archive's games did from one position.
#[derive(Clone, Debug)]
pub struct ExploredPosition {
    /// The position's text without its move number (SFEN: board, side to move, hands).
    pub position: String,
    /// Games that reached it.
    pub games: u64,
    /// The moves played from it, most played first.
    pub moves: Vec<ExploredMove>,
}

/// One move played from a position, and how the games that played it went for the side that
/// played it.
#[derive(Clone, Debug)]
pub struct ExploredMove {
    /// The move in the game's machine notation (USI).
    pub mv: String,
    /// Games that played it there.
    pub games: u64,
    /// Of those, the games the mover won …
    pub wins: u64,
    /// … drew …
    pub draws: u64,
    /// … and lost.
    pub losses: u64,
    /// The mean rating of the games' players, where they have ratings.
    pub average_rating: Option<f64>,
}

/// A game of the archive that reached positions of the record.
#[derive(Clone, Debug)]
pub struct SimilarGame {
    /// Who played, when and the result, as a line.
    pub label: String,
    /// The file it was read from.
    pub file: String,
    /// Its record number in that file, from 1.
    pub record: u32,
    /// How many of the record's positions it reached.
    pub shared: u32,
    /// The highest ply of the record at which it stood in the same position.
    pub deepest_ply: u32,
}

/// The words of the explorer (the page's font is cut to the characters a page shows; these
/// are drawn in the browser's sans-serif font instead, so nothing is missing).
const STYLE: &str = "#explorer{font-family:sans-serif;font-size:14px;margin:1em 0}\
#explorer table{border-collapse:collapse}#explorer td,#explorer th{padding:2px 8px;text-align:right}\
#explorer td:first-child,#explorer th:first-child{text-align:left;font-family:monospace}\
#explorer tbody tr:nth-child(odd){background:#f3eee2}#similar li{margin:2px 0}";

const SCRIPT: &str = r#"(function(){
var D=JSON.parse(document.getElementById("kifu-explorer").textContent);
var board=document.getElementById("board"),body=document.getElementById("explorer-moves");
var caption=document.getElementById("explorer-caption");
function key(s){return s.split(" ").slice(0,3).join(" ");}
function show(){
 var p=D.positions[key(board.getAttribute(D.attr)||"")];
 body.textContent="";
 if(!p){caption.textContent="No game of the archive ("+D.games+" games) reached this position.";return;}
 caption.textContent=p.g+" of the archive's "+D.games+" games reached this position.";
 p.m.forEach(function(m){
  var tr=document.createElement("tr");
  m.forEach(function(v){var td=document.createElement("td");td.textContent=v===null?"":v;tr.appendChild(td);});
  body.appendChild(tr);
 });
}
new MutationObserver(show).observe(board,{attributes:true,attributeFilter:[D.attr]});
show();
})();"#;

/// Adds the explorer to a replay page: a table under the viewer that shows the current
/// position's moves, and the list of similar games. `attr` is the board's position attribute
/// (`Picture::POSITION_ATTRIBUTE`, `data-sfen` for shogi).
pub fn attach(page: &mut Page, explorer: &Explorer, attr: &str) {
    let positions: serde_json::Map<String, serde_json::Value> = explorer
        .positions
        .iter()
        .map(|p| {
            let moves: Vec<serde_json::Value> = p
                .moves
                .iter()
                .map(|m| {
                    json!([
                        m.mv,
                        m.games,
                        m.wins,
                        m.draws,
                        m.losses,
                        m.average_rating.map(|r| r.round() as i64)
                    ])
                })
                .collect();
            (p.position.clone(), json!({ "g": p.games, "m": moves }))
        })
        .collect();
    let data = json!({ "attr": attr, "games": explorer.archive_games, "positions": positions });
    // `</` inside the JSON would end the script element early.
    let data = data.to_string().replace("</", "<\\/");
    let mut similar = String::new();
    for game in &explorer.similar {
        similar.push_str(&format!(
            "<li data-file=\"{file}\" data-record=\"{record}\">{label} — {file} #{record}: \
             {shared} positions in common, the last at ply {ply}</li>",
            label = escape(&game.label),
            file = escape(&game.file),
            record = game.record,
            shared = game.shared,
            ply = game.deepest_ply,
        ));
    }
    if similar.is_empty() {
        similar.push_str("<li>none beyond the start position</li>");
    }
    let section = format!(
        "<section id=\"explorer\"><style>{STYLE}</style><h2>Explorer</h2>\
         <p id=\"explorer-caption\"></p><table><thead><tr><th>move</th><th>games</th>\
         <th>wins</th><th>draws</th><th>losses</th><th>average rating</th></tr></thead>\
         <tbody id=\"explorer-moves\"></tbody></table>\
         <p>Wins, draws and losses are the mover's.</p>\
         <h2>Similar games</h2><ol id=\"similar\">{similar}</ol></section>\n\
         <script type=\"application/json\" id=\"kifu-explorer\">{data}</script>\n\
         <script>{SCRIPT}</script>\n"
    );
    let at = page.html.rfind("</body>").unwrap_or(page.html.len());
    page.html.insert_str(at, &section);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_explorer_goes_into_the_page_before_its_end() {
        let record: kifu_record::Record<kifu_shogi::Shogi> =
            kifu_record::Record::new(Default::default());
        let mut page = crate::html::page(&record, None, "example", &[]);
        let explorer = Explorer {
            positions: vec![ExploredPosition {
                position: "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b -".into(),
                games: 3,
                moves: vec![ExploredMove {
                    mv: "7g7f".into(),
                    games: 2,
                    wins: 1,
                    draws: 0,
                    losses: 1,
                    average_rating: Some(2500.4),
                }],
            }],
            similar: vec![SimilarGame {
                label: "a – b </script>".into(),
                file: "x.csa".into(),
                record: 2,
                shared: 5,
                deepest_ply: 4,
            }],
            archive_games: 3,
        };
        attach(&mut page, &explorer, "data-sfen");
        let html = &page.html;
        assert!(html.ends_with("</body></html>\n"));
        assert!(html.contains("[\"7g7f\",2,1,0,1,2500]"));
        assert!(html.contains("a – b &lt;/script&gt; — x.csa #2: 5 positions in common"));
        assert_eq!(
            html.matches("</script>").count(),
            4,
            "the viewer's two and the explorer's two"
        );
    }
}
