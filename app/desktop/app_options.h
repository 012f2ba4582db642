// The desktop app's command line:
//   graphplace [MODEL] [--cluster PRESET|FILE] [--placement FILE] [--mode inference|training]
//              [--ignore-hash] [--dim NAME=VALUE]... [--precision fp32|tf32|fp16|bf16|fp8]
//              [--screenshot OUT.png] [--size WxH]
//              [--language zh_CN|ko_KR|en]
// With no MODEL the built-in example opens (zoo:nmt on 4xP100-PCIe, expert placement, measured).
#pragma once
#include <QSize>
#include <QString>
#include <QStringList>
#include <map>
#include <string>

#include "io/model_loader.h"

namespace gp {

struct AppOptions {
  QString model, cluster, placement;
  GraphMode mode = GraphMode::Default;
  bool ignoreHash = false;
  std::map<std::string, int64_t> dims;  // --dim: symbolic dimensions of an ONNX model
  Precision precision = Precision::FP32;  // --precision
  QString screenshot;            // save a PNG of the main window once ready, then exit
  QSize size{1600, 1000};        // window size for --screenshot
  QString language;              // empty: settings, else the system locale
  bool exitNow = false;          // --help / --version printed
  int exitCode = 0;
};

// Parses the arguments (args[0] is the program). Errors: exitNow with exitCode 2 and a message
// printed to stderr.
AppOptions parseAppOptions(const QStringList& args);

}  // namespace gp
