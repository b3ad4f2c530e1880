// Builders of the schema tables; their definitions are generated (one shard per family, and
// op_families.cc over all of them) and only op_schema.cc calls them.
#pragma once

#include <string>
#include <vector>

#include "paddle/ops/op_schema.h"

namespace paddle::ops {

struct BackwardSpec {
  std::string name;
  std::string forward;
  GradFn fn;
  std::vector<bool> save_inputs;
  std::vector<bool> save_outputs;
  std::vector<bool> no_need_buffer;
  std::vector<bool> differentiable;
  int yaml_line;
};

std::vector<OpSchema> BuildOpSchemas();
std::vector<BackwardSpec> BuildBackwardSpecs();

}  // namespace paddle::ops
