#include "costmodel/npz_reader.h"

#include <zip.h>

#include <algorithm>
#include <cctype>
#include <bit>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <limits>
#include <stdexcept>
#include <system_error>
#include <type_traits>

#include "base/error.h"

namespace gp {
namespace {

constexpr uint64_t kMaxHeaderBytes = 1 << 20;  // numpy itself reads at most 10,000 by default
constexpr size_t kMaxDims = 64;
constexpr uint64_t kReadChunk = uint64_t{64} << 20;  // the data buffer grows by at most this much per read

// Python's tuple notation: "(3, 4)", "(5,)", "()".
std::string shapeText(const std::vector<int64_t>& shape) {
  std::string s = "(";
  for (size_t i = 0; i < shape.size(); ++i) s += (i ? ", " : "") + std::to_string(shape[i]);
  return s + (shape.size() == 1 ? ",)" : ")");
}

std::string number(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.17g", v);
  return buf;
}

[[noreturn]] void fail(const std::string& source, const std::string& key, const std::string& problem) {
  throw Error(source, key + ": " + problem);
}

// A parsed .npy header: dtype, shape, and the byte count of magic + length + header text.
struct NpyHeader {
  NpyKind kind = NpyKind::Float;
  int itemSize = 0;
  bool swap = false;  // stored in the other byte order than this machine's
  std::string descr;
  std::vector<int64_t> shape;
  uint64_t dataBytes = 0;
};

// The Python dict literal numpy writes: {'descr': '<f4', 'fortran_order': False, 'shape': (3, 4), }
class HeaderParser {
 public:
  HeaderParser(const std::string& text, const std::string& source, const std::string& key)
      : s_(text), source_(source), key_(key) {}

  NpyHeader parse(uint64_t maxBytes) {
    NpyHeader h;
    bool haveDescr = false, haveOrder = false, haveShape = false;
    expect('{');
    while (true) {
      skipSpace();
      if (peek() == '}') break;
      const std::string name = quoted();
      skipSpace();
      expect(':');
      skipSpace();
      if (name == "descr") {
        if (peek() != '\'' && peek() != '"') bad("a structured dtype (only plain numeric dtypes are read)");
        h.descr = quoted();
        haveDescr = true;
      } else if (name == "fortran_order") {
        const std::string word = identifier();
        if (word == "True") bad("Fortran order (only C order is read)");
        if (word != "False") bad("fortran_order is '" + word + "', not True or False");
        haveOrder = true;
      } else if (name == "shape") {
        h.shape = tuple();
        haveShape = true;
      } else {
        bad("unknown header key '" + name + "'");
      }
      skipSpace();
      if (peek() == ',') {
        ++pos_;
        continue;
      }
      skipSpace();
      if (peek() != '}') bad("header is not a dict literal (expected ',' or '}')");
    }
    ++pos_;
    skipSpace();
    if (pos_ != s_.size()) bad("header has text after its closing '}'");
    if (!haveDescr || !haveOrder || !haveShape) bad("header lacks one of 'descr', 'fortran_order', 'shape'");
    dtype(h);
    // Element count and bytes, overflow-checked against the limit.
    bool zero = false, over = false;
    uint64_t count = 1;
    for (int64_t d : h.shape) {
      if (d == 0) zero = true;
      else if (count > maxBytes / static_cast<uint64_t>(d)) over = true;
      else count *= static_cast<uint64_t>(d);
    }
    if (zero) count = 0;
    if (!zero && (over || count > maxBytes / static_cast<uint64_t>(h.itemSize)))
      bad("shape " + shapeText(h.shape) + " of '" + h.descr + "' is over the limit of " + std::to_string(maxBytes) +
          " bytes");
    h.dataBytes = count * static_cast<uint64_t>(h.itemSize);
    return h;
  }

