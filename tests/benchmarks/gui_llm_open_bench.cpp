// The desktop app on an LLM at cluster scale, as the app makes its windows (Document +
// MainWindow, offscreen): open → the first frame of the Parallel Plan view (the op graph loaded
// for the main window, the model loaded as a layer stack, Megatron's plan found and simulated,
// both windows painted), and a change of the plan (tp) re-simulated and repainted. Process start
// is timed by tests/benchmarks/llm_open.sh, which runs `graphplace --screenshot`.
//   build/release/tests/benchmarks/gp_gui_benchmarks --benchmark_filter=Llm
// Counters: gpus, rss_mib (the process's resident memory after the frame).
#include <benchmark/benchmark.h>

#include <QApplication>
#include <QElapsedTimer>
#include <QFile>
#include <QImage>
#include <QThread>

#include "document.h"
#include "main_window.h"
#include "parallel/parallel_edits.h"
#include "parallel_window.h"

namespace {

double residentMiB() {
  QFile f(QStringLiteral("/proc/self/status"));
  if (!f.open(QIODevice::ReadOnly)) return 0;
  for (const QByteArray& line : f.readAll().split('\n'))
    if (line.startsWith("VmRSS:")) return line.mid(6).trimmed().split(' ').front().toDouble() / 1024;
  return 0;
}

// Spins the event loop until the Parallel Plan window shows its first plan; null after 10 min.
gp::ParallelWindow* waitFirstPlan(gp::MainWindow& w) {
  QElapsedTimer t;
  t.start();
  while (t.elapsed() < 600000) {
    QApplication::processEvents(QEventLoop::AllEvents, 5);
    gp::ParallelWindow* pw = w.parallelWindow();
    if (pw && pw->isVisible() && pw->showsPlan() && !pw->session()->isLoading()) return pw;
    QThread::usleep(200);
  }
  return nullptr;
}

// The app's two windows on `model` and `cluster`, as main.cpp makes them; plan() is null until
// the Parallel Plan window shows its first plan (wait()).
struct App {
  gp::Document doc;
  gp::MainWindow window{&doc, nullptr, /*restoreLayout=*/false};
  gp::ParallelWindow* plan = nullptr;

  App(const char* model, const char* cluster) {
    window.resize(1600, 1000);
    window.show();
    doc.open({QString::fromLatin1(model), gp::GraphMode::Default, QString::fromLatin1(cluster)});
  }
  bool wait() { return (plan = waitFirstPlan(window)) != nullptr; }
};

void openLlm(benchmark::State& state, const char* model, const char* cluster) {
  QImage frame(1600, 1000, QImage::Format_ARGB32_Premultiplied);
  int gpus = 0;
  for (auto _ : state) {
    App app(model, cluster);
    if (!app.wait()) {
      state.SkipWithError("no plan shown");
      return;
    }
    app.plan->render(&frame);
    gpus = app.plan->session()->task()->c.numDevices();
    state.PauseTiming();
    state.counters["rss_mib"] = residentMiB();
    app.plan->session()->stop();  // the exact search the view started
    state.ResumeTiming();
  }
  state.counters["gpus"] = gpus;
}

// tp 8 <-> 4 on the plan shown: ParallelSession::edit (checked, simulated, one undo step) and the
// window repainted.
void changeTp(benchmark::State& state, const char* model, const char* cluster) {
  App app(model, cluster);
  if (!app.wait()) {
    state.SkipWithError("no plan shown");
    return;
  }
  gp::ParallelSession& s = *app.plan->session();
  s.stop();
  while (s.isBusy()) QApplication::processEvents(QEventLoop::AllEvents, 5);
  QImage frame(app.plan->size(), QImage::Format_ARGB32_Premultiplied);
  for (auto _ : state) {
    gp::pedit::PlanState next = s.state();
    const gp::ParallelPlan& p = next.plan;
    const int tp = p.tp == 8 ? 4 : 8;  // as the tp box changes it: dp takes the rest
    next.plan = gp::pedit::withMesh(p, s.task()->stack.numLayers(), next.batch, p.dp * p.tp / tp, tp, p.pp);
    if (const QString why = s.edit(next, QStringLiteral("tp")); !why.isEmpty()) {
      state.SkipWithError(qPrintable(why));
      return;
    }
    app.plan->render(&frame);
  }
  state.counters["gpus"] = s.task()->c.numDevices();
  state.counters["rss_mib"] = residentMiB();
}

}  // namespace

BENCHMARK_CAPTURE(openLlm, llama3_405b_1024, "zoo:llama3_405b", "128x8xH100-IB")->Unit(benchmark::kMillisecond)->Iterations(3);
BENCHMARK_CAPTURE(openLlm, llama3_405b_16384, "zoo:llama3_405b", "2048x8xH100-IB")
    ->Unit(benchmark::kMillisecond)
    ->Iterations(3);
BENCHMARK_CAPTURE(changeTp, llama3_405b_16384, "zoo:llama3_405b", "2048x8xH100-IB")
    ->Unit(benchmark::kMillisecond)
    ->Iterations(6);
