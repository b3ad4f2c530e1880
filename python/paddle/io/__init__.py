"""paddle.io: datasets, samplers and the DataLoader (PaddlePaddle 3.3's API)."""
from .dataloader import (BatchSampler, ChainDataset, ComposeDataset, ConcatDataset,  # noqa: F401
                         Dataset, DistributedBatchSampler, IterableDataset, RandomSampler,
                         Sampler, SequenceSampler, Subset, SubsetRandomSampler, TensorDataset,
                         WeightedRandomSampler, get_worker_info, random_split)
from .reader import DataLoader  # noqa: F401

__all__ = ["Dataset", "IterableDataset", "TensorDataset", "ComposeDataset", "ChainDataset",
           "BatchSampler", "DistributedBatchSampler", "DataLoader", "get_worker_info", "Sampler",
           "SequenceSampler", "RandomSampler", "WeightedRandomSampler", "random_split", "Subset",
           "SubsetRandomSampler", "ConcatDataset"]
