//! The replay viewer: one self-contained HTML file per record (no network, no external
//! script; it works from `file://`), and an index page for a directory of them.
//!
//! The page holds the board frame and the piece definitions as SVG once, and for each node of
//! the move tree a compact description of its position (one character per square, the hands,
//! the marks and the position text); a small inline script draws the node shown with the same
//! layout and definitions as [`svg`](fn@crate::svg). An SVG per ply would make a long record with
//! variations several megabytes.

use std::fmt::Write;

use kifu_record::{Game, HeaderField, NodeId, NodeItem, Record, evaluation};
use serde_json::{Value, json};

use crate::{Picture, SuggestedMove};

/// A mate's place on the evaluation graph: the score CSA V3.0 recommends for a won game.
const MATE_SCORE: i32 = 30000;
use crate::scene::{Mark, Owner, Scene};
use crate::svg::{self, Defs, Layout, escape};

/// The node of the viewer: a position reached by a playable move (or the start).
struct ViewNode {
    parent: Option<usize>,
    children: Vec<usize>,
    ply: u32,
    move_text: String,
    scene: Scene,
    position_text: String,
    comment: String,
    /// The evaluation the node's comments give, in words, with the line the engine expected
    /// (those comments are not in `comment`).
    evaluation: Option<(String, String)>,
    /// The evaluation as a number from the first player's side (a mate ±30000), for the
    /// graph under the board.
    score: Option<i32>,
    /// The engine's move in the position (the PV's first), drawn as an arrow.
    suggested: Option<SuggestedMove>,
    time: String,
    /// The move after this node that cannot be played, and why.
    error: Option<String>,
    /// The ending written after this node.
    end: Option<String>,
}

fn owner_code(owner: Owner) -> u8 {
    match owner {
        Owner::Bottom => 0,
        Owner::Top => 1,
        Owner::Neutral => 2,
    }
}

fn mark_code(mark: Mark) -> u8 {
    match mark {
        Mark::From => 0,
        Mark::Via => 1,
        Mark::To => 2,
        Mark::CounterStrike => 3,
    }
}

/// A token number as one character: `0`–`9`, `A`–`Z`, `a`–`z`, then U+0100 onwards.
fn token_char(id: usize) -> char {
    let id = id as u32;
    let code = match id {
        0..=9 => 48 + id,
        10..=35 => 55 + id,
        36..=61 => 61 + id,
        _ => 0x100 + id,
    };
    char::from_u32(code).unwrap_or('?')
}

fn clock(ms: u64) -> String {
    let s = ms / 1000;
    if s >= 3600 {
        format!("{}:{:02}:{:02}", s / 3600, s / 60 % 60, s % 60)
    } else {
        format!("{}:{:02}", s / 60, s % 60)
    }
}

/// The move as the record wrote it, or in the game's machine notation when it has no text.
fn written<G: Game>(
    record: &Record<G>,
    id: NodeId,
    source: Option<&str>,
    before: &G::Position,
    mv: &G::Move,
) -> String {
    let node = &record.moves[id];
    let text = source
        .filter(|s| node.span.end as usize <= s.len() && !node.span.is_empty())
        .map(|s| {
            node.text(s)
                .split_whitespace()
                .collect::<Vec<_>>()
                .join(" ")
        })
        .unwrap_or_default();
    if text.is_empty() {
        G::move_text(before, mv)
    } else {
        text
    }
}

fn viewer_nodes<G: Picture>(record: &Record<G>, source: Option<&str>) -> Vec<ViewNode> {
    let tree = &record.moves;
    let start = G::start_position(&record.start);
    let describe = |id: NodeId, position: &G::Position, last: Option<&G::Move>| {
        let node = &tree[id];
        let time = match (node.time_ms(), node.total_ms()) {
            (Some(t), Some(total)) => format!("{} / {}", clock(t), clock(total)),
            (Some(t), None) => clock(t),
            (None, Some(total)) => clock(total),
            (None, None) => String::new(),
        };
        // An evaluation is shown as a value beside the comment (and a point of the graph),
        // not as the lines the engine wrote; the lines of another search the node reports
        // (a player's beside an analysis) stay in the comment.
        let found = evaluation::evaluation(node.comments());
        let shown = found.as_ref().map(|e| (e.dialect, e.searcher));
        let lines: Vec<&str> = node
            .comments()
            .iter()
            .filter(|c| evaluation::line(c).is_none_or(|l| Some((l.dialect, l.searcher)) != shown))
            .map(|c| c.text.as_str())
            .collect();
        let score = found.as_ref().and_then(|e| e.centipawns(MATE_SCORE));
        let suggested = found
            .as_ref()
            .and_then(|e| G::suggested_move(position, &e.pv));
        // A PV without a score (ShogiHome's `#読み筋=` alone) is still shown.
        let evaluation = found.map(|e| {
            let words = e
                .score
                .map(|score| {
                    crate::caption::Evaluation {
                        score,
                        pv: String::new(),
                    }
                    .words()
                })
                .unwrap_or_default();
            (words, e.pv)
        });
        ViewNode {
            parent: None,
            children: Vec::new(),
            ply: node.ply(),
            move_text: String::new(),
            scene: G::scene(position, last),
            position_text: G::position_text(position),
            comment: lines.join("\n"),
            evaluation,
            score,
            suggested,
            time,
            error: None,
            end: None,
        }
    };
    let mut nodes = vec![describe(tree.root(), &start, None)];
    let mut pending = vec![(tree.root(), start, 0usize)];
    while let Some((id, position, at)) = pending.pop() {
        for child in tree.children(id) {
            match &tree[child].item {
                NodeItem::Move(mv) => {
                    let verdict = if tree[child].illegal {
                        Err(G::check_move(&position, mv)
                            .err()
                            .map_or("the record marks it illegal".to_string(), |e| e.to_string()))
                    } else {
                        G::check_move(&position, mv).map_err(|e| e.to_string())
                    };
                    let text = written(record, child, source, &position, mv);
                    match verdict {
                        Err(reason) => {
                            if nodes[at].error.is_none() {
                                nodes[at].error = Some(format!(
                                    "move {} ({text}) is illegal: {reason}; the record is shown up to the move before it",
                                    tree[child].ply()
                                ));
                            }
                        }
                        Ok(()) => {
                            let mut after = position.clone();
                            G::play_unchecked(&mut after, mv);
                            let mut view = describe(child, &after, Some(mv));
                            view.parent = Some(at);
                            view.move_text = text;
                            nodes.push(view);
                            let index = nodes.len() - 1;
                            nodes[at].children.push(index);
                            pending.push((child, after, index));
                        }
                    }
                }
                NodeItem::End(kind) => {
                    if nodes[at].end.is_none() {
                        nodes[at].end = Some(kind.to_string());
                    }
                }
                NodeItem::Start => {}
            }
        }
    }
    nodes
}

