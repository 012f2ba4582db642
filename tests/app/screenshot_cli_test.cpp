// Qt Test: `graphplace MODEL --cluster … --screenshot OUT.png` opens, lays out, measures, saves
// a PNG of the window and exits 0; a broken model exits non-zero with a one-line message.
#include <QFile>
#include <QImage>
#include <QProcess>
#include <QSet>
#include <QTemporaryDir>
#include <QTest>

#include "base/device_palette.h"

class ScreenshotCliTest : public QObject {
  Q_OBJECT
 private Q_SLOTS:
  void initTestCase() { QVERIFY(dir_.isValid()); }

  void savesMeasuredWindow() {
    const QString out = dir_.filePath(QStringLiteral("shot.png"));
    QProcess app;
    app.setProcessChannelMode(QProcess::MergedChannels);
    app.start(QStringLiteral(GP_APP_PATH), {QStringLiteral("zoo:inception_v3"), QStringLiteral("--cluster"),
                                           QStringLiteral("2xK80"), QStringLiteral("--screenshot"), out,
                                           QStringLiteral("--size"), QStringLiteral("1280x800"),
                                           QStringLiteral("-platform"), QStringLiteral("offscreen")});
    QVERIFY(app.waitForFinished(240000));
    QVERIFY2(app.exitCode() == 0, app.readAll().constData());
    const QImage shot(out);
    QCOMPARE(shot.size(), QSize(1280, 800));
    QSet<QRgb> colours;
    for (int y = 0; y < shot.height(); y += 3)
      for (int x = 0; x < shot.width(); x += 3) colours.insert(shot.pixel(x, y) & 0xffffff);
    QVERIFY(colours.size() > 50);                              // not blank
    QVERIFY(colours.contains(gp::deviceColorRgb(0)));          // the single-device plan's colour
  }

  void brokenModelFails() {
    const QString bad = dir_.filePath(QStringLiteral("broken.dot"));
    {
      QFile f(bad);
      QVERIFY(f.open(QIODevice::WriteOnly));
      f.write("digraph { a -> ");
    }
    const QString out = dir_.filePath(QStringLiteral("never.png"));
    QProcess app;
    app.start(QStringLiteral(GP_APP_PATH), {bad, QStringLiteral("--screenshot"), out, QStringLiteral("-platform"),
                                           QStringLiteral("offscreen")});
    QVERIFY(app.waitForFinished(120000));
    QCOMPARE(app.exitCode(), 1);
    const QByteArray err = app.readAllStandardError();
    QVERIFY2(err.contains("broken.dot"), err.constData());
    QVERIFY(!QFile::exists(out));
  }

  void missingPlacementFails() {
    const QString out = dir_.filePath(QStringLiteral("never2.png"));
    QProcess app;
    app.start(QStringLiteral(GP_APP_PATH), {QStringLiteral("zoo:resnet50"), QStringLiteral("--placement"),
                                           dir_.filePath(QStringLiteral("missing.json")), QStringLiteral("--screenshot"),
                                           out, QStringLiteral("-platform"), QStringLiteral("offscreen")});
    QVERIFY(app.waitForFinished(120000));
    QCOMPARE(app.exitCode(), 1);
    QVERIFY(app.readAllStandardError().contains("missing.json"));
    QVERIFY(!QFile::exists(out));
  }

  void badArgumentsExit2() {
    QProcess app;
    app.start(QStringLiteral(GP_APP_PATH), {QStringLiteral("--mode"), QStringLiteral("fast"), QStringLiteral("-platform"),
                                           QStringLiteral("offscreen")});
    QVERIFY(app.waitForFinished(60000));
    QCOMPARE(app.exitCode(), 2);
    QVERIFY(app.readAllStandardError().contains("--mode"));
  }

 private:
  QTemporaryDir dir_;
};

QTEST_MAIN(ScreenshotCliTest)
#include "screenshot_cli_test.moc"
