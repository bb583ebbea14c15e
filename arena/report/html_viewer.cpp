// The game viewer of report.html (html_viewer.h): the script that lists, filters and replays the games, and
// the games it embeds, replayed here by the rules library.
#include "arena/report/html_viewer.h"

#include <algorithm>
#include <cassert>
#include <string_view>
#include <utility>

#include <boost/json/array.hpp>
#include <boost/json/object.hpp>

#include "arena/report/text_util.h"
#include "referee/record/json_text.h"
#include "referee/rules/position.h"

namespace kalah::report {
namespace {

namespace json = boost::json;

// The viewer: the game list (filter, sort by a column), a board that steps through a game, the plies
// numbered one by one (extra turns and captures marked), and the engines' scores and depths per ply.
// `#game-<id>` opens a game; `#game-<id>/end` (or `/<ply>`) opens it at that ply.
constexpr const char* kScript = R"js(
(function(){
const games=JSON.parse(document.getElementById('games-data').textContent);
const $=id=>document.getElementById(id);
let g=null,ply=0,selRow=null,sortKey=null,sortDir=1;
const byId=new Map(games.map((x,i)=>[x.id,i]));
function owner(side,sw){return (side==='s')!==sw?g.south:g.north;}
function cell(cls,text,col,row,id){const d=document.createElement('div');d.className=cls;d.textContent=text;d.style.gridColumn=col;if(row)d.style.gridRow=row;if(id)d.id=id;return d;}
function draw(){
  const m=g.pits,b=g.boards[ply],sw=g.swapped[ply]==='1',turn=g.turn[ply],board=$('board');
  let last=-1;
  if(ply>0){const mv=g.moves[ply-1];if(mv!=='swap'){last=(g.turn[ply-1]==='s'?0:m+1)+Number(mv)-1;}}
  board.replaceChildren();board.style.gridTemplateColumns='repeat('+(m+2)+',auto)';
  board.appendChild(cell('store',b[2*m+1],'1','1 / 3','store-n'));
  for(let k=0;k<m;k++){const i=2*m-k;const c=cell('pit'+(i===last?' last':''),b[i],String(k+2),'1');c.title='North pit '+(m-k);board.appendChild(c);}
  for(let k=0;k<m;k++){const c=cell('pit'+(k===last?' last':''),b[k],String(k+2),'2');c.title='South pit '+(k+1);board.appendChild(c);}
  board.appendChild(cell('store',b[m],String(m+2),'1 / 3','store-s'));
  const over=ply===g.moves.length&&!g.note;
  $('north').textContent='North: '+owner('n',sw);$('south').textContent='South: '+owner('s',sw);
  $('north').className='side'+(!over&&turn==='n'?' tomove':'');$('south').className='side'+(!over&&turn==='s'?' tomove':'');
  let info='Ply '+ply+' of '+g.moves.length;
  if(ply>0){const side=g.turn[ply-1],mv=g.moves[ply-1],f=g.flags[ply-1];
    info+=': '+owner(side,g.swapped[ply-1]==='1')+(mv==='swap'?' swaps':' plays pit '+mv)+(f==='x'?', extra turn':f==='c'?', captures':'');
    const k=ply-1-g.opening;
    if(ply>g.opening&&g.times[k]!==undefined){info+=' ('+g.times[k]+' ms';if(g.depth[k]!=null)info+=', depth '+g.depth[k];if(g.score[k]!=null)info+=', score '+g.score[k];info+=')';}
    else if(ply<=g.opening)info+=' (opening)';}
  if(ply===g.moves.length)info+='. Result '+g.result+' ('+g.termination+(g.forfeit?': '+g.forfeit:'')+(g.adjudication?': '+g.adjudication:'')+')'+(g.note?'. '+g.note:'');
  $('info').textContent=info;$('ply').value=ply;
  const spans=$('moves').children;for(let i=0;i<spans.length;i++)spans[i].classList.toggle('cur',i===ply-1);
}
// The engines' scores from South's point of view (an engine reports its own), one point per ply.
function graph(){
  const pts=[];let lo=0,hi=0;
  g.score.forEach((v,k)=>{if(v==null)return;const p=k+g.opening;const south=(g.turn[p]==='s')!==(g.swapped[p]==='1');const y=south?v:-v;pts.push([p+1,y,g.depth[k]]);lo=Math.min(lo,y);hi=Math.max(hi,y);});
  const svg=$('graph');svg.replaceChildren();
  if(!pts.length){svg.style.display='none';return;}
  svg.style.display='';
  const W=600,H=120,n=Math.max(1,g.moves.length),span=Math.max(1,hi-lo);
  const X=p=>10+p/n*(W-20),Y=v=>10+(hi-v)/span*(H-20);
  const NS=svg.namespaceURI;  // no URL in the page: it is the SVG element's own
  const mk=(tag,attrs)=>{const e=document.createElementNS(NS,tag);for(const k in attrs)e.setAttribute(k,attrs[k]);svg.appendChild(e);return e;};
  mk('line',{x1:10,x2:W-10,y1:Y(0),y2:Y(0),stroke:'#888'});
  mk('polyline',{points:pts.map(q=>X(q[0])+','+Y(q[1])).join(' '),fill:'none',stroke:'#4a7bd0','stroke-width':2});
  pts.forEach(q=>{const c=mk('circle',{cx:X(q[0]),cy:Y(q[1]),r:3,fill:'#4a7bd0'});const t=document.createElementNS(NS,'title');t.textContent='ply '+q[0]+': '+q[1]+(q[2]!=null?' (depth '+q[2]+')':'');c.appendChild(t);c.onclick=()=>{ply=q[0];draw();};});
  const lab=mk('text',{x:12,y:22});lab.textContent='score for South, max '+hi+', min '+lo;
}
function show(i,row,at){
  g=games[i];ply=0;$('viewer').hidden=false;
  $('title').textContent=g.id+' (round '+g.round+'): '+g.south+' vs '+g.north+', '+g.result;
  $('variant').textContent=g.variant;
  const ms=$('moves');ms.replaceChildren();
  g.moves.forEach((mv,k)=>{const s=document.createElement('span');
    s.append((k+1)+'. '+(g.turn[k]==='s'?'S':'N')+' '+mv);
    const f=g.flags[k];if(f==='x'||f==='c'){const b=document.createElement('b');b.className=f;b.textContent=f==='x'?'+':'×';b.title=f==='x'?'extra turn':'capture';s.append(b);}
    if(k<g.opening)s.className='op';s.onclick=()=>{ply=k+1;draw();};ms.appendChild(s);});
  $('ply').max=g.moves.length;
  if(selRow)selRow.classList.remove('sel');selRow=row||document.querySelector('#game-rows tr[data-i="'+i+'"]');if(selRow)selRow.classList.add('sel');
  if(at==='end')ply=g.moves.length;else if(at!==undefined&&at!=='')ply=Math.max(0,Math.min(g.moves.length,Number(at)||0));
  graph();draw();
}
function fromHash(){
  const m=/^#game-(.+?)(?:\/(end|\d+))?$/.exec(decodeURIComponent(location.hash));
  if(!m)return;
  if(byId.has(m[1])){$('missing').hidden=true;show(byId.get(m[1]),null,m[2]);$('viewer').scrollIntoView();}
  else{$('missing').hidden=false;$('missing').textContent='Game '+m[1]+' is not embedded in this page (it holds the last '+games.length+' games); it is in games.pgn (tag GameId) and in the journal, games.jsonl.';$('missing').scrollIntoView();}
}
const cols=[x=>x.id,x=>x.round,x=>x.south,x=>x.north,x=>x.result,x=>x.termination,x=>x.moves.length];
function list(){
  const words=$('filter').value.toLowerCase().split(/\s+/).filter(w=>w),body=$('game-rows');body.replaceChildren();
  const order=games.map((x,i)=>i);
  if(sortKey!==null)order.sort((a,b)=>{const u=cols[sortKey](games[a]),v=cols[sortKey](games[b]);return (u<v?-1:u>v?1:0)*sortDir;});
  for(const i of order){const x=games[i];
    const text=(x.id+' '+x.south+' '+x.north+' '+x.result+' '+x.termination).toLowerCase();
    if(!words.every(w=>text.includes(w)))continue;
    const tr=document.createElement('tr');tr.dataset.i=i;
    cols.forEach((c,k)=>{const td=document.createElement('td');if(k===0){const a=document.createElement('a');a.href='#game-'+x.id;a.textContent=x.id;td.appendChild(a);}else td.textContent=c(x);tr.appendChild(td);});
    tr.onclick=e=>{if(e.target.tagName!=='A')location.hash='game-'+x.id;};body.appendChild(tr);}
}
document.querySelectorAll('#games th').forEach((th,k)=>{th.title='sort';th.onclick=()=>{sortDir=sortKey===k?-sortDir:1;sortKey=k;list();};});
function step(d){if(!g)return;ply=Math.max(0,Math.min(g.moves.length,ply+d));draw();}
$('first').onclick=()=>step(-1e9);$('prev').onclick=()=>step(-1);$('next').onclick=()=>step(1);$('last').onclick=()=>step(1e9);
$('ply').oninput=e=>{ply=Number(e.target.value);draw();};
$('filter').oninput=list;
document.querySelectorAll('a[data-filter]').forEach(a=>a.onclick=e=>{e.preventDefault();$('filter').value=a.dataset.filter;list();$('games').scrollIntoView();});
document.addEventListener('keydown',e=>{if(e.target.tagName==='INPUT'&&e.target.type==='text')return;
  if(e.key==='ArrowLeft')step(-1);else if(e.key==='ArrowRight')step(1);else if(e.key==='Home')step(-1e9);else if(e.key==='End')step(1e9);});
window.addEventListener('hashchange',fromHash);
list();fromHash();
})();
)js";

// What the viewer adds for a page with an analysis, each piece inserted after an anchor of kScript (so that
// a page without one carries the script as it always was): the loss of the shown ply in the line under the
// board, a bar per ply on the graph (the loss against perfect play; red: the move that lost the game), that
// move marked in the list of plies, and a line under the title naming it, a link to the position after it.
constexpr std::pair<const char*, const char*> kAnalysisScript[] = {
    {"else if(ply<=g.opening)info+=' (opening)';",
     R"js(
    if(g.loss){const l=g.loss[ply-1];info+=l==null?'; loss not proved':'; loss '+l+(ply===g.losing?': the move that lost the game':'');})js"},
    {"lab.textContent='score for South, max '+hi+', min '+lo;\n}\n",
     R"js(// Each ply's loss against perfect play: a bar down from the graph's top, red for the move that lost the game. The
// book's plies (the opening: nobody chose them) are set apart on a grey band, their bars grey and cut at the scale,
// which the engines' own plies alone set. The captions are in a strip under the plot that no bar reaches.
function bars(){
  if(!g.loss)return;
  const svg=$('graph'),NS=svg.namespaceURI,W=600,n=Math.max(1,g.moves.length),X=p=>10+p/n*(W-20),book=g.opening,
    most=Math.max(1,...g.loss.map((v,k)=>k<book?0:v||0));
  svg.style.display='';
  const mk=(tag,attrs,text)=>{const e=document.createElementNS(NS,tag);for(const k in attrs)e.setAttribute(k,attrs[k]);if(text){const t=document.createElementNS(NS,'title');t.textContent=text;e.appendChild(t);}svg.appendChild(e);return e;};
  if(book>0)mk('rect',{class:'book',x:10,y:10,width:X(book+0.5)-10,height:100,fill:'#888','fill-opacity':0.15},'the book: plies 1 to '+book+', nobody chose them');
  g.loss.forEach((v,k)=>{if(!v)return;const lost=k+1===g.losing,op=k<book;
    mk('rect',{class:op?'loss book-ply':'loss',x:X(k+1)-3,y:10,width:6,height:Math.max(2,Math.min(v,most)/most*40),fill:lost?'#c44':op?'#999':'#e0a030'},'ply '+(k+1)+(op?' (book)':'')+': loss '+v+(lost?', the move that lost the game':'')).onclick=()=>{ply=k+1;draw();};});
  mk('text',{class:'caption',x:12,y:146}).textContent='bars: loss per ply against perfect play (full bar: '+most+')'+(g.losing?'; red: the move that lost':'');
  if(book>0)mk('text',{class:'caption',x:W-12,y:128,'text-anchor':'end'}).textContent='grey band: book plies, not to scale';
}
)js"},
    // The score's caption moves to the strip under the plot, where no bar reaches it.
    {"lab.textContent='score for South, max '+hi+', min '+lo;",
     "lab.setAttribute('y',128);lab.setAttribute('class','caption');"},
    {"$('variant').textContent=g.variant;\n",
     R"js(  const v=$('verdict');v.replaceChildren();v.hidden=!g.loss;
  if(g.losing){const a=document.createElement('a');a.href='#game-'+g.id+'/'+g.losing;a.textContent='ply '+g.losing+', '+g.loser+' (loss '+g.loss[g.losing-1]+')';v.append('The move that lost the game: ',a);}
  else if(g.loss)v.append('Analysed: no single move lost this game (a draw, lost from the start, or not proved that far).');
)js"},
    {"if(k<g.opening)s.className='op';",
     "if(k+1===g.losing){s.style.outline='2px solid #c44';s.title='the move that lost the game';}"},
    {"  graph();", "bars();"},
};

// The style of report.html, its viewer's included; the game page of `arena serve` is sent it too.
constexpr const char* kStyle = R"css(
:root{--fg:#222;--bg:#fafafa;--card:#fff;--line:#ddd;--head:#f0f0f0;--muted:#555;--sel:#dbe7ff;--hover:#eef4ff;--grid:#e4e4e4}
@media (prefers-color-scheme:dark){:root{--fg:#ddd;--bg:#161616;--card:#1f1f1f;--line:#444;--head:#2a2a2a;--muted:#aaa;--sel:#2d3f66;--hover:#263352;--grid:#333}}
body{font:14px/1.45 system-ui,-apple-system,"Segoe UI",sans-serif;margin:0 auto;max-width:1100px;padding:1em 1.5em;color:var(--fg);background:var(--bg);overflow-wrap:break-word}
@media (max-width:600px){body{padding:.5em .6em}}
h1{font-size:1.6em;margin:.2em 0}h2{font-size:1.2em;margin-top:1.6em;border-bottom:1px solid var(--line)}
table{border-collapse:collapse;margin:.5em 0;background:var(--card)}
th,td{border:1px solid var(--line);padding:3px 8px;text-align:right;white-space:nowrap}
th{background:var(--head)}td.name,th.name{text-align:left}td.self{background:var(--head)}
a{color:inherit}
.scroll{max-width:100%;overflow-x:auto}.scroll td.name{white-space:normal}
p.note{color:var(--muted);max-width:60em}p.warn{background:#fff3cd;color:#222;border:1px solid #e0c060;padding:.4em .6em;max-width:60em}
svg{max-width:100%;height:auto}svg text{font-size:12px;fill:var(--fg)}
dl.about{display:grid;grid-template-columns:max-content 1fr;gap:2px 12px;max-width:60em}dl.about dt{font-weight:bold}dl.about dd{margin:0;overflow-wrap:anywhere}
@media (max-width:600px){dl.about{grid-template-columns:1fr}dl.about dd{margin-bottom:.4em}}
details.about>summary{cursor:pointer;font-weight:bold;margin:1em 0 .4em}
.chart-box{overflow-x:auto}@media (max-width:600px){.chart-box svg{max-width:none}}
.elo-narrow{display:none}@media (max-width:600px){.elo-wide{display:none}.elo-narrow{display:block}}
#games{max-height:24em;overflow:auto;max-width:100%;border:1px solid var(--line)}
#games table{margin:0}#games tbody tr{cursor:pointer}#games tbody tr:hover{background:var(--hover)}
#games th{cursor:pointer;position:sticky;top:0}#games tr.sel{background:var(--sel)}
.board{display:inline-grid;gap:6px;padding:10px;background:#c49a6c;border-radius:14px;margin:.4em 0}
.pit,.store{background:#8a5a2b;color:#fff;border-radius:50%;width:44px;height:44px;display:flex;align-items:center;justify-content:center;font-weight:bold;font-size:16px}
@media (max-width:600px){.board{gap:3px;padding:6px}.pit,.store{width:30px;height:30px;font-size:13px}}
.store{border-radius:22px;height:auto;grid-row:1/3}
.pit.last{outline:3px solid #ffd700}
.side{font-weight:bold}.side.tomove::after{content:"  \2190 to move";font-weight:normal;color:#c44}
.controls button{font-size:14px;min-width:2.5em}
#moves{max-width:60em}#moves span{display:inline-block;padding:0 4px;margin:1px;border-radius:3px;cursor:pointer}
#moves span.cur{background:#ffd700;color:#222}#moves span.op{color:var(--muted)}
#moves b.x{color:#2a8a2a}#moves b.c{color:#c44}
@media print{#filter,.controls,#games{display:none}#viewer[hidden]{display:none}.scroll{overflow:visible}body{max-width:none}}
)css";

}  // namespace

std::string viewer_script(bool analysis) {
  std::string out = kScript;
  if (!analysis) return out;
  for (const auto& [anchor, addition] : kAnalysisScript) {
    const std::size_t at = out.find(anchor);
    assert(at != std::string::npos && out.find(anchor, at + 1) == std::string::npos);
    out.insert(at + std::string_view(anchor).size(), addition);
  }
  return out;
}

std::string_view html_style() { return kStyle; }

std::string viewer_html(bool analysis) {
  std::string out =
      R"html(<p><input type="text" id="filter" placeholder="filter: words of id, engines, result, termination" size="32"></p>
<p id="missing" class="warn" hidden></p>
<div id="games"><table><thead><tr><th>Id</th><th>Round</th><th>South</th><th>North</th><th>Result</th><th>Termination</th><th>Plies</th></tr></thead><tbody id="game-rows"></tbody></table></div>
<section id="viewer" hidden>
<h2 id="title"></h2>
<p id="variant" class="note"></p>
)html";
  // With an analysis, the line that names the move that lost the game (kAnalysisScript).
  if (analysis) out += "<p id=\"verdict\" hidden></p>\n";
  out += R"html(<div id="north" class="side"></div>
<div id="board" class="board"></div>
<div id="south" class="side"></div>
<p class="controls"><button id="first" title="start (Home)">|&lt;</button> <button id="prev" title="back (Left)">&lt;</button> <input type="range" id="ply" min="0" max="0" value="0"> <button id="next" title="forward (Right)">&gt;</button> <button id="last" title="end (End)">&gt;|</button></p>
<p id="info"></p>
<div id="moves"></div>
)html";
  // With an analysis the graph has a strip under its plot for the captions, where no loss bar reaches.
  out += analysis ? "<svg id=\"graph\" viewBox=\"0 0 600 150\" width=\"600\" height=\"150\" role=\"img\" "
                    "aria-label=\"score and loss per ply\"></svg>\n</section>\n"
                  : "<svg id=\"graph\" viewBox=\"0 0 600 120\" width=\"600\" height=\"120\" role=\"img\" "
                    "aria-label=\"score per ply\"></svg>\n</section>\n";
  return out;
}

namespace {

// Where the last seed of `m` lands: sowing skips the opponent's store (docs/RULES.md).
int landing_cell(const Variant& v, const Position& p, Move m) {
  const bool south = p.to_move == Side::South;
  int i = (south ? 0 : v.pits + 1) + m.pit - 1;
  const int skip = south ? v.north_store() : v.south_store();
  for (int seeds = p.cells[i]; seeds > 0; --seeds) {
    i = (i + 1) % v.cells();
    if (i == skip) i = (i + 1) % v.cells();
  }
  return i;
}

// What a ply did: 'x' an extra turn (the mover moves again), 'c' a capture (the last seed, in an own
// empty pit, went to the store with the facing pit), '-' neither. A capture on the ply that ends the
// game is not told apart from the end's sweep and shows as '-'.
char ply_flag(const Variant& v, const Position& before, const Position& after, Move m) {
  if (m.is_swap() || after.over) return '-';
  if (after.to_move == before.to_move) return 'x';
  const int last = landing_cell(v, before, m);
  const bool own_pit = before.to_move == Side::South ? last < v.pits : (last > v.pits && last < v.north_store());
  return own_pit && after.cells[last] == 0 ? 'c' : '-';
}

// The board after every ply, from the rules library.
json::object replay(const GameRecord& g) {
  const Variant& v = g.variant;
  Position p = g.initial_position();
  json::array boards;
  std::string turn, swapped, note;
  auto snapshot = [&] {
    json::array b;
    for (int i = 0; i < v.cells(); ++i) b.emplace_back(p.cells[i]);
    boards.emplace_back(std::move(b));
    turn += p.to_move == Side::South ? 's' : 'n';
    swapped += p.swapped ? '1' : '0';
  };
  snapshot();
  json::array moves;
  std::string flags;
  for (std::size_t i = 0; i < g.moves.size(); ++i) {
    if (!is_legal(v, p, g.moves[i])) {
      note = "Move " + std::to_string(i + 1) + " (" + to_string(g.moves[i]) +
             ") is not legal in this position; the replay stops there.";
      break;
    }
    const Position before = p;
    apply(v, p, g.moves[i]);
    flags += ply_flag(v, before, p, g.moves[i]);
    moves.emplace_back(to_string(g.moves[i]));
    snapshot();
  }
  // Per move after the opening: the time, and the depth and score of the engine's last info line.
  json::array times, depth, score;
  for (const MoveInfo& m : g.move_info) {
    times.emplace_back(rounded(m.time_ms, 1));
    depth.emplace_back(m.depth ? json::value(*m.depth) : json::value(nullptr));
    score.emplace_back(m.score ? json::value(*m.score) : json::value(nullptr));
  }

  json::object o{{"id", g.id},
                 {"round", g.round},
                 {"south", g.south},
                 {"north", g.north},
                 {"result", to_string(g.result)},
                 {"termination", to_string(g.termination)}};
  if (g.forfeit)
    o["forfeit"] = g.forfeit->engine + " forfeits (" + to_string(g.forfeit->reason) + ")" +
                   (g.forfeit->detail.empty() ? "" : ": " + g.forfeit->detail);
  else
    o["forfeit"] = nullptr;
  if (g.adjudication) o["adjudication"] = describe(*g.adjudication);
  o["variant"] = to_string(v);
  o["pits"] = v.pits;
  o["opening"] = std::min(g.opening.size(), moves.size());
  o["moves"] = std::move(moves);
  o["boards"] = std::move(boards);
  o["turn"] = turn;
  o["swapped"] = swapped;
  o["flags"] = flags;
  o["times"] = std::move(times);
  o["depth"] = std::move(depth);
  o["score"] = std::move(score);
  o["note"] = note;
  return o;
}

// An analysed game's figures for the viewer: per ply the perfect-play value before it and its loss (null
// where not proved), and the move that lost the game (1-based, as the viewer numbers plies) with its mover.
void add_analysis(json::object& o, const analysis::GameJudgement& j) {
  json::array value, loss;
  for (const analysis::PlyJudgement& p : j.plies) {
    value.emplace_back(p.value ? json::value(*p.value) : json::value(nullptr));
    loss.emplace_back(p.loss ? json::value(*p.loss) : json::value(nullptr));
  }
  o["value"] = std::move(value);
  o["loss"] = std::move(loss);
  if (j.losing_ply) {
    o["losing"] = *j.losing_ply + 1;
    o["loser"] = j.plies[static_cast<std::size_t>(*j.losing_ply)].mover;
  } else {
    o["losing"] = nullptr;
    o["loser"] = nullptr;
  }
}

}  // namespace

std::string viewer_games_json(const std::vector<GameRecord>& games,
                              const std::vector<std::optional<analysis::GameJudgement>>& judgements) {
  json::array data;
  data.reserve(games.size());
  for (std::size_t i = 0; i < games.size(); ++i) {
    json::object o = replay(games[i]);
    if (i < judgements.size() && judgements[i]) add_analysis(o, *judgements[i]);
    data.emplace_back(std::move(o));
  }
  return json_text(data, {.html_safe = true});
}

}  // namespace kalah::report