/// A comment as the page's script writes it: text, and each web address in it as a link
/// (`["https://…"]`), so that the script makes the links with the DOM and never parses the
/// comment as HTML.
fn comment_segments(comment: &str) -> Value {
    let mut segments = Vec::new();
    let mut rest = comment;
    while let Some((start, end)) = next_url(rest) {
        if start > 0 {
            segments.push(json!(&rest[..start]));
        }
        segments.push(json!([&rest[start..end]]));
        rest = &rest[end..];
    }
    if !rest.is_empty() {
        segments.push(json!(rest));
    }
    Value::Array(segments)
}

/// The first web address in `text`, as a byte range: `http://` or `https://` and what
/// follows up to a space, a character outside ASCII (Japanese text often runs on without a
/// space: `https://example.com/を参照`) or one that cannot stand in an address, less
/// punctuation that ends the sentence around it. No other scheme is a link: a
/// `javascript:` or `data:` address in a comment stays text.
fn next_url(text: &str) -> Option<(usize, usize)> {
    let mut from = 0;
    while let Some(found) = text[from..].find("http") {
        let start = from + found;
        let tail = &text[start..];
        let scheme = ["https://", "http://"]
            .into_iter()
            .find(|s| tail.len() >= s.len() && tail[..s.len()].eq_ignore_ascii_case(s));
        // A word that only contains `http` (`xhttp://`) is not an address.
        let at_word_start = text[..start]
            .chars()
            .next_back()
            .is_none_or(|c| !c.is_ascii_alphanumeric());
        if let (Some(scheme), true) = (scheme, at_word_start) {
            let len = tail
                .find(|c: char| {
                    !c.is_ascii_graphic() || matches!(c, '<' | '>' | '"' | '`' | '{' | '}' | '|')
                })
                .unwrap_or(tail.len());
            let url = tail[..len].trim_end_matches(['.', ',', ';', ':', '!', '?', ')', '\'', ']']);
            if url.len() > scheme.len() {
                return Some((start, start + url.len()));
            }
        }
        from = start + 4;
    }
    None
}

/// A header value with something in it.
fn named(value: Option<&str>) -> Option<&str> {
    value.map(str::trim).filter(|v| !v.is_empty())
}

/// The page's title: the event, or the players, or `fallback`.
fn title_of<G: Game>(record: &Record<G>, fallback: &str) -> String {
    let first = record.header.get(HeaderField::FirstPlayer);
    let second = record.header.get(HeaderField::SecondPlayer);
    match (
        named(record.header.get(HeaderField::Event)),
        named(first),
        named(second),
    ) {
        (Some(event), _, _) => event.to_string(),
        // 対 ("versus"), as Japanese match titles are written, and a character of the page's
        // font, where an en dash is not.
        (_, Some(a), Some(b)) => format!("{a} 対 {b}"),
        _ => fallback.to_string(),
    }
}

const STYLE: &str = "body{font-family:kifu,serif;margin:1em;background:#fbf7ee;color:#111}\
h1{font-size:1.2em;margin:0 0 .5em}\
#viewer{display:flex;gap:1.5em;align-items:flex-start;flex-wrap:wrap}\
.player{font-size:1.05em;margin:.2em 0}.player.turn::before{content:'● ';color:#c8102e}\
#notes{color:#333;white-space:pre-line}\
.controls{display:flex;gap:.4em;align-items:center;margin:.4em 0}\
.controls input{flex:1}\
#comment{white-space:pre-wrap;background:#fff;border:1px solid #ddd;padding:.4em;min-height:2em;max-width:40em}\
#moves{max-height:80vh;overflow:auto;min-width:16em;margin:0;padding-left:3em;background:#fff;border:1px solid #ddd}\
#moves li{cursor:pointer;padding:0 .3em}#moves li.cur{background:#f6dc9b}\
#moves .tm{color:#777;font-size:.85em;margin-left:.5em}\
#moves .bad,.error{color:#c8102e;white-space:pre-wrap}#moves .end{color:#555;list-style:none}\
select{margin-left:.4em}\
button,input,select,option,textarea{font:inherit}\
#eval{font-weight:bold;margin:.4em 0 .2em}#eval .pv{font-weight:normal;color:#555;margin-left:.6em}\
#comment a{color:#0645ad;word-break:break-all}\
#graph{display:block;margin:.3em 0;background:#fff;border:1px solid #ddd}\
#graph .pt{fill:#c8102e;cursor:pointer}#graph .pt.cur{fill:#111}";

