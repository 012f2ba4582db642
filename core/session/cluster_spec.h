// A cluster as the user names it on every front end (the CLI's --cluster, the app's Load
// Cluster, the Python module): a preset ("4xP100-PCIe"), N servers of a multi-server preset
// ("128x8xH100-IB"), a cluster file, random:SEED[:DEVICES], or "cpu" — this machine's CPU
// (costmodel/cpu_cluster.h) with the roofline fitted on the shipped cost models' measurements.
#pragma once
#include <string>

#include "cluster/cluster.h"

namespace gp {

// Throws gp::Error (one line naming the file or listing the presets) on bad input.
Cluster loadClusterSpec(const std::string& spec);

}  // namespace gp
