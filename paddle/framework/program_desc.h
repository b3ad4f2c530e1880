// ProgramDesc: the blocks of a static-graph program, serialised as framework.proto's ProgramDesc
// (the .pdmodel format). Every structural change bumps a revision so prepared executors can tell
// a program changed since they prepared it.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "paddle/framework/block_desc.h"

namespace paddle::framework {

class ProgramDesc {
 public:
  ProgramDesc();  // one empty main block
  ProgramDesc(const ProgramDesc& other);
  ProgramDesc& operator=(const ProgramDesc&) = delete;
  // Parses serialised bytes and checks the block structure; errors name `source` (a file name
  // or "bytes").
  static std::unique_ptr<ProgramDesc> Parse(const std::string& bytes, const std::string& source);

  BlockDesc* AppendBlock(const BlockDesc& parent);
  BlockDesc* Block(size_t idx) const;
  BlockDesc* MainBlock() const { return blocks_[0].get(); }
  size_t Size() const { return blocks_.size(); }

  int64_t version() const { return version_; }
  void set_version(int64_t v) { version_ = v; }
  uint64_t revision() const { return revision_; }
  void Touch() { ++revision_; }

  proto::ProgramDesc ToProto() const;
  std::string Serialize() const;

 private:
  explicit ProgramDesc(const proto::ProgramDesc& desc);

  std::vector<std::unique_ptr<BlockDesc>> blocks_;
  int64_t version_ = 0;
  uint64_t revision_ = 0;
  // Kept verbatim so a program read from a file writes back its op version map unchanged.
  proto::OpVersionMap op_version_map_;
};

}  // namespace paddle::framework
