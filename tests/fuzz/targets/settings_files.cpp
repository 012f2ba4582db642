// The JSON files that describe hardware, measurements and work: cluster files, calibration
// tables, pre-training corpora, parallel plans and the published-measurements corpus.
#include "cluster/cluster.h"
#include "cost/calibration.h"
#include "fidelity/published_corpus.h"
#include "fuzz_target.h"
#include "optimize/corpus_spec.h"
#include "parallel/parallel_plan.h"

GP_FUZZ_TARGET(cluster_json) { gp::parseClusterJson(gp::fuzz::text(data, size), "cluster.json"); }

GP_FUZZ_TARGET(calibration) { gp::CalibrationTable::parse(gp::fuzz::text(data, size), "calibration.json"); }

GP_FUZZ_TARGET(corpus_spec) {
  gp::parseCorpusSpec(gp::fuzz::text(data, size), GP_TEST_DATA_DIR "/corpus.json");
}

GP_FUZZ_TARGET(parallel_plan) {
  static const gp::Cluster cluster = gp::loadCluster("4xA100-NVLink");
  gp::parseParallelPlanJson(gp::fuzz::text(data, size), "plan.json", cluster);
}

GP_FUZZ_TARGET(published_corpus) { gp::parsePublishedCorpus(gp::fuzz::text(data, size), "published.json"); }
