// The user interface language: translations compiled from translations/*.ts into the
// executable (":/i18n/graphplace_<code>.qm"), chosen by --language, else the setting
// (View ▸ Language), else the system locale.
#pragma once
#include <QString>
#include <utility>
#include <vector>

class QCoreApplication;

namespace gp {

// (code, name in that language); code "" = the system's language.
std::vector<std::pair<QString, QString>> availableLanguages();
// Installs the translators for `code` ("" = setting, else system locale). Returns the code used.
QString installTranslations(QCoreApplication& app, const QString& code);

}  // namespace gp
