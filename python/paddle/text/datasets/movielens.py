"""paddle.text.Movielens: the MovieLens 1M ratings, from ml-1m.zip."""
import re
import zipfile

import numpy as np

from ...io import Dataset
from ._files import check_mode, find_file, reading

__all__ = []

URL = "https://dataset.bj.bcebos.com/movielens%2Fml-1m.zip"

# The ages users.dat uses, each standing for a range; a user's age is its index here.
age_table = [1, 18, 25, 35, 45, 50, 56]

_TITLE_YEAR = re.compile(r"^(.*)\((\d+)\)$")


class MovieInfo:
    """A movie of movies.dat: its id, categories and title (without the year)."""

    def __init__(self, index, categories, title):
        self.index = int(index)
        self.categories = categories
        self.title = title

    def value(self, categories_dict, movie_title_dict):
        return [[self.index], [categories_dict[c] for c in self.categories],
                [movie_title_dict[w.lower()] for w in self.title.split()]]

    def __str__(self):
        return (f"<MovieInfo id({self.index}), title({self.title}), "
                f"categories({self.categories})>")

    __repr__ = __str__


class UserInfo:
    """A user of users.dat: id, gender, age (an index into age_table) and job id."""

    def __init__(self, index, gender, age, job_id):
        self.index = int(index)
        self.is_male = gender == "M"
        self.age = age_table.index(int(age))
        self.job_id = int(job_id)

    def value(self):
        return [[self.index], [0 if self.is_male else 1], [self.age], [self.job_id]]

    def __str__(self):
        gender = "M" if self.is_male else "F"
        return (f"<UserInfo id({self.index}), gender({gender}), age({age_table[self.age]}), "
                f"job({self.job_id})>")

    __repr__ = __str__


def _fields(package, name, count):
    for line in package.open(f"ml-1m/{name}"):
        fields = line.decode("latin-1").strip().split("::")
        if len(fields) != count:
            raise ValueError(f"{package.filename}: ml-1m/{name} has a line of {len(fields)} "
                             f"'::' fields, expected {count}: {line!r}")
        yield fields


class Movielens(Dataset):
    """The ratings of ml-1m.zip, each with its user's and movie's features.

    Args:
        data_file: ml-1m.zip; None looks in PaddlePaddle's cache (download=True; Paddle keeps it
            under 'sentiment') and never downloads.
        mode: 'train' or 'test'.
        test_ratio: the share of the ratings drawn into the test split.
        rand_seed: the seed of those draws (NumPy's RandomState, one draw per rating, as Paddle
            draws them from np.random after seeding it).

    An item is (user id [1], gender [1] (0 male, 1 female), age index [1], job id [1],
    movie id [1], category ids [C], title word ids [W]: int64; rating [1] float64, scaled to
    rating * 2 - 5). Category and title word ids number them in order of first appearance in
    movies.dat."""

    def __init__(self, data_file=None, mode="train", test_ratio=0.1, rand_seed=0, download=True):
        api = "Movielens"
        self.mode = check_mode(mode, ("train", "test"), api)
        self.data_file = find_file(data_file, URL, "sentiment", download, api, "data_file")
        self.test_ratio = test_ratio
        self.rand_seed = rand_seed
        with reading(self.data_file, api, "the ml-1m zip archive"):
            with zipfile.ZipFile(self.data_file) as package:
                self._load_meta_info(package)
                self._load_data(package)

    def _load_meta_info(self, package):
        self.movie_info, self.movie_title_dict, self.categories_dict = {}, {}, {}
        self.user_info = {}
        for movie_id, title, categories in _fields(package, "movies.dat", 3):
            categories = categories.split("|")
            match = _TITLE_YEAR.match(title)
            if match is None:
                raise ValueError(f"{package.filename}: ml-1m/movies.dat: the title {title!r} of "
                                 f"movie {movie_id} does not end with its year in parentheses")
            title = match.group(1)
            self.movie_info[int(movie_id)] = MovieInfo(movie_id, categories, title)
            for category in categories:
                self.categories_dict.setdefault(category, len(self.categories_dict))
            for word in title.split():
                self.movie_title_dict.setdefault(word.lower(), len(self.movie_title_dict))
        for uid, gender, age, job, _ in _fields(package, "users.dat", 5):
            self.user_info[int(uid)] = UserInfo(uid, gender, age, job)

    def _load_data(self, package):
        draws = np.random.RandomState(self.rand_seed)
        is_test = self.mode == "test"
        self.data = []
        for uid, movie_id, rating, _ in _fields(package, "ratings.dat", 4):
            if (draws.random_sample() < self.test_ratio) != is_test:
                continue
            user, movie = self.user_info.get(int(uid)), self.movie_info.get(int(movie_id))
            if user is None or movie is None:
                raise ValueError(f"{package.filename}: ml-1m/ratings.dat rates movie {movie_id} "
                                 f"by user {uid}, which movies.dat or users.dat does not list")
            self.data.append(user.value() + movie.value(self.categories_dict,
                                                        self.movie_title_dict)
                             + [[float(rating) * 2 - 5.0]])

    def __getitem__(self, idx):
        return tuple(np.array(value) for value in self.data[idx])

    def __len__(self):
        return len(self.data)
