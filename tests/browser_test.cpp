// The reports in the tools that read them. report.html in a real browser (Debian's chromium, headless):
// the report of a real small tournament,
// rendered with its scripts run. The DOM holds every engine, the "About" section and every game id; a
// screenshot at 360 and at 1280 pixels wide is not blank; opening `#game-<id>/end` shows the final stores
// the journal recorded. games.pgn in pgn-extract: it reads exactly the games of the journal. Skipped, with
// the reason, where chromium and python3-pil, or pgn-extract, are not installed (.ci/run installs them).
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include <boost/json.hpp>

#include "arena/report/reports.h"
#include "tests/config_builder.h"
#include "tests/e2e_util.h"
#include "tests/support/text_match.h"

namespace kalah::e2e {
namespace {

namespace json = boost::json;

const fs::path kChromium = "/usr/bin/chromium";
const fs::path kPython = "/usr/bin/python3";  // Debian's, where python3-pil installs

class Browser : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!fs::exists(kChromium)) GTEST_SKIP() << "chromium is not installed (apt-get install chromium)";
    const RunResult pil = run({kPython.string(), "-c", "import PIL"}, tmp_.path(), 30s);
    if (pil.status.code != 0) GTEST_SKIP() << "python3-pil is not installed (apt-get install python3-pil)";
  }

  // The tournament, played once for the whole suite's tests.
  fs::path play() {
    test::TestConfig("web")
        .set("rounds", 2)
        .output(tmp_ / "results")
        .time("movetime_ms = 20")
        .table("openings", "random_plies = 2")
        .engine("random", kRandom, "options = { Seed = 5 }")
        .engine("greedy", kGreedy)
        .write(tmp_ / "web.toml");
    const RunResult r = run({kArena.string(), "run", (tmp_.path() / "web.toml").string()}, tmp_.path(), 120s);
    EXPECT_EQ(r.status.code, 0) << r.summary();
    return tmp_.path() / "results" / "web";
  }

  RunResult chromium(std::vector<std::string> args, const std::string& url) {
    std::vector<std::string> argv = {kChromium.string(), "--headless", "--no-sandbox", "--disable-gpu",
                                     "--user-data-dir=" + (tmp_.path() / "profile").string()};
    argv.insert(argv.end(), args.begin(), args.end());
    argv.push_back(url);
    return run(argv, tmp_.path(), 120s);
  }

  // Distinct colours in a PNG: a blank page has one or two.
  int colours(const fs::path& png) {
    const RunResult r = run({kPython.string(), "-c",
                             "import sys\nfrom PIL import Image\nim = Image.open(sys.argv[1]).convert('RGB')\n"
                             "print(len(im.getcolors(1 << 24)))",
                             png.string()},
                            tmp_.path(), 60s);
    EXPECT_EQ(r.status.code, 0) << r.summary();
    return r.status.code == 0 ? std::stoi(r.out) : 0;
  }

  system::TempFolder tmp_{"kalah-e2e"};
};

// `page` with a script added at its end that measures the layout once the page's own script has run and writes
// what it found into the DOM, as JSON in <pre id="measured">, for --dump-dom to return.
fs::path with_measure(const fs::path& page, const std::string& measure) {
  std::string html = read_file(page);
  const std::size_t end = html.rfind("</body>");
  EXPECT_NE(end, std::string::npos);
  html.insert(end,
              "<script>(function(){const out={};\n" + measure +
                  "\nconst pre=document.createElement('pre');pre.id='measured';pre.textContent=JSON.stringify(out);"
                  "document.body.appendChild(pre);if(window.parent!==window)window.parent.postMessage(pre."
                  "textContent,'*');})();</script>\n");
  const fs::path measured = page.parent_path() / ("measured-" + page.filename().string());
  write_file(measured, html);
  return measured;
}

