// The .npz / .npy reader (costmodel/npz_reader.h) and TpuGraphs' collections read into cost-model
// datasets (costmodel/tpugraphs.h). The test writes its own .npz files in numpy's format
// (np.savez: one stored entry "<key>.npy" per array; np.savez_compressed: deflated) with
// libzip, reads them back field by field, and checks that damaged or inconsistent files give
// one-line errors naming the file and the problem.
#include <gtest/gtest.h>
#include <unistd.h>
#include <zip.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <limits>
#include <string>
#include <utility>
#include <vector>

#include "base/error.h"
#include "costmodel/cost_dataset.h"
#include "costmodel/npz_reader.h"
#include "costmodel/tpugraphs.h"

namespace {

namespace fs = std::filesystem;
using gp::CostTask;

// --- a little numpy writer -----------------------------------------------------------------

// One .npy image with the given header dict text: numpy pads the dict with spaces so that
// magic + length + dict + '\n' is a multiple of 64 bytes.
std::string npyWithDict(std::string dict, const std::string& bytes, int version = 1) {
  const size_t pre = version == 1 ? 10 : 12;
  while ((pre + dict.size() + 1) % 64) dict += ' ';
  dict += '\n';
  std::string out = "\x93NUMPY";
  out += static_cast<char>(version);
  out += '\0';
  const size_t n = dict.size();
  for (size_t i = 0; i < (version == 1 ? 2u : 4u); ++i) out += static_cast<char>((n >> (8 * i)) & 0xff);
  return out + dict + bytes;
}

std::string npy(const std::string& descr, const std::vector<int64_t>& shape, const std::string& bytes,
                int version = 1, const std::string& fortran = "False") {
  std::string dims = "(";
  for (size_t i = 0; i < shape.size(); ++i) dims += (i ? ", " : "") + std::to_string(shape[i]);
  dims += shape.size() == 1 ? ",)" : ")";
  return npyWithDict("{'descr': '" + descr + "', 'fortran_order': " + fortran + ", 'shape': " + dims + ", }", bytes,
                     version);
}

template <class T>
std::string raw(const std::vector<T>& v) {
  return std::string(reinterpret_cast<const char*>(v.data()), v.size() * sizeof(T));
}

template <class T>
std::string array(const std::string& descr, const std::vector<int64_t>& shape, const std::vector<T>& v) {
  return npy(descr, shape, raw(v));
}

struct Entry {
  std::string key, npy;
  bool deflate = false;
};

void writeNpz(const std::string& path, const std::vector<Entry>& entries) {
  int err = 0;
  zip_t* z = zip_open(path.c_str(), ZIP_CREATE | ZIP_TRUNCATE, &err);
  ASSERT_NE(z, nullptr) << "zip_open " << err;
  for (const Entry& e : entries) {
    zip_source_t* src = zip_source_buffer(z, e.npy.data(), e.npy.size(), 0);  // read at zip_close
    ASSERT_NE(src, nullptr);
    const zip_int64_t idx = zip_file_add(z, (e.key + ".npy").c_str(), src, ZIP_FL_OVERWRITE);
    ASSERT_GE(idx, 0) << zip_strerror(z);
    ASSERT_EQ(zip_set_file_compression(z, static_cast<zip_uint64_t>(idx), e.deflate ? ZIP_CM_DEFLATE : ZIP_CM_STORE, 0),
              0);
  }
  ASSERT_EQ(zip_close(z), 0) << zip_strerror(z);
}

std::string fileBytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

void writeBytes(const std::string& path, const std::string& bytes) {
  std::ofstream(path, std::ios::binary | std::ios::trunc) << bytes;
}

// A fresh directory per test, removed afterwards.
class TempDir {
 public:
  TempDir() {
    const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
    dir_ = fs::temp_directory_path() /
           ("gp_tpugraphs_" + std::to_string(getpid()) + "_" + info->test_suite_name() + "_" + info->name());
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  ~TempDir() {
    std::error_code ec;
    fs::remove_all(dir_, ec);
  }
  std::string operator/(const std::string& name) const { return (dir_ / name).string(); }
  std::string str() const { return dir_.string(); }

 private:
  fs::path dir_;
};

// The message of the gp::Error that f throws ("" and a test failure when none).
std::string errorOf(const std::function<void()>& f) {
  try {
    f();
  } catch (const gp::Error& e) {
    return e.what();
  }
  ADD_FAILURE() << "no gp::Error thrown";
  return "";
}

#define EXPECT_ONE_LINE_ERROR(expr, ...)                                          \
  do {                                                                            \
    const std::string message_ = errorOf([&] { (void)(expr); });                  \
    EXPECT_EQ(message_.find('\n'), std::string::npos) << message_;                \
    for (const std::string& part_ : std::vector<std::string>{__VA_ARGS__})        \
      EXPECT_NE(message_.find(part_), std::string::npos) << message_ << "\n  lacks: " << part_; \
  } while (0)

// --- TpuGraphs-shaped files ------------------------------------------------------------------

// A tile file: 3 nodes (2 features each), edges "1 consumes 0", "2 consumes 1", 3 configs of 2.
struct TileArrays {
  std::vector<float> nodeFeat{1, 2, 3, 4, 5, 6};
  int64_t nodeWidth = 2;
  std::vector<uint8_t> opcode{63, 34, 120};  // parameter, dot, tan
  std::vector<int64_t> edges{1, 0, 2, 1};     // rows (consumer, producer)
  std::vector<float> configFeat{10, 11, 20, 21, 30, 31};
  int64_t configWidth = 2;
  std::vector<int64_t> runtime{200, 300, 500};
  std::vector<int64_t> normalizers{100, 150, 100};
  bool deflate = false;
  std::vector<std::string> drop;  // keys to leave out

