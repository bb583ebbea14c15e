#include "arena/integrity/sha256.h"

#include <array>
#include <cassert>
#include <cerrno>
#include <cstring>

#include <openssl/evp.h>

#include "referee/system/files.h"
#include "referee/system/untrusted_files.h"

namespace kalah::integrity {

struct Sha256::State {
  struct Free {
    void operator()(EVP_MD_CTX* ctx) const { EVP_MD_CTX_free(ctx); }
  };
  std::unique_ptr<EVP_MD_CTX, Free> ctx{EVP_MD_CTX_new()};
};

Sha256::Sha256() : state_(std::make_unique<State>()) {
  // Only an out-of-memory can fail here, which the arena does not survive anyway.
  [[maybe_unused]] const int ok = state_->ctx && EVP_DigestInit_ex(state_->ctx.get(), EVP_sha256(), nullptr);
  assert(ok == 1);
}
Sha256::Sha256(Sha256&&) noexcept = default;
Sha256& Sha256::operator=(Sha256&&) noexcept = default;
Sha256::~Sha256() = default;

void Sha256::update(std::string_view data) {
  [[maybe_unused]] const int ok = EVP_DigestUpdate(state_->ctx.get(), data.data(), data.size());
  assert(ok == 1);
}

std::string Sha256::hex() {
  std::array<unsigned char, EVP_MAX_MD_SIZE> digest{};
  unsigned int size = 0;
  [[maybe_unused]] const int ok = EVP_DigestFinal_ex(state_->ctx.get(), digest.data(), &size);
  assert(ok == 1 && size == 32);
  static constexpr char kDigits[] = "0123456789abcdef";
  std::string out;
  for (unsigned int i = 0; i < size; ++i) {
    out += kDigits[digest[i] >> 4];
    out += kDigits[digest[i] & 15];
  }
  return out;
}

std::string sha256_hex(std::string_view data) {
  Sha256 sha;
  sha.update(data);
  return sha.hex();
}

Expected<std::string> sha256_file(const std::filesystem::path& file, bool follow_link) {
  auto opened = system::open_regular_file(file, follow_link);
  if (!opened) return Error{opened.error()};
  system::FileHandle fd(opened->first);
  Sha256 sha;
  if (auto error = system::read_bounded(
          fd.get(), kMaxDigestedFile, [&](std::string_view piece) { sha.update(piece); }, file.string()))
    return Error{*error};
  return sha.hex();
}

}  // namespace kalah::integrity
