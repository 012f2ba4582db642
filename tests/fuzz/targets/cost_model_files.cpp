// The learned cost model's JSON inputs: measured datasets (costmodel/cost_dataset.h) and fitted
// rooflines (costmodel/analytic_baseline.h).
#include "costmodel/analytic_baseline.h"
#include "costmodel/cost_dataset.h"
#include "fuzz_target.h"

GP_FUZZ_TARGET(cost_dataset) { gp::CostDataset::parse(gp::fuzz::text(data, size), "dataset.json"); }

GP_FUZZ_TARGET(roofline) { gp::AnalyticCostModel::parse(gp::fuzz::text(data, size), "roofline.json"); }
