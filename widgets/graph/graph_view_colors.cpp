// GraphView: data that colours the boxes (plan, costs, measurement, prediction errors), selection and
// highlight flags.
#include <algorithm>
#include <cmath>

#include "device_colors.h"
#include "graph/graph_colors.h"
#include "graph/graph_layout.h"
#include "graph/graph_view.h"
#include "graph/scope_tree.h"

namespace gp {

void GraphView::setDevices(const QStringList& names) {
  devices_ = names;
  recomputeGroupDevices();
  update();
}

void GraphView::setPlan(const Plan& plan) {
  plan_ = plan;
  if (graph_ && plan_.device.size() != static_cast<size_t>(graph_->numOps())) plan_ = Plan{};
  recomputeGroupDevices();
  recomputeColors();
  startOverview();
  update();
}

void GraphView::setOpCosts(std::vector<double> secondsPerOp) {
  opCost_ = std::move(secondsPerOp);
  if (graph_ && opCost_.size() != static_cast<size_t>(graph_->numOps())) opCost_.clear();
  if (mode_ == ColorMode::OpCost) {
    recomputeColors();
    startOverview();
    update();
  }
}

void GraphView::setMeasurement(const Measurement& m) {
  const int n = graph_ ? graph_->numOps() : 0;
  opStart_.assign(n, std::nan(""));
  for (const TimelineEvent& e : m.timeline)
    if (e.kind == TimelineEvent::Kind::Op && e.id >= 0 && e.id < n)
      opStart_[e.id] = std::isnan(opStart_[e.id]) ? e.start : std::min(opStart_[e.id], e.start);
  if (mode_ == ColorMode::StartTime) {
    recomputeColors();
    startOverview();
    update();
  }
}

void GraphView::setPredictionErrors(std::vector<double> errorPerOp) {
  opError_ = std::move(errorPerOp);
  if (graph_ && opError_.size() != static_cast<size_t>(graph_->numOps())) opError_.clear();
  if (mode_ == ColorMode::PredictionError) {
    recomputeColors();
    startOverview();
    update();
  }
}

void GraphView::setOpSlack(std::vector<double> slackPerOp) {
  opSlack_ = std::move(slackPerOp);
  if (graph_ && opSlack_.size() != static_cast<size_t>(graph_->numOps())) opSlack_.clear();
  if (mode_ == ColorMode::Slack) {
    recomputeColors();
    startOverview();
    update();
  }
}

QRgb GraphView::opColor(OpId op) const {
  return op >= 0 && op < static_cast<OpId>(opColor_.size()) ? opColor_[static_cast<size_t>(op)] : kNoValueColor;
}

void GraphView::setColorMode(ColorMode mode) {
  if (mode == mode_) return;
  mode_ = mode;
  recomputeColors();
  startOverview();
  update();
}

int GraphView::numDevices() const {
  int n = static_cast<int>(devices_.size());
  for (int32_t d : plan_.device) n = std::max(n, d + 1);
  return n;
}

void GraphView::recomputeGroupDevices() {
  scopeDevices_.clear();
  if (!graph_ || !tree_ || plan_.device.empty()) return;
  // Sparse: a scope lists only the devices its ops run on (a cluster may have 16,384 of them).
  scopeDevices_.resize(static_cast<size_t>(tree_->numScopes()));
  for (OpId op = 0; op < graph_->numOps(); ++op)
    if (const int d = plan_.device[op]; d >= 0) scopeDevices_[static_cast<size_t>(tree_->opScope(op))].push_back({d, 1});
  auto normalize = [](std::vector<std::pair<int32_t, int32_t>>& counts) {  // one entry per device, in device order
    std::sort(counts.begin(), counts.end());
    size_t out = 0;
    for (size_t i = 0; i < counts.size(); ++i) {
      if (out > 0 && counts[out - 1].first == counts[i].first)
        counts[out - 1].second += counts[i].second;
      else
        counts[out++] = counts[i];
    }
    counts.resize(out);
  };
  auto pre = tree_->preorder();
  for (auto it = pre.rbegin(); it != pre.rend(); ++it) {  // a scope after every scope below it
    const ScopeId sc = *it, p = tree_->parent(sc);
    std::vector<std::pair<int32_t, int32_t>>& own = scopeDevices_[static_cast<size_t>(sc)];
    normalize(own);
    if (p != kNone) {
      std::vector<std::pair<int32_t, int32_t>>& up = scopeDevices_[static_cast<size_t>(p)];
      up.insert(up.end(), own.begin(), own.end());
    }
  }
}

void GraphView::recomputeColors() {
  const int n = graph_ ? graph_->numOps() : 0;
  opColor_.assign(n, kNoValueColor);
  gradientLo_ = 0, gradientHi_ = 1;
  switch (mode_) {
    case ColorMode::Device:
      if (!plan_.device.empty())
        for (OpId op = 0; op < n; ++op)
          if (plan_.device[op] >= 0) opColor_[op] = deviceColor(plan_.device[op]).rgb();
      break;
    case ColorMode::FusionGroup:
      if (plan_.fusionGroup.size() == static_cast<size_t>(n))
        for (OpId op = 0; op < n; ++op) opColor_[op] = fusionGroupColor(plan_.fusionGroup[op]);
      break;
    case ColorMode::StartTime: {
      if (opStart_.size() != static_cast<size_t>(n)) break;
      double lo = INFINITY, hi = -INFINITY;
      for (double v : opStart_)
        if (!std::isnan(v)) lo = std::min(lo, v), hi = std::max(hi, v);
      if (!(hi >= lo)) break;
      gradientLo_ = lo, gradientHi_ = hi;
      const double span = hi > lo ? hi - lo : 1;
      for (OpId op = 0; op < n; ++op)
        if (!std::isnan(opStart_[op])) opColor_[op] = gradientColor((opStart_[op] - lo) / span);
      break;
    }
    case ColorMode::OpCost: {
      if (opCost_.size() != static_cast<size_t>(n)) break;
      double lo = INFINITY, hi = 0;
      for (double v : opCost_)
        if (v > 0) lo = std::min(lo, v), hi = std::max(hi, v);
      if (!(hi > 0)) break;
      gradientLo_ = lo, gradientHi_ = hi;
      const double l0 = std::log10(lo), span = std::max(1e-9, std::log10(hi) - l0);
      for (OpId op = 0; op < n; ++op)
        opColor_[op] = opCost_[op] > 0 ? gradientColor((std::log10(opCost_[op]) - l0) / span) : gradientColor(0);
      break;
    }
    case ColorMode::PredictionError: {
      if (opError_.size() != static_cast<size_t>(n)) break;
      double hi = 0;
      for (double v : opError_)
        if (std::isfinite(v)) hi = std::max(hi, v);
      // a factor of 2 at least spans the scale, so small errors do not look large
      gradientLo_ = 0, gradientHi_ = std::max(hi, std::log(2.0));
      for (OpId op = 0; op < n; ++op)
        if (std::isfinite(opError_[op])) opColor_[op] = gradientColor(std::min(1.0, opError_[op] / gradientHi_));
      break;
    }
    case ColorMode::Slack: {
      if (opSlack_.size() != static_cast<size_t>(n)) break;
      double hi = 0;
      for (double v : opSlack_) hi = std::max(hi, v);
      gradientLo_ = 0, gradientHi_ = hi;
      // square root: the many small slacks near the path stay apart from none at all
      for (OpId op = 0; op < n; ++op)
        opColor_[op] = gradientColor(hi > 0 ? 1.0 - std::sqrt(std::clamp(opSlack_[op] / hi, 0.0, 1.0)) : 1.0);
      break;
    }
  }
  legendTitle_.clear();
  if (mode_ == ColorMode::StartTime && gradientHi_ > gradientLo_) {
    legendTitle_ = tr("Start time");
    legendLo_ = tr("%1 ms").arg(gradientLo_ * 1e3, 0, 'f', 2);
    legendHi_ = tr("%1 ms").arg(gradientHi_ * 1e3, 0, 'f', 2);
  } else if (mode_ == ColorMode::OpCost && gradientHi_ > 0 && !opCost_.empty()) {
    legendTitle_ = tr("Op time (log scale)");
    legendLo_ = tr("%1 µs").arg(gradientLo_ * 1e6, 0, 'g', 3);
    legendHi_ = tr("%1 µs").arg(gradientHi_ * 1e6, 0, 'g', 3);
  } else if (mode_ == ColorMode::Slack && !opSlack_.empty() && gradientHi_ <= 0) {
    legendTitle_ = tr("Slack: none — every op is on the critical path");  // the hint form: no scale
    legendLo_.clear();
    legendHi_.clear();
  } else if (mode_ == ColorMode::Slack && !opSlack_.empty()) {
    legendTitle_ = tr("Slack (critical path outlined)");
    legendLo_ = tr("%1 ms").arg(gradientHi_ * 1e3, 0, 'f', 2);
    legendHi_ = tr("0 (critical)");
  } else if (mode_ == ColorMode::PredictionError) {
    if (opError_.empty()) {  // the hint only: no scale yet
      legendTitle_ = tr("Prediction error: measure in Run ▸ Cost Model…");
      legendLo_.clear();
      legendHi_.clear();
    } else {
      legendTitle_ = tr("Learned model's error |ln(predicted / measured)|");
      legendLo_ = tr("0 (exact)");
      legendHi_ = tr("%1 (×%2 off)").arg(gradientHi_, 0, 'f', 2).arg(std::exp(gradientHi_), 0, 'f', 1);
    }
  }
  // items: an op its colour; a group the colour of its hottest / earliest op in the gradient
  // modes, neutral otherwise (its device bar tells the placement)
  itemColor_.clear();
  if (!layout_ || !tree_) return;
  itemColor_.assign(layout_->items.size(), kNoValueColor);
  for (size_t i = 0; i < layout_->items.size(); ++i) {
    const VisItem& it = layout_->items[i];
    if (it.kind == VisItem::Kind::Op) {
      itemColor_[i] = opColor_[it.id];
      continue;
    }
    if (mode_ == ColorMode::StartTime && opStart_.size() == static_cast<size_t>(n)) {
      double best = INFINITY;
      for (OpId op : tree_->subtreeOps(it.id))
        if (!std::isnan(opStart_[op])) best = std::min(best, opStart_[op]);
      if (std::isfinite(best)) itemColor_[i] = gradientColor((best - gradientLo_) / std::max(1e-12, gradientHi_ - gradientLo_));
    } else if (mode_ == ColorMode::OpCost && opCost_.size() == static_cast<size_t>(n)) {
      OpId best = kNone;
      for (OpId op : tree_->subtreeOps(it.id))
        if (best == kNone || opCost_[op] > opCost_[best]) best = op;
      if (best != kNone) itemColor_[i] = opColor_[best];
    } else if (mode_ == ColorMode::Slack && opSlack_.size() == static_cast<size_t>(n)) {
      OpId critical = kNone;  // the group shows its most critical op
      for (OpId op : tree_->subtreeOps(it.id))
        if (critical == kNone || opSlack_[op] < opSlack_[critical]) critical = op;
      if (critical != kNone) itemColor_[i] = opColor_[critical];
    } else if (mode_ == ColorMode::PredictionError && opError_.size() == static_cast<size_t>(n)) {
      OpId worst = kNone;  // the group shows its worst-predicted op
      for (OpId op : tree_->subtreeOps(it.id))
        if (std::isfinite(opError_[op]) && (worst == kNone || opError_[op] > opError_[worst])) worst = op;
      if (worst != kNone) itemColor_[i] = opColor_[worst];
    }
  }
}

void GraphView::recomputeItemFlags() {
  itemSelected_.clear();
  itemHighlighted_.clear();
  if (!layout_) return;
  itemSelected_.assign(layout_->items.size(), 0);
  itemHighlighted_.assign(layout_->items.size(), 0);
  for (OpId op : selected_) ++itemSelected_[layout_->itemOfOp[op]];
  for (size_t op = 0; op < opHighlighted_.size(); ++op)
    if (opHighlighted_[op]) itemHighlighted_[layout_->itemOfOp[op]] = 1;
}

void GraphView::setSelection(std::vector<OpId> ops, bool emitSignal) {
  const int n = graph_ ? graph_->numOps() : 0;
  std::sort(ops.begin(), ops.end());
  ops.erase(std::unique(ops.begin(), ops.end()), ops.end());
  ops.erase(std::remove_if(ops.begin(), ops.end(), [n](OpId op) { return op < 0 || op >= n; }), ops.end());
  for (OpId op : selected_) opSelected_[op] = 0;
  selected_ = std::move(ops);
  for (OpId op : selected_) opSelected_[op] = 1;
  recomputeItemFlags();
  update();
  if (emitSignal) Q_EMIT selectionChanged(selected_);
}

void GraphView::setSelectedOps(std::vector<OpId> ops) { setSelection(std::move(ops), false); }

void GraphView::setHighlightedOps(std::vector<OpId> ops) {
  std::fill(opHighlighted_.begin(), opHighlighted_.end(), 0);
  for (OpId op : ops)
    if (op >= 0 && op < static_cast<OpId>(opHighlighted_.size())) opHighlighted_[op] = 1;
  recomputeItemFlags();
  update();
}

}  // namespace gp
