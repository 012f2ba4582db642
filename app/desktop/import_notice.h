// What the import of a model could only guess, shown where the user sees it.
//  * ImportBanner: a strip above the graph, shown when some op's cost is estimated (its shapes
//    stayed unknown) or the model has symbolic input dimensions: "3 ops have unknown shapes;
//    their cost is estimated. Show them · Symbolic dimensions: batch_size = 1 (default) · Set…".
//    The links only ask (showEstimatedRequested, dimsRequested); the main window acts.
//  * askSymbolicDims: a dialog with one spin box per symbolic dimension (the value in use,
//    the default 1 said in its label); true and the chosen values when accepted.
#pragma once
#include <QLabel>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "graph/graph.h"

namespace gp {

class ImportBanner : public QLabel {
  Q_OBJECT
 public:
  explicit ImportBanner(QWidget* parent = nullptr);
  // Shows the notice for this graph, or hides the banner when there is nothing to say.
  void setGraph(const std::shared_ptr<const Graph>& g);
  // The forward ops whose cost is estimated (what "Show them" selects).
  const std::vector<OpId>& estimatedOps() const { return estimated_; }

 Q_SIGNALS:
  void showEstimatedRequested();
  void dimsRequested();

 private:
  std::vector<OpId> estimated_;
};

bool askSymbolicDims(QWidget* parent, const std::vector<SymbolicDim>& dims, std::map<std::string, int64_t>& values);

}  // namespace gp
