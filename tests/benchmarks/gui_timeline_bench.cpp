// Frame time of the timeline (Gantt) view painting the GNMT training step on 4 GPUs
// (~64k kernels + transfers on every channel of their routes), offscreen into a QImage.
// Target: < 16 ms per frame.
#include <benchmark/benchmark.h>

#include <QImage>
#include <QPainter>
#include <memory>

#include "cluster/cluster.h"
#include "cost/cost_model.h"
#include "io/model_loader.h"
#include "placement/placer.h"
#include "sim/simulator.h"
#include "timeline/timeline_view.h"

namespace {

struct GnmtTimeline {
  std::shared_ptr<const gp::Graph> graph = std::make_shared<const gp::Graph>(gp::loadModel("zoo:gnmt"));
  gp::Cluster cluster = gp::loadCluster("4xP100-PCIe");
  gp::Measurement measurement;
  GnmtTimeline() {
    gp::CostModel cost(*graph, cluster);
    gp::Simulator sim(cost);
    measurement = gp::runPlacement("m_topo", cost, sim).measurement;
  }
};

const GnmtTimeline& gnmt() {
  static const GnmtTimeline t;
  return t;
}

// One frame = QWidget::render of the whole view (paintEvent) into a 1600x600 image.
void paintFrames(benchmark::State& state, double windowFraction) {
  const GnmtTimeline& t = gnmt();
  gp::TimelineView view;
  view.resize(1600, 600);
  view.setData(t.graph, t.cluster, t.measurement);
  const double step = t.measurement.stepTime;
  if (windowFraction < 1) view.setVisibleTimeRange(0.5 * step, (0.5 + windowFraction) * step);
  QImage image(view.size(), QImage::Format_ARGB32_Premultiplied);
  for (auto _ : state) {
    view.render(&image);
    benchmark::DoNotOptimize(image.constBits());
  }
  state.counters["bars"] = static_cast<double>(view.barCount());
}

void BM_TimelineFrame_ZoomToFit(benchmark::State& state) {
  paintFrames(state, 1.0);
}
void BM_TimelineFrame_Zoom1Percent(benchmark::State& state) {
  paintFrames(state, 0.01);
}
void BM_TimelineFrame_Zoom0_05Percent(benchmark::State& state) {
  paintFrames(state, 0.0005);
}

// Building the rows and bars from the measurement (on every new measurement).
void BM_TimelineSetData(benchmark::State& state) {
  const GnmtTimeline& t = gnmt();
  gp::TimelineView view;
  view.resize(1600, 600);
  for (auto _ : state) view.setData(t.graph, t.cluster, t.measurement);
  state.counters["events"] = static_cast<double>(t.measurement.timeline.size());
}

}  // namespace

BENCHMARK(BM_TimelineFrame_ZoomToFit)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_TimelineFrame_Zoom1Percent)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_TimelineFrame_Zoom0_05Percent)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_TimelineSetData)->Unit(benchmark::kMillisecond);
