#include "cli/cli_model_options.h"

#include <stdexcept>

namespace gp::cli {

const std::set<std::string>& modelOptions() {
  static const std::set<std::string> options{"--mode", "--input-shape", "--batch", "--seq-len"};
  return options;
}

LoadOptions loadOptionsFrom(const Args& a) {
  LoadOptions o;
  if (auto m = a.value("--mode")) {
    if (*m == "inference") o.mode = GraphMode::Inference;
    else if (*m == "training") o.mode = GraphMode::Training;
    else throw std::invalid_argument("--mode must be 'inference' or 'training', got '" + *m + "'");
  }
  if (auto s = a.value("--input-shape")) o.import.inputShape = parseShape(*s);
  o.zoo.batch = a.intValue("--batch", 0);
  o.zoo.seqLen = a.intValue("--seq-len", 0);
  return o;
}

}  // namespace gp::cli
