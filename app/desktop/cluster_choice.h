// ClusterChoice: the cluster the user chose last (Load Cluster, a profiled cluster). An open
// still running when it was chosen applies it to the model once open (the last choice wins);
// one chosen with no model open is the next open()'s cluster.
#pragma once
#include <QString>
#include <cstdint>
#include <memory>

#include "cluster/cluster.h"
#include "latest_job.h"

namespace gp {

class ClusterChoice {
 public:
  void choose(std::shared_ptr<const Cluster> cluster, const QString& label, bool modelOpen) {
    choices_.invalidate();
    cluster_ = std::move(cluster);
    label_ = label;
    if (!modelOpen) pending_ = label;
  }
  // Taken when an open starts; chosenSince(token): a cluster was chosen while it ran.
  int64_t token() const { return choices_.current(); }
  bool chosenSince(int64_t token) const { return !choices_.isCurrent(token) && cluster_ != nullptr; }
  const std::shared_ptr<const Cluster>& cluster() const { return cluster_; }
  const QString& label() const { return label_; }
  // Chosen with no model open, for the next open(); empty when none (or once a model opened).
  const QString& pending() const { return pending_; }
  void opened() { pending_.clear(); }

 private:
  LatestJob choices_;
  std::shared_ptr<const Cluster> cluster_;
  QString label_;
  QString pending_;
};

}  // namespace gp
