"""The learned evaluation's weights file: one ``.npz`` format, written by ``hearts train`` and read by
the ``learned`` player (and anyone putting the model into a search).

A file holds ``weights`` (float64[kinds, situation atoms, card atoms]: see
:mod:`hearts.fast.features`), ``format`` (this module's :data:`FORMAT`), ``features_version`` (the
features it was trained on), ``version`` (the model's own name, e.g. ``learned-v1``), the ``margin``
by which a card must beat the medium player's to be played instead, the training
``command`` and ``seed``, the rules preset it was trained under, and the learning curve
(``curve_*``). A file of another format or feature version is refused with a clear error, never
half-used. Loading needs numpy only (not numba).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from functools import lru_cache
from importlib import resources
from pathlib import Path
from typing import Any

import numpy as np

#: The version of this file format.
FORMAT = 1
#: The features the shipped code computes (:data:`hearts.fast.features.FEATURES_VERSION`, kept here too
#: so that reading a file never imports numba; a test holds the two equal).
FEATURES_VERSION = 1
#: The shape of the weights the features need: kinds x situation atoms x card atoms.
WEIGHTS_SHAPE = (3, 16, 19)
#: The shipped model, in this package's ``data`` folder.
SHIPPED = "learned-v1.npz"


class ModelFileError(ValueError):
    """A weights file that cannot be used: missing, unreadable, or made for other features."""


@dataclass(frozen=True)
class LearnedModel:
    """The weights of the learned evaluation and what made them."""

    weights: np.ndarray
    version: str
    seed: int
    command: str
    preset: str
    #: Points by which a card must beat the medium player's card to be played instead (see
    #: :func:`hearts.fast.features.learned_values`).
    margin: float
    #: The learning curve: per round, the payoff per seat-deal against each fixed opponent (mean, half-width).
    curve: dict[str, list[float]] = field(default_factory=dict)


def save_model(path: str | Path, model: LearnedModel) -> None:
    """Write ``model`` to ``path`` (an ``.npz``)."""
    if model.weights.shape != WEIGHTS_SHAPE:
        raise ModelFileError(f"weights of shape {model.weights.shape}; the features need {WEIGHTS_SHAPE}")
    arrays: dict[str, Any] = {f"curve_{k}": np.asarray(v, dtype=np.float64) for k, v in model.curve.items()}
    meta = {
        "version": model.version,
        "seed": model.seed,
        "margin": model.margin,
        "command": model.command,
        "preset": model.preset,
    }
    with open(path, "wb") as f:
        np.savez_compressed(
            f,
            weights=model.weights.astype(np.float64),
            format=np.int64(FORMAT),
            features_version=np.int64(FEATURES_VERSION),
            meta=np.array(json.dumps(meta)),
            **arrays,
        )


def load_model(path: str | Path | None = None) -> LearnedModel:
    """Read a weights file (the shipped model when ``path`` is None); a bad file raises :class:`ModelFileError`."""
    if path is None:
        return _shipped()
    where = Path(path)
    try:
        with np.load(where, allow_pickle=False) as data:
            contents = {k: data[k] for k in data.files}
    except FileNotFoundError:
        raise ModelFileError(f"no weights file {str(where)!r}") from None
    except (OSError, ValueError) as exc:
        raise ModelFileError(f"{str(where)!r} is not a weights file ({exc})") from None
    for key in ("weights", "format", "features_version", "meta"):
        if key not in contents:
            raise ModelFileError(f"{str(where)!r} is not a weights file: it has no {key!r}")
    if int(contents["format"]) != FORMAT:
        raise ModelFileError(f"{str(where)!r} is weights format {int(contents['format'])}; this hearts reads {FORMAT}")
    if int(contents["features_version"]) != FEATURES_VERSION:
        raise ModelFileError(
            f"{str(where)!r} was trained on features version {int(contents['features_version'])}; this hearts "
            f"computes version {FEATURES_VERSION}: retrain it with 'hearts train'"
        )
    weights = np.ascontiguousarray(contents["weights"], dtype=np.float64)
    if weights.shape != WEIGHTS_SHAPE:
        raise ModelFileError(
            f"{str(where)!r} holds weights of shape {weights.shape}; the features need {WEIGHTS_SHAPE}"
        )
    if not np.isfinite(weights).all():
        raise ModelFileError(f"{str(where)!r} holds weights that are not finite numbers")
    try:
        meta = json.loads(str(contents["meta"]))
        curve = {
            k[len("curve_") :]: [float(x) for x in v.ravel()] for k, v in contents.items() if k.startswith("curve_")
        }
        return LearnedModel(
            weights=weights,
            version=str(meta["version"]),
            seed=int(meta["seed"]),
            margin=float(meta["margin"]),
            command=str(meta["command"]),
            preset=str(meta["preset"]),
            curve=curve,
        )
    except (ValueError, KeyError, TypeError) as exc:
        raise ModelFileError(f"{str(where)!r} has unreadable training notes ({exc})") from None


@lru_cache(maxsize=1)
def _shipped() -> LearnedModel:
    with resources.as_file(resources.files("hearts.players") / "data" / SHIPPED) as path:
        return load_model(path)
