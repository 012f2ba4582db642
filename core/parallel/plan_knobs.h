// The scalar knobs of a parallel plan, defined once: key, kind, range or choices, default and
// how to read and set it on a ParallelPlan. Plan files, the CLI's JSON and text, plan equality
// and the app's summaries go through this table, so a new knob is one entry here plus its cost.
// What is not a scalar (the stages with their recomputation, the device order) stays with the
// plan file (parallel_plan.h).
#pragma once
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <vector>

#include "parallel/parallel_plan.h"

namespace gp {

enum class KnobKind : uint8_t { Count, Flag, Choice };

struct PlanKnob {
  std::string_view key;      // plan-file and JSON key
  std::string_view summary;  // in one-line plan texts when not at its default ("sequence parallel")
  KnobKind kind;
  int low = 0, high = 0;     // Count: the range a file may state
  std::vector<std::string_view> choices;  // Choice: the names, in the enum's order
  bool required = false;     // plan files must state it; others take their default when absent
  int defaultValue = 0;
  int (*get)(const ParallelPlan&) = nullptr;
  void (*set)(ParallelPlan&, int) = nullptr;
  std::vector<std::string_view> choiceNotes;  // Choice: each choice's summary ("" for none)
};

const std::vector<PlanKnob>& planKnobs();

// The knob's value as JSON: an integer, true / false, or the choice's name.
nlohmann::ordered_json knobJson(const PlanKnob& k, const ParallelPlan& p);
// Every knob of the plan, in table order.
nlohmann::ordered_json planKnobsJson(const ParallelPlan& p);
// Sets every knob found in `object` (required ones must be there); throws gp::Error(source, ...)
// naming the key and what it must be.
void readPlanKnobs(const nlohmann::json& object, ParallelPlan& p, const std::string& source);

// The summaries of the flags and choices not at their default (a choice's own note where the
// knob has them), in table order.
std::vector<std::string_view> planKnobNotes(const ParallelPlan& p);
// Every knob equal.
bool sameKnobs(const ParallelPlan& a, const ParallelPlan& b);

// What differs from `from` to `to`, knob by knob in table order, then the chunks' recomputation:
// "tp 8 -> 4, virtual_stages 1 -> 3, micro-batch 1 -> 2, recompute full -> none" (micro-batch sizes
// at `globalBatch` in place of the micro-batch counts); "the same plan" when nothing does.
std::string planChanges(const ParallelPlan& from, const ParallelPlan& to, int64_t globalBatch);

}  // namespace gp