 private:
  [[noreturn]] void bad(const std::string& problem) { fail(source_, key_, "bad .npy header: " + problem); }
  char peek() const { return pos_ < s_.size() ? s_[pos_] : '\0'; }
  void skipSpace() {
    while (pos_ < s_.size() && (s_[pos_] == ' ' || s_[pos_] == '\n' || s_[pos_] == '\t' || s_[pos_] == '\r')) ++pos_;
  }
  void expect(char c) {
    skipSpace();
    if (peek() != c) bad(std::string("expected '") + c + "'");
    ++pos_;
  }
  std::string quoted() {
    const char q = peek();
    if (q != '\'' && q != '"') bad("expected a quoted key");
    const size_t end = s_.find(q, pos_ + 1);
    if (end == std::string::npos) bad("unterminated string");
    std::string out = s_.substr(pos_ + 1, end - pos_ - 1);
    pos_ = end + 1;
    return out;
  }
  std::string identifier() {
    const size_t start = pos_;
    while (pos_ < s_.size() && std::isalpha(static_cast<unsigned char>(s_[pos_]))) ++pos_;
    return s_.substr(start, pos_ - start);
  }
  std::vector<int64_t> tuple() {
    std::vector<int64_t> dims;
    expect('(');
    while (true) {
      skipSpace();
      if (peek() == ')') break;
      if (!std::isdigit(static_cast<unsigned char>(peek()))) bad("shape holds something other than non-negative integers");
      uint64_t v = 0;
      while (std::isdigit(static_cast<unsigned char>(peek()))) {
        v = v * 10 + static_cast<uint64_t>(peek() - '0');
        if (v > static_cast<uint64_t>(std::numeric_limits<int64_t>::max())) bad("a shape dimension is too large");
        ++pos_;
      }
      if (peek() == 'L') ++pos_;  // Python 2's long literals
      dims.push_back(static_cast<int64_t>(v));
      if (dims.size() > kMaxDims) bad("shape has over " + std::to_string(kMaxDims) + " dimensions");
      skipSpace();
      if (peek() == ',') {
        ++pos_;
        continue;
      }
      skipSpace();
      if (peek() != ')') bad("shape is not a tuple of integers");
    }
    ++pos_;
    return dims;
  }
  void dtype(NpyHeader& h) {
    const std::string& d = h.descr;
    const auto unsupported = [&] {
      bad("dtype '" + d + "' is not read (booleans, integers, float32 and float64 are)");
    };
    if (d.size() < 3 || d.size() > 4) unsupported();
    const char order = d[0], kind = d[1];
    if (order != '<' && order != '>' && order != '|' && order != '=') unsupported();
    int size = 0;
    for (size_t i = 2; i < d.size(); ++i) {
      if (!std::isdigit(static_cast<unsigned char>(d[i]))) unsupported();
      size = size * 10 + (d[i] - '0');
    }
    switch (kind) {
      case 'b': h.kind = NpyKind::Bool; if (size != 1) unsupported(); break;
      case 'i': h.kind = NpyKind::Int; break;
      case 'u': h.kind = NpyKind::UInt; break;
      case 'f': h.kind = NpyKind::Float; if (size != 4 && size != 8) unsupported(); break;
      default: unsupported();
    }
    if (size != 1 && size != 2 && size != 4 && size != 8) unsupported();
    h.itemSize = size;
    const bool big = order == '>';
    h.swap = size > 1 && big != (std::endian::native == std::endian::big);
  }

