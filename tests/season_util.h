// What the season's end-to-end tests share (season_e2e_test, season_final_e2e_test): a season of alice and bob made
// by `arena season init` with its server on a free loopback port, an upload as curl sends it, and a revision waited
// for until its status is final.
#pragma once

#include <sys/stat.h>

#include <algorithm>
#include <functional>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include <boost/json.hpp>
#include <gtest/gtest.h>

#include "referee/system/temp_folder.h"
#include "tests/e2e_util.h"
#include "tests/serve_util.h"

namespace kalah::e2e::season_util {

namespace json = boost::json;
using namespace serve_util;

// A season of alice and bob in a folder of its own, with small upload limits, and its server.
class SeasonE2E : public ::testing::Test {
 protected:
  void SetUp() override {
    ::chmod(temp_.path().c_str(), 0711);  // sandboxed bots run as other users: let them through
    write_file(temp_.path() / "AUTHORS.txt", "alice\nbob\n");
    const RunResult init =
        run({kArena.string(), "season", "init", dir().string(), "--roster", (temp_.path() / "AUTHORS.txt").string()},
            temp_.path());
    ASSERT_EQ(init.status.code, 0) << init.summary();
    ASSERT_NE(init.out.find("season in " + dir().string() + ": 2 authors"), std::string::npos) << init.out;
    std::string config = read_file(dir() / "season.toml");
    // The bundled bots by their paths in a folder the sandbox's users can reach (a clone under /root is mode
    // 0700, and the arena finds its bundled bots beside itself). The gate at 0.3: ada (the rightmost pit) scores
    // about 60% against kalah-random, and each season draws its gate games from its own seed secret: 20 once gave 45%.
    const std::string random = "\"" + reachable(kRandom).string() + "\"",
                      greedy = "\"" + reachable(kGreedy).string() + "\"";
    for (auto [from, to] : {std::pair<std::string, std::string>{"max_upload_kb = 1024", "max_upload_kb = 8"},
                            {"max_files = 100", "max_files = 3"},
                            {"min_score = 0.6", "min_score = 0.3"},
                            // The ladder's analysis has tests of its own (season_analysis_e2e_test).
                            {"ladder_analysis = true", "ladder_analysis = false"},
                            {"opponent = \"kalah-random\"", "opponent = " + random},
                            {"cmd = \"kalah-random\"", "cmd = " + random},
                            {"cmd = \"kalah-greedy\"", "cmd = " + greedy}})
      config.replace(config.find(from), from.size(), to);
    write_file(dir() / "season.toml", config);
    for (const std::string& line : read_lines(dir() / "tokens.txt"))
      if (!line.starts_with("#")) tokens_[line.substr(0, line.find(' '))] = line.substr(line.find(' ') + 1);
    ASSERT_EQ(tokens_.size(), 2u);
    start();
  }

  void start() {
    server_.reset();
    server_ = std::make_unique<Server>(
        temp_.path(),
        std::vector<std::string>{"--season", (dir() / "season.toml").string(), "--listen", "127.0.0.1:0"});
    ASSERT_NE(server_->port(), 0) << server_->err();
  }

  // season.toml with `from` replaced by `to` (its server stopped).
  void edit(const std::string& from, const std::string& to) {
    std::string text = read_file(dir() / "season.toml");
    ASSERT_NE(text.find(from), std::string::npos) << from;
    text.replace(text.find(from), from.size(), to);
    write_file(dir() / "season.toml", text);
  }
  fs::path dir() const { return temp_.path() / "term"; }
  // Every file under revisions/, with its size: what a refused upload must leave as it was.
  std::map<std::string, std::uintmax_t> stored() const {
    std::map<std::string, std::uintmax_t> files;
    for (const auto& e : fs::recursive_directory_iterator(dir() / "revisions"))
      files[e.path().string()] = e.is_regular_file() ? e.file_size() : 0;
    return files;
  }

