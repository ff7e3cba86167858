#include "llvm_hint.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <climits>
#include <cstdint>
#include <cstdio>
#include <cstdlib>

#include <fmt/format.h>

namespace thorin {

namespace {
// FNV-1a: a marker's name, not a security boundary (a collision only loads
// LLVM early).
void fnv(uint64_t& h, const char* p, size_t n) {
  for (size_t i = 0; i < n; ++i) {
    h ^= uint8_t(p[i]);
    h *= 0x100000001b3;
  }
}
} // namespace

LlvmHint::LlvmHint(const std::string& cacheDir, const std::string& file) {
  if (cacheDir.empty()) return;
  char real[PATH_MAX];
  if (!realpath(file.c_str(), real)) return;
  std::FILE* f = std::fopen(real, "rb");
  if (!f) return;
  uint64_t h = 0xcbf29ce484222325;
  fnv(h, real, std::char_traits<char>::length(real) + 1);
  char buf[1 << 16];
  size_t n, total = 0;
  while ((n = std::fread(buf, 1, sizeof buf, f)) > 0 && total < (size_t(64) << 20)) {
    fnv(h, buf, n);
    total += n;
  }
  std::fclose(f);
  dir_ = cacheDir + "/runs";
  marker_ = dir_ + fmt::format("/{:016x}", h);
  expected_ = access(marker_.c_str(), F_OK) == 0;
}

void LlvmHint::record(bool usedLlvm) const {
  if (marker_.empty() || usedLlvm == expected_) return;
  if (!usedLlvm) {
    unlink(marker_.c_str());
    return;
  }
  // (Only inside a cache directory LLVM's tier made and accepted.)
  if (mkdir(dir_.c_str(), 0700) != 0 && errno != EEXIST) return;
  int fd = open(marker_.c_str(), O_WRONLY | O_CREAT | O_CLOEXEC, 0600);
  if (fd >= 0) close(fd);
}

} // namespace thorin
