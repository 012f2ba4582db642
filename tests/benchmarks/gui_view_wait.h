// Waiting for a GraphView's background layout in the rendering benchmarks (spinning the event
// loop, as the app's would).
#pragma once
#include <QApplication>
#include <QThread>

#include "graph/graph_view.h"

namespace gpbench {

// Until the layout is final (Graphviz's refinement included, within its budget).
inline void waitLayout(gp::GraphView& v) {
  while (v.isLayoutRunning() || v.visibleNodeCount() == 0) {
    QApplication::processEvents(QEventLoop::AllEvents, 5);
    QThread::usleep(200);
  }
}

// Until the first layout is on screen.
inline void waitFirstLayout(gp::GraphView& v) {
  while (v.visibleNodeCount() == 0) {
    QApplication::processEvents(QEventLoop::AllEvents, 5);
    QThread::usleep(200);
  }
}

}  // namespace gpbench
