#include "paddle/imperative/amp.h"

#include <cstdint>
#include <utility>
#include <vector>

#include "paddle/common/errors.h"
#include "paddle/kernels/kernel_registry.h"
#include "paddle/ops/generated/api/cast.h"

namespace paddle::imperative {

namespace {

// What the lists make of an op, by schema id.
enum class AmpClass : uint8_t { kGray, kWhite, kBlack, kUntouched };

struct ThreadAmp {
  AmpState state;
  std::vector<AmpClass> classes;  // by OpSchema::id
};

thread_local ThreadAmp g_amp;
thread_local bool g_amp_suspended = false;

bool Listed(const std::set<std::string>& list, const ops::OpSchema& op) {
  return list.count(op.name) > 0 || (!op.legacy.type.empty() && list.count(op.legacy.type) > 0);
}

// Ops AMP never casts: the optimizer updates (parameters and state keep their dtypes), the AMP
// ops themselves and cast.
bool Untouched(const ops::OpSchema& op) {
  return op.family == "optimizer" || op.family == "optimizer_extra" || op.family == "amp" ||
         op.name == "cast";
}

bool IsLowFloat(DataType dtype) {
  return dtype == DataType::FLOAT16 || dtype == DataType::BFLOAT16;
}

}  // namespace

void SetAmpState(AmpState state) {
  PD_CHECK(IsLowFloat(state.dtype),
           errors::InvalidArgument("auto_cast: dtype must be float16 or bfloat16, received ",
                                   DataTypeName(state.dtype)));
  const std::vector<ops::OpSchema>& all = ops::AllOps();
  std::vector<AmpClass> classes(all.size(), AmpClass::kGray);
  for (const ops::OpSchema& op : all) {
    AmpClass& c = classes[static_cast<size_t>(op.id)];
    if (Untouched(op)) {
      c = AmpClass::kUntouched;
    } else if (Listed(state.black_list, op)) {  // a custom black entry beats the white list
      c = AmpClass::kBlack;
    } else if (Listed(state.white_list, op)) {
      c = AmpClass::kWhite;
    }
  }
  g_amp.state = std::move(state);
  g_amp.classes = std::move(classes);
}

const AmpState& GetAmpState() { return g_amp.state; }

bool AmpEnabled() { return g_amp.state.level != AmpLevel::kO0 && !g_amp_suspended; }

AmpSuspendGuard::AmpSuspendGuard() : previous_(g_amp_suspended) { g_amp_suspended = true; }

AmpSuspendGuard::~AmpSuspendGuard() { g_amp_suspended = previous_; }

DataType AmpCastTarget(const ops::OpSchema& op, bool has_float32, bool has_low, Backend backend) {
  AmpClass cls = g_amp.classes[static_cast<size_t>(op.id)];
  if (cls == AmpClass::kUntouched || (!has_float32 && !has_low)) return DataType::UNDEFINED;
  const AmpState& state = g_amp.state;
  bool low = false;
  switch (state.level) {
    case AmpLevel::kOD:
      low = cls == AmpClass::kWhite;
      break;
    case AmpLevel::kO1:
      if (cls == AmpClass::kGray && !(has_float32 && has_low)) {
        // Runs as its inputs are, unless they are all low and it has no kernel for them
        // (pool2d after a bf16 conv2d, say): then in float32, as Paddle runs its unsupported ops.
        if (!has_low || op.kernels().Find(backend, state.dtype) != nullptr) {
          return DataType::UNDEFINED;
        }
        return DataType::FLOAT32;
      }
      low = cls == AmpClass::kWhite;
      break;
    case AmpLevel::kO2:
      low = cls == AmpClass::kWhite ||
            (cls == AmpClass::kGray && !(state.use_promote && has_float32));
      break;
    case AmpLevel::kO0:
      return DataType::UNDEFINED;
  }
  // Without a kernel for the low dtype where the op runs, it stays in float32.
  if (low && op.kernels().Find(backend, state.dtype) == nullptr) low = false;
  return low ? state.dtype : DataType::FLOAT32;
}

void AmpCastInputs(const ops::OpSchema& op, ops::OpCall* call) {
  bool has_float32 = false;
  bool has_low = false;
  const Tensor* first = nullptr;
  for (const std::vector<Tensor>& slot : call->inputs) {
    for (const Tensor& t : slot) {
      if (!t.defined() || t.is_selected_rows()) continue;
      if (first == nullptr) first = &t;
      has_float32 |= t.dtype() == DataType::FLOAT32;
      has_low |= IsLowFloat(t.dtype());
    }
  }
  if (first == nullptr) return;
  DataType target = AmpCastTarget(op, has_float32, has_low, BackendOf(first->place()));
  if (target == DataType::UNDEFINED) return;
  for (std::vector<Tensor>& slot : call->inputs) {
    for (Tensor& t : slot) {
      if (!t.defined() || t.is_selected_rows() || t.dtype() == target) continue;
      if (t.dtype() == DataType::FLOAT32 || IsLowFloat(t.dtype())) t = ops::cast(t, target);
    }
  }
}

}  // namespace paddle::imperative
