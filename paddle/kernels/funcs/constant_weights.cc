#include "paddle/kernels/funcs/constant_weights.h"

namespace paddle::funcs {

namespace {
thread_local ConstantWeights* installed = nullptr;
}  // namespace

ConstantWeights::ConstantWeights(std::vector<const void*> buffers)
    : buffers_(buffers.begin(), buffers.end()) {}

std::shared_ptr<void> ConstantWeights::Derived(const void* data, const std::string& form,
                                               const std::function<std::shared_ptr<void>()>& make) {
  std::lock_guard<std::mutex> lock(mutex_);
  std::shared_ptr<void>& slot = derived_[{data, form}];
  // Made under the lock: once per weight and form, and a second thread wanting the same form
  // would only make it again.
  if (!slot) slot = make();
  return slot;
}

size_t ConstantWeights::DerivedCount() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return derived_.size();
}

ConstantWeights* ConstantWeights::Current() { return installed; }

ConstantWeights::Installed::Installed(ConstantWeights* weights) : previous_(installed) {
  installed = weights;
}

ConstantWeights::Installed::~Installed() { installed = previous_; }

}  // namespace paddle::funcs
