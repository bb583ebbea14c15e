// Tournament configs for tests whose TOML text is not itself the point: the tables a run needs, written
// in one order ([tournament], the other tables as first named, then every [[engine]]). A test of the
// config's parsing or of a message's line:column keeps its literal text instead.
//
//   test::TestConfig("e2e").output(dir / "results").set("rounds", 2).time("depth = 1")
//       .engine("r", e2e::kRandom).engine("g", e2e::kGreedy).write(dir / "e2e.toml");
#pragma once

#include <filesystem>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "tests/files.h"

namespace kalah::test {

// `text` as a TOML basic string: quoted, with '"' and '\' escaped.
inline std::string toml_string(std::string_view text) {
  std::string out = "\"";
  for (const char c : text) {
    if (c == '"' || c == '\\') out += '\\';
    out += c;
  }
  return out + "\"";
}

class TestConfig {
 public:
  explicit TestConfig(std::string_view name) { set("name", name); }

  // A key of [tournament]: a string (quoted here), a number or a boolean.
  TestConfig& set(std::string_view key, std::string_view value) { return raw(key, toml_string(value)); }
  TestConfig& set(std::string_view key, const char* value) { return set(key, std::string_view(value)); }
  TestConfig& set(std::string_view key, long long value) { return raw(key, std::to_string(value)); }
  TestConfig& set(std::string_view key, int value) { return set(key, static_cast<long long>(value)); }
  TestConfig& set(std::string_view key, bool value) { return raw(key, value ? "true" : "false"); }
  // A key of [tournament] with its value written as TOML ("[1, 2]", "{ a = 1 }").
  TestConfig& raw(std::string_view key, std::string_view toml) {
    tournament_ += std::string(key) + " = " + std::string(toml) + "\n";
    return *this;
  }

  // More lines of [tournament], as TOML ("type = \"swiss\"\nrounds = 4").
  TestConfig& tournament(std::string_view lines) {
    tournament_ += with_newline(lines);
    return *this;
  }

  // The results folder, with no progress lines (tournament.output, progress_interval = 0).
  TestConfig& output(const std::filesystem::path& dir) {
    return set("output", dir.string()).set("progress_interval", 0);
  }

  // The lines of a table other than [tournament] and [[engine]], added to it if it is there already:
  // table("time", "depth = 1"), table("openings", "random_plies = 2").
  TestConfig& table(std::string_view name, std::string_view lines) {
    for (auto& [named, body] : tables_)
      if (named == name) {
        body += with_newline(lines);
        return *this;
      }
    tables_.emplace_back(std::string(name), with_newline(lines));
    return *this;
  }
  TestConfig& time(std::string_view lines) { return table("time", lines); }

  // An [[engine]] running `cmd`, with more lines of its table if given (`args = ["--seed", "7"]`).
  TestConfig& engine(std::string_view name, const std::filesystem::path& cmd, std::string_view lines = "") {
    engines_ += "\n[[engine]]\nname = " + toml_string(name) + "\ncmd = " + toml_string(cmd.string()) + "\n" +
                (lines.empty() ? std::string() : with_newline(lines));
    return *this;
  }

  std::string text() const {
    std::string out = "[tournament]\n" + tournament_;
    for (const auto& [name, body] : tables_) out += "\n[" + name + "]\n" + body;
    return out + engines_;
  }

  // Writes text() to `file` and returns its path.
  std::filesystem::path write(const std::filesystem::path& file) const {
    write_file(file, text());
    return file;
  }

 private:
  static std::string with_newline(std::string_view lines) {
    std::string out(lines);
    if (!out.empty() && out.back() != '\n') out += '\n';
    return out;
  }

  std::string tournament_;
  std::vector<std::pair<std::string, std::string>> tables_;
  std::string engines_;
};

}  // namespace kalah::test
