//! The live page of a shogi game in progress: the replay viewer ([`html`](crate::html)) of
//! the game so far (with its evaluation graph), both clocks counting down, and a small script
//! that follows the game's event stream (Server-Sent Events) and adds each move to the
//! viewer as it comes.
//!
//! The server sends a move as its USI text and the position after it as SFEN; the script
//! turns the SFEN into the viewer's compact description of a node (one character per square,
//! the hands, the marks), so the server does no drawing per spectator. For that the page
//! defines every shogi piece up front, whether the game has shown it yet or not, and tells
//! the script which piece each SFEN letter is.

use kifu_record::{Game as _, Record};
use kifu_shogi::{Position, Shogi};
use serde_json::json;

use crate::Picture;
use crate::html::{PageFont, page_seeded};

/// Two positions that hold, between them, every piece of both sides (one set cannot hold a
/// promoted and an unpromoted bishop of each side): the pieces the live page defines, since
/// a promoted piece may appear in a game at any move.
const EVERY_PIECE: [&str; 2] = [
    "+r+b+s+n+l+pk2/9/9/9/9/9/9/1NLP5/RBSGK4 b - 1",
    "rbsgk4/1nlp5/9/9/9/9/9/9/+R+B+S+N+L+PK2 b - 1",
];

/// The SFEN letters of the pieces on a board (`+P` for a promoted pawn), each with its
/// square in the viewer's order (rank by rank from the top, files right to left: SFEN's).
fn letters(sfen: &str) -> Vec<(String, usize)> {
    let mut out = Vec::new();
    let mut square = 0;
    let mut promoted = false;
    for c in sfen.split(' ').next().unwrap_or("").chars() {
        match c {
            '/' => {}
            '+' => promoted = true,
            '1'..='9' => square += c as usize - '0' as usize,
            _ => {
                let letter = if promoted {
                    format!("+{c}")
                } else {
                    c.to_string()
                };
                out.push((letter, square));
                promoted = false;
                square += 1;
            }
        }
    }
    out
}

/// What the live page needs besides the record so far.
#[derive(Clone, Debug)]
pub struct Live<'a> {
    /// The page's title.
    pub title: &'a str,
    /// The address of the game's event stream, relative to the page (`event: move` with
    /// `ply`, `usi`, `sfen`, `time`, `clock`, `evaluation`; `event: end` with `reason`,
    /// `winner`; `event: game` with the whole game first).
    pub stream: &'a str,
    /// The game as it stands (the JSON of the server's game view: `clock`, `time`,
    /// `evaluations`, `result`, `black`, `white`).
    pub state: &'a serde_json::Value,
    /// The server's time now (Unix milliseconds), so that the page counts the running clock
    /// from the moment it was drawn whatever the browser's clock says.
    pub now_ms: u64,
}

/// The live page of a game: its record so far in the viewer, following `live.stream`.
///
/// ```
/// use kifu_record::{Game as _, Record};
/// use kifu_shogi::Shogi;
///
/// let record: Record<Shogi> = Record::new(Default::default());
/// let state = serde_json::json!({"black": "alice", "white": "bob"});
/// let live = kifu_render::live::Live {
///     title: "alice vs bob",
///     stream: "/api/games/1/stream",
///     state: &state,
///     now_ms: 0,
/// };
/// let page = kifu_render::live::page(&record, &live);
/// assert!(page.contains("data-sfen=\"lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1\""));
/// assert!(page.contains("EventSource"));
/// ```
pub fn page(record: &Record<Shogi>, live: &Live<'_>) -> String {
    let mut pieces = serde_json::Map::new();
    let mut seed = Vec::new();
    for sfen in EVERY_PIECE {
        let position = Position::from_sfen(sfen).expect("the pieces' positions are valid SFEN");
        let scene = Shogi::scene(&position, None);
        for (letter, square) in letters(sfen) {
            if let (false, Some(token)) = (pieces.contains_key(&letter), scene.cells[square]) {
                // The seed's tokens come first in the page's definitions, in this order.
                pieces.insert(letter, json!(seed.len()));
                seed.push(token);
            }
        }
    }
    let mut html = page_seeded(
        record,
        None,
        live.title,
        &[],
        &PageFont::Embedded,
        &seed,
        LIVE_WORDS,
    )
    .html;
    // The page opens on the position now (the script goes there too), not the start.
    let end = record.moves.main_line_end();
    let now = Shogi::position_text(&record.position_at(end));
    let attr = format!("{}=\"", Shogi::POSITION_ATTRIBUTE);
    if let Some(at) = html.find(&attr).map(|at| at + attr.len())
        && let Some(len) = html[at..].find('"')
    {
        html.replace_range(at..at + len, &crate::svg::escape(&now));
    }
    let data = json!({
        "stream": live.stream,
        "pieces": pieces,
        "state": live.state,
        "now": live.now_ms,
    })
    .to_string()
    // `</` inside the JSON would end the script element early.
    .replace("</", "<\\/");
    let panel = format!(
        "<div id=\"live\"><span class=\"clock\">☗ <span id=\"name-black\"></span> \
         <b id=\"clock-black\"></b></span> <span class=\"clock\">☖ <span id=\"name-white\"></span> \
         <b id=\"clock-white\"></b></span> <span id=\"status\"></span></div>\
         <style>{LIVE_STYLE}</style>"
    );
    let anchor = "<p id=\"error\" class=\"error\" role=\"alert\"></p>";
    if let Some(at) = html.find(anchor) {
        html.insert_str(at + anchor.len(), &panel);
    }
    let scripts = format!(
        "<script type=\"application/json\" id=\"kifu-live\">{data}</script>\n<script>{LIVE_SCRIPT}</script>\n"
    );
    if let Some(at) = html.rfind("</body>") {
        html.insert_str(at, &scripts);
    }
    html
}

