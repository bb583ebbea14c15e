// The browser page `arena serve` sends (docs/SERVE.md, "The page"): one HTML document, its script and its style
// sheet, each served from its own path, so that the Content-Security-Policy allows no inline script or style.
// The script reads the JSON API and the live stream (EventSource) of this same server and shows every string
// it received as text (textContent), never as markup. No CDN, no other host.
#pragma once

#include <optional>
#include <string_view>

namespace kalah::serve {

struct PageFile {
  std::string_view content_type;
  std::string_view body;
};

// The file served at `name` ("index.html", "app.js", "app.css"); none for any other.
std::optional<PageFile> page_file(std::string_view name);

// The policy every page file is sent with: this server's own script, style and API only.
inline constexpr std::string_view kPagePolicy =
    "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self'; "
    "base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

}  // namespace kalah::serve
