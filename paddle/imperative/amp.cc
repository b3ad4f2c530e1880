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

void AmpCastInputs(const ops::OpSchema& op, ops::OpCall* call) {
  AmpClass cls = g_amp.classes[static_cast<size_t>(op.id)];
  if (cls == AmpClass::kUntouched) return;
  const AmpState& state = g_amp.state;
  bool has_float32 = false;
  bool has_low = false;
  for (const std::vector<Tensor>& slot : call->inputs) {
    for (const Tensor& t : slot) {
      if (!t.defined() || t.is_selected_rows()) continue;
      has_float32 |= t.dtype() == DataType::FLOAT32;
      has_low |= IsLowFloat(t.dtype());
    }
  }
  if (!has_float32 && !has_low) return;

  bool low = false;
  switch (state.level) {
    case AmpLevel::kOD:
      low = cls == AmpClass::kWhite;
      break;
    case AmpLevel::kO1:
      if (cls == AmpClass::kGray) {
        if (!(has_float32 && has_low)) return;  // runs as its inputs are
        low = false;
      } else {
        low = cls == AmpClass::kWhite;
      }
      break;
    case AmpLevel::kO2:
      low = cls == AmpClass::kWhite ||
            (cls == AmpClass::kGray && !(state.use_promote && has_float32));
      break;
    case AmpLevel::kO0:
      return;
  }
  if (low) {
    // Without a kernel for the low dtype where the op runs, it stays in float32.
    const Tensor* first = nullptr;
    for (const std::vector<Tensor>& slot : call->inputs) {
      if (!slot.empty() && slot[0].defined()) {
        first = &slot[0];
        break;
      }
    }
    if (first != nullptr && op.kernels().Find(BackendOf(first->place()), state.dtype) == nullptr) {
      low = false;
    }
  }
  DataType target = low ? state.dtype : DataType::FLOAT32;
  for (std::vector<Tensor>& slot : call->inputs) {
    for (Tensor& t : slot) {
      if (!t.defined() || t.is_selected_rows() || t.dtype() == target) continue;
      if (t.dtype() == DataType::FLOAT32 || IsLowFloat(t.dtype())) t = ops::cast(t, target);
    }
  }
}

}  // namespace paddle::imperative
