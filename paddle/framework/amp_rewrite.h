// Static AMP (paddle.static.amp.decorate): the forward ops of a program already built are
// rebuilt as they would have been inside auto_cast, so a program gets the casts dygraph AMP
// gives its ops, by the same rules (paddle/imperative/amp.h).
#pragma once

#include <set>
#include <string>

#include "paddle/framework/block_desc.h"
#include "paddle/framework/op_builder.h"

namespace paddle::framework {

// Rebuilds each forward op of `block` that has a schema, in order, through AppendSchemaOp under
// the thread's AMP state (which must be enabled): cast ops go before it where its inputs take
// another dtype, and its outputs (the same variables) take the dtypes InferMeta gives them then.
// Backward and optimizer ops, ops with a sub-block, ops without a schema and in-place ops (an
// output that is also an input) are kept as they are. An op that reads or writes one of
// `float32_vars` (custom_black_varnames) runs in float32 whatever the lists say. Returns how
// many cast ops were inserted.
int RebuildForwardOpsWithAmp(BlockDesc* block, const std::set<std::string>& float32_vars,
                             const NameFn& make_name);

}  // namespace paddle::framework
