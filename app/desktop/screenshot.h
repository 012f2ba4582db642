// --screenshot: waits until the window has opened its model, laid it out and measured it,
// then saves a PNG of the whole window and quits (exit 0), or quits with 1 and a message on
// stderr if opening failed or nothing was ready within the timeout. An LLM (opened in the
// Parallel Plan view) is pictured as that window once its first plan is shown.
#pragma once
#include <QString>

namespace gp {

class MainWindow;

void takeScreenshotWhenReady(MainWindow* window, const QString& path, int timeoutMs = 180000);

}  // namespace gp