  std::vector<Entry> entries() const {
    const int64_t n = static_cast<int64_t>(nodeFeat.size()) / nodeWidth;
    std::vector<Entry> all = {
        {"node_feat", array("<f4", {n, nodeWidth}, nodeFeat), deflate},
        {"node_opcode", array("|u1", {static_cast<int64_t>(opcode.size())}, opcode), !deflate},
        {"edge_index", array("<i8", {static_cast<int64_t>(edges.size() / 2), 2}, edges), deflate},
        {"config_feat", array("<f4", {static_cast<int64_t>(configFeat.size()) / configWidth, configWidth}, configFeat),
         deflate},
        {"config_runtime", array("<i8", {static_cast<int64_t>(runtime.size())}, runtime), deflate},
        {"config_runtime_normalizers", array("<i8", {static_cast<int64_t>(normalizers.size())}, normalizers),
         deflate}};
    std::erase_if(all, [&](const Entry& e) { return std::find(drop.begin(), drop.end(), e.key) != drop.end(); });
    return all;
  }
};

// A layout file: 4 nodes (3 features), nodes 0 and 2 configurable, 3 configs of 2 x 2 features.
struct LayoutArrays {
  std::vector<float> nodeFeat{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12};
  int64_t nodeWidth = 3;
  std::vector<int32_t> opcode{63, 26, 41, 0};  // parameter, convolution, fusion, unknown
  std::vector<int64_t> edges{1, 0, 2, 1, 3, 2, 3, 0};
  std::vector<int64_t> configIds{0, 2};
  std::vector<float> configFeat{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12};  // [3, 2, 2]
  int64_t configWidth = 2;
  std::vector<int32_t> runtime{3000, 1000, 2000};  // the README's int32
  bool deflate = true;

