"""Small files in the formats of PaddlePaddle's text datasets, written into a folder, and the
constructor arguments each dataset is tested with. tools/record_paddle_text_datasets.py reads
them with PaddlePaddle (into paddle_text_datasets_reference.npz) and test_text_datasets.py with
this framework. The contents are fixed (no randomness): a few documents, sentences and ratings
chosen so that the dictionaries have ties, unknown words and each branch of the readers."""
import gzip
import io
import os
import tarfile
import zipfile


def _add(archive, name, data):
    info = tarfile.TarInfo(name)
    info.size = len(data)
    info.mtime = 0
    archive.addfile(info, io.BytesIO(data))


def _tar(path, members, mode="w:gz"):
    with tarfile.open(path, mode) as archive:
        for name, text in members:
            _add(archive, name, text.encode("latin-1") if isinstance(text, str) else text)
    return path


IMDB_REVIEWS = {
    "train/pos/0_9.txt": "A great, GREAT movie! The plot was great.\n",
    "train/pos/1_8.txt": "Loved it: the actors, the plot... the movie.",
    "train/neg/0_2.txt": "A bad movie. The plot? Bad; the actors: bad!\r\n",
    "train/neg/1_3.txt": "Boring movie, the end.",
    "test/pos/0_10.txt": "Great actors and a great plot.",
    "test/neg/0_1.txt": "Bad, bad, bad. Not a movie at all!",
    "test/neg/1_4.txt": "",
    "train/unsup/0_0.txt": "unlabelled reviews are not read great great great",
}


def imdb(folder):
    members = [(f"aclImdb/{name}", text) for name, text in IMDB_REVIEWS.items()]
    members.append(("aclImdb/imdb.vocab", "great\nbad\n"))
    return _tar(os.path.join(folder, "aclImdb_v1.tar.gz"), members)


PTB = {
    "train": " the cat sat on the mat \n the dog sat \n a cat and a dog <unk> \n",
    "valid": " the cat ran \n <unk> dog \n",
    "test": " the cat sat on a mat \n the bird sat \n\n",
}


def imikolov(folder):
    members = [(f"./simple-examples/data/ptb.{split}.txt", text) for split, text in PTB.items()]
    members.append(("./simple-examples/README", "Penn Treebank"))
    return _tar(os.path.join(folder, "simple-examples.tgz"), members)


def movielens(folder):
    movies = ("1::Toy Story (1995)::Animation|Children's|Comedy\n"
              "2::Jumanji (1995)::Adventure|Children's|Fantasy\n"
              "3::Grumpier Old Men (1995)::Comedy|Romance\n"
              "4::Cit\xe9 des enfants perdus, La (1995)::Adventure|Sci-Fi\n")
    users = ("1::F::1::10::48067\n2::M::56::16::70072\n3::M::25::15::55117\n"
             "4::F::45::7::02460\n")
    ratings = "".join(f"{u}::{m}::{(u * m) % 5 + 1}::97830{u}{m}\n"
                      for u in range(1, 5) for m in range(1, 5))
    path = os.path.join(folder, "ml-1m.zip")
    with zipfile.ZipFile(path, "w") as package:
        for name, text in (("movies.dat", movies), ("users.dat", users),
                           ("ratings.dat", ratings)):
            package.writestr(f"ml-1m/{name}", text.encode("latin-1"))
    return path


def uci_housing(folder):
    rows = []
    for i in range(12):
        values = [0.1 * i + 0.01 * j * (i % 3) + j for j in range(13)] + [20.0 + i]
        rows.append(" ".join(f"{v:.4f}" for v in values))
    path = os.path.join(folder, "housing.data")
    with open(path, "w") as f:
        f.write("\n".join(rows) + "\n")
    return path


def wmt14(folder):
    src_dict = "<s>\n<e>\n<unk>\nthe\ncat\nsat\ndog\n"
    trg_dict = "<s>\n<e>\n<unk>\nle\nchat\nchien\nassis\n"
    train = ("the cat sat\tle chat assis\n"
             "the dog\tle chien\n"
             "malformed line without a tab\n"
             + " ".join(["the"] * 79) + "\tle\n"
             "a bird\tun oiseau\n")
    return _tar(os.path.join(folder, "wmt14.tgz"), [
        ("wmt14/src.dict", src_dict), ("wmt14/trg.dict", trg_dict),
        ("wmt14/train/train", train), ("wmt14/test/test", "the cat\tle chat\n"),
        ("wmt14/gen/gen", "the dog sat\tle chien assis\n")])


