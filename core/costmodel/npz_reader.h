// Reading numpy's .npz archives (np.savez / np.savez_compressed: a zip file, one entry
// `<key>.npy` per array, stored or deflated) and the .npy arrays inside them, for TpuGraphs'
// published collections (costmodel/tpugraphs.h).
//
// .npy: magic "\x93NUMPY", version 1.x (2-byte header length), 2.x or 3.x (4-byte), then a
// Python dict literal {'descr': ..., 'fortran_order': False, 'shape': (...), }. Supported:
// booleans ('|b1'), signed and unsigned integers of 1, 2, 4 and 8 bytes, floats of 4 and 8
// bytes, little- or big-endian ('<', '>', '|', '=' as little-endian); C order only.
//
// Bounded on hostile input: an entry whose declared size is over `maxEntryBytes` is refused
// before anything is read, the shape's byte count (overflow-checked) must equal the entry's
// size less its header before the data is allocated, and the buffer grows only as decompressed
// bytes actually arrive. Every problem is a gp::Error(path, "KEY: problem") — one line naming
// the file, the key and what is wrong.
#pragma once
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace gp {

enum class NpyKind : uint8_t { Bool, Int, UInt, Float };

// One array, its bytes converted to this machine's byte order, C order.
struct NpyArray {
  NpyKind kind = NpyKind::Float;
  int itemSize = 4;              // bytes per element: 1, 2, 4 or 8
  std::string descr;             // as written, e.g. "<f4"
  std::vector<int64_t> shape;    // () is a scalar: one element
  std::vector<unsigned char> data;

  int64_t numElements() const { return itemSize > 0 ? static_cast<int64_t>(data.size()) / itemSize : 0; }
  std::string shapeText() const;  // "(3, 4)", "(5,)", "()"

  // Every element converted. toInt64 refuses (std::invalid_argument) an element that is not an
  // integer in int64's range (a fraction, a NaN, a uint64 over 2^63 - 1); the others never fail.
  std::vector<double> toDouble() const;
  std::vector<float> toFloat() const;
  std::vector<int64_t> toInt64() const;
};

inline constexpr uint64_t kNpzMaxEntryBytes = uint64_t{2} << 30;  // 2 GiB per array

// Parses one whole .npy image. Throws gp::Error(source, "KEY: problem").
NpyArray parseNpy(const unsigned char* bytes, uint64_t size, const std::string& source, const std::string& key,
                  uint64_t maxBytes = kNpzMaxEntryBytes);

class NpzFile {
 public:
  // Opens the archive; throws gp::Error(path, ...) when it is missing, unreadable, truncated
  // or not a zip archive.
  explicit NpzFile(const std::string& path, uint64_t maxEntryBytes = kNpzMaxEntryBytes);
  ~NpzFile();
  NpzFile(const NpzFile&) = delete;
  NpzFile& operator=(const NpzFile&) = delete;

  const std::string& path() const { return path_; }
  std::vector<std::string> keys() const;  // entry names without ".npy", in archive order
  bool has(const std::string& key) const;
  // The array `key` (entry "<key>.npy"); throws gp::Error(path, "KEY: problem"), "missing"
  // when the archive has no such entry.
  NpyArray read(const std::string& key) const;

 private:
  struct Impl;
  std::string path_;
  uint64_t maxEntryBytes_;
  std::unique_ptr<Impl> impl_;
};

}  // namespace gp
