// CalibrationState: the calibration table (measured op times) every workspace of the document
// is built with, and its label (the table's file path). At most one table; it stays through
// cluster switches and opens.
#pragma once
#include <QString>
#include <memory>

#include "cost/calibration.h"

namespace gp {

class CalibrationState {
 public:
  bool has() const { return table_ != nullptr; }
  const std::shared_ptr<const CalibrationTable>& table() const { return table_; }
  const QString& label() const { return label_; }
  void set(std::shared_ptr<const CalibrationTable> table, const QString& label) {
    table_ = std::move(table);
    label_ = label;
  }
  void clear() {
    table_.reset();
    label_.clear();
  }

 private:
  std::shared_ptr<const CalibrationTable> table_;
  QString label_;
};

}  // namespace gp
