// The corpus of published measurements the simulator is held against (tests/data/published,
// installed as share/graphplace/published): JSON files of rows, each a measured figure with
// its source, the exact workload, hardware, framework and precision. Format: docs/formats.md,
// "Published measurements".
//
//   std::vector<PublishedRow> rows = loadPublishedCorpus("tests/data/published");
#pragma once
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "graph/precision.h"
#include "io/model_loader.h"

namespace gp {

enum class RowSplit { Set, Check };  // chose the defaults / only tests them
const char* splitName(RowSplit s);    // "set", "check" (as in the corpus files)
enum class UnitKind { Milliseconds, Seconds, Throughput };

struct PublishedRow {
  std::string file;       // the corpus file it came from
  std::string name;       // unique over the corpus
  std::string source;     // where the figure is printed: document, table or sheet, version
  RowSplit split = RowSplit::Check;
  std::string hardware;   // as the source describes it
  std::string cluster;    // preset or cluster file (relative to the corpus file) it is simulated on
  std::string framework;  // framework preset (cluster/cluster.h)
  Precision precision = Precision::FP32;
  // The workload: a single kernel (kernel = "gemm" with m n k; "conv" with n c h w k r s,
  // stride, pad) or a model (model = "zoo:NAME" with batch, seq_len, layers, hidden, mode).
  std::string kernel;
  std::map<std::string, int64_t> dims;
  std::string model;
  GraphMode mode = GraphMode::Training;  // model rows: training or inference
  std::string placement = "single";  // a placement method (placement/placer.h)
  std::string table;      // rows of one table of placements share it; "" = none
  bool orderOnly = false; // the figure is kept for the order of its table, not for its value
  std::string unit;       // "ms", "s", or a throughput "<items>/s" (images/s, sequences/s, ...)
  UnitKind unitKind = UnitKind::Milliseconds;  // what `unit` is
  double itemsPerStep = 0;              // throughput rows: items one step processes
  std::optional<double> published;      // empty when the source reports the run out of memory
  std::string note;
};

// A corpus file, or every *.json file of a folder (sorted by name). Throws gp::Error naming the
// file, the row and the problem for anything malformed or a name used twice.
std::vector<PublishedRow> loadPublishedCorpus(const std::string& fileOrDir);
std::vector<PublishedRow> parsePublishedCorpus(const std::string& text, const std::string& source);

// Whether the unit is a throughput (its simulated value is itemsPerStep / step time).
bool isThroughputUnit(const std::string& unit);

// The corpus folder shipped with graphplace: $GP_RESOURCE_DIR/published, else
// <exe>/../share/graphplace/published, else tests/data/published in a folder above the
// executable; empty if none exists.
std::string publishedCorpusDir();

}  // namespace gp
