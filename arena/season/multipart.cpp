#include "arena/season/multipart.h"

#include <optional>
#include <utility>
#include <vector>

namespace kalah::season {
namespace {

char lower_char(char c) { return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c; }

bool iequals(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i)
    if (lower_char(a[i]) != lower_char(b[i])) return false;
  return true;
}

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
  return s;
}

bool boundary_char(char c) {
  return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
         std::string_view("'()+_,-./:=? ").find(c) != std::string_view::npos;
}

// A header value's `type; key=value; key="quoted value"` split into the type and its parameters (keys
// lower-cased). None when a quoted string does not close or holds a control byte.
struct Parameters {
  std::string type;
  std::vector<std::pair<std::string, std::string>> values;
  const std::string* find(std::string_view key) const {
    for (const auto& [k, v] : values)
      if (k == key) return &v;
    return nullptr;
  }
};

std::optional<Parameters> split_parameters(std::string_view value) {
  Parameters out;
  std::size_t at = value.find(';');
  for (char c : trim(value.substr(0, at))) out.type += lower_char(c);
  while (at != std::string_view::npos && at < value.size()) {
    std::string_view rest = value.substr(at + 1);
    const std::size_t eq = rest.find('=');
    if (eq == std::string_view::npos) return std::nullopt;
    std::string key;
    for (char c : trim(rest.substr(0, eq))) key += lower_char(c);
    std::size_t i = eq + 1;
    while (i < rest.size() && (rest[i] == ' ' || rest[i] == '\t')) ++i;
    std::string text;
    if (i < rest.size() && rest[i] == '"') {
      for (++i;; ++i) {
        if (i >= rest.size()) return std::nullopt;
        if (rest[i] == '"') break;
        if (rest[i] == '\\' && i + 1 < rest.size()) ++i;
        if (static_cast<unsigned char>(rest[i]) < 0x20 && rest[i] != '\t') return std::nullopt;
        text += rest[i];
      }
      const std::size_t next = rest.find(';', i);
      if (trim(rest.substr(i + 1, next == std::string_view::npos ? std::string_view::npos : next - i - 1)).size())
        return std::nullopt;
      at = next == std::string_view::npos ? next : at + 1 + next;
    } else {
      const std::size_t next = rest.find(';', i);
      text = std::string(trim(rest.substr(i, next == std::string_view::npos ? std::string_view::npos : next - i)));
      at = next == std::string_view::npos ? next : at + 1 + next;
    }
    if (key.empty()) return std::nullopt;
    out.values.emplace_back(std::move(key), std::move(text));
  }
  return out;
}

// One part's headers: its field name and file name from Content-Disposition.
struct PartHead {
  std::string name;
  std::optional<std::string> filename;
};

Expected<PartHead> read_part_head(std::string_view head) {
  std::optional<Parameters> disposition;
  while (!head.empty()) {
    const std::size_t end = head.find("\r\n");
    const std::string_view line = head.substr(0, end);
    head = end == std::string_view::npos ? std::string_view{} : head.substr(end + 2);
    for (char c : line)
      if ((static_cast<unsigned char>(c) < 0x20 && c != '\t') || c == 0x7f)
        return Error{"a part's header holds a control byte"};
    const std::size_t colon = line.find(':');
    if (colon == std::string_view::npos || colon == 0) return Error{"a part's header line is not `Name: value`"};
    if (!iequals(trim(line.substr(0, colon)), "content-disposition")) continue;
    if (disposition) return Error{"a part has two Content-Disposition headers"};
    disposition = split_parameters(line.substr(colon + 1));
    if (!disposition) return Error{"a part's Content-Disposition cannot be read"};
  }
  if (!disposition || disposition->type != "form-data") return Error{"a part is not `Content-Disposition: form-data`"};
  const std::string* name = disposition->find("name");
  if (!name) return Error{"a part has no field name"};
  PartHead out{*name, std::nullopt};
  if (const std::string* filename = disposition->find("filename")) out.filename = *filename;
  return out;
}

// The file name without the folders some clients send before it ("C:\\Users\\me\\bot.py" -> "bot.py").
std::string base_name(std::string_view name) {
  const std::size_t slash = name.find_last_of("/\\");
  return std::string(slash == std::string_view::npos ? name : name.substr(slash + 1));
}

}  // namespace

Expected<std::string> multipart_boundary(std::string_view content_type) {
  const std::optional<Parameters> p = split_parameters(content_type);
  if (!p || p->type != "multipart/form-data")
    return Error{"the upload must be multipart/form-data (a form, or curl -F file=@bot.py)"};
  const std::string* boundary = p->find("boundary");
  if (!boundary || boundary->empty() || boundary->size() > kMaxBoundaryLength || boundary->back() == ' ')
    return Error{"multipart/form-data needs a boundary of 1 to 70 characters"};
  for (char c : *boundary)
    if (!boundary_char(c)) return Error{"the multipart boundary holds a character RFC 2046 does not allow"};
  return *boundary;
}

Expected<FormFile> parse_form_file(std::string_view content_type, std::string_view body) {
  Expected<std::string> boundary = multipart_boundary(content_type);
  if (!boundary) return Error{boundary.error()};
  const std::string delimiter = "\r\n--" + *boundary;
  // The first delimiter opens the body, or follows a preamble and its line break.
  std::size_t at =
      body.starts_with(std::string_view(delimiter).substr(2)) ? delimiter.size() - 2 : body.find(delimiter);
  if (at == std::string_view::npos) return Error{"the body does not hold the multipart boundary"};
  if (at != delimiter.size() - 2) at += delimiter.size();
  std::optional<FormFile> file;
  for (std::size_t parts = 0;; ++parts) {
    std::string_view rest = body.substr(at);
    if (rest.starts_with("--")) break;  // the close delimiter: what follows is an epilogue
    while (!rest.empty() && (rest.front() == ' ' || rest.front() == '\t')) rest.remove_prefix(1);
    if (!rest.starts_with("\r\n")) return Error{"a multipart boundary is not followed by a line break"};
    if (parts == kMaxParts) return Error{"the form has more than " + std::to_string(kMaxParts) + " parts"};
    rest.remove_prefix(2);
    const std::size_t head_end = rest.substr(0, kMaxPartHeaderBytes + 4).find("\r\n\r\n");
    std::size_t content_start = head_end + 4;
    if (rest.starts_with("\r\n"))
      content_start = 2;  // a part without headers
    else if (head_end == std::string_view::npos)
      return Error{"a part's headers do not end within " + std::to_string(kMaxPartHeaderBytes) + " bytes"};
    Expected<PartHead> head = read_part_head(rest.substr(0, content_start == 2 ? 0 : head_end));
    if (!head) return Error{head.error()};
    const std::size_t content_end = rest.find(delimiter, content_start);
    if (content_end == std::string_view::npos) return Error{"the body ends inside a part (no closing boundary)"};
    if (head->name != "file")
      return Error{"unexpected field \"" + head->name.substr(0, 64) + "\": the form has one field, file"};
    if (file) return Error{"the field file is sent twice: an upload is one file"};
    if (!head->filename || base_name(*head->filename).empty())
      return Error{"the field file has no file name (send a file: curl -F file=@bot.py)"};
    if (head->filename->size() > kMaxFileNameLength) return Error{"the file's name is longer than 255 bytes"};
    file = FormFile{base_name(*head->filename), rest.substr(content_start, content_end - content_start)};
    at = static_cast<std::size_t>(rest.data() - body.data()) + content_end + delimiter.size();
  }
  if (!file) return Error{"the form has no field file"};
  return std::move(file).value();
}

}  // namespace kalah::season
