"""paddle.text's datasets on small files in PaddlePaddle's formats (dataset_files.py): every
item (dtype, shape, values) and the dictionaries against what PaddlePaddle 3.3.1 gives on the
same files (tools/record_paddle_text_datasets.py), the cache lookup and the errors for missing,
truncated and corrupt files, and the use of the datasets with paddle.io."""
import ast
import gzip
import json
import os
import tempfile
import zipfile

import numpy as np
import pytest

import paddle
import paddle.text
from dataset_files import WMT16_TRAIN, _tar, dataset_cases

RECORDED = np.load(os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "paddle_text_datasets_reference.npz"))
# Dictionaries that Paddle numbers in a Python set's order (changing from run to run): their
# ids are compared as the words they stand for.
SET_ORDERED = {"Movielens": {5: "categories_dict", 6: "movie_title_dict"},
               "Conll05st": {8: "label_dict"}}
DICTIONARIES = {"Imdb": ["word_idx"], "Imikolov": ["word_idx"],
                "Movielens": ["categories_dict", "movie_title_dict"],
                "WMT14": ["src_dict", "trg_dict"], "WMT16": ["src_dict", "trg_dict"],
                "Conll05st": ["word_dict", "predicate_dict", "label_dict"], "UCIHousing": []}


@pytest.fixture(scope="module")
def cases(tmp_path_factory):
    return dataset_cases(str(tmp_path_factory.mktemp("text_datasets")))


def recorded_dict(name, attribute):
    return {key: i for key, i in json.loads(str(RECORDED[f"{name}/{attribute}"]))}


def as_words(ids, words):
    names = {i: w for w, i in words.items()}
    return [names[int(i)] for i in np.ravel(ids)]


def case_names():
    with tempfile.TemporaryDirectory() as folder:
        return list(dataset_cases(folder))


@pytest.mark.parametrize("name", case_names())
def test_items_are_paddles(cases, name):
    class_name, kwargs = cases[name]
    dataset = getattr(paddle.text, class_name)(**kwargs)
    assert isinstance(dataset, paddle.io.Dataset)
    assert len(dataset) == int(RECORDED[f"{name}/len"])
    assert len(dataset) > 0 or name.startswith("uci")
    mine = {a: {repr(w): i for w, i in getattr(dataset, a).items()}
            for a in DICTIONARIES[class_name]}
    for attribute in DICTIONARIES[class_name]:
        if attribute in SET_ORDERED.get(class_name, {}).values():
            assert set(mine[attribute]) == set(recorded_dict(name, attribute))
        else:
            assert mine[attribute] == recorded_dict(name, attribute)
    for i in range(len(dataset)):
        item = dataset[i]
        assert isinstance(item, tuple) and len(item) == int(RECORDED[f"{name}/{i}/fields"])
        for k, value in enumerate(item):
            expected = RECORDED[f"{name}/{i}/{k}"]
            assert isinstance(value, np.ndarray)
            assert value.dtype == expected.dtype and value.shape == expected.shape, (
                name, i, k, value.dtype, value.shape, expected.dtype, expected.shape)
            attribute = SET_ORDERED.get(class_name, {}).get(k)
            if attribute is None:
                np.testing.assert_allclose(value, expected, rtol=1e-6)
            else:
                theirs = {ast.literal_eval(w): i for w, i in recorded_dict(name, attribute).items()}
                assert as_words(value, getattr(dataset, attribute)) == as_words(expected, theirs)


def test_datasets_feed_a_dataloader(cases):
    _, kwargs = cases["uci_housing_train"]
    loader = paddle.io.DataLoader(paddle.text.UCIHousing(**kwargs), batch_size=4)
    features, prices = next(iter(loader))
    assert features.shape == [4, 13] and prices.shape == [4, 1]
    assert features.dtype == paddle.float32


def test_uci_housing_follows_the_default_dtype(cases):
    _, kwargs = cases["uci_housing_test"]
    paddle.set_default_dtype("float64")
    try:
        features, price = paddle.text.UCIHousing(**kwargs)[0]
    finally:
        paddle.set_default_dtype("float32")
    assert features.dtype == np.float64 and price.dtype == np.float64


