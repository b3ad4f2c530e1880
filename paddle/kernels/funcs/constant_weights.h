// Buffers whose contents stay fixed for as long as a ConstantWeights object lives: a predictor's
// parameters, which no op of its program writes. While one is installed on a thread, kernels may
// keep forms they derive from those buffers (oneDNN's reordered filters) and reuse them on later
// calls instead of deriving them again every time. The forms belong to the object, so they go
// with the buffers they were made from; a buffer that is not registered is never cached, because
// its address may hold other values on the next call.
#pragma once

#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_set>
#include <utility>
#include <vector>

namespace paddle::funcs {

class ConstantWeights {
 public:
  explicit ConstantWeights(std::vector<const void*> buffers);

  bool Holds(const void* data) const { return buffers_.count(data) != 0; }

  // The form of `data` named by `form`, made by `make` on the first request. Thread-safe: the
  // clones of a predictor share their weights and run on several threads at once.
  std::shared_ptr<void> Derived(const void* data, const std::string& form,
                                const std::function<std::shared_ptr<void>()>& make);

  // Derived forms held, for tests and reports.
  size_t DerivedCount() const;

  // The object installed on the calling thread, or null.
  static ConstantWeights* Current();

  // Installs `weights` (may be null) on the calling thread for the guard's lifetime.
  class Installed {
   public:
    explicit Installed(ConstantWeights* weights);
    ~Installed();
    Installed(const Installed&) = delete;
    Installed& operator=(const Installed&) = delete;

   private:
    ConstantWeights* previous_;
  };

 private:
  const std::unordered_set<const void*> buffers_;
  mutable std::mutex mutex_;
  std::map<std::pair<const void*, std::string>, std::shared_ptr<void>> derived_;
};

}  // namespace paddle::funcs
