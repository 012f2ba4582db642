#include "io/torch_archive.h"

#include <zip.h>

#include <filesystem>
#include <memory>

#include "base/error.h"

namespace gp {

void checkTorchArchive(const std::string& path) {
  std::error_code ec;
  const uint64_t fileBytes = std::filesystem::file_size(path, ec);
  if (ec) return;  // the loader reports a missing or unreadable file
  int error = 0;
  std::unique_ptr<zip_t, decltype(&zip_discard)> archive(zip_open(path.c_str(), ZIP_RDONLY, &error), zip_discard);
  if (!archive) return;
  const zip_int64_t entries = zip_get_num_entries(archive.get(), 0);
  if (entries > kMaxTorchArchiveEntries)
    throw Error(path, "the archive holds " + std::to_string(entries) + " records, over the limit of " +
                          std::to_string(kMaxTorchArchiveEntries));
  constexpr uint64_t kMiB = uint64_t{1} << 20;
  const uint64_t maxTotal = 4 * fileBytes + 256 * kMiB;
  uint64_t total = 0;
  for (zip_int64_t i = 0; i < entries; ++i) {
    zip_stat_t st;
    zip_stat_init(&st);
    if (zip_stat_index(archive.get(), static_cast<zip_uint64_t>(i), 0, &st) != 0) continue;
    if (!(st.valid & ZIP_STAT_SIZE) || !(st.valid & ZIP_STAT_COMP_SIZE)) continue;
    const std::string name = (st.valid & ZIP_STAT_NAME) && st.name ? st.name : "#" + std::to_string(i);
    if (st.size > kMiB && st.size / kMaxTorchCompression > st.comp_size)
      throw Error(path, "record " + name + " expands " + std::to_string(st.comp_size) + " bytes to " +
                            std::to_string(st.size) + ", over " + std::to_string(kMaxTorchCompression) +
                            " times (a zip bomb?)");
    total += st.size;
    if (total > maxTotal)
      throw Error(path, "the records expand to more than " + std::to_string(maxTotal) + " bytes from a " +
                            std::to_string(fileBytes) + "-byte file (a zip bomb?)");
  }
}

}  // namespace gp
