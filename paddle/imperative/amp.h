// Automatic mixed precision in dygraph (paddle.amp.auto_cast): while a level other than O0 is
// set, the eager dispatcher casts each op's floating inputs before running it, by Paddle's rules:
//   OD: ops of the white list run in the low dtype (float16 or bfloat16), every other op in
//       float32.
//   O1: white-list ops run in the low dtype, black-list ops in float32; any other op runs as its
//       inputs are, in float32 where they mix float32 and the low dtype.
//   O2: every op runs in the low dtype except the black list; with use_promote, an op outside the
//       white list that has a float32 input runs in float32.
// Only float32 and 16-bit floats are cast (float64 stays), an op without a kernel for the low
// dtype keeps float32, and in-place calls and the optimizer and AMP ops are left alone. The
// casts are recorded ops, so gradients flow back in each input's own dtype. The state is per
// thread, as the grad mode is.
#pragma once

#include <set>
#include <string>

#include "paddle/common/data_type.h"
#include "paddle/kernels/kernel_registry.h"
#include "paddle/ops/op_schema.h"

namespace paddle::imperative {

enum class AmpLevel { kO0 = 0, kOD = 1, kO1 = 2, kO2 = 3 };

struct AmpState {
  AmpLevel level = AmpLevel::kO0;
  DataType dtype = DataType::FLOAT16;  // the low-precision dtype
  bool use_promote = true;
  // Op names or Paddle op types (matmul or matmul_v2).
  std::set<std::string> white_list;
  std::set<std::string> black_list;
};

void SetAmpState(AmpState state);
const AmpState& GetAmpState();

// Whether a level other than O0 is set on this thread and not suspended (the dispatcher's fast
// check).
bool AmpEnabled();

// Suspends AMP while it lives: the backward pass runs each gradient in the dtype its forward
// op ran in, as Paddle's does, even when backward() is called inside auto_cast.
class AmpSuspendGuard {
 public:
  AmpSuspendGuard();
  ~AmpSuspendGuard();
  AmpSuspendGuard(const AmpSuspendGuard&) = delete;
  AmpSuspendGuard& operator=(const AmpSuspendGuard&) = delete;

 private:
  bool previous_;
};

// The dtype op's float32 and 16-bit inputs take by the rules above, given whether it has such
// inputs of each kind and the backend it runs on; UNDEFINED where they stay as they are. The
// static op builder asks it too (auto_cast while a program is built).
DataType AmpCastTarget(const ops::OpSchema& op, bool has_float32, bool has_low, Backend backend);

// Casts call's floating inputs for op by the rules above.
void AmpCastInputs(const ops::OpSchema& op, ops::OpCall* call);

}  // namespace paddle::imperative
