// The body of an upload (docs/SEASON.md): multipart/form-data (RFC 7578) as a browser form or `curl -F file=@bot.py`
// sends it, with one field, `file`. Every byte is hostile: the body is already bounded by the server, and here the
// boundary, the number of parts and each part's headers are bounded too; nothing is copied but the file's name.
#pragma once

#include <string>
#include <string_view>

#include "referee/rules/expected.h"

namespace kalah::season {

inline constexpr std::size_t kMaxBoundaryLength = 70;     // RFC 2046
inline constexpr std::size_t kMaxParts = 4;               // parts looked at before the body is refused
inline constexpr std::size_t kMaxPartHeaderBytes = 2048;  // one part's header lines together
inline constexpr std::size_t kMaxFileNameLength = 255;    // as sent, before upload.h's rule of a name

// The boundary of a `multipart/form-data; boundary=...` Content-Type (a token or a quoted string, 1 to 70 of
// RFC 2046's characters); an error text for any other Content-Type.
Expected<std::string> multipart_boundary(std::string_view content_type);

struct FormFile {
  std::string filename;      // as the part's Content-Disposition says, without any folder a client put before it
  std::string_view content;  // into the body
};

// The one field `file` of the form, with its file name. Refused: another Content-Type, a body that does not start
// with the boundary or never closes, a part without the blank line after its headers within kMaxPartHeaderBytes,
// a part that is not `form-data` or has no name, a field other than `file`, `file` twice, or without a file name,
// more than kMaxParts parts, no `file` at all.
Expected<FormFile> parse_form_file(std::string_view content_type, std::string_view body);

}  // namespace kalah::season
