// Appends ops to a block from the op schema: the static-graph half of "one API, two modes". The
// same schema, attribute defaults, type promotion and InferMeta that dygraph runs decide the
// OpDesc (with Paddle's legacy op type, slot and attribute names) and its outputs' VarDescs.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "paddle/framework/block_desc.h"
#include "paddle/ops/op_schema.h"

namespace paddle::framework {

// Makes a fresh variable name from a key such as "elementwise_add" (names come from Python's
// unique_name generator so both languages share one counter).
using NameFn = std::function<std::string(const std::string& key)>;

struct StaticOpCall {
  std::vector<std::vector<VarDesc*>> inputs;  // one list per schema input (empty: absent)
  std::vector<Attribute> attrs;               // every schema attribute, in order
  // Outputs to write instead of fresh variables: one list per schema output (empty: fresh).
  std::vector<std::vector<VarDesc*>> outputs;
};

struct AppendedOp {
  OpDesc* op;
  std::vector<std::vector<VarDesc*>> outputs;  // per schema output; nullptr for an absent one
};

// With `inplace`, each declared pair (x -> out) writes out into x's variable, as Paddle's
// static in-place APIs (and optimizer updates) do.
AppendedOp AppendSchemaOp(BlockDesc* block, const ops::OpSchema& op, StaticOpCall call,
                          bool inplace, const NameFn& make_name);

// The op role attribute new ops get (Paddle's op_role: forward, backward, optimize).
OpRole CurrentOpRole();
void SetCurrentOpRole(OpRole role);

}  // namespace paddle::framework