const SCRIPT: &str = r##"(function(){
"use strict";
var D=JSON.parse(document.getElementById("kifu-data").textContent);
var L=D.layout,N=D.nodes,flip=/flip/.test(location.hash);
var board=document.getElementById("board"),dyn=document.getElementById("dyn");
var list=document.getElementById("moves"),slider=document.getElementById("slider");
var cur=0,line=[];
function mainFrom(i){var l=[];for(;;){l.push(i);var c=N[i].c;if(!c.length)break;i=c[0];}return l;}
function pathTo(i){var p=[];while(i>=0){p.push(i);i=N[i].p;}return p.reverse();}
function lineThrough(i){return pathTo(i).slice(0,-1).concat(mainFrom(i));}
function tok(s,i){var c=s.charCodeAt(i);if(c===46)return -1;if(c<58)return c-48;if(c<91)return c-55;if(c<123)return c-61;return c-256;}
function origin(i){var col=i%L.files,row=Math.floor(i/L.files);if(flip){col=L.files-1-col;row=L.ranks-1-row;}return[L.boardX+col*L.cell,L.boardY+row*L.cell];}
function handOrigin(top,k){var rows=Math.max(L.handRows,1),col=Math.floor(k/rows),row=k%rows,step=L.handCell+6,w=L.handCell+12;
 if(top)return[L.handLeftX+col*w,L.boardY+row*step];
 return[L.handRightX+(Math.max(L.handColumns,1)-1-col)*w,L.boardY+L.ranks*L.cell-(row+1)*step+6];}
function turned(o){return o===2?false:(o===1)!==flip;}
function put(id,x,y,size){return'<use href="#t'+id+'" transform="translate('+x+' '+y+') scale('+size/100+')'+(turned(D.owners[id])?' rotate(180 50 50)':'')+'"/>';}
function count(n,x,y){var s='<g fill="#111111">',t=String(n);for(var j=0;j<t.length;j++){s+='<use href="#g'+t.charCodeAt(j).toString(16)+'" transform="translate('+x+' '+y+') scale(0.013)"/>';x+=D.advance[t[j]]*0.013;}return s+'</g>';}
function steps(k){var p=[],via=false,i;for(i=0;i<k.length;i++){if(k[i][1]===1)via=true;if(k[i][1]<3){var o=origin(k[i][0]);p.push([o[0]+L.cell/2,o[1]+L.cell/2]);}}
 if(!via||p.length<2)return"";var d="",a=L.cell*0.3,q=p[p.length-1],r=p[p.length-2];
 for(i=0;i<p.length;i++)d+=(i?"L":"M")+r2(p[i][0])+" "+r2(p[i][1]);
 var len=Math.max(Math.hypot(q[0]-r[0],q[1]-r[1]),1),dx=(q[0]-r[0])/len,dy=(q[1]-r[1])/len,bx=q[0]-a*dx,by=q[1]-a*dy;
 return'<g class="steps" fill="#8a2be2" stroke="#8a2be2" stroke-opacity="0.75" fill-opacity="0.75"><path d="'+d+'" fill="none" stroke-width="'+r2(L.cell*0.08)+'" stroke-linecap="round" stroke-linejoin="round"/><polygon points="'+r2(q[0])+','+r2(q[1])+' '+r2(bx-dy*a*0.5)+','+r2(by+dx*a*0.5)+' '+r2(bx+dy*a*0.5)+','+r2(by-dx*a*0.5)+'" stroke="none"/></g>';}
function r2(x){return Math.round(x*100)/100;}
function draw(){
 var n=N[cur],s="",c=L.cell,i;
 for(i=0;i<n.k.length;i++){var m=n.k[i],o=origin(m[0]),e=m[1]===3?3:0;
  s+='<rect x="'+(o[0]+e)+'" y="'+(o[1]+e)+'" width="'+(c-2*e)+'" height="'+(c-2*e)+'" '+D.marks[m[1]]+'/>';}
 for(i=0;i<n.b.length;i++){var id=tok(n.b,i);if(id<0)continue;var q=origin(i);s+=put(id,q[0]+1,q[1]+1,c-2);}
 s+=steps(n.k);
 if(n.bm)s+=arrow(n);
 for(var h=0;h<2;h++){var top=(h===1)!==flip;for(var k=0;k<n.h[h].length;k++){var e2=n.h[h][k],p=handOrigin(top,k);
  s+=put(e2[0],p[0],p[1],L.handCell);if(e2[1]>1)s+=count(e2[1],p[0]+L.handCell+1,p[1]+L.handCell);}}
 dyn.innerHTML=s;
 board.setAttribute(D.attr,n.s);
 var up=n.t===(flip?0:1),tp=document.getElementById("top"),bt=document.getElementById("bottom");
 tp.textContent=D.players[flip?0:1];bt.textContent=D.players[flip?1:0];
 tp.className="player"+(up?" turn":"");bt.className="player"+(n.t<2&&!up?" turn":"");
 document.getElementById("frame0").setAttribute("display",flip?"none":"inline");
 document.getElementById("frame1").setAttribute("display",flip?"inline":"none");
 board.setAttribute("data-flip",flip?"1":"0");
 document.getElementById("notes").textContent=n.n.join("\n");
 document.getElementById("label").textContent=n.y===0?"開始局面":n.y+"手目"+(n.m?" "+n.m:"");
 showComment(n);markGraph();
 var idx=line.indexOf(cur);slider.max=line.length-1;slider.value=idx;
 var items=list.querySelectorAll("li[data-i]");for(i=0;i<items.length;i++){items[i].className=(+items[i].dataset.i===cur)?"cur":"";}
 reveal();
}
function showComment(n){var box=document.getElementById("comment"),ev=document.getElementById("eval"),i;
 box.textContent="";ev.textContent="";
 if(n.ev){ev.appendChild(document.createTextNode(n.ev[0]));if(n.ev[1]){var pv=document.createElement("span");pv.className="pv";pv.textContent=n.ev[1];ev.appendChild(pv);}}
 var cm=n.cm||[];for(i=0;i<cm.length;i++){var part=cm[i];
  if(typeof part==="string"){box.appendChild(document.createTextNode(part));continue;}
  var a=document.createElement("a");a.href=part[0];a.rel="noopener noreferrer";a.target="_blank";a.textContent=part[0];box.appendChild(a);}}
