#include "paddle/framework/executor.h"

#include <unordered_map>

#include "paddle/common/errors.h"
#include "paddle/common/flags.h"
#include "paddle/imperative/grad_mode.h"

DEFINE_double(eager_delete_tensor_gb, 0.0,
              "Garbage collection of the static executor: below 0 off, 0 frees each variable's "
              "buffer right after its last use, above 0 frees in batches of this many GiB");

namespace paddle::framework {

namespace {

bool IsCollectable(const VarDesc* var, const std::unordered_set<std::string>& skip) {
  return var != nullptr && !var->persistable() && var->kind() == proto::VarType::DENSE_TENSOR &&
         skip.count(var->name()) == 0;
}

// Releases dead buffers at once, or holds them until a batch of `threshold` bytes is reached.
class GarbageCollector {
 public:
  explicit GarbageCollector(double gb)
      : threshold_(static_cast<size_t>(gb * static_cast<double>(size_t{1} << 30))) {}

  void Collect(DenseTensor* tensor) {
    if (!tensor->has_allocation()) return;
    if (threshold_ == 0) {
      tensor->set_holder(nullptr);
      return;
    }
    bytes_ += tensor->holder()->size();
    garbage_.push_back(tensor->holder());
    tensor->set_holder(nullptr);
    if (bytes_ >= threshold_) Flush();
  }

  void Flush() {
    garbage_.clear();
    bytes_ = 0;
  }

 private:
  size_t threshold_;
  size_t bytes_ = 0;
  std::vector<std::shared_ptr<memory::Allocation>> garbage_;
};

}  // namespace

std::unique_ptr<PreparedBlock> Executor::Prepare(const ProgramDesc& program, int block_idx,
                                                 const PrepareOptions& options) {
  auto prepared = std::make_unique<PreparedBlock>();
  prepared->program_ = &program;
  prepared->block_idx_ = block_idx;
  prepared->revision_ = program.revision();
  const BlockDesc* block = program.Block(block_idx);
  for (size_t i = 0; i < block->OpSize(); ++i) {
    PrepareContext ctx{&program, block, i, place_, this};
    prepared->instructions_.push_back(CreateInstruction(*block->Op(i), ctx));
  }
  const auto& instructions = prepared->instructions_;
  std::unordered_set<std::string> skip(options.skip_vars.begin(), options.skip_vars.end());

  // Readers per variable, and variables whose storage may be shared with another variable.
  std::unordered_map<std::string, int> readers;
  std::unordered_set<std::string> aliased;
  for (const auto& inst : instructions) {
    for (const std::string& name : inst->op().InputNames()) ++readers[name];
    if (inst->OutputsMayAlias()) {
      for (const std::string& name : inst->op().InputNames()) aliased.insert(name);
      for (const std::string& name : inst->op().OutputNames()) aliased.insert(name);
    }
  }

  // In place: the op declares the pair, is the only reader of the input, and neither variable
  // is persistable, fed, fetched or possibly aliased.
  if (options.enable_inplace) {
    for (const auto& inst : instructions) {
      std::vector<std::pair<std::string, std::string>> accepted;
      std::vector<std::string> inputs = inst->op().InputNames();
      for (const auto& [in, out] : inst->InplaceCandidates()) {
        const VarDesc* in_var = block->FindVar(in);
        const VarDesc* out_var = block->FindVar(out);
        bool ok = in != out && IsCollectable(in_var, skip) && IsCollectable(out_var, skip) &&
                  readers[in] == 1 && std::count(inputs.begin(), inputs.end(), in) == 1 &&
                  std::count(inputs.begin(), inputs.end(), out) == 0 && aliased.count(in) == 0 &&
                  aliased.count(out) == 0 && in_var->dtype() == out_var->dtype();
        if (ok) accepted.emplace_back(in, out);
      }
      if (!accepted.empty()) {
        inst->EnableInplace(accepted);
        prepared->inplace_pairs_.insert(prepared->inplace_pairs_.end(), accepted.begin(),
                                        accepted.end());
      }
    }
  }

  // Last use: the last op that reads a variable's buffer or writes it.
  std::unordered_map<std::string, size_t> last_use;
  for (size_t i = 0; i < instructions.size(); ++i) {
    const Instruction& inst = *instructions[i];
    std::vector<std::string> no_buffer = inst.NoNeedBufferInputs();
    std::vector<std::string> outputs = inst.op().OutputNames();
    for (const std::string& name : inst.op().InputNames()) {
      bool meta_only = std::count(no_buffer.begin(), no_buffer.end(), name) > 0 &&
                       std::count(outputs.begin(), outputs.end(), name) == 0;
      if (!meta_only) last_use[name] = i;
    }
    for (const std::string& name : outputs) last_use[name] = i;
  }
  prepared->dead_after_.resize(instructions.size());
  for (const auto& [name, i] : last_use) {
    if (IsCollectable(block->FindVar(name), skip)) prepared->dead_after_[i].push_back(name);
  }
  for (auto& names : prepared->dead_after_) std::sort(names.begin(), names.end());
  return prepared;
}

void Executor::Bind(PreparedBlock* prepared, Scope* scope) {
  const BlockDesc* block = prepared->program_->Block(prepared->block_idx_);
  PD_CHECK(prepared->revision_ == prepared->program_->revision(),
           errors::PreconditionNotMet("the program changed after it was prepared; prepare it "
                                      "again"));
  if (prepared->bound_scope_id_ != scope->id() ||
      prepared->bound_scope_version_ != scope->BindingVersion()) {
    for (const VarDesc* var : block->AllVars()) {
      if (scope->FindVar(var->name()) == nullptr) scope->Var(var->name())->set_kind(var->kind());
    }
    for (auto& inst : prepared->instructions_) inst->Bind(scope);
    prepared->dead_tensors_.assign(prepared->instructions_.size(), {});
    for (size_t i = 0; i < prepared->instructions_.size(); ++i) {
      for (const std::string& name : prepared->dead_after_[i]) {
        prepared->dead_tensors_[i].push_back(scope->FindVar(name)->tensor());
      }
    }
    prepared->bound_scope_id_ = scope->id();
    prepared->bound_scope_version_ = scope->BindingVersion();
  }
}

void Executor::Run(PreparedBlock* prepared, Scope* scope) {
  Bind(prepared, scope);
  // Backward rules run forward ops eagerly; nothing here is recorded for dygraph autograd.
  imperative::GradModeGuard no_grad(false);
  double gb = FLAGS_eager_delete_tensor_gb;
  auto& instructions = prepared->instructions_;
  if (gb < 0) {
    for (auto& inst : instructions) inst->Run();
    return;
  }
  GarbageCollector gc(gb);
  for (size_t i = 0; i < instructions.size(); ++i) {
    instructions[i]->Run();
    for (DenseTensor* dead : prepared->dead_tensors_[i]) gc.Collect(dead);
  }
  gc.Flush();
}

}  // namespace paddle::framework
