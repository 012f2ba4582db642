#include "panels/op_inspector.h"

#include <QEvent>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLocale>
#include <QPushButton>
#include <QSpinBox>
#include <QVBoxLayout>
#include <algorithm>
#include <map>

#include "device_colors.h"
#include "panels/elided_label.h"

namespace gp {

namespace {

constexpr int kListed = 3;  // types / devices / groups named in a multi-selection row

QLabel* makeValue(QWidget* parent) {
  auto* l = new QLabel(parent);
  l->setTextInteractionFlags(Qt::TextSelectableByMouse);
  l->setWordWrap(true);
  l->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);  // a narrow dock wraps, never widens
  return l;
}

// "MatMul ×2, Relu ×10 …": the most frequent first, at most kListed.
QString countedList(const std::map<QString, int>& counts) {
  std::vector<std::pair<QString, int>> v(counts.begin(), counts.end());
  std::stable_sort(v.begin(), v.end(), [](const auto& a, const auto& b) { return a.second > b.second; });
  QStringList parts;
  for (size_t i = 0; i < v.size() && i < static_cast<size_t>(kListed); ++i)
    parts << QStringLiteral("%1 ×%2").arg(v[i].first, QLocale().toString(v[i].second));
  QString s = parts.join(QStringLiteral(", "));
  if (v.size() > static_cast<size_t>(kListed)) s += QStringLiteral(" …");
  return s;
}

}  // namespace

OpInspector::OpInspector(QWidget* parent) : QWidget(parent) {
  setObjectName(QStringLiteral("opInspector"));
  auto* top = new QVBoxLayout(this);
  top->setContentsMargins(6, 6, 6, 6);
  top->setSpacing(4);
  title_ = new ElidedLabel(2, this);
  QFont bold = title_->font();
  bold.setBold(true);
  title_->setFont(bold);
  top->addWidget(title_);

  auto* form = new QFormLayout;
  form->setContentsMargins(0, 0, 0, 0);
  form->setHorizontalSpacing(8);
  form->setVerticalSpacing(2);
  form->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
  type_ = makeValue(this);
  cost_ = makeValue(this);
  cost_->setObjectName(QStringLiteral("inspectorCost"));
  device_ = makeValue(this);
  device_->setTextFormat(Qt::RichText);
  priority_ = makeValue(this);
  fusion_ = makeValue(this);
  form->addRow(tr("Type:"), type_);
  form->addRow(tr("Cost:"), cost_);
  form->addRow(tr("Device:"), device_);
  form->addRow(tr("Priority:"), priority_);
  form->addRow(tr("Fusion:"), fusion_);
  top->addLayout(form);
  summary_ = makeValue(this);
  summary_->setObjectName(QStringLiteral("inspectorSummary"));
  summary_->setForegroundRole(QPalette::PlaceholderText);
  top->addWidget(summary_);

  auto* prio = new QHBoxLayout;
  prio->setSpacing(4);
  prioritySpin_ = new QSpinBox(this);
  prioritySpin_->setObjectName(QStringLiteral("inspectorPriority"));
  prioritySpin_->setRange(-kPriorityLimit, kPriorityLimit);
  prioritySpin_->setToolTip(
      tr("Priority for the selected ops: on each device, the ready op with the highest "
         "priority runs first; equal priorities run in the order they became ready"));
  setPriority_ = new QPushButton(tr("Set priority"), this);
  setPriority_->setObjectName(QStringLiteral("inspectorSetPriority"));
  setPriority_->setToolTip(
      tr("Give the selected ops this priority (a plan without priorities first gives every "
         "op priority 0, which is the same FIFO order)"));
  prio->addWidget(prioritySpin_, 1);
  prio->addWidget(setPriority_);
  top->addLayout(prio);
  auto* fuseRow = new QHBoxLayout;
  fuseRow->setSpacing(4);
  fuse_ = new QPushButton(tr("Fuse"), this);
  fuse_->setObjectName(QStringLiteral("inspectorFuse"));
  fuse_->setToolTip(tr("Run the selected ops as one kernel (one device; at most one heavy op such as a MatMul)"));
  unfuse_ = new QPushButton(tr("Unfuse"), this);
  unfuse_->setObjectName(QStringLiteral("inspectorUnfuse"));
  unfuse_->setToolTip(tr("Take the selected ops out of their fusion groups"));
  fuseRow->addWidget(fuse_, 1);
  fuseRow->addWidget(unfuse_, 1);
  top->addLayout(fuseRow);
  planLabel_ = makeValue(this);
  planLabel_->setObjectName(QStringLiteral("inspectorPlan"));
  planLabel_->setForegroundRole(QPalette::PlaceholderText);
  top->addWidget(planLabel_);
  top->addStretch(1);

  connect(setPriority_, &QPushButton::clicked, this, [this] { Q_EMIT priorityRequested(prioritySpin_->value()); });
  connect(prioritySpin_, &QSpinBox::editingFinished, this, [this] {
    // Return in the spin box applies (not when it merely loses focus)
    if (prioritySpin_->hasFocus() && setPriority_->isEnabled()) Q_EMIT priorityRequested(prioritySpin_->value());
  });
  connect(fuse_, &QPushButton::clicked, this, &OpInspector::fuseRequested);
  connect(unfuse_, &QPushButton::clicked, this, &OpInspector::unfuseRequested);
  refresh();
}

