// A fresh folder for temporary files — the one helper the product and the tests share: under $TMPDIR (or
// the system's temporary folder), named `<prefix>-XXXXXX`, mode 0700, removed with everything in it when
// the object goes, without following a link inside it (remove_tree).
#pragma once

#include <filesystem>
#include <string>
#include <string_view>

namespace kalah::system {

class TempFolder {
 public:
  // path() is empty when the folder could not be made (error() says why).
  explicit TempFolder(std::string_view prefix = "kalah");
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
