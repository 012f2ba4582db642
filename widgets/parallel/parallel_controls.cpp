#include "parallel/parallel_controls.h"

#include <QCheckBox>
#include <QComboBox>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLocale>
#include <QSignalBlocker>
#include <QSpinBox>
#include <QTableWidget>
#include <QVBoxLayout>

#include "device_colors.h"
#include "parallel/parallel_format.h"

namespace gp {

namespace {

QComboBox* makeCombo(QWidget* parent, const char* name) {
  auto* c = new QComboBox(parent);
  c->setObjectName(QString::fromLatin1(name));
  c->setSizeAdjustPolicy(QComboBox::AdjustToContents);
  return c;
}

void selectData(QComboBox* c, int value) {
  const QSignalBlocker block(c);
  c->setCurrentIndex(c->findData(value));
}

}  // namespace

ParallelControls::ParallelControls(QWidget* parent) : QWidget(parent) {
  auto* top = new QVBoxLayout(this);
  top->setContentsMargins(6, 6, 6, 6);
  auto* form = new QFormLayout;
  form->setFieldGrowthPolicy(QFormLayout::FieldsStayAtSizeHint);
  batch_ = new QSpinBox(this);
  batch_->setObjectName(QStringLiteral("parallelBatch"));
  batch_->setRange(1, 1 << 24);
  batch_->setKeyboardTracking(false);  // typed digits apply on Return or leaving the box
  batch_->setGroupSeparatorShown(true);
  batch_->setToolTip(tr("Samples per training step, over all data-parallel replicas"));
  form->addRow(tr("Global batch"), batch_);

  auto* mesh = new QHBoxLayout;
  dp_ = makeCombo(this, "parallelDp");
  tp_ = makeCombo(this, "parallelTp");
  pp_ = makeCombo(this, "parallelPp");
  dp_->setToolTip(tr("Data-parallel replicas"));
  tp_->setToolTip(tr("Tensor-parallel degree: each layer's matrices split over this many GPUs"));
  pp_->setToolTip(tr("Pipeline stages"));
  cp_ = makeCombo(this, "parallelCp");
  cp_->setToolTip(tr("Context-parallel ranks: each sample's sequence split over them (ring attention)"));
  for (auto [label, combo] : {std::pair{QStringLiteral("dp"), dp_}, std::pair{QStringLiteral("tp"), tp_},
                              std::pair{QStringLiteral("pp"), pp_}, std::pair{QStringLiteral("cp"), cp_}}) {
    mesh->addWidget(new QLabel(label, this));
    mesh->addWidget(combo);
  }
  mesh->addStretch(1);
  form->addRow(tr("Mesh"), mesh);
  virtual_ = makeCombo(this, "parallelVirtualStages");
  virtual_->setToolTip(tr("Model chunks per pipeline stage (interleaved 1F1B): the bubble shrinks by this factor, "
                          "the stages send this many times more often; micro-batches must be a multiple of pp"));
  form->addRow(tr("Virtual stages"), virtual_);
  micro_ = makeCombo(this, "parallelMicrobatches");
  micro_->setToolTip(tr("Micro-batches per replica and step × samples in each"));
  form->addRow(tr("Micro-batches"), micro_);
  schedule_ = makeCombo(this, "parallelSchedule");
  schedule_->addItem(pformat::scheduleName(PipeSchedule::OneFOneB), static_cast<int>(PipeSchedule::OneFOneB));
  schedule_->addItem(pformat::scheduleName(PipeSchedule::GPipe), static_cast<int>(PipeSchedule::GPipe));
  schedule_->setToolTip(
      tr("1F1B: one forward, one backward in turn (fewer activations in flight); GPipe: all forwards first"));
  form->addRow(tr("Schedule"), schedule_);
  zero_ = makeCombo(this, "parallelZero");
  zero_->addItem(tr("0: none"), 0);
  zero_->addItem(tr("1: optimizer state sharded"), 1);
  zero_->addItem(tr("2: + gradients"), 2);
  zero_->addItem(tr("3: + parameters"), 3);
  zero_->setToolTip(tr("ZeRO stage: what is split over the data-parallel replicas instead of replicated"));
  form->addRow(tr("ZeRO"), zero_);
  shard_ = makeCombo(this, "parallelShardGroup");
  shard_->setToolTip(tr("ZeRO's sharding group (HSDP, hybrid ZeRO): the state ZeRO splits is split over groups of "
                        "this many data-parallel replicas and replicated across the groups"));
  form->addRow(tr("Sharded over"), shard_);
  framework_ = makeCombo(this, "parallelFramework");
  for (TrainingFramework f : {TrainingFramework::Generic, TrainingFramework::Megatron, TrainingFramework::DeepSpeed,
                              TrainingFramework::Torchtitan})
    framework_->addItem(pformat::frameworkName(f), static_cast<int>(f));
  framework_->setToolTip(tr("The software that trains the plan: what it keeps per parameter, how it computes the loss, "
                            "how much of the TP communication it hides, and which plans it can run"));
  form->addRow(tr("Framework"), framework_);
  attention_ = makeCombo(this, "parallelAttention");
  attention_->addItem(tr("Fused (FlashAttention)"), static_cast<int>(AttentionImpl::Flash));
  attention_->addItem(tr("Fused (FlashAttention-2)"), static_cast<int>(AttentionImpl::Flash2));
  attention_->addItem(tr("Unfused"), static_cast<int>(AttentionImpl::Unfused));
  attention_->setToolTip(tr("Fused: each attention runs as one kernel that never stores its probabilities, the GPU's "
                            "fastest (cuDNN or FlashAttention-3 on Hopper) or FlashAttention-2 (PyTorch's "
                            "scaled_dot_product_attention on Hopper up to 2.6); unfused: as the graph's separate operations"));
  form->addRow(tr("Attention"), attention_);
  sequenceParallel_ = new QCheckBox(tr("Sequence parallel"), this);
  sequenceParallel_->setObjectName(QStringLiteral("parallelSequence"));
  sequenceParallel_->setToolTip(tr("With tp > 1: norms, residual adds and the activations kept for backward are "
                                   "split over the tensor-parallel GPUs along the sequence"));
  tpOverlap_ = new QCheckBox(tr("TP overlap"), this);
  tpOverlap_->setObjectName(QStringLiteral("parallelTpOverlap"));
  tpOverlap_->setToolTip(tr("With sequence parallelism: each tensor-parallel all-gather and reduce-scatter runs in chunks "
                            "beside the product next to it (Megatron-LM's --tp-comm-overlap); over NVLink only"));
  fp8_ = new QCheckBox(tr("FP8 GEMMs"), this);
  fp8_->setObjectName(QStringLiteral("parallelFp8"));
  fp8_->setToolTip(tr("The layers' weight products in FP8 (Transformer Engine's recipe: inputs cast each pass, an FP8 "
                      "copy of each weight); needs GPUs with an FP8 rate (Hopper and later)"));
  auto* flags = new QHBoxLayout;
  flags->addWidget(sequenceParallel_);
  flags->addWidget(tpOverlap_);
  flags->addWidget(fp8_);
  flags->addStretch(1);
  form->addRow(QString(), flags);
  top->addLayout(form);

  stages_ = new QTableWidget(this);
  stages_->setObjectName(QStringLiteral("parallelStages"));
  stages_->setColumnCount(4);
  stages_->setHorizontalHeaderLabels({tr("Stage"), tr("First layer"), tr("Layers"), tr("Recomputation")});
  stages_->verticalHeader()->hide();
  stages_->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
  stages_->horizontalHeader()->setStretchLastSection(true);
  stages_->setSelectionMode(QAbstractItemView::NoSelection);
  stages_->setEditTriggers(QAbstractItemView::NoEditTriggers);
  stages_->setToolTip(
      tr("Where each pipeline stage starts (or drag the boundaries in the layer stack), and what it "
         "recomputes in backward instead of keeping: nothing, the attention cores (selective) or everything (full)"));
  top->addWidget(stages_, 1);
  notice_ = new QLabel(this);
  notice_->setObjectName(QStringLiteral("parallelNotice"));
  notice_->setWordWrap(true);
  notice_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  notice_->setStyleSheet(QStringLiteral("QLabel { color: #b3261e; }"));
  notice_->hide();
  top->addWidget(notice_);

  connect(batch_, &QSpinBox::valueChanged, this, [this](int v) {
    if (v == state_.batch) return;
    Q_EMIT editRequested(pedit::withBatch(state_, v), tr("Global batch %1").arg(QLocale().toString(v)));
  });
  for (int which = 0; which < 3; ++which)
    connect(degreeCombo(which), &QComboBox::activated, this,
            [this, which](int index) { requestMesh(which, degreeCombo(which)->itemData(index).toInt()); });
  connect(cp_, &QComboBox::activated, this, [this](int index) {
    const int cp = cp_->itemData(index).toInt();
    if (cp == state_.plan.cp) return;
    Q_EMIT editRequested({state_.batch, pedit::withContextParallel(state_.plan, devices_, state_.batch, cp)},
                         QStringLiteral("cp %1").arg(cp));
  });
  connect(virtual_, &QComboBox::activated, this, [this](int index) {
    const int v = virtual_->itemData(index).toInt();
    if (v == state_.plan.virtualStages) return;
    Q_EMIT editRequested({state_.batch, pedit::withVirtualStages(state_.plan, layers_, v)}, tr("Virtual stages %1").arg(v));
  });
  connect(micro_, &QComboBox::activated, this, [this](int index) {
    const int m = micro_->itemData(index).toInt();
    if (m == state_.plan.microbatches) return;
    Q_EMIT editRequested({state_.batch, pedit::withMicrobatches(state_.plan, m)}, tr("Micro-batches %1").arg(m));
  });
  connect(schedule_, &QComboBox::activated, this, [this](int index) {
    const auto s = static_cast<PipeSchedule>(schedule_->itemData(index).toInt());
    if (s == state_.plan.schedule) return;
    Q_EMIT editRequested({state_.batch, pedit::withSchedule(state_.plan, s)},
                         tr("Schedule %1").arg(schedule_->itemText(index)));
  });
  connect(zero_, &QComboBox::activated, this, [this](int index) {
    const int z = zero_->itemData(index).toInt();
    if (z == state_.plan.zero) return;
    Q_EMIT editRequested({state_.batch, pedit::withZero(state_.plan, z)}, tr("ZeRO-%1").arg(z));
  });
  connect(shard_, &QComboBox::activated, this, [this](int index) {
    const int g = shard_->itemData(index).toInt();
    if (g == state_.plan.shardGroup) return;
    Q_EMIT editRequested({state_.batch, pedit::withShardGroup(state_.plan, g)}, tr("Sharded over %1").arg(shard_->itemText(index)));
  });
  connect(framework_, &QComboBox::activated, this, [this](int index) {
    const auto f = static_cast<TrainingFramework>(framework_->itemData(index).toInt());
    if (f == state_.plan.training.framework) return;
    Q_EMIT editRequested({state_.batch, pedit::withFramework(state_.plan, f)}, tr("Framework %1").arg(framework_->itemText(index)));
  });
  connect(attention_, &QComboBox::activated, this, [this](int index) {
    const auto a = static_cast<AttentionImpl>(attention_->itemData(index).toInt());
    if (a == state_.plan.attention) return;
    Q_EMIT editRequested({state_.batch, pedit::withAttention(state_.plan, a)},
                         tr("Attention %1").arg(attention_->itemText(index)));
  });
  connect(sequenceParallel_, &QCheckBox::toggled, this, [this](bool on) {
    if (on == state_.plan.sequenceParallel) return;
    Q_EMIT editRequested({state_.batch, pedit::withSequenceParallel(state_.plan, on)},
                         on ? tr("Sequence parallelism on") : tr("Sequence parallelism off"));
  });
  connect(tpOverlap_, &QCheckBox::toggled, this, [this](bool on) {
    if (on == state_.plan.overlapTpComm) return;
    Q_EMIT editRequested({state_.batch, pedit::withTpOverlap(state_.plan, on)},
                         on ? tr("TP overlap on") : tr("TP overlap off"));
  });
  connect(fp8_, &QCheckBox::toggled, this, [this](bool on) {
    if (on == state_.plan.fp8) return;
    Q_EMIT editRequested({state_.batch, pedit::withFp8(state_.plan, on)}, on ? tr("FP8 GEMMs on") : tr("FP8 GEMMs off"));
  });
}

QComboBox* ParallelControls::degreeCombo(int which) const { return which == 0 ? dp_ : which == 1 ? tp_ : pp_; }

void ParallelControls::setContext(int devices, int layers) {
  devices_ = std::max(1, devices);
  layers_ = std::max(1, layers);
}

void ParallelControls::requestMesh(int which, int value) {
  const int current[3] = {state_.plan.dp, state_.plan.tp, state_.plan.pp};
  if (current[which] == value) return;
  const std::array<int, 3> d = pedit::meshWith(state_.plan, devices_ / std::max(1, state_.plan.cp), which, value);
  static const char* names[] = {"dp", "tp", "pp"};
  Q_EMIT editRequested({state_.batch, pedit::withMesh(state_.plan, layers_, state_.batch, d[0], d[1], d[2])},
                       QStringLiteral("%1 %2").arg(QString::fromLatin1(names[which])).arg(value));
}

void ParallelControls::setState(const pedit::PlanState& state) {
  state_ = state;
  {
    const QSignalBlocker block(batch_);
    batch_->setValue(static_cast<int>(std::min<int64_t>(state.batch, batch_->maximum())));
  }
  fillDegrees();
  fillVirtualStages();
  fillMicrobatches();
  selectData(schedule_, static_cast<int>(state.plan.schedule));
  selectData(zero_, state.plan.zero);
  fillShardGroups();
  selectData(framework_, static_cast<int>(state.plan.training.framework));
  selectData(attention_, static_cast<int>(state.plan.attention));
  {
    const QSignalBlocker block(sequenceParallel_);
    sequenceParallel_->setChecked(state.plan.sequenceParallel);
  }
  {
    const QSignalBlocker block(tpOverlap_);
    tpOverlap_->setChecked(state.plan.overlapTpComm);
    tpOverlap_->setEnabled(editable_ && state.plan.sequenceParallel);
  }
  {
    const QSignalBlocker block(fp8_);
    fp8_->setChecked(state.plan.fp8);
  }
  fillStages();
}

void ParallelControls::fillDegrees() {
  const ParallelPlan& p = state_.plan;
  const int values[3] = {p.dp, p.tp, p.pp};
  for (int which = 0; which < 3; ++which) {
    QComboBox* c = degreeCombo(which);
    const QSignalBlocker block(c);
    c->clear();
    for (int v : pedit::degreeChoices(devices_, which == 2 ? layers_ : devices_))
      c->addItem(QString::number(v), v);
    c->setCurrentIndex(c->findData(values[which]));
  }
  const QSignalBlocker block(cp_);
  cp_->clear();
  for (int v : pedit::degreeChoices(devices_, devices_)) cp_->addItem(QString::number(v), v);
  cp_->setCurrentIndex(cp_->findData(p.cp));
}

void ParallelControls::fillVirtualStages() {
  const QSignalBlocker block(virtual_);
  virtual_->clear();
  for (int v : pedit::virtualStageChoices(layers_, state_.plan.pp, state_.plan.virtualStages)) virtual_->addItem(QString::number(v), v);
  virtual_->setCurrentIndex(virtual_->findData(state_.plan.virtualStages));
}

void ParallelControls::fillMicrobatches() {
  const QSignalBlocker block(micro_);
  micro_->clear();
  const QLocale loc;
  for (int m : pedit::microbatchChoices(state_.batch, state_.plan.dp))
    micro_->addItem(
        tr("%1 × %2 samples")
            .arg(loc.toString(m), loc.toString(static_cast<qlonglong>(state_.batch / (int64_t{state_.plan.dp} * m)))),
        m);
  micro_->setCurrentIndex(micro_->findData(state_.plan.microbatches));
}

void ParallelControls::fillShardGroups() {
  const QSignalBlocker block(shard_);
  shard_->clear();
  const QLocale loc;
  for (int g : pedit::shardGroupChoices(state_.plan))
    shard_->addItem(g == 0 ? tr("all %1 replicas").arg(loc.toString(state_.plan.gradientGroup()))
                           : tr("groups of %1").arg(loc.toString(g)),
                    g);
  shard_->setCurrentIndex(shard_->findData(state_.plan.shardGroup));
  shard_->setEnabled(editable_ && state_.plan.zero > 0);
}

void ParallelControls::fillStages() {
  const ParallelPlan& p = state_.plan;
  const int n = static_cast<int>(p.stages.size());
  stages_->setRowCount(n);
  for (int s = 0; s < n; ++s) {
    const PipeStage& st = p.stages[static_cast<size_t>(s)];
    const int stage = p.stageOfChunk(s);
    auto* name = new QTableWidgetItem(p.virtualStages > 1 ? tr("%1 · chunk %2").arg(stage).arg(s) : QString::number(s));
    name->setBackground(deviceColor(stage));
    name->setForeground(textColorOn(deviceColor(stage)));
    name->setTextAlignment(Qt::AlignCenter);
    stages_->setItem(s, 0, name);
    if (s == 0) {
      stages_->removeCellWidget(s, 1);
      stages_->setItem(s, 1, new QTableWidgetItem(QStringLiteral("0")));
    } else {
      auto* spin = new QSpinBox(stages_);
      spin->setObjectName(QStringLiteral("boundary_%1").arg(s));
      const auto [lo, hi] = pedit::boundaryRange(p, s);
      spin->setRange(lo, hi);
      spin->setValue(st.first);
      spin->setKeyboardTracking(false);
      spin->setFrame(false);
      connect(spin, &QSpinBox::valueChanged, this, [this, s](int first) {
        if (s >= static_cast<int>(state_.plan.stages.size()) ||
            first == state_.plan.stages[static_cast<size_t>(s)].first)
          return;
        Q_EMIT editRequested({state_.batch, pedit::withBoundary(state_.plan, s, first)},
                             (state_.plan.virtualStages > 1 ? tr("Chunk %1 starts at layer %2") : tr("Stage %1 starts at layer %2"))
                                 .arg(s)
                                 .arg(first));
      });
      stages_->setCellWidget(s, 1, spin);
    }
    stages_->setItem(s, 2, new QTableWidgetItem(QString::number(st.last - st.first)));
    auto* box = new QComboBox(stages_);
    box->setObjectName(QStringLiteral("recompute_%1").arg(s));
    box->setFrame(false);
    for (Recompute r : {Recompute::None, Recompute::Selective, Recompute::Full})
      box->addItem(pformat::recomputeName(r), static_cast<int>(r));
    box->setCurrentIndex(box->findData(static_cast<int>(st.recompute)));
    connect(box, &QComboBox::activated, this, [this, s, box](int index) {
      const auto r = static_cast<Recompute>(box->itemData(index).toInt());
      if (s >= static_cast<int>(state_.plan.stages.size()) || r == state_.plan.stages[static_cast<size_t>(s)].recompute) return;
      Q_EMIT editRequested({state_.batch, pedit::withRecompute(state_.plan, s, r)},
                           (state_.plan.virtualStages > 1 ? tr("Chunk %1: %2 recomputation") : tr("Stage %1: %2 recomputation"))
                               .arg(s)
                               .arg(pformat::recomputeName(r).toLower()));
    });
    stages_->setCellWidget(s, 3, box);
  }
}

// The cell widgets, not findChild: a replaced cell widget lives on until deleteLater runs.
QSpinBox* ParallelControls::boundarySpin(int boundary) const {
  return qobject_cast<QSpinBox*>(stages_->cellWidget(boundary, 1));
}

QComboBox* ParallelControls::recomputeBox(int stage) const { return qobject_cast<QComboBox*>(stages_->cellWidget(stage, 3)); }

void ParallelControls::setEditable(bool editable, const QString& whyNot) {
  for (QWidget* w : {static_cast<QWidget*>(batch_), static_cast<QWidget*>(dp_), static_cast<QWidget*>(tp_),
                     static_cast<QWidget*>(pp_), static_cast<QWidget*>(cp_), static_cast<QWidget*>(virtual_), static_cast<QWidget*>(micro_), static_cast<QWidget*>(schedule_),
                     static_cast<QWidget*>(zero_), static_cast<QWidget*>(framework_), static_cast<QWidget*>(attention_),
                     static_cast<QWidget*>(sequenceParallel_), static_cast<QWidget*>(fp8_), static_cast<QWidget*>(stages_)}) {
    w->setEnabled(editable);
  }
  editable_ = editable;
  tpOverlap_->setEnabled(editable && state_.plan.sequenceParallel);
  shard_->setEnabled(editable && state_.plan.zero > 0);
  setToolTip(editable ? QString() : whyNot);
}

void ParallelControls::setNotice(const QString& text) {
  notice_->setText(text);
  notice_->setVisible(!text.isEmpty());
}

QString ParallelControls::notice() const { return notice_->text(); }

}  // namespace gp
