#include "import_notice.h"

#include <QDialog>
#include <QDialogButtonBox>
#include <QFormLayout>
#include <QPushButton>
#include <QSpinBox>
#include <QVBoxLayout>

namespace gp {

ImportBanner::ImportBanner(QWidget* parent) : QLabel(parent) {
  setObjectName(QStringLiteral("importBanner"));
  setWordWrap(true);
  setTextFormat(Qt::RichText);
  setTextInteractionFlags(Qt::LinksAccessibleByMouse | Qt::LinksAccessibleByKeyboard);
  setStyleSheet(QStringLiteral(
      "QLabel { background: #fff6dd; color: #5c4200; border-bottom: 1px solid #e6cf8a; padding: 5px 10px; }"));
  connect(this, &QLabel::linkActivated, this, [this](const QString& link) {
    if (link == QLatin1String("estimated")) Q_EMIT showEstimatedRequested();
    else if (link == QLatin1String("dims")) Q_EMIT dimsRequested();
  });
  hide();
}

void ImportBanner::setGraph(const std::shared_ptr<const Graph>& g) {
  estimated_.clear();
  QStringList parts;
  if (g) {
    for (OpId op = 0; op < g->numOps(); ++op)
      if (g->costEstimated(op) && g->role(op) == OpRole::Forward) estimated_.push_back(op);
    if (!estimated_.empty())
      parts << tr("%n op(s) have shapes the importer could not learn; their cost is estimated.", nullptr,
                  static_cast<int>(estimated_.size())) +
                   QStringLiteral(" <a href=\"estimated\">%1</a>").arg(tr("Show them"));
    if (!g->symbolicDims().empty()) {
      QStringList dims;
      for (const SymbolicDim& d : g->symbolicDims())
        dims << (d.bound ? tr("%1 = %2").arg(QString::fromStdString(d.name)).arg(d.value)
                         : tr("%1 = %2 (default)").arg(QString::fromStdString(d.name)).arg(d.value));
      parts << tr("Symbolic dimensions: %1.").arg(dims.join(QStringLiteral(", ")).toHtmlEscaped()) +
                   QStringLiteral(" <a href=\"dims\">%1</a>").arg(tr("Set…"));
    }
  }
  setText(parts.join(QStringLiteral(" &nbsp;·&nbsp; ")));
  setVisible(!parts.isEmpty());
}

bool askSymbolicDims(QWidget* parent, const std::vector<SymbolicDim>& dims, std::map<std::string, int64_t>& values) {
  QDialog dialog(parent);
  dialog.setObjectName(QStringLiteral("symbolicDimsDialog"));
  dialog.setWindowTitle(QObject::tr("Symbolic Dimensions"));
  auto* layout = new QVBoxLayout(&dialog);
  auto* intro = new QLabel(QObject::tr("The model's inputs have named dimensions without a value. The model "
                                       "reopens with these values (a dimension left at its default counts as 1)."),
                           &dialog);
  intro->setWordWrap(true);
  layout->addWidget(intro);
  auto* form = new QFormLayout;
  std::vector<QSpinBox*> spins;
  for (const SymbolicDim& d : dims) {
    auto* spin = new QSpinBox(&dialog);
    spin->setObjectName(QStringLiteral("dim_%1").arg(QString::fromStdString(d.name)));
    spin->setRange(1, 1 << 30);
    spin->setValue(static_cast<int>(std::min<int64_t>(d.value, 1 << 30)));
    form->addRow(QObject::tr("%1 (default 1):").arg(QString::fromStdString(d.name)), spin);
    spins.push_back(spin);
  }
  layout->addLayout(form);
  auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, &dialog);
  buttons->button(QDialogButtonBox::Ok)->setText(QObject::tr("Reopen"));
  QObject::connect(buttons, &QDialogButtonBox::accepted, &dialog, &QDialog::accept);
  QObject::connect(buttons, &QDialogButtonBox::rejected, &dialog, &QDialog::reject);
  layout->addWidget(buttons);
  if (dialog.exec() != QDialog::Accepted) return false;
  values.clear();
  for (size_t i = 0; i < dims.size(); ++i)
    if (spins[i]->value() != 1 || dims[i].bound) values[dims[i].name] = spins[i]->value();
  return true;
}

}  // namespace gp