def test_wmt16_counts_the_target_dictionary_in_the_target_language(tmp_path):
    path = _tar(str(tmp_path / "wmt16.tar.gz"), [
        ("wmt16/train", "a dog\tein hund\na cat\teine katze\nthe dog\tder hund\n"),
        ("wmt16/test", ""), ("wmt16/val", "")])
    dataset = paddle.text.WMT16(path, "train", src_dict_size=10, trg_dict_size=10)
    assert list(dataset.trg_dict) == ["<s>", "<e>", "<unk>", "hund", "ein", "eine", "katze",
                                      "der"]
    assert dataset.get_dict("de") == dataset.trg_dict
    assert dataset.get_dict("en", reverse=True)[3] in ("a", "dog")
    np.testing.assert_array_equal(dataset[0][1], [0, 4, 3])
    assert WMT16_TRAIN.count("\t") == 3  # the recorded cases' pairs read the same both ways


URLS = {"Imdb": ("imdb", "imdb%2FaclImdb_v1.tar.gz"),
        "Imikolov": ("imikolov", "imikolov%2Fsimple-examples.tgz"),
        "Movielens": ("sentiment", "movielens%2Fml-1m.zip"),
        "UCIHousing": ("uci_housing", "housing.data"),
        "WMT14": ("wmt14", "wmt14.tgz"), "WMT16": ("wmt16", "wmt16.tar.gz"),
        "Conll05st": ("conll05st", "conll05st-tests.tar.gz")}
EXTRA = {"Imikolov": dict(window_size=2), "WMT14": dict(dict_size=5),
         "WMT16": dict(src_dict_size=5, trg_dict_size=5)}


@pytest.mark.parametrize("class_name", list(URLS))
def test_a_missing_file_names_its_path_and_url_and_nothing_is_downloaded(
        class_name, tmp_path, monkeypatch):
    monkeypatch.setenv("HOME", str(tmp_path))
    module, file_name = URLS[class_name]
    expected = os.path.join(str(tmp_path), ".cache", "paddle", "dataset", module, file_name)
    with pytest.raises(FileNotFoundError) as raised:
        getattr(paddle.text, class_name)(**EXTRA.get(class_name, {}))
    message = str(raised.value)
    assert class_name in message and expected in message and f"/{file_name}" in message
    assert "does not download" in message
    with pytest.raises(ValueError, match="download=False"):
        getattr(paddle.text, class_name)(download=False, **EXTRA.get(class_name, {}))
    with pytest.raises(FileNotFoundError, match="no_such_file"):
        getattr(paddle.text, class_name)(data_file=str(tmp_path / "no_such_file"),
                                         **EXTRA.get(class_name, {}))


def test_a_file_in_paddles_cache_is_found(cases, tmp_path, monkeypatch):
    monkeypatch.setenv("HOME", str(tmp_path))
    cache = tmp_path / ".cache" / "paddle" / "dataset" / "uci_housing"
    cache.mkdir(parents=True)
    _, kwargs = cases["uci_housing_train"]
    (cache / "housing.data").write_bytes(open(kwargs["data_file"], "rb").read())
    dataset = paddle.text.UCIHousing(mode="train")
    assert dataset.data_file == str(cache / "housing.data")
    np.testing.assert_array_equal(dataset[3][0], paddle.text.UCIHousing(**kwargs)[3][0])


@pytest.mark.parametrize("name", ["imdb_train", "imikolov_seq_train", "movielens_train",
                                  "wmt14_train", "wmt16_train_en", "conll05st"])
