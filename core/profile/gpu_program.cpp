// buildGpuProgram / kernelForOp (profile/gpu_program.h): the plan's kernels as the simulator
// forms them (sim/kernels.h), its Op events (order per device) and its Transfer events (the
// peer copies) turned into what the GPU executor runs.
#include "profile/gpu_program.h"

#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>
#include <queue>
#include <span>
#include <string>
#include <tuple>

#include "cost/cost_model.h"
#include "graph/op_class.h"
#include "base/error.h"
#include "sim/kernels.h"
#include "sim/plan_check.h"

namespace gp {
namespace {

using Shape = std::span<const int64_t>;

int64_t product(Shape s) {
  int64_t p = 1;
  for (int64_t d : s) p *= d;
  return p;
}

bool positive(Shape s) {
  return std::all_of(s.begin(), s.end(), [](int64_t d) { return d > 0; });
}

DType kernelDType(DType t) { return t == DType::F16 || t == DType::BF16 ? t : DType::F32; }

// The FLOPs of a shape-derived kernel agree with the op's (a 2 % slack for importers that count
// a bias or a scale on top); an op without FLOPs takes the shapes as they are.
bool agrees(double derived, double flops) { return flops <= 0 || std::abs(derived - flops) <= 0.02 * flops; }

// A GEMM of `flops` FLOPs with no shapes to go on: a cube n^3 with 2 n^3 = flops.
void cube(GpuKernel& k, double flops) {
  const auto n = std::max<int64_t>(1, std::llround(std::cbrt(std::max(0.0, flops) / 2)));
  k.kind = GpuKernel::Kind::Gemm;
  k.m = k.n = k.k = n;
  k.batch = 1;
}

// cuBLAS takes int sizes.
constexpr int64_t kCublasMax = 2147483647;

// MatMul-class shapes: A [..., M, K] x B [..., K, N] (a rank-1 A is [1, K], a rank-1 B [K, 1]).
// Graphs do not record transposes, so the four (A, A^T) x (B, B^T) readings are tried in turn
// and the first whose FLOPs agree with the op's (and whose output is the op's size) wins. When
// B has no leading dimensions (a weight), A's leading dimensions fold into M (one GEMM);
// otherwise into the batch, or into K for a weight gradient (output without them).
bool gemmFromShapes(const Graph& g, OpId op, GpuKernel& k) {
  auto in = g.inputs(op);
  if (in.size() < 2 || !g.hasShape(in[0]) || !g.hasShape(in[1])) return false;
  const Shape a = g.shape(in[0]), b = g.shape(in[1]);
  if (a.empty() || b.empty() || !positive(a) || !positive(b)) return false;
  const int64_t a1 = a.back(), a0 = a.size() >= 2 ? a[a.size() - 2] : 1;  // A = [a0, a1]
  const int64_t b0 = b.size() >= 2 ? b[b.size() - 2] : b.back();        // B = [b0, b1]
  const int64_t b1 = b.size() >= 2 ? b.back() : 1;
  const int64_t batchA = a.size() > 2 ? product(a.first(a.size() - 2)) : 1;
  const int64_t batchB = b.size() > 2 ? product(b.first(b.size() - 2)) : 1;
  if (batchA != batchB && batchA != 1 && batchB != 1) return false;
  struct Reading {
    bool transA;
    int64_t m, kk, k2, n;  // C[m, n] = op(A)[m, kk] * op(B)[k2, n], kk must equal k2
  };
  const Reading readings[] = {{false, a0, a1, b0, b1}, {false, a0, a1, b1, b0}, {true, a1, a0, b0, b1}, {true, a1, a0, b1, b0}};
  // The output's size, when known, must be the reading's batch x m x n too (a gradient's FLOPs
  // can match a batched reading that writes far more than the op does).
  int64_t outElems = -1;
  if (auto out = g.outputs(op); !out.empty() && g.hasShape(out[0]) && positive(g.shape(out[0])))
    outElems = product(g.shape(out[0]));
  for (const Reading& r : readings) {
    if (r.kk != r.k2) continue;
    int64_t m = r.m, batch = std::max(batchA, batchB);
    if (batchB == 1 && !r.transA) {  // a shared right operand: one GEMM over every row of A
      m *= batchA;
      batch = 1;
    }
    const double derived = 2.0 * static_cast<double>(batch) * static_cast<double>(m) * static_cast<double>(r.n) *
                           static_cast<double>(r.kk);
    if (!agrees(derived, g.flops(op))) continue;
    if (outElems >= 0 && batch * m * r.n != outElems) continue;
    if (m > kCublasMax || r.n > kCublasMax || r.kk > kCublasMax || batch > kCublasMax) continue;
    k.kind = GpuKernel::Kind::Gemm;
    k.m = m;
    k.n = r.n;
    k.k = r.kk;
    k.batch = batch;
    return true;
  }
  // A weight gradient over a batch (both operands [..., x, y], output without the leading
  // dimensions): the batch folds into the reduction, one GEMM with k = batch x kk.
  if (batchA == batchB && batchA > 1 && outElems >= 0)
    for (const Reading& r : readings) {
      if (r.kk != r.k2 || r.m * r.n != outElems || r.kk * batchA > kCublasMax) continue;
      const double derived = 2.0 * static_cast<double>(batchA) * static_cast<double>(r.m) *
                             static_cast<double>(r.n) * static_cast<double>(r.kk);
      if (!agrees(derived, g.flops(op))) continue;
      k.kind = GpuKernel::Kind::Gemm;
      k.m = r.m;
      k.n = r.n;
      k.k = r.kk * batchA;
      k.batch = 1;
      return true;
    }
  return false;
}

// The stride that takes an extent `in` to `out` with "same" padding (out = ceil(in / s)), else
// with "valid" padding (out = ceil((in - r + 1) / s)), else 1.
int64_t strideOf(int64_t in, int64_t out, int64_t r) {
  for (int64_t s = 1; s <= in; ++s)
    if ((in + s - 1) / s == out) return s;
  const int64_t valid = in - r + 1;
  for (int64_t s = 1; s <= valid; ++s)
    if ((valid + s - 1) / s == out) return s;
  return 1;
}

// Conv-class shapes: NHWC input [n,h,w,c] with filter [r,s,c,k] and output [n,oh,ow,k]; an
// NCHW input [n,c,h,w] with filter [k,c,r,s] (ONNX) runs as the same NHWC convolution; a 1-D
// [n,w,c] input with filter [s,c,k] as h = r = 1. The graph has no attributes: strides come
// from the output shape. Grouped and depthwise convolutions do not read (their output
// channels are not the filter's k) and fall back to a GEMM.
bool convFromShapes(const Graph& g, OpId op, GpuKernel& k) {
  auto in = g.inputs(op);
  auto out = g.outputs(op);
  if (in.size() < 2 || out.empty() || !g.hasShape(in[0]) || !g.hasShape(in[1]) || !g.hasShape(out[0])) return false;
  const Shape x = g.shape(in[0]), f = g.shape(in[1]), y = g.shape(out[0]);
  if (!positive(x) || !positive(f) || !positive(y) || x.size() != f.size() || x.size() != y.size()) return false;
  int64_t n = 0, h = 0, w = 0, c = 0, r = 0, s = 0, kk = 0, oh = 0, ow = 0;
  if (x.size() == 4 && x[3] == f[2] && y[3] == f[3] && y[0] == x[0]) {  // NHWC
    n = x[0], h = x[1], w = x[2], c = x[3], r = f[0], s = f[1], kk = f[3], oh = y[1], ow = y[2];
  } else if (x.size() == 4 && x[1] == f[1] && y[1] == f[0] && y[0] == x[0]) {  // NCHW
    n = x[0], c = x[1], h = x[2], w = x[3], kk = f[0], r = f[2], s = f[3], oh = y[2], ow = y[3];
  } else if (x.size() == 3 && x[2] == f[1] && y[2] == f[2] && y[0] == x[0]) {  // 1-D, NWC
    n = x[0], h = 1, w = x[1], c = x[2], r = 1, s = f[0], kk = f[2], oh = 1, ow = y[1];
  } else {
    return false;
  }
  if (oh > h || ow > w) return false;
  // cuDNN's 4-d descriptors have int strides: larger tensors run as the GEMM of the same FLOPs
  constexpr int64_t kIntMax = 2147483647;
  if (product(x) > kIntMax || product(f) > kIntMax || product(y) > kIntMax) return false;
  k.kind = GpuKernel::Kind::Conv;
  k.convN = n, k.convH = h, k.convW = w, k.convC = c, k.convK = kk, k.convR = r, k.convS = s;
  k.strideH = strideOf(h, oh, r);
  k.strideW = strideOf(w, ow, s);
  return true;
}

// The kernel shape of `op` as the representative of a task of class `cls` (FLOPs and bytes set
// by the caller).
void shapeKernel(const CostModel& cost, OpId op, GpuKernel& k) {
  const Graph& g = cost.graph();
  switch (cost.opClass(op)) {
    case OpClass::MatMul:
      if (!gemmFromShapes(g, op, k)) cube(k, g.flops(op));
      return;
    case OpClass::Conv:
      if (!convFromShapes(g, op, k)) cube(k, g.flops(op));
      return;
    default:
      k.kind = GpuKernel::Kind::Memory;
  }
}

int64_t operandBytes(const GpuKernel& k) {
  const int64_t e = dtypeSize(k.dtype);
  switch (k.kind) {
    case GpuKernel::Kind::None:
      return 0;
    case GpuKernel::Kind::Gemm:
      return k.batch * (k.m * k.k + k.k * k.n + k.m * k.n) * e;
    case GpuKernel::Kind::Conv: {
      const int64_t oh = (k.convH + k.strideH - 1) / k.strideH, ow = (k.convW + k.strideW - 1) / k.strideW;
      return (k.convN * k.convH * k.convW * k.convC + k.convR * k.convS * k.convC * k.convK +
              k.convN * oh * ow * k.convK) *
             e;
    }
    case GpuKernel::Kind::Memory:
      return k.bytesRead + k.bytesWritten;
  }
  return 0;
}

}  // namespace

GpuKernel kernelForOp(const CostModel& cost, OpId op) {
  const Graph& g = cost.graph();
  if (op < 0 || op >= g.numOps()) throw Error("measure", "op " + std::to_string(op) + " is not in the graph");
  GpuKernel k;
  if (cost.isMetadata(op)) return k;
  k.dtype = kernelDType(cost.opDType(op));
  k.flops = g.flops(op);
  k.bytesRead = g.bytesRead(op);
  k.bytesWritten = g.bytesWritten(op);
  shapeKernel(cost, op, k);
  return k;
}

GpuProgram buildGpuProgram(const CostModel& cost, const Plan& plan, const Measurement& simulated) {
  const Graph& g = cost.graph();
  const Cluster& c = cost.cluster();
  const int32_t n = g.numOps(), nd = c.numDevices();
  if (!simulated.feasible)
    throw Error("measure", "the plan is not feasible" + (simulated.problem.empty() ? "" : ": " + simulated.problem));
  if (const std::string why = planProblem(g, nd, plan); !why.empty()) throw Error("measure", why);
  if (n > 0 && simulated.timeline.empty())
    throw Error("measure", "the simulated measurement has no timeline (simulate with the timeline recorded)");

  // The simulator's kernels (sim/kernels.h), one launch each, in the order of their first ops.
  PlanKernels kernels;
  kernels.form(plan, n);
  std::vector<int32_t> launchOf(static_cast<size_t>(n), -1);
  GpuProgram p;
  p.numDevices = nd;
  p.simulatedStepTime = simulated.stepTime;
  KernelWorkScratch scratch;
  for (OpId k = 0; k < n; ++k) {
    if (kernels.kernelOf(k) != k) continue;
    GpuLaunch& l = p.launches.emplace_back();
    const auto ops = kernels.ops(k);
    l.ops.assign(ops.begin(), ops.end());
    l.device = plan.device[k];
    l.fusionGroup = plan.fusionGroup.empty() ? -1 : plan.fusionGroup[k];
    for (OpId op : ops) launchOf[op] = static_cast<int32_t>(p.launches.size()) - 1;
    if (!kernels.fused(k)) {
      l.kernel = kernelForOp(cost, k);
      continue;
    }
    // A fused kernel: its lead op's shape with the kernel's summed FLOPs and boundary traffic.
    const KernelWork w = kernelWork(cost, kernels, k, scratch);
    if (w.lead == kNone) continue;  // metadata ops only: no kernel
    l.kernel.dtype = kernelDType(cost.opDType(w.lead));
    l.kernel.flops = w.flops;
    l.kernel.bytesRead = w.bytesRead;
    l.kernel.bytesWritten = w.bytesWritten;
    shapeKernel(cost, w.lead, l.kernel);
  }

  // Simulated times and the order per device: the timeline's Op events in their order.
  std::vector<int64_t> firstEvent(p.launches.size(), -1);
  std::vector<std::pair<TensorId, int32_t>> transfers;  // (tensor, dst) in timeline order
  std::vector<size_t> transferEvent;
  for (size_t i = 0; i < simulated.timeline.size(); ++i) {
    const TimelineEvent& e = simulated.timeline[i];
    if (e.kind == TimelineEvent::Kind::Op) {
      if (e.id < 0 || e.id >= n) throw Error("measure", "the simulated timeline names op " + std::to_string(e.id) + ", not in the graph");
      const int32_t l = launchOf[e.id];
      if (firstEvent[l] < 0) {
        firstEvent[l] = static_cast<int64_t>(i);
        p.launches[l].simStart = e.start;
        p.launches[l].simEnd = e.end;
      }
    } else {
      if (e.id < 0 || e.id >= g.numTensors() || e.dst < 0 || e.dst >= nd)
        throw Error("measure", "the simulated timeline has a transfer of an unknown tensor or device");
      transfers.emplace_back(e.id, e.dst);
      transferEvent.push_back(i);
    }
  }
  for (size_t l = 0; l < p.launches.size(); ++l)
    if (firstEvent[l] < 0)
      throw Error("measure", "the simulated timeline does not have op '" + g.opName(p.launches[l].ops[0]) +
                                 "' (a measurement of another plan?)");
  p.order.assign(static_cast<size_t>(nd), {});
  std::vector<int32_t> byStart(p.launches.size());
  for (size_t l = 0; l < byStart.size(); ++l) byStart[l] = static_cast<int32_t>(l);
  std::stable_sort(byStart.begin(), byStart.end(), [&](int32_t a, int32_t b) {
    if (p.launches[a].simStart != p.launches[b].simStart) return p.launches[a].simStart < p.launches[b].simStart;
    return firstEvent[a] < firstEvent[b];
  });
  for (int32_t l : byStart) p.order[p.launches[l].device].push_back(l);

  // Copies: one per Transfer event; the source is the producer's device (a parameter's: the
  // device of its first consumer, where it is resident).
  std::vector<std::vector<std::pair<int32_t, int32_t>>> copyOf(static_cast<size_t>(g.numTensors()));  // (dst, copy)
  for (size_t i = 0; i < transfers.size(); ++i) {
    const auto [t, dst] = transfers[i];
    const TimelineEvent& e = simulated.timeline[transferEvent[i]];
    const OpId producer = g.producer(t);
    GpuCopy cp;
    cp.tensor = t;
    cp.dst = dst;
    if (producer != kNone) {
      cp.src = plan.device[producer];
      cp.after = launchOf[producer];
    } else if (!g.consumers(t).empty()) {
      cp.src = plan.device[g.consumers(t)[0]];
    } else {
      throw Error("measure", "the simulated timeline sends tensor '" + g.tensorName(t) + "', which nothing reads");
    }
    if (cp.src == dst) throw Error("measure", "the simulated timeline sends tensor '" + g.tensorName(t) + "' to its own device");
    cp.bytes = e.bytes;
    cp.simStart = e.start;
    cp.simEnd = e.end;
    copyOf[t].emplace_back(dst, static_cast<int32_t>(p.copies.size()));
    p.copies.push_back(cp);
  }
  // A launch waits for the copies of the tensors it reads from other devices.
  for (size_t l = 0; l < p.launches.size(); ++l) {
    GpuLaunch& launch = p.launches[l];
    for (OpId op : launch.ops)
      for (TensorId t : g.inputs(op))
        for (auto [dst, copy] : copyOf[t])
          if (dst == launch.device &&
              std::find(launch.waitCopies.begin(), launch.waitCopies.end(), copy) == launch.waitCopies.end())
            launch.waitCopies.push_back(copy);
    std::sort(launch.waitCopies.begin(), launch.waitCopies.end());
  }

  // Issue order: Kahn over launches and copies (edges: producer -> copy, copy -> reader, each
  // device's stream order), the earliest simulated start first; ties: copies before launches.
  const int32_t numL = static_cast<int32_t>(p.launches.size()), numC = static_cast<int32_t>(p.copies.size());
  const int32_t total = numL + numC;  // node: launch l = l, copy c = numL + c
  std::vector<std::vector<int32_t>> next(static_cast<size_t>(total));
  std::vector<int32_t> indegree(static_cast<size_t>(total), 0);
  auto edge = [&](int32_t a, int32_t b) {
    next[a].push_back(b);
    ++indegree[b];
  };
  for (const auto& ord : p.order)
    for (size_t i = 1; i < ord.size(); ++i) edge(ord[i - 1], ord[i]);
  for (int32_t cIdx = 0; cIdx < numC; ++cIdx)
    if (p.copies[cIdx].after >= 0) edge(p.copies[cIdx].after, numL + cIdx);
  for (int32_t l = 0; l < numL; ++l)
    for (int32_t cIdx : p.launches[l].waitCopies) edge(numL + cIdx, l);
  using Key = std::tuple<double, int, int32_t>;  // (simStart, launch?, node)
  auto keyOf = [&](int32_t v) {
    return v < numL ? Key{p.launches[v].simStart, 1, v} : Key{p.copies[v - numL].simStart, 0, v};
  };
  std::priority_queue<Key, std::vector<Key>, std::greater<>> ready;
  for (int32_t v = 0; v < total; ++v)
    if (indegree[v] == 0) ready.push(keyOf(v));
  while (!ready.empty()) {
    const int32_t v = std::get<2>(ready.top());
    ready.pop();
    p.issue.push_back(v < numL ? GpuIssue{false, v} : GpuIssue{true, v - numL});
    for (int32_t w : next[v])
      if (--indegree[w] == 0) ready.push(keyOf(w));
  }
  if (static_cast<int32_t>(p.issue.size()) != total)
    throw Error("measure", "the simulated timeline orders kernels and copies in a cycle (a measurement of another plan?)");

  // Scratch per device: the largest operands of one launch or copy.
  p.scratchBytes.assign(static_cast<size_t>(nd), 0);
  for (const GpuLaunch& l : p.launches)
    p.scratchBytes[l.device] = std::max(p.scratchBytes[l.device], operandBytes(l.kernel));
  for (const GpuCopy& cp : p.copies) {
    p.scratchBytes[cp.src] = std::max(p.scratchBytes[cp.src], cp.bytes);
    p.scratchBytes[cp.dst] = std::max(p.scratchBytes[cp.dst], cp.bytes);
  }
  return p;
}

}  // namespace gp