# The train pairs are the same sentence on both sides, so that the target dictionary is the same
# whichever column it is counted from (PaddlePaddle 3.3.1 counts the source column for both).
WMT16_TRAIN = ("a man rides a horse\ta man rides a horse\n"
               "two dogs play\ttwo dogs play\n"
               "a dog and a man\ta dog and a man\n"
               "bad line\n")


def wmt16(folder):
    return _tar(os.path.join(folder, "wmt16.tar.gz"), [
        ("wmt16/train", WMT16_TRAIN),
        ("wmt16/test", "a man plays\tein mann spielt\n"),
        ("wmt16/val", "two horses\tzwei pferde\n")])


CONLL_WORDS = ["The", "cat", "sat", "on", "the", "mat", ".", "",
               "He", "said", "it", "rains", "", "Go", ""]
CONLL_PROPS = ["-     (A0*", "-     *)", "sat   (V*)", "-     (AM-LOC*", "-     *", "-     *)",
               "-     *", "",
               "-      (A0*)  *", "said   (V*)   *", "-      (A1*   (A0*)", "rains  *)     (V*)",
               "", "Go    (V*)", ""]


def conll05st(folder):
    words = gzip.compress("\n".join(CONLL_WORDS).encode() + b"\n", mtime=0)
    props = gzip.compress("\n".join(CONLL_PROPS).encode() + b"\n", mtime=0)
    data = _tar(os.path.join(folder, "conll05st-tests.tar.gz"), [
        ("conll05st-release/test.wsj/words/test.wsj.words.gz", words),
        ("conll05st-release/test.wsj/props/test.wsj.props.gz", props)])
    files = {"data_file": data}
    for argument, name, text in (
            ("word_dict_file", "wordDict.txt", "<unk>\nthe\ncat\nsat\non\nmat\nhe\nsaid\nbos\n"
                                               "eos\nit\n"),
            ("verb_dict_file", "verbDict.txt", "sat\nsaid\nrains\ngo\nGo\n"),
            ("target_dict_file", "targetDict.txt", "B-A0\nI-A0\nB-A1\nI-A1\nB-V\nI-V\n"
                                                   "B-AM-LOC\nI-AM-LOC\nO\n"),
            ("emb_file", "emb", "not read\n")):
        files[argument] = os.path.join(folder, name)
        with open(files[argument], "w") as f:
            f.write(text)
    return files


def dataset_cases(folder):
    """{case name: (dataset class name, constructor kwargs)} over files written into folder."""
    imdb_file, ptb_file = imdb(folder), imikolov(folder)
    movielens_file, housing_file = movielens(folder), uci_housing(folder)
    wmt14_file, wmt16_file, conll_files = wmt14(folder), wmt16(folder), conll05st(folder)
    cases = {}
    for mode in ("train", "test"):
        cases[f"imdb_{mode}"] = ("Imdb", dict(data_file=imdb_file, mode=mode, cutoff=1))
        cases[f"imikolov_ngram_{mode}"] = ("Imikolov", dict(
            data_file=ptb_file, data_type="NGRAM", window_size=3, mode=mode, min_word_freq=1))
        cases[f"imikolov_seq_{mode}"] = ("Imikolov", dict(
            data_file=ptb_file, data_type="SEQ", window_size=5, mode=mode, min_word_freq=0))
        cases[f"movielens_{mode}"] = ("Movielens", dict(data_file=movielens_file, mode=mode,
                                                        test_ratio=0.3, rand_seed=4))
        cases[f"uci_housing_{mode}"] = ("UCIHousing", dict(data_file=housing_file, mode=mode))
    cases["imikolov_seq_unbounded"] = ("Imikolov", dict(
        data_file=ptb_file, data_type="seq", window_size=-1, mode="train", min_word_freq=2))
    for mode in ("train", "test", "gen"):
        cases[f"wmt14_{mode}"] = ("WMT14", dict(data_file=wmt14_file, mode=mode, dict_size=6))
    for mode, lang in (("train", "en"), ("test", "en"), ("val", "de"), ("train", "de")):
        cases[f"wmt16_{mode}_{lang}"] = ("WMT16", dict(
            data_file=wmt16_file, mode=mode, src_dict_size=8, trg_dict_size=7, lang=lang))
    cases["conll05st"] = ("Conll05st", dict(conll_files))
    return cases
