// Qt Test: the Chinese and Korean translations are complete (no unfinished message, every
// placeholder kept), compiled into .qm files, and the app's menus come up translated.
#include <QDir>
#include <QFile>
#include <QMenuBar>
#include <QRegularExpression>
#include <QTest>
#include <QTranslator>
#include <QXmlStreamReader>

#include "document.h"
#include "main_window.h"

class TranslationsTest : public QObject {
  Q_OBJECT
 private Q_SLOTS:
  void complete_data() {
    QTest::addColumn<QString>("lang");
    QTest::newRow("zh_CN") << QStringLiteral("zh_CN");
    QTest::newRow("ko_KR") << QStringLiteral("ko_KR");
    QTest::newRow("en") << QStringLiteral("en");  // plural forms only
  }

  void complete() {
    QFETCH(QString, lang);
    QFile ts(QStringLiteral(GP_TS_DIR "/graphplace_%1.ts").arg(lang));
    QVERIFY(ts.open(QIODevice::ReadOnly));
    QXmlStreamReader xml(&ts);
    int messages = 0;
    QString source;
    static const QRegularExpression placeholder(QStringLiteral("%L?(\\d|n)"));
    auto placeholders = [](const QString& s) {
      QStringList out;
      for (auto it = placeholder.globalMatch(s); it.hasNext();) out << it.next().captured(1);
      out.sort();
      out.removeDuplicates();  // plural messages hold several forms
      return out;
    };
    while (xml.readNext() != QXmlStreamReader::EndDocument && !xml.hasError()) {
      if (!xml.isStartElement()) continue;
      if (xml.name() == QLatin1String("source")) source = xml.readElementText();
      else if (xml.name() == QLatin1String("translation")) {
        ++messages;
        QVERIFY2(xml.attributes().value(QLatin1String("type")).isEmpty(), qPrintable(lang + ": unfinished: " + source));
        const QString text = xml.readElementText(QXmlStreamReader::IncludeChildElements);
        QVERIFY2(!text.trimmed().isEmpty(), qPrintable(lang + ": empty: " + source));
        QCOMPARE(placeholders(text), placeholders(source));
      }
    }
    QVERIFY2(!xml.hasError(), qPrintable(xml.errorString()));
    QVERIFY(messages > (lang == QLatin1String("en") ? 5 : 150));
  }

  void menusTranslated() {
    QTranslator tr;
    QVERIFY(tr.load(QStringLiteral(GP_QM_DIR "/graphplace_zh_CN.qm")));
    QCoreApplication::installTranslator(&tr);
    gp::Document doc;
    gp::MainWindow w(&doc);
    QStringList titles;
    for (QAction* a : w.menuBar()->actions()) titles << a->text();
    QCoreApplication::removeTranslator(&tr);
    QVERIFY2(titles.contains(QStringLiteral("文件(&F)")), qPrintable(titles.join(QLatin1Char(','))));
    QVERIFY(titles.contains(QStringLiteral("编辑(&E)")));
  }
};

QTEST_MAIN(TranslationsTest)
#include "translations_test.moc"
