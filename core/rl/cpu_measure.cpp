#include "rl/cpu_measure.h"

#include <torch/torch.h>

#include <algorithm>
#include <chrono>
#include <map>
#include <thread>

#include "base/error.h"
#include "costmodel/cpu_cluster.h"

namespace gp::rl {
namespace {

using Kind = KernelSpec::Kind;

// The operands of one (kernel, layout), allocated before timing.
struct Operands {
  torch::Tensor a, b, c, d, e;
};

torch::Tensor randn(std::initializer_list<int64_t> shape) { return torch::randn(shape, torch::kFloat32); }

// Rows x cols, or its transposed view under layout 1 (stored cols x rows).
torch::Tensor matrix(int64_t rows, int64_t cols, uint8_t layout) {
  return layout == 0 ? randn({rows, cols}) : randn({cols, rows}).t();
}

Operands allocate(const KernelSpec& k, uint8_t layout) {
  Operands o;
  const auto cl = layout == 1 ? at::MemoryFormat::ChannelsLast : at::MemoryFormat::Contiguous;
  switch (k.kind) {
    case Kind::None:
      break;
    case Kind::Gemm:
      o.a = k.batch > 1 ? randn({k.batch, k.m, k.k}) : randn({k.m, k.k});
      o.b = layout == 0 ? randn({k.k, k.n}) : randn({k.n, k.k}).t();
      break;
    case Kind::Conv:
      o.a = randn({k.convN, k.convC, k.convH, k.convW}).contiguous(cl);
      o.b = randn({k.convK, k.convC, k.convR, k.convS}).contiguous(cl);
      break;
    case Kind::Pool:
      o.a = randn({k.convN, k.convC, k.convH, k.convW}).contiguous(cl);
      break;
    case Kind::Binary:
      o.a = randn({k.rows, k.cols});
      o.b = matrix(k.rows, k.cols, layout);
      o.c = torch::empty({k.rows, k.cols});
      break;
    case Kind::Unary:
    case Kind::Transcendental:
    case Kind::Copy:
      o.a = matrix(k.rows, k.cols, layout);
      o.c = torch::empty({k.rows, k.cols});
      break;
    case Kind::LayerNorm:
      o.a = matrix(k.rows, k.cols, layout);
      o.b = randn({k.cols});
      o.c = randn({k.cols});
      break;
    case Kind::BatchNorm:
      o.a = matrix(k.rows, k.cols, layout);
      o.b = randn({k.cols});
      o.c = randn({k.cols});
      o.d = torch::zeros({k.cols});
      o.e = torch::ones({k.cols});
      break;
    case Kind::Softmax:
    case Kind::Reduce:
      o.a = matrix(k.rows, k.cols, layout);
      break;
  }
  return o;
}

// The piece `i` of `tiles` along dimension `dim` of t (t itself for one tile).
torch::Tensor piece(const torch::Tensor& t, int64_t dim, int64_t i, int64_t tiles) {
  if (tiles <= 1) return t;
  const int64_t size = t.size(dim), step = (size + tiles - 1) / tiles, start = std::min(size, i * step);
  return t.narrow(dim, start, std::min(step, size - start));  // empty past the end (fewer rows than tiles)
}

void runKernel(const KernelCall& call, const Operands& o) {
  const KernelSpec& k = call.kernel;
  const int64_t tiles = std::max<int64_t>(1, call.tiles);
  for (int64_t i = 0; i < tiles; ++i) {
    switch (k.kind) {
      case Kind::None:
        return;
      case Kind::Gemm: {
        const torch::Tensor a = piece(o.a, o.a.dim() - 2, i, tiles);
        if (a.numel() > 0) (void)torch::matmul(a, o.b);
        break;
      }
      case Kind::Conv: {
        const torch::Tensor w = piece(o.b, 0, i, tiles);
        if (w.numel() > 0) (void)torch::conv2d(o.a, w, {}, k.stride, k.convR / 2);
        break;
      }
      case Kind::Pool: {
        const torch::Tensor x = piece(o.a, 1, i, tiles);
        if (x.numel() > 0) (void)torch::avg_pool2d(x, {k.convR, k.convS}, {k.convR, k.convS});
        break;
      }
      case Kind::Binary: {
        torch::Tensor out = piece(o.c, 0, i, tiles);
        if (out.numel() > 0) at::add_out(out, piece(o.a, 0, i, tiles), piece(o.b, 0, i, tiles));
        break;
      }
      case Kind::Unary: {
        torch::Tensor out = piece(o.c, 0, i, tiles);
        if (out.numel() > 0) at::clamp_min_out(out, piece(o.a, 0, i, tiles), 0);
        break;
      }
      case Kind::Transcendental: {
        torch::Tensor out = piece(o.c, 0, i, tiles);
        if (out.numel() > 0) at::tanh_out(out, piece(o.a, 0, i, tiles));
        break;
      }
      case Kind::Copy: {
        torch::Tensor out = piece(o.c, 0, i, tiles);
        if (out.numel() > 0) out.copy_(piece(o.a, 0, i, tiles));
        break;
      }
      case Kind::LayerNorm: {
        const torch::Tensor x = piece(o.a, 0, i, tiles);
        if (x.numel() > 0) (void)torch::layer_norm(x, {k.cols}, o.b, o.c);
        break;
      }
      case Kind::BatchNorm: {
        const torch::Tensor x = piece(o.a, 0, i, tiles);
        if (x.numel() > 0) (void)torch::batch_norm(x, o.b, o.c, o.d, o.e, false, 0.1, 1e-5, false);
        break;
      }
      case Kind::Softmax: {
        const torch::Tensor x = piece(o.a, 0, i, tiles);
        if (x.numel() > 0) (void)torch::softmax(x, -1);
        break;
      }
      case Kind::Reduce: {
        const torch::Tensor x = piece(o.a, 0, i, tiles);
        if (x.numel() > 0) (void)x.sum(-1);
        break;
      }
    }
  }
}

// One call; LibTorch's errors become one line naming the kernel.
void runCall(const KernelCall& call, const Operands& o) {
  try {
    runKernel(call, o);
  } catch (const c10::Error& e) {
    const KernelSpec& k = call.kernel;
    throw Error("measure", std::string("the ") + kernelKindName(k.kind) + " kernel (layout " + std::to_string(call.layout) +
                               ", " + std::to_string(call.tiles) + " tiles; m n k batch " + std::to_string(k.m) + " " +
                               std::to_string(k.n) + " " + std::to_string(k.k) + " " + std::to_string(k.batch) +
                               "; n c h w k r s " + std::to_string(k.convN) + " " + std::to_string(k.convC) + " " +
                               std::to_string(k.convH) + " " + std::to_string(k.convW) + " " + std::to_string(k.convK) +
                               " " + std::to_string(k.convR) + " " + std::to_string(k.convS) + "; rows cols " +
                               std::to_string(k.rows) + " " + std::to_string(k.cols) + ") failed: " +
                               e.what_without_backtrace());
  }
}

struct KeyLess {
  bool operator()(const std::pair<KernelSpec, uint8_t>& x, const std::pair<KernelSpec, uint8_t>& y) const {
    auto tie = [](const std::pair<KernelSpec, uint8_t>& p) {
      const KernelSpec& k = p.first;
      return std::make_tuple(static_cast<int>(k.kind), k.m, k.n, k.k, k.batch, k.convN, k.convC, k.convH, k.convW,
                             k.convK, k.convR, k.convS, k.stride, k.rows, k.cols, p.second);
    };
    return tie(x) < tie(y);
  }
};

// Restores LibTorch's thread count when the measurement ends.
class ThreadCount {
 public:
  ThreadCount() : before_(torch::get_num_threads()) {}
  ~ThreadCount() { torch::set_num_threads(before_); }
  ThreadCount(const ThreadCount&) = delete;
  ThreadCount& operator=(const ThreadCount&) = delete;

