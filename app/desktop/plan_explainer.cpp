#include "plan_explainer.h"

#include <utility>

#include "background_job.h"
#include "fusion/fuser.h"

namespace gp {

namespace {
constexpr int kSuggestions = 12;  // moves listed
}

PlanExplainer::PlanExplainer(QObject* parent) : QObject(parent) { pool_.setMaxThreadCount(1); }

PlanExplainer::~PlanExplainer() {
  if (cancel_) *cancel_ = true;
  pool_.waitForDone();
}

void PlanExplainer::clear() {
  if (cancel_) *cancel_ = true;
  cancel_.reset();
  ++request_;
  hasAnalysis_ = searching_ = false;
  analysis_ = {};
  suggestions_.clear();
  tried_ = 0;
}

void PlanExplainer::explain(std::shared_ptr<const Workspace> ws, const Plan& plan, const Measurement& m) {
  clear();
  if (!ws || m.timeline.empty()) return;
  plan_ = plan;
  measurement_ = m;
  cancel_ = std::make_shared<std::atomic<bool>>(false);
  searching_ = true;
  const int request = request_;
  auto cancel = cancel_;
  startJob(
      this, &pool_, [ws, plan, m] { return analyzeStep(*ws->cost, plan, m); },
      [this, ws, plan, request, cancel](JobResult<StepAnalysis> r) {
        if (request != request_) return;
        if (!r.value) {
          searching_ = false;
          Q_EMIT failed(r.error);
          return;
        }
        analysis_ = std::move(*r.value);
        hasAnalysis_ = true;
        Q_EMIT analysisReady();
        startJob(
            this, &pool_,
            [ws, plan, a = analysis_, cancel] {
              int tried = 0;
              SuggestOptions o;
              o.stop = [cancel] { return cancel->load(); };
              o.allowFusion = fusionAllowed(*ws->graph);
              auto found = suggestMoves(*ws->cost, plan, a, kSuggestions, o, &tried);
              return std::make_pair(std::move(found), tried);
            },
            [this, request](JobResult<std::pair<std::vector<Suggestion>, int>> s) {
              if (request != request_) return;
              searching_ = false;
              if (!s.value) {
                Q_EMIT failed(s.error);
                return;
              }
              suggestions_ = std::move(s.value->first);
              tried_ = s.value->second;
              Q_EMIT suggestionsReady();
            });
      });
}

}  // namespace gp
