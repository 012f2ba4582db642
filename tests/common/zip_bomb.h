// A zip bomb shaped like a PyTorch archive: one record of 64 MiB of zeros, deflated to about
// 64 KiB (PyTorch itself stores its records uncompressed).
#pragma once
#include <zip.h>

#include <string>
#include <vector>

namespace gptest {

inline constexpr const char* kZipBombRecord = "bomb/data/0";
inline constexpr size_t kZipBombBytes = size_t{64} << 20;

// Writes it to `path`; returns false when libzip fails.
inline bool writeZipBomb(const std::string& path) {
  int error = 0;
  zip_t* z = zip_open(path.c_str(), ZIP_CREATE | ZIP_TRUNCATE, &error);
  if (!z) return false;
  static const std::vector<char> zeros(kZipBombBytes, 0);
  zip_source_t* s = zip_source_buffer(z, zeros.data(), zeros.size(), 0);
  const zip_int64_t i = s ? zip_file_add(z, kZipBombRecord, s, ZIP_FL_OVERWRITE) : -1;
  if (i < 0 || zip_set_file_compression(z, static_cast<zip_uint64_t>(i), ZIP_CM_DEFLATE, 9) != 0) {
    if (i < 0 && s) zip_source_free(s);
    zip_discard(z);
    return false;
  }
  return zip_close(z) == 0;
}

}  // namespace gptest