def test_truncated_and_corrupt_archives_name_the_file(cases, name, tmp_path):
    class_name, kwargs = cases[name]
    data = open(kwargs["data_file"], "rb").read()
    for label, damaged in (("truncated", data[:len(data) // 2]),
                           ("corrupt", bytes(range(256)) * 4)):
        path = str(tmp_path / f"{label}_{os.path.basename(kwargs['data_file'])}")
        with open(path, "wb") as f:
            f.write(damaged)
        with pytest.raises(ValueError, match=f"{class_name}: cannot read {path}"):
            getattr(paddle.text, class_name)(**dict(kwargs, data_file=path))


def test_an_archive_without_the_expected_members_names_them(tmp_path):
    path = _tar(str(tmp_path / "empty.tgz"), [("something/else", "x")])
    with pytest.raises(ValueError, match="simple-examples/data/ptb.train.txt"):
        paddle.text.Imikolov(path, window_size=2)
    with pytest.raises(ValueError, match="one member ending with 'src.dict'"):
        paddle.text.WMT14(path, dict_size=5)
    with pytest.raises(ValueError, match="wmt16/train"):
        paddle.text.WMT16(path, src_dict_size=5, trg_dict_size=5)


def test_uci_housing_rejects_files_that_are_not_14_numbers_a_house(tmp_path):
    path = tmp_path / "housing.data"
    path.write_text("1 2 3\n")
    with pytest.raises(ValueError, match="3 numbers, not 14 per house"):
        paddle.text.UCIHousing(str(path))
    path.write_text("1 2 x\n")
    with pytest.raises(ValueError, match="holds something other than numbers"):
        paddle.text.UCIHousing(str(path))


def test_conll05st_rejects_an_unknown_argument_mark(cases, tmp_path):
    _, kwargs = cases["conll05st"]
    words = gzip.compress(b"cat\nsat\n\n")
    props = gzip.compress(b"-  [A0*\nsat (V*)\n\n")
    path = _tar(str(tmp_path / "conll.tar.gz"), [
        ("conll05st-release/test.wsj/words/test.wsj.words.gz", words),
        ("conll05st-release/test.wsj/props/test.wsj.props.gz", props)])
    with pytest.raises(ValueError, match="unexpected label '\\[A0\\*'"):
        paddle.text.Conll05st(**dict(kwargs, data_file=path))


def test_argument_errors(cases):
    _, imdb = cases["imdb_train"]
    with pytest.raises(ValueError, match="Imdb: mode should be one of \\['train', 'test'\\]"):
        paddle.text.Imdb(imdb["data_file"], mode="val")
    _, ptb = cases["imikolov_ngram_train"]
    with pytest.raises(ValueError, match="data_type should be 'NGRAM' or 'SEQ'"):
        paddle.text.Imikolov(ptb["data_file"], data_type="skipgram", window_size=2)
    with pytest.raises(ValueError, match="needs window_size >= 0"):
        paddle.text.Imikolov(ptb["data_file"])
    with pytest.raises(ValueError, match="'<s>' in the dictionary"):
        paddle.text.Imikolov(ptb["data_file"], data_type="SEQ", min_word_freq=100)
    _, wmt14 = cases["wmt14_train"]
    with pytest.raises(ValueError, match="WMT14: dict_size should be a positive int"):
        paddle.text.WMT14(wmt14["data_file"])
    _, wmt16 = cases["wmt16_train_en"]
    with pytest.raises(ValueError, match="WMT16: lang should be 'en' or 'de'"):
        paddle.text.WMT16(wmt16["data_file"], src_dict_size=5, trg_dict_size=5, lang="fr")
    with pytest.raises(ValueError, match="trg_dict_size should be a positive int"):
        paddle.text.WMT16(wmt16["data_file"], src_dict_size=5)


def test_movielens_rejects_malformed_lines_naming_the_file(tmp_path):
    path = str(tmp_path / "ml-1m.zip")
    contents = {"movies.dat": "1::Toy Story (1995)::Comedy\n", "users.dat": "1::F::1::10::0\n",
                "ratings.dat": "1::1::5::0\n"}
    for damaged, text, match in (
            ("ratings.dat", "1::2::5::0\n", "rates movie 2 by user 1, which movies.dat"),
            ("movies.dat", "1::Toy Story::Comedy\n", "does not end with its year"),
            ("users.dat", "1::F::1\n", "users.dat has a line of 3 '::' fields, expected 5")):
        with zipfile.ZipFile(path, "w") as package:
            for name, value in contents.items():
                package.writestr(f"ml-1m/{name}", text if name == damaged else value)
        with pytest.raises(ValueError, match=match) as raised:
            paddle.text.Movielens(path, test_ratio=0.0)
        assert path in str(raised.value)
