// DOT export: the graph with its placement as Graphviz DOT, coloured by device, that our DOT
// importer (io/dot_import.h) reads back to the same ops, types, FLOPs, output bytes, edges and
// requested devices.
//
//   digraph "resnet18" {
//     graph [label=<...legend...>, labelloc=t];
//     node [shape=box, style="rounded,filled"];
//     "/layer1/conv/Conv" [label="Conv", op="Conv", flops="2.3e+08", bytes="802816",
//                          device="gpu1", device_index="1", fillcolor="#f28e2b", fontcolor="#000000"];
//     "/layer1/conv/Conv" -> "/layer1/Relu" [bytes="802816", label="784 KiB"];
//   }
//
// Nodes: one per op, in op-id order; the node id is the op name; `label` is the last component
// of the name and, when different, the op type; `op`, `flops`, `bytes` (the op's output bytes), `device` (the
// plan's device name) and `device_index` are what the importer reads (it ignores the rest);
// `priority` / `fusion_group` when the plan has them. Edges: one per producer -> consumer op
// pair, `bytes` = the bytes of the tensors the consumer reads from the producer. The graph
// label is a legend: one coloured cell per device. Colours are base/device_palette.h's.
//
// Names: every id is a quoted string with `"` escaped. cgraph cannot read a quoted string
// with an odd run of backslashes before a quote, a newline or its end; such a name is
// written as a Graphviz HTML string <...> when its angle brackets nest (cgraph returns the
// text between them unchanged), else std::invalid_argument. Labels escape backslashes and
// newlines for display.
#pragma once
#include <string>

#include "cluster/cluster.h"
#include "graph/graph.h"
#include "sim/plan.h"

namespace gp {

// The DOT text. An empty plan.device writes the graph unplaced (grey nodes, no device
// attributes). Throws std::invalid_argument if a non-empty plan.device does not cover g with
// devices of c, or an op name cannot be written (see above).
std::string graphToDot(const Graph& g, const Plan& plan, const Cluster& c);

}  // namespace gp
