#pragma once
// LLVM's code, kept on disk between runs of `thorin run` (as Python keeps
// bytecode in __pycache__): a function whose IR is the same as in an earlier
// run is linked from the object file that run compiled, without optimizing
// or generating code again (some 30–60 ms for a function of a few hundred
// instructions on a cold process).
//
// An entry is named by the SHA-256 of everything its object depends on: the
// module's IR (which embeds the addresses of the runtime's cells and
// functions), LLVM's version, the target's CPU and features, and the build
// IDs of the executable and every library loaded (so a rebuilt thorin or
// plugin never meets an old entry). Entries are written to a temporary file
// and renamed, so a reader sees a whole object or none; one that does not
// link is compiled again. The directory belongs to the user (created 0700,
// refused if another user can write to it).

#include <llvm/ExecutionEngine/ObjectCache.h>
#include <llvm/IR/Module.h>
#include <llvm/Support/MemoryBuffer.h>

#include <memory>
#include <string>

namespace thorin::rt {

class CodeCache : public llvm::ObjectCache {
public:
  /// The cache in `dir` (made if missing), or nullptr if it cannot be used.
  /// `target` names the code generator's configuration (CPU, features).
  static std::unique_ptr<CodeCache> open(const std::string& dir, const std::string& target);
  /// The key of `m` as it is before optimization.
  std::string key(llvm::Module& m) const;
  /// The object compiled for `key` by an earlier run, if any.
  std::unique_ptr<llvm::MemoryBuffer> find(const std::string& key) const;
  /// Drops the entry for `key` (its object did not link).
  void forget(const std::string& key) const;
  /// (ORC's hook: stores the object of a module named by its key.)
  void notifyObjectCompiled(const llvm::Module* m, llvm::MemoryBufferRef obj) override;
  std::unique_ptr<llvm::MemoryBuffer> getObject(const llvm::Module*) override { return nullptr; }
  /// Marks `m`, whose key is `key`, to be stored once compiled.
  static void name(llvm::Module& m, const std::string& key);

private:
  CodeCache(std::string dir, std::string target)
      : dir_(std::move(dir)), target_(std::move(target)) {}
  std::string path(const std::string& key) const { return dir_ + "/" + key + ".o"; }
  void trim() const;
  std::string dir_, target_;
  size_t writes_ = 0;
};

} // namespace thorin::rt