// What with_measure's script found, from the dumped DOM.
json::object measured(const std::string& dom) {
  const std::optional<test::Groups> m = test::search_groups(dom, "<pre id=\"measured\">([^<]*)</pre>");
  if (!m) {
    ADD_FAILURE() << "nothing measured in:\n" << dom.substr(0, 2000);
    return {};
  }
  std::string text = (*m)[1];
  for (std::size_t at; (at = text.find("&quot;")) != std::string::npos;) text.replace(at, 6, "\"");
  for (std::size_t at; (at = text.find("&amp;")) != std::string::npos;) text.replace(at, 5, "&");
  return json::parse(text).as_object();
}

// One chromium for the page's DOM and every game's end (a start of headless chromium costs seconds of CPU, and CI
// is CPU-bound): the page opened at the first game's end from the URL, as a reader's link opens it, then each
// other game's end and an id the page does not hold through the page's own hashchange handler, which a click on
// a link runs. What each showed is recorded by with_measure's script.
TEST_F(Browser, TheReportRendersEveryEngineGameAndTheFinalBoard) {
  const fs::path dir = play();
  std::vector<json::object> games;
  json::array ids;
  for (const std::string& line : read_lines(dir / "games.jsonl")) {
    games.push_back(json::parse(line).as_object());
    ids.push_back(games.back().at("id"));
  }
  ASSERT_EQ(games.size(), 4u);
  const fs::path page = with_measure(dir / "report.html", "const ids=" + json::serialize(ids) + R"js(;
const text=id=>{const e=document.getElementById(id);return e?e.textContent:null;};
const shown=()=>({south:text('store-s'),north:text('store-n'),viewer:text('viewer'),
                  missing:document.getElementById('missing').hidden?null:text('missing')});
const open=hash=>{history.replaceState(null,'',hash);window.dispatchEvent(new HashChangeEvent('hashchange'));return shown();};
out.ends={};
out.ends[ids[0]]=shown();
for(const id of ids.slice(1))out.ends[id]=open('#game-'+id+'/end');
out.missing=open('#game-no-such-id').missing;
)js");
  const std::string url = "file://" + page.string();

  const RunResult dom = chromium({"--dump-dom"}, url + "#game-" + std::string(ids[0].as_string()) + "/end");
  ASSERT_EQ(dom.status.code, 0) << dom.summary();
  for (const char* engine : {"random", "greedy"}) EXPECT_NE(dom.out.find(engine), std::string::npos) << engine;
  EXPECT_NE(dom.out.find("<section id=\"about\">"), std::string::npos);
  EXPECT_NE(dom.out.find("<dt>Time control</dt>"), std::string::npos);
  for (const json::object& g : games) {
    const std::string id(g.at("id").as_string());
    EXPECT_NE(dom.out.find("href=\"#game-" + id + "\""), std::string::npos) << "the list links game " << id;
  }
  const json::object m = measured(dom.out);
  ASSERT_TRUE(m.contains("ends") && m.contains("missing")) << json::serialize(m);

  // Every game, opened at its end, shows the stores of the journal.
  const json::object& ends = m.at("ends").as_object();
  for (const json::object& g : games) {
    const std::string id(g.at("id").as_string());
    ASSERT_TRUE(ends.contains(id)) << id << ": " << json::serialize(m);
    const json::object& end = ends.at(id).as_object();
    ASSERT_TRUE(end.at("south").is_string() && end.at("north").is_string()) << id << ": " << json::serialize(end);
    const json::array& stores = g.at("stores").as_array();
    EXPECT_EQ(std::string(end.at("south").as_string()), std::to_string(stores[0].as_int64())) << id;
    EXPECT_EQ(std::string(end.at("north").as_string()), std::to_string(stores[1].as_int64())) << id;
    const std::string plies = std::to_string(g.at("moves").as_array().size());
    EXPECT_NE(std::string(end.at("viewer").as_string()).find("Ply " + plies + " of " + plies), std::string::npos) << id;
    EXPECT_TRUE(end.at("missing").is_null()) << id;
  }
  // An id the page does not hold (a big run embeds its last 1000 games) says where the game is.
  ASSERT_TRUE(m.at("missing").is_string()) << json::serialize(m);
  EXPECT_NE(std::string(m.at("missing").as_string()).find("Game no-such-id is not embedded in this page"),
            std::string::npos);

  for (const int width : {360, 1280}) {
    const fs::path shot = tmp_.path() / ("shot" + std::to_string(width) + ".png");
    const RunResult r = chromium(
        {"--screenshot=" + shot.string(), "--window-size=" + std::to_string(width) + ",2000", "--hide-scrollbars"},
        "file://" + (dir / "report.html").string());
    ASSERT_EQ(r.status.code, 0) << r.summary();
    ASSERT_TRUE(fs::exists(shot)) << r.summary();
    EXPECT_GT(colours(shot), 20) << "a blank page at " << width << " px";
  }
}

