#include "parallel/breakdown_json.h"

namespace gp {

nlohmann::ordered_json stepBreakdownJson(const StepBreakdown& b) {
  return {{"stage", b.stage},
          {"compute", b.compute * 1e3},
          {"recompute", b.recompute * 1e3},
          {"pass_comm", b.passComm * 1e3},
          {"bubble", b.bubble * 1e3},
          {"dp_exposed", b.dpExposed * 1e3},
          {"optimizer", b.optimizer * 1e3},
          {"pass_comm_by_kind",
           {{"tp", b.tpComm * 1e3}, {"cp", b.cpComm * 1e3}, {"ep", b.epComm * 1e3}, {"zero3_gather", b.zeroGather * 1e3}}}};
}

}  // namespace gp
