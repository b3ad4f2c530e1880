#include "paddle/framework/program_desc.h"

#include "paddle/common/errors.h"

namespace paddle::framework {

ProgramDesc::ProgramDesc() { blocks_.push_back(std::make_unique<BlockDesc>(this, 0, -1)); }

ProgramDesc::ProgramDesc(const ProgramDesc& other) : ProgramDesc(other.ToProto()) {}

ProgramDesc::ProgramDesc(const proto::ProgramDesc& desc) {
  for (const proto::BlockDesc& block : desc.blocks()) {
    blocks_.push_back(std::make_unique<BlockDesc>(this, block));
  }
  if (desc.has_version()) version_ = desc.version().version();
  op_version_map_ = desc.op_version_map();
}

std::unique_ptr<ProgramDesc> ProgramDesc::Parse(const std::string& bytes,
                                                const std::string& source) {
  proto::ProgramDesc desc;
  PD_CHECK(desc.ParseFromString(bytes),
           errors::InvalidArgument(source, ": not a valid serialized ProgramDesc (", bytes.size(),
                                   " bytes could not be parsed; the file is truncated, corrupt or "
                                   "not a .pdmodel)"));
  PD_CHECK(desc.blocks_size() > 0,
           errors::InvalidArgument(source, ": the ProgramDesc has no blocks"));
  for (int i = 0; i < desc.blocks_size(); ++i) {
    const proto::BlockDesc& block = desc.blocks(i);
    PD_CHECK(block.idx() == i, errors::InvalidArgument(source, ": block ", i, " has idx ",
                                                       block.idx(), "; expected ", i));
    int parent = block.parent_idx();
    PD_CHECK(i == 0 ? parent == -1 : (parent >= 0 && parent < i),
             errors::InvalidArgument(source, ": block ", i, " has parent_idx ", parent,
                                     "; expected ", i == 0 ? "-1" : "an earlier block"));
    for (const proto::OpDesc& op : block.ops()) {
      for (const auto& attr : op.attrs()) {
        bool bad_block = (attr.type() == proto::BLOCK &&
                          (attr.block_idx() <= i || attr.block_idx() >= desc.blocks_size()));
        PD_CHECK(!bad_block, errors::InvalidArgument(source, ": op '", op.type(), "' in block ", i,
                                                     " refers to sub-block ", attr.block_idx(),
                                                     ", which does not exist or is not nested"));
      }
    }
  }
  return std::unique_ptr<ProgramDesc>(new ProgramDesc(desc));
}

BlockDesc* ProgramDesc::AppendBlock(const BlockDesc& parent) {
  Touch();
  blocks_.push_back(
      std::make_unique<BlockDesc>(this, static_cast<int>(blocks_.size()), parent.idx()));
  return blocks_.back().get();
}

BlockDesc* ProgramDesc::Block(size_t idx) const {
  PD_CHECK(idx < blocks_.size(),
           errors::OutOfRange("block index ", idx, " is out of range; the program has ",
                              blocks_.size(), " blocks"));
  return blocks_[idx].get();
}

proto::ProgramDesc ProgramDesc::ToProto() const {
  proto::ProgramDesc desc;
  for (const auto& block : blocks_) *desc.add_blocks() = block->ToProto();
  desc.mutable_version()->set_version(version_);
  if (op_version_map_.pair_size() > 0) *desc.mutable_op_version_map() = op_version_map_;
  return desc;
}

std::string ProgramDesc::Serialize() const {
  std::string bytes;
  ToProto().SerializeToString(&bytes);
  return bytes;
}

}  // namespace paddle::framework
