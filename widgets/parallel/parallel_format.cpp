#include "parallel/parallel_format.h"

#include <QCoreApplication>
#include <QLocale>
#include <QStringList>
#include <initializer_list>
#include <string>

#include "panels/number_format.h"
#include "parallel/plan_knobs.h"
#include "parallel/prediction_band.h"

namespace gp::pformat {

QString samplesText(double samplesPerSecond) { return QLocale().toString(samplesPerSecond, 'f', 1); }

QString stepMsText(double seconds) { return QLocale().toString(seconds * 1e3, 'f', 1); }

QString percentText(double share) {
  const double percent = share * 100;
  return QLocale().toString(percent > -0.05 && percent < 0.05 ? 0.0 : percent, 'f', 1);  // no "-0.0"
}

QString scheduleName(PipeSchedule s) {
  return s == PipeSchedule::GPipe ? QStringLiteral("GPipe") : QStringLiteral("1F1B");
}

// The plan knobs' summaries (core/parallel/plan_knobs), marked for translation: lupdate reads
// the strings here, knobNoteText looks them up.
const char* const kKnobNotes[] = {
    QT_TRANSLATE_NOOP("gp::PlanKnob", "parameter gather overlapped"),
    QT_TRANSLATE_NOOP("gp::PlanKnob", "experts over dp"),
    QT_TRANSLATE_NOOP("gp::PlanKnob", "unfused attention"),
    QT_TRANSLATE_NOOP("gp::PlanKnob", "FlashAttention-2"),
    QT_TRANSLATE_NOOP("gp::PlanKnob", "FP8 GEMMs"),
    QT_TRANSLATE_NOOP("gp::PlanKnob", "sequence parallel"),
    QT_TRANSLATE_NOOP("gp::PlanKnob", "TP communication overlapped"),
    QT_TRANSLATE_NOOP("gp::PlanKnob", "Megatron-LM"),
    QT_TRANSLATE_NOOP("gp::PlanKnob", "DeepSpeed"),
    QT_TRANSLATE_NOOP("gp::PlanKnob", "torchtitan"),
    QT_TRANSLATE_NOOP("gp::PlanKnob", "optimizer on the CPU"),
    QT_TRANSLATE_NOOP("gp::PlanKnob", "bf16 Adam moments"),
    QT_TRANSLATE_NOOP("gp::PlanKnob", "8-bit Adam moments"),
    QT_TRANSLATE_NOOP("gp::PlanKnob", "checkpoints on the CPU"),
    QT_TRANSLATE_NOOP("gp::PlanKnob", "fp32 gradient accumulation"),
    QT_TRANSLATE_NOOP("gp::PlanKnob", "16-bit gradient accumulation"),
};

bool knobNoteTranslatable(std::string_view note) {
  for (const char* n : kKnobNotes)
    if (note == n) return true;
  return false;
}

QString knobNoteText(std::string_view note) {
  return QCoreApplication::translate("gp::PlanKnob", std::string(note).c_str());
}

QString shapeText(const ParallelPlan& p, int64_t batch) {
  const QLocale loc;
  const QString pp = p.virtualStages > 1
                         ? QCoreApplication::translate("gp::ParallelFormat", "%1 (%2 virtual)").arg(p.pp).arg(p.virtualStages)
                         : QString::number(p.pp);
  const QString dp = p.cp > 1 ? QCoreApplication::translate("gp::ParallelFormat", "%1 × cp %2").arg(p.dp).arg(p.cp)
                              : QString::number(p.dp);
  QString text = QCoreApplication::translate("gp::ParallelFormat", "dp %1 × tp %2 × pp %3 · %4 × %5 samples · %6 · ZeRO-%7")
                     .arg(dp)
                     .arg(p.tp)
                     .arg(pp, loc.toString(p.microbatches), loc.toString(static_cast<qlonglong>(p.microbatchSize(batch))),
                          scheduleName(p.schedule))
                     .arg(p.zero);
  for (std::string_view note : planKnobNotes(p))
    text += QStringLiteral(" · ") + knobNoteText(note);
  return text;
}

QString frameworkName(TrainingFramework f) {
  switch (f) {
    case TrainingFramework::Megatron: return QStringLiteral("Megatron-LM");
    case TrainingFramework::DeepSpeed: return QStringLiteral("DeepSpeed");
    case TrainingFramework::Torchtitan: return QStringLiteral("torchtitan");
    case TrainingFramework::Generic: break;
  }
  return QCoreApplication::translate("gp::ParallelFormat", "Generic (PyTorch)");
}

QString recomputeName(Recompute r) {
  switch (r) {
    case Recompute::Selective: return QCoreApplication::translate("gp::ParallelFormat", "Selective");
    case Recompute::Full: return QCoreApplication::translate("gp::ParallelFormat", "Full");
    case Recompute::None: break;
  }
  return QCoreApplication::translate("gp::ParallelFormat", "None");
}

QString stagesText(const ParallelPlan& p) {
  if (const int each = uniformChunkLayers(p)) {
    const Recompute r = p.stages[0].recompute;
    return QCoreApplication::translate("gp::ParallelFormat", "%n chunks of %1 layer(s)", nullptr, static_cast<int>(p.stages.size()))
               .arg(each) +
           (r == Recompute::Full ? QStringLiteral(" r") : r == Recompute::Selective ? QStringLiteral(" s") : QString());
  }
  QStringList parts;
  for (const PipeStage& s : p.stages) {
    QString t = s.last - s.first > 1 ? QStringLiteral("%1–%2").arg(s.first).arg(s.last - 1) : QString::number(s.first);
    if (s.recompute != Recompute::None) t += s.recompute == Recompute::Full ? QStringLiteral(" r") : QStringLiteral(" s");
    parts << t;
  }
  return parts.join(QStringLiteral(", "));
}

namespace {

// Each part's share of the step as a percentage; empty when the plan does not fit or has no step.
QStringList stepShares(const ParallelMeasurement& m, std::initializer_list<double> parts) {
  QStringList out;
  if (!m.feasible || !(m.stepTime > 0)) return out;
  for (double t : parts) out << percentText(t / m.stepTime);
  return out;
}

}  // namespace

QString breakdownText(const ParallelMeasurement& m) {
  const StepBreakdown& b = m.breakdown;
  const QStringList s = stepShares(m, {b.compute, b.recompute, b.passComm, b.bubble, b.dpExposed, b.optimizer});
  if (s.isEmpty()) return {};
  return QCoreApplication::translate("gp::ParallelFormat",
                                     "Where the step goes (stage %1 finishes last): compute %2 % · recomputation %3 % · "
                                     "collectives in the passes %4 % · bubble and transfers %5 % · gradient sync %6 % · "
                                     "optimizer %7 %")
      .arg(b.stage)
      .arg(s[0], s[1], s[2], s[3], s[4], s[5]);
}

QString breakdownToolTip(const ParallelMeasurement& m) {
  const StepBreakdown& b = m.breakdown;
  const QStringList s = stepShares(m, {b.tpComm, b.cpComm, b.epComm, b.zeroGather});
  if (s.isEmpty()) return {};
  return QCoreApplication::translate("gp::ParallelFormat",
                                     "Collectives in the passes, by kind: tensor parallel %1 % · context parallel (ring "
                                     "attention) %2 % · expert all-to-alls %3 % · ZeRO-3 gathers %4 %")
      .arg(s[0], s[1], s[2], s[3]);
}

QString memoryVerdictText(const MemoryVerdict& v) {
  if (v.rank < 0) return {};
  auto size = [](int64_t bytes) { return panels::formatMemorySize(bytes); };
  switch (v.fit) {
    case MemoryFit::Fits:
      return QCoreApplication::translate("gp::ParallelFormat", "Memory: fits with %1 to spare on the fullest GPU (the peak ±%2)")
          .arg(size(v.headroom), size(v.band));
    case MemoryFit::Risk:
      return v.headroom >= 0
                 ? QCoreApplication::translate("gp::ParallelFormat",
                                               "Memory: out-of-memory risk — %1 to spare of %2 on the fullest GPU, within the ±%3 "
                                               "the peak may be off")
                       .arg(size(v.headroom), size(v.capacity), size(v.band))
                 : QCoreApplication::translate("gp::ParallelFormat",
                                               "Memory: out-of-memory risk — %1 over %2 on the fullest GPU, within the ±%3 the "
                                               "peak may be off")
                       .arg(size(-v.headroom), size(v.capacity), size(v.band));
    case MemoryFit::Over:
      return QCoreApplication::translate("gp::ParallelFormat", "Memory: does not fit — %1 over %2 on the fullest GPU (the peak ±%3)")
          .arg(size(-v.headroom), size(v.capacity), size(v.band));
  }
  return {};
}

QString summaryText(const ParallelMeasurement& m) {
  if (!m.feasible) return QString::fromStdString(m.problem);
  return QCoreApplication::translate("gp::ParallelFormat",
                                     "%1 samples/s · step %2 ms (±%6 %) · MFU %3 % · bubble %4 % · communication %5 %")
      .arg(samplesText(m.samplesPerSecond), stepMsText(m.stepTime), percentText(m.mfu), percentText(m.bubbleShare),
           percentText(m.commShare), QLocale().toString(100 * kStepErrorShare, 'f', 0));
}

}  // namespace gp::pformat