// The viewer's graph of an analysed game: its captions are in a strip that no loss bar reaches, and the book's
// plies (the opening) are set apart and do not set the scale: here they lose 40 and 30, the engines' own plies at
// most 4, and the largest own loss is a full bar. The analysis is made up (only its losses are drawn).
TEST_F(Browser, TheLossGraphKeepsItsCaptionsClearAndTheBookApart) {
  const fs::path dir = play();
  std::string analysis;
  std::vector<std::string> ids;
  for (const std::string& line : read_lines(dir / "games.jsonl")) {
    const json::object g = json::parse(line).as_object();
    const std::size_t plies = g.at("moves").as_array().size(), book = g.at("opening").as_array().size();
    ASSERT_EQ(book, 2u);
    json::array value, loss;
    for (std::size_t k = 0; k < plies; ++k) {
      value.emplace_back(0);
      loss.emplace_back(k < book ? 40 - 10 * static_cast<int>(k) : k % 3 == 0 ? 4 : 1);
    }
    ids.emplace_back(g.at("id").as_string());
    analysis += json::serialize(json::object{{"id", g.at("id")}, {"value", value}, {"loss", loss}}) + "\n";
  }
  write_file(dir / "analysis.jsonl", analysis);
  const RunResult report = run({kArena.string(), "report", dir.string()}, tmp_.path(), 120s);
  ASSERT_EQ(report.status.code, 0) << report.summary();

  // Every game in one chromium (see above): each opened through the page's hashchange handler.
  json::array id_list;
  for (const std::string& id : ids) id_list.emplace_back(id);
  const fs::path page = with_measure(dir / "report.html", "const ids=" + json::serialize(id_list) + R"js(;
// The page's script keeps its data to itself: the embedded games, read again.
const games=JSON.parse(document.getElementById('games-data').textContent);
const svg=document.getElementById('graph');
const box=e=>{const b=e.getBBox();return [b.x,b.y,b.x+b.width,b.y+b.height];};
const plyOf=r=>Number(/^ply (\d+)/.exec(r.textContent)[1]);
const heights=rs=>rs.map(r=>Number(r.getAttribute('height')));
for(const id of ids){
  history.replaceState(null,'','#game-'+id);window.dispatchEvent(new HashChangeEvent('hashchange'));
  const book=games.find(x=>x.id===id).opening,o={};
  const texts=[...svg.querySelectorAll('text')];
  const bars=[...svg.querySelectorAll('rect')].filter(r=>/^ply \d+/.test(r.textContent));
  o.bars=bars.length;o.overlaps=0;
  for(const r of bars){const a=box(r);for(const t of texts.map(box))if(a[0]<t[2]&&t[0]<a[2]&&a[1]<t[3]&&t[1]<a[3])o.overlaps++;}
  o.own_max=Math.max(0,...heights(bars.filter(r=>plyOf(r)>book)));
  o.book_max=Math.max(0,...heights(bars.filter(r=>plyOf(r)<=book)));
  o.book_bars=bars.filter(r=>plyOf(r)<=book).length;
  o.captions=texts.map(t=>t.textContent).join(' | ');
  out[id]=o;
}
)js");
  const RunResult dom = chromium({"--dump-dom", "--window-size=1280,2000"}, "file://" + page.string());
  ASSERT_EQ(dom.status.code, 0) << dom.summary();
  const json::object all = measured(dom.out);
  for (const std::string& id : ids) {
    ASSERT_TRUE(all.contains(id)) << id << ": " << json::serialize(all);
    const json::object& m = all.at(id).as_object();
    ASSERT_GT(m.at("bars").as_int64(), 2) << id << ": " << json::serialize(m);
    EXPECT_EQ(m.at("overlaps").as_int64(), 0) << id << ": a bar draws over a caption: " << json::serialize(m);
    EXPECT_EQ(m.at("book_bars").as_int64(), 2) << id;
    EXPECT_EQ(m.at("own_max").to_number<double>(), 40) << id << ": the largest own loss is a full bar";
    EXPECT_LE(m.at("book_max").to_number<double>(), 40) << id << ": the book's losses are cut at the scale";
    EXPECT_NE(std::string(m.at("captions").as_string()).find("book"), std::string::npos) << json::serialize(m);
  }
}