function arrow(n){var c=L.cell,to=origin(n.bm[1]),tx=to[0]+c/2,ty=to[1]+c/2,fx,fy;
 if(n.bm[0]>=0){var fr=origin(n.bm[0]);fx=fr[0]+c/2;fy=fr[1]+c/2;}
 else{var top=(n.t===1)!==flip;fx=top?L.handLeftX+L.handCell/2:L.handRightX+L.handCell/2;fy=top?L.boardY+L.handCell/2:L.boardY+L.ranks*c-L.handCell/2;}
 var len=Math.max(Math.hypot(tx-fx,ty-fy),1),dx=(tx-fx)/len,dy=(ty-fy)/len,a=c*0.35,bx=tx-a*dx,by=ty-a*dy;
 return'<g id="best" data-usi="'+esc(n.bm[2])+'" fill="#1f5fbf" stroke="#1f5fbf" fill-opacity="0.7" stroke-opacity="0.7"><line x1="'+r2(fx)+'" y1="'+r2(fy)+'" x2="'+r2(bx)+'" y2="'+r2(by)+'" stroke-width="'+r2(c*0.12)+'" stroke-linecap="round"/><polygon stroke="none" points="'+r2(tx)+','+r2(ty)+' '+r2(bx-dy*a*0.6)+','+r2(by+dx*a*0.6)+' '+r2(bx+dy*a*0.6)+','+r2(by-dx*a*0.6)+'"/></g>';}
var graph=document.getElementById("graph"),GW=+graph.getAttribute("width"),GH=+graph.getAttribute("height"),gmax=1;
function gx(y){return r2(6+(GW-12)*y/gmax);}
function gy(v){var C=2000;v=Math.max(-C,Math.min(C,v));return r2(GH/2-(GH/2-6)*v/C);}
function drawGraph(){var pts=[],i,s,d="";
 for(i=0;i<line.length;i++){var n=N[line[i]];if(n.sc!==undefined)pts.push([line[i],n.y,n.sc]);}
 if(!pts.length){graph.setAttribute("display","none");graph.innerHTML="";return;}
 graph.removeAttribute("display");gmax=Math.max(N[line[line.length-1]].y,1);
 s='<line x1="0" y1="'+GH/2+'" x2="'+GW+'" y2="'+GH/2+'" stroke="#aaa"/>';
 for(i=0;i<pts.length;i++)d+=(i?"L":"M")+gx(pts[i][1])+" "+gy(pts[i][2]);
 s+='<path d="'+d+'" fill="none" stroke="#c8102e" stroke-width="1.5"/><line id="gcur" x1="0" x2="0" y1="0" y2="'+GH+'" stroke="#333" stroke-dasharray="3 2"/>';
 for(i=0;i<pts.length;i++)s+='<circle class="pt" data-i="'+pts[i][0]+'" data-ply="'+pts[i][1]+'" data-eval="'+pts[i][2]+'" cx="'+gx(pts[i][1])+'" cy="'+gy(pts[i][2])+'" r="3.5"><title>'+pts[i][1]+': '+pts[i][2]+'</title></circle>';
 graph.innerHTML=s;}
function markGraph(){var m=graph.querySelector("#gcur");if(!m)return;var x=gx(N[cur].y);m.setAttribute("x1",x);m.setAttribute("x2",x);
 var ps=graph.querySelectorAll("circle.pt");for(var i=0;i<ps.length;i++){var on=+ps[i].getAttribute("data-i")===cur;ps[i].setAttribute("class",on?"pt cur":"pt");ps[i].setAttribute("r",on?"5":"3.5");}}
graph.addEventListener("click",function(ev){var p=ev.target.closest("circle[data-i]");if(p)go(+p.getAttribute("data-i"),false);});
function reveal(){var here=list.querySelector("li.cur");if(!here)return;
 var r=here.getBoundingClientRect(),l=list.getBoundingClientRect(),top=l.top+list.clientTop,bottom=top+list.clientHeight;
 if(r.top<top||r.bottom>bottom)list.scrollTop+=r.top-top-(list.clientHeight-r.height)/2;}
