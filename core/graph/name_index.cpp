#include "graph/name_index.h"

#include <functional>

namespace gp {

uint32_t NameIndex::hashOf(std::string_view s) {
  const auto h = std::hash<std::string_view>{}(s);
  return static_cast<uint32_t>(h ^ (h >> 32));
}

int32_t NameIndex::find(std::string_view name, const Names& names) const {
  if (slots_.empty()) return -1;
  const uint32_t h = hashOf(name);
  const size_t mask = slots_.size() - 1;
  for (size_t i = h & mask;; i = (i + 1) & mask) {
    const int32_t id = slots_[i];
    if (id < 0) return -1;
    if (hashes_[i] == h && names[id] == name) return id;
  }
}

bool NameIndex::insert(int32_t id, const Names& names) {
  if ((size_ + 1) * 2 > slots_.size()) grow();
  const uint32_t h = hashOf(names[id]);
  const size_t mask = slots_.size() - 1;
  for (size_t i = h & mask;; i = (i + 1) & mask) {
    const int32_t other = slots_[i];
    if (other < 0) {
      slots_[i] = id;
      hashes_[i] = h;
      ++size_;
      return true;
    }
    if (hashes_[i] == h && names[other] == names[id]) return false;
  }
}

void NameIndex::grow() {
  std::vector<int32_t> old = std::move(slots_);
  std::vector<uint32_t> oldHashes = std::move(hashes_);
  const size_t n = old.empty() ? 64 : old.size() * 2;
  slots_.assign(n, -1);
  hashes_.assign(n, 0);
  const size_t mask = n - 1;
  for (size_t k = 0; k < old.size(); ++k) {
    if (old[k] < 0) continue;
    size_t i = oldHashes[k] & mask;
    while (slots_[i] >= 0) i = (i + 1) & mask;
    slots_[i] = old[k];
    hashes_[i] = oldHashes[k];
  }
}

void NameIndex::reserve(size_t n) {
  while (slots_.size() < 2 * n) grow();
}

void NameIndex::clear() {
  slots_.clear();
  hashes_.clear();
  size_ = 0;
}

int64_t NameIndex::memoryBytes() const {
  return static_cast<int64_t>(slots_.capacity() * sizeof(int32_t) + hashes_.capacity() * sizeof(uint32_t));
}

}  // namespace gp