// A contest's report.html on a phone (390 px wide): the ranking comes before the notes (the submissions that did
// not enter, with the organiser's long paths), no line runs past the screen's edge, and the Elo chart shows its bars
// on both sides of 0 without scrolling. A disqualified entrant without games has no Elo (and no bar); standings.json
// follows its schema with it.
TEST_F(Browser, AContestPageOnAPhoneShowsTheRankingFirstWrapsPathsAndFitsTheEloChart) {
  const fs::path dir = play();
  report::ReportInput input;
  input.journals = {{dir / "games.jsonl", dir.string()}};
  input.engine_names = {"random", "greedy", "copycat"};
  input.event = "contest";
  rating::RankingRules by_points;
  by_points.by = rating::RankBy::Points;
  input.description.ranking = by_points;
  arena::EntryDescription& copycat = input.description.entries["copycat"];
  copycat.status = rating::EntryStatus::Disqualified;
  copycat.reason = "copied code";
  copycat.games_kept = false;
  const std::string deep = "/home/organiser/contests/kalah-2026/submissions/" + std::string(60, 'x') + "/build/output";
  input.description.not_entered["late"] = "late (its build failed: " + deep + "/build.log)";
  input.description.not_entered["broken"] = "broken (its check failed: " + deep + "/check.log)";
  input.description.engines["random"].command = deep + "/kalah-random --seed 5";
  const fs::path out = tmp_.path() / "contest";
  const Expected<report::ReportSummary> written = report::write_reports(out, input);
  ASSERT_TRUE(written) << written.error();

  const fs::path page = with_measure(out / "report.html", R"js(
for(const d of document.querySelectorAll('details'))d.open=true;  // the About section's paths too
out.width=window.innerWidth;
out.page_width=document.documentElement.scrollWidth;
const ranking=[...document.querySelectorAll('h2')].find(h=>h.textContent==='Ranking');
const table=ranking.nextElementSibling.nextElementSibling;
out.ranking_bottom=table.getBoundingClientRect().bottom;
const notes=[...document.querySelectorAll('p.warn')].filter(p=>p.getClientRects().length);
out.first_note_top=Math.min(...notes.map(p=>p.getBoundingClientRect().top));
out.notes=notes.length;
// What runs past the screen's right edge, outside a box that scrolls on its own (a table, a chart).
const scrolls=e=>{for(let a=e.parentElement;a;a=a.parentElement)if(getComputedStyle(a).overflowX!=='visible')return true;return false;};
out.too_wide=[...document.body.querySelectorAll('*')].filter(e=>e.getClientRects().length&&!scrolls(e)&&e.getBoundingClientRect().right>window.innerWidth+0.5).map(e=>e.tagName+(e.id?'#'+e.id:'')+': '+e.textContent.slice(0,40));
const charts=[...document.querySelectorAll('svg[aria-label^="Elo with"]')].filter(c=>c.getClientRects().length);
out.charts=charts.length;
const bars=charts.flatMap(c=>[...c.querySelectorAll('rect')]);
out.bars=bars.length;
out.bars_outside=bars.filter(b=>{const r=b.getBoundingClientRect();return r.left<0||r.right>window.innerWidth;}).length;
out.chart_scrolls=charts.filter(c=>c.parentElement.scrollWidth>c.parentElement.clientWidth).length;
)js");
  // A phone's screen, 390 pixels wide: headless chromium keeps its window at least 500 wide, so the page is shown
  // in a frame of that width, which passes on what the page measured.
  const fs::path phone = out / "phone.html";
  write_file(phone, "<!DOCTYPE html>\n<html><body style=\"margin:0\"><pre id=\"measured\"></pre><iframe src=\"" +
                        page.filename().string() +
                        "\" style=\"width:390px;height:5000px;border:0\"></iframe><script>window.addEventListener("
                        "'message',e=>{document.getElementById('measured').textContent=e.data;});</script></body>"
                        "</html>\n");
  const RunResult dom =
      chromium({"--dump-dom", "--window-size=1280,2000", "--virtual-time-budget=5000"}, "file://" + phone.string());
  ASSERT_EQ(dom.status.code, 0) << dom.summary();
  const json::object m = measured(dom.out);
  ASSERT_EQ(m.at("width").as_int64(), 390) << json::serialize(m);
  EXPECT_EQ(m.at("notes").as_int64(), 2) << json::serialize(m);
  EXPECT_LT(m.at("ranking_bottom").to_number<double>(), m.at("first_note_top").to_number<double>())
      << "the ranking comes first: " << json::serialize(m);
  EXPECT_LE(m.at("page_width").as_int64(), 390) << "nothing runs past the screen: " << json::serialize(m);
  EXPECT_TRUE(m.at("too_wide").as_array().empty()) << json::serialize(m);
  EXPECT_EQ(m.at("charts").as_int64(), 1) << json::serialize(m);
  EXPECT_EQ(m.at("bars").as_int64(), 2) << "a bar for each engine with games: " << json::serialize(m);
  EXPECT_EQ(m.at("bars_outside").as_int64(), 0) << json::serialize(m);
  EXPECT_EQ(m.at("chart_scrolls").as_int64(), 0) << json::serialize(m);

  // The page's text: no Elo for the entrant without games.
  const std::string md = read_file(out / "standings.md");
  EXPECT_NE(md.find("| copycat | 0 | 0-0-0 | 0 | – | – |"), std::string::npos) << md;
  if (run({kPython.string(), "-c", "import jsonschema"}, tmp_.path(), 30s).status.code != 0) return;
  const RunResult schema =
      run({kPython.string(), KALAH_SOURCE_DIR "/tools/check-schema.py",
           KALAH_SOURCE_DIR "/docs/schema/standings.schema.json", (out / "standings.json").string()},
          tmp_.path(), 60s);
  EXPECT_EQ(schema.status.code, 0) << schema.summary();
}