function esc(t){return t.replace(/[&<>"]/g,function(ch){return{"&":"&amp;","<":"&lt;",">":"&gt;",'"':"&quot;"}[ch];});}
function buildList(){
 var s="";
 for(var j=1;j<line.length;j++){var i=line[j],n=N[i],p=N[n.p];
  s+='<li value="'+n.y+'" data-i="'+i+'"><span class="mv">'+esc(n.m)+'</span>'+(n.tm?'<span class="tm">'+esc(n.tm)+'</span>':'');
  if(p.c.length>1){s+='<select data-p="'+n.p+'" title="variations">';for(var v=0;v<p.c.length;v++){var a=p.c[v];
   s+='<option value="'+a+'"'+(a===i?' selected':'')+'>'+(v===0?'':'変化 ')+esc(N[a].m)+'</option>';}s+='</select>';}
  s+='</li>';}
 var last=N[line[line.length-1]];
 if(last.x)s+='<li class="bad">'+esc(last.x)+'</li>';
 if(last.e)s+='<li class="end">'+esc(last.e)+'</li>';
 list.innerHTML=s;drawGraph();
 document.getElementById("error").textContent=[last.x||""].concat(D.problems).filter(Boolean).join("\n");
}
function go(i,relink){cur=i;if(relink||line.indexOf(i)<0){line=lineThrough(i);buildList();}draw();}
list.addEventListener("click",function(ev){if(ev.target.tagName==="SELECT"||ev.target.tagName==="OPTION")return;var li=ev.target.closest("li[data-i]");if(li)go(+li.dataset.i,false);});
list.addEventListener("change",function(ev){if(ev.target.tagName!=="SELECT")return;var v=+ev.target.value;ev.target.blur();go(v,true);});
slider.addEventListener("input",function(){go(line[+slider.value],false);});
function step(d){var idx=line.indexOf(cur);if(d<0&&N[cur].p>=0)go(N[cur].p,false);else if(d>0&&idx<line.length-1)go(line[idx+1],false);}
document.getElementById("first").onclick=function(){go(line[0],false);};
document.getElementById("prev").onclick=function(){step(-1);};
document.getElementById("next").onclick=function(){step(1);};
document.getElementById("last").onclick=function(){go(line[line.length-1],false);};
function turn(){flip=!flip;draw();}
document.getElementById("flip").onclick=turn;
document.addEventListener("keydown",function(ev){if(ev.target&&ev.target.tagName==="SELECT")return;
 if(ev.key==="ArrowRight")step(1);else if(ev.key==="ArrowLeft")step(-1);
 else if(ev.key==="Home")go(line[0],false);else if(ev.key==="End")go(line[line.length-1],false);
 else if(ev.key==="f"&&!ev.ctrlKey&&!ev.metaKey&&!ev.altKey)turn();else return;ev.preventDefault();});
function fromHash(){var m=/ply=(\d+)/.exec(location.hash),main=mainFrom(0);flip=/flip/.test(location.hash);line=main;buildList();
 go(m?main[Math.min(+m[1],main.length-1)]:0,false);}
window.addEventListener("hashchange",fromHash);
fromHash();
if(document.fonts)document.fonts.ready.then(reveal);
window.kifuViewer={nodes:N,cur:function(){return cur;},go:go};
window.kifuReadyMs=performance.now();
})();"##;

/// A record as a self-contained HTML replay page. `source` is the text the record was read
/// from (its moves are listed as written there); `fallback_title` names the page when the
/// record names no event or players; `problems` (what reading the record found, such as an
/// illegal move the reader left out) are shown at the top of the page.
///
/// ```
/// use kifu_record::Record;
/// use kifu_shogi::Shogi;
///
/// let record: Record<Shogi> = Record::new(Default::default());
/// let page = kifu_render::html::page(&record, None, "example", &[]);
/// assert!(page.html.contains("data-sfen=\"lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1\""));
/// assert!(!page.html.contains("<script src"));
/// assert!(page.missing.is_empty());
/// ```
pub fn page<G: Picture>(
    record: &Record<G>,
    source: Option<&str>,
    fallback_title: &str,
    problems: &[String],
) -> Page {
    page_with(
        record,
        source,
        fallback_title,
        problems,
        &PageFont::Embedded,
    )
}

/// Where a page's font comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PageFont<'a> {
    /// Inside the page, cut to the characters it shows: the page stands alone.
    Embedded,
    /// A font file beside the page, by its address relative to the page (the pages of a
    /// directory share one, [`shared_font`], rather than each carrying 50–150 KB of it). It
    /// must be in the page's directory or below it: browsers load fonts of `file://` pages
    /// only from there.
    Linked(&'a str),
}

/// [`page`], with its font where `font` says.
pub fn page_with<G: Picture>(
    record: &Record<G>,
    source: Option<&str>,
    fallback_title: &str,
    problems: &[String],
    font: &PageFont<'_>,
) -> Page {
    page_seeded(record, source, fallback_title, problems, font, &[], "")
}

/// [`page_with`], whose pieces include `seed` (first, in order) and whose font includes
/// `chars`, whether the record shows them or not: the live page (`live.rs`) draws positions
/// and writes words the record does not have yet.
pub(crate) fn page_seeded<G: Picture>(
    record: &Record<G>,
    source: Option<&str>,
    fallback_title: &str,
    problems: &[String],
    font: &PageFont<'_>,
    seed: &[crate::Token],
    chars: &str,
) -> Page {
    let nodes = viewer_nodes(record, source);
    let board = G::board();
    // The notes are HTML text beside the board, not part of the board picture.
    let layout = Layout::new(&board, 0);
    let mut defs = Defs::default();
    for &token in seed {
        defs.token(token);
    }
    defs.use_chars("0123456789");
    let mut data_nodes = Vec::with_capacity(nodes.len());
    for node in &nodes {
        let cells: String = node
            .scene
            .cells
            .iter()
            .map(|cell| cell.map_or('.', |t| token_char(defs.token(t))))
            .collect();
        let hands: Vec<Vec<[usize; 2]>> = node
            .scene
            .hands
            .iter()
            .map(|hand| {
                hand.iter()
                    .map(|&(t, n)| [defs.token(t), usize::from(n)])
                    .collect()
            })
            .collect();
        let marks: Vec<[usize; 2]> = node
            .scene
            .marks
            .iter()
            .map(|&(i, m)| [i, usize::from(mark_code(m))])
            .collect();
        let mut value = json!({
            "p": node.parent.map_or(-1, |p| p as i64),
            "c": node.children,
            "y": node.ply,
            "m": node.move_text,
            "b": cells,
            "h": hands,
            "k": marks,
            "t": owner_code(node.scene.to_move),
            "s": node.position_text,
            "n": node.scene.notes,
        });
        let object = value.as_object_mut().expect("an object");
        if !node.comment.is_empty() {
            object.insert("cm".to_string(), comment_segments(&node.comment));
        }
        if let Some((words, pv)) = &node.evaluation {
            object.insert("ev".to_string(), json!([words, pv]));
        }
        if let Some(score) = node.score {
            object.insert("sc".to_string(), json!(score));
        }
        if let Some(best) = &node.suggested {
            object.insert(
                "bm".to_string(),
                json!([best.from.map_or(-1, |f| f as i64), best.to, best.text]),
            );
        }
        for (key, text) in [
            ("tm", Some(&node.time)),
            ("x", node.error.as_ref()),
            ("e", node.end.as_ref()),
        ] {
            if let Some(text) = text.filter(|t| !t.is_empty()) {
                object.insert(key.to_string(), Value::String(text.clone()));
            }
        }
        data_nodes.push(value);
    }
    // Both ways round; the script shows the one the flip control asks for.
    let frame = svg::frame(&board, &layout, &mut defs, false);
    let flipped_frame = svg::frame(&board, &layout, &mut defs, true);
    let digits: serde_json::Map<String, Value> = ('0'..='9')
        .map(|d| {
            let advance = crate::font::glyph(d).map_or(500.0, |g| g.advance);
            (d.to_string(), json!(advance))
        })
        .collect();
    let mark_styles = [Mark::From, Mark::Via, Mark::To, Mark::CounterStrike].map(svg::mark_style);
    let bottom = G::bottom_player(&record.position_at(record.moves.root()));
    let title = title_of(record, fallback_title);
    let data = json!({
        "layout": layout.to_json(),
        "attr": G::POSITION_ATTRIBUTE,
        "owners": defs.tokens().iter().map(|t| owner_code(t.owner)).collect::<Vec<_>>(),
        "marks": mark_styles,
        "advance": digits,
        "nodes": data_nodes,
        "problems": problems,
        "players": [
            crate::player_line(record, bottom),
            crate::player_line(record, bottom.opponent()),
        ],
    });
    // `</` inside the JSON would end the script element early.
    let data = data.to_string().replace("</", "<\\/");
    let defs_svg = defs.to_svg();
    let root = &nodes[0];
    // The page's own font: the glyphs of every text it shows, cut from the embedded font.
    let mut shown = String::from(chars);
    for text in [title.as_str(), PAGE_WORDS]
        .into_iter()
        .chain(problems.iter().map(String::as_str))
    {
        shown.push_str(text);
    }
    for side in [bottom, bottom.opponent()] {
        shown.push_str(&crate::player_line(record, side));
    }
    for node in &nodes {
        for text in [&node.move_text, &node.comment, &node.time] {
            shown.push_str(text);
        }
        if let Some((words, pv)) = &node.evaluation {
            shown.push_str(words);
            shown.push_str(pv);
        }
        for text in node.error.iter().chain(&node.end).chain(&node.scene.notes) {
            shown.push_str(text);
        }
    }
    let rule = font_face(&shown, font);
    let (w, h) = (layout.width.ceil(), layout.height.ceil());
    let mut out = String::new();
    let _ = write!(
        out,
        "<!DOCTYPE html>\n<html lang=\"ja\"><head><meta charset=\"utf-8\">\
         <meta name=\"viewport\" content=\"width=device-width\">\
         <meta name=\"generator\" content=\"kifu html\"><title>{title}</title><style>{font_face}{STYLE}</style></head>\n<body>\
         <h1>{title}</h1><p id=\"error\" class=\"error\" role=\"alert\"></p>\
         <div id=\"viewer\"><div>\
         <div id=\"top\" class=\"player\">{top}</div>\
         <svg id=\"board\" xmlns=\"http://www.w3.org/2000/svg\" width=\"{w}\" height=\"{h}\" viewBox=\"0 0 {w} {h}\" {attr}=\"{position}\">\
         {defs_svg}<rect width=\"100%\" height=\"100%\" fill=\"#fbf7ee\"/>\
         <g id=\"frame0\">{frame}</g><g id=\"frame1\" display=\"none\">{flipped_frame}</g><g id=\"dyn\"></g></svg>\
         <div id=\"bottom\" class=\"player\">{bottom_name}</div><div id=\"notes\"></div>\
         <div class=\"controls\"><button id=\"first\" title=\"start (Home)\">|&lt;</button>\
         <button id=\"prev\" title=\"back (←)\">&lt;</button><button id=\"next\" title=\"forward (→)\">&gt;</button>\
         <button id=\"last\" title=\"end (End)\">&gt;|</button>\
         <button id=\"flip\" title=\"turn the board round (f)\">flip</button>\
         <input id=\"slider\" type=\"range\" min=\"0\" max=\"0\" value=\"0\" aria-label=\"ply\"><span id=\"label\"></span></div>\
         <svg id=\"graph\" xmlns=\"http://www.w3.org/2000/svg\" width=\"{w}\" height=\"110\" display=\"none\" aria-label=\"evaluation graph\"></svg><div id=\"eval\"></div><div id=\"comment\"></div></div>\
         <ol id=\"moves\"></ol></div>\n\
         <script type=\"application/json\" id=\"kifu-data\">{data}</script>\n<script>{SCRIPT}</script>\n</body></html>\n",
        title = escape(&title),
        top = escape(&crate::player_line(record, bottom.opponent())),
        bottom_name = escape(&crate::player_line(record, bottom)),
        attr = G::POSITION_ATTRIBUTE,
        position = escape(&root.position_text),
        font_face = rule,
    );
    // Where the font rule is, for [`Page::link_font`]: the first thing in the style element
    // (the title before it is escaped, so holds no `<style>`).
    let font_rule = out
        .find("<style>")
        .map(|at| at + "<style>".len())
        .map(|at| at..at + rule.len());
    let mut chars: Vec<char> = shown.chars().collect();
    chars.sort_unstable();
    chars.dedup();
    Page {
        html: out,
        missing: crate::font::missing(&shown),
        chars,
        font_rule,
    }
}

/// A replay page, and the characters it shows that the embedded font lacks: its web font
/// cannot hold them, so the browser writes them in its own serif font.
#[derive(Clone, Debug, PartialEq)]
pub struct Page {
    /// The HTML document.
    pub html: String,
    /// Characters the page's own font lacks, each once, in order of first use.
    pub missing: Vec<char>,
    /// Every character the page writes, each once, in order: what a font shared by several
    /// pages must hold for this one ([`shared_font`]).
    pub chars: Vec<char>,
    /// The bytes of `html` that say where its font is.
    font_rule: Option<std::ops::Range<usize>>,
}

impl Page {
    /// Makes the page link the font file `href` ([`PageFont::Linked`]) instead of the font
    /// it carries: for a file of many records, whose pages are known to go into a directory
    /// only once the file has been read.
    pub fn link_font(&mut self, href: &str) {
        if let Some(range) = self.font_rule.take() {
            let rule = font_face("", &PageFont::Linked(href));
            self.html.replace_range(range.clone(), &rule);
            self.font_rule = Some(range.start..range.start + rule.len());
        }
    }
}

/// A font for pages that link it ([`PageFont::Linked`]): the glyphs of `chars` (every
/// [`Page::chars`] of those pages, and their index's), cut from the embedded font, as a
/// TrueType file.
pub fn shared_font(chars: impl IntoIterator<Item = char>) -> Vec<u8> {
    crate::webfont::subset(chars.into_iter().chain(PAGE_WORDS.chars()))
}

/// Words the page shows besides the record's text: buttons, the move label, the
/// variations' menu, the turn marker.
const PAGE_WORDS: &str = "0123456789 |<>●flip開始局面手目変化";

/// The page's font: the glyphs of `shown` (everything the page writes), cut from the embedded
/// font, so that the page reads the same on a machine without Japanese fonts; or the shared
/// font file the page links. Characters the embedded font lacks fall back to the browser's
/// serif.
fn font_face(shown: &str, font: &PageFont<'_>) -> String {
    use base64::Engine;
    match font {
        PageFont::Embedded => format!(
            "@font-face{{font-family:kifu;src:url(data:font/ttf;base64,{}) format('truetype')}}",
            base64::engine::general_purpose::STANDARD.encode(crate::webfont::subset(shown.chars()))
        ),
        PageFont::Linked(href) => format!(
            "@font-face{{font-family:kifu;src:url(\"{}\") format('truetype')}}",
            css_url(href)
        ),
    }
}

/// An address as a CSS string: quotes, backslashes and line breaks escaped, and `<` so that
/// it cannot end the style element.
fn css_url(href: &str) -> String {
    let mut out = String::with_capacity(href.len());
    for c in href.chars() {
        match c {
            '"' | '\\' | '\n' | '\r' | '<' => {
                let _ = write!(out, "\\{:x} ", c as u32);
            }
            c => out.push(c),
        }
    }
    out
}

/// An index page linking one page per record: `(link, label)` pairs, links relative to the
/// index. Its font is embedded.
pub fn index(title: &str, entries: &[(String, String)]) -> String {
    index_with(title, entries, &PageFont::Embedded)
}

/// [`index`], with its font where `font` says (the pages' shared font, beside it).
pub fn index_with(title: &str, entries: &[(String, String)], font: &PageFont<'_>) -> String {
    let mut items = String::new();
    let mut shown = String::from(title);
    for (link, label) in entries {
        let _ = write!(
            items,
            "<li><a href=\"{}\">{}</a></li>",
            escape(link),
            escape(label)
        );
        shown.push_str(label);
    }
    format!(
        "<!DOCTYPE html>\n<html lang=\"ja\"><head><meta charset=\"utf-8\"><title>{t}</title>\
         <style>{font_face}{STYLE}</style></head>\n<body><h1>{t}</h1><ol>{items}</ol></body></html>\n",
        t = escape(title),
        font_face = font_face(&shown, font),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use base64::Engine;
    use kifu_record::Span;
    use kifu_shogi::Shogi;

    /// The font a page carries, decoded.
    fn page_font(page: &str) -> Vec<u8> {
        let start = page.find("base64,").expect("a font") + "base64,".len();
        let end = start + page[start..].find(')').expect("the font's end");
        base64::engine::general_purpose::STANDARD
            .decode(&page[start..end])
            .expect("base64")
    }

    #[test]
    fn the_page_carries_the_glyphs_of_everything_it_writes_and_no_more() {
        let mut record: Record<Shogi> = Record::new(Default::default());
        record
            .header
            .set(HeaderField::FirstPlayer, "先手", "羽生善治");
        record
            .header
            .set(HeaderField::SecondPlayer, "後手", "藤井聡太");
        let mv = kifu_shogi::usi::parse_move("7g7f").unwrap();
        let node = record
            .moves
            .add_move(record.moves.root(), mv, Span::default());
        record.moves[node]
            .comments_mut()
            .push(kifu_record::Comment::new(
                kifu_record::CommentKind::Text,
                "角道を開ける",
                Span::default(),
            ));
        let page = page(&record, None, "example", &[]).html;
        let font = page_font(&page);
        let face = ttf_parser::Face::parse(&font, 0).expect("the page's font parses");
        for c in "羽生善治藤井聡太角道を開ける☗☖手目変化開始局面".chars()
        {
            assert!(
                face.glyph_index(c).is_some(),
                "{c} missing from the page's font"
            );
        }
        assert!(
            face.glyph_index('龍').is_none(),
            "only what the page writes"
        );
        assert!(font.len() < 40_000, "{} bytes", font.len());
    }

    #[test]
    fn the_page_holds_the_board_both_ways_round() {
        let record: Record<Shogi> = Record::new(Default::default());
        let page = page(&record, None, "example", &[]).html;
        assert!(
            page.contains("<g id=\"frame0\">")
                && page.contains("<g id=\"frame1\" display=\"none\">")
        );
        assert!(page.contains("id=\"flip\""));
    }

    #[test]
    fn web_addresses_in_comments_become_links_and_nothing_else_does() {
        let segments = comment_segments(
            "解説は https://example.com/a?b=1&c=2 を参照。(http://x.jp/y) \
             javascript:alert(1) xhttp://no data:text/html,hi http://",
        );
        let links: Vec<&str> = segments
            .as_array()
            .unwrap()
            .iter()
            .filter_map(|s| s.as_array())
            .map(|l| l[0].as_str().unwrap())
            .collect();
        assert_eq!(links, ["https://example.com/a?b=1&c=2", "http://x.jp/y"]);
        let text: String = segments
            .as_array()
            .unwrap()
            .iter()
            .map(|s| s.as_str().or_else(|| s[0].as_str()).unwrap())
            .collect();
        assert!(text.starts_with("解説は https://example.com/a?b=1&c=2 を参照。(http://x.jp/y) "));
        assert!(text.ends_with("javascript:alert(1) xhttp://no data:text/html,hi http://"));
        // Japanese running on after an address ends it.
        assert_eq!(
            next_url("https://example.com/kifuを見る"),
            Some((0, "https://example.com/kifu".len()))
        );
    }

    #[test]
    fn an_evaluation_is_a_value_beside_the_comment_not_a_line_of_it() {
        let mut record: Record<Shogi> = Record::new(Default::default());
        let mv = kifu_shogi::usi::parse_move("7g7f").unwrap();
        let node = record
            .moves
            .add_move(record.moves.root(), mv, Span::default());
        for (kind, text) in [
            (
                kifu_record::CommentKind::Engine,
                "-35 -3334FU +2726FU #5000",
            ),
            (kifu_record::CommentKind::Text, "角道を開ける"),
        ] {
            record.moves[node]
                .comments_mut()
                .push(kifu_record::Comment::new(kind, text, Span::default()));
        }
        let nodes = viewer_nodes(&record, None);
        assert_eq!(nodes[1].comment, "角道を開ける");
        assert_eq!(
            nodes[1].evaluation,
            Some(("評価値 -35".to_string(), "-3334FU +2726FU".to_string()))
        );
    }

    #[test]
    fn a_page_that_links_the_shared_font_carries_none_and_says_what_it_needs() {
        let mut record: Record<Shogi> = Record::new(Default::default());
        record
            .header
            .set(HeaderField::FirstPlayer, "先手", "羽生善治");
        let linked = page_with(
            &record,
            None,
            "example",
            &[],
            &PageFont::Linked("kifu-font.ttf"),
        );
        assert!(
            linked
                .html
                .contains("src:url(\"kifu-font.ttf\") format('truetype')")
        );
        assert!(!linked.html.contains("base64,"));
        let alone = page(&record, None, "example", &[]);
        assert!(alone.html.contains("base64,") && alone.html.len() > linked.html.len());
        assert_eq!(alone.chars, linked.chars);
        let mut relinked = alone.clone();
        relinked.link_font("kifu-font.ttf");
        assert_eq!(
            relinked.html, linked.html,
            "linked after the fact, the same page"
        );
        for c in "羽生善治開始局面".chars() {
            assert!(linked.chars.binary_search(&c).is_ok(), "{c}");
        }
        let font = shared_font(linked.chars.iter().copied());
        let face = ttf_parser::Face::parse(&font, 0).expect("the shared font parses");
        assert!(face.glyph_index('羽').is_some() && face.glyph_index('龍').is_none());
        // An address that would end the CSS string or the style element is escaped.
        assert_eq!(css_url("a\"b</style>"), "a\\22 b\\3c /style>");
    }
}