  const std::string& s_;
  const std::string& source_;
  const std::string& key_;
  size_t pos_ = 0;
};

// Magic and version (8 bytes): the count of header-length bytes that follow (2 or 4).
int lengthBytes(const unsigned char* p, const std::string& source, const std::string& key) {
  static const unsigned char magic[6] = {0x93, 'N', 'U', 'M', 'P', 'Y'};
  if (std::memcmp(p, magic, 6) != 0) fail(source, key, "not a .npy array (no \\x93NUMPY magic)");
  if (p[6] == 1) return 2;
  if (p[6] == 2 || p[6] == 3) return 4;
  fail(source, key, "unsupported .npy version " + std::to_string(p[6]) + "." + std::to_string(p[7]));
}

uint64_t headerLength(const unsigned char* p, int bytes) {
  uint64_t n = 0;
  for (int i = bytes - 1; i >= 0; --i) n = (n << 8) | p[i];
  return n;
}

void swapBytes(std::vector<unsigned char>& data, int itemSize) {
  for (size_t i = 0; i + static_cast<size_t>(itemSize) <= data.size(); i += static_cast<size_t>(itemSize))
    std::reverse(data.begin() + static_cast<std::ptrdiff_t>(i), data.begin() + static_cast<std::ptrdiff_t>(i) + itemSize);
}

NpyArray makeArray(NpyHeader&& h, std::vector<unsigned char>&& data) {
  if (h.swap) swapBytes(data, h.itemSize);
  NpyArray a;
  a.kind = h.kind;
  a.itemSize = h.itemSize;
  a.descr = std::move(h.descr);
  a.shape = std::move(h.shape);
  a.data = std::move(data);
  return a;
}

std::string zipMessage(int code) {
  zip_error_t e;
  zip_error_init_with_code(&e, code);
  std::string m = zip_error_strerror(&e);
  zip_error_fini(&e);
  return m;
}

// Calls f(element as T) for every element, T the array's own C++ type.
template <class F>
void forEach(const NpyArray& a, F&& f) {
  const unsigned char* p = a.data.data();
  const int64_t n = a.numElements();
  const auto each = [&]<class T>(T) {
    for (int64_t i = 0; i < n; ++i) {
      T v;
      std::memcpy(&v, p + i * static_cast<int64_t>(sizeof(T)), sizeof(T));
      f(v);
    }
  };
  switch (a.kind) {
    case NpyKind::Bool: each(uint8_t{}); break;
    case NpyKind::Float: a.itemSize == 4 ? each(float{}) : each(double{}); break;
    case NpyKind::Int:
      switch (a.itemSize) {
        case 1: each(int8_t{}); break;
        case 2: each(int16_t{}); break;
        case 4: each(int32_t{}); break;
        default: each(int64_t{}); break;
      }
      break;
    case NpyKind::UInt:
      switch (a.itemSize) {
        case 1: each(uint8_t{}); break;
        case 2: each(uint16_t{}); break;
        case 4: each(uint32_t{}); break;
        default: each(uint64_t{}); break;
      }
      break;
  }
}

}  // namespace

std::string NpyArray::shapeText() const { return gp::shapeText(shape); }

std::vector<double> NpyArray::toDouble() const {
  std::vector<double> out;
  out.reserve(static_cast<size_t>(numElements()));
  forEach(*this, [&](auto v) { out.push_back(static_cast<double>(v)); });
  return out;
}

std::vector<float> NpyArray::toFloat() const {
  std::vector<float> out;
  out.reserve(static_cast<size_t>(numElements()));
  forEach(*this, [&](auto v) { out.push_back(static_cast<float>(v)); });
  return out;
}

std::vector<int64_t> NpyArray::toInt64() const {
  std::vector<int64_t> out;
  out.reserve(static_cast<size_t>(numElements()));
  forEach(*this, [&]<class T>(T v) {
    if constexpr (std::is_floating_point_v<T>) {
      // 2^63 is exactly representable; anything at or above it is not an int64.
      if (!(std::isfinite(v) && v == std::trunc(v) && v >= -0x1p63 && v < 0x1p63))
        throw std::invalid_argument("value " + number(v) + " is not an integer");
    } else if constexpr (std::is_same_v<T, uint64_t>) {
      if (v > static_cast<uint64_t>(std::numeric_limits<int64_t>::max()))
        throw std::invalid_argument("value " + std::to_string(v) + " is over int64's range");
    }
    out.push_back(static_cast<int64_t>(v));
  });
  return out;
}

NpyArray parseNpy(const unsigned char* bytes, uint64_t size, const std::string& source, const std::string& key,
                  uint64_t maxBytes) {
  if (size < 8) fail(source, key, "truncated .npy (" + std::to_string(size) + " bytes)");
  const int lenBytes = lengthBytes(bytes, source, key);
  if (size < 8 + static_cast<uint64_t>(lenBytes)) fail(source, key, "truncated .npy header");
  const uint64_t headerLen = headerLength(bytes + 8, lenBytes);
  const uint64_t start = 8 + static_cast<uint64_t>(lenBytes);
  if (headerLen > kMaxHeaderBytes) fail(source, key, "bad .npy header: " + std::to_string(headerLen) + " bytes long");
  if (size - start < headerLen) fail(source, key, "truncated .npy header");
  const std::string text(reinterpret_cast<const char*>(bytes + start), headerLen);
  NpyHeader h = HeaderParser(text, source, key).parse(maxBytes);
  const uint64_t have = size - start - headerLen;
  if (have != h.dataBytes)
    fail(source, key, "shape " + shapeText(h.shape) + " of '" + h.descr + "' needs " + std::to_string(h.dataBytes) +
                          " bytes, the array holds " + std::to_string(have));
  std::vector<unsigned char> data(bytes + start + headerLen, bytes + size);
  return makeArray(std::move(h), std::move(data));
}

struct NpzFile::Impl {
  zip_t* archive = nullptr;
  ~Impl() {
    if (archive) zip_discard(archive);
  }
};

NpzFile::NpzFile(const std::string& path, uint64_t maxEntryBytes)
    : path_(path), maxEntryBytes_(maxEntryBytes), impl_(std::make_unique<Impl>()) {
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec)) throw Error(path, "is a directory, not an .npz file");
  int code = 0;
  impl_->archive = zip_open(path.c_str(), ZIP_RDONLY | ZIP_CHECKCONS, &code);
  if (!impl_->archive) {
    if (code == ZIP_ER_NOENT) throw Error(path, "no such file");
    if (code == ZIP_ER_NOZIP || code == ZIP_ER_INCONS)
      throw Error(path, "not a readable .npz (zip) archive: truncated or another format (" + zipMessage(code) + ")");
    throw Error(path, "cannot open as an .npz (zip) archive: " + zipMessage(code));
  }
  if (zip_get_num_entries(impl_->archive, 0) <= 0) throw Error(path, "the .npz archive holds no arrays");
}

NpzFile::~NpzFile() = default;