 private:
  int before_;
};

}  // namespace

std::string CpuMeasurementSource::deviceKind() const { return thisCpuKind(); }


std::vector<int32_t> CpuMeasurementSource::threadChoices() const {
  const int32_t hw = static_cast<int32_t>(std::max(1u, std::thread::hardware_concurrency()));
  std::vector<int32_t> out;
  for (int32_t t = 1; t < hw; t *= 2) out.push_back(t);
  out.push_back(hw);
  return out;
}

std::vector<RunTiming> CpuMeasurementSource::time(const std::vector<KernelRun>& runs, int repeats) {
  if (repeats < 1) throw Error("measure", "repeats must be at least 1");
  torch::NoGradGuard noGrad;
  ThreadCount restore;
  std::map<std::pair<KernelSpec, uint8_t>, Operands, KeyLess> operands;
  std::vector<std::vector<const Operands*>> ops(runs.size());
  for (size_t r = 0; r < runs.size(); ++r)
    for (const KernelCall& c : runs[r].calls) {
      auto key = std::make_pair(c.kernel, c.layout);
      auto it = operands.find(key);
      if (it == operands.end()) it = operands.emplace(key, allocate(c.kernel, c.layout)).first;
      ops[r].push_back(&it->second);
    }
  auto once = [&](size_t r) {
    if (cancel_ && cancel_->load()) throw Error("measure", "cancelled");
    torch::set_num_threads(std::max(1, runs[r].threads));
    const auto t0 = std::chrono::steady_clock::now();
    for (size_t i = 0; i < runs[r].calls.size(); ++i) runCall(runs[r].calls[i], *ops[r][i]);
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  };
  for (size_t r = 0; r < runs.size(); ++r) (void)once(r);  // warm-up
  std::vector<std::vector<double>> seconds(runs.size());
  for (int rep = 0; rep < repeats; ++rep)
    for (size_t r = 0; r < runs.size(); ++r) seconds[r].push_back(once(r));
  std::vector<RunTiming> out;
  for (auto& s : seconds) {
    std::sort(s.begin(), s.end());
    const double med = s.size() % 2 ? s[s.size() / 2] : 0.5 * (s[s.size() / 2 - 1] + s[s.size() / 2]);
    out.push_back({med, med > 0 ? (s.back() - s.front()) / med : 0});
  }
  return out;
}

}  // namespace gp::rl
