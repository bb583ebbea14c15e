#include "arena/journal/seed_secret_file.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <string>

#include "referee/system/files.h"
#include "referee/system/untrusted_files.h"

namespace kalah::journal {
namespace fs = std::filesystem;

namespace {

// The file's whole content: the hex digits and a newline.
constexpr std::size_t kFileBytes = 2 * SeedSecret::kBytes + 1;

Expected<SeedSecret> read_secret(const fs::path& file) {
  Expected<std::string> text = system::read_regular_file(file, kFileBytes + 1);
  if (!text) return Error{text.error()};
  std::string_view digits = *text;
  if (!digits.empty() && digits.back() == '\n') digits.remove_suffix(1);
  Expected<SeedSecret> secret = SeedSecret::from_hex(digits);
  if (!secret) return Error{file.string() + ": " + secret.error()};
  return secret;
}

}  // namespace

Expected<SeedSecret> load_or_make_seed_secret(const fs::path& results_dir) {
  const fs::path file = results_dir / kSeedSecretFile;
  std::error_code ec;
  if (fs::symlink_status(file, ec).type() != fs::file_type::not_found) return read_secret(file);
  return install_seed_secret(results_dir, SeedSecret::random());
}

Expected<SeedSecret> install_seed_secret(const fs::path& results_dir, const SeedSecret& made) {
  const fs::path file = results_dir / kSeedSecretFile;
  std::error_code ec;
  if (fs::symlink_status(file, ec).type() != fs::file_type::not_found) return read_secret(file);
  fs::create_directories(results_dir, ec);
  if (ec) return Error{system::system_error_text(results_dir, "cannot create the folder")};
  const fs::path temp = results_dir / ("." + std::string(kSeedSecretFile) + ".tmp-" + std::to_string(::getpid()));
  const int fd = ::open(temp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
  if (fd < 0) return Error{system::system_error_text(temp, "cannot create")};
  std::optional<std::string> error = system::write_all(fd, made.hex() + "\n", temp);
  if (!error && ::fsync(fd) != 0) error = system::system_error_text(temp, "cannot sync");
  ::close(fd);
  if (!error && ::link(temp.c_str(), file.c_str()) != 0 && errno != EEXIST)
    error = system::system_error_text(file, "cannot create");
  ::unlink(temp.c_str());
  if (error) return Error{*error};
  if (std::optional<std::string> synced = system::sync_directory(results_dir)) return Error{*synced};
  // Ours, or the one another process linked first.
  return read_secret(file);
}

}  // namespace kalah::journal
