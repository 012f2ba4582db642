// Qt Test: the app's settings survive kill -9. The app is started again and again on one of
// eight models (`graphplace MODEL --screenshot OUT.png`: it opens the model, which puts it first
// in the recent files in QSettings, takes the picture, saves the window's layout and exits) and
// killed with SIGKILL, mostly within 30 ms of the moment a whole run wrote the settings, else
// anywhere in the run. After every kill the settings file must read without error and still
// hold all eight recent files, and the next run must start (QSettings' lock file of a killed
// run must not block it).
//   GP_SETTINGS_KILL_SECONDS   how long the kill loop runs (default 15)
#include <QDateTime>
#include <QDir>
#include <QElapsedTimer>
#include <QFileInfo>
#include <QProcess>
#include <QRandomGenerator>
#include <QRegularExpression>
#include <QSet>
#include <QSettings>
#include <QTemporaryDir>
#include <QTest>
#include <algorithm>
#include <vector>

class SettingsKillTest : public QObject {
  Q_OBJECT
 private Q_SLOTS:
  void initTestCase() { QVERIFY(dir_.isValid()); }

  void killNineNeverLosesTheSettings() {
    const QString data = QStringLiteral(GP_TEST_DATA_DIR);
    // ten distinct models at most: the recent list keeps ten, so no entry ever leaves it
    const QStringList models = {data + QStringLiteral("/dot/small.dot"),
                                data + QStringLiteral("/dot/clusters.dot"),
                                data + QStringLiteral("/onnx/mlp.onnx"),
                                data + QStringLiteral("/onnx/lstm.onnx"),
                                data + QStringLiteral("/onnx/squeezenet1_1.onnx"),
                                data + QStringLiteral("/onnx/transformer_encoder.onnx"),
                                QStringLiteral("zoo:rnnlm"),
                                data + QStringLiteral("/onnx/mobilenet_v2.onnx")};
    const int seconds = qEnvironmentVariableIsSet("GP_SETTINGS_KILL_SECONDS")
                            ? qEnvironmentVariableIntValue("GP_SETTINGS_KILL_SECONDS")
                            : 15;

    // one whole run of each model first: how long a run takes, when it writes the settings
    // (the file's modification time after the run), and every model in the recent files
    std::vector<qint64> runMs, writeMs;
    for (const QString& model : models) {
      const QDateTime started = QDateTime::currentDateTime();
      QElapsedTimer whole;
      whole.start();
      QVERIFY2(run(model, -1), qPrintable(model + QStringLiteral(": the first run did not finish")));
      runMs.push_back(whole.elapsed());
      writeMs.push_back(started.msecsTo(QFileInfo(confPath()).lastModified()));
    }
    QStringList kept = recentFiles();
    QCOMPARE(kept.size(), models.size());

    // three kills in four aimed at the settings write (within 30 ms of when the whole run
    // wrote), the fourth anywhere in the run
    QRandomGenerator rng(20261203);
    QElapsedTimer loop;
    loop.start();
    int runs = 0, killed = 0, aimed = 0, insideWrite = 0, checks = 0;
    for (int i = 1; loop.elapsed() < seconds * 1000; ++i) {
      const size_t m = static_cast<size_t>(i) % static_cast<size_t>(models.size());
      const QString& model = models.at(static_cast<int>(m));
      int killAfterMs = static_cast<int>(rng.bounded(static_cast<quint32>(runMs[m] * 11 / 10 + 1)));
      if (i % 4 != 0) {
        killAfterMs = std::max<int>(0, static_cast<int>(writeMs[m]) - 30 + static_cast<int>(rng.bounded(61u)));
        ++aimed;
      }
      const bool finished = run(model, killAfterMs);
      ++runs;
      if (!finished) {
        ++killed;
        // killed inside the write: QSettings' lock file or QSaveFile's temporary file is left
        const QDir folder = QFileInfo(confPath()).dir();
        const QStringList temporary = folder.entryList({QStringLiteral("graphplace.conf.*")}, QDir::Files | QDir::Hidden)
                                          .filter(QRegularExpression(QStringLiteral("^(?!.*\\.lock$)")));
        if (QFile::exists(confPath() + QStringLiteral(".lock")) || !temporary.isEmpty()) ++insideWrite;
        for (const QString& t : temporary) QFile::remove(folder.filePath(t));  // the lock file stays
      }
      // the file reads, and nothing an earlier run wrote is lost
      QSettings settings(confPath(), QSettings::IniFormat);
      QCOMPARE(settings.status(), QSettings::NoError);
      const QStringList now = settings.value(QStringLiteral("recentFiles")).toStringList();
      QVERIFY2(QSet<QString>(now.begin(), now.end()) == QSet<QString>(kept.begin(), kept.end()),
               qPrintable(QStringLiteral("run %1 (%2 after %3 ms): the recent files are now %4")
                              .arg(i)
                              .arg(finished ? QStringLiteral("finished") : QStringLiteral("killed"))
                              .arg(killAfterMs)
                              .arg(now.join(QLatin1Char(',')))));
      if (finished) QCOMPARE(now.value(0), model);
      ++checks;
    }
    // after the kills, a whole run still starts, finishes and puts its model first
    QVERIFY2(run(models.at(1), -1), "the run after the kills did not finish");
    QCOMPARE(recentFiles().value(0), models.at(1));
    qInfo("%d runs in %d s (whole runs %lld-%lld ms, the settings written %lld-%lld ms in), %d killed before "
          "they finished (%d aimed at the write, %d inside it: a lock or temporary file left), %d settings files "
          "checked, 0 lost or unreadable",
          runs, seconds, *std::min_element(runMs.begin(), runMs.end()), *std::max_element(runMs.begin(), runMs.end()),
          *std::min_element(writeMs.begin(), writeMs.end()), *std::max_element(writeMs.begin(), writeMs.end()), killed,
          aimed, insideWrite, checks);
    QVERIFY(killed > 0);
  }

 private:
  QString confPath() const { return dir_.filePath(QStringLiteral("config/graphplace/graphplace.conf")); }

  QStringList recentFiles() const {
    return QSettings(confPath(), QSettings::IniFormat).value(QStringLiteral("recentFiles")).toStringList();
  }

  // Runs the app on `model`; kills it after killAfterMs (never when negative). True when it
  // exited by itself with 0.
  bool run(const QString& model, int killAfterMs) {
    QProcess app;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(QStringLiteral("XDG_CONFIG_HOME"), dir_.filePath(QStringLiteral("config")));
    app.setProcessEnvironment(env);
    app.setProcessChannelMode(QProcess::MergedChannels);
    app.start(QStringLiteral(GP_APP_PATH),
              {model, QStringLiteral("--screenshot"), dir_.filePath(QStringLiteral("shot.png")),
               QStringLiteral("--size"), QStringLiteral("800x600"), QStringLiteral("-platform"),
               QStringLiteral("offscreen")});
    if (!app.waitForStarted(30000)) return false;
    if (!app.waitForFinished(killAfterMs >= 0 ? killAfterMs : 240000)) {
      if (killAfterMs < 0) qWarning("the app on %s did not finish in 240 s", qPrintable(model));
      app.kill();  // SIGKILL
      app.waitForFinished(30000);
      return false;
    }
    if (app.exitStatus() != QProcess::NormalExit || app.exitCode() != 0) {
      qWarning("the app on %s: %s", qPrintable(model), app.readAll().constData());
      return false;
    }
    return true;
  }

  QTemporaryDir dir_;
};

QTEST_MAIN(SettingsKillTest)
#include "settings_kill_test.moc"