std::vector<std::string> NpzFile::keys() const {
  std::vector<std::string> out;
  const zip_int64_t n = zip_get_num_entries(impl_->archive, 0);
  for (zip_int64_t i = 0; i < n; ++i) {
    const char* name = zip_get_name(impl_->archive, static_cast<zip_uint64_t>(i), ZIP_FL_ENC_RAW);
    if (!name) continue;
    std::string s = name;
    if (s.size() > 4 && s.compare(s.size() - 4, 4, ".npy") == 0) s.resize(s.size() - 4);
    out.push_back(std::move(s));
  }
  return out;
}

bool NpzFile::has(const std::string& key) const {
  return zip_name_locate(impl_->archive, (key + ".npy").c_str(), ZIP_FL_ENC_RAW) >= 0;
}

NpyArray NpzFile::read(const std::string& key) const {
  const std::string entry = key + ".npy";
  const zip_int64_t index = zip_name_locate(impl_->archive, entry.c_str(), ZIP_FL_ENC_RAW);
  if (index < 0) fail(path_, key, "missing (the archive has no entry " + entry + ")");
  zip_stat_t st;
  zip_stat_init(&st);
  if (zip_stat_index(impl_->archive, static_cast<zip_uint64_t>(index), 0, &st) != 0 || !(st.valid & ZIP_STAT_SIZE))
    fail(path_, key, std::string("cannot read the entry's size: ") + zip_strerror(impl_->archive));
  const uint64_t size = st.size;
  if (size > maxEntryBytes_)
    fail(path_, key, "entry of " + std::to_string(size) + " bytes is over the limit of " + std::to_string(maxEntryBytes_));

  std::unique_ptr<zip_file_t, int (*)(zip_file_t*)> file(
      zip_fopen_index(impl_->archive, static_cast<zip_uint64_t>(index), 0), zip_fclose);
  if (!file) fail(path_, key, std::string("cannot read the entry: ") + zip_strerror(impl_->archive));
  // Reads exactly n bytes; a short read is a truncated entry, a failed one names libzip's reason
  // (a CRC mismatch, a damaged deflate stream).
  const auto readExactly = [&](unsigned char* into, uint64_t n, const char* what) {
    uint64_t got = 0;
    while (got < n) {
      const zip_int64_t r = zip_fread(file.get(), into + got, n - got);
      if (r < 0) fail(path_, key, std::string("cannot read the entry: ") + zip_file_strerror(file.get()));
      if (r == 0) fail(path_, key, std::string("truncated ") + what);
      got += static_cast<uint64_t>(r);
    }
  };

  unsigned char pre[12];
  if (size < 8) fail(path_, key, "truncated .npy (" + std::to_string(size) + " bytes)");
  readExactly(pre, 8, ".npy (no complete magic)");
  const int lenBytes = lengthBytes(pre, path_, key);
  if (size < 8 + static_cast<uint64_t>(lenBytes)) fail(path_, key, "truncated .npy header");
  readExactly(pre + 8, static_cast<uint64_t>(lenBytes), ".npy header");
  const uint64_t headerLen = headerLength(pre + 8, lenBytes);
  const uint64_t start = 8 + static_cast<uint64_t>(lenBytes);
  if (headerLen > kMaxHeaderBytes) fail(path_, key, "bad .npy header: " + std::to_string(headerLen) + " bytes long");
  if (size - start < headerLen) fail(path_, key, "truncated .npy header");
  std::string text(headerLen, '\0');
  readExactly(reinterpret_cast<unsigned char*>(text.data()), headerLen, ".npy header");
  NpyHeader h = HeaderParser(text, path_, key).parse(maxEntryBytes_);
  const uint64_t have = size - start - headerLen;
  if (have != h.dataBytes)
    fail(path_, key, "shape " + shapeText(h.shape) + " of '" + h.descr + "' needs " + std::to_string(h.dataBytes) +
                         " bytes, the entry holds " + std::to_string(have));

  // The entry's declared size is now known to match the shape; still grow the buffer only as
  // bytes arrive, so a lying size in a tiny deflated entry cannot make us allocate much.
  std::vector<unsigned char> data;
  while (data.size() < h.dataBytes) {
    const uint64_t old = data.size();
    const uint64_t step = std::min<uint64_t>(h.dataBytes - old, kReadChunk);
    data.resize(old + step);
    readExactly(data.data() + old, step, "array data");
  }
  // One more read must find the end: it is also where libzip checks the entry's CRC.
  unsigned char extra;
  const zip_int64_t r = zip_fread(file.get(), &extra, 1);
  if (r < 0) fail(path_, key, std::string("cannot read the entry: ") + zip_file_strerror(file.get()));
  if (r > 0) fail(path_, key, "the entry holds more bytes than its zip header declares");
  return makeArray(std::move(h), std::move(data));
}

}  // namespace gp
