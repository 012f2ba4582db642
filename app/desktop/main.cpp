// graphplace: the desktop app (see app_options.h for the command line).
#include <QApplication>
#include <QIcon>

#include "app_info.h"
#include "app_options.h"
#include "document.h"
#include "language.h"
#include "main_window.h"
#include "screenshot.h"

int main(int argc, char** argv) {
  QApplication app(argc, argv);
  QApplication::setOrganizationName(QString::fromLatin1(gp::kOrganization));
  QApplication::setApplicationName(QString::fromLatin1(gp::kApplication));
  QApplication::setApplicationVersion(QStringLiteral(GP_VERSION));
  QApplication::setWindowIcon(QIcon(QStringLiteral(":/graphplace.svg")));
  QApplication::setDesktopFileName(QStringLiteral("graphplace"));  // share/applications/graphplace.desktop
  const gp::AppOptions options = gp::parseAppOptions(QApplication::arguments());
  if (options.exitNow) return options.exitCode;
  gp::installTranslations(app, options.language);

  gp::Document doc;
  gp::MainWindow window(&doc, nullptr, /*restoreLayout=*/options.screenshot.isEmpty());
  if (!options.screenshot.isEmpty()) {
    window.resize(options.size);
    gp::takeScreenshotWhenReady(&window, options.screenshot);
  }
  window.show();

  gp::OpenRequest request;
  if (options.model.isEmpty()) {  // the built-in example: never an empty first screen
    request.model = QStringLiteral("zoo:nmt");
    request.initialBaseline = QStringLiteral("expert");
  } else {
    request.model = options.model;
    request.mode = options.mode;
    request.placement = options.placement;
    request.allowHashMismatch = options.ignoreHash;
    request.dims = options.dims;
    request.precision = options.precision;
  }
  request.cluster = options.cluster;
  doc.open(request);
  return QApplication::exec();
}
