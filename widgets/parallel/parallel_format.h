// How the parallel-plan views write plans and their figures (namespace gp::pformat), in the
// user's locale: one place, so the summary line, the history and the tests agree digit for digit.
#pragma once
#include <QString>
#include <cstdint>
#include <string_view>

#include "parallel/memory_verdict.h"
#include "parallel/pipeline_sim.h"

namespace gp::pformat {

QString samplesText(double samplesPerSecond);  // "1,333.8" (number only)
QString stepMsText(double seconds);            // "48.0": milliseconds, one decimal
QString percentText(double share);             // "35.1" for 0.351
QString scheduleName(PipeSchedule s);          // "1F1B", "GPipe"
QString recomputeName(Recompute r);            // "None", "Selective", "Full"
QString frameworkName(TrainingFramework f);    // "Generic (PyTorch)", "Megatron-LM", "DeepSpeed", "torchtitan"
// "dp 8 × tp 2 × pp 4 (2 virtual) · 64 × 1 samples · 1F1B · ZeRO-1", then " · " and the
// summary of every plan knob not at its default ("sequence parallel", "unfused attention")
QString shapeText(const ParallelPlan& p, int64_t batch);
// A plan knob's summary (planKnobNotes) in the user's language; whether it is marked for
// translation here (every knob's must be).
QString knobNoteText(std::string_view note);
bool knobNoteTranslatable(std::string_view note);
// "0–9, 10–19 r, 20–29 s, …": each stage's layers, r where it recomputes everything, s where it
// recomputes the attention cores (selective); "96 chunks of 1 layer(s)" for even virtual stages
QString stagesText(const ParallelPlan& p);
// "1,333.8 samples/s · step 48.0 ms (±21 %) · MFU 35.1 % · bubble 0.0 % · communication 1.6 %"
// (with the step's band, prediction_band.h), or the measurement's problem when the plan does
// not fit.
QString summaryText(const ParallelMeasurement& m);
// The memory verdict (parallel/memory_verdict.h) in words: "Memory: fits with 6.2 GiB to spare
// on the fullest GPU (the peak ±3.8 GiB)"; "" when no memory was simulated.
QString memoryVerdictText(const MemoryVerdict& v);
// "Where the step goes (stage 0 finishes last): compute 84.8 % · recomputation 0.0 % ·
// collectives in the passes 8.3 % · bubble and transfers 6.6 % · gradient sync 0.1 % ·
// optimizer 0.2 %", or "" when the plan does not fit.
QString breakdownText(const ParallelMeasurement& m);
// The collectives in the passes by kind (tensor parallel, ring attention, expert all-to-alls,
// ZeRO-3 gathers), as shares of the step; empty when breakdownText is.
QString breakdownToolTip(const ParallelMeasurement& m);

}  // namespace gp::pformat
