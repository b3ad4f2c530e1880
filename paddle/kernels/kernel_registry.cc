#include "paddle/kernels/kernel_registry.h"

#include <sstream>

#include "paddle/common/errors.h"

namespace paddle {

const char* BackendName(Backend backend) {
  switch (backend) {
    case Backend::CPU:
      return "CPU";
    case Backend::GPU:
      return "GPU";
    default:
      return "undefined";
  }
}

Backend BackendOf(const Place& place) { return place.is_gpu() ? Backend::GPU : Backend::CPU; }

const Kernel& KernelTable::Select(const KernelKey& key) const {
  if (const Kernel* exact = Find(key)) return *exact;
  const Backend backend = key.backend;
  const DataType dtype = key.dtype;
  if (const Kernel* any = Find(KernelKey{backend, DataLayout::ANY, dtype})) return *any;
  std::ostringstream registered;
  for (DataType t : DataTypes(backend)) registered << " " << DataTypeName(t);
  // Complex numbers are a type few ops are defined for (relu, maximum, comparisons have no
  // complex meaning): a TypeError, as a wrong argument type is, rather than a missing kernel.
  if (IsComplex(dtype)) {
    PD_THROW(errors::InvalidType(name_, ": complex input (data type ", DataTypeName(dtype),
                                 ") is not supported; supported ", BackendName(backend),
                                 " data types:", registered.str().empty() ? " none" : "",
                                 registered.str()));
  }
  PD_THROW(errors::Unimplemented(name_, ": no ", BackendName(backend), " kernel for data type ",
                                 DataTypeName(dtype), "; registered ", BackendName(backend),
                                 " data types:", registered.str().empty() ? " none" : "",
                                 registered.str()));
}

std::vector<DataType> KernelTable::DataTypes(Backend backend) const {
  std::vector<DataType> types;
  for (int t = 0; t < static_cast<int>(DataType::NUM_DATA_TYPES); ++t) {
    for (const auto& by_dtype : kernels_[static_cast<int>(backend)]) {
      if (by_dtype[t].fn) {
        types.push_back(static_cast<DataType>(t));
        break;
      }
    }
  }
  return types;
}

void KernelTable::Set(const KernelKey& key, Kernel kernel) {
  kernels_[static_cast<int>(key.backend)][static_cast<int>(key.layout)]
          [static_cast<int>(key.dtype)] = std::move(kernel);
}

KernelRegistry& KernelRegistry::Instance() {
  static KernelRegistry registry;
  return registry;
}

const KernelTable* KernelRegistry::Find(const std::string& name) const {
  for (const auto& table : tables_) {
    if (table->name() == name) return table.get();
  }
  return nullptr;
}

KernelTable& KernelRegistry::GetOrCreate(const std::string& name) {
  for (auto& table : tables_) {
    if (table->name() == name) return *table;
  }
  tables_.push_back(std::make_unique<KernelTable>(name));
  return *tables_.back();
}

std::vector<std::string> KernelRegistry::Names() const {
  std::vector<std::string> names;
  for (const auto& table : tables_) names.push_back(table->name());
  return names;
}

}  // namespace paddle
