//! Page-locked host memory as PyTorch's CUDA caching host allocator hands it out: every
//! pinned block is the request rounded up to a power of two. The one rule every pinned buffer
//! ramvram counts goes through: the DataLoader's pinned batches (`workload::budget`,
//! `workload::pause`), vLLM's `cpu_offload_gb` (`inference::pinned`), FSDP1's pinned flat
//! parameters with CPU offload (`training::fsdp`). `docs/model.md` § "Pinned memory".

/// Page-locked bytes one pinned allocation of `bytes` takes: the next power of two, as
/// PyTorch's caching host allocator rounds it (pytorch/pytorch
/// `aten/src/ATen/core/CachingHostAllocator.h`, `CachingHostAllocatorImpl::allocate`:
/// `size_t roundSize = c10::llvm::PowerOf2Ceil(size)`). `Tensor.pin_memory()`,
/// `torch.empty(..., pin_memory=True)` and a non-blocking copy to the CPU all allocate through
/// it (`at::cuda::getPinnedMemoryAllocator()` returns it: `aten/src/ATen/cuda/
/// PinnedMemoryAllocator.h`). The size itself when no power of two of `u64` holds it.
pub fn pinned_block(bytes: u64) -> u64 {
    bytes.checked_next_power_of_two().unwrap_or(bytes)
}

#[cfg(test)]
mod tests {
    use super::pinned_block;

    #[test]
    fn blocks_are_the_next_power_of_two() {
        // A 154,140,672-byte ImageNet batch (256 × 3 × 224 × 224 float32: 4 bytes each) lands in a
        // 2^28 = 268,435,456-byte block; an exact power of two stays as it is.
        assert_eq!(pinned_block(154_140_672), 268_435_456);
        assert_eq!(pinned_block(1 << 30), 1 << 30);
        assert_eq!(pinned_block((1 << 30) + 1), 1 << 31);
        assert_eq!(pinned_block(0), 1);
        assert_eq!(pinned_block(u64::MAX), u64::MAX);
    }
}
