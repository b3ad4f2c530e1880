// The bookkeeping shared by the best-fit strategy allocators: chunks of memory taken from an
// underlying allocator, carved into blocks. A request takes the best-fitting free block (the
// smallest one that is large enough, ties broken by the lowest address) and splits it: the front
// part stays free and the tail is handed out, so the free part keeps its address. A returned
// block is merged with the free blocks next to it in the same chunk (never across chunks: two
// chunks need not be adjacent and are freed separately), so a chunk whose memory is all free is
// one free block again and can be given back.
//
// Small tensors make this a hot path (tens of nanoseconds per allocation), hence: a block is
// itself the Allocation handed out for it, block records are recycled, and a free block whose
// size changes stays where it is in the free set when its order does not change.
//
// Not thread safe: the allocators lock around it. Sizes passed in are multiples of the pool's
// alignment.
#pragma once

#include <cstddef>
#include <cstdint>
#include <list>
#include <set>

#include "paddle/memory/allocator.h"

namespace paddle::memory {

// Rounds `size` up to a multiple of `alignment` (a power of two); throws ResourceExhausted when
// the result does not fit in size_t. `who` names the allocator in the message.
size_t AlignSize(size_t size, size_t alignment, const char* who);

class BlockPool {
 public:
  struct Block;
  struct Chunk;

  // Orders free blocks by (size, address), so that lower_bound(n) is the best fit for n bytes.
  struct BySizeThenAddress {
    using is_transparent = void;
    bool operator()(const Block* a, const Block* b) const;
    bool operator()(const Block* a, size_t size) const;
    bool operator()(size_t size, const Block* b) const;
  };
  using FreeSet = std::set<Block*, BySizeThenAddress>;

  // The Allocation handed out for a block is the block itself, so taking one creates at most
  // one object.
  struct Block : Allocation {
    Block(char* ptr, size_t size, const Place& place) : Allocation(ptr, size, place) {}
    char* begin() const { return static_cast<char*>(ptr()); }
    void SetRange(char* ptr, size_t size) { Reset(ptr, size); }

    bool is_free = false;
    Chunk* chunk = nullptr;
    Block* prev = nullptr;  // address-neighbours in the same chunk
    Block* next = nullptr;
    FreeSet::iterator free_it;  // valid while is_free
  };

  struct Chunk {
    AllocationPtr memory;
    Block* first;  // never merged away: merging keeps the lower block
    std::list<Chunk>::iterator self;
  };

  explicit BlockPool(size_t alignment) : alignment_(alignment) {}
  // Frees every chunk: blocks still handed out must not be used or freed afterwards.
  ~BlockPool();
  BlockPool(const BlockPool&) = delete;
  BlockPool& operator=(const BlockPool&) = delete;

  // Adds `memory` (aligned to the pool's alignment) as one free block.
  void AddChunk(AllocationPtr memory);
  // Takes `size` bytes from the best-fitting free block, or returns nullptr when none is large
  // enough.
  Block* Take(size_t size);
  // Frees a taken block, merging it with its free neighbours. Returns its chunk when the chunk
  // became idle (entirely free), else nullptr.
  Chunk* Return(Block* block);
  // Gives an idle chunk's memory back to the allocator it came from; returns its size.
  uint64_t ReleaseChunk(Chunk* chunk);
  uint64_t ReleaseIdleChunks();

  size_t num_chunks() const { return chunks_.size(); }
  size_t num_free_blocks() const { return free_blocks_.size(); }
  // Bytes in free blocks, and bytes held in chunks (free or not).
  size_t free_bytes() const { return free_bytes_; }
  size_t chunk_bytes() const { return chunk_bytes_; }
  // The largest request Take() can serve without a new chunk.
  size_t largest_free_block() const {
    return free_blocks_.empty() ? 0 : (*free_blocks_.rbegin())->size();
  }

 private:
  static bool IsIdle(const Chunk& chunk) {
    return chunk.first->is_free && chunk.first->next == nullptr;
  }
  Block* NewBlock(char* ptr, size_t size, Chunk* chunk);
  void RecycleBlock(Block* block);
  void ResizeFree(Block* block, size_t size);
  void InsertFree(Block* block);
  void EraseFree(Block* block);

  size_t alignment_;
  std::list<Chunk> chunks_;
  FreeSet free_blocks_;
  size_t free_bytes_ = 0;
  size_t chunk_bytes_ = 0;
  // Records of merged-away blocks, linked through `next`, for the next split to reuse.
  Block* spare_blocks_ = nullptr;
  size_t num_spare_blocks_ = 0;
};

inline bool BlockPool::BySizeThenAddress::operator()(const Block* a, const Block* b) const {
  return a->size() < b->size() || (a->size() == b->size() && a->ptr() < b->ptr());
}
inline bool BlockPool::BySizeThenAddress::operator()(const Block* a, size_t size) const {
  return a->size() < size;
}
inline bool BlockPool::BySizeThenAddress::operator()(size_t size, const Block* b) const {
  return size < b->size();
}

}  // namespace paddle::memory