const fs::path kPgnExtract = "/usr/games/pgn-extract";

// A real run with forfeits (a crashing engine): 12 games in dir/results/pgn.
fs::path play_with_forfeits(const fs::path& dir) {
  test::TestConfig("pgn")
      .set("rounds", 2)
      .output(dir / "results")
      .time("base_ms = 2000\ninc_ms = 20")
      .table("openings", "random_plies = 2")
      .engine("random", kRandom)
      .engine("greedy", kGreedy)
      .engine("crashy", kBadEngine, "args = [\"--crash-on-go\", \"3\"]")
      .write(dir / "pgn.toml");
  const RunResult r = run({kArena.string(), "run", (dir / "pgn.toml").string()}, dir, 120s);
  EXPECT_EQ(r.status.code, 0) << r.summary();
  return dir / "results" / "pgn";
}

// games.pgn of a real run through pgn-extract, game for game.
TEST(PgnTools, PgnExtractReadsExactlyTheJournalsGames) {
  if (!fs::exists(kPgnExtract)) GTEST_SKIP() << "pgn-extract is not installed (apt-get install pgn-extract)";
  system::TempFolder tmp{"kalah-e2e"};
  const fs::path dir = play_with_forfeits(tmp.path());
  const std::size_t games = read_lines(dir / "games.jsonl").size();
  ASSERT_EQ(games, 12u);
  const std::string pgn = read_file(dir / "games.pgn");
  EXPECT_NE(pgn.find("[TimeControl \"2+0.02\"]"), std::string::npos);
  EXPECT_NE(pgn.find("[Termination \"rules infraction\"]\n"), std::string::npos) << "the crashes";
  EXPECT_NE(pgn.find("[KalahTermination \"crash\"]\n"), std::string::npos);

  const RunResult extract =
      run({kPgnExtract.string(), "-s", "-o", (tmp.path() / "out.pgn").string(), (dir / "games.pgn").string()},
          tmp.path(), 60s);
  ASSERT_EQ(extract.status.code, 0) << extract.summary();
  EXPECT_EQ(extract.err, "") << "pgn-extract complained";
  std::size_t read_back = 0;
  for (const std::string& line : read_lines(tmp.path() / "out.pgn")) read_back += line.rfind("[Event ", 0) == 0;
  EXPECT_EQ(read_back, games) << "each game read once, none lost";
}

