// What the tests of `arena serve`'s pages in a real browser share (serve_browser_test, season_e2e_test): Debian's
// chromium, headless, driven by tests/browser/serve_page.js with the npm package playwright-core (installed by
// `npm ci --prefix tests/browser`; .ci/run does).
#pragma once

#include <optional>
#include <string>

#include <boost/json.hpp>
#include <gtest/gtest.h>

#include "tests/e2e_util.h"

namespace kalah::e2e::browser {

inline const fs::path kChromium = "/usr/bin/chromium", kNode = "/usr/bin/node";

// Chromium, Node and playwright-core, or why the test is skipped.
inline std::optional<std::string> missing_browser(const fs::path& scratch) {
  if (!fs::exists(kChromium)) return "chromium is not installed (apt-get install chromium)";
  if (!fs::exists(kNode)) return "node is not installed (apt-get install nodejs npm)";
  if (run({kNode.string(), "-e", "require('" KALAH_SOURCE_DIR "/tests/browser/node_modules/playwright-core')"}, scratch,
          std::chrono::seconds(30))
          .status.code != 0)
    return "playwright-core is not installed (npm ci --prefix " KALAH_SOURCE_DIR "/tests/browser)";
  return std::nullopt;
}

// tests/browser/serve_page.js opened at `url` until the page shows what `check` asks for; its state as JSON (null
// after a failure, which is reported with `server_err`, the server's standard error).
inline boost::json::value open_page(const fs::path& scratch, const std::string& url, const std::string& check,
                                    const std::string& server_err) {
  static int profiles = 0;
  const RunResult page = run({kNode.string(), KALAH_SOURCE_DIR "/tests/browser/serve_page.js", kChromium.string(),
                              (scratch / ("profile" + std::to_string(++profiles))).string(), url, check, "360"},
                             scratch, std::chrono::seconds(120));
  EXPECT_EQ(page.status.code, 0) << check << ": " << page.summary() << server_err;
  return page.status.code == 0 ? boost::json::parse(page.out) : boost::json::value();
}

}  // namespace kalah::e2e::browser
