#include "costmodel/tpugraphs.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <limits>
#include <stdexcept>
#include <system_error>
#include <utility>

#include "base/error.h"
#include "costmodel/npz_reader.h"

namespace gp {
namespace {

constexpr int64_t kMaxOpcode = 65535;  // far above TpuGraphs' 120; bounds the vocabulary we build

std::string count(int64_t n, const char* what) { return std::to_string(n) + " " + what; }

std::string number(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.10g", v);
  return buf;
}

// The array `key` with its dimensions checked: `dims` gives the expected size of each axis,
// -1 for any.
NpyArray readShaped(const NpzFile& npz, const std::string& key, std::vector<int64_t> dims) {
  NpyArray a = npz.read(key);
  bool ok = a.shape.size() == dims.size();
  for (size_t i = 0; ok && i < dims.size(); ++i) ok = dims[i] < 0 || dims[i] == a.shape[i];
  if (!ok) {
    std::string want = "(";
    for (size_t i = 0; i < dims.size(); ++i)
      want += (i ? ", " : "") + (dims[i] < 0 ? std::string("any") : std::to_string(dims[i]));
    want += dims.size() == 1 ? ",)" : ")";
    throw Error(npz.path(), key + ": shape " + a.shapeText() + ", expected " + want);
  }
  return a;
}

std::vector<int64_t> integers(const NpzFile& npz, const std::string& key, const NpyArray& a) {
  try {
    return a.toInt64();
  } catch (const std::invalid_argument& e) {
    throw Error(npz.path(), key + ": " + e.what());
  }
}

// Positive, finite runtimes (ns in the file): one problem names the first bad entry.
std::vector<double> runtimes(const NpzFile& npz, const std::string& key, const NpyArray& a) {
  std::vector<double> v = a.toDouble();
  for (size_t j = 0; j < v.size(); ++j)
    if (!(std::isfinite(v[j]) && v[j] > 0))
      throw Error(npz.path(), key + ": entry " + std::to_string(j) + " is " + number(v[j]) +
                                   ", not a finite positive runtime");
  return v;
}

// Indices floor(i * c / k), i = 0..k-1: strictly increasing when c > k. i * c < c^2 cannot
// overflow: a file holds at most 2 GiB of runtimes, so c < 2^31.
std::vector<int64_t> evenlySpaced(int64_t c, int64_t k) {
  std::vector<int64_t> idx(static_cast<size_t>(k));
  for (int64_t i = 0; i < k; ++i) idx[static_cast<size_t>(i)] = i * c / k;
  return idx;
}

// Keeps rows `keep` (increasing) of a row-major [rows, width] vector, in place.
template <class T>
void keepRows(std::vector<T>& v, int64_t width, const std::vector<int64_t>& keep) {
  const size_t w = static_cast<size_t>(width);
  for (size_t k = 0; k < keep.size(); ++k)
    std::copy_n(v.begin() + static_cast<std::ptrdiff_t>(static_cast<size_t>(keep[k]) * w), w,
                v.begin() + static_cast<std::ptrdiff_t>(k * w));
  v.resize(keep.size() * w);
  v.shrink_to_fit();
}

double median(std::vector<double> v) {
  const size_t m = v.size() / 2;
  std::nth_element(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(m), v.end());
  if (v.size() % 2) return v[m];
  const double hi = v[m];
  return (*std::max_element(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(m)) + hi) / 2;
}

// The first feature that is not finite, named by row and column.
void finite(const std::string& path, const std::string& key, const std::vector<float>& v, int64_t width) {
  for (size_t i = 0; i < v.size(); ++i)
    if (!std::isfinite(v[i]))
      throw Error(path, key + ": row " + std::to_string(static_cast<int64_t>(i) / width) + ", column " +
                            std::to_string(static_cast<int64_t>(i) % width) + " is " + number(v[i]) +
                            ", not a finite feature");
}

bool isHex(const std::string& s) {
  return std::all_of(s.begin(), s.end(), [](unsigned char c) { return std::isxdigit(c) != 0; });
}

}  // namespace

const std::vector<std::string>& tpuGraphsOpcodeNames() {
  static const std::vector<std::string> names = {
    "unknown", "abs", "add", "add-dependency", "after-all", "all-reduce", "all-to-all", "atan2", "batch-norm-grad",
    "batch-norm-inference", "batch-norm-training", "bitcast", "bitcast-convert", "broadcast", "call", "ceil",
    "cholesky", "clamp", "collective-permute", "count-leading-zeros", "compare", "complex", "concatenate",
    "conditional", "constant", "convert", "convolution", "copy", "copy-done", "copy-start", "cosine", "custom-call",
    "divide", "domain", "dot", "dynamic-slice", "dynamic-update-slice", "exponential", "exponential-minus-one",
    "fft", "floor", "fusion", "gather", "get-dimension-size", "set-dimension-size", "get-tuple-element", "imag",
    "infeed", "iota", "is-finite", "log", "log-plus-one", "and", "not", "or", "xor", "map", "maximum", "minimum",
    "multiply", "negate", "outfeed", "pad", "parameter", "partition-id", "popcnt", "power", "real", "recv",
    "recv-done", "reduce", "reduce-precision", "reduce-window", "remainder", "replica-id", "reshape", "reverse",
    "rng", "rng-get-and-update-state", "rng-bit-generator", "round-nearest-afz", "rsqrt", "scatter", "select",
    "select-and-scatter", "send", "send-done", "shift-left", "shift-right-arithmetic", "shift-right-logical", "sign",
    "sine", "slice", "sort", "sqrt", "subtract", "tanh", "trace", "transpose", "triangular-solve", "tuple",
    "tuple-select", "while", "cbrt", "all-gather", "collective-permute-start", "collective-permute-done", "logistic",
    "dynamic-reshape", "all-reduce-start", "all-reduce-done", "reduce-scatter", "all-gather-start",
    "all-gather-done", "opt-barrier", "async-start", "async-update", "async-done", "round-nearest-even",
    "stochastic-convert", "tan"
  };
  return names;
}

std::string tpuGraphsFamily(const std::string& stem) {
  std::string s = stem;
  // Tile files: "<graph>_<fingerprint>", the fingerprint 16 hex digits, maybe with a minus.
  for (size_t tail : {size_t{17}, size_t{18}}) {
    if (s.size() > tail && s[s.size() - tail] == '_') {
      std::string fp = s.substr(s.size() - tail + 1);
      if (fp[0] == '-') fp.erase(0, 1);
      if (fp.size() == 16 && isHex(fp)) {
        s.resize(s.size() - tail);
        break;
      }
    }
  }
  if (s.size() >= 16 && isHex(s)) return s;
  size_t i = 0;
  while (i < s.size()) {
    size_t end = s.find_first_of("_.", i);
    if (end == std::string::npos) end = s.size();
    std::string letters;
    for (size_t j = i; j < end && std::isalpha(static_cast<unsigned char>(s[j])); ++j)
      letters += static_cast<char>(std::tolower(static_cast<unsigned char>(s[j])));
    if (!letters.empty() && letters != "tf" && letters != "mlperf" && letters != "small") return letters;
    i = end + 1;
  }
  return stem;
}

CostGraph readTpuGraphsFile(const std::string& path, CostTask task, int64_t maxConfigs, TpuGraphsWidths* widths) {
  const NpzFile npz(path);
  CostGraph g;
  g.name = std::filesystem::path(path).stem().string();
  g.family = tpuGraphsFamily(g.name);

  int64_t n = 0, width = 0;
  {
    const NpyArray feat = readShaped(npz, "node_feat", {-1, -1});
    n = feat.shape[0];
    width = feat.shape[1];
    if (n == 0) throw Error(path, "node_feat: the graph has no nodes");
    if (width == 0 || width > std::numeric_limits<int32_t>::max())
      throw Error(path, "node_feat: " + count(width, "feature columns"));
    g.nodeFeatures = feat.toFloat();
    finite(path, "node_feat", g.nodeFeatures, width);
  }
  {
    const NpyArray ops = readShaped(npz, "node_opcode", {n});
    const std::vector<int64_t> v = integers(npz, "node_opcode", ops);
    g.opcode.resize(v.size());
    for (size_t u = 0; u < v.size(); ++u) {
      if (v[u] < 0 || v[u] > kMaxOpcode)
        throw Error(path, "node_opcode: node " + std::to_string(u) + " has opcode " + std::to_string(v[u]) +
                              ", outside 0.." + std::to_string(kMaxOpcode));
      g.opcode[u] = static_cast<int32_t>(v[u]);
    }
  }
  {
    NpyArray e = npz.read("edge_index");
    // An empty edge list may come as shape (0,).
    if (!(e.shape.size() == 1 && e.shape[0] == 0)) {
      if (e.shape.size() != 2 || e.shape[1] != 2)
        throw Error(path, "edge_index: shape " + e.shapeText() + ", expected (any, 2)");
    }
    const std::vector<int64_t> v = integers(npz, "edge_index", e);
    g.edges.reserve(v.size() / 2);
    for (size_t i = 0; i + 1 < v.size(); i += 2) {
      const int64_t consumer = v[i], producer = v[i + 1];
      if (consumer < 0 || consumer >= n || producer < 0 || producer >= n)
        throw Error(path, "edge_index: edge " + std::to_string(i / 2) + " (" + std::to_string(consumer) + ", " +
                              std::to_string(producer) + ") is out of range for " + count(n, "nodes"));
      g.edges.push_back({static_cast<int32_t>(producer), static_cast<int32_t>(consumer)});
    }
  }

  int64_t configs = 0, configWidth = 0;
  if (task == CostTask::Kernel) {
    const NpyArray cf = readShaped(npz, "config_feat", {-1, -1});
    configs = cf.shape[0];
    configWidth = cf.shape[1];
    const NpyArray rt = npz.read("config_runtime");
    const NpyArray norm = npz.read("config_runtime_normalizers");
    if (rt.shape.size() != 1 || rt.shape[0] != configs)
      throw Error(path, "config_runtime: shape " + rt.shapeText() + ", expected (" + std::to_string(configs) +
                            ",): config_feat has " + count(configs, "configurations"));
    if (norm.shape.size() != 1 || norm.shape[0] != configs)
      throw Error(path, "config_runtime_normalizers: shape " + norm.shapeText() + ", expected (" +
                            std::to_string(configs) + ",): config_feat has " + count(configs, "configurations"));
    const std::vector<double> r = runtimes(npz, "config_runtime", rt);
    const std::vector<double> d = runtimes(npz, "config_runtime_normalizers", norm);
    g.configFeatures = cf.toFloat();
    finite(path, "config_feat", g.configFeatures, configWidth);
    g.runtime.resize(r.size());
    const double scale = configs ? median(d) * 1e-9 : 0.0;
    for (size_t j = 0; j < r.size(); ++j) {
      g.runtime[j] = r[j] / d[j] * scale;
      if (!(std::isfinite(g.runtime[j]) && g.runtime[j] > 0))
        throw Error(path, "config_runtime: configuration " + std::to_string(j) +
                              " normalizes to a runtime that is not finite and positive");
    }
  } else {
    const NpyArray ids = readShaped(npz, "node_config_ids", {-1});
    const int64_t nc = ids.shape[0];
    if (nc == 0) throw Error(path, "node_config_ids: the graph has no configurable nodes");
    const std::vector<int64_t> v = integers(npz, "node_config_ids", ids);
    g.configNodes.resize(v.size());
    for (size_t k = 0; k < v.size(); ++k) {
      if (v[k] < 0 || v[k] >= n)
        throw Error(path, "node_config_ids: entry " + std::to_string(k) + " is node " + std::to_string(v[k]) +
                              ", out of range for " + count(n, "nodes"));
      g.configNodes[k] = static_cast<int32_t>(v[k]);
    }
    const NpyArray cf = readShaped(npz, "node_config_feat", {-1, nc, -1});
    configs = cf.shape[0];
    configWidth = cf.shape[2];
    const NpyArray rt = npz.read("config_runtime");
    if (rt.shape.size() != 1 || rt.shape[0] != configs)
      throw Error(path, "config_runtime: shape " + rt.shapeText() + ", expected (" + std::to_string(configs) +
                            ",): node_config_feat has " + count(configs, "configurations"));
    const std::vector<double> r = runtimes(npz, "config_runtime", rt);
    g.configFeatures = cf.toFloat();
    finite(path, "node_config_feat", g.configFeatures, configWidth);
    g.runtime.resize(r.size());
    for (size_t j = 0; j < r.size(); ++j) g.runtime[j] = r[j] * 1e-9;
    // Computation boundaries: read (a damaged array is a damaged file) but not kept.
    if (npz.has("node_splits")) (void)integers(npz, "node_splits", npz.read("node_splits"));
  }
  if (configWidth == 0 || configWidth > std::numeric_limits<int32_t>::max())
    throw Error(path, "configuration features: " + count(configWidth, "columns"));

  if (maxConfigs > 0 && configs > maxConfigs) {
    const std::vector<int64_t> keep = evenlySpaced(configs, maxConfigs);
    keepRows(g.configFeatures, g.configRows() * configWidth, keep);
    keepRows(g.runtime, 1, keep);
  }
  if (widths) {
    widths->node = static_cast<int32_t>(width);
    widths->config = static_cast<int32_t>(configWidth);
  }
  return g;
}

CostDataset loadTpuGraphsSplit(const std::string& dir, CostTask task, const std::string& collection,
                               int64_t maxConfigsPerGraph) {
  namespace fs = std::filesystem;
  std::error_code ec;
  if (!fs::is_directory(dir, ec)) throw Error(dir, "not a directory (a TpuGraphs split holds .npz files)");
  std::vector<std::string> files;
  for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
    const fs::path& p = it->path();
    std::error_code fec;
    if (p.extension() == ".npz" && !fs::is_directory(p, fec)) files.push_back(p.string());
  }
  if (ec) throw Error(dir, "cannot list the directory: " + ec.message());
  if (files.empty()) throw Error(dir, "no .npz files");
  std::sort(files.begin(), files.end());

