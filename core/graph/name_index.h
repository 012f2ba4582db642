// NameIndex: name -> id lookup for names stored in a std::vector<std::string> owned elsewhere.
// Open addressing over ids (no copies of the names, no pointers into them), so the owner can
// be copied or moved freely and the index stays valid. ~8 bytes per slot, load <= 1/2.
#pragma once
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace gp {

class NameIndex {
 public:
  using Names = std::vector<std::string>;

  // The id whose name is `name`, or -1.
  int32_t find(std::string_view name, const Names& names) const;
  // Adds `id` (whose name is names[id]); false if that name is already present.
  bool insert(int32_t id, const Names& names);
  void clear();
  void reserve(size_t n);
  int64_t memoryBytes() const;

 private:
  static uint32_t hashOf(std::string_view s);
  void grow();

  std::vector<int32_t> slots_;   // -1: empty; size is a power of two
  std::vector<uint32_t> hashes_;  // hash of the name in the same slot
  size_t size_ = 0;
};

}  // namespace gp
