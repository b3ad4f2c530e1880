"""paddle.io's data pipeline: datasets, samplers, collation and the worker processes."""
from .batch_sampler import BatchSampler, DistributedBatchSampler  # noqa: F401
from .collate import default_collate_fn, default_convert_fn  # noqa: F401
from .dataset import (ChainDataset, ComposeDataset, ConcatDataset, Dataset,  # noqa: F401
                      IterableDataset, Subset, TensorDataset, random_split)
from .sampler import (RandomSampler, Sampler, SequenceSampler, SubsetRandomSampler,  # noqa: F401
                      WeightedRandomSampler)
from .worker import WorkerInfo, get_worker_info  # noqa: F401