  std::vector<Entry> entries() const {
    const int64_t n = static_cast<int64_t>(nodeFeat.size()) / nodeWidth, nc = static_cast<int64_t>(configIds.size());
    const int64_t c = static_cast<int64_t>(configFeat.size()) / (nc * configWidth);
    return {{"node_feat", array("<f4", {n, nodeWidth}, nodeFeat), deflate},
            {"node_opcode", array("<i4", {static_cast<int64_t>(opcode.size())}, opcode), deflate},
            {"edge_index", array("<i8", {static_cast<int64_t>(edges.size() / 2), 2}, edges), !deflate},
            {"node_config_feat", array("<f4", {c, nc, configWidth}, configFeat), deflate},
            {"node_config_ids", array("<i8", {nc}, configIds), deflate},
            {"config_runtime", array("<i4", {static_cast<int64_t>(runtime.size())}, runtime), deflate},
            {"node_splits", array("<i8", {1, 2}, std::vector<int64_t>{0, 2}), deflate}};
  }
};

// --- the .npz / .npy reader ------------------------------------------------------------------

TEST(NpzReader, ReadsDtypesShapesStoredAndDeflated) {
  TempDir tmp;
  const std::string path = tmp / "arrays.npz";
  std::string bigEndian;
  for (int32_t v : {1, -2}) {
    const auto u = static_cast<uint32_t>(v);
    for (int s = 24; s >= 0; s -= 8) bigEndian += static_cast<char>((u >> s) & 0xff);
  }
  writeNpz(path, {{"f4", array("<f4", {2, 3}, std::vector<float>{1.5f, -2, 3, 4, 5, 6.25f}), false},
                  {"f8", array("<f8", {2}, std::vector<double>{0.1, -1e300}), true},
                  {"i8", array("<i8", {3}, std::vector<int64_t>{-5, 0, int64_t{1} << 40}), true},
                  {"i4", array("<i4", {1, 2}, std::vector<int32_t>{-7, 7}), false},
                  {"u1", array("|u1", {2}, std::vector<uint8_t>{0, 255}), true},
                  {"u1le", array("<u1", {1}, std::vector<uint8_t>{9}), false},
                  {"i2", array("<i2", {2}, std::vector<int16_t>{-300, 300}), false},
                  {"i1", array("|i1", {2}, std::vector<int8_t>{-128, 127}), true},
                  {"b1", array("|b1", {3}, std::vector<uint8_t>{1, 0, 1}), false},
                  {"be", npy(">i4", {2}, bigEndian), true},
                  {"v2", npy("<u2", {2}, raw(std::vector<uint16_t>{65535, 1}), 2), false},
                  {"v3", npy("<f4", {}, raw(std::vector<float>{42}), 3), true},
                  {"empty", array("<f4", {0, 3}, std::vector<float>{}), false}});
  const gp::NpzFile npz(path);
  EXPECT_EQ(npz.keys(), (std::vector<std::string>{"f4", "f8", "i8", "i4", "u1", "u1le", "i2", "i1", "b1", "be", "v2",
                                                  "v3", "empty"}));
  EXPECT_TRUE(npz.has("f4"));
  EXPECT_FALSE(npz.has("f5"));

  const gp::NpyArray f4 = npz.read("f4");
  EXPECT_EQ(f4.kind, gp::NpyKind::Float);
  EXPECT_EQ(f4.itemSize, 4);
  EXPECT_EQ(f4.shape, (std::vector<int64_t>{2, 3}));
  EXPECT_EQ(f4.shapeText(), "(2, 3)");
  EXPECT_EQ(f4.toFloat(), (std::vector<float>{1.5f, -2, 3, 4, 5, 6.25f}));
  EXPECT_EQ(npz.read("f8").toDouble(), (std::vector<double>{0.1, -1e300}));
  EXPECT_EQ(npz.read("i8").toInt64(), (std::vector<int64_t>{-5, 0, int64_t{1} << 40}));
  EXPECT_EQ(npz.read("i4").toInt64(), (std::vector<int64_t>{-7, 7}));
  EXPECT_EQ(npz.read("u1").toInt64(), (std::vector<int64_t>{0, 255}));
  EXPECT_EQ(npz.read("u1le").toInt64(), (std::vector<int64_t>{9}));
  EXPECT_EQ(npz.read("i2").toDouble(), (std::vector<double>{-300, 300}));
  EXPECT_EQ(npz.read("i1").toInt64(), (std::vector<int64_t>{-128, 127}));
  const gp::NpyArray b1 = npz.read("b1");
  EXPECT_EQ(b1.kind, gp::NpyKind::Bool);
  EXPECT_EQ(b1.toInt64(), (std::vector<int64_t>{1, 0, 1}));
  EXPECT_EQ(npz.read("be").toInt64(), (std::vector<int64_t>{1, -2}));
  EXPECT_EQ(npz.read("v2").toInt64(), (std::vector<int64_t>{65535, 1}));
  const gp::NpyArray scalar = npz.read("v3");
  EXPECT_TRUE(scalar.shape.empty());
  EXPECT_EQ(scalar.shapeText(), "()");
  EXPECT_EQ(scalar.toFloat(), (std::vector<float>{42}));
  const gp::NpyArray empty = npz.read("empty");
  EXPECT_EQ(empty.shape, (std::vector<int64_t>{0, 3}));
  EXPECT_EQ(empty.numElements(), 0);
}

TEST(NpzReader, ParsesWholeNpyImages) {
  const std::string image = array("<i8", {3}, std::vector<int64_t>{4, 5, 6});
  const auto* p = reinterpret_cast<const unsigned char*>(image.data());
  EXPECT_EQ(gp::parseNpy(p, image.size(), "x.npy", "x").toInt64(), (std::vector<int64_t>{4, 5, 6}));
  EXPECT_ONE_LINE_ERROR(gp::parseNpy(p, image.size() - 8, "x.npy", "x"), "x.npy: x: ", "needs 24 bytes",
                        "holds 16");
  EXPECT_ONE_LINE_ERROR(gp::parseNpy(p, 9, "x.npy", "x"), "x.npy: x: ", "truncated .npy header");
  EXPECT_ONE_LINE_ERROR(gp::parseNpy(p, 20, "x.npy", "x"), "x.npy: x: ", "truncated .npy header");
}

TEST(NpzReader, RefusesBadHeaders) {
  TempDir tmp;
  const std::string path = tmp / "bad.npz";
  const std::string four = raw(std::vector<float>{1, 2, 3, 4});
  std::string badMagic = npy("<f4", {4}, four);
  badMagic[1] = 'X';
  std::string badVersion = npy("<f4", {4}, four);
  badVersion[6] = 7;
  std::string longHeader = npy("<f4", {4}, four, 2);
  longHeader[8] = 1, longHeader[9] = 0, longHeader[10] = 0x10, longHeader[11] = 0;  // 1 MiB + 1 of header
  const std::string structured =
      npyWithDict("{'descr': [('a', '<f4')], 'fortran_order': False, 'shape': (4,), }", four);
  const std::string unknownKey =
      npyWithDict("{'descr': '<f4', 'fortran_order': False, 'shape': (4,), 'extra': 1, }", four);
  const std::string negative = npyWithDict("{'descr': '<f4', 'fortran_order': False, 'shape': (-4,), }", four);
  const std::string noShape = npyWithDict("{'descr': '<f4', 'fortran_order': False, }", four);
  const std::string trailing = npyWithDict("{'descr': '<f4', 'fortran_order': False, 'shape': (4,), } x", four);
  writeNpz(path, {{"magic", badMagic},
                  {"version", badVersion},
                  {"long", longHeader},
                  {"fortran", npy("<f4", {2, 2}, four, 1, "True")},
                  {"structured", structured},
                  {"half", npy("<f2", {8}, four)},
                  {"complex", npy("<c8", {2}, four)},
                  {"string", npy("|S4", {1}, four)},
                  {"key", unknownKey},
                  {"negative", negative},
                  {"noshape", noShape},
                  {"trailing", trailing},
                  {"huge", npy("<f4", {int64_t{1} << 40, int64_t{1} << 40}, four), true},
                  {"overflow", npy("<f8", {int64_t{1} << 62, 4}, four)},
                  {"tiny", "\x93NUM"}});
  const gp::NpzFile npz(path);
  EXPECT_ONE_LINE_ERROR(npz.read("magic"), path + ": magic: ", "not a .npy array");
  EXPECT_ONE_LINE_ERROR(npz.read("version"), path + ": version: ", "unsupported .npy version 7.0");
  EXPECT_ONE_LINE_ERROR(npz.read("long"), path + ": long: ", "bad .npy header: 1048577 bytes long");
  EXPECT_ONE_LINE_ERROR(npz.read("fortran"), path + ": fortran: ", "Fortran order");
  EXPECT_ONE_LINE_ERROR(npz.read("structured"), path + ": structured: ", "structured dtype");
  EXPECT_ONE_LINE_ERROR(npz.read("half"), path + ": half: ", "dtype '<f2' is not read");
  EXPECT_ONE_LINE_ERROR(npz.read("complex"), path + ": complex: ", "dtype '<c8' is not read");
  EXPECT_ONE_LINE_ERROR(npz.read("string"), path + ": string: ", "dtype '|S4' is not read");
  EXPECT_ONE_LINE_ERROR(npz.read("key"), path + ": key: ", "unknown header key 'extra'");
  EXPECT_ONE_LINE_ERROR(npz.read("negative"), path + ": negative: ", "non-negative integers");
  EXPECT_ONE_LINE_ERROR(npz.read("noshape"), path + ": noshape: ", "lacks one of 'descr', 'fortran_order', 'shape'");
  EXPECT_ONE_LINE_ERROR(npz.read("trailing"), path + ": trailing: ", "text after its closing '}'");
  EXPECT_ONE_LINE_ERROR(npz.read("huge"), path + ": huge: ", "shape (1099511627776, 1099511627776)",
                        "over the limit");
  EXPECT_ONE_LINE_ERROR(npz.read("overflow"), path + ": overflow: ", "over the limit");
  EXPECT_ONE_LINE_ERROR(npz.read("tiny"), path + ": tiny: ", "truncated .npy");
}

TEST(NpzReader, ShapeMustMatchTheBytes) {
  TempDir tmp;
  const std::string path = tmp / "short.npz";
  const std::string five = raw(std::vector<int64_t>{1, 2, 3, 4, 5});
  writeNpz(path, {{"short", npy("<i8", {3, 2}, five), false},
                  {"long", npy("<i8", {2, 2}, five), true}});
  const gp::NpzFile npz(path);
  EXPECT_ONE_LINE_ERROR(npz.read("short"), path + ": short: ", "shape (3, 2) of '<i8' needs 48 bytes",
                        "the entry holds 40");
  EXPECT_ONE_LINE_ERROR(npz.read("long"), path + ": long: ", "needs 32 bytes", "holds 40");
}

TEST(NpzReader, RefusesEntriesOverTheLimit) {
  TempDir tmp;
  const std::string path = tmp / "big.npz";
  writeNpz(path, {{"big", array("<f8", {100}, std::vector<double>(100, 1.0)), true}});
  EXPECT_EQ(gp::NpzFile(path).read("big").numElements(), 100);
  EXPECT_ONE_LINE_ERROR(gp::NpzFile(path, 500).read("big"), path + ": big: ", "over the limit of 500");
}

TEST(NpzReader, RefusesDamagedArchives) {
  TempDir tmp;
  const std::string path = tmp / "good.npz";
  const std::string a = array("<f4", {64}, std::vector<float>(64, 2.0f));
  writeNpz(path, {{"a", a, false},
                  {"b", array("<f4", {64}, std::vector<float>(64, 3.0f)), true}});
  const std::string bytes = fileBytes(path);

  EXPECT_ONE_LINE_ERROR(gp::NpzFile(tmp / "absent.npz"), tmp / "absent.npz", "no such file");
  EXPECT_ONE_LINE_ERROR(gp::NpzFile(tmp.str()), tmp.str(), "is a directory");
  for (size_t keep : {bytes.size() / 2, bytes.size() - 10, size_t{3}}) {
    const std::string cut = tmp / ("cut" + std::to_string(keep) + ".npz");
    writeBytes(cut, bytes.substr(0, keep));
    EXPECT_ONE_LINE_ERROR(gp::NpzFile(cut), cut + ": ", "truncated or another format");
  }
  const std::string text = tmp / "text.npz";
  writeBytes(text, "node_feat,node_opcode\n1,2\n");
  EXPECT_ONE_LINE_ERROR(gp::NpzFile(text), text + ": ", "not a readable .npz");

  // A flipped data byte of the stored entry: libzip's CRC check at the end of the entry.
  std::string flipped = bytes;
  const size_t data = flipped.find("\x93NUMPY") + a.size() - 1;  // the last data byte
  flipped[data] = static_cast<char>(flipped[data] ^ 0x55);
  const std::string crc = tmp / "crc.npz";
  writeBytes(crc, flipped);
  EXPECT_ONE_LINE_ERROR(gp::NpzFile(crc).read("a"), crc + ": a: ", "cannot read the entry");
  EXPECT_EQ(gp::NpzFile(crc).read("b").toFloat(), std::vector<float>(64, 3.0f));

  const std::string missing = tmp / "missing.npz";
  writeNpz(missing, {{"a", array("<f4", {1}, std::vector<float>{1})}});
  EXPECT_ONE_LINE_ERROR(gp::NpzFile(missing).read("node_feat"), missing + ": node_feat: ", "missing");
}

TEST(NpzReader, IntegersFromFloatsMustBeWhole) {
  gp::NpyArray a;
  a.kind = gp::NpyKind::Float;
  a.itemSize = 8;
  a.shape = {2};
  const std::vector<double> v{3.0, 2.5};
  a.data.assign(reinterpret_cast<const unsigned char*>(v.data()), reinterpret_cast<const unsigned char*>(v.data()) + 16);
  EXPECT_THROW(a.toInt64(), std::invalid_argument);
  EXPECT_EQ(a.toDouble(), v);
}

// --- TpuGraphs ---------------------------------------------------------------------------------

TEST(TpuGraphs, ReadsATileFile) {
  TempDir tmp;
  for (bool deflate : {false, true}) {
    TileArrays t;
    t.deflate = deflate;
    const std::string path = tmp / "alexnet_train_batch_32_-1bae27a41d70f4dc.npz";
    writeNpz(path, t.entries());
    gp::TpuGraphsWidths w;
    const gp::CostGraph g = gp::readTpuGraphsFile(path, CostTask::Kernel, 0, &w);
    EXPECT_EQ(w.node, 2);
    EXPECT_EQ(w.config, 2);
    EXPECT_EQ(g.name, "alexnet_train_batch_32_-1bae27a41d70f4dc");
    EXPECT_EQ(g.family, "alexnet");
    EXPECT_EQ(g.opcode, (std::vector<int32_t>{63, 34, 120}));
    EXPECT_EQ(g.nodeFeatures, t.nodeFeat);
    // (consumer, producer) rows become (producer, consumer) edges.
    EXPECT_EQ(g.edges, (std::vector<std::array<int32_t, 2>>{{0, 1}, {1, 2}}));
    EXPECT_TRUE(g.configNodes.empty());
    EXPECT_EQ(g.configFeatures, t.configFeat);
    // runtime / normalizer = 2, 2, 5, times the median normalizer (100 ns).
    ASSERT_EQ(g.runtime.size(), 3u);
    EXPECT_NEAR(g.runtime[0], 200e-9, 1e-18);
    EXPECT_NEAR(g.runtime[1], 200e-9, 1e-18);
    EXPECT_NEAR(g.runtime[2], 500e-9, 1e-18);
    EXPECT_TRUE(g.spread.empty());
    EXPECT_TRUE(g.nodeFlops.empty() && g.nodeBytes.empty() && g.nodeClass.empty() && g.threads.empty());
  }
}

TEST(TpuGraphs, ReadsALayoutFile) {
  TempDir tmp;
  LayoutArrays l;
  const std::string path = tmp / "unet_3d.4x4.bf16.npz";
  writeNpz(path, l.entries());
  gp::TpuGraphsWidths w;
  const gp::CostGraph g = gp::readTpuGraphsFile(path, CostTask::Plan, 0, &w);
  EXPECT_EQ(w.node, 3);
  EXPECT_EQ(w.config, 2);
  EXPECT_EQ(g.name, "unet_3d.4x4.bf16");
  EXPECT_EQ(g.family, "unet");
  EXPECT_EQ(g.opcode, (std::vector<int32_t>{63, 26, 41, 0}));
  EXPECT_EQ(g.nodeFeatures, l.nodeFeat);
  EXPECT_EQ(g.edges, (std::vector<std::array<int32_t, 2>>{{0, 1}, {1, 2}, {2, 3}, {0, 3}}));
  EXPECT_EQ(g.configNodes, (std::vector<int32_t>{0, 2}));
  EXPECT_EQ(g.configRows(), 2);
  EXPECT_EQ(g.configFeatures, l.configFeat);
  ASSERT_EQ(g.runtime.size(), 3u);
  EXPECT_NEAR(g.runtime[0], 3e-6, 1e-18);
  EXPECT_NEAR(g.runtime[1], 1e-6, 1e-18);
  EXPECT_NEAR(g.runtime[2], 2e-6, 1e-18);

  // A layout file read as a tile file lacks config_feat.
  EXPECT_ONE_LINE_ERROR(gp::readTpuGraphsFile(path, CostTask::Kernel), path + ": config_feat: ", "missing");
}

TEST(TpuGraphs, LoadsASplitInFileOrder) {
  TempDir tmp;
  LayoutArrays a, b;
  b.opcode = {1, 2, 130, 4};  // an opcode past TpuGraphs' 120 extends the vocabulary
  b.configFeat.resize(5 * 2 * 2);
  for (size_t i = 0; i < b.configFeat.size(); ++i) b.configFeat[i] = static_cast<float>(i);
  b.runtime = {10, 20, 30, 40, 50};
  writeNpz(tmp / "resnet50.4x4.fp16.npz", b.entries());
  writeNpz(tmp / "bert_pretraining.4x4.fp16.npz", a.entries());
  writeBytes(tmp / "README.txt", "not an npz");
  fs::create_directories(tmp / "nested.npz");

  const gp::CostDataset ds = gp::loadTpuGraphsSplit(tmp.str(), CostTask::Plan, "tpugraphs:layout:xla:random");
  EXPECT_EQ(ds.task, CostTask::Plan);
  EXPECT_EQ(ds.collection, "tpugraphs:layout:xla:random");
  EXPECT_EQ(ds.deviceKind, "tpu-v3");
  EXPECT_EQ(ds.repeats, 0);
  EXPECT_EQ(ds.noise, "TpuGraphs' published runtimes");
  EXPECT_EQ(ds.nodeWidth, 3);
  EXPECT_EQ(ds.configWidth, 2);
  ASSERT_EQ(ds.opcodes.size(), 131u);
  EXPECT_EQ(ds.opcodes[0], "unknown");
  EXPECT_EQ(ds.opcodes[26], "convolution");
  EXPECT_EQ(ds.opcodes[97], "trace");
  EXPECT_EQ(ds.opcodes[120], "tan");
  EXPECT_EQ(ds.opcodes[130], "op130");
  ASSERT_EQ(ds.graphs.size(), 2u);
  EXPECT_EQ(ds.graphs[0].name, "bert_pretraining.4x4.fp16");
  EXPECT_EQ(ds.graphs[0].family, "bert");
  EXPECT_EQ(ds.graphs[1].name, "resnet50.4x4.fp16");
  EXPECT_EQ(ds.graphs[1].family, "resnet");
  EXPECT_EQ(ds.graphs[1].runtime.size(), 5u);
  EXPECT_NO_THROW(ds.validate("split"));

  // At most 3 configurations: indices floor(i * 5 / 3) = 0, 1, 3; a graph with 3 keeps all.
  const gp::CostDataset few = gp::loadTpuGraphsSplit(tmp.str(), CostTask::Plan, "x", 3);
  EXPECT_EQ(few.graphs[0].runtime, ds.graphs[0].runtime);
  EXPECT_EQ(few.graphs[0].configFeatures, ds.graphs[0].configFeatures);
  const gp::CostGraph& g = few.graphs[1];
  ASSERT_EQ(g.runtime.size(), 3u);
  EXPECT_NEAR(g.runtime[0], 10e-9, 1e-18);
  EXPECT_NEAR(g.runtime[1], 20e-9, 1e-18);
  EXPECT_NEAR(g.runtime[2], 40e-9, 1e-18);
  EXPECT_EQ(g.configFeatures, (std::vector<float>{0, 1, 2, 3, 4, 5, 6, 7, 12, 13, 14, 15}));
  EXPECT_NO_THROW(few.validate("few"));
}

TEST(TpuGraphs, LoadsATileSplitAndLeavesOutGraphsWithoutConfigs) {
  TempDir tmp;
  TileArrays t, none;
  none.configFeat.clear();
  none.runtime.clear();
  none.normalizers.clear();
  writeNpz(tmp / "a_0123456789abcdef.npz", t.entries());
  writeNpz(tmp / "b_0123456789abcdef.npz", none.entries());
  const gp::CostDataset ds = gp::loadTpuGraphsSplit(tmp.str(), CostTask::Kernel, "tpugraphs:tile:xla");
  EXPECT_EQ(ds.task, CostTask::Kernel);
  EXPECT_EQ(ds.opcodes.size(), 121u);
  ASSERT_EQ(ds.graphs.size(), 1u);
  EXPECT_EQ(ds.graphs[0].name, "a_0123456789abcdef");
  EXPECT_NO_THROW(ds.validate("tile split"));
}

TEST(TpuGraphs, FamilyRule) {
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"alexnet_train_batch_32", "alexnet"},
      {"alexnet_train_batch_32_-1bae27a41d70f4dc", "alexnet"},
      {"bert_classifier.2x2.fp32", "bert"},
      {"resnet50.4x4.fp16", "resnet"},
      {"resnet_v1_50_official_batch_128_bf16", "resnet"},
      {"tf2_bert_pretrain_dynamic_batch_size", "bert"},
      {"mlperf_bert_batch_24_2x2", "bert"},
      {"small_bert_bert_en_uncased_L-10_H-768_A-12_batch_size_32_test", "bert"},
      {"unet_3d.4x4.bf16", "unet"},
      {"inception_v3_batch_128_train", "inception"},
      {"talking-heads_large_batch_size_16_train", "talking"},
      {"EfficientNet_B7", "efficientnet"},
      {"d6f5f54247bd1e58a10b9e7062c636ab", "d6f5f54247bd1e58a10b9e7062c636ab"},
      {"3d_unet", "unet"},
      {"tf_2x2", "tf_2x2"},
  };
  for (const auto& [stem, family] : cases) EXPECT_EQ(gp::tpuGraphsFamily(stem), family) << stem;
}