/// What the live page may write later: evaluations (`評価値 +30`, `詰 5`), the clocks, the
/// result, and moves in USI.
const LIVE_WORDS: &str =
    "評価値詰み手▲△勝秒読☗☖0123456789+-*:() abcdefghiPLNSGBRKwinsoRESIGNTMEUPDLAJHOCKZ_";

const LIVE_STYLE: &str = "#live{margin:.2em 0 .6em;font-size:1.1em}\
#live .clock{margin-right:1.5em}#live .clock b{font-variant-numeric:tabular-nums;margin-left:.3em}\
#live .running b{color:#c8102e}#status{color:#555}";

const LIVE_SCRIPT: &str = r##"(function(){
"use strict";
var V=window.kifuViewer,N=V.nodes,S=JSON.parse(document.getElementById("kifu-live").textContent);
var P=S.pieces,G=S.state,clock=G.clock||{remaining_ms:[0,0],running:null},byo=(G.time&&G.time.byoyomi||0)*1000;
var shownAt=performance.now()-Math.max(0,S.now-(clock.since_ms||S.now)),done=!!G.result;
document.getElementById("name-black").textContent=G.black||"";
document.getElementById("name-white").textContent=G.white||"";
function tc(id){return String.fromCharCode(id<10?48+id:id<36?55+id:id<62?61+id:256+id);}
function fmt(ms){var s=Math.max(0,Math.ceil(ms/1000)),h=Math.floor(s/3600),m=Math.floor(s/60)%60,x=s%60;
 return(h?h+":"+(m<10?"0":""):"")+m+":"+(x<10?"0":"")+x;}
function tick(){var sides=["black","white"];for(var i=0;i<2;i++){var left=clock.remaining_ms[i],el=document.getElementById("clock-"+sides[i]);
 var run=!done&&clock.running===sides[i];if(run)left-=performance.now()-shownAt;
 el.textContent=left>0||!byo?fmt(left):"秒読み "+fmt(byo+left);el.parentNode.className="clock"+(run?" running":"");}}
function index(usi){return(usi.charCodeAt(1)-97)*9+(9-(usi.charCodeAt(0)-48));}
function node(mv,parent){var f=mv.sfen.split(" "),b="",h=[[],[]],k=[],i,c,prom=false;
 for(i=0;i<f[0].length;i++){c=f[0][i];if(c==="/")continue;if(c==="+"){prom=true;continue;}
  if(c>="1"&&c<="9"){for(var j=0;j<+c;j++)b+=".";continue;}b+=tc(P[(prom?"+":"")+c]);prom=false;}
 var counts={},n=0;if(f[2]&&f[2]!=="-"){for(i=0;i<f[2].length;i++){c=f[2][i];if(c>="0"&&c<="9"){n=n*10+(+c);continue;}counts[c]=(counts[c]||0)+(n||1);n=0;}}
 var order="RBGSNLP";for(i=0;i<order.length;i++){var up=order[i],lo=up.toLowerCase();
  if(counts[up])h[0].push([P[up],counts[up]]);if(counts[lo])h[1].push([P[lo],counts[lo]]);}
 var u=mv.usi;if(u[1]!=="*")k.push([index(u.slice(0,2)),0]);k.push([index(u.slice(2,4)),2]);
 var x={p:parent,c:[],y:N[parent].y+1,m:u,b:b,h:h,k:k,t:f[1]==="b"?0:1,s:mv.sfen,n:[],tm:String(mv.time)+"s"};
 var e=mv.evaluation;if(e){x.ev=[e.words,e.pv];x.sc=e.score!==null&&e.score!==undefined?e.score:(e.mate>0?30000:-30000);}
 return x;}
function tail(){var i=0;while(N[i].c.length)i=N[i].c[0];return i;}
function status(text){document.getElementById("status").textContent=text;}
function add(mv){var t=tail();if(mv.ply<=N[t].y)return;var following=V.cur()===t,i=N.length;N.push(node(mv,t));N[t].c.push(i);
 clock=mv.clock;shownAt=performance.now();V.go(following?i:V.cur(),true);tick();}
function end(r){done=true;var t=tail(),w=r.winner==="black"?"☗ wins":r.winner==="white"?"☖ wins":"no winner";
 N[t].e=r.reason+" ("+w+")";V.go(V.cur(),true);status(N[t].e);tick();}
V.go(tail(),true);tick();setInterval(tick,200);
if(done){end(G.result);return;}
status("live");
var es=new EventSource(S.stream+(S.stream.indexOf("?")<0?"?":"&")+"from="+N[tail()].y);
es.addEventListener("move",function(ev){add(JSON.parse(ev.data));});
es.addEventListener("end",function(ev){end(JSON.parse(ev.data));es.close();});
es.onerror=function(){if(!done)status("reconnecting…");};
es.onopen=function(){if(!done)status("live");};
window.kifuLive={moves:function(){return N[tail()].y;}};
})();"##;
