#include "referee/game/seed_secret.h"

#include <sys/random.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>

#include <cerrno>
#include <cstring>
#include <stdexcept>

namespace kalah {
namespace {

std::array<unsigned char, 32> hmac_sha256(const std::array<unsigned char, SeedSecret::kBytes>& key,
                                          std::string_view label) {
  std::array<unsigned char, 32> out{};
  unsigned int size = 0;
  if (HMAC(EVP_sha256(), key.data(), static_cast<int>(key.size()), reinterpret_cast<const unsigned char*>(label.data()),
           label.size(), out.data(), &size) == nullptr ||
      size != out.size())
    throw std::runtime_error("HMAC-SHA-256 failed (OpenSSL)");
  return out;
}

int hex_value(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  return -1;
}

}  // namespace

SeedSecret SeedSecret::random() {
  SeedSecret s;
  std::size_t filled = 0;
  while (filled < s.key_.size()) {
    const ssize_t got = ::getrandom(s.key_.data() + filled, s.key_.size() - filled, 0);
    if (got < 0) {
      if (errno == EINTR) continue;
      throw std::runtime_error(std::string("getrandom: ") + std::strerror(errno));
    }
    filled += static_cast<std::size_t>(got);
  }
  return s;
}

Expected<SeedSecret> SeedSecret::from_hex(std::string_view text) {
  if (text.size() != 2 * kBytes)
    return Error{"a seed secret is " + std::to_string(2 * kBytes) + " hex digits, not " + std::to_string(text.size()) +
                 " characters"};
  SeedSecret s;
  for (std::size_t i = 0; i < kBytes; ++i) {
    const int hi = hex_value(text[2 * i]), lo = hex_value(text[2 * i + 1]);
    if (hi < 0 || lo < 0) return Error{"a seed secret holds only the hex digits 0-9 and a-f"};
    s.key_[i] = static_cast<unsigned char>(hi * 16 + lo);
  }
  return s;
}

std::string SeedSecret::hex() const {
  static constexpr char kDigits[] = "0123456789abcdef";
  std::string out;
  out.reserve(2 * kBytes);
  for (unsigned char b : key_) {
    out += kDigits[b >> 4];
    out += kDigits[b & 0xf];
  }
  return out;
}

std::uint32_t SeedSecret::seed_for(std::string_view label) const {
  const std::array<unsigned char, 32> mac = hmac_sha256(key_, label);
  std::uint32_t v = 0;
  for (int i = 0; i < 4; ++i) v = (v << 8) | mac[static_cast<std::size_t>(i)];
  return v & 0x7fffffffU;
}

std::uint64_t SeedSecret::number_for(std::string_view label) const {
  const std::array<unsigned char, 32> mac = hmac_sha256(key_, label);
  std::uint64_t v = 0;
  for (int i = 0; i < 8; ++i) v = (v << 8) | mac[static_cast<std::size_t>(i)];
  return v & 0x7fffffffffffffffULL;
}

}  // namespace kalah