TEST(TpuGraphs, OneLineErrorsNameTheFileAndTheProblem) {
  TempDir tmp;
  const auto tile = [&](const std::string& name, const std::function<void(TileArrays&)>& edit) {
    TileArrays t;
    edit(t);
    const std::string path = tmp / name;
    writeNpz(path, t.entries());
    return path;
  };
  const auto layout = [&](const std::string& name, const std::function<void(LayoutArrays&)>& edit) {
    LayoutArrays l;
    edit(l);
    const std::string path = tmp / name;
    writeNpz(path, l.entries());
    return path;
  };

  // Truncated archive.
  const std::string good = tile("good.npz", [](TileArrays&) {});
  const std::string cut = tmp / "cut.npz";
  const std::string bytes = fileBytes(good);
  writeBytes(cut, bytes.substr(0, bytes.size() * 2 / 3));
  EXPECT_ONE_LINE_ERROR(gp::readTpuGraphsFile(cut, CostTask::Kernel), cut + ": ", "truncated");

  // A missing key.
  const std::string noNorm = tile("nonorm.npz", [](TileArrays& t) { t.drop = {"config_runtime_normalizers"}; });
  EXPECT_ONE_LINE_ERROR(gp::readTpuGraphsFile(noNorm, CostTask::Kernel), noNorm + ": config_runtime_normalizers: ",
                        "missing");

  // An array whose shape does not match its bytes.
  const std::string shortEdges = tmp / "short.npz";
  {
    TileArrays t;
    std::vector<Entry> e = t.entries();
    e[2].npy = npy("<i8", {3, 2}, raw(t.edges));
    writeNpz(shortEdges, e);
  }
  EXPECT_ONE_LINE_ERROR(gp::readTpuGraphsFile(shortEdges, CostTask::Kernel), shortEdges + ": edge_index: ",
                        "shape (3, 2) of '<i8' needs 48 bytes, the entry holds 32");

  // An edge out of range.
  const std::string badEdge = tile("edge.npz", [](TileArrays& t) { t.edges[3] = 3; });
  EXPECT_ONE_LINE_ERROR(gp::readTpuGraphsFile(badEdge, CostTask::Kernel), badEdge + ": edge_index: ",
                        "edge 1 (2, 3) is out of range for 3 nodes");
  const std::string negEdge = tile("negedge.npz", [](TileArrays& t) { t.edges[0] = -1; });
  EXPECT_ONE_LINE_ERROR(gp::readTpuGraphsFile(negEdge, CostTask::Kernel), negEdge + ": edge_index: ",
                        "out of range");

  // node_config_ids out of range.
  const std::string badIds = layout("ids.npz", [](LayoutArrays& l) { l.configIds[1] = 4; });
  EXPECT_ONE_LINE_ERROR(gp::readTpuGraphsFile(badIds, CostTask::Plan), badIds + ": node_config_ids: ",
                        "entry 1 is node 4, out of range for 4 nodes");

  // config_runtime of a length other than C.
  const std::string fewRuntimes = tile("runtimes.npz", [](TileArrays& t) { t.runtime.pop_back(); });
  EXPECT_ONE_LINE_ERROR(gp::readTpuGraphsFile(fewRuntimes, CostTask::Kernel), fewRuntimes + ": config_runtime: ",
                        "shape (2,), expected (3,)", "3 configurations");
  const std::string fewNorms = tile("norms.npz", [](TileArrays& t) { t.normalizers.push_back(1); });
  EXPECT_ONE_LINE_ERROR(gp::readTpuGraphsFile(fewNorms, CostTask::Kernel),
                        fewNorms + ": config_runtime_normalizers: ", "shape (4,), expected (3,)");
  const std::string layoutRuntimes = layout("lrt.npz", [](LayoutArrays& l) { l.runtime.push_back(5); });
  EXPECT_ONE_LINE_ERROR(gp::readTpuGraphsFile(layoutRuntimes, CostTask::Plan), layoutRuntimes + ": config_runtime: ",
                        "expected (3,)");

  // Node counts that disagree; runtimes that are not positive; features that are not finite.
  const std::string ops = tile("ops.npz", [](TileArrays& t) { t.opcode.push_back(1); });
  EXPECT_ONE_LINE_ERROR(gp::readTpuGraphsFile(ops, CostTask::Kernel), ops + ": node_opcode: ",
                        "shape (4,), expected (3,)");
  const std::string zero = tile("zero.npz", [](TileArrays& t) { t.runtime[1] = 0; });
  EXPECT_ONE_LINE_ERROR(gp::readTpuGraphsFile(zero, CostTask::Kernel), zero + ": config_runtime: ",
                        "entry 1 is 0", "not a finite positive runtime");
  const std::string zeroNorm = tile("zeronorm.npz", [](TileArrays& t) { t.normalizers[2] = -1; });
  EXPECT_ONE_LINE_ERROR(gp::readTpuGraphsFile(zeroNorm, CostTask::Kernel),
                        zeroNorm + ": config_runtime_normalizers: ", "entry 2");
  const std::string nan = tile("nan.npz", [](TileArrays& t) { t.nodeFeat[3] = std::nanf(""); });
  EXPECT_ONE_LINE_ERROR(gp::readTpuGraphsFile(nan, CostTask::Kernel), nan + ": node_feat: ", "row 1, column 1");

  // Two files with different feature widths.
  const std::string split = tmp / "split";
  fs::create_directories(split);
  writeNpz(split + "/a.npz", TileArrays().entries());
  TileArrays wide;
  wide.nodeFeat = {1, 2, 3, 4, 5, 6, 7, 8, 9};
  wide.nodeWidth = 3;
  writeNpz(split + "/b.npz", wide.entries());
  EXPECT_ONE_LINE_ERROR(gp::loadTpuGraphsSplit(split, CostTask::Kernel, "tpugraphs:tile:xla"), split + "/b.npz: ",
                        "node features are 3 wide, the first file (a.npz) has 2");
  TileArrays narrowConfig;
  narrowConfig.configFeat = {1, 2, 3};
  narrowConfig.configWidth = 1;
  writeNpz(split + "/b.npz", narrowConfig.entries());
  EXPECT_ONE_LINE_ERROR(gp::loadTpuGraphsSplit(split, CostTask::Kernel, "tpugraphs:tile:xla"), split + "/b.npz: ",
                        "configuration features are 1 wide, the first file (a.npz) has 2");

  // Directories without TpuGraphs files.
  EXPECT_ONE_LINE_ERROR(gp::loadTpuGraphsSplit(tmp / "absent", CostTask::Kernel, "x"), tmp / "absent",
                        "not a directory");
  fs::create_directories(tmp / "emptydir");
  EXPECT_ONE_LINE_ERROR(gp::loadTpuGraphsSplit(tmp / "emptydir", CostTask::Kernel, "x"), tmp / "emptydir",
                        "no .npz files");
}

}  // namespace
