"""paddle.text.Conll05st: the semantic role labelling test set of CoNLL-2005 (the WSJ section
of conll05st-tests.tar.gz) with Paddle's word, verb and label dictionaries."""
import gzip
import tarfile

import numpy as np

from ...io import Dataset
from ._files import find_file, reading

__all__ = []

DATA_URL = "http://paddlemodels.bj.bcebos.com/conll05st/conll05st-tests.tar.gz"
WORDDICT_URL = "http://paddlemodels.bj.bcebos.com/conll05st%2FwordDict.txt"
VERBDICT_URL = "http://paddlemodels.bj.bcebos.com/conll05st%2FverbDict.txt"
TRGDICT_URL = "http://paddlemodels.bj.bcebos.com/conll05st%2FtargetDict.txt"
EMB_URL = "http://paddlemodels.bj.bcebos.com/conll05st%2Femb"

UNK_IDX = 0

_WORDS = "conll05st-release/test.wsj/words/test.wsj.words.gz"
_PROPS = "conll05st-release/test.wsj/props/test.wsj.props.gz"


def _load_dict(path):
    with open(path, "r") as f:
        return {line.strip(): i for i, line in enumerate(f)}


def _load_label_dict(path):
    """B-<tag> and I-<tag> for each tag of the file's B-/I- lines, in order of first appearance,
    then 'O'."""
    tags = {}
    with open(path, "r") as f:
        for line in f:
            line = line.strip()
            if line.startswith(("B-", "I-")):
                tags.setdefault(line[2:], None)
    labels = {}
    for tag in tags:
        labels["B-" + tag] = len(labels)
        labels["I-" + tag] = len(labels)
    labels["O"] = len(labels)
    return labels


def _bio_labels(column):
    """A predicate's bracketed argument column ('(A0*', '*', '*)', '(V*)') as B-/I-/O labels."""
    labels, tag, inside = [], "O", False
    for mark in column:
        if mark == "*":
            labels.append("I-" + tag if inside else "O")
        elif mark == "*)":
            labels.append("I-" + tag)
            inside = False
        elif "(" in mark:
            tag = mark[1:mark.find("*")]
            labels.append("B-" + tag)
            inside = ")" not in mark
        else:
            raise ValueError(f"Conll05st: unexpected label {mark!r}")
    return labels


class Conll05st(Dataset):
    """One item per predicate of each sentence of test.wsj.

    Args:
        data_file: conll05st-tests.tar.gz; word_dict_file, verb_dict_file, target_dict_file:
            wordDict.txt, verbDict.txt and targetDict.txt (one entry a line); emb_file: the
            word embeddings (only its path is kept, for get_embedding). Each None looks in
            PaddlePaddle's cache (download=True) and never downloads.

    An item is (word ids, the ids of the words two and one before the predicate, of the
    predicate and of the two after ('bos'/'eos' past the ends), each repeated over the
    sentence, the predicate's id, the mark of the five words around the predicate, label ids),
    nine int64 arrays of the sentence's length. The label ids number B-/I- of each tag of
    targetDict.txt in order of first appearance, then 'O'."""

    def __init__(self, data_file=None, word_dict_file=None, verb_dict_file=None,
                 target_dict_file=None, emb_file=None, download=True):
        api = "Conll05st"
        self.data_file = find_file(data_file, DATA_URL, "conll05st", download, api, "data_file")
        self.word_dict_file = find_file(word_dict_file, WORDDICT_URL, "conll05st", download, api,
                                        "word_dict_file")
        self.verb_dict_file = find_file(verb_dict_file, VERBDICT_URL, "conll05st", download, api,
                                        "verb_dict_file")
        self.target_dict_file = find_file(target_dict_file, TRGDICT_URL, "conll05st", download,
                                          api, "target_dict_file")
        self.emb_file = find_file(emb_file, EMB_URL, "conll05st", download, api, "emb_file")
        dictionary = "a dictionary (one entry a line)"
        with reading(self.word_dict_file, api, dictionary):
            self.word_dict = _load_dict(self.word_dict_file)
        with reading(self.verb_dict_file, api, dictionary):
            self.predicate_dict = _load_dict(self.verb_dict_file)
        with reading(self.target_dict_file, api, dictionary):
            self.label_dict = _load_label_dict(self.target_dict_file)
        with reading(self.data_file, api, "the conll05st tests tar archive"):
            self._load_anno()

    def _load_anno(self):
        self.sentences, self.predicates, self.labels = [], [], []
        with tarfile.open(self.data_file) as archive, \
                gzip.GzipFile(fileobj=archive.extractfile(_WORDS)) as words_file, \
                gzip.GzipFile(fileobj=archive.extractfile(_PROPS)) as props_file:
            words, columns = [], []
            for word, props in zip(words_file, props_file):
                word, props = word.strip().decode(), props.strip().decode().split()
                if props:
                    words.append(word)
                    columns.append(props)
                    continue
                # A blank line ends a sentence: column 0 holds its predicates ('-' elsewhere),
                # column k + 1 the arguments of predicate k.
                if columns:
                    per_column = list(zip(*columns))
                    verbs = [v for v in per_column[0] if v != "-"]
                    for k, column in enumerate(per_column[1:]):
                        self.sentences.append(words)
                        self.predicates.append(verbs[k])
                        self.labels.append(_bio_labels(column))
                words, columns = [], []

    def __getitem__(self, idx):
        sentence, predicate, labels = self.sentences[idx], self.predicates[idx], self.labels[idx]
        length = len(sentence)
        verb = labels.index("B-V")
        mark = [0] * length
        context = []
        for offset, outside in ((-2, "bos"), (-1, "bos"), (0, None), (1, "eos"), (2, "eos")):
            position = verb + offset
            if 0 <= position < length:
                mark[position] = 1
                context.append(sentence[position])
            else:
                context.append(outside)
        word_ids = [self.word_dict.get(w, UNK_IDX) for w in sentence]
        context_ids = [[self.word_dict.get(w, UNK_IDX)] * length for w in context]
        predicate_ids = [self.predicate_dict.get(predicate)] * length
        label_ids = [self.label_dict.get(label) for label in labels]
        return (np.array(word_ids), *(np.array(ids) for ids in context_ids),
                np.array(predicate_ids), np.array(mark), np.array(label_ids))

    def __len__(self):
        return len(self.sentences)

    def get_dict(self):
        """(word_dict, predicate_dict, label_dict)."""
        return self.word_dict, self.predicate_dict, self.label_dict

    def get_embedding(self):
        """The path of the embedding file."""
        return self.emb_file