QSize OpInspector::sizeHint() const {
  return {260, 230};
}

void OpInspector::setGraph(std::shared_ptr<const Graph> g) {
  graph_ = std::move(g);
  selection_.clear();
  plan_ = Plan{};
  groupSize_.clear();
  refresh();
}

void OpInspector::setDevices(const QStringList& names) {
  devices_ = names;
  refresh();
}

void OpInspector::setPlan(const Plan& plan) {
  plan_ = plan;
  groupSize_.assign(plan_.fusionGroup.size(), 0);
  for (int32_t id : plan_.fusionGroup)
    if (id >= 0 && static_cast<size_t>(id) < groupSize_.size()) ++groupSize_[static_cast<size_t>(id)];
  refresh();
}

void OpInspector::setSelection(const std::vector<OpId>& ops) {
  selection_.clear();
  const int32_t n = graph_ ? graph_->numOps() : 0;
  for (OpId op : ops)
    if (op >= 0 && op < n) selection_.push_back(op);
  // The spin box starts from what the selection has (its highest priority).
  if (!selection_.empty() && plan_.priority.size() == static_cast<size_t>(n)) {
    int32_t hi = plan_.priority[static_cast<size_t>(selection_[0])];
    for (OpId op : selection_) hi = std::max(hi, plan_.priority[static_cast<size_t>(op)]);
    prioritySpin_->setValue(hi);
  }
  refresh();
}

void OpInspector::setEditable(bool editable) {
  editable_ = editable;
  updateButtons();
}

QString OpInspector::deviceText(int32_t d) const {
  if (d < 0) return tr("unplaced");
  return d < devices_.size() ? devices_[d] : tr("Device %1").arg(d);
}

QString OpInspector::flopsText(double flops) {
  static const char* const kUnits[] = {"", "k", "M", "G", "T", "P"};
  int u = 0;
  while (flops >= 1000 && u < 5) {
    flops /= 1000;
    ++u;
  }
  return tr("%1 %2FLOP").arg(QLocale().toString(flops, 'f', u == 0 ? 0 : 2), QLatin1String(kUnits[u]));
}

QString OpInspector::titleText() const {
  return title_->text();
}

QString OpInspector::valueText(Row row) const {
  switch (row) {
    case Row::Type:
      return type_->text();
    case Row::Cost:
      return cost_->text();
    case Row::Device:
      return device_->property("plain").toString();
    case Row::Priority:
      return priority_->text();
    case Row::Fusion:
      return fusion_->text();
  }
  return {};
}

QString OpInspector::summaryText() const {
  return summary_->text();
}
QString OpInspector::planText() const {
  return planLabel_->text();
}

