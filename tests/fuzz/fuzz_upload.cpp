// What a season's server reads from an author (docs/SEASON.md, docs/SECURITY.md): the body of an upload as
// multipart/form-data, and the uploaded file as a .tar.gz, a .zip or a source file, checked and unpacked into a
// scratch folder. The first byte picks what the rest is; whatever it holds, nothing crashes, and an upload that
// is checked as acceptable unpacks (never a server error later), leaving only regular files (no mode bit beyond
// 0644) and folders (0755) inside the folder it was unpacked into.
#include <sys/stat.h>

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <string_view>
#include <system_error>

#include "arena/season/multipart.h"
#include "arena/season/upload.h"
#include "referee/system/temp_folder.h"

namespace {

namespace fs = std::filesystem;

const fs::path& scratch() {
  static const kalah::system::TempFolder dir("kalah-fuzz-upload", std::nothrow);
  if (dir.path().empty()) std::abort();
  return dir.path();
}

// Every entry under `into` is a regular file 0644 or a folder 0755, none a link, and none outside it.
void check_unpacked(const fs::path& into) {
  std::error_code ec;
  for (fs::recursive_directory_iterator it(into, fs::directory_options::none, ec), end; !ec && it != end;
       it.increment(ec)) {
    struct stat st {};
    if (::lstat(it->path().c_str(), &st) != 0) std::abort();
    // No mode bit beyond 0644 for a file or 0755 for a folder, whatever the archive said (the umask may take more).
    const mode_t mode = st.st_mode & 07777;
    if (S_ISREG(st.st_mode) ? (mode & ~0644) != 0 : !S_ISDIR(st.st_mode) || (mode & ~0755) != 0) std::abort();
    const fs::path relative = it->path().lexically_relative(into);
    if (relative.empty() || *relative.begin() == "..") std::abort();
  }
  if (ec) std::abort();
}

void unpack(std::string_view name, std::string_view content) {
  const fs::path into = scratch() / "into";
  fs::remove_all(into);
  fs::create_directory(into);
  kalah::season::UploadLimits limits;
  limits.max_files = 16;
  limits.max_unpacked_bytes = 1 << 16;
  kalah::season::UploadSummary checked, written;
  const bool accepted = !kalah::season::inspect_upload(name, content, limits, checked);
  // What inspect_upload accepts, unpack_upload writes; what it refuses, nothing is written.
  const bool unpacked = !kalah::season::unpack_upload(name, content, limits, written, &into);
  if (accepted != unpacked) std::abort();
  if (unpacked && (written.files != checked.files || written.unpacked_bytes != checked.unpacked_bytes)) std::abort();
  if (unpacked) check_unpacked(into);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  const std::string_view rest(reinterpret_cast<const char*>(data) + 1, size - 1);
  switch (data[0] % 4) {
    case 0: {  // a form: the Content-Type's line, then the body
      const std::size_t newline = rest.find('\n');
      const std::string_view content_type = rest.substr(0, newline);
      const std::string_view body = newline == std::string_view::npos ? std::string_view() : rest.substr(newline + 1);
      (void)kalah::season::multipart_boundary(content_type);
      if (auto form = kalah::season::parse_form_file(content_type, body)) {
        const char* begin = form->content.data();
        if (form->content.size() > body.size() || begin < body.data() ||
            begin + form->content.size() > body.data() + body.size())
          std::abort();  // the file's bytes are a view into the body
      }
      break;
    }
    case 1: unpack("bot.tar.gz", rest); break;
    case 2: unpack("bot.zip", rest); break;
    default: unpack("bot.py", rest); break;
  }
  return 0;
}
