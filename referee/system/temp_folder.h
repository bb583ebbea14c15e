// A fresh folder for temporary files — the one helper the product and the tests share: under $TMPDIR (or
// the system's temporary folder), named `<prefix>-XXXXXX`, mode 0700, removed with everything in it when
// the object goes, without following a link inside it (remove_tree). An absolute prefix places the
// folder itself ("/tmp/kalah-bin": in /tmp whatever $TMPDIR says).
#pragma once

#include <filesystem>
#include <new>
#include <string>
#include <string_view>

namespace kalah::system {

class TempFolder {
 public:
  // Throws std::runtime_error (with error()'s text) when the folder cannot be made: for callers with no
  // error path of their own, the tests.
  explicit TempFolder(std::string_view prefix = "kalah");
  // path() is empty when the folder could not be made (error() says why): for callers that report it.
  TempFolder(std::string_view prefix, const std::nothrow_t&);
  TempFolder(TempFolder&& other) noexcept;
  TempFolder& operator=(TempFolder&& other) noexcept;
  TempFolder(const TempFolder&) = delete;
  TempFolder& operator=(const TempFolder&) = delete;
  ~TempFolder();

  const std::filesystem::path& path() const { return path_; }
  std::filesystem::path operator/(std::string_view name) const { return path_ / name; }
  const std::string& error() const { return error_; }

 private:
  std::filesystem::path path_;
  std::string error_;
};

}  // namespace kalah::system