  system::TempFolder temp_{"season-e2e"};
  std::map<std::string, std::string> tokens_;
  std::unique_ptr<Server> server_;
};

// POST /api/submissions as `curl -F file=@NAME` sends it, with `authorization` as the Authorization header.
inline Response upload(unsigned short port, const std::string& authorization, const std::string& filename,
                       const std::string& content, const std::string& field = "file") {
  const std::string boundary = "------------------------d74496d66958873e";
  test::HttpHeaders headers{{"Content-Type", "multipart/form-data; boundary=" + boundary}};
  if (!authorization.empty()) headers.emplace_back("Authorization", authorization);
  const std::string body = "--" + boundary + "\r\nContent-Disposition: form-data; name=\"" + field + "\"; filename=\"" +
                           filename + "\"\r\nContent-Type: application/octet-stream\r\n\r\n" + content + "\r\n--" +
                           boundary + "--\r\n";
  return test::http_request(port, "/api/submissions", http::verb::post, headers, body);
}

inline std::string bearer(const std::string& token) { return "Bearer " + token; }

// The author's revision `number` once its status is final (bounded: the build, check and gate of a small bot).
// `pending`: the statuses to wait past.
inline json::object finished(unsigned short port, const std::string& token, const std::string& author, int number,
                             const std::set<std::string>& pending = {"queued", "building"}) {
  json::object last;
  for (int i = 0; i < 900; ++i) {
    const Response r =
        request(port, "/api/submissions/" + author, http::verb::get, {{"Authorization", "Bearer " + token}});
    const json::value page = json::parse(r.body);
    for (const json::value& revision : page.at("revisions").as_array())
      if (revision.at("revision") == number) last = revision.as_object();
    const json::value* status = last.if_contains("status");
    if (status && !pending.contains(std::string(status->as_string()))) return last;
    std::this_thread::sleep_for(200ms);
  }
  return last;
}

inline std::string source(const char* relative) { return read_file(fs::path(KALAH_SOURCE_DIR) / relative); }

// The ladder's journal, DIR/results/ladder/games.jsonl: each game's id, South and North.
struct LadderGame {
  std::string id, south, north;
};
inline std::vector<LadderGame> ladder_games(const fs::path& season) {
  std::vector<LadderGame> games;
  const fs::path journal = season / "results" / "ladder" / "games.jsonl";
  if (!fs::exists(journal)) return games;
  for (const std::string& line : read_lines(journal)) {
    boost::system::error_code ec;
    const json::value game = json::parse(line, ec);
    if (ec || !game.is_object()) continue;  // a line being written
    games.push_back({std::string(game.at("id").as_string()), std::string(game.at("south").as_string()),
                     std::string(game.at("north").as_string())});
  }
  return games;
}

inline bool plays_in(const std::vector<LadderGame>& games, const std::string& bot) {
  return std::any_of(games.begin(), games.end(), [&](const LadderGame& g) { return g.south == bot || g.north == bot; });
}

// The ladder's games once `done` says they are enough (bounded: a few games of small bots).
inline std::vector<LadderGame> ladder_until(const fs::path& season,
                                            const std::function<bool(const std::vector<LadderGame>&)>& done) {
  std::vector<LadderGame> games;
  for (int i = 0; i < 1500 && !done(games = ladder_games(season)); ++i) std::this_thread::sleep_for(200ms);
  return games;
}

// The ladder's standings as `arena serve` computes them (the report service's standings.json), by engine name.
inline std::map<std::string, json::object> ladder_standings(unsigned short port) {
  std::map<std::string, json::object> rows;
  const Response r = request(port, "/api/tournaments/ladder/standings");
  if (r.status != 200) return rows;
  const json::value standings = json::parse(r.body);
  for (const json::value& e : standings.at("engines").as_array())
    rows[std::string(e.at("name").as_string())] = e.as_object();
  return rows;
}

}  // namespace kalah::e2e::season_util