// The JSON records against their schemas (docs/schema/), with Debian's python3-jsonschema: every line of a
// real journal with forfeits, and its standings.json; a line that breaks the schema is caught.
TEST(Schemas, TheRecordsOfARealRunFollowTheirSchemas) {
  system::TempFolder tmp{"kalah-e2e"};
  if (run({kPython.string(), "-c", "import jsonschema"}, tmp.path(), 30s).status.code != 0)
    GTEST_SKIP() << "python3-jsonschema is not installed (apt-get install python3-jsonschema)";
  const fs::path dir = play_with_forfeits(tmp.path());
  const fs::path tool = KALAH_SOURCE_DIR "/tools/check-schema.py";
  const fs::path schemas = KALAH_SOURCE_DIR "/docs/schema";
  const RunResult games = run({kPython.string(), tool.string(), "--lines", (schemas / "games.schema.json").string(),
                               (dir / "games.jsonl").string()},
                              tmp.path(), 60s);
  EXPECT_EQ(games.status.code, 0) << games.summary();
  EXPECT_NE(games.out.find("checked 12 documents, 0 problems"), std::string::npos) << games.out;
  const RunResult standings = run({kPython.string(), tool.string(), (schemas / "standings.schema.json").string(),
                                   (dir / "standings.json").string()},
                                  tmp.path(), 60s);
  EXPECT_EQ(standings.status.code, 0) << standings.summary();

  std::string line = read_lines(dir / "games.jsonl").front();
  line.replace(line.find("\"termination\":\""), 15, "\"termination\":\"weird\",\"x\":\"");
  write_file(tmp.path() / "bad.jsonl", line + "\n");
  const RunResult bad = run({kPython.string(), tool.string(), "--lines", (schemas / "games.schema.json").string(),
                             (tmp.path() / "bad.jsonl").string()},
                            tmp.path(), 60s);
  EXPECT_EQ(bad.status.code, 1) << bad.summary();
  EXPECT_NE(bad.out.find("bad.jsonl:1: "), std::string::npos) << bad.out;
}

}  // namespace
}  // namespace kalah::e2e
