// A small git repository for the tests of SPRTs between commits: files written and committed through the
// real git, each commit's hash at hand.
#pragma once

#include <gtest/gtest.h>

#include <map>
#include <string>
#include <vector>

#include "e2e_util.h"

namespace kalah::e2e {

class GitRepo {
 public:
  explicit GitRepo(const fs::path& dir) : dir_(dir) {
    fs::create_directories(dir_);
    git({"init", "-q", "-b", "main"});
  }
  // Writes `files` (name -> text) and commits them; returns the commit's hash.
  std::string commit(const std::map<std::string, std::string>& files, const std::string& message) {
    for (const auto& [name, text] : files) {
      write_file(dir_ / name, text);
      git({"add", name});
    }
    git({"-c", "user.name=test", "-c", "user.email=test@example.org", "commit", "-q", "-m", message});
    std::string hash = git({"rev-parse", "HEAD"});
    while (!hash.empty() && hash.back() == '\n') hash.pop_back();
    return hash;
  }
  std::string git(std::vector<std::string> args) {
    args.insert(args.begin(), {"/usr/bin/git", "-C", dir_.string()});
    RunResult r = run(args, dir_.parent_path());
    EXPECT_EQ(r.status.code, 0) << r.summary();
    return r.out;
  }
  const fs::path& dir() const { return dir_; }

 private:
  fs::path dir_;
};

}  // namespace kalah::e2e
