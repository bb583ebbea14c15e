// Boost.JSON values as text, numbers written the way people write them.
//
// Boost 1.81's serializer prints every double in exponent form (12.5 as 1.25E1), which makes
// journals and reports hard to read by eye; this writer prints the shortest text that reads back
// to the same double (12.5, 1234.5, 0.1). It never writes nan or inf: a non-finite double becomes
// null. Strings are checked for UTF-8: an invalid byte becomes U+FFFD, so whatever an engine sent
// (a protocol line in a forfeit detail) cannot make a line unreadable.
#pragma once

#include <string>

#include <boost/json/value.hpp>

namespace kalah {

struct JsonTextOptions {
  int indent = 0;          // 0: one line, no spaces; otherwise pretty-printed with this indent
  bool html_safe = false;  // write < > & as \u003c \u003e \u0026 (for embedding in <script>)
};

std::string json_text(const boost::json::value& value, const JsonTextOptions& options = {});

// Appends one JSON string literal, quotes included.
void append_json_string(std::string& out, std::string_view text, bool html_safe = false);

// The shortest decimal text that reads back to `x` ("12.5", "3", "1e+21"); "null" if not finite.
std::string json_number(double x);

}  // namespace kalah
