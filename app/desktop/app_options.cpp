#include "app_options.h"

#include <QCommandLineParser>
#include <QCoreApplication>
#include <QRegularExpression>
#include <cstdio>
#include <exception>

namespace gp {

namespace {
AppOptions usageError(const QString& message) {
  std::fprintf(stderr, "graphplace: error: %s\n", qPrintable(message));
  AppOptions o;
  o.exitNow = true;
  o.exitCode = 2;
  return o;
}
}  // namespace

AppOptions parseAppOptions(const QStringList& args) {
  QCommandLineParser p;
  p.setApplicationDescription(QCoreApplication::translate(
      "AppOptions", "graphplace: place the ops of a model's graph on a GPU cluster, measure and compare."));
  p.addHelpOption();
  p.addVersionOption();
  p.addPositionalArgument(QStringLiteral("model"),
                          QCoreApplication::translate("AppOptions", "Model file (.onnx, .pt, .dot, .json) or zoo:NAME."),
                          QStringLiteral("[MODEL]"));
  QCommandLineOption cluster(QStringLiteral("cluster"), QCoreApplication::translate("AppOptions", "Cluster preset, N servers of one (128x8xH100-IB), JSON file, or cpu (this machine)."),
                             QStringLiteral("PRESET|FILE"));
  QCommandLineOption placement(QStringLiteral("placement"),
                               QCoreApplication::translate("AppOptions", "Placement file to apply."), QStringLiteral("FILE"));
  QCommandLineOption mode(QStringLiteral("mode"), QCoreApplication::translate("AppOptions", "Graph mode: inference or training."),
                          QStringLiteral("MODE"));
  QCommandLineOption ignoreHash(QStringLiteral("ignore-hash"),
                                QCoreApplication::translate("AppOptions", "Apply a placement file made for another version of the model."));
  QCommandLineOption screenshot(QStringLiteral("screenshot"),
                                QCoreApplication::translate("AppOptions", "Open, lay out, measure, save a PNG of the window and exit."),
                                QStringLiteral("OUT.png"));
  QCommandLineOption size(QStringLiteral("size"), QCoreApplication::translate("AppOptions", "Window size for --screenshot."),
                          QStringLiteral("WxH"), QStringLiteral("1600x1000"));
  QCommandLineOption language(QStringLiteral("language"),
                              QCoreApplication::translate("AppOptions", "User interface language (en, zh_CN, ko_KR)."),
                              QStringLiteral("LANG"));
  QCommandLineOption dim(QStringLiteral("dim"),
                         QCoreApplication::translate("AppOptions", "Value of a symbolic input dimension of an ONNX model "
                                                                   "(e.g. batch_size=8; default 1). Repeatable."),
                         QStringLiteral("NAME=VALUE"));
  QCommandLineOption precision(
      QStringLiteral("precision"),
      QCoreApplication::translate("AppOptions", "Arithmetic the model runs with: fp32, tf32, fp16, bf16 or fp8 "
                                                "(fp16, bf16, fp8: mixed precision)."),
      QStringLiteral("PRECISION"));
  p.addOptions({cluster, placement, mode, ignoreHash, dim, precision, screenshot, size, language});
  if (!p.parse(args)) return usageError(p.errorText());
  if (p.isSet(QStringLiteral("help")) || p.isSet(QStringLiteral("version"))) {
    AppOptions o;
    o.exitNow = true;
    if (p.isSet(QStringLiteral("help"))) std::fputs(qPrintable(p.helpText()), stdout);
    else std::printf("%s %s\n", qPrintable(QCoreApplication::applicationName()),
                     qPrintable(QCoreApplication::applicationVersion()));
    return o;
  }
  AppOptions o;
  const QStringList pos = p.positionalArguments();
  if (pos.size() > 1) return usageError(QStringLiteral("one MODEL at most (got %1)").arg(pos.size()));
  if (!pos.isEmpty()) o.model = pos[0];
  o.cluster = p.value(cluster);
  o.placement = p.value(placement);
  o.ignoreHash = p.isSet(ignoreHash);
  static const QRegularExpression nameValue(QStringLiteral("^([^=,]+)=(\\d{1,12})$"));
  for (const QString& d : p.values(dim)) {
    const auto m = nameValue.match(d);
    if (!m.hasMatch() || m.captured(2).toLongLong() < 1)
      return usageError(QStringLiteral("--dim: expected NAME=VALUE with a positive VALUE, got '%1'").arg(d));
    o.dims[m.captured(1).toStdString()] = m.captured(2).toLongLong();
  }
  if (p.isSet(precision)) {
    try {
      o.precision = parsePrecision(p.value(precision).toStdString(), "--precision");
    } catch (const std::exception& e) {
      return usageError(QString::fromStdString(e.what()));
    }
  }
  o.screenshot = p.value(screenshot);
  o.language = p.value(language);
  if (p.isSet(mode)) {
    const QString m = p.value(mode);
    if (m == QLatin1String("inference")) o.mode = GraphMode::Inference;
    else if (m == QLatin1String("training")) o.mode = GraphMode::Training;
    else return usageError(QStringLiteral("--mode: expected inference or training, got '%1'").arg(m));
  }
  static const QRegularExpression wxh(QStringLiteral("^(\\d{2,5})x(\\d{2,5})$"));
  const auto match = wxh.match(p.value(size));
  if (!match.hasMatch()) return usageError(QStringLiteral("--size: expected WxH, got '%1'").arg(p.value(size)));
  o.size = QSize(match.captured(1).toInt(), match.captured(2).toInt());
  if (!o.placement.isEmpty() && o.model.isEmpty()) return usageError(QStringLiteral("--placement needs a MODEL"));
  return o;
}

}  // namespace gp
