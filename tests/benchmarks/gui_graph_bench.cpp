// Rendering benchmarks of the graph view (offscreen): opening the GNMT training graph, the
// unrolled seq2seq ONNX fixture and a synthetic chain to the first painted frame (the layout of
// the initial expanded set + one paint; Graphviz may refine it afterwards), and one frame after a
// pan / zoom step with all 63,799 GNMT ops expanded, at a zoom where boxes are readable and at
// zoom-to-fit.
#include <benchmark/benchmark.h>

#include <QApplication>
#include <QElapsedTimer>
#include <QImage>
#include <QPainter>
#include <QThread>
#include <cmath>
#include <memory>

#include "graph/graph_view.h"
#include "graph/scope_tree.h"
#include "io/model_loader.h"
#include "gui_view_wait.h"
#include "synthetic_graph.h"

namespace {

using gpbench::waitFirstLayout;
using gpbench::waitLayout;

constexpr int kWidth = 1600, kHeight = 1000;

void waitOverview(gp::GraphView& v) {
  QElapsedTimer t;
  t.start();
  while (!v.overviewReady() && t.elapsed() < 20000) {
    QApplication::processEvents(QEventLoop::AllEvents, 5);
    QThread::usleep(200);
  }
}

// The fully expanded GNMT graph in a view, made once.
gp::GraphView& expandedGnmt() {
  static std::unique_ptr<gp::GraphView> view = [] {
    auto v = std::make_unique<gp::GraphView>();
    v->resize(kWidth, kHeight);
    auto g = std::make_shared<const gp::Graph>(gp::loadModel("zoo:gnmt"));
    v->setGraph(g);
    waitLayout(*v);
    gp::Plan plan = gp::Plan::singleDevice(g->numOps(), 0);
    for (gp::OpId op = 0; op < g->numOps(); ++op) plan.device[op] = g->opScope(op) % 4;
    v->setDevices({"gpu0", "gpu1", "gpu2", "gpu3"});
    v->setPlan(plan);
    v->expandAll();
    waitLayout(*v);
    waitOverview(*v);
    return v;
  }();
  return *view;
}

// zoom 0: readable boxes (0.6 px per unit) in the middle of the graph; 1: zoom to fit;
// 2: in between (0.06 px per unit: thousands of plain boxes and edges on screen)
void placeViewport(gp::GraphView& v, int zoomCase) {
  if (zoomCase == 1) {
    v.zoomToFit();
  } else {
    v.setViewport(QPointF(0, 0), zoomCase == 0 ? 0.6 : 0.06);
    v.centerOnOp(30000);
  }
}

void BM_OpenGnmtToFirstFrame(benchmark::State& state) {
  QImage frame(kWidth, kHeight, QImage::Format_ARGB32_Premultiplied);
  for (auto _ : state) {
    QElapsedTimer t;
    t.start();
    auto g = std::make_shared<const gp::Graph>(gp::loadModel("zoo:gnmt"));
    const double loadMs = t.nsecsElapsed() * 1e-6;
    gp::GraphView view;
    view.resize(kWidth, kHeight);
    view.setGraph(g);
    waitLayout(view);
    view.render(&frame);
    benchmark::DoNotOptimize(frame.constBits());
    state.SetIterationTime(t.nsecsElapsed() * 1e-9);
    state.counters["load_ms"] = loadMs;
  }
}
BENCHMARK(BM_OpenGnmtToFirstFrame)->Unit(benchmark::kMillisecond)->UseManualTime()->Iterations(3);

// Open -> first frame of an already loaded graph: scope grouping, layout of what the first view
// shows, one paint. Counters: first_frame_ms (timed), final_ms (until the layout is final, with
// Graphviz's within its budget), boxes, zoom of the first view.
void openToFirstFrame(benchmark::State& state, const std::shared_ptr<const gp::Graph>& g) {
  QImage frame(kWidth, kHeight, QImage::Format_ARGB32_Premultiplied);
  double finalMs = 0;
  for (auto _ : state) {
    QElapsedTimer t;
    t.start();
    gp::GraphView view;
    view.resize(kWidth, kHeight);
    view.setGraph(g);
    waitFirstLayout(view);
    view.render(&frame);
    benchmark::DoNotOptimize(frame.constBits());
    state.SetIterationTime(t.nsecsElapsed() * 1e-9);
    waitLayout(view);
    finalMs += t.nsecsElapsed() * 1e-6;
    state.counters["boxes"] = view.visibleNodeCount();
    state.counters["zoom"] = view.zoom();
    state.counters["graphviz"] = view.isGraphvizLayout();
  }
  state.counters["final_ms"] = benchmark::Counter(finalMs, benchmark::Counter::kAvgIterations);
}

void BM_OpenSeq2seqToFirstFrame(benchmark::State& state) {
  QElapsedTimer t;
  t.start();
  auto g = std::make_shared<const gp::Graph>(gp::loadModel(GP_TEST_DATA_DIR "/onnx/seq2seq_unrolled.onnx"));
  state.counters["load_ms"] = t.nsecsElapsed() * 1e-6;
  openToFirstFrame(state, g);
}
BENCHMARK(BM_OpenSeq2seqToFirstFrame)->Unit(benchmark::kMillisecond)->UseManualTime()->Iterations(3);

// A chain of N ops in N / 100 scopes ("block_B/layer_L"), each op reading the previous one and
// the one 7 back: 20,000 ops, and a million (the graph is built outside the timing).
void BM_OpenSyntheticChainToFirstFrame(benchmark::State& state) {
  auto g = std::make_shared<const gp::Graph>(gptest::syntheticChainGraph(static_cast<int>(state.range(0))));
  openToFirstFrame(state, g);
}
BENCHMARK(BM_OpenSyntheticChainToFirstFrame)
    ->Arg(20000)
    ->Arg(1000000)
    ->Unit(benchmark::kMillisecond)
    ->UseManualTime()
    ->Iterations(3);

// One frame after a 40-px pan of the million-op chain's first view (its layout final).
void BM_PanFrameMillionOps(benchmark::State& state) {
  static const auto g = std::make_shared<const gp::Graph>(gptest::syntheticChainGraph(1000000));
  gp::GraphView v;
  v.resize(kWidth, kHeight);
  v.setGraph(g);
  waitLayout(v);
  QImage frame(kWidth, kHeight, QImage::Format_ARGB32_Premultiplied);
  const QPointF start = v.viewportOrigin();
  const double step = 40 / v.zoom();
  int n = 0;
  for (auto _ : state) {
    const int k = n++ % 20;
    v.setViewport(start + QPointF((k < 10 ? k : 20 - k) * step, 0), v.zoom());
    v.render(&frame);
    benchmark::DoNotOptimize(frame.constBits());
  }
  state.counters["boxes"] = v.visibleNodeCount();
  state.counters["zoom"] = v.zoom();
}
BENCHMARK(BM_PanFrameMillionOps)->Unit(benchmark::kMillisecond);

// The display grouping alone (ScopeTree) of the seq2seq fixture and of GNMT's training graph.
void BM_ScopeGrouping(benchmark::State& state) {
  static const gp::Graph seq2seq = gp::loadModel(GP_TEST_DATA_DIR "/onnx/seq2seq_unrolled.onnx");
  static const gp::Graph gnmt = gp::loadModel("zoo:gnmt");
  const gp::Graph& g = state.range(0) == 0 ? seq2seq : gnmt;
  for (auto _ : state) {
    gp::ScopeTree tree(g);
    benchmark::DoNotOptimize(tree.numScopes());
  }
  state.counters["ops"] = g.numOps();
}
BENCHMARK(BM_ScopeGrouping)->Arg(0)->Arg(1)->Unit(benchmark::kMillisecond);

void BM_PanFrameExpanded(benchmark::State& state) {
  gp::GraphView& v = expandedGnmt();
  placeViewport(v, static_cast<int>(state.range(0)));
  QImage frame(kWidth, kHeight, QImage::Format_ARGB32_Premultiplied);
  const QPointF start = v.viewportOrigin();
  const double step = 40 / v.zoom();  // 40 px per frame, 10 frames right then 10 back
  int n = 0;
  for (auto _ : state) {
    const int k = n++ % 20;
    const double dx = (k < 10 ? k : 20 - k) * step;
    v.setViewport(start + QPointF(dx, dx / 2), v.zoom());
    v.render(&frame);
    benchmark::DoNotOptimize(frame.constBits());
  }
  state.counters["zoom"] = v.zoom();
}
BENCHMARK(BM_PanFrameExpanded)->Arg(0)->Arg(1)->Arg(2)->Unit(benchmark::kMillisecond);

void BM_ZoomFrameExpanded(benchmark::State& state) {
  gp::GraphView& v = expandedGnmt();
  placeViewport(v, static_cast<int>(state.range(0)));
  QImage frame(kWidth, kHeight, QImage::Format_ARGB32_Premultiplied);
  const QPointF start = v.viewportOrigin();
  const double z0 = v.zoom();
  const QPointF centre(kWidth / 2.0, kHeight / 2.0);
  int n = 0;
  for (auto _ : state) {
    const int k = n++ % 10;  // five wheel steps in (x1.2 each), five out, around the centre
    const double z = z0 * std::pow(1.2, k < 5 ? k : 10 - k);
    const QPointF scenePos = start + centre / z0;
    v.setViewport(scenePos - centre / z, z);
    v.render(&frame);
    benchmark::DoNotOptimize(frame.constBits());
  }
  state.counters["zoom"] = z0;
}
BENCHMARK(BM_ZoomFrameExpanded)->Arg(0)->Arg(1)->Arg(2)->Unit(benchmark::kMillisecond);

}  // namespace
