// A season's author page (docs/SEASON.md, "The author's page"): /author.html and its script /author.js, served like
// the tournament page (no inline script, the same style sheet). The author gives their name and token (typed in,
// or in the link's fragment, which never reaches the server); the script asks GET /api/submissions/AUTHOR with
// the token for the revisions, their statuses, reasons and logs, and the ladder's standings and games lists for
// the author's revisions: their rows and their games, each a link to the viewer; and the perfect-play analysis of their
// games from their JSON, each lost game's move that lost it a link to the viewer at that ply. Every string is shown as
// text.
#pragma once

#include <string_view>

namespace kalah::serve {

std::string_view author_html();
std::string_view author_script();

}  // namespace kalah::serve
