// The browser page `arena serve` sends (docs/SERVE.md, "The page"): one HTML document, its script and its style
// sheet, each served from its own path, so that the Content-Security-Policy allows no inline script or style.
// The script reads the JSON API and the live stream (EventSource) of this same server and shows every string
// it received as text (textContent), never as markup. No CDN, no other host.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "arena/analysis/quality.h"
#include "referee/record/record.h"

namespace kalah::serve {

struct PageFile {
  std::string_view content_type;
  std::string_view body;
};

// The file served at `name` ("index.html", "app.js", "app.css", and the game viewer's "viewer.js",
// "viewer-analysis.js" (with what a game's analysis adds) and "viewer.css": report.html's viewer, as files; a
// season's author page, "author.html" and "author.js": author_page.h); none for any other.
std::optional<PageFile> page_file(std::string_view name);

// A finished game in the viewer of report.html (arena/report/html_viewer.h): its markup, the game's replay as a
// JSON data block (computed by the rules library, as report.html embeds its games) and /viewer.js; with its
// `judgement` (the tournament's analysis), each ply's value and loss and the move that lost, shown by
// /viewer-analysis.js, as report.html shows them. `token`: the one the page was asked with, for its link back to
// the tournament.
std::string game_page(std::string_view tournament, const GameRecord& game,
                      const std::optional<analysis::GameJudgement>& judgement, const std::optional<std::string>& token);

// The policy every page file is sent with: this server's own script, style and API only.
inline constexpr std::string_view kPagePolicy =
    "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self'; "
    "base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

}  // namespace kalah::serve
