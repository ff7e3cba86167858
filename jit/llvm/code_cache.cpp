#include "code_cache.hpp"

#include <dirent.h>
#include <elf.h>
#include <fcntl.h>
#include <link.h>
#include <sys/stat.h>
#include <unistd.h>

#include <llvm/ADT/StringExtras.h>
#include <llvm/Config/llvm-config.h>
#include <llvm/Support/SHA256.h>
#include <llvm/Support/raw_ostream.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <vector>

namespace thorin::rt {

namespace {

constexpr int kFormat = 1;           // (bump when what an entry holds changes)
constexpr size_t kMaxEntries = 4096; // past it, the older half is removed
const char kNamePrefix[] = "thorin.cache.";

// Each loaded object's build ID (or, without one, its path, size and
// modification time), sorted: what the code may call or depend on.
std::string loadedObjects() {
  std::vector<std::string> ids;
  dl_iterate_phdr(
      [](dl_phdr_info* info, size_t, void* data) {
        auto& out = *static_cast<std::vector<std::string>*>(data);
        for (int i = 0; i < info->dlpi_phnum; ++i) {
          const ElfW(Phdr)& ph = info->dlpi_phdr[i];
          if (ph.p_type != PT_NOTE) continue;
          auto* p = reinterpret_cast<const char*>(info->dlpi_addr + ph.p_vaddr);
          const char* end = p + ph.p_memsz;
          while (p + sizeof(ElfW(Nhdr)) <= end) {
            auto* n = reinterpret_cast<const ElfW(Nhdr)*>(p);
            const char* name = p + sizeof(ElfW(Nhdr));
            const char* desc = name + ((n->n_namesz + 3) & ~3u);
            if (n->n_type == NT_GNU_BUILD_ID && n->n_namesz == 4 &&
                std::memcmp(name, "GNU", 4) == 0) {
              out.push_back(llvm::toHex(
                  llvm::ArrayRef<uint8_t>(reinterpret_cast<const uint8_t*>(desc), n->n_descsz)));
              return 0;
            }
            p = desc + ((n->n_descsz + 3) & ~3u);
          }
        }
        struct stat st {};
        const char* path = info->dlpi_name && *info->dlpi_name ? info->dlpi_name : "/proc/self/exe";
        std::string id = path;
        if (stat(path, &st) == 0)
          id += ":" + std::to_string(st.st_size) + ":" + std::to_string(st.st_mtim.tv_sec) + "." +
                std::to_string(st.st_mtim.tv_nsec);
        out.push_back(id);
        return 0;
      },
      &ids);
  std::sort(ids.begin(), ids.end());
  std::string s;
  for (auto& id : ids)
    s += id + "\n";
  return s;
}

} // namespace

std::unique_ptr<CodeCache> CodeCache::open(const std::string& dir, const std::string& target) {
  if (dir.empty()) return nullptr;
  // Made with its parents (each 0700); used only if it is the user's own
  // and nobody else may write to it (its entries are run as code).
  for (size_t i = 1; i <= dir.size(); ++i)
    if (i == dir.size() || dir[i] == '/') {
      std::string part = dir.substr(0, i);
      if (mkdir(part.c_str(), 0700) != 0 && errno != EEXIST) return nullptr;
    }
  struct stat st {};
  if (stat(dir.c_str(), &st) != 0 || !S_ISDIR(st.st_mode) || st.st_uid != geteuid() ||
      (st.st_mode & (S_IWGRP | S_IWOTH)) || access(dir.c_str(), W_OK) != 0)
    return nullptr;
  return std::unique_ptr<CodeCache>(new CodeCache(dir, target));
}

std::string CodeCache::key(llvm::Module& m) const {
  // (The module's name counts compilations: not part of its meaning.)
  std::string id = m.getModuleIdentifier(), source = m.getSourceFileName();
  m.setModuleIdentifier("");
  m.setSourceFileName("");
  std::string text;
  llvm::raw_string_ostream os(text);
  m.print(os, nullptr);
  m.setModuleIdentifier(id);
  m.setSourceFileName(source);
  llvm::SHA256 h;
  h.update(std::to_string(kFormat) + "\n" LLVM_VERSION_STRING "\n");
  h.update(target_ + "\n");
  h.update(loadedObjects());
  h.update(text);
  return llvm::toHex(h.final(), /*LowerCase=*/true);
}

std::unique_ptr<llvm::MemoryBuffer> CodeCache::find(const std::string& key) const {
  auto buf = llvm::MemoryBuffer::getFile(path(key), /*IsText=*/false,
                                         /*RequiresNullTerminator=*/false);
  if (!buf) return nullptr;
  utimensat(AT_FDCWD, path(key).c_str(), nullptr, 0); // (recently used: trim() keeps it)
  return std::move(*buf);
}

void CodeCache::forget(const std::string& key) const { unlink(path(key).c_str()); }

void CodeCache::name(llvm::Module& m, const std::string& key) {
  m.setModuleIdentifier(kNamePrefix + key);
}

void CodeCache::notifyObjectCompiled(const llvm::Module* m, llvm::MemoryBufferRef obj) {
  llvm::StringRef id = m->getModuleIdentifier();
  if (!id.consume_front(kNamePrefix)) return;
  std::string final = path(id.str());
  std::string tmp = final + ".tmp" + std::to_string(getpid());
  int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
  if (fd < 0) return; // (a full disk or a read-only cache: the code is still used)
  const char* p = obj.getBufferStart();
  size_t left = obj.getBufferSize();
  while (left > 0) {
    ssize_t n = write(fd, p, left);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    p += n;
    left -= size_t(n);
  }
  bool ok = left == 0 && close(fd) == 0;
  if (!ok || rename(tmp.c_str(), final.c_str()) != 0) {
    unlink(tmp.c_str());
    return;
  }
  if (writes_++ % 256 == 0) trim(); // (a directory listing: not at every write)
}

// Keeps the directory bounded: past kMaxEntries objects, the older half goes.
void CodeCache::trim() const {
  DIR* d = opendir(dir_.c_str());
  if (!d) return;
  std::vector<std::pair<timespec, std::string>> entries;
  while (dirent* e = readdir(d)) {
    std::string n = e->d_name;
    if (n.size() < 2 || n.compare(n.size() - 2, 2, ".o") != 0) continue;
    struct stat st {};
    if (stat((dir_ + "/" + n).c_str(), &st) == 0) entries.push_back({st.st_mtim, n});
  }
  closedir(d);
  if (entries.size() <= kMaxEntries) return;
  std::sort(entries.begin(), entries.end(), [](const auto& a, const auto& b) {
    return a.first.tv_sec != b.first.tv_sec ? a.first.tv_sec < b.first.tv_sec
                                            : a.first.tv_nsec < b.first.tv_nsec;
  });
  for (size_t i = 0; i < entries.size() / 2; ++i)
    unlink((dir_ + "/" + entries[i].second).c_str());
}

} // namespace thorin::rt