  CostDataset ds;
  ds.task = task;
  ds.collection = collection;
  ds.deviceKind = "tpu-v3";
  ds.repeats = 0;
  ds.noise = "TpuGraphs' published runtimes";
  ds.opcodes = tpuGraphsOpcodeNames();
  std::string first;
  for (const std::string& f : files) {
    TpuGraphsWidths w;
    CostGraph g = readTpuGraphsFile(f, task, maxConfigsPerGraph, &w);
    if (first.empty()) {
      first = f;
      ds.nodeWidth = w.node;
      ds.configWidth = w.config;
    } else if (w.node != ds.nodeWidth || w.config != ds.configWidth) {
      const bool node = w.node != ds.nodeWidth;
      throw Error(f, std::string(node ? "node" : "configuration") + " features are " +
                         std::to_string(node ? w.node : w.config) + " wide, the first file (" +
                         fs::path(first).filename().string() + ") has " +
                         std::to_string(node ? ds.nodeWidth : ds.configWidth));
    }
    if (g.runtime.empty()) continue;
    for (int32_t op : g.opcode)
      while (static_cast<int32_t>(ds.opcodes.size()) <= op) ds.opcodes.push_back("op" + std::to_string(ds.opcodes.size()));
    ds.graphs.push_back(std::move(g));
  }
  return ds;
}

}  // namespace gp