void OpInspector::refresh() {
  const QLocale loc;
  const int32_t n = graph_ ? graph_->numOps() : 0;
  const bool planFits = plan_.device.size() == static_cast<size_t>(n);
  const bool hasPriority = plan_.priority.size() == static_cast<size_t>(n) && n > 0;
  const bool hasFusion = plan_.fusionGroup.size() == static_cast<size_t>(n) && n > 0;
  const int count = static_cast<int>(selection_.size());
  auto setDevice = [&](const QString& plain, const QString& rich) {
    device_->setProperty("plain", plain);
    device_->setText(rich);
  };
  auto typeOf = [&](OpId op) {
    const std::string_view t = graph_->opType(op);
    return QString::fromUtf8(t.data(), static_cast<qsizetype>(t.size()));
  };
  auto swatch = [&](int32_t d) {
    return d < 0 ? QString() : QStringLiteral("<span style=\"color:%1\">■</span> ").arg(deviceColor(d).name());
  };

  if (count == 0 || !planFits) {
    title_->setText(n == 0 ? tr("No model open") : tr("Select ops in the graph or the timeline"));
    for (QLabel* l : {type_, cost_, priority_, fusion_}) l->setText(QStringLiteral("–"));
    setDevice(QStringLiteral("–"), QStringLiteral("–"));
    summary_->clear();
    summary_->hide();
  } else if (count == 1) {
    const OpId op = selection_[0];
    const int32_t d = plan_.device[static_cast<size_t>(op)];
    title_->setText(QString::fromStdString(graph_->opName(op)));
    type_->setText(typeOf(op));
    cost_->setText(graph_->costEstimated(op) ? tr("%1 (estimated: a shape is unknown)").arg(flopsText(graph_->flops(op)))
                                             : flopsText(graph_->flops(op)));
    setDevice(deviceText(d), swatch(d) + deviceText(d).toHtmlEscaped());
    priority_->setText(hasPriority ? loc.toString(plan_.priority[static_cast<size_t>(op)]) : tr("FIFO"));
    const int32_t grp = hasFusion ? plan_.fusionGroup[static_cast<size_t>(op)] : -1;
    fusion_->setText(grp >= 0 ? tr("group %1 (%n op(s))", nullptr, groupSize_[static_cast<size_t>(grp)]).arg(grp)
                              : tr("not fused"));
    summary_->clear();
    summary_->hide();
  } else {
    title_->setText(tr("%n ops selected", nullptr, count));
    std::map<QString, int> types, devices;
    std::map<int32_t, int> groups;  // selected ops per group
    std::map<int32_t, int> deviceIds;
    int notFused = 0;
    int32_t lo = 0, hi = 0;
    for (size_t i = 0; i < selection_.size(); ++i) {
      const OpId op = selection_[i];
      ++types[typeOf(op)];
      ++deviceIds[plan_.device[static_cast<size_t>(op)]];
      if (hasPriority) {
        const int32_t p = plan_.priority[static_cast<size_t>(op)];
        lo = i == 0 ? p : std::min(lo, p);
        hi = i == 0 ? p : std::max(hi, p);
      }
      const int32_t grp = hasFusion ? plan_.fusionGroup[static_cast<size_t>(op)] : -1;
      if (grp >= 0)
        ++groups[grp];
      else
        ++notFused;
    }
    for (const auto& [d, k] : deviceIds) devices[deviceText(d)] = k;
    type_->setText(countedList(types));
    double flops = 0;
    int estimated = 0;
    for (OpId op : selection_) {
      flops += graph_->flops(op);
      estimated += graph_->costEstimated(op) ? 1 : 0;
    }
    cost_->setText(estimated == 0 ? flopsText(flops)
                                  : tr("%1 (%n estimated)", nullptr, estimated).arg(flopsText(flops)));
    if (deviceIds.size() == 1) {
      const int32_t d = deviceIds.begin()->first;
      setDevice(deviceText(d), swatch(d) + deviceText(d).toHtmlEscaped());
    } else {
      QString rich;
      int listed = 0;
      std::vector<std::pair<int32_t, int>> byCount(deviceIds.begin(), deviceIds.end());
      std::stable_sort(byCount.begin(), byCount.end(),
                       [](const auto& a, const auto& b) { return a.second > b.second; });
      for (const auto& [d, k] : byCount) {
        if (listed++ == kListed) {
          rich += QStringLiteral(" …");
          break;
        }
        if (!rich.isEmpty()) rich += QStringLiteral(", ");
        rich += swatch(d) + QStringLiteral("%1 ×%2").arg(deviceText(d).toHtmlEscaped(), loc.toString(k));
      }
      setDevice(countedList(devices), rich);
    }
    const QString prio = !hasPriority ? tr("FIFO")
                         : lo == hi   ? loc.toString(lo)
                                      : tr("%1–%2").arg(loc.toString(lo), loc.toString(hi));
    priority_->setText(prio);
    QStringList listedGroups;
    for (const auto& [grp, k] : groups) {
      if (listedGroups.size() == kListed) {
        listedGroups.back() += QStringLiteral(" …");
        break;
      }
      const int size = groupSize_[static_cast<size_t>(grp)];
      listedGroups << (k == size ? tr("#%1 (%n op(s))", nullptr, size).arg(grp)
                                 : tr("#%1 (%2 of %n op(s))", nullptr, size).arg(grp).arg(k));
    }
    QString fusion = groups.empty() ? tr("none fused")
                                    : tr("%n group(s): %1", nullptr, static_cast<int>(groups.size()))
                                          .arg(listedGroups.join(QStringLiteral(", ")));
    if (!groups.empty() && notFused > 0) fusion += QStringLiteral("; ") + tr("%n not fused", nullptr, notFused);
    fusion_->setText(fusion);
    const QString prioPart = !hasPriority ? tr("FIFO order")
                             : lo == hi   ? tr("priority %1").arg(loc.toString(lo))
                                          : tr("priorities %1–%2").arg(loc.toString(lo), loc.toString(hi));
    const QString groupPart =
        groups.empty() ? tr("no fusion group") : tr("%n fusion group(s)", nullptr, static_cast<int>(groups.size()));
    summary_->setText(tr("%n ops", nullptr, count) + QStringLiteral("; ") + prioPart + QStringLiteral("; ") +
                      groupPart);
    summary_->show();
  }
  refreshPlanText();
  updateButtons();
}

