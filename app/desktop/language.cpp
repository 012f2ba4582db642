#include "language.h"

#include <QCoreApplication>
#include <QLibraryInfo>
#include <QLocale>
#include <QSettings>
#include <QTranslator>

namespace gp {

std::vector<std::pair<QString, QString>> availableLanguages() {
  return {{QString(), QCoreApplication::translate("Language", "System default")},
          {QStringLiteral("en"), QStringLiteral("English")},
          {QStringLiteral("zh_CN"), QStringLiteral("中文（简体）")},
          {QStringLiteral("ko_KR"), QStringLiteral("한국어")}};
}

QString installTranslations(QCoreApplication& app, const QString& code) {
  QString chosen = code.isEmpty() ? QSettings().value(QStringLiteral("language")).toString() : code;
  const QLocale locale = chosen.isEmpty() ? QLocale::system() : QLocale(chosen);
  if (!chosen.isEmpty()) QLocale::setDefault(locale);
  auto* ours = new QTranslator(&app);
  // Languages without a translation fall back to English (whose file holds its plural forms).
  if (ours->load(locale, QStringLiteral("graphplace"), QStringLiteral("_"), QStringLiteral(":/i18n")) ||
      ours->load(QStringLiteral(":/i18n/graphplace_en.qm")))
    app.installTranslator(ours);
  auto* qt = new QTranslator(&app);  // Qt's own strings (standard dialogs, shortcuts)
  if (qt->load(locale, QStringLiteral("qtbase"), QStringLiteral("_"), QLibraryInfo::path(QLibraryInfo::TranslationsPath)))
    app.installTranslator(qt);
  return locale.name();
}

}  // namespace gp