void OpInspector::refreshPlanText() {
  const int32_t n = graph_ ? graph_->numOps() : 0;
  if (n == 0 || plan_.device.size() != static_cast<size_t>(n)) {
    planLabel_->clear();
    return;
  }
  const QLocale loc;
  QString order = tr("FIFO order");
  if (plan_.priority.size() == static_cast<size_t>(n)) {
    const auto [lo, hi] = std::minmax_element(plan_.priority.begin(), plan_.priority.end());
    order = *lo == *hi ? tr("priority %1 for all").arg(loc.toString(*lo))
                       : tr("priorities %1–%2").arg(loc.toString(*lo), loc.toString(*hi));
  }
  int groups = 0, fused = 0;
  for (int32_t size : groupSize_) {
    groups += size > 0 ? 1 : 0;
    fused += size;
  }
  const QString fusion =
      groups == 0 ? tr("no fusion")
                  : tr("%n fusion group(s)", nullptr, groups) + QStringLiteral(" ") + tr("(%n op(s))", nullptr, fused);
  planLabel_->setText(tr("Plan: %1 · %2").arg(order, fusion));
}

void OpInspector::updateButtons() {
  const int count = static_cast<int>(selection_.size());
  bool anyFused = false;
  if (plan_.fusionGroup.size() == static_cast<size_t>(graph_ ? graph_->numOps() : 0))
    for (OpId op : selection_) anyFused = anyFused || plan_.fusionGroup[static_cast<size_t>(op)] >= 0;
  const bool can = editable_ && count > 0;
  prioritySpin_->setEnabled(can);
  setPriority_->setEnabled(can);
  fuse_->setEnabled(can && count >= 2);
  unfuse_->setEnabled(can && anyFused);
}

void OpInspector::changeEvent(QEvent* event) {
  if (event->type() == QEvent::LanguageChange || event->type() == QEvent::LocaleChange) refresh();
  QWidget::changeEvent(event);
}

}  // namespace gp
